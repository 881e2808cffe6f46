"""A condition the target is immune to (issue 24): the engine refuses it with its line, the dialog
says enter again gives it anyway, and that enter sends it with override."""

from __future__ import annotations

from pathlib import Path

from engine import commands as C
from tests.tui.statblocks import WYRM, fight_with
from tests.tui.support import app_on, burst, dialog_error, of, select, sync
from tui.main import MainScreen


@sync
async def test_immune_refused_then_given_anyway_with_one_key(tmp_path: Path) -> None:
    s = fight_with(WYRM, turn="Ayla")
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await select(pilot, "Ember Wyrm")
        await burst(pilot, "c", *"frightened", "enter")
        assert not isinstance(app.screen, MainScreen)
        assert "Ember Wyrm is immune to Frightened" in dialog_error(pilot)
        assert "enter again gives it anyway" in dialog_error(pilot)
        assert not of(s, "Ember Wyrm").conditions
        await burst(pilot, "enter")
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        cmd = s.history.nodes[s.history.cursor].command
        assert isinstance(cmd, C.AddCondition) and cmd.override
        assert [c.name for c in of(s, "Ember Wyrm").conditions] == ["Frightened"]


@sync
async def test_a_changed_form_is_asked_again(tmp_path: Path) -> None:
    s = fight_with(WYRM, turn="Ayla")
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await select(pilot, "Ember Wyrm")
        await burst(pilot, "c", *"frightened", "enter")
        assert "enter again" in dialog_error(pilot)
        await burst(pilot, "backspace", "d", "enter")  # typed again: refused again, not given
        assert not isinstance(app.screen, MainScreen)
        assert not of(s, "Ember Wyrm").conditions
