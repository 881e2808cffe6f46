"""The save file replaced or removed under an open fight: the app says so at once (an error notice that
stays, a line in the log, the new file in the header) and nothing is lost: the recovery file the fight
goes on in reopens with every command."""

from __future__ import annotations

import os
from pathlib import Path

from engine import commands as C
from saves.demo import demo_history
from saves.session import Session
from tests.tui.support import app_on, notifications, pane_text, sync, type_text, until
from tui.main import MainScreen


def file_session(path: Path) -> Session:
    h = demo_history("d20", 7)
    s = Session.create(path, h.nodes[0].state)
    for node in h.nodes[1:]:
        assert node.command is not None
        s.apply(node.command)
    s.apply(C.StartFight())
    return s


def same_fight(a: Session, path: Path) -> None:
    back = Session.open(path, readonly=True)
    try:
        assert back.state == a.state
        assert [n.command for n in back.history.nodes] == [n.command for n in a.history.nodes]
    finally:
        back.close()


@sync
async def test_replaced_then_removed(tmp_path: Path) -> None:
    path = tmp_path / "fight.fracas"
    s = file_session(path)
    other = tmp_path / "other.fracas"
    file_session(other).close()
    app = app_on(s, tmp_path)
    try:
        async with app.run_test(size=(130, 40)) as pilot:
            await pilot.press("m")
            await type_text(pilot, "before")
            await pilot.press("enter")
            # another program puts another file in its place; the next command notices
            os.replace(other, path)
            await pilot.press("n")
            await pilot.pause()
            assert isinstance(app.screen, MainScreen)
            assert isinstance(s.history.nodes[s.history.cursor].command, C.NextTurn)
            moved = s.path
            assert moved is not None and moved != path and moved.exists()
            said = [n for n in notifications(pilot) if "was replaced by another program" in n]
            assert said and moved.name in said[0]
            notice = next(n for n in app._notifications if "was replaced" in str(n.message))
            assert notice.severity == "error" and notice.timeout >= 600
            assert "Save file: fight.fracas was replaced by another program" in (await pane_text(pilot, "log"))
            title = app.screen.query_one("#title").render().plain  # type: ignore[attr-defined]
            assert f"now saved in {moved.name}" in title
            same_fight(s, moved)
            # the recovery file removed in turn: the watch finds it within a second, no key needed
            os.remove(moved)
            await until(pilot, lambda: s.path != moved)
            again = s.path
            assert again is not None and again != moved and again.exists()
            assert any("was removed by another program" in n for n in notifications(pilot))
            await pilot.press("m")
            await type_text(pilot, "after")
            await pilot.press("enter")
            assert app.screen.query_one("#title").render().plain.count("now saved in") == 1  # type: ignore[attr-defined]
            assert again.name in app.screen.query_one("#title").render().plain  # type: ignore[attr-defined]
            same_fight(s, again)
            notes = [n.command.text for n in s.history.nodes if isinstance(n.command, C.Note)]
            assert notes == ["before", "after"]
    finally:
        s.close()
