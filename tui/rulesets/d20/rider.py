"""What else a d20 statblock attack's hit does (its rider, issue 24): after the hit, the rider whole
and one key to act on it. A rider that names a condition and no save: enter gives it. One that names
a save: enter rolls it (or takes the total the table typed, where it rolls for the target's side) and
gives the condition on a failure, the target's Legendary Resistance offered. Escape: not now (the log
has the rider already: the attack's batch wrote it). Imported when a hit has such a rider."""

from __future__ import annotations

from typing import Any

import msgspec
from rich.text import Text
from textual.app import ComposeResult
from textual.widgets import Input

from engine import apply
from engine import commands as C
from engine import events as E
from engine.area import AreaEffect, AreaTarget
from engine.commands import Command
from engine.library.abilities import LEGENDARY_RESISTANCE
from engine.rules.d20.combat import ABILITIES, D20Test, TestRolled
from tui.dialogs import Dialog, FormError, Tick, field, optional_int, parse_given, row, table_rolls
from tui.text import literal

SAVES = ABILITIES  # "con": "Constitution"


class Rider(msgspec.Struct, frozen=True):
    """A hit's rider: who hit whom with what, the words whole, and what the app can act on."""

    attacker: str
    target: str
    label: str
    text: str
    save: str = ""
    dc: int = 0
    condition: str = ""
    damage: tuple[tuple[str, str], ...] = ()  # (dice, type) a failed save deals
    half: bool = False  # a made save takes half of it

    @property
    def acts(self) -> bool:
        return bool(self.condition or (self.save and self.dc))


class RiderDialog(Dialog):
    """ "Tail hit Cato: The target is knocked Prone." and enter to give Prone (or roll the save)."""

    HINT = "enter: apply it · esc: not now"

    def __init__(self, rider: Rider) -> None:
        super().__init__(rider.target)
        self.rider = rider
        self.OK = f"Roll the {SAVES.get(rider.save, rider.save)} save" if self.saves else f"Give {rider.condition}"

    @property
    def saves(self) -> bool:
        return bool(self.rider.save and self.rider.dc)

    def heading(self) -> Text:
        r = self.rider
        who = self.fight.find(r.attacker)
        t = literal(f"{who.name if who else '?'}'s {r.label} hit {self.target.name}: ")
        t.append_text(literal(r.text))
        if self.saves:
            t.append(f"\nDC {r.dc} {SAVES.get(r.save, r.save)} save", style="bold")
            if r.damage:
                hurt = " + ".join(f"{d} {t}".strip() for d, t in r.damage)
                t.append(f": {hurt}{', half on a success' if r.half else ''}", style="bold")
            if r.condition:
                t.append(f" or {r.condition}", style="bold")
        return t + self.table_note(self.who)

    def fields(self) -> ComposeResult:
        if not self.saves:
            return
        if table_rolls(self.fight, self.who):
            yield row("Its save total", field(placeholder="the total the table called out", id="total", number=True))
        else:
            yield row("Table d20 (optional)", field(placeholder="empty: the app rolls", id="given"))
        pool = self.target.pool(LEGENDARY_RESISTANCE)
        if pool is not None and pool.current > 0:
            yield row(
                "Should it fail", Tick(Text(f"Legendary Resistance ({pool.current} left)"), id="lr", compact=True)
            )

    def on_mount(self) -> None:
        found = self.query(Input)
        (found.first() if found else self.query_one("#ok")).focus()

    def build(self) -> Command | list[Command]:
        r = self.rider
        give = C.AddCondition(r.target, r.condition, source=r.attacker) if r.condition else None
        if not self.saves:
            assert give is not None  # `acts`: a condition, or a save
            return give
        if r.damage:
            return self._harmful()
        test = D20Test(r.target, ability=r.save, dc=r.dc, label=f"{r.label}'s rider", **self._roll())
        _, events = apply(self.fight, test)  # pure: the save as it will go, to know whether it failed
        rolled = next((e for e in events if isinstance(e, TestRolled)), None)
        failed = rolled is not None and rolled.success is False
        return [test, give] if failed and give is not None else test

    def _harmful(self) -> list[Command]:
        """A rider that hurts: one area effect on its one target (the save rolled or typed, the damage
        on a failure, half or none on a success, the condition on a failure), one undo step; a part
        of another type follows on a failure, as its own Damage."""
        r = self.rider
        (dice, typ), *others = r.damage
        label = f"{r.label}'s rider"
        area = AreaEffect(
            (AreaTarget(r.target, **self._roll()),), dice=dice, type=typ, label=label, source=r.attacker,
            save=r.save, dc=r.dc, none_on_save=not r.half, condition=r.condition,
        )
        out: list[Command] = [area]
        if others:
            _, events = apply(self.fight, area)  # pure: whether the save failed, for the other parts
            # the target's damage line is headed by how its save went (engine.area._target_save)
            failed = any(
                isinstance(e, E.Damaged) and e.who == r.target and ": failed" in e.detail and "instead" not in e.detail
                for e in events
            )
            if failed:
                out += [C.Damage(r.target, dice=d, type=t, source=r.attacker) for d, t in others]
        return out

    def _roll(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.query("#total"):
            total = optional_int(self.value("total"), "Its save total", -100, 200)
            if total is None:
                raise FormError(f"The table rolls for {self.target.name}: type its save total (the app will not).")
            out["total"] = total
        elif self.query("#given"):
            out["given"] = parse_given(self.value("given"))
        if self.query("#lr") and self.checked("lr"):
            out["legendary"] = True
        return out
