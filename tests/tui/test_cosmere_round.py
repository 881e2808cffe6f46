"""Cosmere's round prompt (a key per combatant ticks who goes fast), the tracker at 80x24 with nine
combatants and fallen minions, and the attack key with nobody's turn under way: keys sent in bursts."""

from __future__ import annotations

from pathlib import Path

from engine import commands as C
from tests.tui.support import app_on, burst, demo_session, main_screen, of, sync
from tui.rulesets.cosmere.round import RoundSpeedsDialog


def tracker_lines(pilot) -> list[str]:  # type: ignore[no-untyped-def]
    tracker = main_screen(pilot).query_one("#tracker")
    return [r.text.plain for r in tracker._rows]


@sync
async def test_the_round_prompt_ticks_who_goes_fast_in_one_burst(tmp_path: Path) -> None:
    s = demo_session("cosmere")
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await burst(pilot, "s", "enter")
        assert isinstance(app.screen, RoundSpeedsDialog)  # raised by the round's start
        await burst(pilot, "1", "3", "down", "space", "enter")
        f = s.state
        speeds = {c.name: c.economy.speed for c in f.combatants}
        kal, shal = "Kaladin", "Shallan"
        assert app.screen is main_screen(pilot)
        # 1 Kaladin, 3 Parshendi Warrior 1 ticked; the cursor on 3, down to 4 and space ticks it
        assert speeds[kal] == "fast" and speeds["Parshendi Warrior 1"] == "fast"
        assert speeds["Parshendi Warrior 2"] == "fast" and speeds[shal] == "slow"
        assert speeds["Bridge Four Spearman"] == "slow"
        assert speeds["Parshendi Stormsinger"] == ""  # a boss is not asked: it takes both turns
        # one undo step takes all the choices back, and the prompt does not come back on an undo
        await burst(pilot, "ctrl+z")
        assert all(c.economy.speed == "" for c in s.state.combatants)
        assert app.screen is main_screen(pilot)
        # F opens it by hand; esc leaves them undecided, and n says who goes slow
        await burst(pilot, "F")
        assert isinstance(app.screen, RoundSpeedsDialog)
        await burst(pilot, "escape", "n")
        assert of(s, kal).economy.speed == "slow"
        assert any("Undecided, so slow this round" in e.text for e in s.history.nodes[-1].events if hasattr(e, "text"))


@sync
async def test_the_next_round_asks_again_with_last_rounds_fast_ticked(tmp_path: Path) -> None:
    s = demo_session("cosmere", start=True)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        assert app.screen is main_screen(pilot)  # opening a fight raises nothing
        await burst(pilot, "F", "1", "enter")
        assert of(s, "Kaladin").economy.speed == "fast"
        for _ in range(12):
            if s.state.round == 2:
                break
            await burst(pilot, "n")
        assert s.state.round == 2 and isinstance(app.screen, RoundSpeedsDialog)
        await burst(pilot, "enter")  # the same choice again: just enter
        assert of(s, "Kaladin").economy.speed == "fast" and of(s, "Shallan").economy.speed == "slow"


@sync
async def test_nine_combatants_and_fallen_minions_fit_at_80x24(tmp_path: Path) -> None:
    adds = tuple(C.AddCombatant(f"Minion {i}", "npc", "enemy", stats=(("hp", 5),)) for i in range(1, 4))
    s = demo_session("cosmere", then=adds)
    s.apply(C.StartFight())
    f = s.state
    minions = [c.id for c in f.combatants if c.name.startswith("Minion")]
    pcs = [c.name for c in f.combatants if c.kind == "pc"]
    assert len(f.combatants) == 9
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await burst(pilot, "F", "enter")  # everyone slow: one group heading and the nine rows
        tracker = main_screen(pilot).query_one("#tracker")
        assert len(tracker._rows) <= tracker.size.height
        for m in minions[:2]:
            app.commit(C.Damage(m, amount=5))
        await pilot.pause()
        lines = tracker_lines(pilot)
        # the fallen sink to the bottom, each on a row of its own: still there to select
        assert all(any(m in line for line in lines[-2:]) for m in ("Minion 1", "Minion 2"))
        assert all(any(p in line for line in lines[:-2]) for p in pcs)
        assert len(tracker._rows) <= tracker.size.height
        main_screen(pilot).select(minions[0])
        await pilot.pause()
        assert main_screen(pilot).selected == minions[0]
        await burst(pilot, "up", "down")
        assert main_screen(pilot).selected == minions[0]


@sync
async def test_w_with_nobody_acting_says_so_in_one_line(tmp_path: Path) -> None:
    s = demo_session("cosmere", start=True)
    app = app_on(s, tmp_path)
    told: list[str] = []
    app.tell = lambda message, inline=True: told.append(message)  # type: ignore[method-assign]
    async with app.run_test(size=(80, 24)) as pilot:
        await burst(pilot, "down", "w")
        assert app.screen is main_screen(pilot)
        assert told and told[-1].startswith("Nobody is taking a turn")
