"""The party roster in the app: add the whole party in one step (each PC where the roster says it
stands), then at the end of the fight what changed for each PC, written back on confirmation, with a
one-step undo of the write-back. The dialogs are pushed directly (their keys are wired in tui/main.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

import engine.library as L
from engine import apply, new_fight
from engine import commands as C
from saves import library as S
from saves.session import Session
from tests.tui.support import app_on, dialog_error, of, sync
from tui.main import MainScreen
from tui.party import PartyAddDialog, PartyChangesDialog, WrittenBackDialog, change_text, party_commands


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "data"
    monkeypatch.setenv("FRACAS_DATA_DIR", str(folder))
    return folder


def roster() -> None:
    pcs = [
        L.decode_entry("d20", {"name": "Ayla", "kind": "pc", "side": "party", "hp": 24, "gambit": 2}),
        L.decode_entry("d20", {"name": "Bren", "kind": "pc", "side": "party", "hp": 30}),
    ]
    S.add_to_party("d20", pcs)
    # Bren left the last fight hurt
    members = S.read_party("d20")
    S.write_party("d20", [members[0], S.Member(members[1].statblock, S.Now(health=(S.Track("hp", 21),)))])


@sync
async def test_the_party_in_one_step_then_written_back_and_undone(tmp_path: Path) -> None:
    roster()
    s = Session.memory(new_fight("d20", seed=3))
    s.apply(L.to_add(next(x for x in L.starter("d20") if x.name == "Goblin"), 2)[0])
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_screen(PartyAddDialog())
        await pilot.pause()
        await pilot.press("enter")
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        assert [c.name for c in s.state.combatants] == ["Goblin 1", "Goblin 2", "Ayla", "Bren"]
        assert of(s, "Bren").health[0].current == 21 and of(s, "Ayla").health[0].current == 24
        # a second time: both are in the fight already, nothing is ticked
        app.push_screen(PartyAddDialog())
        await pilot.pause()
        await pilot.press("enter")
        assert "Tick the PCs" in dialog_error(pilot)
        await pilot.press("escape")
        # the fight: Ayla hurt and a gambit spent, Exhaustion for Bren
        s.apply(C.Damage(of(s, "Ayla").id, amount=5))
        s.apply(C.SpendResource(of(s, "Ayla").id, "gambit"))
        s.apply(C.AddCondition(of(s, "Bren").id, "Exhaustion", level=2))
        app.push_screen(PartyChangesDialog())
        await pilot.pause()
        shown = " ".join(str(w.render()) for w in app.screen.query("Static"))
        assert "hp 24 -> 19" in shown and "gambit 2 -> 1" in shown and "Exhaustion (new, level 2)" in shown
        await pilot.press("enter")
        assert isinstance(app.screen, WrittenBackDialog), dialog_error(pilot)
        after = {m.name: m.now for m in S.read_party("d20")}
        assert after["Ayla"].health == (S.Track("hp", 19),) and after["Bren"].conditions[0].level == 2
        await pilot.press("u")  # undo the write-back: the roster as it was
        await pilot.pause()
        assert isinstance(app.screen, MainScreen)
        back = {m.name: m.now for m in S.read_party("d20")}
        assert back["Ayla"] == S.Now() and back["Bren"].health == (S.Track("hp", 21),)


@sync
async def test_only_the_ticked_pcs_are_written_back(tmp_path: Path) -> None:
    roster()
    s = Session.memory(new_fight("d20", seed=3))
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_screen(PartyAddDialog())
        await pilot.pause()
        await pilot.press("enter")
        s.apply(C.Damage(of(s, "Ayla").id, amount=3))
        s.apply(C.Heal(of(s, "Bren").id, amount=9))
        app.push_screen(PartyChangesDialog())
        await pilot.pause()
        await pilot.press("space")  # untick Ayla (the first)
        await pilot.press("enter")
        assert isinstance(app.screen, WrittenBackDialog), dialog_error(pilot)
        await pilot.press("enter")
        now = {m.name: m.now for m in S.read_party("d20")}
        assert now["Ayla"] == S.Now() and now["Bren"].health == (S.Track("hp", 30),)


@sync
async def test_no_roster_and_a_broken_roster_are_said_plainly(tmp_path: Path, data_dir: Path) -> None:
    s = Session.memory(new_fight("d20", seed=3))
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_screen(PartyAddDialog())
        await pilot.pause()
        assert "No party yet" in " ".join(str(w.render()) for w in app.screen.query("Static"))
        await pilot.press("escape")
        (data_dir / "party").mkdir(parents=True)
        (data_dir / "party" / "d20.toml").write_text("[[pc]]\nname = 3\n")
        app.push_screen(PartyChangesDialog())
        await pilot.pause()
        text = " ".join(str(w.render()) for w in app.screen.query("Static"))
        assert "d20.toml" in text and "entry 1" in text
        await pilot.press("escape")
        assert isinstance(app.screen, MainScreen)


def test_change_text() -> None:
    assert change_text(S.Change("health", "hp", "24", "19")) == "hp 24 -> 19"
    assert change_text(S.Change("condition", "Poisoned", "1", "")) == "Poisoned (ended)"
    assert change_text(S.Change("condition", "Exhaustion", "1", "3")) == "Exhaustion level 1 -> 3"


@sync
async def test_a_pc_made_in_the_fight_joins_the_roster(tmp_path: Path) -> None:
    """A PC made by hand (no roster yet) is put on the roster from the app, as it stands now; the
    write's undo takes it off again. It is offered unticked: a guest does not join unasked."""
    s = Session.memory(new_fight("d20", seed=3))
    s.apply(C.AddCombatant("Cora", kind="pc", side="party", stats=(("hp", 27), ("ac", 16), ("dex", 14))))
    s.apply(C.AddCombatant("Goblin", stats=(("hp", 7),)))
    s.apply(C.Damage(of(s, "Cora").id, amount=4))
    assert S.read_party("d20") == () and not S.worth_asking("d20", s.state)  # no roster: not asked at the end
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_screen(PartyChangesDialog())
        await pilot.pause()
        shown = " ".join(str(w.render()) for w in app.screen.query("Static"))
        assert "Not on the roster yet" in shown
        await pilot.press("enter")
        assert "Tick the PCs" in dialog_error(pilot)  # nothing ticked: nothing written
        assert S.read_party("d20") == ()
        await pilot.press("space", "enter")
        assert isinstance(app.screen, WrittenBackDialog), dialog_error(pilot)
        (cora,) = S.read_party("d20")
        assert cora.name == "Cora" and cora.statblock.kind == "pc"
        assert not S.worth_asking("d20", s.state)  # on the roster as she stands: nothing to ask
        assert cora.now.health == (S.Track("hp", 23),)
        # the roster brings her back as she stood, into the next fight
        nxt = new_fight("d20", seed=4)
        for cmd in party_commands(nxt, [cora]):
            nxt, _ = apply(nxt, cmd)
        (back,) = nxt.combatants
        assert back.name == "Cora" and back.health[0].current == 23 and back.stat("ac") == 16
        await pilot.press("u")
        await pilot.pause()
        assert S.read_party("d20") == ()


