"""Mechanics shared by the generic engine and every ruleset: rolls open to the table's dice, amounts,
damage taken along the health tracks.

Sits below engine.core and the rulesets (it imports neither), so any of them can use it.

Every roll a rule makes is open to the table's own dice: a table that rolls at the table enters them.

Every roll a rule makes goes through `roll_or_given`: with nothing given the fight's random state rolls
(and moves on); with `dice` the table's dice are used, validated against the expression, recorded in
the same DiceRoll a generated roll would give and marked `entered`; with `total` (where only the total
matters) the total is checked against the expression's range. Given results never move the random
state, so a fight played with entered dice and one played with seeded dice that fell the same way
differ only in the `entered` marks.

Rolls the engine makes on its own during a command (start-of-turn Bleeding, Burning, the Confused
d10, dangerous terrain) take the table's dice from the command's `rolls` (`GivenRoll`, keyed by who
and what); `engine.core.rolls_due` tells the app, by a dry run, which rolls a command is about to make.
"""

from collections.abc import Callable, Iterable
from fractions import Fraction
from typing import TYPE_CHECKING, NamedTuple

from msgspec.structs import replace

from engine import commands as C
from engine import events as E
from engine.dice import DiceRoll, Expression, Rng, parse, roll
from engine.errors import RuleError
from engine.state import Combatant, Fight, Pool, put, set_pool

if TYPE_CHECKING:
    from engine.ruleset import Ruleset  # typing only: the ruleset base sits above this module

def given_total(expr: Expression, total: int, what: str) -> DiceRoll:
    """A roll of which the table gave only the total: checked against what the dice can make."""
    low, high = expr.minimum(), expr.maximum()
    if not low <= total <= high:
        raise RuleError(f"{what}: {total} is not a possible total for {expr.text} ({low} to {high}).")
    return DiceRoll(expr.text, (), 0, total, True)


def roll_or_given(
    text: str,
    rng: Rng,
    dice: tuple[int, ...] | None = None,
    total: int | None = None,
    what: str = "Roll",
) -> tuple[DiceRoll, Rng]:
    """Roll `text`, or take the table's dice (per die) or total. The returned Rng has moved only if
    the app rolled."""
    expr = parse(text)
    if dice is not None and total is not None:
        raise RuleError(f"{what}: give the dice or the total, not both.")
    if total is not None:
        return given_total(expr, total, what), rng
    try:
        return roll(expr, rng, tuple(dice) if dice is not None else None)
    except RuleError as e:
        raise RuleError(f"{what}: {e}") from None


class GivenRolls:
    """The table's dice for the rolls one command makes on its own, handed out as they come up.

    Lives only while one command is applied. `done` refuses leftovers: a given roll that nothing
    asked for is a mistake the GM should hear about, not something silently ignored.
    """

    def __init__(self, f: Fight, rolls: tuple[C.GivenRoll, ...]) -> None:
        self._left: dict[tuple[str, str], C.GivenRoll] = {}
        for g in rolls:
            who = f.get(g.who)
            key = (g.who, g.what.strip().lower())
            if key in self._left:
                raise RuleError(f"Two entered rolls for {who.name}'s {g.what}: give it once.")
            if g.dice is None and g.total is None:
                raise RuleError(f"The entered roll for {who.name}'s {g.what} has no dice and no total.")
            self._left[key] = g
        self._f = f

    def take(self, who: str, what: str) -> C.GivenRoll | None:
        return self._left.pop((who, what.lower()), None)

    def done(self) -> None:
        if self._left:
            g = next(iter(self._left.values()))
            c = self._f.find(g.who)
            name = c.name if c else g.who
            raise RuleError(f"No {g.what} roll was due for {name} here: that entered roll is not needed.")


def effect_roll(f: Fight, given: GivenRolls | None, who: str, what: str, text: str) -> tuple[DiceRoll, Fight]:
    """A roll the engine makes on its own for `who`'s `what`, or the table's dice for it."""
    g = given.take(who, what) if given is not None else None
    name = f.get(who).name
    r, rng = roll_or_given(text, f.rng, g.dice if g else None, g.total if g else None, f"{name}'s {what} roll")
    return r, (f if g is not None else replace(f, rng=rng))


