"""Every dialog and key flow on a d20 fight, asserting on the engine state the keys produced."""

from __future__ import annotations

from pathlib import Path

from engine import events as E
from tests.tui.support import (
    app_on,
    demo_session,
    dialog_error,
    main_screen,
    of,
    pane_text,
    select,
    sync,
    type_text,
)
from tui.dialogs import ConditionDialog, HealthDialog
from tui.main import MainScreen


@sync
async def test_start_dialog_then_next_and_space(tmp_path: Path) -> None:
    s = demo_session("d20")
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("n")  # before the start, a GM's first n opens the start dialog
        assert app.screen.__class__.__name__ == "StartDialog"
        await pilot.press("escape")
        assert not s.state.started
        await pilot.press("s")
        assert app.screen.__class__.__name__ == "StartDialog"
        await pilot.press("enter")
        f = s.state
        assert f.started and f.round == 1 and f.current == f.order[0]
        first = f.current
        await pilot.press("n")
        assert s.state.current not in ("", first)
        second = s.state.current
        await pilot.press("space")
        assert s.state.current not in ("", first, second)
        # the tracker follows the turn
        assert main_screen(pilot).selected == s.state.current


@sync
async def test_start_with_entered_initiative_and_surprise(tmp_path: Path) -> None:
    s = demo_session("d20")
    app = app_on(s, tmp_path)
    brannoc, captain = of(s, "Brannoc").id, of(s, "Bandit Captain").id
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s")
        dialog = app.screen
        dialog.query_one(f"#surprised-{dialog.slot(captain)}").value = True
        dialog.query_one(f"#init-{dialog.slot(brannoc)}").value = "3"
        await pilot.press("ctrl+s")
        f = s.state
        assert f.started
        assert f.get(brannoc).initiative == 3 + 2  # the entered d20 plus the Dex modifier
        assert f.get(captain).has("Surprised")


@sync
async def test_damage_heal_temp_by_number_and_dice(tmp_path: Path) -> None:
    s = demo_session("d20", start=True)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await select(pilot, "Bandit 1")
        await pilot.press("d")
        assert isinstance(app.screen, HealthDialog)
        await type_text(pilot, "7")
        await pilot.press("enter")
        assert isinstance(app.screen, MainScreen)
        assert of(s, "Bandit 1").hp == 4
        await pilot.press("h")
        await type_text(pilot, "2")
        await pilot.press("enter")
        assert of(s, "Bandit 1").hp == 6
        await pilot.press("t")
        await type_text(pilot, "5")
        await pilot.press("enter")
        assert of(s, "Bandit 1").health[0].temp == 5
        # dice the table rolled, with a damage type
        await pilot.press("d")
        await type_text(pilot, "2d6+1")
        await pilot.press("tab")
        await type_text(pilot, "3 4")
        await pilot.press("tab")
        await type_text(pilot, "fire")
        await pilot.press("enter")
        last = [e for e in s.history.nodes[s.history.cursor].events if isinstance(e, E.Damaged)][0]
        assert last.rolled == 8 and last.type == "fire" and last.roll is not None and last.roll.entered
        assert of(s, "Bandit 1").health[0].temp == 0 and of(s, "Bandit 1").hp == 3


@sync
async def test_bad_input_stays_in_the_dialog_with_a_message(tmp_path: Path) -> None:
    s = demo_session("d20", start=True)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        before = s.state
        await pilot.press("d")
        await type_text(pilot, "2d")
        await pilot.press("enter")
        assert isinstance(app.screen, HealthDialog)
        assert "2d" in dialog_error(pilot)
        assert s.state is before
        await pilot.press("enter")  # an empty amount after clearing? still refused
        await pilot.press("escape")
        assert isinstance(app.screen, MainScreen)
        assert s.state is before
        # table dice with a plain number are refused too
        await pilot.press("d")
        await type_text(pilot, "5")
        await pilot.press("tab")
        await type_text(pilot, "3")
        await pilot.press("enter")
        assert "dice expression" in dialog_error(pilot)
        assert s.state is before


