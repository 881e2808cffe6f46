"""Cosmere in depth: attacks (one test and one damage roll against any number of targets, each judged
on its own: miss, graze for 1 focus, hit, critical for an Opportunity), falling, dangerous terrain.

Each table action is one command, so one undo takes all of it back (rolls, damage, focus). The
choices made after seeing the dice (whom to graze, whether to spend an Opportunity) are fields of the
same command: the dialog shows the outcome first with `outcome_preview` (a dry run: `apply` is pure
and the random state lives in the fight, so the real command rolls the very same dice), then sends
the command with the choices. Every roll takes the table's dice instead. Decisions where the text is
silent are in docs/rules/cosmere.md.
"""

import re
from fractions import Fraction
from typing import TYPE_CHECKING, ClassVar

import msgspec
from msgspec.structs import replace

from engine import commands as C
from engine import events as E
from engine.commands import Given
from engine.core import apply
from engine.dice import DiceRoll, parse, roll
from engine.errors import RuleError
from engine.mechanics import EffectRolled, GivenRolls, d20_at_least, deal_damage, effect_roll, roll_or_given, sources
from engine.ruleset import Events
from engine.state import Combatant, Condition, Fight, put, set_pool

if TYPE_CHECKING:
    from engine.rules.cosmere.ruleset import Cosmere  # typing only: ruleset.py imports this module

DEFENSES = {"phy": "Physical", "cog": "Cognitive", "spi": "Spiritual"}
USES = ("action", "reaction", "none")
TERRAIN = "In dangerous terrain"


def _started(f: Fight) -> None:
    if not f.started:
        raise RuleError("The fight has not started yet: start it first.")
    if f.ended:
        raise RuleError("The fight is over.")


def _one_of(value: str, allowed: tuple[str, ...], what: str) -> str:
    if value not in allowed:
        raise RuleError(f"{what} is one of {', '.join(a or 'none' for a in allowed)}, not '{value}'.")
    return value


# --- commands and events ------------------------------------------------------------------------


@C.register_command
class CosmereAttack(C.Command, tag="cosmere_attack"):
    """An attack: one test (d20 + `modifier`) and one damage roll against every target's `defense`.

    use: action (the named `action`, costing `cost`) | reaction (Reactive Strike: the reaction and
    1 focus, melee, Physical defense, one enemy) | none (already paid for). Situation: `in_reach` (a
    ranged attack while within an enemy's reach), `long_range`, `unstable` footing (ranged attacks),
    `unsensed` targets it cannot sense. Choices after the roll: `graze` (missed targets, 1 focus
    each), `critical` (spend an Opportunity: damage dice count as their highest, for every target).
    Table dice: `given` the d20 (two when any target has advantage or disadvantage) or `total` (one
    d20: the test's total); `damage_given` each damage die or `damage_total`.

    Range (optional): `range` is the weapon's "short/long" range for a ranged attack, or its reach for
    a melee one (5 ft when not given); `distance` the feet to each target (one number for all). A
    target beyond the range or reach is refused; one beyond the short range gives a disadvantage.
    `ally`: a ranged attack on a target within 5 ft of this ally of the attacker raises the stakes
    (the table rolls the plot die); `ally_graze`: the attack missed and the GM spends the Complication
    rolled: the ally takes the damage dice as a graze, no focus spent.
    """

    who: str
    targets: tuple[str, ...]
    defense: str = "phy"
    modifier: int = 0
    damage: str = ""
    type: str = ""
    kind: str = "melee"
    use: str = "action"
    action: str = "Strike"
    cost: int = 1
    label: str = ""
    in_reach: bool = False
    long_range: bool = False
    unstable: bool = False
    unsensed: tuple[str, ...] = ()
    advantage: tuple[str, ...] = ()
    disadvantage: tuple[str, ...] = ()
    mode: str = ""
    graze: tuple[str, ...] = ()
    critical: bool = False
    given: Given = None
    total: int | None = None
    damage_given: Given = None
    damage_total: int | None = None
    range: str = ""
    distance: tuple[int, ...] = ()
    ally: str = ""
    ally_graze: bool = False


