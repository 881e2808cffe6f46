"""Nine-phase: a weapon attack in the current phase, damage included, as one command (one undo step).

The text has the attacker "roll its attack and damage" without saying how a hit is decided, so
Fracas rolls no attack test here: the table says whether it hit (`hit`), and on a hit the damage is a
number, dice the app rolls, or the table's dice (as the `damage` command takes them). The attack is an
activity of this phase under every rule of acting (its phase, one turn a phase, actions left, each
activity once a round, the Master Action): a miss spends it all the same. Its damage lands as any
other damage does (Grit first unless `pool` says otherwise; a target it drops still completes this
phase; a channel inside its window breaks). See docs/rules/ninephase.md, "Weapon attacks".
"""

from typing import TYPE_CHECKING

from engine import commands as C
from engine.commands import Command, Given, register_command
from engine.errors import RuleError
from engine.events import Event, register_event
from engine.mechanics import amount_or_roll, deal_damage
from engine.rules.ninephase import catalog
from engine.state import ActivitySpec, Fight

if TYPE_CHECKING:
    from engine.rules.ninephase.ruleset import NinePhase  # typing only: ruleset.py imports this module


@register_command
class NineAttack(Command, tag="nine_attack"):
    """`who` attacks `target` in the current phase with an activity: the catalog entry `activity`
    (its Speed Factor in `speed` when its phase is "Weapon"), or `spec`, the activity itself (a
    statblock's weapon activity), not looked up in the catalog. `hit` is the table's result; on a hit
    `damage` (a number) or `dice` (+ `given`, the table's dice) of `type`, to the track `pool` first."""

    who: str
    target: str
    activity: str = "Weapon attack"
    spec: ActivitySpec | None = None
    speed: int | None = None
    resource: str = ""  # spent to begin it (bolts, a charm), as do_activity spends it
    amount: int = 1
    hit: bool = True
    damage: int | None = None
    dice: str = ""
    given: Given = None
    type: str = ""
    pool: str = ""


@register_event
class Struck(Event, tag="nine_attack"):
    """The attack's result as the table gave it; the damage follows as its own line."""

    public = True  # the players see a blow land or miss, as they see the damage
    who: str
    name: str
    target: str
    target_name: str
    activity: str
    hit: bool

    def text(self) -> str:
        # short: at 80 columns the pane title holds this and the damage that follows it
        return f"{self.name} {'hits' if self.hit else 'misses'} {self.target_name} with {self.activity}"


def _spec(f: Fight, cmd: NineAttack) -> tuple[ActivitySpec, int | None]:
    """The activity taken and its earliest phase: the one given, or the catalog's entry."""
    spec = cmd.spec if cmd.spec is not None else catalog.find(f, cmd.activity)
    if spec is None:
        raise RuleError(f"There is no activity called {cmd.activity.strip() or '(blank)'} in the catalog.")
    return spec, catalog.earliest(spec, cmd.speed)


def _check_damage(cmd: NineAttack) -> None:
    """A hit needs its damage; a miss deals none, so it takes none (a number or dice would be lost)."""
    if cmd.hit:
        if cmd.damage is None and not cmd.dice.strip():
            raise RuleError("A hit needs its damage: a number, or dice.")
        return
    if cmd.damage is not None or cmd.dice.strip() or cmd.given is not None or cmd.type or cmd.pool:
        raise RuleError("A miss deals no damage: leave its damage out.")


def attack(rs: "NinePhase", f: Fight, cmd: NineAttack, ev: list[Event]) -> Fight:
    """The activity taken (every rule of acting checked first), the result, then the damage on a hit."""
    if not f.started or f.ended:
        raise RuleError("The fight is not under way.")
    c = f.get(cmd.who)
    t = f.get(cmd.target)
    if t.id == c.id:
        raise RuleError(f"{c.name} cannot attack itself.")
    spec, earliest = _spec(f, cmd)
    _check_damage(cmd)
    f = rs.perform(f, c.id, spec, earliest, ev, rs.spend_of(cmd.resource, cmd.amount))
    ev.append(Struck(c.id, c.name, t.id, t.name, spec.name, cmd.hit))
    if not cmd.hit:
        return f
    rolled, r, f = amount_or_roll(f, cmd.damage, cmd.dice, cmd.given, "damage")
    hit = C.Damage(t.id, rolled, type=cmd.type, pool=cmd.pool, source=c.id)
    return deal_damage(rs, f, t.id, rolled, cmd.type, r, ev, cmd=hit)
