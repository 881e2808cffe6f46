"""The dice the table rolls: asking for the start-of-turn rolls a command would make for a side the
table rolls for (send), and the setting of who rolls."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Input, Static

from engine import RuleError, apply
from engine import commands as C
from engine.commands import Command
from engine.core import rolls_due
from engine.dice import roll
from tui.dialogs.base import Dialog, field, row
from tui.dialogs.fields import Choice
from tui.dialogs.forms import SIDE_KEYS, SIDE_WORDS, FormError, optional_int, parse_given, rolls_owed
from tui.text import clean, span

if TYPE_CHECKING:
    from tui.host import Host

def send(app: Host, cmd: Command, *, announce: bool = False) -> None:
    """Send a turn-moving command; when it would roll start-of-turn dice for a side the table rolls
    for, ask for those dice first. A refusal is a notification (no dialog is open)."""
    session = app.session
    if session is not None:
        due = rolls_owed(session.state, cmd)
        if due:
            app.push_screen(TableRollsDialog(cmd, due, announce))
            return
    app.try_commit(cmd, announce=announce)


# --- the table's dice ----------------------------------------------------------------------------


class TableRollsDialog(Dialog):
    """The dice a turn-moving command is about to roll on its own (Bleeding, Burning, Confused,
    dangerous terrain) for a side the table rolls for: one field per roll, sent in the command's
    `rolls`. Cancel and nothing moves on."""

    OK = "Go on"

    def __init__(self, cmd: Command, due: Sequence[Any], announce: bool = False) -> None:
        super().__init__()
        self.cmd = cmd
        self.due = tuple(due)
        self.ANNOUNCE = announce

    def heading(self) -> Text:
        return span("The table rolls these\n", "bold") + Text("Type the dice rolled for each before play goes on.")

    TYPED: list[tuple[str | Text, str]] = [("each die rolled", "die"), ("the total called out", "total")]

    def fields(self) -> ComposeResult:
        f = self.fight
        yield row("Typed is", Choice(self.TYPED, "die", id="typed"))
        for i, d in enumerate(self.due):
            c = f.find(d.who)
            label = f"{clean(c.name) if c else d.who}: {d.what}"
            yield Horizontal(
                Static(Text(label[:23]), classes="label"),
                field(placeholder=f"{d.expr}: the dice rolled", id=f"roll-{i}"),
                Static(id=f"shown-{i}", classes="shown"),
                classes="row",
            )

    def on_mount(self) -> None:
        self.query_one("#roll-0", Input).focus()  # the dice, not the choice of how they are typed

    @property
    def total_typed(self) -> bool:
        return bool(self.choice("typed") == "total")

    @on(Input.Changed)
    @on(Choice.Changed, "#typed")
    def _shown(self) -> None:
        """What each roll comes to, before play goes on ("= 7")."""
        if not self.is_mounted:
            return
        for i, d in enumerate(self.due):
            inp = self.query_one(f"#roll-{i}", Input)
            inp.placeholder = f"{d.expr}: the total" if self.total_typed else f"{d.expr}: the dice rolled"
            try:
                g = self._given(i, d)
                shown = Text("") if g is None else span(f"= {self._total(d, g)}", "bold")
            except (FormError, RuleError):
                shown = span("= ?", "bold")
            self.query_one(f"#shown-{i}", Static).update(shown)

    def _given(self, i: int, d: Any) -> C.GivenRoll | None:
        text = self.value(f"roll-{i}")
        if self.total_typed:
            total = optional_int(text, "Total", 0, 100_000)
            return None if total is None else C.GivenRoll(d.who, d.what, total=total)
        dice = parse_given(text)
        return None if dice is None else C.GivenRoll(d.who, d.what, dice=dice)

    def _total(self, d: Any, g: C.GivenRoll) -> int:
        if g.total is not None:
            return g.total
        r, _ = roll(d.expr, self.fight.rng, g.dice)
        return r.total

    def build(self) -> Command:
        from msgspec.structs import replace

        f = self.fight
        given = []
        for i, d in enumerate(self.due):
            c = f.find(d.who)
            what = f"{clean(c.name) if c else d.who}'s {d.what}"
            g = self._given(i, d)
            if g is None:
                self.query_one(f"#roll-{i}", Input).focus()
                how = "the total rolled" if self.total_typed else "the dice rolled"
                raise FormError(f"{what}: type {how} for {d.expr}.")
            given.append(g)
        return replace(self.cmd, rolls=self._reached(given))  # type: ignore[call-arg]

    def _reached(self, given: list[C.GivenRoll]) -> tuple[C.GivenRoll, ...]:
        """The typed rolls the command still reaches. The numbers typed can change what follows (a
        Bleeding roll that drops the combatant leaves no Confused roll to make), and the engine
        refuses a roll nothing asked for: keep each one only if, after those kept, it is still due."""
        from msgspec.structs import replace

        f = self.fight
        kept: list[C.GivenRoll] = []
        for g in given:
            try:
                apply(f, replace(self.cmd, rolls=(*kept, g)))  # type: ignore[call-arg]
            except RuleError:
                due = rolls_due(f, replace(self.cmd, rolls=tuple(kept)))  # type: ignore[call-arg]
                if any(d.who == g.who and d.what.lower() == g.what.lower() for d in due):
                    raise  # it was due: the number itself is refused (a 5 on a d4)
                continue
            kept.append(g)
        return tuple(kept)


class DiceSettingDialog(Dialog):
    """Per side, the app rolls or the table does (the fight's roll_pc / roll_npc settings)."""

    OK = "Set"
    HOW = [("the app rolls", "app"), ("the table rolls: ask me", "table")]

    def heading(self) -> Text:
        return span("Who rolls the dice\n", "bold") + Text(
            "When the table rolls, dialogs wait for the numbers and turn-start rolls are asked for."
        )

    def fields(self) -> ComposeResult:
        f = self.fight
        for kind, key in SIDE_KEYS.items():
            yield row(f"{SIDE_WORDS[kind]}' rolls", Choice(self.HOW, f.setting(key, "app"), id=key))

    def build(self) -> list[Command]:
        f = self.fight
        out: list[Command] = []
        for key in SIDE_KEYS.values():
            v = self.choice(key)
            if v != f.setting(key, "app"):
                out.append(C.Setting(key, v))
        if not out:
            raise FormError("Nothing changed.")
        return out
