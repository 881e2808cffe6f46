"""The GM's controls of the players' view (`fracas view`, `fracas serve`): how enemies' health shows
there and whether the rolls the GM makes for enemies reach its public log. Both are fight settings
(the engine's `view_health` and `view_rolls`), so they are commands: saved, undoable, followed by
every view at once. Hiding a combatant is the main screen's `hide` action (no dialog)."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult

from engine import commands as C
from engine.commands import Command
from engine.state import Combatant
from tui.dialogs import Choice, Dialog, FormError, row
from tui.text import span
from tui.views import HIDDEN

HEALTH = [("a band: unhurt, hurt, bloodied, down", "band"), ("the numbers", "numbers"), ("nothing", "none")]
ROLLS = [("private: only the players' own", "private"), ("public: the GM's too", "public")]


def hide_command(c: Combatant) -> Command:
    """Hide a combatant from the players' view, or reveal it: its `hidden` flag, other flags kept."""
    if HIDDEN in c.flags:
        return C.EditCombatant(c.id, flags=tuple(x for x in c.flags if x != HIDDEN))
    return C.EditCombatant(c.id, flags=(*c.flags, HIDDEN))


class ViewSettingDialog(Dialog):
    """What the players' view shows of enemies' health, and whether the GM's rolls are public."""

    OK = "Set"

    def heading(self) -> Text:
        return span("The players' view (fracas view, fracas serve)\n", "bold") + span(
            "Players' characters always show their numbers; hidden combatants never show.", ""
        )

    def fields(self) -> ComposeResult:
        f = self.fight
        yield row("Enemies' health", Choice(HEALTH, f.setting("view_health", "band"), id="view_health"))
        yield row("Rolls for enemies", Choice(ROLLS, f.setting("view_rolls", "private"), id="view_rolls"))

    def build(self) -> list[Command]:
        f = self.fight
        out: list[Command] = []
        for key, default in (("view_health", "band"), ("view_rolls", "private")):
            value = self.choice(key)
            if value != f.setting(key, default):
                out.append(C.Setting(key, value))
        if not out:
            raise FormError("Nothing changed.")
        return out
