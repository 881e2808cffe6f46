"""The odds panel (issue 26): `O` plays the rest of the fight many times in the background and fills
in below the panes; keys still go to the fight meanwhile; a change stops the runs and says so; `O`
again works them out from there, or closes the panel when it is up to date."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import ProgressBar, Static

import tui.odds
from engine import commands as C
from tests.tui.support import app_on, burst, cid, demo_session, settled, sync
from tui.dialogs.health import HealthDialog
from tui.main import MainScreen
from tui.odds import Difficulty, OddsPanel

RUNS = 40


@pytest.fixture(autouse=True)
def _small(monkeypatch: pytest.MonkeyPatch) -> None:
    # a few runs in the worker thread itself: the process pool is engine.odds' own (tests/odds)
    monkeypatch.setattr(tui.odds.Runs, "total", RUNS)
    monkeypatch.setattr(tui.odds, "workers", lambda: 1)


async def _done(pilot) -> OddsPanel:  # type: ignore[no-untyped-def]
    await pilot.app.workers.wait_for_complete()
    await settled(pilot)
    return pilot.app.screen.query_one(OddsPanel)


def _text(panel: OddsPanel) -> str:
    return str(panel.query_one("#odds-text", Static).render())


@sync
async def test_the_encounters_odds_fill_in_and_o_again_closes_the_panel(tmp_path: Path) -> None:
    app = app_on(demo_session("d20"), tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await burst(pilot, "O")
        panel = await _done(pilot)
        text = _text(panel)
        # before the start it is the encounter's difficulty, then each side and who goes down
        assert text.startswith("The party "), text
        assert "The foes win" in text and "Going down:" in text and "Ysolde" in text, text
        assert "so far" not in text, text
        assert panel.query_one(ProgressBar).progress == RUNS
        assert not panel.has_focus and app.screen.focused is not None and app.screen.focused.id == "tracker"
        await burst(pilot, "O")
        assert not app.screen.query(OddsPanel)


@sync
async def test_keys_still_act_on_the_fight_while_the_odds_are_worked_out(tmp_path: Path) -> None:
    s = demo_session("d20", start=True)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await burst(pilot, "O", "d")
        assert isinstance(app.screen, HealthDialog), app.screen
        await burst(pilot, "4", "enter")
        assert isinstance(app.screen, MainScreen)
        panel = await _done(pilot)
        # the damage changed the fight: the runs from before it stopped, and the panel says so
        assert "The fight changed" in _text(panel), _text(panel)
        assert panel.fight is None
        await burst(pilot, "O")  # from here: worked out again rather than closed
        panel = await _done(pilot)
        assert _text(panel).startswith("From here the party wins"), _text(panel)
        assert panel.fight is s.state


@sync
async def test_undo_counts_as_a_change_too(tmp_path: Path) -> None:
    s = demo_session("d20", start=True, then=())
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        s_id = cid(s, "Bandit 1")
        app.session.apply(C.Damage(s_id, 3))  # type: ignore[union-attr]
        app.screen.refresh_fight()
        await burst(pilot, "O")
        panel = await _done(pilot)
        assert panel.fight is s.state
        await burst(pilot, "ctrl+z")
        assert "The fight changed" in _text(panel)


@sync
async def test_a_ruleset_without_auto_play_says_so_in_one_line(tmp_path: Path) -> None:
    app = app_on(demo_session("plainlist", start=True), tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await burst(pilot, "O")
        panel = await _done(pilot)
        assert _text(panel) == "No odds: Plain list has no auto-play: odds cannot be simulated", _text(panel)


@sync
async def test_the_start_dialog_works_out_the_encounters_difficulty_on_ctrl_o(tmp_path: Path) -> None:
    app = app_on(demo_session("warhammer"), tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await burst(pilot, "s")
        line = app.screen.query_one(Difficulty)
        assert str(line.render()).startswith("ctrl+o: the encounter's difficulty"), line.render()
        await burst(pilot, "ctrl+o")
        await pilot.app.workers.wait_for_complete()
        await settled(pilot)
        assert str(line.render()).startswith("Difficulty: The party "), line.render()
        assert f"({RUNS:,} runs)" in str(line.render())
        await burst(pilot, "enter")  # the dialog still starts the fight
        assert app.session.state.started  # type: ignore[union-attr]


@sync
async def test_odds_worked_out_on_the_main_screen_show_in_the_start_dialog_at_once(tmp_path: Path) -> None:
    app = app_on(demo_session("ninephase"), tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await burst(pilot, "O")
        panel = await _done(pilot)
        headline = _text(panel).splitlines()[0]
        await burst(pilot, "s")
        line = app.screen.query_one(Difficulty)
        assert str(line.render()) == f"Difficulty: {headline}  ({RUNS:,} runs)", line.render()


@sync
async def test_a_ruleset_without_auto_play_has_no_difficulty_line(tmp_path: Path) -> None:
    app = app_on(demo_session("plainlist"), tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await burst(pilot, "s")
        assert not app.screen.query(Difficulty)