@C.register_command
class Fall(C.Command, tag="cosmere_fall"):
    """A fall of `feet`: 1d6 impact damage per 10 ft from 10 ft up, and Prone if it hurt."""

    who: str
    feet: int
    given: Given = None
    total: int | None = None


@C.register_command
class EnterTerrain(C.Command, tag="cosmere_terrain"):
    """Moving into dangerous terrain: its damage now, and again at the start of each turn there (the
    "Dangerous terrain" condition, removed when it leaves)."""

    who: str
    damage: str
    label: str = "dangerous terrain"
    given: Given = None
    total: int | None = None


@C.register_command
class Grant(C.Command, tag="cosmere_grant"):
    """A talent or other effect grants `actions` more actions (on its own turn; lost at the end of it
    like the others) and / or `reactions` more reactions (until the start of its next turn)."""

    who: str
    actions: int = 0
    reactions: int = 0
    label: str = ""


@E.register_event
class CosmereAttackRolled(E.Event, tag="cosmere_attack"):
    summary_rank: ClassVar[int] = 1  # each target's result (hit, graze, miss) and damage come first
    who: str
    name: str
    test: DiceRoll
    modifier: int
    defense: str
    damage: DiceRoll | None = None
    label: str = ""
    use: str = "action"
    critical: bool = False
    ally_name: str = ""  # an ally within 5 ft of the target: the stakes are raised
    ally_graze: bool = False  # the GM spent the Complication: the ally is grazed

    def text(self) -> str:
        how = f" with {self.label}" if self.label else ""
        rs = " (Reactive Strike)" if self.use == "reaction" else ""
        dmg = f"; damage {self.damage.text()}" if self.damage else ""
        crit = "; spends an Opportunity: critical, damage dice at their highest" if self.critical else ""
        if self.ally_name:
            crit += f"; the target is within 5 ft of {self.ally_name}: the stakes are raised (plot die)"
        if self.ally_graze:
            crit += f"; the GM spends the Complication: {self.ally_name} is grazed"
        dice = self.test.terms[0].rolls if self.test.terms else ()
        shown = f"d20 {dice[0]}" if len(dice) == 1 else "d20s " + ", ".join(map(str, dice))
        entered = " (entered)" if self.test.entered else ""
        return (
            f"{self.name} attacks{how}{rs} against {DEFENSES.get(self.defense, self.defense)} defense: "
            f"test {shown}{entered}, {self.modifier:+d}{dmg}{crit}"
        )


@E.register_event
class TargetResult(E.Event, tag="cosmere_target"):
    """How one target of an attack fared."""

    who: str
    target: str
    target_name: str
    natural: int
    total: int
    defense: int
    outcome: str  # hit | miss | graze | critical (a critical hit) | critical graze
    damage: int = 0
    mode: str = "normal"
    advantages: tuple[str, ...] = ()
    disadvantages: tuple[str, ...] = ()
    override: bool = False
    sensed: bool = True

    def text(self) -> str:
        parts = []
        if self.override:
            parts.append(f"{self.mode} (GM's call)")
        else:
            if self.advantages:
                parts.append("advantage: " + ", ".join(self.advantages))
            if self.disadvantages:
                parts.append("disadvantage: " + ", ".join(self.disadvantages))
            if self.advantages and self.disadvantages:
                parts.append(f"net {self.mode}")
        if self.mode != "normal" and not self.override:
            parts.append(f"kept {self.natural}")
        why = f" ({'; '.join(parts)})" if parts else ""
        dmg = f", {self.damage} damage" if self.outcome != "miss" else ""
        return f"  {self.target_name}: {self.total} vs {self.defense}: {self.outcome}{dmg}{why}"


# --- advantage and the odds -------------------------------------------------------------------------