@sync
async def test_condition_from_the_catalog_with_a_duration(tmp_path: Path) -> None:
    s = demo_session("d20", start=True)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await select(pilot, "Ysolde")
        await pilot.press("c")
        assert isinstance(app.screen, ConditionDialog)
        await type_text(pilot, "pro")
        await pilot.press("tab")  # to the duration
        await pilot.press("right", "right")  # until removed -> start of a turn -> end of a turn
        await pilot.press("tab")  # to "how many turns" (before "whose turn")
        await pilot.press("backspace")
        await type_text(pilot, "2")
        await pilot.press("enter")
        cond = of(s, "Ysolde").condition("Prone")
        assert cond is not None
        assert cond.duration.kind == "turn_end" and cond.duration.count == 2
        # "whose turn" defaults to the one getting it, not to whoever is acting
        assert s.state.current != of(s, "Ysolde").id
        assert cond.duration.who == of(s, "Ysolde").id
        # the conditions pane shows it with what remains and what it does
        text = await pane_text(pilot, "conditions")
        assert "Prone" in text and "2 more turns" in text and "crawl" in text


@sync
async def test_custom_condition_and_removing_it(tmp_path: Path) -> None:
    s = demo_session("d20", start=True)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await select(pilot, "Bandit 2")
        await pilot.press("c")
        await type_text(pilot, "Hexed")
        await pilot.press("enter")  # a name of its own: asked once
        assert dialog_error(pilot) == "New condition 'Hexed'? enter again to make it"
        assert not of(s, "Bandit 2").has("Hexed")
        await pilot.press("enter")
        assert of(s, "Bandit 2").has("Hexed")
        assert "Custom condition" in (await pane_text(pilot, "conditions"))
        await pilot.press("x")
        await pilot.press("enter")
        assert not of(s, "Bandit 2").has("Hexed")


@sync
async def test_use_action_refused_off_turn_then_used_on_turn(tmp_path: Path) -> None:
    s = demo_session("d20", start=True)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        current = s.state.current
        other = next(c for c in s.state.order if c != current and not s.state.get(c).owner)
        main_screen(pilot).select(other)
        await pilot.pause()
        # u opens on whose turn it is, whoever is selected; the user picker makes it the other one
        await pilot.press("u")
        assert app.screen.query_one("#user").value == current
        app.screen.query_one("#user").value = other
        await pilot.pause()
        await pilot.press("tab")
        await type_text(pilot, "Attack")
        await pilot.press("enter")
        assert "not" in dialog_error(pilot) and "turn" in dialog_error(pilot)
        await pilot.press("escape")
        main_screen(pilot).select(current)
        await pilot.pause()
        await pilot.press("u", "tab")
        await type_text(pilot, "Attack")
        await pilot.press("enter")
        e = s.state.get(current).economy
        assert e.actions == 0 and "Attack" in e.used
        # the other's reaction, off its turn: chosen with the arrow keys
        main_screen(pilot).select(other)
        await pilot.pause()
        await pilot.press("u")
        app.screen.query_one("#user").value = other
        await pilot.pause()
        await pilot.press("right", "right", "right", "enter")
        assert s.state.get(other).economy.reactions == 0


@sync
async def test_initiative_and_place_in_the_order(tmp_path: Path) -> None:
    s = demo_session("d20", start=True)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await select(pilot, "Bandit 3")
        await pilot.press("i")
        await pilot.press(*["backspace"] * 4)
        await type_text(pilot, "30")
        await pilot.press("enter")
        assert of(s, "Bandit 3").initiative == 30
        assert s.state.order[0] == of(s, "Bandit 3").id
        # now move it to third place by hand
        await pilot.press("i", "tab")
        await pilot.press("backspace")
        await type_text(pilot, "3")
        await pilot.press("enter")
        assert s.state.order[2] == of(s, "Bandit 3").id


