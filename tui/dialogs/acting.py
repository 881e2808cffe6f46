"""Dialogs where a combatant acts: spending part of its action economy (use), and the base of the
rulesets' dialogs that ask for a roll against the rules (RulesDialog)."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Input, Static

from engine import RuleError
from engine import commands as C
from engine.commands import Command
from engine.library.abilities import Ability
from engine.state import Fight
from tui import abilities as A
from tui.dialogs.base import Dialog, _settling, combatant_options, field, row
from tui.dialogs.fields import Choice
from tui.dialogs.forms import FormError, optional_int, parse_given, table_rolls
from tui.text import clean, literal

# --- acting ------------------------------------------------------------------------------------


def acting_user(f: Fight, selected: str) -> str:
    """Who acts: the combatant whose turn it is (Cosmere: the one acting), else the selected one."""
    return f.current if f.current and f.find(f.current) is not None else selected


def cannot_act(f: Fight, cid: str) -> str:
    """Why `cid` can use nothing now, in one line ("" when it can)."""
    c = f.find(cid) if cid else None
    if c is None:
        return "Select the combatant who acts first."
    if c.down:
        return f"{clean(c.name)} is down and cannot act: select another combatant, or heal it first."
    return ""


class ActingDialog(Dialog):
    """A dialog for what one combatant does on its turn: it opens on the combatant whose turn it is
    (the one acting in Cosmere; the selected one when nobody's turn is under way), with a picker
    for another (a reaction off its turn); the selected row, when it is someone else, is the
    target where there is one. It does not open for a combatant that is down (one line says why)."""

    USER = "Who"

    def __init__(self, who: str = "") -> None:
        super().__init__(who)
        self.selected = who  # the row highlighted in the tracker
        self.refusal = ""
        self._resolved = False

    def compose(self) -> ComposeResult:
        if not self._resolved:
            self._resolved = True
            try:
                self.who = acting_user(self.fight, self.selected)
                self.refusal = self.why_not(self.who)
            except Exception as exc:  # a bug: reported once mounted, like any failure while building
                self._build_error = exc
        yield from super().compose()

    def on_mount(self) -> None:
        # runs after the subclasses' own on_mount (Textual calls each class's): a user that cannot
        # act closes the dialog at once, with the reason instead
        if self.refusal:
            self._failed = True
            self.dismiss()
            self.fracas.tell(self.refusal, inline=False)
            self.fracas.dialog_settled(self)
            self.fracas.call_after_refresh(self.fracas.release_typeahead)

    @property
    def preset(self) -> str:
        """The target the tracker's selection offers: the selected row when it is not the user."""
        return self.selected if self.selected != self.who and self.fight.find(self.selected) else ""

    def user_row(self) -> Horizontal:
        return row(self.USER, Choice(combatant_options(self.fight, standing_first=True), self.who, id="user"))

    @on(Choice.Changed, "#user")
    def _user_changed(self, event: Choice.Changed) -> None:
        if not self.is_mounted or event.choice.value == self.who:
            return
        self.who = event.choice.value
        self.query_one("#heading", Static).update(self.heading())
        self.user_changed()

    def user_changed(self) -> None:
        """The user changed (self.who is the new one): fields that depend on it follow."""

    def retarget(self, wid: str, options: list[tuple[str | Text, str]]) -> None:
        """Give the target chooser `wid` new options (the user left out), keeping its choice if still there."""
        for ch in self.query(f"#{wid}").results(Choice):
            keep = ch.value
            with self.prevent(Choice.Changed):
                ch.options = options
                ch.set_reactive(Choice.index, 0)
                ch.value = keep
            ch.refresh()

    def why_not(self, cid: str) -> str:
        """Why `cid` can do nothing here now, in one line ("" when it can): nobody, or down. A
        ruleset's dialog may judge otherwise (nine-phase: one down in this very phase still acts)."""
        return cannot_act(self.fight, cid)

    def build(self) -> Command | list[Command]:
        why = self.why_not(self.who)
        if why:
            raise FormError(why)
        return self.use()

    def use(self) -> Command | list[Command]:
        raise NotImplementedError


class UseDialog(ActingDialog):
    """Spend part of the action economy: what the ruleset's slice lists (tui/rulesets/), a name for
    the log, and the cost or the target where the ruleset asks for them."""

    OK = "Use"

    def heading(self) -> Text:
        c = self.target
        t = literal(c.name)
        t.append(f" uses…   ({self.rules.describe_economy(c)})", style="dim")
        return t

    def uses(self) -> list[tuple[str | Text, Any]]:
        """The ruleset's parts of the turn and named uses (its slice's list)."""
        return list(self.ui.use_choices)

    def what_options(self) -> list[tuple[str | Text, Any]]:
        """What may be used: the ruleset's uses, then the user's statblock abilities (typing their
        first letters picks one: "fi" Fire Breath)."""
        return [*self.uses(), *A.options(self.fight, self.who)]

    def chosen_ability(self) -> Ability | None:
        found = self.query("#what")
        return A.chosen(self.fight, self.who, found.first(Choice).value) if found else None

    @_settling
    def action_submit(self) -> None:
        """An ability with a save, an attack roll or attacks of its own goes on to its dialog (the
        area dialog filled in, the attack dialog with it chosen); a spent one is refused here."""
        a = self.chosen_ability()
        if a is None or cannot_act(self.fight, self.who):
            super().action_submit()
            return
        try:
            A.check_ready(self.fight, self.who, a)
            screen = A.next_screen(self, self.who, a, self.preset)
        except RuleError as exc:
            self.show_error(str(exc))
            return
        if screen is None:
            super().action_submit()  # a plain use: build() sends it
        else:
            A.go_on(self, screen)

    def build(self) -> Command | list[Command]:
        a = self.chosen_ability()
        if a is not None and not cannot_act(self.fight, self.who):
            return A.plain_use(self.who, a, self.preset)
        return super().build()

    def user_changed(self) -> None:
        self.retarget("target", self._targets())
        self.retarget("what", self.what_options())

    def fields(self) -> ComposeResult:
        ui = self.ui
        yield self.user_row()
        yield row("What", Choice(self.what_options(), id="what"))
        yield row("Name", field(placeholder=ui.use_name_hint, id="name"))
        if ui.use_cost:
            yield row("Cost (actions)", Choice([("1", 1), ("2", 2), ("3", 3)], 1, id="cost"))
        if ui.use_target:
            yield row("Target", Choice(self._targets(), self.preset, id="target"))

    def _targets(self) -> list[tuple[str | Text, str]]:
        return combatant_options(self.fight, "nobody in particular", [self.who], standing_first=True)

    def on_mount(self) -> None:
        self.query_one("#what", Choice).focus()  # what is used, the field changed most

    def use(self) -> Command:
        cost = self.choice("cost") if self.query("#cost") else 1
        target = self.choice("target") if self.query("#target") else ""
        return C.UseAction(self.who, self.choice("what"), self.value("name").strip(), cost, target or "")


class RulesDialog(Dialog):
    """One ruleset command for one combatant (the selected one by default); a roll in it is the
    table's when the fight's setting says so for that combatant's side."""

    TITLE = ""
    WHO = "Who"

    def heading(self) -> Text:
        return Text(self.TITLE) + self.table_note(self.who)

    def who_row(self) -> Horizontal:
        return row(self.WHO, Choice(combatant_options(self.fight), self.who, id="who"))

    @property
    def subject(self) -> str:
        return self.choice("who") or ""

    @on(Choice.Changed, "#who")
    def _who_changed(self) -> None:
        if self.is_mounted:
            self.query_one("#heading", Static).update(Text(self.TITLE) + self.table_note(self.subject))

    def on_mount(self) -> None:
        self.initial_focus()  # subclasses hook in here: Textual runs every class's on_mount

    def initial_focus(self) -> None:
        given = self.query("#given")
        if given and table_rolls(self.fight, self.subject):
            given.first().focus()
            return
        first = self.query(Input)
        if first:
            first.first().focus()
        else:
            self.query_one("#ok").focus()

    def given_or_total(self, expr: str) -> tuple[tuple[int, ...] | None, int | None]:
        """The table's dice or the total it called out (not both); one of them when the table rolls."""
        given = parse_given(self.value("given"))
        total = optional_int(self.value("total"), "Total", 0, 100_000) if self.query("#total") else None
        if given is not None and total is not None:
            raise FormError("Give the dice or the total, not both.")
        if total is None:
            self.require_dice(self.subject, expr, "given")
        return given, total
