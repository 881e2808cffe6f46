"""Exports run in a worker and land next to the save file."""

from __future__ import annotations

import os
from pathlib import Path

from engine import commands as C
from saves.session import Session
from tests.tui.support import demo_session, notifications, sync, type_text
from tui.app import make_app


@sync
async def test_export_markdown_from_the_palette(tmp_path: Path) -> None:
    memory = demo_session("d20", start=True)
    folder = Path(os.environ["FRACAS_DATA_DIR"])
    folder.mkdir(parents=True, exist_ok=True)
    s = Session.create(folder / "night.fracas", memory.history.nodes[0].state)
    for i in memory.history.path()[1:]:
        cmd = memory.history.nodes[i].command
        assert cmd is not None
        s.apply(cmd)
    s.apply(C.Note("[b]The bridge[/b] holds"))
    app = make_app(s, config_path=tmp_path / "config.toml")
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("ctrl+p")
            await type_text(pilot, "export the fight as markdown")
            await pilot.pause()
            await pilot.press("enter")
            await pilot.pause()
            await app.workers.wait_for_complete()
            await pilot.pause()
            target = folder / "night-export.md"
            assert target.exists()
            text = target.read_text()
            assert "Ambush on the Old Road" in text and "The bridge" in text
            assert any("Exported to" in n for n in notifications(pilot))
    finally:
        s.close()