@E.register_event
class EffectRolled(E.Event, tag="effect_roll"):
    """A roll a condition or hazard made on its own (Bleeding, Burning, Confused, terrain)."""

    who: str
    name: str
    what: str
    roll: DiceRoll
    outcome: str = ""

    def text(self) -> str:
        out = f": {self.outcome}" if self.outcome else ""
        return f"{self.name}, {self.what}: {self.roll.text()}{out}"


def deal_damage(
    rs: "Ruleset",
    f: Fight,
    cid: str,
    rolled: int,
    typ: str,
    r: DiceRoll | None,
    ev: list,
    detail: str = "",
    cmd: C.Damage | None = None,
) -> Fight:
    """How damage lands, for the generic Damage command (`cmd`, its pool and source) and for every rule
    that has rolled its own: a type the target is immune to deals 0, else the ruleset's resistances;
    temporary health first, dropping at 0, and the ruleset's after-damage hook (which sees `cmd`, or a
    Damage of the amount rolled when a rule dealt it)."""
    if cmd is None:
        cmd = C.Damage(who=cid, amount=rolled, type=typ)
    c = f.get(cid)
    if immune_to(c, typ):
        amount, note = 0, f"immune to {typ}"  # before any resistance: nothing is left to halve
    else:
        amount, note = rs.modify_damage(c, rolled, typ)
    new, notes = take_damage(rs, c, amount, cmd.pool)
    if note or notes:
        detail = ", ".join(x for x in (detail, note, notes) if x)
    f = put(f, new)
    ev.append(E.Damaged(c.id, c.name, amount, rolled, typ, detail, r, new.hp))
    if new.down and not c.down:
        f = put(f, replace(new, dropped=(f.round, f.phase)))
        ev.append(E.Dropped(c.id, c.name, rs.dropped_state(f, new)))
        new = f.get(c.id)
    return rs.damage_taken(f, new, amount, cmd, ev)  # `new` is the combatant as it is now in `f`


def immune_to(c: Combatant, typ: str) -> bool:
    """Whether `c` takes no damage of type `typ` (its statblock's damage immunities; any case)."""
    if not typ or not c.immune:
        return False
    low = typ.strip().casefold()
    return any(x.strip().casefold() == low for x in c.immune)


def d20_at_least(need: int, mode: str = "normal") -> Fraction:
    """The exact chance that a d20 (two kept high or low with advantage / disadvantage) shows at
    least `need`."""
    need = max(1, need)
    p = Fraction(max(0, 21 - need), 20) if need <= 20 else Fraction(0)
    if mode == "advantage":
        return 1 - (1 - p) ** 2
    if mode == "disadvantage":
        return p * p
    return p


def sources(names: tuple[str, ...], what: str) -> tuple[str, ...]:
    """GM-named advantage / disadvantage sources: short single lines, kept as typed."""
    out = []
    for n in names:
        n = n.strip()
        if not n or len(n) > 80 or "\n" in n or "\r" in n:
            raise RuleError(f"Name each source of {what} in one short line.")
        out.append(n)
    if len(out) > 20:
        raise RuleError(f"At most 20 sources of {what}.")
    return tuple(out)


# --- damage and amounts, shared by the generic handlers and every ruleset ----------------------


def amount_or_roll(
    f: Fight, amount: int | None, dice: str, given: tuple[int, ...] | None, what: str
) -> tuple[int, DiceRoll | None, Fight]:
    """A number as typed, or a dice expression rolled from the fight's random state."""
    if amount is not None and dice:
        raise RuleError(f"Give the {what} as a number or as dice, not both.")
    if amount is None:
        if not dice:
            raise RuleError(f"How much {what}? Give a number or a dice expression.")
        r, rng = roll(dice, f.rng, given)
        return max(0, r.total), r, (f if given is not None else replace(f, rng=rng))
    if given is not None:
        raise RuleError(f"Entered dice need a dice expression for the {what}.")
    if amount < 0:
        raise RuleError(f"The {what} cannot be negative ({amount}).")
    if amount > 1_000_000:
        raise RuleError(f"{amount} is too much {what}.")
    return amount, None, f


