"""Legendary actions at the end of another combatant's turn (d20 creatures from other books): when
the GM presses next and a legendary creature has actions left, the app offers its legendary abilities
before the turn ends: a digit takes one, enter or escape skips, and the turn then moves on.

Taking one that rolls nothing (Tail Sweep) uses it and ends the turn; one with a save or an attack
opens its dialog (tui/abilities.py), and next then ends the turn without asking again. Offered once
per turn's end; never when no legendary creature has an action left. Imported when one may act.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.widgets import Static

from engine import RuleError
from engine.library.abilities import LEGENDARY, Ability, ability_label
from engine.state import Combatant, Fight
from tui import abilities as A
from tui.dialogs import Dialog
from tui.dialogs.base import _settling
from tui.text import literal

MAX = 9  # one key each: 1 to 9


def choices(f: Fight) -> list[tuple[Combatant, Ability]]:
    """Each legendary ability a creature other than the one whose turn it is could take now (its
    cost within what it has left), creature by creature in turn order."""
    out: list[tuple[Combatant, Ability]] = []
    by_id = {c.id: c for c in f.combatants}
    for cid in [*f.order, *(c.id for c in f.combatants if c.id not in f.order)]:
        c = by_id.get(cid)
        pool = c.pool(LEGENDARY) if c is not None else None
        if c is None or pool is None or pool.current <= 0 or c.down or c.id == f.current:
            continue
        out.extend((c, a) for a in A.abilities_of(f, c.id) if a.act == "legendary" and a.cost <= pool.current)
    return out[:MAX]


class LegendaryDialog(Dialog):
    """ "End of Ayla's turn: a legendary action?" with the creatures' legendary abilities, numbered."""

    OK = "Skip"
    HINT = "1-9: take it · enter or esc: skip, and the turn ends"

    def __init__(self, options: list[tuple[Combatant, Ability]], then: Callable[[], None]) -> None:
        super().__init__()
        self.options = options
        self.then = then  # ends the turn (the main screen's next, with the table's dice asked for)

    def heading(self) -> Text:
        c = self.fight.find(self.fight.current)
        return literal(f"End of {c.name if c else 'the'}'s turn: a legendary action?")

    def fields(self) -> ComposeResult:
        for n, (c, a) in enumerate(self.options, start=1):
            pool = c.pool(LEGENDARY)
            left = f" ({pool.current}/{pool.max} left)" if pool is not None else ""
            t = Text(f"{n}  ", style="bold")
            t.append_text(literal(f"{c.name}{left}: "))
            t.append_text(literal(ability_label(a)))
            yield Static(t, classes="wide-label")

    def on_mount(self) -> None:
        self.query_one("#ok").focus()

    def on_key(self, event: events.Key) -> None:
        ch = event.character or ""
        if ch.isdigit() and 1 <= int(ch) <= len(self.options):
            event.stop()
            event.prevent_default()
            self.take(*self.options[int(ch) - 1])

    @_settling
    def take(self, c: Combatant, a: Ability) -> None:
        try:
            A.check_ready(self.fight, c.id, a)
            screen = A.next_screen(self, c.id, a, "")
            if screen is None:
                self.fracas.commit(A.plain_use(c.id, a), announce=True)
        except RuleError as exc:
            self.show_error(str(exc))
            return
        if screen is None:
            self.dismiss()
            self.then()
        else:
            A.go_on(self, screen)

    @_settling
    def action_submit(self) -> None:
        self.dismiss()
        self.then()

    @_settling
    def action_cancel(self) -> None:
        self.dismiss()
        self.then()
