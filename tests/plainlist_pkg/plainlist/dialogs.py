"""Plain list's own dialog: Shove. The acting combatant shoves another one; the target starts on the
combatant the tracker had selected (when that is not the shover). Imported when it opens."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult

from engine.commands import Command
from plainlist.rules import Shove
from tui.dialogs import Choice, Dialog, FormError, combatant_options, row
from tui.text import literal


class ShoveDialog(Dialog):
    OK = "Shove"

    @property
    def shover(self) -> str:
        return self.fight.current

    def heading(self) -> Text:
        c = self.fight.find(self.shover)
        t = literal(c.name) if c else Text("Nobody")
        t.append(" spends its action to shove someone Prone.")
        return t

    def fields(self) -> ComposeResult:
        others = combatant_options(self.fight, exclude=(self.shover,))
        first = self.who if self.who and self.who != self.shover else (others[0][1] if others else "")
        yield row("Target", Choice(others, first, id="target"))

    def build(self) -> Command:
        target = self.choice("target")
        if not target:
            raise FormError("Nobody else is in the fight to shove.")
        return Shove(self.shover, target)
