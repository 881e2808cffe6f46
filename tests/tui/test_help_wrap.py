"""The help overlay at 80x24 and 160x48: each line wraps under its own start (never back to column
0), no binding id in brackets in the key list; the ids are listed once, under Remapping keys."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.tui.support import app_on, demo_session, sync
from tui.help import KEY_CELLS, HelpScreen


@pytest.mark.parametrize("size", [(80, 24), (160, 48)])
def test_help_wraps_under_itself_and_shows_no_bracketed_ids(tmp_path: Path, size: tuple[int, int]) -> None:
    @sync
    async def run() -> None:
        app = app_on(demo_session("d20"), tmp_path)
        async with app.run_test(size=size) as pilot:
            await pilot.press("question_mark")
            await pilot.pause()
            assert isinstance(app.screen, HelpScreen)
            box = app.screen.query_one("#help").region.width
            text = str(app.screen.query_one("Static").render())
            assert "[id " not in text
            lines = text.splitlines()
            assert all(len(line) <= box - 4 for line in lines), max(lines, key=len)
            keys = lines[1 : lines.index("Remapping keys") - 1]
            for line in keys:  # a key's line, or a wrapped line under the description's start
                assert line.startswith("  ") and (line[2] != " " or line.startswith(" " * KEY_CELLS)), line
            after = "\n".join(lines[lines.index("Remapping keys") :])
            assert "damage (d)" in after and "start (s)" in after
            for line in lines:  # nothing falls back to column 0 but the headings
                if line and not line.startswith(" "):
                    assert (
                        line in ("Keys", "Remapping keys", "Conditions") or line.endswith(")") or "d20" in line.lower()
                    )

    run()
