"""Keys that arrive together apply in the order they were typed (play-test: `Down d` in one burst
opened "Damage to Underfoot", the row the cursor left). The tracker's arrows act when the key is read,
as the main screen's keys do; in a dialog, a key that moves the focus (a target box's down) holds the
keys after it until the focus has moved."""

from __future__ import annotations

from pathlib import Path

from engine.rules.cosmere.commands import StartTurn
from tests.tui.support import app_on, burst, cid, demo_session, main_screen, of, select, sync
from tui.dialogs.conditions import ConditionDialog
from tui.dialogs.health import HealthDialog
from tui.widgets import Tracker


def rows_below(pilot, name: str, n: int) -> str:  # type: ignore[no-untyped-def]
    """The id of the combatant `n` rows below `name` in the tracker (as it shows them now)."""
    tracker = main_screen(pilot).query_one(Tracker)
    ids = [r.cid for r in tracker._rows if r.cid]
    start = ids.index(cid(pilot.app.session, name))
    assert start + n < len(ids), "the test needs rows below"
    return ids[start + n]


@sync
async def test_down_then_d_in_one_burst_damages_the_row_below(tmp_path: Path) -> None:
    s = demo_session("d20", start=True)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await select(pilot, "Brannoc")
        below = rows_below(pilot, "Brannoc", 1)
        await burst(pilot, "down", "d")
        dialog = app.screen
        assert isinstance(dialog, HealthDialog)
        assert dialog.who == below, (s.state.get(dialog.who).name, s.state.get(below).name)


@sync
async def test_three_downs_then_c_in_one_burst_conditions_the_third_row_below(tmp_path: Path) -> None:
    s = demo_session("d20", start=True)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await select(pilot, "Brannoc")
        third = rows_below(pilot, "Brannoc", 3)
        await burst(pilot, "down", "down", "down", "c")
        dialog = app.screen
        assert isinstance(dialog, ConditionDialog)
        assert dialog.who == third, (s.state.get(dialog.who).name, s.state.get(third).name)


@sync
async def test_keys_after_the_dialog_key_still_go_to_the_dialog(tmp_path: Path) -> None:
    """The whole damage entry in one burst, the cursor moved first: the right one takes the damage."""
    s = demo_session("d20", start=True)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await select(pilot, "Brannoc")
        below = rows_below(pilot, "Brannoc", 1)
        target = s.state.get(below)
        before = target.health[0].current
        brannoc = of(s, "Brannoc").health[0].current
        await burst(pilot, "down", "d", "2", "enter", settle=0.6)
        assert app.screen is main_screen(pilot)
        assert s.state.get(below).health[0].current == before - 2
        assert of(s, "Brannoc").health[0].current == brannoc


@sync
async def test_cosmere_down_down_f_chooses_the_speed_of_the_row_two_below(tmp_path: Path) -> None:
    from tui.rulesets.cosmere.dialogs import SpeedDialog

    s = demo_session("cosmere", start=True)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await select(pilot, "Kaladin")
        second = rows_below(pilot, "Kaladin", 2)
        await burst(pilot, "down", "down", "f")
        dialog = app.screen
        assert isinstance(dialog, SpeedDialog)
        assert dialog.who == second, (s.state.get(dialog.who).name, s.state.get(second).name)


@sync
async def test_cosmere_attack_down_space_ticks_the_box_it_moved_to(tmp_path: Path) -> None:
    from tui.rulesets.cosmere.dialogs import CosmereAttackDialog

    s = demo_session("cosmere", start=True)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        app.commit(StartTurn(cid(s, "Kaladin")))
        await pilot.pause()
        await pilot.press("w")
        dlg = app.screen
        assert isinstance(dlg, CosmereAttackDialog)
        boxes = dlg.target_boxes("t")
        start = boxes.index(app.focused)  # type: ignore[arg-type]
        assert start + 1 < len(boxes)
        was = [b.value for b in boxes]
        await burst(pilot, "down", "space")
        assert app.focused is boxes[start + 1]
        assert boxes[start + 1].value is not was[start + 1]  # ticked where the focus went
        assert boxes[start].value is was[start]  # the box it left as it was


@sync
async def test_tab_then_down_in_one_burst_leaves_the_tracker_s_cursor(tmp_path: Path) -> None:
    """Tab moves the focus to a pane as the key is read: the down after it is the pane's."""
    s = demo_session("d20", start=True)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(160, 48)) as pilot:
        await select(pilot, "Brannoc")
        main = main_screen(pilot)
        assert app.focused is main.query_one(Tracker)
        await burst(pilot, "tab", "down")
        assert app.focused is not main.query_one(Tracker)
        assert main.selected == cid(s, "Brannoc")
