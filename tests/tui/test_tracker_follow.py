"""A tracker longer than its pane keeps the acting combatant in view (issue 14, item 9), and the
selection comes back to it when the turn moves on (item 2): after `n`, after undo, after a resize,
with 30+ combatants at 80x24. The current turn's marker is as plain as the selection (item 2)."""

from __future__ import annotations

from pathlib import Path

from engine import commands as C
from saves.session import Session
from tests.tui.support import app_on, demo_session, main_screen, sync
from tui.widgets import Tracker


def _crowd(rules: str = "d20", extra: int = 30) -> Session:
    """The demo with `extra` more foes, started: far more rows than an 80x24 tracker shows."""
    stats = {"d20": (("hp", 15), ("ac", 12), ("dex", 10)), "warhammer": (("wounds", 8),)}[rules]
    s = demo_session(rules, then=(C.AddCombatant("Orc", stats=stats, count=extra),))
    s.apply(C.StartFight())
    return s


def _shown(t: Tracker) -> range:
    """The row indexes on screen below the fixed header line."""
    top = int(t.scroll_y)
    return range(top + 1, top + t.size.height)


def _row_of(t: Tracker, cid: str) -> int:
    return next(i for i, r in enumerate(t._rows) if r.cid == cid)


def _acting_in_view(t: Tracker, s: Session) -> bool:
    return _row_of(t, s.state.current) in _shown(t)


@sync
async def test_next_and_undo_keep_the_acting_row_in_view_and_selected(tmp_path: Path) -> None:
    s = _crowd()
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        t = main_screen(pilot).query_one(Tracker)
        assert len(t.row_ids) > 30 and t.size.height < 20  # the list does not fit
        seen_scrolled = False
        for _ in range(len(t.row_ids) + 5):  # past the bottom and round into round 2
            await pilot.press("n")
            assert t.selected == s.state.current, "the selection follows the turn"
            assert _acting_in_view(t, s), f"{s.state.current} is off screen"
            # and who is next: the two rows below the acting one show too
            ahead = min(_row_of(t, s.state.current) + 2, len(t._rows) - 1)
            assert ahead in _shown(t), "the next in line is off screen"
            seen_scrolled |= t.scroll_y > 0
        assert seen_scrolled and s.state.round == 2
        for _ in range(12):  # back over the round's start and up the list
            await pilot.press("ctrl+z")
            assert t.selected == s.state.current and _acting_in_view(t, s)
        assert s.state.round == 1


@sync
async def test_the_selection_comes_back_to_the_acting_combatant_on_next(tmp_path: Path) -> None:
    s = _crowd()
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        t = main_screen(pilot).query_one(Tracker)
        first = s.state.current
        await pilot.press("end")  # the GM looks at the last row: the list scrolls with the cursor
        assert t.selected == t.row_ids[-1] and _row_of(t, t.selected) in _shown(t)
        assert not _acting_in_view(t, s)  # too far apart to show both: the cursor wins
        await pilot.press("n")
        assert s.state.current != first
        assert t.selected == s.state.current and _acting_in_view(t, s)


@sync
async def test_a_new_state_shows_the_acting_row_beside_the_selection_when_both_fit(tmp_path: Path) -> None:
    s = _crowd()
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        t = main_screen(pilot).query_one(Tracker)
        height = t.size.height - 1
        for _ in range(height + 3):  # the acting row well down the list
            await pilot.press("n")
        acting = _row_of(t, s.state.current)
        # the GM looks at the bottom of the list, then comes back up to a few rows below the
        # acting one: the view followed the cursor alone, so the acting row is above it
        await pilot.press("end")
        while _row_of(t, t.selected) > acting + height - 3:
            await pilot.press("up")
        assert not _acting_in_view(t, s)
        await pilot.press("d", "1", "enter")  # damage to the one it looks at
        await pilot.pause()
        assert _row_of(t, t.selected) in _shown(t) and acting in _shown(t)


@sync
async def test_a_resize_keeps_the_acting_row_in_view(tmp_path: Path) -> None:
    s = _crowd("warhammer")
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        t = main_screen(pilot).query_one(Tracker)
        for _ in range(25):
            await pilot.press("n")
        assert _acting_in_view(t, s)
        for size in ((80, 15), (160, 48), (100, 20), (80, 24)):
            await pilot.resize_terminal(*size)
            await pilot.pause()
            await pilot.pause()
            assert t.selected == s.state.current
            assert _acting_in_view(t, s), f"off screen at {size}"


@sync
async def test_the_current_marker_is_drawn_in_the_cursors_own_colours_in_every_theme(tmp_path: Path) -> None:
    """The marker is a block in the focused cursor's colours, so it stands out as much as the
    selection in any theme, and its ▶ says it without colour. The selection is moved elsewhere."""
    s = _crowd(extra=3)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        t = main_screen(pilot).query_one(Tracker)
        t.focus()
        await pilot.press("down")
        assert t.selected != s.state.current
        row = _row_of(t, s.state.current)
        themes = sorted(app.available_themes)
        assert {"fracas-ember", "fracas-parchment"} <= set(themes)
        tinted = 0
        for name in themes:
            app.theme = name
            await pilot.pause()
            cursor = t.get_component_rich_style("tracker--cursor")
            strip = t.render_line(row - int(t.scroll_y))
            first = list(strip)[0]
            assert first.text.startswith("▶"), name
            assert first.style is not None and first.style.bgcolor == cursor.bgcolor, name
            assert first.style.color == cursor.color, name
            # the rest of the row is tinted to the pane's edge (where the theme's colours blend; an
            # ANSI theme's would be the cursor's own): told apart from a plain row and the selection
            last = list(strip)[-1]
            plain = list(t.render_line(row + 2 - int(t.scroll_y)))[-1]
            selection = list(t.render_line(row + 1 - int(t.scroll_y)))[-1]
            assert last.style is not None and plain.style is not None and selection.style is not None
            if name.startswith("ansi"):
                assert last.style.bgcolor == plain.style.bgcolor, name
            else:
                tinted += 1
                assert plain.style.bgcolor != last.style.bgcolor != selection.style.bgcolor, name
        assert tinted >= len(themes) - 2
