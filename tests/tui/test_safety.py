"""User text is shown as typed; rule violations are messages, never crashes."""

from __future__ import annotations

from pathlib import Path

import msgspec

from engine import commands as C
from engine import new_fight
from engine.rules.cosmere.commands import StartTurn
from engine.rules.warhammer.commands import Fortune
from engine.state import Fight, state_hook
from saves.session import Session
from tests.tui.support import app_on, demo_session, main_screen, notifications, pane_text, select, settled, sync
from tui.text import clean, literal

MARKUP = "[red]X[/]"
ESCAPE = "\x1b[31mEvil\x1b[0m"
NOTE = "[bold]note[/bold] :smile: \x07bell"
PLAIN_NOTE = "[bold]note[/bold] :smile: bell"


def screen_lines(app) -> list[str]:  # type: ignore[no-untyped-def]
    """The whole screen as the compositor renders it for the terminal, one string a line."""
    return [strip.text for strip in app.screen._compositor.render_strips()]


def test_clean_makes_control_characters_visible() -> None:
    assert clean("a\x1bb") == "a^[b"
    assert clean("tab\there") == "tab^Ihere"
    assert clean("del\x7f") == "del^?"
    assert clean("c1\x9b") == "c1<9b>"
    assert clean("bidi\u202eevil") == "bidi<U+202E>evil"
    assert clean("plain [red]text[/] :smile:") == "plain [red]text[/] :smile:"
    assert clean("two\nlines", keep_newlines=True) == "two\nlines"
    t = literal(MARKUP)
    assert t.plain == MARKUP and not t.spans


@sync
async def test_names_and_notes_render_literally_everywhere(tmp_path: Path) -> None:
    s = Session.memory(new_fight("d20", "[blink]Fight[/]", 3))
    s.apply(C.AddCombatant(MARKUP, kind="pc", side="party"))
    s.apply(C.AddCombatant("Placeholder"))
    s.apply(C.EditCombatant("c1", note=PLAIN_NOTE))
    s.apply(C.AddCondition("c1", "[i]Cursed[/i]"))
    s.apply(C.StartFight())
    s.apply(C.Note(PLAIN_NOTE, "c1"))
    # the engine and the save files now refuse control characters in names and notes; the screen
    # must still show them literally if a state ever holds them
    raw = msgspec.json.encode(s.state)
    raw = raw.replace(b'"Placeholder"', msgspec.json.encode(ESCAPE)).replace(
        msgspec.json.encode(PLAIN_NOTE), msgspec.json.encode(NOTE)
    )
    hostile = msgspec.json.decode(raw, type=Fight, dec_hook=state_hook)
    s = Session.memory(hostile)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(160, 48)) as pilot:
        await select(pilot, MARKUP)
        screen = main_screen(pilot)
        tracker_rows = [r.text.plain for r in screen.query_one("#tracker")._rows]
        assert any(MARKUP in row for row in tracker_rows)
        assert any("^[[31mEvil^[[0m" in row for row in tracker_rows)
        assert any("[i]Cursed[/i]" in row for row in tracker_rows)
        sheet = await pane_text(pilot, "sheet")
        assert MARKUP in sheet and "[bold]note[/bold] :smile: ^Gbell" in sheet
        assert "[i]Cursed[/i]" in (await pane_text(pilot, "conditions"))
        assert "[blink]Fight[/]" in screen.query_one("#title").render().plain
        # what reaches the terminal: the names as typed, and no raw escape code at all
        shown = "\n".join(screen_lines(app))
        assert MARKUP in shown and "^[[31mEvil" in shown
        assert "\x1b" not in shown and "\x07" not in shown
        # and in a dialog heading
        await pilot.press("d")
        heading = app.screen.query_one("#heading").render()
        assert MARKUP in str(heading)


@sync
async def test_names_and_notes_render_literally_in_the_log(tmp_path: Path) -> None:
    s = Session.memory(new_fight("d20", "[blink]Fight[/]", 3))
    s.apply(C.AddCombatant(MARKUP, kind="pc", side="party"))
    s.apply(C.StartFight())
    s.apply(C.Note(PLAIN_NOTE, "c1"))
    app = app_on(s, tmp_path)
    async with app.run_test(size=(160, 48)) as pilot:
        log = await pane_text(pilot, "log")
        assert f"{MARKUP}: {PLAIN_NOTE}" in log
        assert f"{MARKUP} joins the fight" in log


@sync
async def test_rule_violations_are_notifications_not_crashes(tmp_path: Path) -> None:
    s = demo_session("cosmere", start=True)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        before = s.state
        # a command this ruleset does not have: a warning, the state untouched
        assert not app.try_commit(Fortune("c1", 0))
        await pilot.pause()
        assert s.state is before
        assert any("no 'fortune' command" in n for n in notifications(pilot))
        # taking a turn twice is refused by the engine, shown as a notification
        await select(pilot, "Kaladin")
        await pilot.press("g")
        taken = s.state
        app.try_commit(StartTurn(s.state.current))
        await pilot.pause()
        assert s.state is taken
        assert any("already" in n for n in notifications(pilot))


@sync
async def test_a_failed_save_is_shown_and_the_dialog_stays(tmp_path: Path) -> None:
    from saves.errors import SaveError

    s = demo_session("d20", start=True)
    real_apply = s.apply_all  # the app hands every batch to the session's one transaction boundary
    broken = [True]

    def apply_all(cmds):  # type: ignore[no-untyped-def]
        if broken[0]:
            raise SaveError(tmp_path / "fight.fracas", "no space left on device")
        return real_apply(cmds)

    s.apply_all = apply_all  # type: ignore[method-assign]
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        before = s.state
        await select(pilot, "Bandit 1")
        await pilot.press("d", "5", "enter")
        from tests.tui.support import dialog_error

        assert "Not saved" in dialog_error(pilot) and "no space left" in dialog_error(pilot)
        assert s.state is before
        await pilot.press("escape")
        assert "NOT SAVED" in main_screen(pilot).query_one("#saved").render().plain
        broken[0] = False
        await pilot.press("d", "5", "enter")
        assert "NOT SAVED" not in main_screen(pilot).query_one("#saved").render().plain
        assert s.state is not before


@sync
async def test_keys_typed_while_a_dialog_opens_reach_it(tmp_path: Path) -> None:
    """d, 7, enter typed in one go (no waiting for the dialog): the damage lands, nothing is lost."""
    from textual import events

    s = demo_session("d20", start=True)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        who = main_screen(pilot).selected
        hp = s.state.get(who).hp
        for key, char in (("d", "d"), ("7", "7"), ("enter", "\r")):
            event = events.Key(key, char)
            event.set_sender(app)
            app._driver.send_message(event)  # type: ignore[union-attr]
        await settled(pilot)
        assert s.state.get(who).hp == hp - 7
