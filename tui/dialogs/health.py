"""Damage, healing and temporary health for one combatant."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult

from engine import commands as C
from engine.commands import Command
from tui.dialogs.base import Dialog, field, row
from tui.dialogs.fields import Choice
from tui.dialogs.forms import FormError, amount_or_dice, parse_given
from tui.text import literal

# --- health ------------------------------------------------------------------------------------


class HealthDialog(Dialog):
    """Damage, healing or temporary health: a number or dice, with a damage type."""

    WORDS = {"damage": "Damage to ", "heal": "Heal ", "temp": "Temporary health for "}

    def __init__(self, who: str, mode: str = "damage") -> None:
        super().__init__(who)
        self.mode = mode
        self.OK = {"damage": "Damage", "heal": "Heal", "temp": "Give"}[mode]

    def heading(self) -> Text:
        c = self.target
        t = Text(self.WORDS[self.mode]) + literal(c.name)
        pools = ", ".join(f"{p.key} {p.current}/{p.max}" + (f"+{p.temp}" if p.temp else "") for p in c.health)
        t.append(f"   ({pools})", style="dim")
        return t + self.table_note(self.roller)

    @property
    def roller(self) -> str:
        """Whose dice these are: the combatant whose turn it is (the attacker, the healer), else the
        target itself (a trap, a potion, a nine-phase hit)."""
        f = self.fight
        return f.current if f.current and f.find(f.current) else self.who

    def fields(self) -> ComposeResult:
        what = {"damage": "Damage", "heal": "Healing", "temp": "Temporary health"}[self.mode]
        yield row(what, field(placeholder="a number, or dice: 2d6+3", id="amount"))
        yield row("Table dice (optional)", field(placeholder="the dice rolled at the table: 4 6", id="given"))
        if self.mode == "damage":
            yield row("Damage type", field(placeholder="fire, slashing, ... (optional)", id="type"))
        c = self.target
        if self.mode != "temp" and len(c.health) > 1:
            order = self.rules.damage_order
            if self.mode == "damage":
                opts: list[tuple[str | Text, str]] = [(f"default: {' then '.join(order)}", "")]
                opts += [(f"{p.key} first", p.key) for p in c.health]
            else:
                opts = [(p.key, p.key) for p in c.health]
            yield row("Track", Choice(opts, id="pool"))

    def build(self) -> Command:
        what = {"damage": "damage", "heal": "healing", "temp": "temporary health"}[self.mode]
        amount, dice = amount_or_dice(self.value("amount"), what)
        given = parse_given(self.value("given"))
        if given is not None and not dice:
            raise FormError("Table dice go with a dice expression (like 2d6), not a plain number.")
        self.require_dice(self.roller, dice)
        pool = self.choice("pool") if self.query("#pool") else ""
        if self.mode == "damage":
            typ = self.value("type").strip()
            return C.Damage(self.who, amount, dice, given, typ, pool or "")
        if self.mode == "heal":
            return C.Heal(self.who, amount, dice, given, pool or "")
        return C.TempHealth(self.who, amount, dice, given)


