"""A newcomer's first minutes (issue 25, item 13): the help screen says what the tracker's turn
column's marks mean, in each ruleset's words, and ending a fight has a key the footer shows."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import get_ruleset
from tests.tui.support import app_on, demo_session, main_screen, settled, sync
from tui.help import HelpScreen, turn_legend
from tui.main import MainScreen
from tui.widgets import KeyBar

# the marks the play-test could not read, each in its ruleset's tracker
MARKS = {
    "d20": ("A", "B", "M", "R"),
    "warhammer": ("A", "R1", "P1"),
    "ninephase": ("●○", "R", "M"),
    "cosmere": ("···", "R"),
}


@pytest.mark.parametrize("rules", sorted(MARKS))
def test_the_help_screen_explains_the_turn_column_s_marks(rules: str, tmp_path: Path) -> None:
    @sync
    async def run() -> None:
        s = demo_session(rules, start=True)
        app = app_on(s, tmp_path)
        async with app.run_test(size=(160, 48)) as pilot:
            await pilot.press("question_mark")
            assert isinstance(app.screen, HelpScreen)
            text = str(app.screen.query_one("Static").render())
            assert "turn column" in text
            legend = turn_legend(s.state, get_ruleset(rules))
            assert legend in " ".join(text.split()) or legend in text
            for mark in MARKS[rules]:
                assert f"{mark} " in legend, (mark, legend)

    run()


def test_a_ruleset_without_a_legend_of_its_own_names_each_mark() -> None:
    s = demo_session("plainlist", start=True)
    rs = get_ruleset("plainlist")
    assert not rs.turn_legend
    assert turn_legend(s.state, rs).startswith("A Action, R Reaction")


@sync
async def test_shift_e_ends_the_fight_and_the_footer_says_so(tmp_path: Path) -> None:
    s = demo_session("d20", start=True)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(160, 48)) as pilot:
        await settled(pilot)
        footer = main_screen(pilot).query_one(KeyBar).render().plain
        assert " E End " in footer, footer
        await pilot.press("E")
        await settled(pilot)
        assert s.state.ended
        assert isinstance(app.screen, MainScreen)
        await pilot.press("ctrl+z")
        assert not s.state.ended
