"""`?`: the keys as they are bound now (settings file included), the ruleset in brief, its conditions."""

from __future__ import annotations

import textwrap

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from engine import get_ruleset
from engine.ruleset import Ruleset
from engine.state import Fight
from tui.actions import ACTIONS
from tui.config import default_path
from tui.rows import OTHER_IDS
from tui.rulesets import get_ui


def _key_names(keys: str) -> str:
    names = {"question_mark": "?", "space": "space", "delete": "del"}
    return ", ".join(names.get(k.strip(), k.strip()) for k in keys.split(","))


def turn_legend(f: Fight, rs: Ruleset) -> str:
    """What the marks of the tracker's turn cell mean: the ruleset's own words, else each mark of
    the fight's combatants with its item's name, as the engine gives them ("A Action, R Reaction")."""
    if rs.turn_legend:
        return rs.turn_legend
    named: dict[str, str] = {}
    for c in f.combatants:
        for item in rs.economy_items(f, c.id):
            if item.row and item.mark and item.name:
                named.setdefault(item.mark, item.name)
    if not named:
        return "What each combatant may still do this turn."
    return ", ".join(f"{mark} {name}" for mark, name in named.items()) + " (bright while still to use, dim when spent)."


KEY_CELLS = 16  # the keys' column; what a key does wraps under itself, right of it


def _wrapped(t: Text, text: str, width: int, indent: int, style: str = "", head: str = "") -> None:
    """`head` (bold) and `text` in lines of `width` cells, every line after the first indented by
    `indent`: a long line wraps under its own start, not back to the screen's edge."""
    lines = textwrap.wrap(
        head + text, max(20, width), subsequent_indent=" " * indent, break_on_hyphens=False, drop_whitespace=True
    )
    lines = lines or [head]
    first = lines[0]
    if head and first.startswith(head):
        t.append(head, style="bold")
        first = first[len(head) :]
    t.append(first + "\n", style=style or None)
    for line in lines[1:]:
        t.append(line + "\n", style=style or None)


class HelpScreen(ModalScreen[None]):
    DEFAULT_CSS = """
    HelpScreen { align: center middle; background: $background; }
    HelpScreen > #help { width: 100; max-width: 100%; height: 90%; border: round $primary; background: $surface; }
    HelpScreen VerticalScroll { padding: 0 1; }
    """
    BINDINGS = [
        Binding("escape,question_mark,q", "close", "Close", id="help_close"),
    ]

    def compose(self) -> ComposeResult:
        with Vertical(id="help"):
            with VerticalScroll():
                yield Static(self._text())

    def on_mount(self) -> None:
        self.query_one("#help").border_title = Text("Help  (esc to close)")
        self.query_one(VerticalScroll).focus()
        self.call_after_refresh(self._fit)

    def on_resize(self) -> None:
        self.call_after_refresh(self._fit)

    def _fit(self) -> None:
        """Wrapped to the box's width, known once it is laid out (less the scroll bar's)."""
        width = self.query_one(VerticalScroll).scrollable_content_region.width - 2
        if width > 0:
            self.query_one(Static).update(self._text(width))

    def _text(self, width: int = 94) -> Text:
        app = self.app
        keymap = getattr(app, "_keymap", {})
        t = Text()
        t.append("Keys\n", style="bold underline")
        session = getattr(app, "session", None)
        ui = get_ui(session.state.ruleset) if session is not None else None
        ids: list[str] = []
        for a in ACTIONS:
            if ui is not None and not ui.lists(a):
                continue  # another ruleset's action: not in this fight's footer or palette either
            keys = keymap.get(a.id, a.keys)
            shown = _key_names(keys) if keys else "palette"
            _wrapped(t, f"{a.title}: {a.help}", width, KEY_CELLS, head=f"  {shown:<{KEY_CELLS - 3}} ")
            if keys or not a.action.startswith("app."):
                ids.append(f"{a.id} ({shown})")  # the settings file gives keys by these ids
        for keys, what in _MOVES:
            _wrapped(t, what, width, KEY_CELLS, head=f"  {keys:<{KEY_CELLS - 3}} ")
        t.append("\nRemapping keys\n", style="bold underline")
        path = getattr(getattr(app, "settings", None), "path", None) or default_path()
        where = f'In {path}, under [keys], write binding id = "keys", e.g. damage = "x" or next = "n,space".'
        _wrapped(t, "  " + where, width, 2)
        _wrapped(t, "  The ids, with their keys now: " + ", ".join(ids) + ".", width, 4, "dim")
        _wrapped(t, f"  Other ids: {', '.join(OTHER_IDS)}.", width, 4, "dim")
        _wrapped(t, "  The theme (ctrl+p, Theme) is remembered in the same file.", width, 2)
        if session is not None:
            self._ruleset(t, session.state, width)
        return t

    @staticmethod
    def _ruleset(t: Text, f: Fight, width: int) -> None:
        rs = get_ruleset(f.ruleset)
        t.append(f"\n{rs.title}\n", style="bold underline")
        _wrapped(t, f"  {rs.summary}", width, 2)
        t.append("\nThe tracker's turn column (Turn, Acts)\n", style="bold underline")
        _wrapped(t, f"  {turn_legend(f, rs)}", width, 2)
        if not rs.conditions:
            t.append("\n  No catalog of conditions: name your own (c).\n")
            return
        t.append("\nConditions\n", style="bold underline")
        for name, desc in rs.conditions.items():
            _wrapped(t, desc, width, 4, head=f"  {name}: ")

    def action_close(self) -> None:
        self.dismiss()


_MOVES = (
    ("up/down, j/k", "select a combatant (the mouse works too)"),
    ("tab", "move between the panes (the log scrolls with up/down)"),
    ("ctrl+p", "command palette: every action, and jump to a combatant by name"),
    ("ctrl+q", "quit (everything is already saved)"),
)
