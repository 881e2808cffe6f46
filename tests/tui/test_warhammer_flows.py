"""Warhammer from the keyboard: Fortune at the start of a round, the order, actions and reactions."""

from __future__ import annotations

from pathlib import Path

from tests.tui.support import (
    app_on,
    demo_session,
    dialog_error,
    main_screen,
    notifications,
    of,
    pane_text,
    select,
    sync,
)
from tui.main import MainScreen


@sync
async def test_fortune_order_and_reactions(tmp_path: Path) -> None:
    s = demo_session("warhammer")
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s", "enter")
        f = s.state
        assert f.started and f.phase == -1 and not f.current  # waiting for Fortune
        assert "Fortune" in main_screen(pilot).query_one("#title").render().plain
        await select(pilot, "Ulfberth")
        fortune = of(s, "Ulfberth").pool("fortune").current
        await pilot.press("o", "enter")  # place 1
        assert s.state.order[0] == of(s, "Ulfberth").id
        assert of(s, "Ulfberth").pool("fortune").current == fortune - 1
        await pilot.press("n")
        assert s.state.current == of(s, "Ulfberth").id
        await pilot.press("u", "enter")
        assert of(s, "Ulfberth").economy.actions == 0
        await pilot.press("u", "enter")
        assert "one action" in dialog_error(pilot)
        await pilot.press("escape")
        # Thesalva parries with her off-hand: the bonus parry goes first
        await select(pilot, "Thesalva")
        # u opens on whose turn it is (Ulfberth), Thesalva offered as the target: the picker makes
        # the parry hers
        await pilot.press("u")
        assert app.screen.query_one("#user").value == of(s, "Ulfberth").id
        assert app.screen.query_one("#target").value == of(s, "Thesalva").id
        app.screen.query_one("#user").value = of(s, "Thesalva").id
        await pilot.pause()
        await pilot.press("right", "right", "enter")
        t = of(s, "Thesalva").economy
        assert t.parries == 0 and t.reactions == 1
        # Fortune is only spent at the start of a round
        assert not main_screen(pilot).check_action("fortune", ())
        await pilot.press("o")
        assert isinstance(app.screen, MainScreen)


@sync
async def test_order_by_hand_and_the_wide_layout(tmp_path: Path) -> None:
    s = demo_session("warhammer", start=True)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(160, 48)) as pilot:
        main = main_screen(pilot)
        assert not main.has_class("-narrow")
        assert all(main.query_one(f"#{p}").display for p in ("sheet", "conditions", "log"))
        await select(pilot, "Troll")
        await pilot.press("i", "tab", "backspace", "1", "enter")
        assert s.state.order[0] == of(s, "Troll").id
        log = await pane_text(pilot, "log")
        assert "Order: Troll" in log


@sync
async def test_attack_before_the_first_turn_says_why(tmp_path: Path) -> None:
    """Play-test: `w` at the start of a round (Fortune, nobody's turn yet) opened the attack dialog,
    which the engine then refused. Now the key is off and says why, in one line."""
    s = demo_session("warhammer", start=True)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        main = main_screen(pilot)
        assert s.state.phase == -1 and not s.state.current
        await select(pilot, "Ulfberth")
        assert not main.check_action("attack", ())
        await pilot.press("w")
        assert isinstance(app.screen, MainScreen)
        # said in the shown pane's title at 80x24 (a toast would cover the sheet)
        assert "nobody's turn has begun" in main._told
        assert not any("nobody's turn" in n for n in notifications(pilot))
        await pilot.press("n")  # the first turn: now the acting combatant may attack
        assert s.state.current
        assert main.check_action("attack", ())
        await pilot.press("w")
        assert not isinstance(app.screen, MainScreen)