def net_mode(adv: tuple[str, ...], dis: tuple[str, ...], override: str = "") -> str:
    """Each advantage cancels one disadvantage; whatever is left decides (more than one left still
    means two d20s)."""
    if override:
        return override
    n = len(adv) - len(dis)
    return "advantage" if n > 0 else "disadvantage" if n < 0 else "normal"


def hit_chance(modifier: int, defense: int, mode: str = "normal") -> Fraction:
    """Exact chance that d20 + `modifier` meets `defense` (advantage: the higher of two d20s,
    disadvantage the lower). A critical is a choice (an Opportunity), not a die result, so it has no
    chance of its own here; grazes turn misses into damage for focus."""
    return d20_at_least(defense - modifier, mode)


class TargetOdds(msgspec.Struct, frozen=True):
    target: str
    name: str
    defense: int
    mode: str
    advantages: tuple[str, ...]
    disadvantages: tuple[str, ...]
    p_hit: Fraction
    can_graze: bool


def _target_sources(
    a: Combatant,
    t: Combatant,
    cmd: CosmereAttack,
    common: tuple[tuple[str, ...], tuple[str, ...]],
    distances: dict[str, int] | None = None,
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    adv, dis = list(common[0]), list(common[1])
    far = (distances or {}).get(t.id)
    rng = _range(cmd)
    if far is not None and rng is not None and far > rng[0]:
        dis.append(f"long range ({far} ft, beyond {rng[0]} ft)")
    if t.id in cmd.unsensed:
        dis.append(f"cannot sense {t.name}")
    if t.has("Braced"):
        dis.append(f"{t.name} is Braced behind cover")
    if t.has("Squeezing"):
        adv.append(f"{t.name} is squeezing through a small space")
    return tuple(adv), tuple(dis)


def _common_sources(cmd: CosmereAttack) -> tuple[tuple[str, ...], tuple[str, ...]]:
    dis: list[str] = []
    if cmd.in_reach:
        dis.append("ranged attack within an enemy's reach")
    if cmd.long_range:
        dis.append("long range")
    if cmd.unstable:
        dis.append("unstable footing")
    return sources(cmd.advantage, "advantage"), tuple(dis) + sources(cmd.disadvantage, "disadvantage")


RANGE = re.compile(r"([0-9]{1,5})(?:\s*/\s*([0-9]{1,5}))?", re.ASCII)  # ASCII digits only


def _range(cmd: CosmereAttack) -> tuple[int, int] | None:
    """(short, long) in feet: a ranged weapon's short and long range, or a melee attack's reach (5 ft
    unless given) twice. None for a ranged attack whose range was not given."""
    text = cmd.range.strip()
    if not text:
        return (5, 5) if cmd.kind == "melee" else None
    m = RANGE.fullmatch(text)
    if m is None:
        what = "short/long like 20/60 (a melee attack: its reach, like 10)"
        raise RuleError(f"A range is in feet, {what}, not '{text}'.")
    if cmd.kind == "melee" and m[2]:
        raise RuleError("A melee attack's range is its reach: one number of feet, like 5 or 10.")
    short = int(m[1])
    long = int(m[2]) if m[2] else short
    if not 0 < short <= long <= 10_000:
        raise RuleError(f"A range runs from a short range to a longer one, up to 10,000 ft, not '{text}'.")
    return short, long


def _distances(cmd: CosmereAttack, targets: list[Combatant]) -> dict[str, int]:
    """Target id -> its distance in feet, checked against the reach or the long range."""
    given = cmd.distance
    if not given:
        return {}
    if len(given) == 1:
        given = given * len(targets)
    if len(given) != len(targets):
        raise RuleError(f"Give one distance for each of the {len(targets)} targets, or one for all of them.")
    if any(not 0 <= x <= 10_000 for x in given):
        raise RuleError("A distance is between 0 and 10,000 ft.")
    if cmd.long_range:
        raise RuleError("Give the distance or tick long range, not both: the distance decides.")
    rng = _range(cmd)
    if rng is None:
        raise RuleError("A ranged attack needs the weapon's range (like 20/60) to judge a distance.")
    for t, x in zip(targets, given, strict=True):
        if x > rng[1]:
            what = "reach" if cmd.kind == "melee" else "long range" if rng[0] < rng[1] else "range"
            raise RuleError(f"{t.name} is {x} ft away, beyond the {what} of {rng[1]} ft: out of reach of this attack.")
    return {t.id: x for t, x in zip(targets, given, strict=True)}


# the attack's fields that name one of a few choices: (field, allowed, what)
_CHOICES: tuple[tuple[str, tuple[str, ...], str], ...] = (
    ("defense", tuple(DEFENSES), "The defense"),
    ("kind", ("melee", "ranged"), "An attack"),
    ("use", USES, "An attack's use"),
    ("mode", ("", "normal", "advantage", "disadvantage"), "The test"),
)


def _check_targets(f: Fight, a: Combatant, cmd: CosmereAttack) -> list[Combatant]:
    """The targets: one to 50 combatants, each named once, not the attacker."""
    if not cmd.targets:
        raise RuleError("Choose at least one target.")
    if len(cmd.targets) > 50:
        raise RuleError("An attack can have at most 50 targets.")
    if len(set(cmd.targets)) != len(cmd.targets):
        raise RuleError("Each target is named once.")
    targets = [f.get(t) for t in cmd.targets]
    if a.id in cmd.targets:
        raise RuleError(f"{a.name} cannot attack itself.")
    return targets


def _check_fields(cmd: CosmereAttack) -> None:
    """The command's own fields: known choices, the ranged-only situations, believable numbers."""
    for field, allowed, what in _CHOICES:
        _one_of(getattr(cmd, field), allowed, what)
    for flag, what in (
        (cmd.in_reach, "within an enemy's reach"),
        (cmd.long_range, "at long range"),
        (cmd.unstable, "on unstable footing"),
    ):
        if flag and cmd.kind != "ranged":
            raise RuleError(f"Only a ranged attack suffers for being {what}.")
    for u in cmd.unsensed:
        if u not in cmd.targets:
            raise RuleError("Only a target of the attack can be one it cannot sense.")
    if abs(cmd.modifier) > 100:
        raise RuleError(f"{cmd.modifier:+d} is not a believable skill modifier.")
    if len(cmd.type) > 40 or len(cmd.label) > 80:
        raise RuleError("Keep the damage type and the label short.")
    if cmd.damage:
        parse(cmd.damage)


def _check_ally(f: Fight, a: Combatant, cmd: CosmereAttack) -> None:
    """Raising the stakes: a ranged attack's Complication may graze an ally of the attacker near the target."""
    if not (cmd.ally or cmd.ally_graze):
        return
    if cmd.kind != "ranged":
        raise RuleError("Only a ranged attack raises the stakes for an ally near its target.")
    if not cmd.ally:
        raise RuleError("Name the ally within 5 ft of the target that the Complication grazes.")
    ally = f.get(cmd.ally)
    if ally.id == a.id or ally.id in cmd.targets:
        raise RuleError(f"{ally.name} is not an ally beside the target: name someone who is not attacked.")
    if ally.side != a.side:
        raise RuleError(f"{ally.name} is not {a.name}'s ally.")


def _check_reactive_strike(a: Combatant, targets: list[Combatant], cmd: CosmereAttack) -> None:
    """Reactive Strike: one melee attack against one enemy's Physical defense."""
    if cmd.use != "reaction":
        return
    t = targets[0]
    if len(targets) != 1 or cmd.kind != "melee" or cmd.defense != "phy":
        raise RuleError("Reactive Strike is one melee attack against one enemy's Physical defense.")
    if t.side == a.side:
        raise RuleError(f"Reactive Strike is made against an enemy, and {t.name} is on {a.name}'s side.")


def _validate(f: Fight, cmd: CosmereAttack) -> tuple[Combatant, list[Combatant]]:
    """Everything the rules refuse about an attack, checked before anything is paid or rolled."""
    a = f.get(cmd.who)
    targets = _check_targets(f, a, cmd)
    _check_fields(cmd)
    _range(cmd)
    _distances(cmd, targets)
    _check_ally(f, a, cmd)
    _check_reactive_strike(a, targets, cmd)
    if a.down:
        raise RuleError(f"{a.name} is down and cannot attack.")
    return a, targets


def attack_preview(f: Fight, cmd: CosmereAttack) -> tuple[TargetOdds, ...]:
    """The odds against each target before anything is rolled. Raises RuleError for an attack the
    rules do not allow (with the reason)."""
    a, targets = _validate(f, cmd)
    common = _common_sources(cmd)
    distances = _distances(cmd, targets)
    out = []
    for t in targets:
        adv, dis = _target_sources(a, t, cmd, common, distances)
        mode = net_mode(adv, dis, cmd.mode)
        d = t.stat(cmd.defense, 10)
        out.append(
            TargetOdds(t.id, t.name, d, mode, adv, dis, hit_chance(cmd.modifier, d, mode), t.id not in cmd.unsensed)
        )
    return tuple(out)


def outcome_preview(f: Fight, cmd: CosmereAttack) -> tuple[TargetResult, ...]:
    """The outcome of the roll against each target before the choices (graze, critical) are made: a
    dry run of the command without them. Sending the command with the choices rolls the same dice."""
    bare = replace(cmd, graze=(), critical=False, ally_graze=False)
    _, events = apply(f, bare)
    return tuple(e for e in events if isinstance(e, TargetResult))


# --- resolving an attack ----------------------------------------------------------------------------


def _spend_focus(f: Fight, cid: str, n: int, why: str, ev: Events) -> Fight:
    c = f.get(cid)
    p = c.pool("focus")
    have = p.current if p else 0
    if have < n:
        raise RuleError(f"{why} costs {n} focus and {c.name} has {have}.")
    assert p is not None
    f = put(f, replace(c, resources=set_pool(c.resources, replace(p, current=p.current - n))))
    ev.append(E.ResourceChanged(c.id, c.name, "focus", -n, p.current - n))
    return f


def _test_dice(f: Fight, cmd: CosmereAttack, n: int) -> tuple[DiceRoll, Fight]:
    if cmd.total is not None:
        if cmd.given is not None:
            raise RuleError("The attack test: give the d20 or the total, not both.")
        if n != 1:
            raise RuleError("With an advantage or disadvantage in play, enter both d20s, not a total.")
        natural = cmd.total - cmd.modifier
        if not 1 <= natural <= 20:
            low, high = 1 + cmd.modifier, 20 + cmd.modifier
            raise RuleError(f"The attack test: {cmd.total} is not possible with {cmd.modifier:+d} ({low} to {high}).")
        r, _ = roll("1d20", f.rng, (natural,))
        return r, f
    if cmd.given is not None and len(cmd.given) != n:
        why = " (an advantage or disadvantage is in play)" if n == 2 else ""
        raise RuleError(f"The attack test rolls {n} d20{'s' if n > 1 else ''}{why}: enter {n}.")
    r, rng = roll_or_given(f"{n}d20", f.rng, cmd.given, None, "The attack test")
    return r, (f if cmd.given is not None else replace(f, rng=rng))


# one target's plan before the roll: (target, advantages, disadvantages, net mode)
Plan = tuple[Combatant, tuple[str, ...], tuple[str, ...], str]
# one target's result: the plan, then the die it reads, the test total, its defense, hit or not
Result = tuple[Combatant, tuple[str, ...], tuple[str, ...], str, int, int, int, bool]


def _plans(a: Combatant, targets: list[Combatant], cmd: CosmereAttack) -> list[Plan]:
    """Advantages and disadvantages: the attack's own, then each target's (range, senses, cover)."""
    common = _common_sources(cmd)
    distances = _distances(cmd, targets)
    plans = []
    for t in targets:
        adv, dis = _target_sources(a, t, cmd, common, distances)
        plans.append((t, adv, dis, net_mode(adv, dis, cmd.mode)))
    return plans


def _pay(rs: "Cosmere", f: Fight, a: Combatant, cmd: CosmereAttack, ev: Events) -> Fight:
    """The cost: the named action, or the reaction (and focus) of a Reactive Strike, or nothing."""
    if cmd.use == "action":
        return rs.use(f, C.UseAction(a.id, "action", cmd.action.strip() or "Strike", cost=cmd.cost), ev)
    if cmd.use == "reaction":
        return rs.use(f, C.UseAction(a.id, "reaction", "Reactive Strike"), ev)
    return f


def _damage_dice(f: Fight, cmd: CosmereAttack) -> tuple[DiceRoll | None, Fight]:
    """The damage roll, made with the test whatever is chosen afterwards (None: no damage dice)."""
    if cmd.damage:
        dmg, rng = roll_or_given(cmd.damage, f.rng, cmd.damage_given, cmd.damage_total, "Damage")
        if cmd.damage_given is None and cmd.damage_total is None:
            f = replace(f, rng=rng)
        return dmg, f
    if cmd.damage_given is not None or cmd.damage_total is not None:
        raise RuleError("No damage to enter: the attack has no damage dice.")
    return None, f


def _judge(plans: list[Plan], dice: tuple[int, ...], cmd: CosmereAttack) -> list[Result]:
    """Each target on its own: the higher die with an advantage, the lower with a disadvantage, plus
    the modifier, against its defense (a hit when it meets it)."""
    results = []
    for t, adv, dis, mode in plans:
        nat = max(dice) if mode == "advantage" else min(dice) if mode == "disadvantage" else dice[0]
        d = t.stat(cmd.defense, 10)
        total = nat + cmd.modifier
        results.append((t, adv, dis, mode, nat, total, d, total >= d))
    return results


def _check_choices(a: Combatant, results: list[Result], cmd: CosmereAttack) -> None:
    """The choices made after the roll: a critical needs a hit; a graze (1 focus each) a sensed,
    missed target and damage dice; the ally's graze a miss."""
    if cmd.critical and not any(r[7] for r in results):
        raise RuleError("A critical needs a hit: every target was missed.")
    if len(set(cmd.graze)) != len(cmd.graze):
        raise RuleError("Graze each target once.")
    for g in cmd.graze:
        r = next((x for x in results if x[0].id == g), None)
        if r is None:
            raise RuleError("Only a target of the attack can be grazed.")
        if r[7]:
            raise RuleError(f"{r[0].name} was hit: there is nothing to graze.")
        if g in cmd.unsensed:
            raise RuleError(f"{r[0].name} cannot be grazed: {a.name} cannot sense it.")
        if not cmd.damage:
            raise RuleError("A graze deals the damage dice, and this attack has none.")
    if cmd.ally_graze:
        if all(r[7] for r in results):
            raise RuleError("The Complication grazes the ally only when the attack misses: it hit every target.")
        if not cmd.damage:
            raise RuleError("A graze deals the damage dice, and this attack has none.")


def _outcome(cmd: CosmereAttack, hit: bool, grazed: bool, dice_value: int, dmg: DiceRoll | None) -> tuple[str, int]:
    """A target's outcome (miss, graze, hit; critical with an Opportunity spent) and its damage: a
    hit deals the dice plus the modifier, a graze the dice alone."""
    outcome = "hit" if hit else "graze" if grazed else "miss"
    amount = 0
    if hit and dmg is not None:
        # no damage dice given: the GM rolls no damage (the modifier alone is not damage)
        amount = max(0, dice_value + cmd.modifier)
    elif grazed:
        amount = max(0, dice_value)
    if cmd.critical and outcome != "miss":
        outcome = "critical" if hit else "critical graze"
    return outcome, amount


def _resolve_target(
    rs: "Cosmere",
    f: Fight,
    a: Combatant,
    cmd: CosmereAttack,
    result: Result,
    grazed: bool,
    dmg: DiceRoll | None,
    dice_value: int,
    ev: Events,
) -> Fight:
    """One target's result, and its damage when it was hit or grazed."""
    t, adv, dis, mode, nat, total, d, hit = result
    outcome, amount = _outcome(cmd, hit, grazed, dice_value, dmg)
    ev.append(
        TargetResult(
            a.id,
            t.id,
            t.name,
            nat,
            total,
            d,
            outcome,
            amount,
            mode,
            adv,
            dis,
            bool(cmd.mode),
            t.id not in cmd.unsensed,
        )
    )
    if outcome != "miss" and dmg is not None:
        mod = f" {'+' if cmd.modifier > 0 else '-'} {abs(cmd.modifier)}" if hit and cmd.modifier else ""
        how = f"{outcome}: {dice_value}{mod}"
        f = deal_damage(rs, f, t.id, amount, cmd.type, None, ev, f"{a.name}'s {how}")
    return f


def attack(rs: "Cosmere", f: Fight, cmd: CosmereAttack, ev: Events) -> Fight:
    """The attack: plan, pay, roll the test and the damage together, judge each target, check the
    choices, then the grazes' focus, each target's damage and the ally's graze."""
    _started(f)
    a, targets = _validate(f, cmd)
    plans = _plans(a, targets, cmd)
    f = _pay(rs, f, a, cmd, ev)  # pay first: a refused payment leaves nothing rolled
    # the test and the damage dice are rolled together, whatever is chosen afterwards
    n = 2 if any(p[3] != "normal" for p in plans) else 1
    test, f = _test_dice(f, cmd, n)
    dmg, f = _damage_dice(f, cmd)
    results = _judge(plans, test.terms[0].rolls, cmd)
    _check_choices(a, results, cmd)
    ally = f.get(cmd.ally) if cmd.ally else None
    ev.append(
        CosmereAttackRolled(
            a.id,
            a.name,
            test,
            cmd.modifier,
            cmd.defense,
            dmg,
            cmd.label,
            cmd.use,
            cmd.critical,
            ally.name if ally else "",
            cmd.ally_graze,
        )
    )
    graze = set(cmd.graze)
    if graze:
        f = _spend_focus(f, a.id, len(graze), f"Grazing {len(graze)} target{'s' if len(graze) > 1 else ''}", ev)
    dice_value = 0
    if dmg is not None:
        dice_value = parse(cmd.damage).maximum() if cmd.critical else dmg.total
    for result in results:
        f = _resolve_target(rs, f, a, cmd, result, result[0].id in graze, dmg, dice_value, ev)
    if cmd.ally_graze and ally is not None and dmg is not None:
        # the ally is not a target of the attack: its graze is the dice as rolled, never maximised
        f = deal_damage(rs, f, ally.id, max(0, dmg.total), cmd.type, None, ev, f"{a.name}'s miss grazes its ally")
    return f


# --- granted actions and reactions -----------------------------------------------------------------


def grant(rs: "Cosmere", f: Fight, cmd: Grant, ev: Events) -> Fight:
    _started(f)
    c = f.get(cmd.who)
    label = cmd.label.strip()
    if len(label) > 80 or "\n" in label:
        raise RuleError("Name what grants them in one short line.")
    if not (0 <= cmd.actions <= 3 and 0 <= cmd.reactions <= 3) or not (cmd.actions or cmd.reactions):
        raise RuleError("Grant 1 to 3 actions and/or 1 to 3 reactions.")
    if cmd.actions and f.current != c.id:
        raise RuleError(f"Actions are gained and spent on one's own turn, and it is not {c.name}'s turn.")
    e = c.economy
    f = put(f, replace(c, economy=replace(e, actions=e.actions + cmd.actions, reactions=e.reactions + cmd.reactions)))
    c = f.get(c.id)
    parts = []
    if cmd.actions:
        parts.append(f"{cmd.actions} more action{'s' if cmd.actions != 1 else ''}")
    if cmd.reactions:
        parts.append(f"{cmd.reactions} more reaction{'s' if cmd.reactions != 1 else ''}")
    why = f" ({label})" if label else ""
    ev.append(E.Info(f"{c.name} gains {' and '.join(parts)}{why}; {rs.describe_economy(c)}", c.id))
    return f


# --- falling and terrain ------------------------------------------------------------------------------


def fall(rs: "Cosmere", f: Fight, cmd: Fall, ev: Events) -> Fight:
    c = f.get(cmd.who)
    if not 0 <= cmd.feet <= 10_000:
        raise RuleError(f"A fall is between 0 and 10,000 ft, not {cmd.feet}.")
    n = cmd.feet // 10
    if n == 0:
        if cmd.given is not None or cmd.total is not None:
            raise RuleError("A fall of under 10 ft does no damage: there are no dice to enter.")
        ev.append(E.Info(f"{c.name} falls {cmd.feet} ft: under 10 ft, no damage", c.id))
        return f
    r, rng = roll_or_given(f"{n}d6", f.rng, cmd.given, cmd.total, "Falling damage")
    if cmd.given is None and cmd.total is None:
        f = replace(f, rng=rng)
    f = deal_damage(rs, f, c.id, r.total, "impact", r, ev, f"fell {cmd.feet} ft")
    c = f.get(c.id)
    if r.total > 0 and not c.has("Prone"):
        f = put(f, replace(c, conditions=c.conditions + (Condition("Prone"),)))
        ev.append(E.ConditionAdded(c.id, c.name, "Prone", "landed hurt"))
    return f


def enter_terrain(rs: "Cosmere", f: Fight, cmd: EnterTerrain, ev: Events) -> Fight:
    c = f.get(cmd.who)
    label = cmd.label.strip() or "dangerous terrain"
    if len(label) > 80 or "\n" in label:
        raise RuleError("Name the terrain in one short line.")
    parse(cmd.damage)
    r, rng = roll_or_given(cmd.damage, f.rng, cmd.given, cmd.total, f"{label.capitalize()} damage")
    if cmd.given is None and cmd.total is None:
        f = replace(f, rng=rng)
    kept = tuple(x for x in c.conditions if x.name != TERRAIN)
    cond = Condition(TERRAIN, dice=cmd.damage, note=label)
    f = put(f, replace(c, conditions=kept + (cond,)))
    ev.append(E.ConditionAdded(c.id, c.name, TERRAIN, f"{label}, {cmd.damage} on entering and each turn start"))
    return deal_damage(rs, f, c.id, max(0, r.total), "", r, ev, f"moved into {label}")


def start_effects(rs: "Cosmere", f: Fight, cid: str, ev: Events, given: GivenRolls | None) -> Fight:
    """The start of a turn in dangerous terrain: its damage again."""
    cond = f.get(cid).condition(TERRAIN)
    if cond is None:
        return f
    label = cond.note or "dangerous terrain"
    if not cond.dice:
        ev.append(E.Info(f"{f.get(cid).name} starts its turn in {label}: apply its damage", cid))
        return f
    r, f = effect_roll(f, given, cid, TERRAIN, cond.dice)
    c = f.get(cid)
    ev.append(EffectRolled(c.id, c.name, TERRAIN, r, label))
    return deal_damage(rs, f, cid, max(0, r.total), "", None, ev, f"starts its turn in {label}")


def is_boss(c: Combatant) -> bool:
    # asked of everyone at every turn's end and phase: most have no flags at all
    return bool(c.flags) and any(x.lower() == "boss" for x in c.flags)
