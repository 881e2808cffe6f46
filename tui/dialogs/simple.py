"""Dice, resources and notes: small dialogs of a field or two."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.widgets import Input

from engine import commands as C
from engine.commands import Command
from tui.dialogs.base import Dialog, combatant_options, field, row
from tui.dialogs.fields import Choice
from tui.dialogs.forms import FormError, optional_int, parse_given, parse_int, table_rolls
from tui.text import literal

# --- dice, resources, notes --------------------------------------------------------------------


class RollDialog(Dialog):
    OK = "Roll"

    def fields(self) -> ComposeResult:
        f = self.fight
        yield row("Dice", field(self.ui.roll_dice, "2d6+3, 4d6kh3, d20 adv, d%", id="dice"))
        yield row("For", Choice(combatant_options(f, "nobody (a table roll)"), self.who, id="for"))
        yield row("Kind", Choice([("a roll", "roll"), ("a saving throw", "save")], "roll", id="kind"))
        yield row("Against DC", field(placeholder="for a saving throw (optional)", id="dc", number=True))
        yield row("Label", field(placeholder="Perception, Dex save, ... (optional)", id="label"))
        yield row("Table dice (optional)", field(placeholder="the dice rolled at the table: 17", id="given"))

    def heading(self) -> Text:
        return Text("Roll dice") + self.table_note(self.who)

    def on_mount(self) -> None:
        if table_rolls(self.fight, self.who):
            self.query_one("#given", Input).focus()  # the dice are usually right: the number is missing
            return
        inp = self.query_one("#dice", Input)
        inp.focus()
        inp.action_select_all()

    def build(self) -> Command:
        dice = self.value("dice").strip()
        if not dice:
            raise FormError("Which dice? For example 2d6+3.")
        who = self.choice("for") or ""
        given = parse_given(self.value("given"))
        label = self.value("label").strip()
        self.require_dice(who, dice)
        dc = optional_int(self.value("dc"), "DC", 0, 1000)
        if self.choice("kind") == "save":
            if not who:
                raise FormError("A saving throw is made by a combatant: choose who.")
            return C.SavingThrow(who, dice, dc, given, label)
        if dc is not None:
            raise FormError("A DC goes with a saving throw: choose 'a saving throw' as the kind.")
        return C.Roll(dice, given, who, label)


class ResourceDialog(Dialog):
    OK = "Apply"

    def heading(self) -> Text:
        c = self.target
        t = literal(c.name)
        t.append("   " + ", ".join(f"{p.key} {p.current}/{p.max}" for p in c.resources), style="dim")
        return t

    def fields(self) -> ComposeResult:
        c = self.target
        yield row("Resource", Choice([(p.key, p.key) for p in c.resources], id="key"))
        yield row("Spend or restore", Choice([("spend", "spend"), ("restore", "restore")], id="how"))
        yield row("Amount", field("1", id="amount", number=True))

    def build(self) -> Command:
        amount = parse_int(self.value("amount"), "Amount", 1, 1000)
        key = self.choice("key")
        if self.choice("how") == "spend":
            return C.SpendResource(self.who, key, amount)
        return C.RestoreResource(self.who, key, amount)


class NoteDialog(Dialog):
    OK = "Note"

    def heading(self) -> Text:
        return Text("A note in the log")

    def fields(self) -> ComposeResult:
        yield row("Note", field(placeholder="what happened", id="text"))
        yield row("About", Choice(combatant_options(self.fight, "the fight"), self.who, id="about"))

    def build(self) -> Command:
        text = self.value("text")
        if not text.strip():
            raise FormError("Write the note first.")
        return C.Note(text, self.choice("about") or "")


