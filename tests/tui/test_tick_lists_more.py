"""Issue 25, item 3, the rest: the party's lists, what an ended concentration kept up and the start
dialog's surprised boxes are lists as the area dialog's targets are: one tab stop, up/down between
the rows, space ticks, the focused row marked without colour. Keys go in bursts (all queued at once):
each applies where the key before it left the focus."""

from __future__ import annotations

from pathlib import Path

import pytest

import engine.library as L
from engine import commands as C
from engine import new_fight
from engine.area import KeptCondition
from saves import library as S
from saves.session import Session
from tests.tui.support import app_on, burst, cid, demo_session, dialog_error, main_screen, of, sync
from tui.dialogs.fields import ListTick
from tui.dialogs.order import StartDialog
from tui.effects import KeptEndedDialog
from tui.main import MainScreen
from tui.party import PartyAddDialog, PartyChangesDialog


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "data"
    monkeypatch.setenv("FRACAS_DATA_DIR", str(folder))
    return folder


def list_stops(dialog: object) -> list[ListTick]:
    return [w for w in dialog.focus_chain if isinstance(w, ListTick)]  # type: ignore[attr-defined]


def marked(box: ListTick) -> bool:
    """The box is drawn ▸X◂ or ▸ ◂ and its row's mark says ▸: told without colour."""
    drawn = box.render().plain  # type: ignore[union-attr]
    row_mark = str(box.parent.query_one(".label").render())  # type: ignore[union-attr]
    return drawn.startswith("▸") and drawn[2] == "◂" and "▸" in row_mark


def roster(*names: str) -> None:
    S.add_to_party("d20", [L.decode_entry("d20", {"name": n, "kind": "pc", "side": "party", "hp": 20}) for n in names])


@sync
async def test_add_the_party_down_space_enter_in_one_burst(tmp_path: Path) -> None:
    roster("Ayla", "Bram", "Cato")
    s = Session.memory(new_fight("d20", seed=3))
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await burst(pilot, "A")
        dlg = app.screen
        assert isinstance(dlg, PartyAddDialog)
        assert len(list_stops(dlg)) == 1  # the whole list, one stop
        assert app.focused is dlg.query_one("#pc-0") and marked(dlg.query_one("#pc-0", ListTick))
        # down to Bram, untick him, down to Cato, and apply: in one burst
        await burst(pilot, "down", "space", "down", "enter")
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        assert sorted(c.name for c in s.state.combatants) == ["Ayla", "Cato"]


@sync
async def test_add_the_party_tab_leaves_the_list_and_shift_tab_comes_back_to_the_row(tmp_path: Path) -> None:
    roster("Ayla", "Bram", "Cato")
    s = Session.memory(new_fight("d20", seed=3))
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await burst(pilot, "A")
        dlg = app.screen
        assert isinstance(dlg, PartyAddDialog)
        await burst(pilot, "down", "down", "tab", "shift+tab", "up", "space")
        assert app.focused is dlg.query_one("#pc-1") and marked(dlg.query_one("#pc-1", ListTick))
        assert not dlg.checked("pc-1") and dlg.checked("pc-0") and dlg.checked("pc-2")
        assert not marked(dlg.query_one("#pc-2", ListTick))


@sync
async def test_write_back_one_list_over_the_changed_and_the_newcomers(tmp_path: Path) -> None:
    roster("Ayla", "Bram")
    s = Session.memory(new_fight("d20", seed=3))
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await burst(pilot, "A", "enter")
        s.apply(C.AddCombatant("Dara", kind="pc", side="party", stats=(("hp", 15),)))  # made by hand
        s.apply(C.StartFight())
        s.apply(C.Damage(of(s, "Ayla").id, amount=5))
        s.apply(C.Damage(of(s, "Bram").id, amount=3))
        app.refresh_fight()
        main_screen(pilot).action_end_fight()
        await pilot.pause()
        dlg = app.screen
        assert isinstance(dlg, PartyChangesDialog), dialog_error(pilot)
        assert len(list_stops(dlg)) == 1
        assert dlg.checked("pc-0") and dlg.checked("pc-1") and not dlg.checked("new-0")
        # Bram kept as the roster has him, Dara joins: down, space, down (past the heading), space
        await burst(pilot, "down", "space", "down", "space", "enter", settle=0.6)
        members = {m.name: m for m in S.read_party("d20")}
        assert sorted(members) == ["Ayla", "Bram", "Dara"]
        assert members["Ayla"].now != S.Now() and members["Bram"].now == S.Now()


@sync
async def test_what_a_concentration_kept_up_down_space_enter_in_one_burst(tmp_path: Path) -> None:
    s = demo_session("d20", start=True)
    captain = cid(s, "Bandit Captain")
    s.apply(C.AddCondition(captain, "Concentrating", note="Hold Person"))
    for name, cond in (("Brannoc", "Restrained"), ("Ysolde", "Frightened"), ("Bandit 1", "Blinded")):
        s.apply(KeptCondition(cid(s, name), cond, captain))
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        app.commit(C.RemoveCondition(captain, "Concentrating"))
        await pilot.pause()
        await pilot.pause()
        dlg = app.screen
        assert isinstance(dlg, KeptEndedDialog)
        assert len(list_stops(dlg)) == 1 and marked(dlg.query_one("#end-0", ListTick))
        await burst(pilot, "down", "space", "enter")  # keep Ysolde's, end the others
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        assert not of(s, "Brannoc").has("Restrained") and not of(s, "Bandit 1").has("Blinded")
        assert of(s, "Ysolde").has("Frightened")


@sync
async def test_start_the_dice_then_the_surprised_list_as_one_stop(tmp_path: Path) -> None:
    s = demo_session("d20")
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await burst(pilot, "s")
        dlg = app.screen
        assert isinstance(dlg, StartDialog)
        names = [c.name for c in s.state.combatants]
        dice = [w for w in dlg.focus_chain if (w.id or "").startswith("init-")]
        assert len(list_stops(dlg)) == 1  # the surprised boxes: one stop after the dice
        assert app.focused is dice[0]
        # Brannoc's die, tab down the dice to the list, down twice (Grey Wolf, who has no die of his
        # own), tick him, then start
        await burst(pilot, "1", "7", *["tab"] * len(dice), "down", "down", "space", "enter", settle=0.8)
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        start = s.history.nodes[s.history.cursor].command
        assert isinstance(start, C.StartFight)
        assert names[2] == "Grey Wolf" and start.surprised == (cid(s, "Grey Wolf"),)
        assert dict(start.initiative)[cid(s, "Brannoc")] == (17,)
