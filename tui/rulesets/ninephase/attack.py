"""Nine-phase's attack dialog (key `w`): a weapon attack in the current phase, damage included, sent as
one `nine_attack` command (one undo step). Fracas rolls no attack test here (docs/rules/ninephase.md):
the table says hit or miss, and on a hit the damage is a number, dice the app rolls, or the table's
dice. Imported when it first opens."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.widgets import Input, Static

import engine.library as L
from engine import apply
from engine.library import ninephase as NL
from engine.rules.ninephase import catalog
from engine.rules.ninephase.attack import NineAttack
from engine.state import ActivitySpec
from tui.attack import last_attack
from tui.dialogs import (
    ActingDialog,
    Choice,
    FormError,
    amount_or_dice,
    combatant_options,
    field,
    optional_int,
    parse_given,
    picker_order,
    row,
    table_rolls,
)
from tui.dialogs.fields import shown
from tui.rulesets.ninephase.dialogs import out_of_it
from tui.text import literal

RESULTS: list[tuple[str | Text, bool]] = [("Hit", True), ("Miss", False)]
# an option of the Attack row fits the 80-column dialog beside its label with its ◀ ▶ and count
OPTION_CELLS = 42


def strike_label(a: NL.NineActivity) -> Text:
    """A statblock attack in the Attack row, what matters first: its name, its damage, its phase."""
    t = literal(a.name)
    if a.damage:
        t.append(f" {a.damage} {a.type}".rstrip())
    earliest = a.speed if a.weapon else a.phase
    if earliest is not None:
        t.append(f", phase {earliest}{'' if a.lock else '+'}", style="dim")
    return short(t)


def short(t: Text) -> Text:
    if t.cell_len > OPTION_CELLS:
        t.truncate(OPTION_CELLS, overflow="ellipsis")
    return t


def is_attack(spec: ActivitySpec) -> bool:
    """A catalog entry the attack dialog offers: a weapon activity, or one named an attack (the
    Opportunity Attack, a "Spell attack" the GM defined)."""
    return spec.weapon or "attack" in spec.name.casefold()


class NineAttackDialog(ActingDialog):
    """Who attacks whom with which activity, the table's result, and on a hit the damage."""

    USER = "Attacker"
    OK = "Attack"
    HINT = "enter: attack · h/m: hit or miss · tab: next field · esc: cancel"
    DEFAULT_CSS = """
    NineAttackDialog #note { height: auto; color: $text-muted; }
    """

    def __init__(self, who: str = "", target: str = "") -> None:
        super().__init__(who)  # `target` is the selection, which is the attacker here (no turns)
        self._filled: dict[str, str] = {}  # what the dialog last put in each field: the rest is the GM's

    def why_not(self, cid: str) -> str:
        return out_of_it(self, cid)

    def heading(self) -> Text:
        c = self.target
        t = literal(c.name)
        t.append(f" attacks in phase {self.fight.phase}   ({self.rules.describe_economy(c)})", style="dim")
        return t + self.table_note(self.who)

    # --- the fields ----------------------------------------------------------------------------
    def fields(self) -> ComposeResult:
        yield self.user_row()
        yield row("Attack", Choice(self._weapons(), id="weapon"))
        yield row("Weapon Speed Factor", field(placeholder="1-9, its earliest phase", id="speed"), id="row-speed")
        # just above the result, where the cursor starts: another target is shift+tab and a key away
        yield row("Target", Choice(self._targets(), self._default_target(), id="target"))
        yield row("Result (the table's)", Choice(RESULTS, True, id="result"))
        yield row("Damage", field(placeholder="a number, or dice: 1d8+2", id="amount"))
        yield row("Table dice (optional)", field(placeholder="the dice rolled at the table: 4 6", id="given"))
        yield row("Damage type", field(placeholder="slashing, fire, ...", id="type"))
        order = self.rules.damage_order
        tracks: list[tuple[str | Text, str]] = [(f"default: {' then '.join(order)}", "")]
        tracks += [(f"{key} first", key) for key in order]
        yield row("Track", Choice(tracks, id="pool"))
        yield Static(id="note")

    def _targets(self) -> list[tuple[str | Text, str]]:
        """Everyone but the attacker, standing first."""
        return combatant_options(self.fight, exclude=(self.who,), standing_first=True)

    def _default_target(self) -> str:
        """The selected row when it is someone else; else the first standing foe; else the first other."""
        f = self.fight
        if self.preset:
            return self.preset
        me = f.find(self.who)
        others = [c for c in picker_order(f) if c.id != self.who]
        foe = next((c for c in others if me is not None and c.side != me.side and not c.down), None)
        return foe.id if foe is not None else (others[0].id if others else "")

    def _weapons(self) -> list[tuple[str | Text, str]]:
        """The attacker's statblock attacks first (by position: two of one name are possible), then
        the catalog's weapon attacks."""
        out: list[tuple[str | Text, str]] = []
        sb = L.statblock_of(self.fight.ruleset, self.target)
        if isinstance(sb, NL.NinePhaseStatblock):
            out += [(strike_label(a), f"sb:{i}") for i, a in enumerate(NL.strikes(sb))]
        for spec in catalog.catalog(self.fight):
            if is_attack(spec):
                label = literal(spec.name)
                kind = "Master" if spec.master else ("reaction" if spec.reaction else "")
                label.append(f"  catalog{' · ' + kind if kind else ''}", style="dim")
                out.append((short(label), f"cat:{spec.name}"))
        return out

    def _strike(self, pick: str) -> NL.NineActivity | None:
        """The statblock activity of option `pick` ("sb:<i>"), None for a catalog entry."""
        if not pick.startswith("sb:"):
            return None
        sb = L.statblock_of(self.fight.ruleset, self.target)
        strikes = NL.strikes(sb) if isinstance(sb, NL.NinePhaseStatblock) else ()
        i = int(pick[3:])
        return strikes[i] if i < len(strikes) else None

    def _values(self, pick: str) -> dict[str, str]:
        """What the chosen attack fills in: a statblock's damage; for a catalog entry, the attacker's
        last attack with it in this fight (its Speed Factor, damage and type), else nothing."""
        strike = self._strike(pick)
        if strike is not None:
            return {"speed": "", "amount": strike.damage, "type": strike.type}
        session = self.fracas.session
        last = last_attack(session.history, self.who, (NineAttack,)) if session is not None else None
        if last is None or last.spec is not None or last.activity.casefold() != pick[4:].casefold():
            return {"speed": "", "amount": "", "type": ""}
        dice = last.dice if last.dice else ("" if last.damage is None else str(last.damage))
        speed = "" if last.speed is None else str(last.speed)
        return {"speed": speed, "amount": dice if last.hit else "", "type": last.type}

    def _fill(self) -> None:
        """Fill the fields of the chosen attack, leaving what the GM typed since the dialog opened."""
        with self.prevent(Input.Changed):
            for wid, value in self._values(self.choice("weapon") or "").items():
                w = self.query_one(f"#{wid}", Input)
                if w.value == self._filled.get(wid, ""):
                    w.value = value
                    self._filled[wid] = value
        self._update()

    def _needs_speed(self) -> bool:
        pick = self.choice("weapon") or ""
        spec = catalog.find(self.fight, pick[4:]) if pick.startswith("cat:") else None
        return spec is not None and spec.weapon

    def on_mount(self) -> None:
        self._fill()
        needs = self._needs_speed() and not self.value("speed").strip()
        self.query_one("#speed" if needs else "#result").focus()

    def user_changed(self) -> None:
        """Another attacker: its own attacks, and a target other than itself."""
        self.retarget("weapon", self._weapons())
        for ch in self.query("#weapon").results(Choice):
            ch.index = 0
        keep = self.choice("target")
        self.retarget("target", self._targets())
        if keep == self.who or not keep:
            self.query_one("#target", Choice).value = self._default_target()
        self._fill()

    @on(Choice.Changed, "#weapon")
    def _weapon_changed(self) -> None:
        if self.is_mounted:
            self._fill()

    @on(Choice.Changed, "#result")
    @on(Input.Changed, "#amount, #type")
    def _changed(self) -> None:
        if self.is_mounted:
            self._update()

    def _update(self) -> None:
        """The Speed Factor only where the activity's phase is the weapon's; the note under the
        fields says what enter will do with the damage."""
        self.query_one("#row-speed").set_class(not self._needs_speed(), "hidden")
        note = Text("")
        hit = self.choice("result")
        if not hit:
            note = Text("A miss deals no damage; the activity is spent all the same.")
        elif not self.value("amount").strip():
            note = Text("A hit: give its damage, a number or dice.")
        elif not self.value("amount").strip().isdigit() and table_rolls(self.fight, self.who):
            note = Text("The table rolls these dice: type them in Table dice.")
        elif not self.value("type").strip() and shown(self.query_one("#type")):
            note = Text("No damage type: dealt untyped (no immunity applies).", style="bold")
        self.query_one("#note", Static).update(note)

    # --- the command ---------------------------------------------------------------------------
    def use(self) -> NineAttack:
        target = self.choice("target") or ""
        if not target:
            raise FormError("Nobody else is in the fight to attack.")
        pick = self.choice("weapon") or ""
        strike = self._strike(pick)
        fields: dict[str, Any] = NL.strike_fields(strike) if strike is not None else {"activity": pick[4:]}
        if strike is None and self._needs_speed():
            speed = optional_int(self.value("speed"), "Weapon Speed Factor", 1, 9)
            if speed is None:
                self.query_one("#speed", Input).focus()
                raise FormError(f"{pick[4:]}: give the weapon's Speed Factor (1-9), its earliest phase.")
            fields["speed"] = speed
        for key in ("dice", "type"):
            fields.pop(key, None)  # the fields as they stand now say the damage
        missed = NineAttack(self.who, target, hit=False, **fields)
        # the rules of acting first (its phase, one turn a phase, actions, the Master Action): a move
        # the rules forbid is said before the damage is asked for (apply is pure: nothing is sent)
        apply(self.fight, missed)
        if not self.choice("result"):
            return missed
        return NineAttack(self.who, target, **fields, **self._damage())

    def _damage(self) -> dict[str, Any]:
        """A hit's damage as typed: a number, or dice the app rolls or the table gives."""
        amount, dice = amount_or_dice(self.value("amount"), "damage")
        given = parse_given(self.value("given"))
        if given is not None and not dice:
            self.query_one("#given", Input).focus()
            raise FormError("Table dice go with a dice expression (like 2d6), not a plain number.")
        self.require_dice(self.who, dice)
        out: dict[str, Any] = {"damage": amount, "dice": dice, "given": given, "type": self.value("type").strip()}
        pool = self.choice("pool")
        if pool:
            out["pool"] = pool
        return out