def take_damage(rs: "Ruleset", c: Combatant, amount: int, pool: str = "") -> tuple[Combatant, str]:
    """The health tracks in the ruleset's order (or the one asked for first); on each, its temporary
    health goes before the track itself (nine-phase: Grit, then the temporary points, then Hit Points)."""
    order = rs.damage_order
    if pool:
        keys = [p.key for p in c.health]
        if pool not in keys:
            raise RuleError(f"{c.name} has no '{pool}' track (it has {', '.join(keys)}).")
        order = (pool, *(k for k in order if k != pool))
    left = amount
    health = c.health
    parts: list[str] = []
    for key in order:
        if left <= 0:
            break  # nothing is left to take (`left` only goes down)
        p = None
        for x in health:
            if x.key == key:
                p = x
                break
        if p is None:
            continue
        absorbed = min(p.temp, left)
        left -= absorbed
        take = min(p.current, left) if key != order[-1] else left
        cur = max(0, p.current - take)
        left -= take
        health = set_pool(health, Pool(p.key, cur, p.max, p.temp - absorbed))
        if absorbed:
            parts.append(f"{absorbed} absorbed by temporary {key}")
        if len(c.health) > 1 and take:
            parts.append(f"{take} to {key}")
    return replace(c, health=health), ", ".join(parts)


# --- several targets at once, and what concentration keeps up --------------------------------------


class AreaSave(NamedTuple):
    """A ruleset's saving throw for an effect on several targets (engine/area.py): `name` turns the
    save's key into its name for the log ("dex" -> "Dexterity"), refusing a key it does not know;
    `roll(f, c, key, dc, given, total)` makes `c`'s save (the table's dice or total when given) and
    returns whether it succeeded, the roll as the log shows it, and the fight (its dice moved on);
    `keys`: the saves there are, in the order a dialog offers them."""

    name: Callable[[str], str]
    roll: Callable[[Fight, Combatant, str, int, tuple[int, ...] | None, int | None], tuple[bool, str, Fight]]
    keys: tuple[str, ...] = ()


# ruleset id -> its save for an area effect; a ruleset without one takes the GM's per-target call
AREA_SAVES: dict[str, AreaSave] = {}
# ruleset id -> (the condition a caster holds while keeping effects up, what the log calls it):
# d20's ("Concentrating", "concentration")
SUSTAINING: dict[str, tuple[str, str]] = {}


def register_area_save(ruleset: str, save: AreaSave) -> None:
    AREA_SAVES[ruleset] = save


def register_sustaining(ruleset: str, condition: str, word: str) -> None:
    SUSTAINING[ruleset] = (condition, word)


class KeptUp(NamedTuple):
    """A condition whose keeping-up ended: on `who`, named `name`, kept up by `caster`'s `through`."""

    who: str
    name: str
    caster: str
    through: str


def kept_up_ended(before: Fight, after: Fight, events: Iterable[E.Event]) -> tuple[KeptUp, ...]:
    """The conditions, still on their targets in `after`, that the command which turned `before`
    into `after` (with `events`) left without what kept them up: the caster's sustaining condition
    ended (a failed save, incapacitated, down, removed by hand, expired), was taken up anew (a new
    concentration ends the old one), or the caster left the fight.

    Cheap: only the events are looked at unless one of them ends or renews a condition, or removes a
    combatant; the conditions kept up are then looked for in both states (a command does not scan
    the history)."""
    ended: set[tuple[str, str]] = set()
    gone: set[str] = set()
    for e in events:
        if isinstance(e, E.ConditionEnded):
            ended.add((e.who, e.condition.lower()))
        elif isinstance(e, E.ConditionAdded):
            c = before.find(e.who)
            if c is not None and c.has(e.condition):
                ended.add((e.who, e.condition.lower()))  # taken up anew: the old one is over
        elif isinstance(e, E.Removed):
            gone.add(e.who)
    if not ended and not gone:
        return ()
    out: list[KeptUp] = []
    for c in after.combatants:
        for cond in c.conditions:
            if not cond.through or not cond.source:
                continue
            if cond.source not in gone and (cond.source, cond.through.lower()) not in ended:
                continue
            was = before.find(c.id)
            old = was.condition(cond.name) if was is not None else None
            # only what was kept up before this command: one it added itself is kept up by the new one
            if old is not None and old.source == cond.source and old.through == cond.through:
                out.append(KeptUp(c.id, cond.name, cond.source, cond.through))
    return tuple(out)