def test_the_end_of_a_fight_asks_about_a_new_pc_once_there_is_a_roster() -> None:
    roster()
    f = new_fight("d20", seed=3)
    for cmd in party_commands(f, list(S.read_party("d20"))):
        f, _ = apply(f, cmd)
    assert not S.worth_asking("d20", f)  # the roster's PCs as the roster has them
    f, _ = apply(f, C.AddCombatant("Cora", kind="pc", side="party", stats=(("hp", 27),)))
    assert S.worth_asking("d20", f) and [c.name for c in S.newcomers(S.read_party("d20"), f)] == ["Cora"]


def test_the_party_added_mid_fight_takes_its_place_in_the_order() -> None:
    """A fight under way: each PC joins with its initiative rolled by the ruleset (d20), placed in the
    order, not left at the bottom without one."""
    roster()
    f = new_fight("d20", seed=5)
    f, _ = apply(f, C.AddCombatant("Goblin", stats=(("hp", 7), ("dex", 14))))
    f, _ = apply(f, C.StartFight())
    for cmd in party_commands(f, list(S.read_party("d20"))):
        f, _ = apply(f, cmd)
    pcs = [c for c in f.combatants if c.kind == "pc"]
    assert [c.name for c in pcs] == ["Ayla", "Bren"]
    assert all(c.id in f.order and c.initiative is not None for c in pcs)
    order = [f.get(x).initiative for x in f.order]
    assert order == sorted(order, reverse=True)  # placed by initiative, not appended
