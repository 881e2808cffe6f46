"""The start screen: saved fights (newest first), a new fight, and the four demo fights.

Listing the saves folder and opening or creating a file run in worker threads: a folder of big saves
never freezes the screen. A fight locked by another running Fracas, or one that cannot be written,
opens read-only, with a notice. The list's fights can be renamed (`r`) and moved to the trash
(`delete`, after a confirmation); the demo copies, one per ruleset, are listed apart below them.
"""

from __future__ import annotations

import datetime as dt
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Checkbox, Input, LoadingIndicator, OptionList, Static
from textual.widgets.option_list import Option

from engine import REGISTRY, RuleError, get_ruleset, new_fight
from engine.core import clean_name
from engine.ruleset import Ruleset
from saves import default_dir
from saves.demo import NAMES, demo_path, has_demo, start_demo
from saves.errors import LockedError, SaveError
from saves.session import Session
from saves.store import TRASH_DIR, list_demos, list_saves, name_taken, rename, trash
from tui.dialogs import Dialog, FormError, field, row
from tui.rulesets import DEFAULT, get_ui
from tui.rulesets import REGISTRY as UI_REGISTRY
from tui.text import clean, literal, span
from tui.widgets import KeyBar

if TYPE_CHECKING:
    from collections.abc import Callable

    from saves.session import Session
    from saves.store import SaveInfo
    from tui.app import FracasApp

SUFFIX = ".fracas"


def fresh_path(folder: Path, stem: str) -> Path:
    """A file name in `folder` that does not exist yet, readable and safe on every filesystem."""
    folder.mkdir(parents=True, exist_ok=True)
    stamp = dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    safe = "".join(ch if ch.isascii() and (ch.isalnum() or ch in "-_") else "-" for ch in stem)[:40]
    safe = safe.strip("-") or "fight"
    for i in range(1000):
        path = folder / f"{safe}-{stamp}{'-' + str(i) if i else ''}{SUFFIX}"
        if not path.exists():
            return path
    raise RuleError(f"No free file name in {folder}.")


def save_label(info: SaveInfo) -> Text:
    """One line per saved fight: its name (literal), ruleset, round and when it was last played."""
    t = literal(info.name or info.path.stem, "bold")
    if info.error:
        t.append("  cannot be opened: ", style="dim")
        t.append_text(literal(info.error, "dim"))
        return t
    title = REGISTRY[info.ruleset].title if info.ruleset in REGISTRY else clean(info.ruleset)
    t.append(f"  {title}", style="dim")
    if not info.known:
        # the list reads only the header: a file whose list facts are missing (copied, written by
        # an older Fracas) shows its round once opened
        t.append(" · round ?", style="dim")
    elif info.ended:
        t.append(f" · over in round {info.round}", style="dim")
    elif info.started:
        t.append(f" · round {info.round}", style="dim")
    else:
        t.append(" · not started", style="dim")
    if info.played > 0:
        t.append(" · " + dt.datetime.fromtimestamp(info.played).strftime("%Y-%m-%d %H:%M"), style="dim")
    if info.demo == "older":
        t.append(" · older copy", style="dim")  # left by an earlier version; trashed when that demo starts
    return t


class RenameSaveDialog(Dialog):
    """A saved fight's new name; a name another saved fight has is refused here, before any file is
    touched (the rename itself runs in a worker once the dialog closes)."""

    OK = "Rename"
    HINT = "enter: rename · esc: cancel"
    ANNOUNCE = False
    AUTO_FOCUS = "#new-name"

    def __init__(self, info: SaveInfo, done: Callable[[SaveInfo, str], None]) -> None:
        super().__init__()
        self.info = info
        self.done = done

    def heading(self) -> Text:
        t = Text("Rename ")
        t.append_text(literal(self.info.name or self.info.path.stem))
        t.append(f"  ({self.info.path.name})", style="dim")
        return t

    def fields(self) -> ComposeResult:
        yield row("New name", field(self.info.name, id="new-name"))

    def action_submit(self) -> None:
        try:
            name = clean_name(self.value("new-name"), "fight's name")
            other = name_taken(name, self.info.path)
            if other is not None:
                raise FormError(f"'{name}' is already the name of {other.path.name}; choose another name.")
        except (FormError, RuleError) as exc:
            self.show_error(str(exc))
            return
        self.dismiss()
        self.done(self.info, name)


