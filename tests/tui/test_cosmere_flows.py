"""Cosmere from the keyboard: fast or slow, taking a turn now, actions with a cost, resources."""

from __future__ import annotations

from pathlib import Path

from tests.tui.support import app_on, demo_session, dialog_error, main_screen, of, pane_text, select, sync, type_text
from tui.rulesets.cosmere.dialogs import SpeedDialog
from tui.rulesets.cosmere.round import RoundSpeedsDialog


@sync
async def test_fast_slow_take_turn_and_actions(tmp_path: Path) -> None:
    s = demo_session("cosmere")
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s", "enter")
        assert s.state.started and s.state.phase == 0
        # the round's prompt comes up; the GM leaves it to choose one at a time with f
        assert isinstance(app.screen, RoundSpeedsDialog)
        await pilot.press("escape")
        # Kaladin goes fast: the groups show him under the fast turns
        await select(pilot, "Kaladin")
        await pilot.press("f")
        assert isinstance(app.screen, SpeedDialog)
        await pilot.press("enter")  # the first choice: fast
        assert of(s, "Kaladin").economy.speed == "fast"
        assert app.screen is main_screen(pilot)  # the round's prompt, escaped, stays away
        tracker = main_screen(pilot).query_one("#tracker")
        lines = [r.text.plain for r in tracker._rows]
        fast_pc = next(i for i, line in enumerate(lines) if line.startswith("── Fast turns"))
        assert "Kaladin" in lines[fast_pc + 1]
        # a Parshendi warrior will go slow
        await select(pilot, "Parshendi Warrior 1")
        await pilot.press("f", "down", "enter")
        assert of(s, "Parshendi Warrior 1").economy.speed == "slow"
        # next: Kaladin's fast turn, two actions
        await pilot.press("n")
        assert s.state.current == of(s, "Kaladin").id
        assert of(s, "Kaladin").economy.actions == 2
        await pilot.press("u", "tab")
        await type_text(pilot, "Strike")
        await pilot.press("tab", "right", "enter")  # cost 2
        assert of(s, "Kaladin").economy.actions == 0
        # a third action is refused in the dialog
        await pilot.press("u", "tab")
        await type_text(pilot, "Move")
        await pilot.press("enter")
        assert "Move costs 1 action and Kaladin has 0 left" in dialog_error(pilot)
        await pilot.press("escape")
        # Shallan decides in the moment: slow, and take the turn now (g is the quick way)
        await select(pilot, "Shallan")
        await pilot.press("f", "down", "down", "down", "down", "enter")
        assert s.state.current == of(s, "Shallan").id
        assert of(s, "Shallan").economy.speed == "slow" and of(s, "Shallan").economy.actions == 3
        # Reactive Strike spends focus
        await select(pilot, "Parshendi Warrior 2")
        focus = of(s, "Parshendi Warrior 2").pool("focus").current
        # u opens on the one acting (Shallan): the user picker gives the reaction to the warrior
        await pilot.press("u")
        assert app.screen.query_one("#user").value == of(s, "Shallan").id
        app.screen.query_one("#user").value = of(s, "Parshendi Warrior 2").id
        await pilot.pause()
        await pilot.press("right", "right", "tab")
        await type_text(pilot, "Reactive Strike")
        await pilot.press("enter")
        assert of(s, "Parshendi Warrior 2").economy.reactions == 0
        assert of(s, "Parshendi Warrior 2").pool("focus").current == focus - 1


@sync
async def test_go_now_and_resources(tmp_path: Path) -> None:
    s = demo_session("cosmere", start=True)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await select(pilot, "Bridge Four Spearman")
        await pilot.press("g")
        assert s.state.current == of(s, "Bridge Four Spearman").id
        # spend two focus, then restore one
        await pilot.press("p", "tab", "tab")
        await pilot.press("backspace")
        await type_text(pilot, "2")
        await pilot.press("enter")
        assert of(s, "Bridge Four Spearman").pool("focus").current == 0
        await pilot.press("p", "tab", "right", "enter")
        assert of(s, "Bridge Four Spearman").pool("focus").current == 1
        # the sheet shows the fast/slow choice and the actions left
        sheet = await pane_text(pilot, "sheet")
        assert "Fast turn" in sheet and "Actions 2 of 2 left" in sheet  # going now, in the fast phases
