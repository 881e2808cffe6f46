"""Undo and redo from a prompt the fight raised (play-test: undoing a concentration save brought the
"owes a save" prompt back, and it swallowed the next ctrl+z and ctrl+y; three undos went two steps
back). They close the prompt and step, as on the main screen."""

from __future__ import annotations

from pathlib import Path

from engine import commands as C
from tests.tui.support import app_on, burst, cid, demo_session, of, settled, sync
from tui.effects import KeptEndedDialog
from tui.main import MainScreen
from tui.rulesets.d20.dialogs import OwedRollDialog


def owing():  # type: ignore[no-untyped-def]
    """Ysolde concentrating, then hit hard enough to owe a concentration save."""
    s = demo_session("d20", start=True)
    ysolde = cid(s, "Ysolde")
    s.apply(C.AddCondition(ysolde, "Concentrating"))
    s.apply(C.Damage(ysolde, 12))
    assert [d.what for d in of(s, "Ysolde").due] == ["concentration"]
    return s


async def settle_by_failing(pilot) -> None:  # type: ignore[no-untyped-def]
    app = pilot.app
    assert isinstance(app.screen, OwedRollDialog), app.screen
    app.screen.query_one("#given").value = "1"  # a natural 1: concentration ends
    await pilot.press("enter")
    await settled(pilot)
    assert isinstance(app.screen, MainScreen)
    assert not of(app.session, "Ysolde").has("Concentrating")


@sync
async def test_three_undos_from_the_owed_save_prompt_go_three_steps_back(tmp_path: Path) -> None:
    s = owing()
    start = s.history.cursor
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        await settle_by_failing(pilot)
        settled_at = s.history.cursor
        assert settled_at == start + 1
        await pilot.press("ctrl+z")  # the save undone: owed again, and the prompt is back
        await settled(pilot)
        assert isinstance(app.screen, OwedRollDialog)
        await pilot.press("ctrl+z")  # the prompt closes and the damage is undone
        await settled(pilot)
        assert s.history.cursor == start - 1
        assert not of(s, "Ysolde").due and isinstance(app.screen, MainScreen)
        await pilot.press("ctrl+z")  # and the concentration
        await settled(pilot)
        assert s.history.cursor == start - 2
        assert not of(s, "Ysolde").has("Concentrating")
        # and forward again: the damage brings the prompt; redo from it closes it and redoes the save
        await pilot.press("ctrl+y", "ctrl+y")
        await settled(pilot)
        assert s.history.cursor == start
        assert isinstance(app.screen, OwedRollDialog)
        await pilot.press("ctrl+y")
        await settled(pilot)
        assert s.history.cursor == settled_at
        assert isinstance(app.screen, MainScreen)
        assert not of(s, "Ysolde").has("Concentrating") and not of(s, "Ysolde").due


@sync
async def test_three_undos_in_one_burst_go_three_steps_back(tmp_path: Path) -> None:
    s = owing()
    start = s.history.cursor
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        await settle_by_failing(pilot)
        await burst(pilot, "ctrl+z", "ctrl+z", "ctrl+z")
        assert s.history.cursor == start - 2
        assert isinstance(app.screen, MainScreen)


@sync
async def test_undo_from_the_kept_up_prompt_closes_it_and_steps_back(tmp_path: Path) -> None:
    from engine.area import KeptCondition

    s = demo_session("d20", start=True)
    captain, brannoc = cid(s, "Bandit Captain"), cid(s, "Brannoc")
    s.apply(C.AddCondition(captain, "Concentrating", note="Hold Person"))
    s.apply(KeptCondition(brannoc, "Restrained", captain))
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        before = s.history.cursor
        app.commit(C.RemoveCondition(captain, "Concentrating"))  # the concentration ends
        await settled(pilot)
        assert isinstance(app.screen, KeptEndedDialog)
        await pilot.press("ctrl+z")
        await settled(pilot)
        assert isinstance(app.screen, MainScreen)
        assert s.history.cursor == before
        assert of(s, "Bandit Captain").has("Concentrating") and of(s, "Brannoc").has("Restrained")