class TrashSaveDialog(Dialog):
    """Are you sure: the fight goes to the trash folder (with its backups), from where it can be put
    back; nothing is erased."""

    OK = "Move to the trash"
    HINT = "enter: move it to the trash · esc: keep it"
    ANNOUNCE = False
    AUTO_FOCUS = "#ok"

    def __init__(self, info: SaveInfo, trash_dir: Path, is_open: bool, done: Callable[[SaveInfo], None]) -> None:
        super().__init__()
        self.info = info
        self.trash_dir = trash_dir
        self.is_open = is_open
        self.done = done

    def heading(self) -> Text:
        t = Text("Move ")
        t.append_text(literal(self.info.name or self.info.path.stem))
        t.append(" to the trash?")
        return t

    def fields(self) -> ComposeResult:
        t = span(f"{self.info.path.name} and its backups go to ", "dim")
        t.append_text(literal(str(self.trash_dir), "dim"))
        t.append(f"; `fracas restore {self.info.path.name}` puts it back.", style="dim")
        if self.is_open:
            t.append("\nIt is the fight open in this window: it will be closed.", style="bold")
        yield Static(t, classes="wide-label")

    def action_submit(self) -> None:
        self.dismiss()
        self.done(self.info)


class StartScreen(Screen[None]):
    DEFAULT_CSS = """
    StartScreen { align: center top; }
    StartScreen > VerticalScroll { width: 100; max-width: 100%; height: 1fr; padding: 0 1; }
    StartScreen .title { text-style: bold; color: $accent; }
    StartScreen .section { text-style: bold; margin-top: 1; color: $text-muted; }
    StartScreen OptionList {
        height: auto; max-height: 7; border: none; padding: 0; background: $boost;
        text-wrap: nowrap; text-overflow: ellipsis;
    }
    StartScreen OptionList:focus { border: none; background-tint: $primary 15%; }
    StartScreen #new-row { height: auto; }
    StartScreen #rules { width: 22; }
    StartScreen #new-fields { height: auto; width: 1fr; padding-left: 2; }
    StartScreen #new-fields Input { width: 1fr; }
    StartScreen #new-fields Button { margin-top: 1; }
    StartScreen LoadingIndicator { height: 1; }
    StartScreen .hint { color: $text-muted; }
    """
    BINDINGS = [
        Binding("ctrl+r", "reload", "Reload list", id="start_reload"),
        Binding("escape", "back", "Back to the fight", id="start_back"),
        Binding("r", "rename", "Rename", id="start_rename"),
        Binding("delete", "delete", "To the trash", id="start_delete"),
    ]
    AUTO_FOCUS = "#saves"

    def __init__(self) -> None:
        super().__init__()
        self._infos: list[SaveInfo] = []

    @property
    def fracas(self) -> FracasApp:
        return self.app  # type: ignore[return-value]

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(Text("Fracas · saved fights, newest first (enter opens one)"), classes="title")
            yield LoadingIndicator(id="loading")
            yield OptionList(id="saves")
            yield Static(Text("A new fight: pick the ruleset, name it, press enter"), classes="section")
            with Horizontal(id="new-row"):
                yield OptionList(*[Option(rs.title, id=rid) for rid, rs in self._playable()], id="rules")
                with Vertical(id="new-fields"):
                    yield Input(placeholder="Name of the fight", id="fight-name", compact=True)
                    # the roster's PCs join a new fight at once (a fight of the party and a few
                    # foes in a handful of keys); shown only when there is a roster
                    yield Checkbox("Add the party", True, id="with-party", compact=True)
                    yield Button("Create", id="create", variant="primary", compact=True)
            yield Static(Text("Demo fights (a fresh copy, replacing the last one)"), classes="section")

            demos = [
                Option(Text(f"{rs.title}: ") + Text(self._demo_name(rid), style="dim"), id=rid)
                for rid, rs in self._playable()
                if has_demo(rid)  # a ruleset registered from elsewhere may bring no demo
            ]
            yield OptionList(*demos, id="demos")
            yield Static(
                Text("tab: next list · r: rename · delete: to the trash · ctrl+q: quit"),
                classes="hint",
            )
        yield KeyBar()

    @staticmethod
    def _playable() -> list[tuple[str, Ruleset]]:
        """The rulesets both the engine and the app know (an engine ruleset with no app slice cannot
        be shown)."""
        return [(rid, rs) for rid, rs in REGISTRY.items() if rid in UI_REGISTRY]

    @staticmethod
    def _demo_name(rid: str) -> str:
        return NAMES.get(rid, "demo")

    def on_mount(self) -> None:
        self._party: tuple[Any, ...] = ()
        self._show_party(DEFAULT)
        self.query_one("#rules", OptionList).highlighted = 0
        self.query_one("#demos", OptionList).highlighted = 0
        self.action_reload()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "back":
            return self.fracas.session is not None
        if action in ("rename", "delete"):
            return self._chosen() is not None
        return True

    def _chosen(self) -> SaveInfo | None:
        """The saved fight (or demo copy) highlighted in the list, when the list has the focus."""
        ol = self.query_one("#saves", OptionList)
        if self.focused is not ol:
            return None
        opt = ol.highlighted_option
        if opt is None or opt.id is None or not opt.id.isdigit():
            return None
        return self._infos[int(opt.id)]

    def action_back(self) -> None:
        from tui.main import MainScreen  # the main screen loads when a fight opens

        if self.fracas.session is not None:
            self.app.switch_screen(MainScreen())

    # --- the list of saves --------------------------------------------------------------------
    def action_reload(self) -> None:
        self.query_one("#loading").display = True
        self._list_saves()

    @work(thread=True, exclusive=True, group="list")
    def _list_saves(self) -> None:
        try:
            folder = default_dir()
            # the GM's fights newest first, then the demo copies apart from them
            infos = list_saves(folder) + list_demos(folder)
            problem = ""
        except Exception as exc:  # a bad folder is a message, not a crash
            infos, problem = [], f"Cannot list the saved fights: {exc}"
        self.app.call_from_thread(self._show_saves, infos, problem)

    def _show_saves(self, infos: list[SaveInfo], problem: str) -> None:
        self.query_one("#loading").display = False
        ol = self.query_one("#saves", OptionList)
        ol.clear_options()
        self._infos = infos
        if (problem or not infos) and (self.focused is None or self.focused is ol):
            # nothing to open: the arrows go to the next list on screen, a new fight's rulesets, at
            # once (on the empty list they did nothing until a tab)
            self.query_one("#rules", OptionList).focus()
        elif self.focused is None:
            ol.focus()
        if problem:
            ol.add_option(Option(literal(problem), id="none", disabled=True))
        elif not infos:
            ol.add_option(
                Option(span("No saved fights yet: start a new one or a demo below.", "dim"), id="none", disabled=True)
            )
        else:
            options: list[Option] = []
            real = [i for i, info in enumerate(infos) if not info.demo]
            if not real:
                none = span("No saved fights yet: start a new one or a demo below.", "dim")
                options.append(Option(none, disabled=True))
            for i in real:
                options.append(Option(save_label(infos[i]), id=str(i), disabled=bool(infos[i].error)))
            copies = [i for i, info in enumerate(infos) if info.demo]
            if copies:
                heading = span("Demo copies (one per ruleset, replaced when it starts again; r keeps one)", "dim")
                options.append(Option(heading, disabled=True))
            for i in copies:
                options.append(Option(Text("  ") + save_label(infos[i]), id=str(i), disabled=bool(infos[i].error)))
            ol.add_options(options)
            first = next((k for k, o in enumerate(options) if not o.disabled), None)
            if first is not None:
                ol.highlighted = first
        self.refresh_bindings()

    # --- choosing -----------------------------------------------------------------------------
    @on(OptionList.OptionSelected, "#saves")
    def _open_save(self, event: OptionList.OptionSelected) -> None:
        if event.option.id is None or not event.option.id.isdigit():
            return
        info = self._infos[int(event.option.id)]
        path = Path(info.path)
        current = self.fracas.session
        if current is not None and current.path is not None and Path(current.path) == path:
            self.fracas.open_session(current, owned=False)
            return
        self._busy(True)
        self._open(path)

    @work(thread=True, exclusive=True, group="open")
    def _open(self, path: Path) -> None:
        note = ""
        try:
            # locked by another Fracas, no write permission, a read-only disk: read-only, and the
            # session's notice says why (shown by open_session)
            session = Session.open_or_readonly(path)
        except SaveError as exc:
            self.app.call_from_thread(self._failed, str(exc))
            return
        except Exception as exc:
            self.app.call_from_thread(self._failed, f"{path}: {exc}")
            return
        try:
            get_ui(session.state.ruleset)  # a ruleset the app cannot show: one line, the file untouched
        except RuleError as exc:
            session.close()
            self.app.call_from_thread(self._failed, f"{path}: {exc}")
            return
        self.app.call_from_thread(self._opened, session, note)

    @on(OptionList.OptionSelected, "#rules")
    def _rules_chosen(self) -> None:
        self.query_one("#fight-name", Input).focus()

    @on(OptionList.OptionHighlighted, "#rules")
    def _rules_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self._show_party(event.option.id or DEFAULT)

    def _show_party(self, rid: str) -> None:
        """The tick names the roster's PCs of the ruleset picked; no roster (or one that cannot be
        read: the party dialog says why, in the fight), no tick."""
        from saves import library as S  # the library and roster: a tenth of a second, when asked

        try:
            members = S.read_party(rid)
        except (RuleError, SaveError, OSError):
            members = ()
        tick = self.query_one("#with-party", Checkbox)
        tick.display = bool(members)
        names = ", ".join(m.name for m in members[:4]) + (", ..." if len(members) > 4 else "")
        tick.label = Text(f"Add the party ({names})")
        self._party = members

    @on(Input.Submitted, "#fight-name")
    @on(Button.Pressed, "#create")
    def _create_new(self) -> None:
        ol = self.query_one("#rules", OptionList)
        opt = ol.highlighted_option
        rid = opt.id if opt is not None and opt.id else DEFAULT
        name = self.query_one("#fight-name", Input).value.strip() or f"New {get_ruleset(rid).title} fight"
        tick = self.query_one("#with-party", Checkbox)
        party = list(self._party) if tick.display and tick.value else []
        self._busy(True)
        self._create(rid, name, demo=False, party=party)

    @on(OptionList.OptionSelected, "#demos")
    def _demo_chosen(self, event: OptionList.OptionSelected) -> None:
        if event.option.id:
            try:
                # the copy is replaced: this app first lets go of it if it has it open
                self.fracas.release_file(demo_path(event.option.id))
            except SaveError:
                pass  # no data folder: the worker says so in one line
            self._busy(True)
            self._create(event.option.id, "", demo=True)

    @work(thread=True, exclusive=True, group="open")
    def _create(self, rid: str, name: str, demo: bool, party: list[Any] | None = None) -> None:
        notes: list[str] = []
        try:
            seed = int.from_bytes(os.urandom(4)) >> 1
            if demo:
                # the ruleset's one demo copy, replaced; older piles of copies go to the trash
                session, notes = start_demo(rid, seed)
            else:
                fight = new_fight(rid, name, seed)
                session = Session.create(fresh_path(default_dir(), name), fight)
        except Exception as exc:  # SaveError, RuleError (a bad name), OSError: all one line
            self.app.call_from_thread(self._failed, str(exc))
            return
        if party:
            from tui.party import party_commands  # only when a party joins

            try:
                for cmd in party_commands(session.state, party):
                    session.apply(cmd)
                notes.append(f"The party joined: {', '.join(m.name for m in party)}.")
            except Exception as exc:  # the fight is made and saved; the party can still be added (A)
                notes.append(f"The party could not be added ({clean(str(exc))}); A adds it.")
        self.app.call_from_thread(self._opened, session, " ".join(notes))

    def _opened(self, session: Session, note: str) -> None:
        self._busy(False)
        self.fracas.open_session(session, owned=True)
        if note:
            self.app.notify(clean(note), severity="information", markup=False)

    # --- rename and delete ----------------------------------------------------------------------
    def action_rename(self) -> None:
        info = self._chosen()
        if info is not None:
            self.app.push_screen(RenameSaveDialog(info, self._rename_chosen))

    def action_delete(self) -> None:
        info = self._chosen()
        if info is None:
            return
        current = self.fracas.session
        is_open = current is not None and current.path is not None and Path(current.path) == info.path
        try:
            folder = default_dir()
        except Exception as exc:
            self._failed(str(exc))
            return
        self.app.push_screen(TrashSaveDialog(info, folder / TRASH_DIR, is_open, self._trash_chosen))

    def _rename_chosen(self, info: SaveInfo, name: str) -> None:
        self.fracas.release_file(info.path)  # this app's own lock on it, if it had the fight open
        self._busy(True)
        self._manage(info, name)

    def _trash_chosen(self, info: SaveInfo) -> None:
        self.fracas.release_file(info.path)
        self._busy(True)
        self._manage(info, None)

    @work(thread=True, exclusive=True, group="open")
    def _manage(self, info: SaveInfo, new_name: str | None) -> None:
        """Rename (`new_name`) or move to the trash (None), off the screen's thread: a rename writes
        the whole fight again."""
        title = literal(info.name or info.path.stem).plain
        try:
            if new_name is None:
                target = trash(info.path, default_dir())
                done = f"Moved {title} to the trash ({target})."
            else:
                target = rename(info.path, new_name, default_dir())
                done = f"Renamed {title} to {new_name} ({target.name})."
        except LockedError:
            what = "rename it" if new_name is not None else "move it to the trash"
            self.app.call_from_thread(
                self._failed, f"{title} is open in another running Fracas: close it there to {what}.", "Not done"
            )
            return
        except Exception as exc:  # SaveError, RuleError, OSError: one line
            self.app.call_from_thread(self._failed, str(exc), "Not done")
            return
        self.app.call_from_thread(self._managed, done)

    def _managed(self, message: str) -> None:
        self._busy(False)
        self.app.notify(clean(message), timeout=6, markup=False)
        self.action_reload()

    def _failed(self, message: str, title: str = "Could not open") -> None:
        self._busy(False)
        self.app.notify(clean(message), title=title, severity="error", timeout=10, markup=False)

    def _busy(self, on: bool) -> None:
        self.query_one("#loading").display = on
