"""Setting up (issue 14, item 4): hit points typed as dice (5d8+5) in the add and edit dialogs, its
average or rolled as the fight remembers (add_health), shown before the GM confirms; and a creature
added to a fight under way asked for its initiative (typed, or rolled) and placed in the order, in
the same one command."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Input

from engine import commands as C
from engine import events as E
from engine import new_fight
from saves.session import Session
from tests.tui.support import app_on, demo_session, dialog_error, of, select, sync, type_text
from tui.dialogs import AddDialog, Choice, EditDialog, dice_average
from tui.main import MainScreen


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "data"
    monkeypatch.setenv("FRACAS_DATA_DIR", str(folder))
    return folder


def fresh(rid: str = "d20") -> Session:
    s = Session.memory(new_fight(rid, seed=2))
    s.apply(C.AddCombatant("Ayla", kind="pc", side="party"))
    return s


def note(app) -> str:  # type: ignore[no-untyped-def]
    return str(app.screen.query_one("#library-note").render())


async def set_field(pilot, wid: str, text: str) -> None:  # type: ignore[no-untyped-def]
    pilot.app.screen.query_one(f"#{wid}", Input).value = text
    await pilot.pause()


def test_the_average_is_the_statblocks_rounding() -> None:
    assert dice_average("5d8+5") == 27 and dice_average("2d6") == 7 and dice_average("1d4") == 2
    assert dice_average("3d6-1") == 9


@sync
async def test_hit_points_as_dice_the_average_then_rolled_and_remembered(tmp_path: Path) -> None:
    s = fresh()
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("a")
        assert isinstance(app.screen, AddDialog)
        await type_text(pilot, "Zorblax")
        assert not app.screen.query_one("#r-health").display  # nothing to roll yet
        await set_field(pilot, "stat-hp", "5d8+5")
        assert app.screen.query_one("#r-health").display
        assert "Hit points 5d8+5: average 27" in note(app)
        await pilot.press("enter")
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        assert of(s, "Zorblax").health[0].max == 27
        assert s.state.setting("add_health", "fixed") == "fixed"
        # rolled: the number shown before enter is the one added, and the fight remembers the choice
        await pilot.press("a")
        await type_text(pilot, "Quorrel x3")
        await set_field(pilot, "stat-hp", "2d8+1")
        await pilot.press("ctrl+r")
        await pilot.pause()
        shown = note(app)
        assert "Hit points 2d8+1: rolled " in shown
        values = [int(v) for v in shown.split("rolled ")[1].split()[0:3] for v in [v.strip(",")]]
        await pilot.press("enter")
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        assert [of(s, f"Quorrel {i}").health[0].max for i in (1, 2, 3)] == values
        assert all(3 <= v <= 17 for v in values)
        assert s.state.setting("add_health") == "rolled"
        app.undo()  # one undo takes the three back; the choice stays the fight's
        await pilot.pause()
        assert not [c for c in s.state.combatants if c.name.startswith("Quorrel")]
        assert s.state.setting("add_health") == "rolled"
        await pilot.press("a")
        assert app.screen.query_one("#health", Choice).value == "rolled"


@sync
async def test_bad_dice_in_hit_points_are_one_line_in_the_dialog(tmp_path: Path) -> None:
    s = fresh()
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("a")
        await type_text(pilot, "Zorblax")
        for bad, says in (("5d8+", "Hit points: a number or dice"), ("200d100", "outside 0 to 9999")):
            await set_field(pilot, "stat-hp", bad)
            steps = len(s.history.nodes)
            await pilot.press("enter")
            await pilot.pause()
            assert isinstance(app.screen, AddDialog)
            assert says in dialog_error(pilot) and "\n" not in dialog_error(pilot).strip()
            assert len(s.history.nodes) == steps


@sync
async def test_the_edit_dialog_takes_dice_for_hit_points(tmp_path: Path) -> None:
    s = fresh()
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await select(pilot, "Ayla")
        await pilot.press("e")
        dlg = app.screen
        assert isinstance(dlg, EditDialog)
        assert not dlg.query_one("#r-health").display
        await set_field(pilot, "stat-hp", "4d10")
        assert dlg.query_one("#r-health").display
        assert "average 22" in str(dlg.query_one("#dice-note").render())
        await pilot.press("ctrl+r")
        await pilot.pause()
        rolled = int(str(dlg.query_one("#dice-note").render()).split("rolled ")[1].split()[0])
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        assert of(s, "Ayla").health[0].max == rolled and 4 <= rolled <= 40


# --- joining a fight under way ------------------------------------------------------------------


def started_d20() -> Session:
    return demo_session("d20", start=True)


@sync
async def test_a_newcomer_mid_fight_is_placed_by_the_initiative_typed(tmp_path: Path) -> None:
    s = started_d20()
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        steps = len(s.history.nodes)
        await pilot.press("a")
        dlg = app.screen
        assert isinstance(dlg, AddDialog)
        await type_text(pilot, "Vesk")
        await pilot.press("tab")  # the initiative is the first field after the name
        assert app.focused is dlg.query_one("#join_init")
        dlg.query_one("#join_typed", Choice).value = "total"
        await type_text(pilot, "99")
        assert "believable" not in note(app)
        await set_field(pilot, "join_init", "30")
        assert "Vesk 30" in note(app) and "typed" in note(app)
        await pilot.press("enter")
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        assert of(s, "Vesk").initiative == 30 and s.state.order[0] == of(s, "Vesk").id
        assert s.state.setting("init_typed") == "total"
        assert len(s.history.nodes) == steps + 2  # the choice remembered, then the add
        app.undo()  # one undo takes the newcomer back (the remembered choice stays)
        await pilot.pause()
        assert "Vesk" not in [c.name for c in s.state.combatants]
        assert s.state.setting("init_typed") == "total"


@sync
async def test_copies_from_the_library_roll_one_each_as_the_note_says(tmp_path: Path) -> None:
    s = started_d20()
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("a")
        await type_text(pilot, "gob x3")
        shown = note(app)
        assert "Initiative: Goblin 1 " in shown and "(rolled; placed in the order)" in shown
        await pilot.press("enter")
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        events = s.history.nodes[s.history.cursor].events
        rolled = [e for e in events if isinstance(e, E.InitiativeRolled)]
        assert [e.name for e in rolled] == ["Goblin 1", "Goblin 2", "Goblin 3"]
        for e in rolled:
            assert f"{e.name} {e.value}" in shown  # the note showed what the engine then did
            assert of(s, e.name).initiative == e.value and of(s, e.name).id in s.state.order
        order = [s.state.get(x).initiative or -999 for x in s.state.order if not s.state.get(x).owner]
        assert order == sorted(order, reverse=True)


@sync
async def test_one_typed_die_per_copy_and_a_wrong_count_is_refused(tmp_path: Path) -> None:
    s = started_d20()
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("a")
        await type_text(pilot, "Brug x2")
        dlg = app.screen
        dlg.query_one("#join_typed", Choice).value = "die"
        await set_field(pilot, "join_init", "5 6 7")
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, AddDialog) and "one for each of the 2" in dialog_error(pilot)
        await set_field(pilot, "join_init", "18 2")
        await pilot.press("enter")
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        assert of(s, "Brug 1").initiative == 18 and of(s, "Brug 2").initiative == 2  # Dex 10: no bonus


@sync
async def test_rulesets_without_initiative_do_not_ask(tmp_path: Path) -> None:
    for rid in ("cosmere", "ninephase"):
        s = demo_session(rid, start=True)
        app = app_on(s, tmp_path)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("a")
            assert isinstance(app.screen, AddDialog)
            assert not app.screen.query("#join_init")
            await type_text(pilot, "Vesk")
            await pilot.press("enter")
            assert isinstance(app.screen, MainScreen), dialog_error(pilot)
    s = fresh()  # before the start: initiative comes with the start dialog
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("a")
        assert not app.screen.query("#join_init")
