"""The main screen: header, tracker, character sheet, conditions and log.

Below 120 columns the screen stacks the tracker over one detail pane at a time (`v` switches between
sheet, conditions and log); from 120 columns all four panes are on screen. The footer shows only the
keys that apply now (`check_action`), and the palette lists the same actions.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import events, work
from textual.app import ComposeResult
from textual.containers import Container, Horizontal
from textual.geometry import Size
from textual.screen import Screen
from textual.timer import Timer

from engine import RuleError, get_ruleset
from engine import commands as C
from engine.mechanics import KeptUp, kept_up_ended
from engine.ruleset import Ruleset
from engine.state import Combatant, Fight
from saves import default_dir
from saves.errors import SaveError
from tui.actions import ACTIONS, FOOTER_ORDER, bindings
from tui.host import FightAccess
from tui.panes import conditions_text, header_text, log_line, sheet
from tui.rows import GENERIC, Now
from tui.rulesets import get_ui, registered
from tui.text import clean, literal, span, wrap_message
from tui.widgets import KeyBar, Line, Lines, LogView, Pane, Tracker

if TYPE_CHECKING:
    from tui.app import FracasApp
    from tui.views import Styles

NARROW = 120
DETAILS = ("sheet", "conditions", "log")
LOG_EVENTS = 300  # the log pane keeps the last events to scroll back through (the save file keeps all)

# every slice's own actions (a fight of another ruleset has none of them), and the generic ones
OWN = frozenset(a.action for ui in registered() for a in ui.actions)
GENERIC_ACTIONS = frozenset(a.action.partition("(")[0] for a in GENERIC)


LEGENDARY = "Legendary actions"  # engine.library.abilities.LEGENDARY, read without loading the library


def told_lines(message: str, width: int, before: int, lines: int = 3) -> list[str]:
    """A message as a narrow screen shows it: its first line in the rest of a pane's title (the
    border's ends and `before`, the title's own words, taken) and the rest on lines under it, each
    with a space either side."""
    first = max(8, width - 2 - before - 2)
    return wrap_message(message, (first, *([max(8, width - 2)] * (lines - 1))))


class MainScreen(FightAccess, Screen[None]):
    BINDINGS = bindings()
    AUTO_FOCUS = "#tracker"
    # tab moves the focus as the key is read (FracasApp._move_focus_now), so the arrows typed after it
    # (priority bindings of the tracker and the panes) act on the pane it went to
    TAB_AT_ONCE = True
    # The screen's own background is never seen (header, body and footer cover it), yet Textual
    # renders it again, every line, whenever the screen is refreshed as a whole: on every return
    # from a dialog. Blank strips in the screen's style are the same cells, much cheaper.
    BLANK = True

    def __init__(self) -> None:
        super().__init__()
        self.detail = "sheet"
        self._last_state: Fight | None = None
        self._last_cursor = -1
        self._ready = False  # set once the panes exist
        self._resumed = False  # once it has been on screen
        self._title_cache: dict[str, str] = {}
        self._told = ""  # the last thing that happened, in the shown pane's title on a narrow screen
        self._told_timer: Timer | None = None
        self._saved_text = ""
        self._bindings_key: tuple[object, ...] = ()
        self._log_cache: dict[int, tuple[object, list[tuple[object, Text]]]] = {}
        self._sheet_of = ""
        self._owed_prompter: Any | None = None  # the ruleset slice's, made once a roll is owed
        self._legendary_at: tuple[object, ...] = ()  # the turn's end legendary actions were offered at
        # concentration's effects: the newest history node looked at, and what an ended
        # concentration left kept up, to offer for removal once the main screen is on top
        self._kept_seen = -1
        self._kept_of: object = None  # the history those node numbers are of
        self._kept_left: list[KeptUp] = []
        self._odds: Any | None = None  # the odds panel (tui/odds.py) once the GM asks for the odds

    @property
    def selected(self) -> str:
        """The combatant under the tracker's cursor: read at the moment a key acts on it."""
        if not self._ready:
            return ""
        tracker = self.__dict__.get("_tracker_widget")
        if tracker is None:
            # asked for on every binding check: find the widget once, not with a DOM query each time
            tracker = self.__dict__["_tracker_widget"] = self.query_one(Tracker)
        return tracker.selected

    @property
    def fracas(self) -> FracasApp:
        return self.app  # type: ignore[return-value]

    def compose(self) -> ComposeResult:
        self._layout_classes(self.app.size.width, update=False)  # before the first styling
        with Horizontal(id="header"):
            yield Line(id="title")
            yield Line(id="saved")
        with Container(id="body"):
            yield Tracker(id="tracker")
            yield Pane(id="sheet")
            yield LogView(id="log")
            yield Pane(id="conditions")
        yield KeyBar(FOOTER_ORDER)

    def on_mount(self) -> None:
        self._ready = True
        self.query_one("#tracker").border_title = "Tracker"
        self._titles()
        self.refresh_fight()
        self.app.theme_changed_signal.subscribe(self, self._theme_changed)

    def _theme_changed(self, _theme: object) -> None:
        self._log_cache.clear()  # the cached lines carry the old theme's colours
        self.query_one(LogView).clear_cache()
        self.refresh_fight(force=True)

    # --- layout -------------------------------------------------------------------------------
    def _screen_resized(self, size: Size) -> None:
        """Textual lays out every screen below a newly opened one (each dialog's first Resize), even
        at the size it already has; here that only dirties the tracker's scrollbar, drawn again on
        the way back from the dialog. Below a dialog at the same size there is nothing to lay out.
        (A private Textual hook, checked against 8.2: see it again when Textual is upgraded.)"""
        if self.is_current or self._size != size:
            super()._screen_resized(size)

    def on_resize(self, event: events.Resize) -> None:
        self._apply_layout(event.size.width)
        if self._ready and self.fracas.session is not None:
            # the header shortens the fight's name to its new width, once that width is laid out
            self.call_after_refresh(lambda: self._render_header(self.fight, self.rules))
        if self._told:
            self.call_after_refresh(self._titles)  # the message laid out again at the new width

    def _layout_classes(self, width: int, update: bool = True) -> bool:
        """Set the classes the layout hangs on; False when they were already so. Changing a class
        restyles the whole screen, so nothing is touched when nothing changes."""
        narrow = width < NARROW
        wanted = {"-narrow": narrow, **{f"-show-{n}": narrow and self.detail == n for n in DETAILS}}
        if all(self.has_class(name) == on for name, on in wanted.items()):
            return False
        for name, on in wanted.items():
            self.set_class(on, name, update=update)
        return True

    def _apply_layout(self, width: int) -> None:
        if self._layout_classes(width):
            self._titles()
            self.refresh_bindings()

    def _titles(self) -> None:
        """Pane titles (Text, never markup: the sheet's title holds the combatant's name)."""
        narrow = self.has_class("-narrow")
        c = self._selected() if self._ready and self.fracas.session is not None else None
        n = len(c.conditions) if c else 0
        titles = {
            # the sheet's first line names the combatant: a title that changed with the selection
            # would repaint the whole pane
            "sheet": Text("Sheet"),
            "conditions": Text("Conditions" + (f" ({n})" if n else "")),
            "log": Text("Log"),
        }
        for name in DETAILS:
            title = titles[name]
            widget = self.query_one(f"#{name}", Lines)
            banner: list[Text] = []
            if narrow and self._told and name == self.detail:
                # the message has the room while it shows (a hit or miss and its damage at 80x24),
                # and what the title cannot hold goes on under it; the footer still says v switches
                width = widget.size.width or self.app.size.width
                first, *rest = told_lines(self._told, width, title.cell_len + 2, self.TOLD_LINES)
                title = title + Text("  ") + span(f" {first} ", "reverse")
                banner = [span(f" {line} ", "reverse") for line in rest]
            elif narrow:
                others = " · ".join(n.capitalize() for n in DETAILS if n != name)
                title = title + span(f"   v: {others}", "dim")
            widget.set_banner(banner)
            if self._title_cache.get(name) != title.plain:
                self._title_cache[name] = title.plain
                widget.border_title = title

    TOLD_SECONDS = 8.0  # how long the last message stays in the pane's title
    TOLD_LINES = 3  # the title and two lines under it: an attack, its defence and the damage at 80x24

    def tell_inline(self, message: str) -> bool:
        """On a narrow screen, show `message` in the shown pane's title (True); a wide screen has
        the log in view and takes a toast (False)."""
        if not self.has_class("-narrow"):
            return False
        self._told = clean(message)
        if self._told_timer is not None:
            self._told_timer.stop()
        self._told_timer = self.set_timer(self.TOLD_SECONDS, self._untell)
        self._titles()
        return True

    def _untell(self) -> None:
        self._told = ""
        self._told_timer = None
        self._titles()

    def action_pane(self) -> None:
        self.detail = DETAILS[(DETAILS.index(self.detail) + 1) % len(DETAILS)]
        self._apply_layout(self.app.size.width)  # a pane shown again lays out what came in meanwhile

    # --- rendering ----------------------------------------------------------------------------
    def refresh_fight(self, force: bool = False) -> None:
        session = self.fracas.session
        if session is None or not self._ready:
            return
        f = session.state
        rs = get_ruleset(f.ruleset)
        # an entered roll leaves the state as it was (the random state does not move): the new
        # history node still has a log line to show
        cursor = session.history.cursor
        if f is self._last_state and cursor == self._last_cursor and not force:
            return
        self._last_cursor = cursor
        moved = self._last_state is None or f.current != self._last_state.current
        self._last_state = f
        want = self.selected
        if moved and f.current:
            want = f.current  # follow the turn: the GM usually wants the acting sheet
        self.query_one(Tracker).show(f, rs, want)
        self._render_header(f, rs)
        self._render_selected()
        self._render_log()
        self._refresh_bindings()
        self.call_after_refresh(self._check_owed)
        self._find_kept(session)
        if self._odds is not None:
            self._odds.fight_changed(f)  # runs from the fight as it was stop

    def _refresh_bindings(self) -> None:
        """Footer and palette follow what applies now; Textual rebuilds the footer on every refresh,
        so ask only when the answer changed."""
        key = tuple(self.check_action(a.action, ()) for a in ACTIONS if not a.action.startswith("app."))
        if key != self._bindings_key:
            self._bindings_key = key
            self.refresh_bindings()

    def _render_header(self, f: Fight, rs: Ruleset) -> None:
        session = self.fracas.session
        if self.fracas.save_failed:
            text, cls = "NOT SAVED", "-bad"
        elif session is not None and session.readonly:
            text, cls = "read-only", "-warn"
        elif session is None or session.path is None:
            text, cls = "memory only", "-warn"
        else:
            text, cls = "● saved", "-good"
        if text != self._saved_text:
            self._saved_text = text
            saved = self.query_one("#saved", Line)
            saved.show(Text(text))
            saved.set_classes(cls)
        st = self.query_one(Tracker).role_styles()
        title = self.query_one("#title", Line)
        room = max(20, (title.size.width or self.app.size.width - 16) - 1)
        moved = self.fracas.moved_to
        if moved:
            # the save file was replaced or removed: the header names the file the fight went on in
            where = span(f"  now saved in {clean(moved)}", st["warn"])
            shown = header_text(f, rs, st, max(12, room - where.cell_len)) + where
            shown.truncate(room, overflow="ellipsis")
            title.show(shown)
        else:
            title.show(header_text(f, rs, st, room))

    def _render_selected(self) -> None:
        f = self.fight
        rs = get_ruleset(f.ruleset)
        c = f.find(self.selected) if self.selected else None
        pane = self.query_one("#sheet", Pane)
        st = self.query_one(Tracker).role_styles()
        keep = c is not None and c.id == self._sheet_of  # another combatant's sheet starts at its top
        self._sheet_of = c.id if c else ""
        pane.update(lambda width: sheet(f, rs, c, st, width), keep)
        conds = self.query_one("#conditions", Pane)
        cst = st
        conds.update(lambda width: conditions_text(f, rs, c, cst), keep)
        self._titles()

    def _render_log(self) -> None:
        session = self.fracas.session
        assert session is not None
        logv = self.query_one(LogView)
        st = self.query_one(Tracker).role_styles()
        h = session.history
        cache = self._log_cache
        chunks: list[tuple[int, list[tuple[object, Text]]]] = []
        count = 0
        # newest first, until the pane has enough to scroll back through (the file keeps it all)
        i = h.cursor
        while i >= 0 and count < LOG_EVENTS:
            node = h.nodes[i]
            hit = cache.get(i)
            if hit is None or hit[0] is not node.events:
                # events never change once recorded: each node's lines are built once
                hit = (node.events, [((i, k), log_line(e, st)) for k, e in enumerate(node.events)])
                cache[i] = hit
            chunks.append((i, hit[1]))
            count += len(hit[1])
            i = node.parent
        entries: list[tuple[object, Text]] = []
        notes = self._notice_lines(st)
        for at, chunk in reversed(chunks):
            entries.extend(chunk)
            if notes:
                entries.extend(notes.pop(at, ()))  # what the session said about its file, then
        for rest in notes.values():  # after a command no longer on screen (undone, or older)
            entries.extend(rest)
        logv.show(entries)

    def _notice_lines(self, st: Styles) -> dict[int, list[tuple[object, Text]]]:
        out: dict[int, list[tuple[object, Text]]] = {}
        for k, (node, notice) in enumerate(self.fracas.file_notices):
            line = literal(f"Save file: {notice}", st["bad"])
            line.no_wrap = False
            out.setdefault(node, []).append((("notice", k), line))
        return out

    def select(self, cid: str) -> None:
        """Select a combatant (the palette's jump-to-name)."""
        if self.fight.find(cid) is None:
            return
        self.query_one(Tracker).select(cid)
        self._render_selected()
        self._refresh_bindings()

    def on_tracker_selected(self, message: Tracker.Selected) -> None:
        self._render_selected()
        self._refresh_bindings()

    # --- what applies now ---------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Whether a main-screen action applies now: a lookup in its row (tui/rows.py)."""
        session = self.fracas.session
        if session is None:
            return False
        f = session.state
        ui = get_ui(f.ruleset)
        row = ui.row(action)
        if row is None:
            # another ruleset's own action or an optional one this ruleset lacks; else not a row's
            return not (action in OWN or action in GENERIC_ACTIONS)
        if row.changes and session.readonly:
            return False
        c = f.find(self.selected) if self.selected else None
        if row.selection and c is None:
            return False
        return ui.check(action, Now(f, c, lambda: ui.offered(f), self.has_class("-narrow")))

    def on_key(self, event: events.Key) -> None:
        """A key whose action does not apply now reaches here unused: say why in one line, rather
        than nothing happening (a read-only fight, or the engine's reason: "nobody's turn has begun")."""
        session = self.fracas.session
        if session is None:
            return
        found = self._keys().get(event.key)
        if found is None:
            return
        action, title = found
        if session.readonly:
            row = self.ui.row(action)
            if row is not None and row.changes:
                event.stop()
                self.fracas.tell(
                    f"This fight is open read-only: {title} is not possible (nothing can be changed).", inline=False
                )
            return
        if self.check_action(action, ()) is not False:
            return
        f = session.state
        row = self.ui.row(action)
        if row is None:
            return
        key = row.offer_key
        why = next((a.reason for a in self.rules.actions(f) if a.key == key and not a.available), "") if key else ""
        why = why or row.why  # the app's own action: the engine has no reason for it
        if why:
            event.stop()
            self.fracas.tell(why)  # in the shown pane's title on a small screen: no toast over the sheet

    def _keys(self) -> dict[str, tuple[str, str]]:
        """Key -> (action, title in lower case) of the main-screen action it runs."""
        from textual.keys import _normalize_key_list

        keymap = self.app._keymap
        cached = self.__dict__.get("_keys_cache")
        if cached is not None and cached[0] == keymap:
            return cached[1]  # type: ignore[no-any-return]
        out: dict[str, tuple[str, str]] = {}
        for a in ACTIONS:
            keys = keymap.get(a.id, a.keys)
            if keys is None or a.action.startswith("app."):
                continue
            for key in _normalize_key_list(keys).split(","):
                out.setdefault(key, (a.action, a.title.lower()))
        self.__dict__["_keys_cache"] = (dict(keymap), out)
        return out

    # --- actions ------------------------------------------------------------------------------
    def _selected(self) -> Combatant | None:
        return self.fight.find(self.selected) if self.selected else None

    def open_row(self, action: str) -> None:
        """Open what the row of `action` opens (its dialog, or the slice's in its place): on the
        selected combatant when it takes one; a ruleset's own action falls back on the acting one."""
        ui = self.ui
        row = ui.row(action)
        opener = ui.dialog(action)
        if row is None or opener is None:
            return
        own = row not in GENERIC
        who = self.selected if row.selection or not own else self.selected or self.fight.current
        if not isinstance(opener, type):
            shown = opener(self, who)  # a function: it does the action itself
            if shown is not None:
                self.fracas.expect_dialog()
                self.app.push_screen(shown)
            return
        if own:
            if self.fight.find(who) is None:
                return
            kwargs: dict[str, object] = {"who": who}
        else:
            kwargs = {"who": who} if row.selection or row.who else {}
        self.fracas.expect_dialog()
        self.app.push_screen(opener(**kwargs, **dict(row.args)))

    def send(self, cmd: C.Command) -> None:
        """Send a turn-moving command (asking first for the dice the table rolls)."""
        from tui.dialogs import send  # the dialogs load on first use, not at start-up

        send(self.fracas, cmd)

    def action_next(self) -> None:
        if not self.fight.started:
            self.action_start()
            return
        if self._offer_legendary():
            return  # the dialog ends the turn once a legendary action is taken or skipped
        self.send(C.NextTurn())  # asks for start-of-turn dice the table rolls

    def _offer_legendary(self) -> bool:
        """At the end of a turn, once: a legendary creature with actions left may take one."""
        f = self.fight
        at = (f.round, f.phase, f.current, id(self.fracas.session))
        if f.ended or self._legendary_at == at or self.fracas.session is None or self.fracas.session.readonly:
            return False
        if not any(
            p.key == LEGENDARY and p.current > 0 and c.id != f.current for c in f.combatants for p in c.resources
        ):
            return False  # no pool left anywhere: nothing is loaded, nothing asked
        from tui.legendary import LegendaryDialog, choices  # the library: loaded when one may act

        self._legendary_at = at
        found = choices(f)
        if not found:
            return False
        self.fracas.expect_dialog()
        self.app.push_screen(LegendaryDialog(found, lambda: self.send(C.NextTurn())))
        return True

    def action_attack(self) -> None:
        from tui.attack import attacker_of  # the attack dialogs' module: loaded on the first attack

        who = attacker_of(self.fight, self.selected)
        cls = self.ui.dialog("attack")
        if who and cls is not None:
            self.fracas.expect_dialog()
            self.app.push_screen(cls(who, self.selected))  # selected: the target

    def settle_owed(self) -> None:
        """Ask for an owed roll now, even one escaped before (the palette's "Settle an owed roll")."""
        self._check_owed(force=True)

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        if not self._resumed:
            # Textual restyles a screen as a whole each time it is resumed; the first time, every
            # widget was styled as it mounted and each class set since restyled what it touched, so
            # that pass (a tenth of the start-up's first paint) redoes what is done. This handler
            # runs before Screen's own (Textual calls the subclass's first).
            self._resumed = True
            event.refresh_styles = False
        self.call_after_refresh(self._check_owed)  # a roll owed while a dialog was up
        self.call_after_refresh(self._offer_kept)  # a concentration that ended meanwhile

    def _check_owed(self, force: bool = False) -> None:
        """Prompt for a save the rules made due (concentration, Confused); the module is loaded
        only once one is owed, so start-up does not pay for the dialogs."""
        session = self.fracas.session
        if session is None or session.readonly or not self.is_attached:
            return
        if not force and self._owed_prompter is None and not self.ui.owes(self.fight):
            return
        if self._owed_prompter is None:
            self._owed_prompter = self.ui.owed_prompter()  # loads the dialogs only once one is owed
            if self._owed_prompter is None:
                return  # this ruleset makes no roll due
        self._owed_prompter.check(self, force)

    def _find_kept(self, session: Any) -> None:
        """Look at the commands applied since the last look (new history nodes only: an undo, a redo
        or a fight just opened offers nothing) for a concentration that ended."""
        h = session.history
        newest = len(h.nodes) - 1
        if self._kept_seen < 0 or self._kept_of is not h:
            self._kept_of = h  # another fight in this screen starts afresh
            self._kept_seen = newest  # what was there when the fight opened is not news
            return
        if newest <= self._kept_seen:
            return
        found: list[KeptUp] = []
        for i in range(self._kept_seen + 1, newest + 1):
            node = h.nodes[i]
            if node.parent >= 0 and node.events:
                found.extend(kept_up_ended(h.nodes[node.parent].state, node.state, node.events))
        self._kept_seen = newest
        if found:
            self._kept_left = list(dict.fromkeys(self._kept_left + found))
            self.call_after_refresh(self._offer_kept)

    def _offer_kept(self) -> None:
        """Offer to end what an ended concentration kept up, once no dialog is in the way (an owed
        save's dialog comes first: it may end another concentration)."""
        session = self.fracas.session
        if not self._kept_left or session is None or session.readonly or not self.is_attached:
            return
        if self.app.screen is not self:
            return  # asked again when the main screen is back on top
        from tui.effects import KeptEndedDialog, still_there  # the dialogs load on first use

        left, self._kept_left = still_there(self.fight, self._kept_left), []
        if left:
            self.fracas.expect_dialog()
            self.app.push_screen(KeptEndedDialog(left))

    def action_undo(self) -> None:
        self.fracas.undo()

    def action_redo(self) -> None:
        self.fracas.redo()

    def action_start(self) -> None:
        self.open_row("start")  # also next's, before the fight has begun

    def action_hide(self) -> None:
        """Hide the selected combatant from the players' view, or reveal it (an undoable edit)."""
        from tui.view_dialogs import hide_command  # the dialogs load on first use

        c = self._selected()
        if c is not None:
            self.fracas.try_commit(hide_command(c), announce=True)

    def action_remove(self) -> None:
        c = self._selected()
        if c is not None:
            self.fracas.try_commit(C.RemoveCombatant(c.id), announce=True)

    def action_end_fight(self) -> None:
        if self.fracas.try_commit(C.EndFight(), announce=True) and self._party_changed():
            self.action_party_back()  # what changed for each roster PC, to write back

    def _party_changed(self) -> bool:
        from saves import library as S  # the library and the roster: read when a fight ends

        f = self.fight
        try:
            # a roster PC changed, or a PC of this fight could join the roster
            session = self.fracas.session
            return S.worth_asking(f.ruleset, f, start=S.joined(session.history) if session is not None else None)
        except (RuleError, SaveError, OSError):
            return False  # a roster that cannot be read: the party dialog says why when asked

    def action_export(self, kind: str) -> None:
        self._export(kind)

    @work(thread=True, exclusive=True, group="export")
    def _export(self, kind: str) -> None:
        """Write an export next to the save file (or in the saves folder): a long fight's history
        takes a moment to render, so it is done off the screen's thread."""
        from saves.export import export_json, export_markdown  # the exporters load on the first export

        session = self.fracas.session
        if session is None:
            return
        try:
            folder = session.path.parent if session.path is not None else default_dir()
            stem = session.path.stem if session.path is not None else "fight"
            suffix = ".md" if kind == "md" else ".json"
            target = folder / f"{stem}-export{suffix}"
            n = 1
            while target.exists():
                n += 1
                target = folder / f"{stem}-export-{n}{suffix}"
            data = export_markdown(session).encode() if kind == "md" else export_json(session)
            tmp = target.with_name(target.name + ".tmp")
            tmp.write_bytes(data)
            tmp.replace(target)
        except Exception as exc:  # a full disk or a bad folder: one line, the fight untouched
            self.app.call_from_thread(
                self.app.notify, f"Export failed: {clean(str(exc))}", severity="error", markup=False
            )
            return
        self.app.call_from_thread(self.app.notify, f"Exported to {clean(str(target))}", markup=False)

    def action_odds(self) -> None:
        """Open the odds panel and start the runs; `O` again closes it, or, when the fight changed
        since, works the odds out again from here."""
        from tui.odds import OddsPanel  # the simulation and its panel load when first asked for

        panel = self._odds
        if panel is not None and panel.fight is self.fight and panel.is_mounted:
            panel.stop()
            panel.remove()
            self._odds = None
            return
        if panel is None or not panel.is_mounted:
            panel = self._odds = OddsPanel()
            self.mount(panel, before=self.query_one(KeyBar))
            # the runs start once the panel is on screen, from the fight as it is then
            self.call_after_refresh(lambda: panel.run(self.fight))
            return
        panel.run(self.fight)

    def action_help(self) -> None:
        from tui.help import HelpScreen  # loaded when help first opens

        self.app.push_screen(HelpScreen())


def _open_row(action: str) -> Callable[[MainScreen], None]:
    def run(self: MainScreen) -> None:
        self.open_row(action)

    run.__name__ = f"action_{action}"
    return run


# every row that opens a dialog (its own or a slice's) and has no method of its own: Textual finds
# it as action_<name>
for _row in (*GENERIC, *(a for ui in registered() for a in ui.actions)):
    _name = _row.action.partition("(")[0]
    if (_row.dialog or _row.action in OWN) and not hasattr(MainScreen, f"action_{_name}"):
        setattr(MainScreen, f"action_{_name}", _open_row(_name))
