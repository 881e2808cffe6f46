"""The Fracas app: a factory, the session plumbing every screen uses, themes and settings.

Every change goes through `FracasApp.commit` / `undo` / `redo`: the Session applies it (and, when it is
file-backed, makes it durable) and then every pane re-renders from `session.state`. A rule violation
is a notification (or a message inside the dialog that asked), never a crash.
"""

from __future__ import annotations

import gc
import logging
import os
import re
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from textual import events
from textual.app import App
from textual.binding import Binding
from textual.screen import Screen
from textual.timer import Timer
from textual.widget import Widget

from engine import RuleError
from engine.commands import Command
from engine.events import Event, describe
from saves.errors import SaveError
from tui import config as cfgmod
from tui import gc_policy
from tui.host import FightView
from tui.text import clean

if TYPE_CHECKING:
    from saves.session import Session

log = logging.getLogger("fracas.tui")

DEFAULT_THEME = "fracas-ember"
IDLE_GC = 2.0  # seconds without a change before a full garbage collection
FILE_WATCH = 1.0  # seconds between checks that the save file is still the fight's own
FILE_NOTICE_TIMEOUT = 3600  # a moved fight's notice stays until dismissed (or an hour)


def _palette_provider() -> type:
    from tui.palette import FracasCommands  # loaded when the palette first opens

    return FracasCommands


def _save_error() -> type[Exception]:
    """The exception a failed save raises (saves.errors.SaveError)."""
    return SaveError


# a roll's workings ("1d20+10 = [10]+10 = 20"): the summary keeps its total, the log keeps it whole
_WORKINGS = re.compile(r"\d*d\d+[^\s\[\]]* = \[[^\]]*\][^\s\[\]]* = (-?\d+)")
_BARE_TOTAL = re.compile(r" \[-?\d+(?: \(entered\))?\]")  # "[7]", "[7 (entered)]": a total told already


def compact(text: str) -> str:
    """An event's line without its dice workings: "Wyrm attacks Ysolde with Lash: 20 vs AC 13: hit"."""
    return _BARE_TOTAL.sub("", _WORKINGS.sub(r"\1", text))


def summary(events: Sequence[Event], limit: int = 3, least: int = 2) -> str:
    """A short sentence for what a command did (or what an undo took back): the dice's workings
    left out, so a hit or miss and the damage fit a narrow screen's pane title and the lines under it.
    What happened comes first (up to `limit` events), then, to make up `least`, what it cost."""
    if not events:
        return "(no change)"
    # what happened first, what it cost after: "Bandit 3 uses Attack (action); A0 B1..." or
    # "spends 1 Legendary actions" first cut the hit or miss off a narrow screen's title, as did a
    # Cosmere attack's test before each target's result (Event.summary_rank)
    ranked = sorted(events, key=lambda e: e.summary_rank)
    told = [e for e in ranked if e.summary_rank == 0][:limit]
    told += [e for e in ranked if e.summary_rank > 0][: max(0, least - len(told))]
    parts = [compact(describe(e)).strip() for e in told]  # a target's line is indented in the log
    more = len(events) - len(told)
    return clean("; ".join(parts)) + (f" (+{more} more)" if more > 0 else "")


