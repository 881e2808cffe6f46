""" "Add the party" on an empty roster (issue 25, item 15) says how a roster is made, hand-made PCs
written back included."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import new_fight
from saves.session import Session
from tests.tui.support import app_on, sync
from tui.party import PartyAddDialog


@sync
async def test_an_empty_roster_mentions_writing_the_party_back(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FRACAS_DATA_DIR", str(tmp_path / "data"))
    app = app_on(Session.memory(new_fight("d20", seed=1)), tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("A")
        await pilot.pause()
        assert isinstance(app.screen, PartyAddDialog)
        text = " ".join(str(w.render()) for w in app.screen.query("Static"))
        assert "No party yet" in text and "Write the party back" in text and "hand-made PCs" in " ".join(text.split())
