"""Identical monsters share one initiative from the keyboard (issue 25 item 14): ctrl+t in the add
dialog, one line for them in the start dialog, the initiative dialog moving them together or splitting
one off. Keys are sent in bursts."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import commands as C
from engine import new_fight
from saves.session import Session
from tests.tui.support import app_on, burst, dialog_error, of, pane_text, select, sync
from tui.dialogs import AddDialog, InitiativeDialog, StartDialog
from tui.main import MainScreen


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "data"
    monkeypatch.setenv("FRACAS_DATA_DIR", str(folder))
    return folder


def fresh(rid: str = "d20") -> Session:
    s = Session.memory(new_fight(rid, seed=2))
    s.apply(C.AddCombatant("Ayla", kind="pc", side="party", stats=(("hp", 24), ("dex", 14))))
    return s


def order(s: Session) -> list[str]:
    return [s.state.get(x).name for x in s.state.order]


@sync
async def test_goblins_added_together_start_on_one_line_and_stand_side_by_side(tmp_path: Path) -> None:
    s = fresh()
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await burst(pilot, "a", *"gob x3", "ctrl+t", "enter")
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        goblins = [of(s, f"Goblin {i}") for i in (1, 2, 3)]
        assert goblins[0].group and {g.group for g in goblins} == {goblins[0].group}
        await burst(pilot, "s")
        dlg = app.screen
        assert isinstance(dlg, StartDialog)
        # one field for the three: Goblin 2 and 3 say whose initiative they take
        assert dlg.query("#init-1") and not dlg.query("#init-2") and not dlg.query("#init-3")
        assert dlg.query_one("#init-1").placeholder.startswith("die for all 3")  # type: ignore[attr-defined]
        assert "with Goblin 1" in " ".join(str(w.render()) for w in dlg.query(".with"))
        await burst(pilot, "5", "tab", "1", "8", "enter")  # Ayla's die, then the goblins' one
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        assert of(s, "Ayla").initiative == 7
        assert {of(s, f"Goblin {i}").initiative for i in (1, 2, 3)} == {18 + 2}  # the goblin's Dex bonus
        assert order(s) == ["Goblin 1", "Goblin 2", "Goblin 3", "Ayla"]
        log = await pane_text(pilot, "log")
        assert "Goblin 1-3 roll initiative together: 20" in log


def started(*then: C.Command) -> Session:
    s = fresh()
    s.apply(C.AddCombatant("Goblin", stats=(("hp", 7), ("dex", 14)), count=3, together=True))
    s.apply(C.AddCombatant("Orc", stats=(("hp", 15),)))
    ids = {c.name: c.id for c in s.state.combatants}
    s.apply(C.StartFight(totals=((ids["Ayla"], 15), (ids["Goblin 1"], 12), (ids["Orc"], 9))))
    for cmd in then:
        s.apply(cmd)
    return s


@sync
async def test_a_new_initiative_moves_them_together_unless_one_goes_alone(tmp_path: Path) -> None:
    s = started()
    assert order(s) == ["Ayla", "Goblin 1", "Goblin 2", "Goblin 3", "Orc"]
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await select(pilot, "Goblin 2")
        sheet = await pane_text(pilot, "sheet")
        assert "shared with Goblin 1 and Goblin 3" in sheet
        await burst(pilot, "i", "ctrl+u", "2", "0", "enter")
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        assert order(s) == ["Goblin 1", "Goblin 2", "Goblin 3", "Ayla", "Orc"]
        await select(pilot, "Goblin 3")
        await burst(pilot, "i")
        dlg = app.screen
        assert isinstance(dlg, InitiativeDialog) and dlg.query("#alone")
        # on its own at 3: the initiative, the place left as it is, the box ticked
        await burst(pilot, "ctrl+u", "3", "tab", "tab", "space", "enter")
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        assert order(s) == ["Goblin 1", "Goblin 2", "Ayla", "Orc", "Goblin 3"]
        assert of(s, "Goblin 3").group == "" and of(s, "Goblin 1").group == of(s, "Goblin 2").group != ""
        steps = s.history.cursor
        await burst(pilot, "ctrl+z")
        assert of(s, "Goblin 3").group != "" and s.history.cursor != steps


@sync
async def test_added_together_to_a_fight_under_way_one_roll(tmp_path: Path) -> None:
    s = started()
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await burst(pilot, "a", *"ridge wolf x2", "ctrl+t")
        dlg = app.screen
        assert isinstance(dlg, AddDialog) and dlg.checked("together")
        note = str(dlg.query_one("#library-note").render())
        assert "Ridge Wolf 1-2" in note  # the dry run: one initiative for the two
        await burst(pilot, "enter")
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        w1, w2 = of(s, "Ridge Wolf 1"), of(s, "Ridge Wolf 2")
        assert w1.initiative == w2.initiative is not None and w1.group == w2.group != ""
        names = order(s)
        assert names.index("Ridge Wolf 2") == names.index("Ridge Wolf 1") + 1


@sync
async def test_no_together_where_the_ruleset_has_no_initiative(tmp_path: Path) -> None:
    s = fresh("cosmere")
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await burst(pilot, "a")
        assert isinstance(app.screen, AddDialog) and not app.screen.query("#together")