class FracasApp(App[None]):
    TITLE = "Fracas"
    CSS_PATH = "app.tcss"
    BINDINGS = [
        Binding("ctrl+q", "quit", "Quit", show=False, priority=True, id="quit"),
        Binding("ctrl+p", "command_palette", "Palette", show=False, priority=True, id="palette"),
    ]
    COMMANDS = App.COMMANDS | {_palette_provider}
    NOTIFICATION_TIMEOUT = 4

    def __init__(
        self,
        session: Session | None = None,
        *,
        start_screen: bool = False,
        config_path: Path | None = None,
    ) -> None:
        super().__init__()
        from tui.actions import default_keys, known_ids  # the action table: built once the app is made

        self.session: Session | None = session
        self._opened_name = session.path.name if session is not None and session.path is not None else ""
        self.show_start = start_screen or session is None
        self.settings = cfgmod.load(config_path, known_ids(), default_keys())
        self.save_failed = ""  # the last save error, shown in the header until a save succeeds
        self._owned: list[Session] = []  # sessions this app opened (and so must close)
        self._clash_reported = False
        self._theme_problems: list[str] = []
        self._gc_timer: Timer | None = None
        self._typeahead: list[events.Key] | None = None
        self._typeahead_timer: Timer | None = None
        self._hold_since = 0.0  # when keys began to be held (expect_dialog)
        self._held_by: Screen | None = None  # the dialog whose enter (or escape) holds the keys after it
        # a tab in a dialog that waits for the keys before it (_move_focus_now): the dialog, the key
        self._pending_tab: tuple[Screen, str, int] | None = None
        self._tab_seq = 0
        # what the session said about its file (replaced, removed...): (history cursor then, line),
        # shown in the log pane after that command; and the file the fight moved to, for the header
        self.file_notices: list[tuple[int, str]] = []
        self.moved_to = ""
        self._initial_theme()

    # --- start-up -----------------------------------------------------------------------------
    def _first_screen(self) -> Screen:
        if self.show_start or self.session is None:
            from tui.start import StartScreen  # start-up: only the first screen's module is loaded

            return StartScreen()
        from tui.main import MainScreen  # start-up: only the first screen's module is loaded

        return MainScreen()

    def _initial_theme(self) -> None:
        """Register the themes and choose one before any CSS is read: setting `App.theme` once the
        app runs would read and apply every stylesheet a second time (a slower start)."""
        from tui.theming import load_themes  # start-up: read once, before any CSS

        themes, self._theme_problems = load_themes()
        for theme in themes:
            self.register_theme(theme)
        wanted = self.settings.theme or DEFAULT_THEME
        if wanted not in self.available_themes:
            self._theme_problems.append(f"Theme '{clean(wanted)}' is not known; using {DEFAULT_THEME}.")
            wanted = DEFAULT_THEME
        if wanted not in self.available_themes:
            return
        # what App._watch_theme does, without its stylesheet refresh (nothing is styled yet)
        self.set_reactive(App.theme, wanted)
        self.stylesheet.set_variables(self.get_css_variables())  # made in App.__init__, not read yet
        dark = self.current_theme.dark
        self.set_class(True, f"-theme-{wanted}", update=False)
        self.set_class(dark, "-dark-mode", update=False)
        self.set_class(not dark, "-light-mode", update=False)

    def on_mount(self) -> None:
        self.theme_changed_signal.subscribe(self, self._remember_theme)
        self.set_keymap(self.settings.keys)
        self._watch_terminal()
        # pushed over the default screen, so that it can later be switched for another fight
        self.push_screen(self._first_screen())
        self.set_timer(0.5, self._settle)  # after the first screen is painted
        self.set_interval(FILE_WATCH, self._check_file, name="file watch")
        for problem in self.settings.problems + self._theme_problems:
            self.notify(clean(problem), title="Settings", severity="warning", timeout=10, markup=False)
        if self.session is not None:
            self._show_notices(self.session)

    def _watch_terminal(self) -> None:
        """Close when the terminal goes away (its window closed, the ssh link dropped). Textual's input
        thread then reads end-of-file forever: the app would live on, holding the fight's lock and a
        whole core. Everything is already on disk, so closing loses nothing."""
        if self.is_headless:
            return
        import sys

        stdin = sys.__stdin__
        try:
            fd = stdin.fileno() if stdin is not None else -1
            if fd < 0 or not os.isatty(fd):
                return
        except (OSError, ValueError):
            return
        try:
            import asyncio
            import signal

            asyncio.get_running_loop().add_signal_handler(signal.SIGHUP, self._terminal_gone)
        except (NotImplementedError, RuntimeError, ValueError, AttributeError):
            pass  # no signals here (Windows): the check below still finds a hung-up terminal

        try:
            import termios
        except ImportError:
            return  # not a POSIX terminal

        def check() -> None:
            try:
                termios.tcgetattr(fd)
            except (termios.error, OSError, ValueError):
                self._terminal_gone()

        self.set_interval(2.0, check, name="terminal watch")

    def _terminal_gone(self) -> None:
        log.warning("the terminal went away: closing")
        self.close_owned()
        self.exit()

    def _settle(self) -> None:
        """Keep the garbage collector's full passes away from key presses.

        A full pass walks every object the app holds (Textual's widgets, caches, the fight's
        history): 30-60 ms, and Python starts one every few dozen key presses, so a damage entry
        would now and then stutter. Full passes are instead run when the GM pauses (IDLE_GC seconds
        after the last change), and what survives them is frozen, out of later passes' way; until
        this first one, start-up ran with the collector put off (tui/gc_policy.py)."""
        gc_policy.settle()

    def _schedule_gc(self) -> None:
        if self._gc_timer is not None:
            self._gc_timer.stop()
        self._gc_timer = self.set_timer(IDLE_GC, self._idle_gc)

    def _idle_gc(self) -> None:
        self._gc_timer = None
        gc.unfreeze()
        gc.collect()
        gc.freeze()

    def _remember_theme(self, theme: object) -> None:
        name = getattr(theme, "name", None)
        if not isinstance(name, str) or name == self.settings.theme:
            return
        self.settings.theme = name
        problem = cfgmod.save(self.settings)
        if problem:
            self.notify(clean(problem), title="Settings", severity="warning", markup=False)

    def handle_bindings_clash(self, clashed_bindings: set[Binding], node: object) -> None:
        if self._clash_reported:
            return
        self._clash_reported = True
        ids = ", ".join(sorted(b.id or b.action for b in clashed_bindings))
        self.notify(f"Key clash in the settings file: {ids} share a key.", severity="warning", markup=False)

    # --- the save file under the fight ---------------------------------------------------------
    # Another program may replace, remove, cut or grow the save file while the fight is open. The
    # session notices (on a timer here, and in every apply, undo and redo), carries on in a recovery
    # file, and says so in one line: shown at once, until dismissed, and kept in the log pane.

    def _check_file(self) -> None:
        session = self.session
        check = getattr(session, "check_file", None)
        if check is None:
            return
        try:
            notice = check()
        except Exception:  # the watch must never stop the app
            log.exception("checking the save file failed")
            return
        if notice:
            self.file_notice(notice)

    def _pop_notices(self) -> None:
        pop = getattr(self.session, "pop_notices", None)
        if pop is None:
            return
        try:
            notices = pop()
        except Exception:
            log.exception("reading the session's notices failed")
            return
        for notice in notices:
            self.file_notice(notice)

    def file_notice(self, notice: str) -> None:
        session = self.session
        text = clean(str(notice))
        self.notify(text, title="Save file", severity="error", timeout=FILE_NOTICE_TIMEOUT, markup=False)
        if session is not None:
            self.file_notices.append((session.history.cursor, text))
            if session.path is not None and session.path.name != self._opened_name:
                self.moved_to = session.path.name
            elif session.path is not None:
                self.save_failed = "kept in memory only"  # no copy could be written
        self.refresh_fight(force=True)

    def _show_notices(self, session: Session) -> None:
        for notice in getattr(session, "notices", ()) or ():
            self.notify(clean(str(notice)), title="Save file", severity="warning", timeout=10, markup=False)

    # --- type-ahead into dialogs --------------------------------------------------------------
    # A GM types "d", "7", enter without waiting. Opening a dialog takes a frame or two, and keys
    # that arrive before it is on screen would go to the main screen and be lost: they are held
    # here and handed to the dialog, in order, once it has focus.

    HOLD_LIMIT = 1.0  # held keys go after this long with nothing left to do (seconds)
    HOLD_MOST = 10.0  # and after this long in any case

    def expect_dialog(self) -> None:
        self._typeahead = []
        if self._typeahead_timer is not None:
            self._typeahead_timer.stop()
        # never hold keys for long, whatever happens to the dialog; but a second of wall time is no
        # measure on a busy machine, where opening the dialog alone may take longer
        self._hold_since = time.monotonic()
        self._typeahead_timer = self.set_timer(self.HOLD_LIMIT, self._hold_expired)

    async def _hold_expired(self) -> None:
        """The time limit on held keys: they go now, unless the app and the screen still have
        messages to handle (the dialog on its way), when the limit is given again, up to HOLD_MOST."""
        if self._typeahead is None:
            return
        busy = not self._message_queue.empty() or bool(_busy(self.screen))
        if busy and time.monotonic() - self._hold_since < self.HOLD_MOST:
            self._typeahead_timer = self.set_timer(self.HOLD_LIMIT / 4, self._hold_expired)
            return
        await self.release_typeahead()

    async def release_typeahead(self) -> None:
        keys, self._typeahead = self._typeahead, None
        self._held_by = None
        if self._typeahead_timer is not None:
            self._typeahead_timer.stop()
            self._typeahead_timer = None
        tab, self._pending_tab = self._pending_tab, None
        if tab is not None and tab[1] and tab[0] is self.screen and tab[0].is_attached:
            _tab(tab[0], tab[1])  # the tab the keys after it waited for (_move_focus_now)
        for event in keys or ():
            await self.on_event(event)  # as if just typed: to the focused field of the dialog

    async def on_event(self, event: events.Event) -> None:
        # the main screen's keys are priority bindings, so the key that opens a dialog has run its
        # action (and called expect_dialog) before the next key is looked at here
        if isinstance(event, events.Key) and not event.is_forwarded:
            if self._typeahead is not None:
                self._typeahead.append(event)
                return
            if event.key in ("tab", "shift+tab") and self._move_focus_now(event.key):
                return
            if self._step_from_prompt(event):
                return
            wait = not self._hold_after(event) and self._runs_late(event)
            await super().on_event(event)
            if wait:
                self._hold_until_settled(self.screen, "")
            return
        await super().on_event(event)

    def _move_focus_now(self, key: str) -> bool:
        """In a dialog, tab moves the focus here, not where Textual would: once the key has gone to
        the focused field and bubbled back up to the app, a few messages later, when the keys typed
        right after it ("24", tab, tab, "fire" in one burst) were already in the old field
        ("24fire" as the amount). No field of ours takes tab itself.

        The keys before the tab may not be done yet (in the field's queue, or a choice's change on
        its way to the dialog, which shows the fields that go with it): then the keys after the tab
        are held, and the focus moves once the dialog has caught up (_tab_when_settled)."""
        try:
            screen = self.screen
        except Exception:  # no screen yet
            return False
        if not getattr(screen, "HOLDS_KEYS", False) and not getattr(screen, "TAB_AT_ONCE", False):
            return False
        if _busy(screen):
            self._hold_until_settled(screen, key)
        else:
            _tab(screen, key)
        return True

    def _hold_until_settled(self, screen: Screen, tab: str) -> None:
        """Hold the keys typed from now on until `screen` has handled what it has (never more than a
        second with nothing left to do), then let them go: `tab` first, when there is one."""
        self.expect_dialog()
        self._tab_seq += 1
        self._pending_tab = (screen, tab, self._tab_seq)
        self._tab_when_settled(self._tab_seq)

    def _runs_late(self, event: events.Key) -> bool:
        """Whether `event` is a key a dialog's widget (or the dialog) binds without priority: Textual
        runs such a binding only once the key has gone to the focused widget and, for most, climbed
        back up to the app, a few messages on. If it moves the focus (a target box's down), the keys
        typed after it went to the box it left ("down space" ticked the wrong target): they wait."""
        try:
            screen = self.screen
        except Exception:  # no screen yet
            return False
        if not getattr(screen, "HOLDS_KEYS", False):
            return False
        # the bindings as Textual finds them: the keymap applied, keys a field types left out
        # (Screen._modal_binding_chain: a private Textual hook, checked against 8.2)
        for _node, bindings in screen._modal_binding_chain:
            if any(not b.priority for b in bindings.key_to_bindings.get(event.key, ())):
                return True
        return False

    TAB_ROUNDS = 50  # at most this many rounds of waiting for a dialog's messages before a tab moves

    def _tab_when_settled(self, seq: int, rounds: int = 0, laid_out: bool = False) -> None:
        """Let the held keys go, the pending tab first (release_typeahead), once every widget of the
        dialog has handled the messages it had, round after round (a message handled may post
        another: a choice's Changed climbs to the dialog a widget at a time), and the dialog has
        been laid out since (the focus order is by place on screen, and a row just shown has none
        before). The one-second limit on held keys lets them go, the tab first, whatever happens."""
        pending = self._pending_tab
        if pending is None or pending[2] != seq:
            return  # let go already (the time limit)
        screen = pending[0]
        busy = _busy(screen) if self.screen is screen and screen.is_attached else []
        if not busy and not laid_out and screen.is_attached and rounds < self.TAB_ROUNDS:
            screen.call_after_refresh(self._tab_when_settled, seq, rounds + 1, True)
            return
        if not busy or rounds >= self.TAB_ROUNDS:
            self.call_later(self.release_typeahead)
            return
        left = len(busy)

        def done() -> None:
            nonlocal left
            left -= 1
            if left == 0:
                self._tab_when_settled(seq, rounds + 1)

        for node in busy:
            if not node.call_later(done):
                done()  # a widget being removed: not waited for

    # --- type-ahead out of dialogs ------------------------------------------------------------
    # "m hello enter n": enter reaches the note's field, which tells the dialog, which applies and
    # closes, each a message later; the "n" typed meanwhile would land in the field ("hellon") and
    # the turn would not move on. From enter (or escape) on, keys are held until the dialog has
    # applied, refused or closed (dialog_settled), then go, in order, to what is on screen.

    def _hold_after(self, event: events.Key) -> bool:
        """True when the keys after `event` are held until the dialog has applied or closed."""
        try:
            screen = self.screen
        except Exception:  # no screen yet
            return False
        if not getattr(screen, "HOLDS_KEYS", False):
            return False
        submit = self._keymap.get("dialog_submit", "ctrl+s").split(",")
        cancel = self._keymap.get("dialog_cancel", "escape").split(",")
        if event.key in ("enter", *submit, *cancel):
            self._held_by = screen
            self.expect_dialog()  # the key itself goes on; the ones after it wait
            return True
        return False

    def _step_from_prompt(self, event: events.Key) -> bool:
        """Undo and redo from a prompt the fight raised (an owed save, what an ended concentration
        kept up) close it and step, as on the main screen: the undo of the save that settled it
        brought the prompt back, and it swallowed the next undo (three undos went two steps back).
        A key the prompt's field types or binds is left to it (a GM's keymap may give undo one)."""
        try:
            screen = self.screen
        except Exception:  # no screen yet
            return False
        if not getattr(screen, "RAISED", False):
            return False
        back = event.key in self._keymap.get("undo", "ctrl+z").split(",")
        if not back and event.key not in self._keymap.get("redo", "ctrl+y").split(","):
            return False
        focused = self.focused
        if focused is not None and focused.check_consume_key(event.key, event.character):
            return False
        if any(b.key_to_bindings.get(event.key) for _node, b in screen._modal_binding_chain):
            return False
        screen.dismiss()
        self._step(back)
        return True

    def dialog_settled(self, dialog: Screen) -> None:
        """A dialog has done what enter or escape asked: let the held keys go."""
        if self._held_by is not dialog:
            return
        self._held_by = None
        if self._typeahead is None:
            return
        top = self.screen
        if top is dialog:
            self.call_later(self.release_typeahead)  # refused: the keys carry on in the dialog
        elif not getattr(top, "HOLDS_KEYS", False):
            self.call_after_refresh(self.release_typeahead)  # to the screen below, once it is back
        # else another dialog opened (the table's dice, the outcome): it takes them once it has focus

    # --- sessions -----------------------------------------------------------------------------
    def open_session(self, session: Session, owned: bool = True) -> None:
        """Play another fight (from the start screen)."""
        from tui.main import MainScreen  # the start screen came first: the main screen loads now

        self.session = session
        self.save_failed = ""
        self.file_notices, self.moved_to = [], ""
        self._opened_name = session.path.name if session.path is not None else ""
        if owned:
            self._owned.append(session)
        self.switch_screen(MainScreen())
        self._show_notices(session)
        self._schedule_gc()

    def action_start_screen(self) -> None:
        from tui.start import StartScreen  # a demo opened first: the start screen loads now

        self.switch_screen(StartScreen())

    def release_file(self, path: Path) -> bool:
        """Close what this app has open on `path` (its lock goes with it), so the start screen can
        rename it, move it to the trash or replace a demo copy. True when that was the fight on
        screen: there is none now, until another is opened."""
        target = Path(path).resolve()

        def on(s: Session | None) -> bool:
            return s is not None and s.path is not None and Path(s.path).resolve() == target

        for s in [s for s in self._owned if on(s)]:
            self._owned.remove(s)
            s.close()
        if on(self.session):
            assert self.session is not None
            self.session.close()
            self.session = None
            return True
        return False

    def close_owned(self) -> None:
        while self._owned:
            s = self._owned.pop()
            try:
                s.close()
            except Exception as exc:  # closing must never stop the app from quitting
                log.warning("closing %s failed: %s", getattr(s, "path", "?"), exc)

    async def action_quit(self) -> None:
        self.close_owned()
        self.exit()

    def on_unmount(self) -> None:
        self.close_owned()

    # --- changing the fight -------------------------------------------------------------------
    def commit(
        self,
        commands: Command | Iterable[Command],
        *,
        announce: bool = False,
        first: Sequence[Command] = (),
    ) -> tuple[Event, ...]:
        """Apply commands all or none (Session.apply_all); RuleError propagates for the caller to show.
        `first`: commands of the same batch that go before and are not announced (the settings a
        dialog remembers, placed first so one undo takes back the command itself).

        A failure to save is reported here and also propagates, so a dialog stays open.
        """
        session = self._require_session()
        cmds = [commands] if isinstance(commands, Command) else list(commands)
        try:
            applied = session.apply_all([*first, *cmds])
        except RuleError:
            self._pop_notices()
            self.refresh_fight()
            raise
        except (OSError, _save_error()) as exc:
            self._pop_notices()
            self._save_problem(exc)
            self.refresh_fight(force=True)  # the state is as it was; the header's flag is not
            raise RuleError(f"Not saved: {exc}") from exc
        except Exception as exc:  # a bug, not the GM's doing: say so, keep the app and the file
            log.exception("command failed")
            self._pop_notices()
            self.refresh_fight()
            raise RuleError(f"Internal error ({type(exc).__name__}); nothing was changed: {exc}") from exc
        self.save_failed = ""
        self._pop_notices()  # the file was found replaced or removed: the fight went on in a copy
        self.refresh_fight()
        self._schedule_gc()
        events = [e for one in applied[len(first) :] for e in one]
        if announce and events:
            self.tell(summary(events))
        return tuple(events)

    def try_commit(self, commands: Command | Iterable[Command], *, announce: bool = False) -> bool:
        """commit, with a rule violation shown as a notification (for keys that need no dialog)."""
        try:
            self.commit(commands, announce=announce)
        except RuleError as exc:
            self.notify(clean(str(exc)), severity="warning", markup=False)
            return False
        return True

    def undo(self) -> None:
        self._step(back=True)

    def redo(self) -> None:
        self._step(back=False)

    def _step(self, back: bool) -> None:
        session = self._require_session()
        try:
            node = session.undo() if back else session.redo()
        except RuleError as exc:
            self._pop_notices()
            self.notify(clean(str(exc)), severity="warning", markup=False)
            return
        except (OSError, _save_error()) as exc:
            self._pop_notices()
            self._save_problem(exc)
            self.refresh_fight(force=True)
            return
        except Exception as exc:  # a bug, not the GM's doing
            log.exception("undo/redo failed")
            self._pop_notices()
            self.notify(f"Internal error ({type(exc).__name__}): {clean(str(exc))}", severity="error", markup=False)
            return
        if node is not None:
            self.save_failed = ""  # before the notices: one may say the fight is in memory only
        self._pop_notices()
        self.refresh_fight()
        self._schedule_gc()
        if node is None:
            # one line that replaces the last, not a stack of toasts over the sheet when held down
            self.tell("Nothing to undo." if back else "Nothing to redo.")
            return
        verb = "Undid" if back else "Redid"
        self.tell(f"{verb}: {summary(node.events)}")

    def tell(self, message: str, *, inline: bool = True) -> None:
        """A short message about what just happened; it replaces the previous one, so five quick
        undos leave one line on screen, not a stack covering the tracker. On a narrow screen the main
        screen shows it in the shown pane's title instead (MainScreen.tell_inline): a toast there
        covered the sheet for seconds. `inline` False: always a toast (a refusal, not an event of
        the fight's log)."""
        for n in list(self._notifications):
            if n.title == "" and n.severity == "information":
                self._unnotify(n, refresh=False)
        for screen in self.screen_stack if inline else ():
            show = getattr(screen, "tell_inline", None)
            if show is not None and show(message):
                return
        self.notify(message, markup=False)

    def _save_problem(self, exc: Exception) -> None:
        log.exception("session error")
        self.save_failed = clean(str(exc)) or type(exc).__name__
        self.notify(f"Not saved: {self.save_failed}", severity="error", timeout=10, markup=False)

    def _require_session(self) -> Session:
        if self.session is None:
            raise RuleError("No fight is open.")
        return self.session

    def refresh_fight(self, force: bool = False) -> None:
        """Every screen that shows the fight re-renders from the session's state (each FightView on
        the stack, told directly: the app does not import the screens it refreshes)."""
        for screen in self.screen_stack:
            if isinstance(screen, FightView):
                screen.refresh_fight(force)


def make_app(
    session: Session | None = None, *, start_screen: bool = False, config_path: Path | None = None
) -> FracasApp:
    """The app on `session` (the main screen), or the start screen when there is no session."""
    return FracasApp(session, start_screen=start_screen, config_path=config_path)


def _busy(screen: Screen) -> list[Widget]:
    """The widgets of `screen` (itself too) with messages still to handle."""
    out: list[Widget] = []
    for node in screen.walk_children(with_self=True):
        queue = getattr(node, "_message_queue", None)  # Textual's MessagePump queue
        if isinstance(node, Widget) and queue is not None and not queue.empty():
            out.append(node)
    return out


def _tab(screen: Screen, key: str) -> None:
    if key == "tab":
        screen.focus_next()
    else:
        screen.focus_previous()
