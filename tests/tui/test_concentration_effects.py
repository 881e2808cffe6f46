"""Concentration's effects (issue 14, item 8): a condition kept up by a caster's concentration, and the
offer to end all of them, in one step, when the concentration ends."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Input

from engine import commands as C
from engine.area import KeptCondition
from tests.tui.support import app_on, cid, demo_session, of, select, sync, type_text
from tui.dialogs import ConditionDialog, Tick
from tui.effects import KeptEndedDialog
from tui.main import MainScreen


def concentrating(*then: C.Command):  # type: ignore[no-untyped-def]
    s = demo_session("d20", start=True)
    captain = cid(s, "Bandit Captain")
    s.apply(C.AddCondition(captain, "Concentrating", note="Hold Person"))
    for cmd in then:
        s.apply(cmd)
    return s, captain


@sync
async def test_the_condition_dialog_marks_a_condition_kept_up(tmp_path: Path) -> None:
    s, captain = concentrating()
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await select(pilot, "Brannoc")
        await pilot.press("c")
        dialog = app.screen
        assert isinstance(dialog, ConditionDialog)
        await type_text(pilot, "restr")
        await pilot.press("tab")  # right under the name: who keeps it up
        assert dialog.focused is dialog.query_one("#through")
        assert "▸ Kept up by" in str(dialog.query_one("#through").parent.query_one(".label").render())
        assert dialog.choice("through") == ""  # nobody unless the GM says so
        await pilot.press("right")
        assert dialog.choice("through") == captain
        await pilot.press("enter")
        await pilot.pause()
        cond = of(s, "Brannoc").condition("Restrained")
        assert cond is not None and (cond.source, cond.through) == (captain, "Concentrating")
        # nobody concentrating: no such row
        await select(pilot, "Ysolde")
        s.apply(C.RemoveCondition(captain, "Concentrating"))
        app.refresh_fight()
        await pilot.pause()
        assert isinstance(app.screen, KeptEndedDialog)  # (tested below)
        await pilot.press("escape")
        await pilot.press("c")
        assert isinstance(app.screen, ConditionDialog) and not app.screen.query("#through")


@sync
async def test_a_failed_concentration_save_offers_to_end_what_it_kept_up(tmp_path: Path) -> None:
    s, captain = concentrating()
    brannoc, ysolde = cid(s, "Brannoc"), cid(s, "Ysolde")
    s.apply(KeptCondition(brannoc, "Restrained", captain))
    s.apply(KeptCondition(ysolde, "Frightened", captain))
    s.apply(C.AddCondition(ysolde, "Prone"))
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await select(pilot, "Bandit Captain")
        await pilot.press("d")
        await type_text(pilot, "8")
        await pilot.press("enter")
        await pilot.pause()
        # the concentration save falls due: the owed-save dialog first; the table calls out a 3
        owed = app.screen
        assert not isinstance(owed, MainScreen | KeptEndedDialog)
        owed.query_one("#total", Input).focus()
        await type_text(pilot, "3")
        await pilot.press("enter")
        await pilot.pause()
        await pilot.pause()
        offer = app.screen
        assert isinstance(offer, KeptEndedDialog)
        listed = [(k.who, k.name) for k in offer.items]
        assert listed == [(brannoc, "Restrained"), (ysolde, "Frightened")]
        heading = str(offer.query_one("#heading").render())
        assert "Bandit Captain's concentration ended" in heading
        assert "Restrained on Brannoc" in str(offer.query_one("#end-0", Tick).label)
        nodes = len(s.history.nodes)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, MainScreen)
        assert len(s.history.nodes) == nodes + 1  # one command
        assert not of(s, "Brannoc").has("Restrained") and not of(s, "Ysolde").has("Frightened")
        assert of(s, "Ysolde").has("Prone")  # kept up by nobody: untouched
        log = s.history.nodes[-1].events
        assert [e.reason for e in log] == ["Bandit Captain's concentration ended"] * 2  # type: ignore[attr-defined]
        # one undo brings both back, and offers nothing again
        await pilot.press("ctrl+z")
        await pilot.pause()
        await pilot.pause()
        assert of(s, "Brannoc").has("Restrained") and of(s, "Ysolde").has("Frightened")
        assert isinstance(app.screen, MainScreen)


@sync
async def test_escape_keeps_them_and_an_unticked_one_stays(tmp_path: Path) -> None:
    s, captain = concentrating()
    brannoc, ysolde = cid(s, "Brannoc"), cid(s, "Ysolde")
    s.apply(KeptCondition(brannoc, "Restrained", captain))
    s.apply(KeptCondition(ysolde, "Frightened", captain))
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        # a new concentration ends the old one
        app.commit(C.AddCondition(captain, "Concentrating", note="Web"))
        await pilot.pause()
        await pilot.pause()
        assert isinstance(app.screen, KeptEndedDialog)
        await pilot.press("escape")
        await pilot.pause()
        assert of(s, "Brannoc").has("Restrained") and of(s, "Ysolde").has("Frightened")
        # back to the first concentration, then removed by hand: the GM keeps Ysolde's
        await pilot.press("ctrl+z")
        await pilot.pause()
        assert isinstance(app.screen, MainScreen)
        await select(pilot, "Bandit Captain")
        await pilot.press("x")
        await pilot.press("enter")  # the only condition there
        await pilot.pause()
        await pilot.pause()
        offer = app.screen
        assert isinstance(offer, KeptEndedDialog)
        await pilot.press("down")  # the list's next row (one tab stop for the whole list)
        await pilot.press("space")  # untick Frightened on Ysolde
        await pilot.press("enter")
        await pilot.pause()
        assert not of(s, "Brannoc").has("Restrained") and of(s, "Ysolde").has("Frightened")


def test_the_conditions_pane_says_what_keeps_a_condition_up() -> None:
    from engine import get_ruleset
    from tui.panes import conditions_text

    s, captain = concentrating()
    brannoc = cid(s, "Brannoc")
    s.apply(KeptCondition(brannoc, "Restrained", source=captain))
    f = s.state
    text = conditions_text(f, get_ruleset("d20"), f.get(brannoc)).plain
    assert "Source: Bandit Captain" in text
    assert "Kept up by Bandit Captain's concentration" in text
    s.apply(C.AddCondition(brannoc, "Prone"))  # a plain one says nothing of the kind
    text = conditions_text(s.state, get_ruleset("d20"), s.state.get(brannoc)).plain
    assert text.count("Kept up by") == 1
