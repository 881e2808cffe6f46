"""Keys typed in one burst land in the fields they were typed for (play-test: "24", tab, tab, "fire"
typed fast into the damage dialog all went into the amount, "24fire"): in a dialog, tab moves the
focus before the next key is handed on."""

from __future__ import annotations

from pathlib import Path

from tests.tui.support import app_on, burst, demo_session, main_screen, of, select, sync


@sync
async def test_a_burst_with_tabs_fills_each_field(tmp_path: Path) -> None:
    s = demo_session("d20", start=True)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await select(pilot, "Bandit 1")
        before = of(s, "Bandit 1").health[0].current
        # d, amount 3, tab past the table dice, the type, enter: all queued at once
        await burst(pilot, "d", "3", "tab", "tab", "f", "i", "r", "e", "enter", settle=0.6)
        assert app.screen is main_screen(pilot)
        g = of(s, "Bandit 1")
        assert g.health[0].current == before - 3
        log = s.history.nodes[s.history.cursor].events
        assert any("fire" in str(getattr(e, "type", "")) for e in log), log


@sync
async def test_shift_tab_in_a_burst_goes_back_a_field(tmp_path: Path) -> None:
    s = demo_session("d20", start=True)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await select(pilot, "Bandit 1")
        before = of(s, "Bandit 1").health[0].current
        # into the type field, then back to the amount: the 2 is the amount, not part of the type
        await burst(pilot, "d", "tab", "tab", "shift+tab", "shift+tab", "2", "enter", settle=0.6)
        assert app.screen is main_screen(pilot)
        assert of(s, "Bandit 1").health[0].current == before - 2


@sync
async def test_the_table_s_initiative_dice_in_one_burst(tmp_path: Path) -> None:
    """The start dialog with the table rolling for the PCs: "15", tab, "12" gives the next PC its die
    (the surprised box between them took the 12 and lost it)."""
    from engine import commands as C

    s = demo_session("d20", then=(C.Setting("roll_pc", "table"),))
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await burst(pilot, "s", "1", "5", "tab", "1", "2", "enter", settle=0.8)
        assert app.screen is main_screen(pilot)
        assert s.state.started
        assert of(s, "Brannoc").initiative == 15 + 2  # Dex 14
        ysolde = of(s, "Ysolde")
        assert ysolde.initiative == 12 + (ysolde.stat("dex", 10) - 10) // 2
