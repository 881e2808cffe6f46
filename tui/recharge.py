"""The recharge roll a spent ability owes at the start of its owner's turn (Fire Breath, recharge
5-6), prompted as it appears in every ruleset: enter rolls a d6, or the table's d6 is typed; escape
leaves it owed (the sheet says so). d20's prompter (tui/rulesets/d20/dialogs.py) builds on this one
for its owed saves. Imported once a roll is owed."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.app import ComposeResult
from textual.widgets import Input

from engine import commands as C
from engine.commands import Command
from engine.pools import RECHARGE, is_recharge, recharge_words
from engine.state import Combatant, Due
from tui.dialogs import Dialog, field, optional_int, row, table_rolls
from tui.text import literal

if TYPE_CHECKING:
    from tui.main import MainScreen


class RechargeDialog(Dialog):
    """ "Fire Breath recharges on 5-6: enter rolls, or type the table's d6"."""

    OK = "Roll"
    HINT = "enter: roll (or send the d6 typed) · esc: later (it stays owed)"

    def __init__(self, who: str, due: Due) -> None:
        super().__init__(who)
        self.due = due
        self.key = due.what.removeprefix(RECHARGE)

    def heading(self) -> Text:
        t = literal(f"{self.target.name}: {self.key} recharges on {recharge_words(self.due.dc)}")
        table = table_rolls(self.fight, self.who)
        t.append(": type the table's d6" if table else ": enter rolls, or type the table's d6")
        return t + self.table_note(self.who)

    def fields(self) -> ComposeResult:
        hint = "the d6 rolled" if table_rolls(self.fight, self.who) else "empty: the app rolls"
        yield row("Table d6", field(placeholder=hint, id="given", number=True))

    def on_mount(self) -> None:
        self.query_one("#given", Input).focus()

    def build(self) -> Command:
        self.require_dice(self.who, "d6")
        return C.Recharge(self.who, self.key, optional_int(self.value("given"), "The d6", 1, 6))


class OwedPrompter:
    """Prompts once for each owed roll as it appears; escape leaves it owed. Here only the recharge
    rolls (every ruleset's); a ruleset that makes saves due too says how to ask for them (`other`)."""

    def __init__(self) -> None:
        self.asked: set[tuple[str, int, Due]] = set()

    def dialog(self, c: Combatant, d: Due) -> Any | None:
        return RechargeDialog(c.id, d) if is_recharge(d) else self.other(c, d)

    def other(self, c: Combatant, d: Due) -> Any | None:
        """The dialog for an owed roll that is not a recharge (None: not this ruleset's to ask)."""
        return None

    def check(self, screen: MainScreen, force: bool = False) -> None:
        app = screen.app
        if app.screen is not screen:
            return  # a dialog is up: asked again when the main screen is back on top
        f = screen.fight
        live = {(c.id, i, d) for c in f.combatants for i, d in enumerate(c.due)}
        self.asked &= live  # a roll settled (or undone) can be asked again if it comes back
        for c in f.combatants:
            for i, d in enumerate(c.due):
                dialog = self.dialog(c, d)
                if dialog is None or (not force and (c.id, i, d) in self.asked):
                    continue
                self.asked.add((c.id, i, d))
                app.push_screen(dialog)
                return
        if force:
            screen.notify("No rolls are owed.", markup=False)
