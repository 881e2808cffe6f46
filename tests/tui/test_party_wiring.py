"""The party dialogs from the main screen: the palette's rows, and the end of a fight offering the
write-back when a roster PC changed (issue 13, item 5)."""

from __future__ import annotations

from pathlib import Path

import pytest

import engine.library as L
from engine import commands as C
from engine import new_fight
from saves import library as S
from saves.session import Session
from tests.tui.support import app_on, main_screen, of, sync
from tui.actions import ACTIONS
from tui.main import MainScreen
from tui.party import PartyAddDialog, PartyChangesDialog


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "data"
    monkeypatch.setenv("FRACAS_DATA_DIR", str(folder))
    return folder


def test_the_palette_has_the_party_rows() -> None:
    ids = {a.id for a in ACTIONS}
    assert {"party", "party_back"} <= ids


@sync
async def test_party_in_one_step_and_the_write_back_offered_at_the_end(tmp_path: Path) -> None:
    S.add_to_party("d20", [L.decode_entry("d20", {"name": "Ayla", "kind": "pc", "side": "party", "hp": 24})])
    s = Session.memory(new_fight("d20", seed=3))
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        main = main_screen(pilot)
        await pilot.press("A")  # shift+a: add the party
        await pilot.pause()
        assert isinstance(app.screen, PartyAddDialog)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, MainScreen) and of(s, "Ayla").hp == 24
        s.apply(C.StartFight())
        s.apply(C.Damage(of(s, "Ayla").id, amount=5))
        main.action_end_fight()
        await pilot.pause()
        assert s.state.ended
        assert isinstance(app.screen, PartyChangesDialog)  # Ayla lost 5: offered for write-back
        await pilot.press("escape")
        await pilot.pause()
        assert S.read_party("d20")[0].now == S.Now()  # escape: the roster is as it was
