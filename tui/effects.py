"""Concentration's effects: a condition can be marked as kept up by a caster's
concentration, and when that concentration ends the app offers, in one dialog, to end what it kept
up, listed by name and target. Confirming is one command (engine.area.RemoveConditions), so one undo.

The main screen finds what ended from the events of each new command only
(engine.mechanics.kept_up_ended); nothing here scans the history.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widget import Widget
from textual.widgets import Static

from engine.area import KeptCondition, RemoveConditions, sustained_by, sustaining
from engine.commands import AddCondition, Command
from engine.mechanics import KeptUp
from engine.state import Fight
from tui.dialogs import Choice, ConditionDialog, Dialog, FormError, row
from tui.dialogs.fields import ListTick, TickList
from tui.text import literal


def casters(f: Fight) -> list[tuple[str | Text, str]]:
    """The options of "kept up by": nobody, then each combatant holding the ruleset's concentration."""
    held = sustaining(f.ruleset)
    if not held:
        return []
    out: list[tuple[str | Text, str]] = []
    for c in f.combatants:
        if c.has(held):
            out.append((literal(sustained_by(f.ruleset, c.name, held)), c.id))
    return [("nobody", "")] + out if out else []


class KeptConditionDialog(ConditionDialog):
    """The condition dialog, with "Kept up by" when someone is concentrating: such a condition names
    its caster, so it can be offered for removal when the concentration ends."""

    def fields(self) -> ComposeResult:
        options = casters(self.fight)
        placed = not options
        for widget in super().fields():
            yield widget
            if not placed and widget.id == "catalog":  # right under the condition's name
                placed = True
                yield row("Kept up by", Choice(options, "", id="through"))
        if not placed:  # the dialog's fields changed: still offered, last
            yield row("Kept up by", Choice(options, "", id="through"))

    def build(self) -> Command:
        cmd = super().build()
        caster = str(self.choice("through") or "") if self.query("#through") else ""
        if not caster or not isinstance(cmd, AddCondition):
            return cmd
        # every field the dialog filled goes across; one the kept condition has no room for is said,
        # not dropped (AddCondition may grow a field the kept one does not have yet)
        kept = {f.name for f in msgspec.structs.fields(KeptCondition)}
        values = {f.name: getattr(cmd, f.name) for f in msgspec.structs.fields(cmd)}
        lost = [f.name for f in msgspec.structs.fields(cmd) if f.name not in kept and values[f.name] != f.default]
        if lost:
            raise FormError(f"A condition kept up by concentration cannot take {', '.join(lost)} yet.")
        values.update(source=caster)
        return KeptCondition(**{k: v for k, v in values.items() if k in kept})


def reason(f: Fight, items: Sequence[KeptUp]) -> str:
    """The log's why: "Mage's concentration ended" (one caster), else a plainer line."""
    who = {(k.caster, k.through) for k in items}
    if len(who) == 1:
        caster, through = next(iter(who))
        c = f.find(caster)
        return f"{sustained_by(f.ruleset, c.name if c else 'its caster', through)} ended"
    return "what kept it up ended"


def still_there(f: Fight, items: Sequence[KeptUp]) -> list[KeptUp]:
    """The items whose condition is still on its target as it was kept up (an undo, or a removal by
    hand meanwhile, leaves nothing to offer)."""
    out = []
    for k in items:
        c = f.find(k.who)
        cond = c.condition(k.name) if c is not None else None
        if cond is not None and cond.source == k.caster and cond.through == k.through:
            out.append(k)
    return out


class KeptEndedDialog(Dialog):
    """What an ended concentration kept up: every one ticked; enter ends the ticked ones at once."""

    OK = "End them"
    HINT = "enter: end the ticked ones · up/down, space: tick · esc: keep them all"
    RAISED = True

    def __init__(self, items: Sequence[KeptUp]) -> None:
        super().__init__()
        self.items = list(items)
        self.kept_list = TickList()  # one tab stop; up/down between the conditions, space ticks

    @property
    def focus_chain(self) -> list[Widget]:
        return self.kept_list.place(super().focus_chain)

    def heading(self) -> Text:
        t = literal(reason(self.fight, self.items))  # names as typed, made harmless
        t.append(": end what it kept up?")
        return t

    def fields(self) -> ComposeResult:
        f = self.fight
        for n, k in enumerate(self.items):
            c = f.find(k.who)
            label = literal(k.name) + Text(" on ") + literal(c.name if c else "?")
            tick = ListTick(label, True, group=self.kept_list, row=n, id=f"end-{n}")
            yield Horizontal(Static("", classes="label mark"), tick, classes="row")

    DEFAULT_CSS = """
    KeptEndedDialog .label.mark { width: 2; }
    KeptEndedDialog ListTick { width: 1fr; }
    KeptEndedDialog ListTick:focus { text-style: bold reverse; }
    """

    def on_mount(self) -> None:
        if self.items:
            self.query_one("#end-0", ListTick).focus()

    def build(self) -> Command:
        chosen = [k for n, k in enumerate(self.items) if self.checked(f"end-{n}")]
        if not chosen:
            raise FormError("Nothing is ticked: esc keeps them all.")
        return RemoveConditions(tuple((k.who, k.name) for k in chosen), reason(self.fight, chosen))
