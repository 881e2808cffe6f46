"""`?`: the keys as they are bound now (settings file included), the ruleset in brief, its conditions."""

from __future__ import annotations

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

    def _text(self) -> Text:
        app = self.app
        keymap = getattr(app, "_keymap", {})
        t = Text()
        t.append("Keys\n", style="bold underline")
        session = getattr(app, "session", None)
        ui = get_ui(session.state.ruleset) if session is not None else None
        for a in ACTIONS:
            if ui is not None and not ui.lists(a):
                continue  # another ruleset's action: not in this fight's footer or palette either
            keys = keymap.get(a.id, a.keys)
            shown = _key_names(keys) if keys else "palette"
            t.append(f"  {shown:<14}", style="bold")
            t.append(f"{a.title}: {a.help}")
            # the id the settings file gives keys by (an action without one can be given one too)
            t.append(f"   [id {a.id}]\n" if keys or not a.action.startswith("app.") else "\n", style="dim")
        t.append("  up/down, j/k  ", style="bold")
        t.append("select a combatant (the mouse works too)\n")
        t.append("  tab           ", style="bold")
        t.append("move between the panes (the log scrolls with up/down)\n")
        t.append("  ctrl+p        ", style="bold")
        t.append("command palette: every action, and jump to a combatant by name\n")
        t.append("  ctrl+q        ", style="bold")
        t.append("quit (everything is already saved)\n")
        t.append("\nRemapping keys\n", style="bold underline")
        path = getattr(getattr(app, "settings", None), "path", None) or default_path()
        t.append("  In ")
        t.append(str(path), style="bold")
        t.append(', under [keys], write binding id = "keys", e.g. damage = "x" or next = "n,space".\n')
        t.append(f"  Other ids: {', '.join(OTHER_IDS)}.\n", style="dim")
        t.append("  The theme (ctrl+p, Theme) is remembered in the same file.\n")
        session = getattr(app, "session", None)
        if session is not None:
            rs = get_ruleset(session.state.ruleset)
            t.append(f"\n{rs.title}\n", style="bold underline")
            t.append(f"  {rs.summary}\n")
            t.append("\nThe tracker's turn column (Turn, Acts)\n", style="bold underline")
            t.append(f"  {turn_legend(session.state, rs)}\n")
            if rs.conditions:
                t.append("\nConditions\n", style="bold underline")
                for name, desc in rs.conditions.items():
                    t.append(f"  {name}: ", style="bold")
                    t.append(f"{desc}\n")
            else:
                t.append("\n  No catalog of conditions: name your own (c).\n")
        return t

    def action_close(self) -> None:
        self.dismiss()