@sync
async def test_add_three_goblins_and_edit_one(tmp_path: Path) -> None:
    s = demo_session("d20")
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("a")
        await type_text(pilot, "Goblin")
        await pilot.press("tab")
        await pilot.press("backspace")
        await type_text(pilot, "3")
        await pilot.press("tab", "tab", "tab")  # kind, side, then the first stat (hit points)
        await pilot.press(*["backspace"] * 3)
        await type_text(pilot, "7")
        await pilot.press("enter")
        names = [c.name for c in s.state.combatants]
        assert {"Goblin 1", "Goblin 2", "Goblin 3"} <= set(names)
        assert of(s, "Goblin 2").hp == 7 and of(s, "Goblin 2").kind == "npc"
        # a bad stat is refused in the dialog
        await pilot.press("a")
        await type_text(pilot, "Ogre")
        await pilot.press("tab", "tab", "tab", "tab")
        await pilot.press(*["backspace"] * 3)
        await type_text(pilot, "99999")
        await pilot.press("enter")
        assert "Hit points" in dialog_error(pilot)
        await pilot.press("escape")
        assert "Ogre" not in [c.name for c in s.state.combatants]
        # rename Goblin 2
        await select(pilot, "Goblin 2")
        await pilot.press("e")
        await pilot.press(*["backspace"] * 10)
        await type_text(pilot, "Snik")
        await pilot.press("enter")
        assert "Snik" in [c.name for c in s.state.combatants]
        # nothing changed: the engine says so, in the dialog
        await pilot.press("e", "enter")
        assert "Nothing to change" in dialog_error(pilot)


@sync
async def test_roll_and_saving_throw_are_in_the_log(tmp_path: Path) -> None:
    s = demo_session("d20", start=True)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("r")
        await pilot.press("enter")  # d20 for the selected combatant
        events = s.history.nodes[s.history.cursor].events
        assert isinstance(events[0], E.Rolled) and events[0].roll.expr == "d20"
        await pilot.press("r")
        await pilot.press("tab", "tab", "right", "tab")  # dice, for, kind -> a saving throw, DC
        await type_text(pilot, "12")
        await pilot.press("enter")
        events = s.history.nodes[s.history.cursor].events
        assert isinstance(events[0], E.SaveRolled) and events[0].dc == 12
        log = await pane_text(pilot, "log")
        assert "DC 12" in log and "d20 = [" in log


@sync
async def test_undo_and_redo_say_what_they_did(tmp_path: Path) -> None:
    s = demo_session("d20", start=True)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await select(pilot, "Bandit 2")
        await pilot.press("d")
        await type_text(pilot, "7")
        await pilot.press("enter")
        assert of(s, "Bandit 2").hp == 4
        await pilot.press("ctrl+z")
        assert of(s, "Bandit 2").hp == 11
        # at 80x24 the message sits in the shown pane's title, not in a toast over the sheet
        told = str(main_screen(pilot).query_one("#sheet").border_title)
        assert "Undid: Bandit 2 takes 7 damage" in told
        assert "4/11" not in (await pane_text(pilot, "sheet"))
        await pilot.press("ctrl+y")
        assert of(s, "Bandit 2").hp == 4
        assert "Redid: Bandit 2 takes 7 damage" in str(main_screen(pilot).query_one("#sheet").border_title)
        assert "4/11" in (await pane_text(pilot, "sheet"))


@sync
async def test_remove_a_combatant_and_write_a_note(tmp_path: Path) -> None:
    s = demo_session("d20", start=True)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await select(pilot, "Bandit 3")
        await pilot.press("m")
        await type_text(pilot, "flees over the hill")
        await pilot.press("enter")
        last = s.history.nodes[s.history.cursor].events[0]
        assert isinstance(last, E.Noted) and last.name == "Bandit 3"
        await pilot.press("delete")
        assert "Bandit 3" not in [c.name for c in s.state.combatants]
        await pilot.press("ctrl+z")
        assert "Bandit 3" in [c.name for c in s.state.combatants]
