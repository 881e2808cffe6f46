"""d20 in depth: attacks, Shield Bash, saves and checks, grapples, concentration, the conditions that
act on their own, and the turn parts (two weapons, opportunity attacks, Ready, Dash, Disengage, Dodge).

Each table action is one command, so one undo takes all of it back (the rolls, the damage, the
conditions it caused). Every roll takes the table's dice instead (`given` per die, or `total` where only
the total matters). The attack dialog calls the pure functions `attack_preview`, `hit_chance` and
`test_chance` to show the odds before anything is rolled. Decisions where the text is silent are in
docs/rules/d20.md.
"""

import re
from fractions import Fraction
from typing import TYPE_CHECKING

import msgspec
from msgspec.structs import replace

from engine import commands as C
from engine import events as E
from engine import pools
from engine.commands import Given
from engine.dice import DiceRoll, first_d20, parse
from engine.errors import RuleError
from engine.mechanics import (
    AreaSave,
    EffectRolled,
    GivenRolls,
    d20_at_least,
    deal_damage,
    effect_roll,
    register_area_save,
    register_sustaining,
    roll_or_given,
    sources,
)
from engine.pools import RECHARGE, is_recharge
from engine.ruleset import Events, expire, remove_condition
from engine.state import Combatant, Condition, Due, Duration, Fight, condition_names, put

if TYPE_CHECKING:
    from engine.rules.d20.ruleset import D20  # typing only: ruleset.py imports this module

ABILITIES = {
    "str": "Strength",
    "dex": "Dexterity",
    "con": "Constitution",
    "int": "Intelligence",
    "wis": "Wisdom",
    "cha": "Charisma",
}
# conditions that leave a creature unable to take actions or reactions (Stunned: it loses its turn
# and cannot react, which is the same thing); being any of them ends concentration
INCAPACITATING = ("Incapacitated", "Unconscious", "Stunned")
NO_REACTIONS = (*INCAPACITATING, "Confused")
SPEED_ZERO = ("Grappled", "Restrained")
COVER = {"": 0, "half": 2, "three-quarters": 5}
ATTACK_USES = ("action", "power", "bonus", "offhand", "opportunity", "readied", "none")
# the text's actions that are not attack rolls: a readied one is taken with d20_release
NOT_ATTACKS = ("dash", "disengage", "dodge", "help", "hide", "search", "ready", "use an item")
PUT_OUT = "Put out fire"  # the action that ends Burning
PICK_UP = "Pick up weapon"  # the move or action that ends Disarmed
STAND_UP = "Stand up"  # the move (half the speed) that ends Prone
# marks a Confused turn whose d10 came up 7-8: the action is kept for one melee attack
CONFUSED_ATTACK = "Confused: a melee attack only"
CONFUSED_OUTCOMES = (
    (1, 1, "moves its full speed in a random direction and takes no action"),
    (2, 6, "does not move or act this turn"),
    (7, 8, "makes a melee attack against a random creature within its reach (nothing if none is)"),
    (9, 10, "acts normally"),
)


def mod(score: int) -> int:
    return (score - 10) // 2


def has_stat(c: Combatant, key: str) -> bool:
    return any(k == key for k, _ in c.stats)


def exhaustion(c: Combatant) -> int:
    if not c.conditions:
        return 0  # most have none: no call to look
    cond = c.condition("Exhaustion")
    return cond.level if cond else 0


def str_mod(c: Combatant) -> int:
    return mod(c.stat("str", 10))


def save_bonus(c: Combatant, ability: str) -> int:
    """A save's bonus: the `<ability>_save` stat where there is one, else the ability's modifier
    where the score is known, else 0. A save stat of 0 next to a known score counts as not given:
    `con_save` is on every sheet with 0 by default, and a Con 16 creature saves at +3, not +0."""
    key = f"{ability}_save"
    if has_stat(c, key) and (c.stat(key) != 0 or not has_stat(c, ability)):
        return c.stat(key)
    if has_stat(c, ability):
        return mod(c.stat(ability))
    return 0


def attack_bonus(c: Combatant, ability: str, kind: str = "melee", power: bool = False, proficient: bool = True) -> int:
    """The attack bonus the rules give: for a weapon, the Strength modifier (Dexterity for a ranged
    or finesse weapon) plus the proficiency bonus when proficient with it; for a power, the casting
    ability's modifier plus the proficiency bonus. Scores come from the stats (10 when not given)."""
    ability = ability.lower()
    if ability not in ABILITIES:
        raise RuleError(f"An ability is one of {', '.join(ABILITIES)}, not '{ability}'.")
    if power:
        if not proficient:
            raise RuleError("A power attack always adds the proficiency bonus.")
    else:
        if ability not in ("str", "dex"):
            raise RuleError("A weapon attack adds Strength, or Dexterity for a ranged or finesse weapon.")
        if kind == "ranged" and ability != "dex":
            raise RuleError("A ranged weapon attack adds the Dexterity modifier.")
    prof = c.stat("prof", 2) if proficient else 0
    return mod(c.stat(ability, 10)) + prof


def armor_class(dex: int, armor: int | None = None, shield: bool = False, casting: int | None = None) -> int:
    """Armor Class by the rules: 10 + the Dexterity modifier (`dex` is the score), or the armor's
    value; with a feat or trait, 10 + Dexterity + the casting modifier instead of armor; a shield
    adds 2."""
    if armor is not None and casting is not None:
        raise RuleError("The casting modifier counts instead of armor, not with it.")
    if armor is not None:
        base = armor
    else:
        base = 10 + mod(dex) + (casting or 0)
    return base + (2 if shield else 0)


def dodging(c: Combatant) -> bool:
    """It took the Dodge action (until its next turn), or the GM marked it Dodging by hand."""
    return c.economy.dodging or c.has("Dodging")


def _first(c: Combatant, table: tuple[tuple[str, str], ...]) -> str:
    """The first condition of `table` ((name, lower-cased name) pairs) that `c` has, or "": one
    look at its names for the lot (these run several times in every command)."""
    conditions = c.conditions
    if not conditions:
        return ""
    names = condition_names(conditions)
    for name, low in table:
        if low in names:
            return name
    return ""


def _table(names: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    return tuple((n, n.lower()) for n in names)


_INCAPACITATING, _NO_REACTIONS, _SPEED_ZERO = _table(INCAPACITATING), _table(NO_REACTIONS), _table(SPEED_ZERO)
_CANNOT_MOVE = _table(("Unconscious", "Stunned"))


def incapacitated(c: Combatant) -> str:
    """The condition that stops `c` acting and reacting, or ""."""
    return _first(c, _INCAPACITATING)


def down_and_out(c: Combatant) -> bool:
    """An NPC or a companion at 0 hit points does nothing at all (a PC is at Death's Door)."""
    return c.down and (c.kind == "npc" or bool(c.owner))


def reactions_barred_by(c: Combatant) -> str:
    """The condition that bars `c`'s reactions (they are not spent, only unusable), or ""."""
    return _first(c, _NO_REACTIONS)


def _mode_of(adv: tuple[str, ...], dis: tuple[str, ...], override: str) -> str:
    """Any advantage and any disadvantage cancel out to one d20; the GM's word overrides."""
    if override:
        return override
    if adv and not dis:
        return "advantage"
    if dis and not adv:
        return "disadvantage"
    return "normal"


def _d20(bonus: int, mode: str) -> str:
    text = f"1d20{bonus:+d}" if bonus else "1d20"
    return text + {"advantage": " adv", "disadvantage": " dis"}.get(mode, "")


def _check(value: str, allowed: tuple[str, ...] | dict, what: str) -> str:
    if value not in allowed:
        shown = ", ".join(f"'{a}'" if a else "none" for a in allowed)
        raise RuleError(f"{what} is one of {shown}, not '{value}'.")
    return value


def _started(f: Fight) -> None:
    if not f.started:
        raise RuleError("The fight has not started yet: start it first.")
    if f.ended:
        raise RuleError("The fight is over.")


# --- commands ---------------------------------------------------------------------------------


@C.register_command
class D20Attack(C.Command, tag="d20_attack"):
    """One attack roll against one target, with its damage, as one undoable step.

    use: action (the Attack action) | power (an action spent on a power) | bonus | offhand (the
    two-weapon bonus attack) | opportunity (spends the reaction) | readied (the readied action,
    spends the reaction) | none (already paid for). `damage` holds the damage dice (and any flat
    extra); `mod` the ability modifier, added once (left off an off-hand attack unless negative).
    `given` is the natural d20 (both with advantage or disadvantage); `damage_given` each damage die,
    or `damage_total` the total with the modifier.

    `ability` works the bonus out by the rules instead: a weapon attack adds the Strength or
    Dexterity modifier (Dexterity for a ranged or finesse weapon) and the proficiency bonus unless
    `proficient` is false, and the same modifier to its damage; a power attack adds the casting
    ability's modifier and the proficiency bonus. `bonus` then adds on top (a magic weapon's +1).

    `spend` ([key, amount]): the attacker's pools a statblock's attack uses (a spell slot, legendary
    actions), all or nothing with the attack; `label` names it in the log.
    """

    who: str
    target: str
    bonus: int = 0
    damage: str = ""
    mod: int = 0
    type: str = ""
    kind: str = "melee"
    use: str = "action"
    label: str = ""
    cover: str = ""
    high_ground: bool = False
    flanking: bool = False
    advantage: tuple[str, ...] = ()
    disadvantage: tuple[str, ...] = ()
    mode: str = ""
    given: Given = None
    damage_given: Given = None
    damage_total: int | None = None
    ability: str = ""
    proficient: bool = True
    spend: tuple[tuple[str, int], ...] = ()


@C.register_command
class ShieldBash(C.Command, tag="d20_shield_bash"):
    """Shield Bash (bonus action): d20 + Str modifier + proficiency against AC, 1d4 bludgeoning, then
    a Strength save against 8 + proficiency + Str modifier or the target is shoved 5 ft."""

    who: str
    target: str
    cover: str = ""
    high_ground: bool = False
    flanking: bool = False
    advantage: tuple[str, ...] = ()
    disadvantage: tuple[str, ...] = ()
    mode: str = ""
    given: Given = None
    damage_given: Given = None
    damage_total: int | None = None
    save_given: Given = None
    save_total: int | None = None


@C.register_command
class D20Test(C.Command, tag="d20_test"):
    """A saving throw or an ability check: d20 + bonus against a DC.

    `resolves`: "concentration" (the oldest concentration save due; failing ends concentration) or the
    name of a condition the save ends (Confused: success ends it). `waive` drops that due save unrolled.
    `bonus` None takes it from the stats. `total` is the final number the table announces.
    """

    who: str
    kind: str = "save"
    ability: str = ""
    label: str = ""
    dc: int | None = None
    bonus: int | None = None
    cover: str = ""
    advantage: tuple[str, ...] = ()
    disadvantage: tuple[str, ...] = ()
    mode: str = ""
    given: Given = None
    total: int | None = None
    resolves: str = ""
    waive: bool = False
    # a legendary creature's choice: should the save fail, it spends one "Legendary Resistance" and
    # succeeds instead (refused when it has none left)
    legendary: bool = False


@C.register_command
class Grapple(C.Command, tag="d20_grapple"):
    """Grapple or shove (an action): Athletics check against the target's Athletics or Acrobatics.

    shove: "" grapples (the target is Grappled, speed 0), "prone" knocks it prone, "push" pushes it
    5 ft. Bonuses are the checks' skill bonuses as the table reads them.
    """

    who: str
    target: str
    shove: str = ""
    bonus: int = 0
    target_bonus: int = 0
    given: Given = None
    total: int | None = None
    target_given: Given = None
    target_total: int | None = None


@C.register_command
class Ready(C.Command, tag="d20_ready"):
    """Ready (an action): hold `action` for `trigger`, until the start of its next turn."""

    who: str
    action: str
    trigger: str = ""


@C.register_command
class Release(C.Command, tag="d20_release"):
    """The trigger came: take the readied action, spending the reaction (attacks use D20Attack with
    use="readied"). A readied Dodge or Disengage takes effect; a readied Help names its ally in
    `target`."""

    who: str
    target: str = ""


# --- events -----------------------------------------------------------------------------------


def _sources_text(adv: tuple[str, ...], dis: tuple[str, ...], mode: str, override: bool) -> str:
    if override:
        return f"{mode} (GM's call)" if mode != "normal" else "a straight roll (GM's call)"
    if adv and dis:
        return f"advantage ({', '.join(adv)}) and disadvantage ({', '.join(dis)}) cancel out"
    if adv:
        return f"advantage: {', '.join(adv)}"
    if dis:
        return f"disadvantage: {', '.join(dis)}"
    return ""


@E.register_event
class AttackRolled(E.Event, tag="d20_attack"):
    who: str
    name: str
    target: str
    target_name: str
    roll: DiceRoll
    natural: int
    ac: int
    outcome: str  # hit | miss | critical
    label: str = ""
    use: str = "action"
    cover: str = ""
    mode: str = "normal"
    advantages: tuple[str, ...] = ()
    disadvantages: tuple[str, ...] = ()
    override: bool = False
    exhaustion: int = 0  # the attacker's Exhaustion level, taken off the roll

    def text(self) -> str:
        how = f" with {self.label}" if self.label else ""
        kind = {"opportunity": " (opportunity attack)", "offhand": " (off hand)", "readied": " (readied)"}
        cover = f", {self.cover} cover" if self.cover else ""
        why = _sources_text(self.advantages, self.disadvantages, self.mode, self.override)
        if self.exhaustion:
            why = f"Exhaustion -{self.exhaustion}" + (f"; {why}" if why else "")
        nat = {20: " (natural 20)", 1: " (natural 1)"}.get(self.natural, "")
        out = "critical hit" if self.outcome == "critical" else self.outcome
        return (
            f"{self.name} attacks {self.target_name}{how}{kind.get(self.use, '')}: "
            f"{self.roll.text()} vs AC {self.ac}{cover}{nat}: {out}{'; ' + why if why else ''}"
        )


@E.register_event
class TestRolled(E.Event, tag="d20_test"):
    who: str
    name: str
    roll: DiceRoll
    kind: str = "save"
    ability: str = ""
    label: str = ""
    dc: int | None = None
    success: bool | None = None
    mode: str = "normal"
    advantages: tuple[str, ...] = ()
    disadvantages: tuple[str, ...] = ()
    override: bool = False
    cover: str = ""

    def text(self) -> str:
        what = f"{ABILITIES.get(self.ability, self.ability)} {self.kind}".strip()
        if self.label:
            what = f"{what} ({self.label})"
        vs = f" vs DC {self.dc}" if self.dc is not None else ""
        res = "" if self.success is None else (": success" if self.success else ": failure")
        cover = f", {self.cover} cover" if self.cover else ""
        why = _sources_text(self.advantages, self.disadvantages, self.mode, self.override)
        return f"{self.name} {what}{vs}{cover}: {self.roll.text()}{res}{'; ' + why if why else ''}"


@E.register_event
class SaveDue(E.Event, tag="d20_due"):
    """A save the rules call for that the table now owes (the app prompts for it)."""

    who: str
    name: str
    what: str
    dc: int = 0
    detail: str = ""

    def text(self) -> str:
        dc = f" (DC {self.dc})" if self.dc else ""
        if self.what == "concentration":
            return f"{self.name} must make a Constitution save{dc} to keep concentrating ({self.detail})"
        return f"{self.name} repeats its save against {self.what}{dc} at the end of its turn"


# --- the odds, for the attack dialog ----------------------------------------------------------


def hit_chance(bonus: int, ac: int, mode: str = "normal") -> tuple[Fraction, Fraction]:
    """Exact chances (hit, critical) of d20 + `bonus` against `ac`: a natural 20 always hits and is
    a critical, a natural 1 always misses; advantage keeps the higher of two d20, disadvantage the
    lower. `p_hit` includes the criticals."""
    need = min(20, max(2, ac - bonus))
    return d20_at_least(need, mode), d20_at_least(20, mode)


def test_chance(bonus: int, dc: int, mode: str = "normal") -> Fraction:
    """Exact chance that d20 + `bonus` meets `dc` (saves and checks have no automatic results)."""
    return d20_at_least(dc - bonus, mode)


class AttackPreview(msgspec.Struct, frozen=True):
    """What the attack dialog shows before the roll: the mode and its reasons, the numbers, the odds."""

    mode: str
    advantages: tuple[str, ...]
    disadvantages: tuple[str, ...]
    bonus: int  # after exhaustion
    ac: int  # after cover
    p_hit: Fraction
    p_crit: Fraction
    dice: int  # how many d20 the table rolls


class _Plan(msgspec.Struct, frozen=True):
    attacker: Combatant
    target: Combatant
    bonus: int
    ac: int
    mode: str
    adv: tuple[str, ...]
    dis: tuple[str, ...]
    override: bool


def attack_sources(
    a: Combatant, t: Combatant, kind: str, high_ground: bool = False, flanking: bool = False
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The advantages and disadvantages the state and the situation give an attack, as labels."""
    adv: list[str] = []
    dis: list[str] = []
    # each side's condition names looked at once (most attackers and targets have none)
    mine = condition_names(a.conditions) if a.conditions else _NONE
    theirs = condition_names(t.conditions) if t.conditions else _NONE
    for cond, low in _OPEN_TO_ATTACK:
        if low in theirs:
            adv.append(f"{t.name} is {cond}")
    if "prone" in theirs:
        (adv if kind == "melee" else dis).append(f"{t.name} is Prone ({kind})")
    if "hidden" in mine:
        adv.append(f"{a.name} is Hidden")
    if "helped" in mine:
        adv.append(f"{a.name} is Helped")
    if high_ground:
        adv.append("high ground")
    if flanking:
        adv.append("flanking")
    if "blinded" in mine:
        dis.append(f"{a.name} is Blinded")
    if "concealed" in theirs:
        dis.append(f"{t.name} is Concealed")
    if t.economy.dodging or "dodging" in theirs:  # dodging(t), with the names already at hand
        dis.append(f"{t.name} is Dodging")
    for cond, low in _HAMPERED:
        if low in mine:
            dis.append(f"{a.name} is {cond}")
    return tuple(adv), tuple(dis)


_NONE: frozenset[str] = frozenset()
_OPEN_TO_ATTACK = _table(("Blinded", "Marked", "Restrained", "Stunned", "Unconscious"))
_HAMPERED = _table(("Frightened", "Poisoned"))


def _plan(
    f: Fight,
    who: str,
    target: str,
    bonus: int,
    kind: str,
    cover: str,
    high_ground: bool,
    flanking: bool,
    advantage: tuple[str, ...],
    disadvantage: tuple[str, ...],
    mode: str,
) -> _Plan:
    a = f.get(who)
    t = f.get(target)
    if a.id == t.id:
        raise RuleError(f"{a.name} cannot attack itself.")
    _check(kind, ("melee", "ranged"), "An attack")
    _check(cover, (*COVER, "full"), "Cover")
    if cover == "full":
        raise RuleError(f"{t.name} has full cover and cannot be targeted directly.")
    _check(mode, ("", "normal", "advantage", "disadvantage"), "The roll")
    if flanking and kind != "melee":
        raise RuleError("Flanking gives advantage on melee attacks only.")
    if abs(bonus) > 100:
        raise RuleError(f"{bonus:+d} is not a believable attack bonus.")
    charmed = a.condition("Charmed")
    if charmed is not None and charmed.source == t.id:
        raise RuleError(f"{a.name} is Charmed by {t.name} and cannot attack it.")
    if a.down and (a.kind == "npc" or a.owner):
        raise RuleError(f"{a.name} is down at 0 hit points and cannot attack.")
    incap = incapacitated(a)
    if incap:
        # whatever pays for it (an attack already paid for included): no actions, no reactions
        raise RuleError(f"{a.name} is {incap}: no actions or reactions, so no attack.")
    adv, dis = attack_sources(a, t, kind, high_ground, flanking)
    if advantage:  # the GM's own sources, checked only when given
        adv += sources(advantage, "advantage")
    if disadvantage:
        dis += sources(disadvantage, "disadvantage")
    return _Plan(
        a,
        t,
        bonus - exhaustion(a),
        t.stat("ac", 10) + COVER[cover],
        _mode_of(adv, dis, mode),
        adv,
        dis,
        bool(mode),
    )


def attack_preview(f: Fight, cmd: D20Attack | ShieldBash) -> AttackPreview:
    """The odds of an attack before it is rolled, from the state and the numbers entered. Raises
    RuleError (with the reason) for an attack the rules do not allow."""
    if isinstance(cmd, ShieldBash):
        a = f.get(cmd.who)
        bonus, kind = str_mod(a) + a.stat("prof", 2), "melee"
    else:
        bonus, kind = _attack_bonus(f, cmd), cmd.kind
    p = _plan(
        f,
        cmd.who,
        cmd.target,
        bonus,
        kind,
        cmd.cover,
        cmd.high_ground,
        cmd.flanking,
        cmd.advantage,
        cmd.disadvantage,
        cmd.mode,
    )
    hit, crit = hit_chance(p.bonus, p.ac, p.mode)
    return AttackPreview(p.mode, p.adv, p.dis, p.bonus, p.ac, hit, crit, 1 if p.mode == "normal" else 2)


# --- attacks ----------------------------------------------------------------------------------


def _spend(rs: "D20", f: Fight, who: str, use: str, label: str, ev: Events) -> Fight:
    """Pay for an attack out of the action economy (the ActionUsed event says what is left)."""
    c = f.get(who)
    e = c.economy
    if use == "none":
        return f
    if use == "offhand":
        if not any(u.lower() == "attack" for u in e.used):
            raise RuleError(f"{c.name} can make the off-hand attack only after taking the Attack action.")
        return rs.use(f, C.UseAction(who, "bonus", "Off-hand attack"), ev)
    if use == "readied":
        if not e.ready:
            raise RuleError(f"{c.name} has no readied action.")
        f = rs.use(f, C.UseAction(who, "reaction", f"Readied: {e.ready}"), ev)
        c = f.get(who)
        return put(f, replace(c, economy=replace(c.economy, ready="")))
    what, name = {
        "action": ("action", "Attack"),
        "power": ("action", label or "Use a power"),
        "bonus": ("bonus", label or "Attack"),
        "opportunity": ("reaction", "Opportunity attack"),
    }[use]
    return rs.use(f, C.UseAction(who, what, name), ev)


def _attack_roll(
    rs: "D20", f: Fight, p: _Plan, given: Given, label: str, use: str, cover: str, ev: Events
) -> tuple[Fight, str]:
    """Roll the d20 (or take the table's) and judge it; Hidden ends when its attack is made."""
    r, rng = roll_or_given(_d20(p.bonus, p.mode), f.rng, given, None, "Attack roll")
    if given is None:
        f = replace(f, rng=rng)
    nat = first_d20(r) or 0
    if nat == 20:
        outcome = "critical"
    elif nat == 1:
        outcome = "miss"
    else:
        outcome = "hit" if r.total >= p.ac else "miss"
    a, t = p.attacker, p.target
    ev.append(
        AttackRolled(
            a.id,
            a.name,
            t.id,
            t.name,
            r,
            nat,
            p.ac,
            outcome,
            label,
            use,
            cover,
            p.mode,
            p.adv,
            p.dis,
            p.override,
            exhaustion(a),
        )
    )
    a = f.get(a.id)
    if a.has("Hidden"):
        f = put(f, remove_condition(a, "Hidden"))
        ev.append(E.ConditionEnded(a.id, a.name, "Hidden", "it attacked"))
    return use_help(f, a.id, "attack", ev), outcome


def _damage_expr(dice: str, add: int, critical: bool) -> str:
    """The damage expression as rolled: on a critical every damage die is rolled twice (the flat
    parts once)."""
    key = (dice, add, critical)
    hit = _DAMAGE_EXPRS.get(key)
    if hit is None:
        hit = _write_damage_expr(dice, add, critical)
        if len(_DAMAGE_EXPRS) < 4096:  # a bound, as dice.parse's cache has
            _DAMAGE_EXPRS[key] = hit
    return hit


# (dice, add, critical) -> the expression rolled: a pure function of its key (no state in it), asked
# for at every hit; written out once per weapon
_DAMAGE_EXPRS: dict[tuple[str, int, bool], str] = {}


def _write_damage_expr(dice: str, add: int, critical: bool) -> str:
    expr = parse(dice)
    parts: list[str] = []
    for t in expr.terms:
        keep = f"k{'h' if t.keep > 0 else 'l'}{abs(t.keep)}" if t.keep else ""
        term = f"{t.count}d{t.sides}{keep}"
        times = 2 if critical else 1
        if critical and not t.keep:
            term, times = f"{t.count * 2}d{t.sides}", 1
        for _ in range(times):
            parts.append(("-" if t.sign < 0 else "+") + term)
    flat = expr.constant + add
    if flat:
        parts.append(f"{flat:+d}")
    text = "".join(parts).lstrip("+")
    return text or "0"


def _hit_damage(
    rs: "D20",
    f: Fight,
    target: str,
    dice: str,
    add: int,
    typ: str,
    outcome: str,
    given: Given,
    total: int | None,
    ev: Events,
) -> Fight:
    if outcome == "miss" or not dice:
        if given is not None or total is not None:
            why = "the attack missed" if outcome == "miss" else "the attack has no damage dice"
            raise RuleError(f"No damage to enter: {why}.")
        return f
    expr = _damage_expr(dice, add, outcome == "critical")
    r, rng = roll_or_given(expr, f.rng, given, total, "Damage")
    if given is None and total is None:
        f = replace(f, rng=rng)
    detail = "critical: damage dice rolled twice" if outcome == "critical" else ""
    return deal_damage(rs, f, target, max(0, r.total), typ, r, ev, detail)


def _attack_bonus(f: Fight, cmd: D20Attack) -> int:
    """The attack's bonus: as given, or worked out from `ability` (with `bonus` on top)."""
    if not cmd.ability:
        if not cmd.proficient:
            raise RuleError("Leaving the proficiency bonus off needs the ability the attack adds (ability).")
        return cmd.bonus
    return attack_bonus(f.get(cmd.who), cmd.ability, cmd.kind, cmd.use == "power", cmd.proficient) + cmd.bonus


def _damage_add(f: Fight, cmd: D20Attack, use: str) -> int:
    """What the damage adds to its dice: `mod` as given, or the attack's ability modifier (a power
    adds only what is given)."""
    if not (cmd.ability and use != "power"):
        return cmd.mod
    if cmd.mod:
        raise RuleError("With an ability given, the damage adds that ability's modifier: leave mod out.")
    return mod(f.get(cmd.who).stat(cmd.ability.lower(), 10)) if cmd.damage else 0


def _check_attack_kind(f: Fight, cmd: D20Attack, use: str) -> None:
    """What kind of attack this use allows (a Confused action: melee only; an opportunity or off-hand
    attack: melee), and the damage's type and dice."""
    attacker = f.get(cmd.who)
    if (
        CONFUSED_ATTACK in attacker.economy.used
        and use in ("action", "power")
        and (use == "power" or cmd.kind != "melee")
    ):
        raise RuleError(f"{attacker.name} is Confused: its action this turn can only be a melee attack.")
    if use in ("opportunity", "offhand") and cmd.kind != "melee":
        raise RuleError(
            "An opportunity attack is a melee attack."
            if use == "opportunity"
            else "The off-hand attack is made with a light melee weapon."
        )
    if cmd.type and len(cmd.type) > 40:
        raise RuleError("A damage type is a short word (fire, slashing, ...).")
    if cmd.damage:
        parse(cmd.damage)
    elif cmd.mod:
        raise RuleError("Give the damage dice as well as the modifier.")


def _check_attack_use(p: _Plan, use: str) -> None:
    """An opportunity attack needs to see a target that did not Disengage; a readied attack needs an
    attack readied."""
    if use == "opportunity":
        if p.attacker.has("Blinded"):
            raise RuleError(f"{p.attacker.name} is Blinded: an opportunity attack needs to see its target.")
        if p.target.has("Hidden"):
            raise RuleError(f"{p.target.name} is Hidden: an opportunity attack needs to see its target.")
        if p.target.economy.disengaged:
            raise RuleError(f"{p.target.name} took the Disengage action: its movement does not provoke.")
    held = readied_action(p.attacker.economy.ready) if use == "readied" else ""
    if held:
        raise RuleError(f"{p.attacker.name} readied {held.capitalize()}, not an attack: take it with d20_release.")


def attack(rs: "D20", f: Fight, cmd: D20Attack, ev: Events) -> Fight:
    """An attack: the checks, the plan (advantage, cover, AC), the cost, the roll, the damage."""
    _started(f)
    use = _check(cmd.use, ATTACK_USES, "An attack's use")
    bonus = _attack_bonus(f, cmd)
    add = _damage_add(f, cmd, use)
    _check_attack_kind(f, cmd, use)
    p = _plan(
        f,
        cmd.who,
        cmd.target,
        bonus,
        cmd.kind,
        cmd.cover,
        cmd.high_ground,
        cmd.flanking,
        cmd.advantage,
        cmd.disadvantage,
        cmd.mode,
    )
    _check_attack_use(p, use)
    f = _spend(rs, f, cmd.who, use, cmd.label, ev)
    f = pools.spend(rs, f, cmd.who, cmd.spend, ev)  # a slot, legendary actions: all or nothing
    f, outcome = _attack_roll(rs, f, p, cmd.given, cmd.label, use, cmd.cover, ev)
    # an off-hand attack adds the ability modifier only when it is negative
    add = min(add, 0) if use == "offhand" else add
    return _hit_damage(rs, f, cmd.target, cmd.damage, add, cmd.type, outcome, cmd.damage_given, cmd.damage_total, ev)


def shield_bash(rs: "D20", f: Fight, cmd: ShieldBash, ev: Events) -> Fight:
    _started(f)
    a = f.get(cmd.who)
    if "shield" not in (x.lower() for x in a.flags):
        raise RuleError(f"{a.name} needs a shield in hand and training in Shields (the 'shield' flag).")
    prof = a.stat("prof", 2)
    bonus = str_mod(a) + prof
    p = _plan(
        f,
        cmd.who,
        cmd.target,
        bonus,
        "melee",
        cmd.cover,
        cmd.high_ground,
        cmd.flanking,
        cmd.advantage,
        cmd.disadvantage,
        cmd.mode,
    )
    f = rs.use(f, C.UseAction(cmd.who, "bonus", "Shield Bash"), ev)
    f, outcome = _attack_roll(rs, f, p, cmd.given, "Shield Bash", "bonus", cmd.cover, ev)
    f = _hit_damage(rs, f, cmd.target, "1d4", 0, "bludgeoning", outcome, cmd.damage_given, cmd.damage_total, ev)
    if outcome == "miss":
        if cmd.save_given is not None or cmd.save_total is not None:
            raise RuleError("No Strength save to enter: the bash missed.")
        return f
    t = f.get(cmd.target)
    dc = 8 + prof + str_mod(a)
    sb = save_bonus(t, "str") - exhaustion(t)
    r, rng = roll_or_given(_d20(sb, "normal"), f.rng, cmd.save_given, cmd.save_total, "Strength save")
    if cmd.save_given is None and cmd.save_total is None:
        f = replace(f, rng=rng)
    ok = r.total >= dc
    ev.append(TestRolled(t.id, t.name, r, "save", "str", "against the Shield Bash", dc, ok))
    if not ok:
        ev.append(E.Info(f"{t.name} is shoved 5 ft by {a.name}'s shield", t.id))
    return f


# --- saves, checks, concentration ---------------------------------------------------------------


def _test_sources(c: Combatant, kind: str, ability: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    adv: list[str] = []
    dis: list[str] = []
    if kind == "save" and ability == "dex":
        if dodging(c):
            adv.append(f"{c.name} is Dodging")
        if c.has("Restrained"):
            dis.append(f"{c.name} is Restrained")
    if kind == "check":
        if c.has("Helped"):
            adv.append(f"{c.name} is Helped")
        for cond in ("Frightened", "Poisoned"):
            if c.has(cond):
                dis.append(f"{c.name} is {cond}")
    return tuple(adv), tuple(dis)


def _pop_due(c: Combatant, what: str) -> tuple[Combatant, Due | None]:
    low = what.lower()
    for i, d in enumerate(c.due):
        if d.what.lower() == low:
            return replace(c, due=c.due[:i] + c.due[i + 1 :]), d
    return c, None


def _drop_dues(c: Combatant, what: str) -> Combatant:
    low = what.lower()
    return replace(c, due=tuple(d for d in c.due if d.what.lower() != low)) if c.due else c


def _check_test(c: Combatant, cmd: D20Test) -> tuple[str, str, str]:
    """The test's fields: a save or a check, an ability, a mode, cover (Dexterity saves only; full
    cover cannot be targeted), a short label. Returns (kind, ability, cover)."""
    kind = _check(cmd.kind, ("save", "check"), "A test")
    ability = cmd.ability.lower()
    if ability:
        _check(ability, tuple(ABILITIES), "An ability")
    _check(cmd.mode, ("", "normal", "advantage", "disadvantage"), "The roll")
    cover = _check(cmd.cover, tuple(COVER) + ("full",), "Cover")
    if cover and not (kind == "save" and ability == "dex"):
        raise RuleError("Cover adds to AC and Dexterity saves only.")
    if cover == "full":
        raise RuleError(f"{c.name} has full cover and cannot be targeted directly.")
    if len(cmd.label) > 80:
        raise RuleError("A label can be at most 80 characters.")
    return kind, ability, cover


def _what_it_resolves(
    c: Combatant, cmd: D20Test, kind: str, ability: str
) -> tuple[Combatant, str, str, Due | None, Condition | None]:
    """What the save settles: a concentration save that is due (a Constitution save), or the save
    against a condition or an owed roll, taken off what is owed. Returns (combatant without that
    due, ability, what it resolves, the due, the condition)."""
    resolves = cmd.resolves.strip()
    due: Due | None = None
    cond: Condition | None = None
    if resolves.lower() == "concentration":
        resolves = "concentration"
        if kind != "save" or ability not in ("", "con"):
            raise RuleError("Concentration is held with a Constitution save.")
        ability = "con"
        c, due = _pop_due(c, "concentration")
        if due is None:
            raise RuleError(f"{c.name} has no concentration save due.")
    elif resolves:
        if resolves.startswith(RECHARGE) and not cmd.waive:
            raise RuleError(f"{resolves.capitalize()} is a d6, rolled with the recharge command: not a save.")
        cond = c.condition(resolves)
        c, due = _pop_due(c, resolves)
        if cond is None and due is None:
            raise RuleError(f"{c.name} is not {resolves}: there is no save against it to make.")
        if cond is not None:
            resolves = cond.name
    return c, ability, resolves, due, cond


def _test_dc(c: Combatant, cmd: D20Test, resolves: str, due: Due | None, cond: Condition | None) -> int | None:
    """The DC: as given, else the due's (a concentration save's is set by the damage), else the
    condition's; a save that resolves something needs one."""
    dc = cmd.dc
    if due is not None and due.dc:
        if dc is not None and dc != due.dc and resolves == "concentration":
            raise RuleError(f"The concentration save's DC is {due.dc}, set by the damage taken.")
        dc = due.dc if dc is None else dc
    if dc is None and cond is not None and cond.dc:
        dc = cond.dc
    if resolves and dc is None:
        raise RuleError(f"Give the DC of {c.name}'s save against {resolves}.")
    if dc is not None and not 1 <= dc <= 100:
        raise RuleError(f"A DC is between 1 and 100, not {dc}.")
    return dc


def _test_bonus(c: Combatant, cmd: D20Test, kind: str, ability: str, cover: str) -> int:
    """The bonus: as given, or the sheet's save bonus or ability modifier; plus cover, less Exhaustion."""
    if cmd.bonus is not None and abs(cmd.bonus) > 100:
        raise RuleError(f"{cmd.bonus:+d} is not a believable bonus.")
    if cmd.bonus is not None:
        base = cmd.bonus
    elif kind == "save":
        base = save_bonus(c, ability) if ability else 0
    else:
        base = mod(c.stat(ability)) if ability and has_stat(c, ability) else 0
    return base + COVER.get(cover, 0) - exhaustion(c)


def _test_riders(
    f: Fight, cid: str, kind: str, resolves: str, cond: Condition | None, ok: bool | None, ev: Events
) -> Fight:
    """After the roll: a check spends Help; a failed concentration save ends concentration; a
    successful save against a condition ends it."""
    if kind == "check":
        f = use_help(f, cid, "check", ev)
    if resolves == "concentration" and ok is False:
        f = end_concentration(f, cid, "failed the Constitution save", ev)
    elif cond is not None and ok:
        c = _drop_dues(f.get(cid), cond.name)
        f = put(f, remove_condition(c, cond.name))
        ev.append(E.ConditionEnded(c.id, c.name, cond.name, "saved"))
    return f


def roll_test(rs: "D20", f: Fight, cmd: D20Test, ev: Events) -> Fight:
    """A save or a check: the fields, what it resolves (or the GM waiving a save that is due), the
    DC, the bonus, advantage and disadvantage, the roll, then what it settles."""
    c = f.get(cmd.who)
    kind, ability, cover = _check_test(c, cmd)
    c, ability, resolves, due, cond = _what_it_resolves(c, cmd, kind, ability)
    if cmd.waive:
        if due is None:
            raise RuleError("Only a save that is due can be waived.")
        f = put(f, c)
        ev.append(E.Info(f"The GM waives {c.name}'s save ({resolves})", c.id))
        return f
    dc = _test_dc(c, cmd, resolves, due, cond)
    if cmd.legendary:
        if kind != "save" or dc is None:
            raise RuleError("Legendary Resistance turns a failed save against a DC into a success.")
        pools.can_resist(c)
    bonus = _test_bonus(c, cmd, kind, ability, cover)
    adv, dis = _test_sources(c, kind, ability)
    adv += sources(cmd.advantage, "advantage")
    dis += sources(cmd.disadvantage, "disadvantage")
    mode = _mode_of(adv, dis, cmd.mode)
    what = f"{ABILITIES.get(ability, 'The')} {kind}" if ability else kind.capitalize()
    r, rng = roll_or_given(_d20(bonus, mode), f.rng, cmd.given, cmd.total, what)
    if cmd.given is None and cmd.total is None:
        f = replace(f, rng=rng)
    ok = None if dc is None else r.total >= dc
    label = cmd.label or (resolves if resolves else "")
    f = put(f, c)
    ev.append(TestRolled(c.id, c.name, r, kind, ability, label, dc, ok, mode, adv, dis, bool(cmd.mode), cover))
    if ok is False and cmd.legendary:
        f, _ = pools.resist(f, c.id, ev)
        ok = True
    return _test_riders(f, c.id, kind, resolves, cond, ok, ev)


def _area_save_name(key: str) -> str:
    _check(key, tuple(ABILITIES), "A save's ability")
    return ABILITIES[key]


def _area_save(
    f: Fight, c: Combatant, ability: str, dc: int, given: Given, total: int | None
) -> tuple[bool, str, Fight]:
    """One target's save against an effect on several (engine/area.py): as `d20_test` rolls a save,
    from the sheet's bonus, Exhaustion and the conditions that give advantage or disadvantage (Dodging,
    Restrained on Dexterity saves), or the table's d20 or total."""
    bonus = save_bonus(c, ability) - exhaustion(c)
    adv, dis = _test_sources(c, "save", ability)
    mode = _mode_of(adv, dis, "")
    r, rng = roll_or_given(_d20(bonus, mode), f.rng, given, total, f"{c.name}'s {ABILITIES[ability]} save")
    if given is None and total is None:
        f = replace(f, rng=rng)
    why = _sources_text(adv, dis, mode, False)
    shown = f"{ABILITIES[ability]} save {r.text()} vs DC {dc}" + (f" ({why})" if why else "")
    return r.total >= dc, shown, f


# an area effect's save for half, and the condition that keeps a caster's effects up
# (Dexterity first: most effects on an area are dodged)
register_area_save("d20", AreaSave(_area_save_name, _area_save, ("dex", "con", "wis", "str", "int", "cha")))
register_sustaining("d20", "Concentrating", "concentration")


def end_concentration(f: Fight, cid: str, reason: str, ev: Events) -> Fight:
    c = f.get(cid)
    c = _drop_dues(c, "concentration")
    if c.has("Concentrating"):
        ev.append(E.ConditionEnded(c.id, c.name, "Concentrating", reason))
        c = remove_condition(c, "Concentrating")
    return put(f, c)


def concentration_due(f: Fight, c: Combatant, amount: int, ev: Events) -> Fight:
    """Damage while concentrating: a Constitution save against the higher of 10 and half the damage
    (rounded down) is now due, one per instance of damage."""
    if amount <= 0 or not c.has("Concentrating"):
        return f
    dc = max(10, amount // 2)
    detail = f"took {amount} damage"
    f = put(f, replace(c, due=c.due + (Due("concentration", dc, detail),)))
    ev.append(SaveDue(c.id, c.name, "concentration", dc, detail))
    return f


# --- grapple and shove ----------------------------------------------------------------------------


def grapple(rs: "D20", f: Fight, cmd: Grapple, ev: Events) -> Fight:
    _started(f)
    a = f.get(cmd.who)
    t = f.get(cmd.target)
    if a.id == t.id:
        raise RuleError(f"{a.name} cannot grapple itself.")
    shove = _check(cmd.shove, ("", "prone", "push"), "A shove")
    charmed = a.condition("Charmed")
    if charmed is not None and charmed.source == t.id:
        raise RuleError(f"{a.name} is Charmed by {t.name} and cannot attack it.")
    if abs(cmd.bonus) > 100 or abs(cmd.target_bonus) > 100:
        raise RuleError("That is not a believable check bonus.")
    f = rs.use(f, C.UseAction(a.id, "action", "Shove" if shove else "Grapple"), ev)
    results = []
    for c, bonus, given, total in (
        (a, cmd.bonus, cmd.given, cmd.total),
        (t, cmd.target_bonus, cmd.target_given, cmd.target_total),
    ):
        adv, dis = _test_sources(c, "check", "")
        mode = _mode_of(adv, dis, "")
        b = bonus - exhaustion(c)
        r, rng = roll_or_given(_d20(b, mode), f.rng, given, total, f"{c.name}'s check")
        if given is None and total is None:
            f = replace(f, rng=rng)
        label = "Athletics" if c is a else "Athletics or Acrobatics"
        ev.append(TestRolled(c.id, c.name, r, "check", "", label, None, None, mode, adv, dis))
        f = use_help(f, c.id, "check", ev)
        results.append(r.total)
    t = f.get(t.id)
    if results[0] <= results[1]:
        # the text gives no tie rule: a tie leaves things as they are
        ev.append(E.Info(f"{t.name} resists {a.name}'s {'shove' if shove else 'grapple'}", t.id))
        return f
    if shove == "push":
        ev.append(E.Info(f"{a.name} pushes {t.name} 5 ft", t.id))
        return f
    name = "Prone" if shove == "prone" else "Grappled"
    new = Condition(name, source=a.id if name == "Grappled" else "")
    t = remove_condition(t, name)
    f = put(f, replace(t, conditions=t.conditions + (new,)))
    ev.append(E.ConditionAdded(t.id, t.name, name, f"by {a.name}"))
    return f


# --- Ready ----------------------------------------------------------------------------------------


def ready(rs: "D20", f: Fight, cmd: Ready, ev: Events) -> Fight:
    _started(f)
    action = cmd.action.strip()
    trigger = cmd.trigger.strip()
    if not action:
        raise RuleError("Ready which action? Name it.")
    if len(action) + len(trigger) > 200 or any(ch in action + trigger for ch in "\r\n"):
        raise RuleError("Describe the readied action and its trigger in one short line.")
    f = rs.use(f, C.UseAction(cmd.who, "action", "Ready"), ev)
    c = f.get(cmd.who)
    held = f"{action} when {trigger}" if trigger else action
    f = put(f, replace(c, economy=replace(c.economy, ready=held)))
    ev.append(E.Info(f"{c.name} readies: {held}", c.id))
    return f


def readied_action(held: str) -> str:
    """The action part of a readied entry ("Dodge when the ogre swings" -> "dodge"), lower case,
    when it is one of the text's actions that is not an attack; "" otherwise."""
    low = held.lower()
    return next((a for a in NOT_ATTACKS if low == a or low.startswith(a + " when ")), "")


def release(rs: "D20", f: Fight, cmd: Release, ev: Events) -> Fight:
    _started(f)
    c = f.get(cmd.who)
    if not c.economy.ready:
        raise RuleError(f"{c.name} has no readied action.")
    action = readied_action(c.economy.ready)
    if cmd.target:
        if action != "help":
            raise RuleError("Only a readied Help names someone (the ally it helps).")
        check_help(f, c, cmd.target)
    f = _spend(rs, f, c.id, "readied", "", ev)
    c = f.get(cmd.who)
    # the readied action is taken now, as the reaction: it does what it does on a turn
    if action == "dodge":
        return put(f, replace(c, economy=replace(c.economy, dodging=True)))
    if action == "disengage":
        # "this turn" is the turn the trigger came in: it ends with it (end_effects)
        return put(f, replace(c, economy=replace(c.economy, disengaged=True)))
    if action == "help" and cmd.target:
        return help_ally(f, c, cmd.target, ev)
    return f


# --- the action economy: what named actions do, what conditions forbid ------------------------


def _check_barred(c: Combatant, what: str, name: str) -> None:
    """What conditions forbid: anything when down and out; actions and reactions when incapacitated;
    reactions when a condition bars them; the move when unconscious, stunned or at speed 0; a
    Confused combatant's action other than its melee attack."""
    if down_and_out(c):
        raise RuleError(f"{c.name} is down at 0 hit points and can do nothing.")
    incap = incapacitated(c)
    if what in ("action", "bonus", "reaction") and incap:
        raise RuleError(f"{c.name} is {incap}: no actions or reactions.")
    if what == "reaction" and reactions_barred_by(c):
        raise RuleError(f"{c.name} is {reactions_barred_by(c)} and cannot take reactions.")
    if what == "move":
        # Incapacitated alone forbids actions, not movement; unconscious or stunned, nothing moves
        out = _first(c, _CANNOT_MOVE)
        if out:
            raise RuleError(f"{c.name} is {out} and cannot move.")
        held = _first(c, _SPEED_ZERO)
        if held:
            raise RuleError(f"{c.name} is {held}: its speed is 0.")
    if what == "action" and CONFUSED_ATTACK in c.economy.used and name != "attack":
        raise RuleError(f"{c.name} is Confused: its action this turn can only be a melee attack.")


# the named actions that end a condition: name (lower case) -> (the condition it needs, the refusal
# without it, the parts of the turn it may use, the refusal for any other part)
_ENDS_CONDITION: dict[str, tuple[str, str, tuple[str, ...], str]] = {
    PUT_OUT.lower(): ("Burning", "{} is not Burning.", ("action",), "Putting the fire out takes an action."),
    PICK_UP.lower(): (
        "Disarmed",
        "{} is not Disarmed: there is no weapon to pick up.",
        ("move", "action"),
        "Picking up a weapon costs the move or an action.",
    ),
    STAND_UP.lower(): (
        "Prone",
        "{} is not Prone.",
        ("move",),
        "Standing up costs movement (half the speed): use the move.",
    ),
}


def before_use(f: Fight, c: Combatant, what: str, label: str, target: str = "") -> None:
    """Conditions that forbid a part of the turn, checked as it is used (so a condition gained
    mid-turn counts at once), and what the named actions of the text need."""
    name = label.lower()
    _check_barred(c, what, name)
    needs = _ENDS_CONDITION.get(name)
    if needs is not None:
        cond, without, parts, other = needs
        if not c.has(cond):
            raise RuleError(without.format(c.name))
        if what not in parts:
            raise RuleError(other)
    if target:
        if name != "help" or what != "action":
            raise RuleError("Only the Help action names someone here (the ally it helps).")
        check_help(f, c, target)


def check_help(f: Fight, helper: Combatant, target: str) -> None:
    """Help is given to an ally: not to oneself, not to a creature of the other side."""
    t = f.get(target)
    if t.id == helper.id:
        raise RuleError(f"{helper.name} cannot Help itself.")
    if {helper.side, t.side} == {"party", "enemy"}:
        raise RuleError(f"Help gives advantage to an ally: {t.name} is on the other side from {helper.name}.")


# the named actions after_use does something for (lower case); any other is paid for and done
_AFTER_USE = frozenset((PICK_UP.lower(), STAND_UP.lower(), PUT_OUT.lower(), "dodge", "dash", "disengage", "help"))


def after_use(f: Fight, cid: str, what: str, label: str, ev: Events, target: str = "") -> Fight:
    """What the named actions of the text do once paid for."""
    name = label.lower()
    if name not in _AFTER_USE:
        return f  # most uses (an attack, a reaction, an unnamed action): no need to look again
    c = f.get(cid)
    e = c.economy
    if name == PICK_UP.lower():
        f = put(f, remove_condition(c, "Disarmed"))
        ev.append(E.ConditionEnded(c.id, c.name, "Disarmed", "picked its weapon up"))
        return f
    if name == STAND_UP.lower():
        f = put(f, remove_condition(c, "Prone"))
        ev.append(E.ConditionEnded(c.id, c.name, "Prone", "stood up"))
        return f
    if what not in ("action", "bonus"):
        return f
    if name == "dodge":
        e = replace(e, dodging=True)
    elif name == "dash":
        e = replace(e, move=e.move + 1)
    elif name == "disengage":
        e = replace(e, disengaged=True)
    elif name == PUT_OUT.lower():
        f = put(f, remove_condition(c, "Burning"))
        ev.append(E.ConditionEnded(c.id, c.name, "Burning", "put out"))
        return f
    elif name == "help" and target:
        return help_ally(f, c, target, ev)
    else:
        return f
    return put(f, replace(c, economy=e))


def help_ally(f: Fight, helper: Combatant, target: str, ev: Events) -> Fight:
    """Help: the ally has advantage on its next check or its next attack (the GM sees that the
    attack's target is within 5 ft of the helper), until the helper's next turn starts."""
    t = f.get(target)
    cond = Condition("Helped", duration=Duration("turn_start", who=helper.id), source=helper.id)
    t = remove_condition(t, "Helped")
    f = put(f, replace(t, conditions=t.conditions + (cond,)))
    detail = f"by {helper.name}: advantage on its next check or attack, until {helper.name}'s next turn"
    ev.append(E.ConditionAdded(t.id, t.name, "Helped", detail))
    return f


def use_help(f: Fight, cid: str, what: str, ev: Events) -> Fight:
    """The helped combatant made its check or attack: the Help is spent."""
    c = f.get(cid)
    if not c.has("Helped"):
        return f
    f = put(f, remove_condition(c, "Helped"))
    ev.append(E.ConditionEnded(c.id, c.name, "Helped", f"used on its {what}"))
    return f


# --- movement ---------------------------------------------------------------------------------

_MOVED = re.compile(r"^(?:Move(?: ([0-9]+) ft)?|.+ \(move(?: ([0-9]+) ft)?\))\Z", re.ASCII)  # ASCII digits only


def move_entry(label: str, feet: int | None) -> str:
    """How a move is written in the turn's `used` list (the tracker shows it; movement_left reads it)."""
    if not label or label.lower() == "move":
        return f"Move {feet} ft" if feet else "Move"
    return f"{label} (move {feet} ft)" if feet else f"{label} (move)"


def moved_feet(entry: str) -> int:
    """The distance a measured move of `used` covered (0 for anything else)."""
    m = _MOVED.match(entry)
    feet = (m.group(1) or m.group(2)) if m else None
    return int(feet) if feet else 0


def movement_left(c: Combatant) -> int:
    """Feet of movement left this turn: the speed (halved when Slowed, 0 when held), once more for
    each Dash, less what the moves of the turn used. A move given no distance uses a whole speed's
    worth (or what is left of it)."""
    e = c.economy
    speed = effective_speed(c)[0]
    if e.move <= 0 or speed <= 0:
        return 0
    left = speed
    for u in e.used:
        if u.lower() == "dash":
            left += speed
            continue
        m = _MOVED.match(u)
        if m is None:
            continue
        feet = m.group(1) or m.group(2)
        left -= int(feet) if feet else min(speed, left)
        left = max(0, left)
    return min(left, e.move * speed)


def spend_move(c: Combatant, label: str, cost: int) -> tuple[Combatant, str]:
    """Take a move out of the turn: `cost` 1 (the default) is a whole speed's worth or what is left
    of it; more is a distance in feet. Standing up costs half the speed. Returns the combatant and
    what the log shows of the move."""
    speed = effective_speed(c)[0]
    left = movement_left(c)
    if speed <= 0:
        raise RuleError(f"{c.name}'s speed is 0: it cannot move.")
    if left <= 0:
        raise RuleError(f"{c.name} has already moved this turn: no movement left.")
    name = label.lower()
    if cost < 1 or cost > 5000:
        raise RuleError(f"A move covers a distance in feet (5, 10, ...), not {cost}.")
    if name == STAND_UP.lower():
        if cost != 1:
            raise RuleError("Standing up costs half the speed: give no distance.")
        feet = max(1, speed // 2)
        if feet > left:
            raise RuleError(f"{c.name} needs {feet} ft of movement to stand up and has {left} ft left.")
    elif name == PICK_UP.lower():
        if cost != 1:
            raise RuleError("Picking up a weapon costs the move: give no distance.")
        feet = min(speed, left)
    elif cost == 1:
        feet = min(speed, left)
    else:
        if cost > left:
            raise RuleError(f"{c.name} has only {left} ft of movement left, not {cost}.")
        feet = cost
    measured = feet if (cost > 1 or name == STAND_UP.lower()) else None
    after = left - feet
    e = replace(c.economy, move=-(-after // speed), gambit=0, used=c.economy.used + (move_entry(label, measured),))
    shown = " ".join(x for x in (label, f"{measured} ft" if measured else "") if x)
    return replace(c, economy=e), shown


def effective_speed(c: Combatant) -> tuple[int, str]:
    """Speed in feet now, and why it is not the stat (for the tracker's display)."""
    if not c.conditions:
        return c.stat("speed", 30), ""
    held = _first(c, _SPEED_ZERO)
    if held:
        return 0, held
    speed = c.stat("speed", 30)
    if c.has("Slowed"):
        return speed // 2, "Slowed"
    return speed, ""


def status(c: Combatant) -> str:
    """The d20 state of a combatant at 0 hit points: Death's Door for PCs, dropped companions."""
    if not c.down:
        return ""
    if c.owner:
        return "dropped"
    return "Death's Door" if c.kind == "pc" else "down"


# --- conditions acting on their own ---------------------------------------------------------------


def start_effects(rs: "D20", f: Fight, cid: str, ev: Events, given: GivenRolls | None, lost: bool = False) -> Fight:
    """The start of `cid`'s turn: Bleeding and Burning damage, then (on a turn it gets to play)
    incapacitation and the Confused d10."""
    c = f.get(cid)
    # Bleeding and Burning only hurt a combatant with conditions (most have none)
    for name, typ in _HURTING if c.conditions else ():
        cond = f.get(cid).condition(name)
        if cond is None:
            continue
        r, f = effect_roll(f, given, cid, name, cond.dice or "1d4")
        c = f.get(cid)
        ev.append(EffectRolled(c.id, c.name, name, r))
        f = deal_damage(rs, f, cid, max(0, r.total), typ, None, ev, name)
        c = f.get(cid)
    if lost:
        return f
    if c.down:
        # dropped by its own Bleeding or Burning: nothing left to decide this turn (no Confused d10)
        return f
    incap = incapacitated(c)
    if incap:
        # its reaction is barred while the condition lasts (before_use), not spent: should the
        # condition end before its next turn it can react again, as after a lost turn
        f = put(f, replace(c, economy=replace(c.economy, actions=0, bonus=0, gambit=0)))
        ev.append(E.Info(f"{c.name} is {incap}: no actions or reactions this turn", cid))
        return f
    if c.has("Confused"):
        r, f = effect_roll(f, given, cid, "Confused", "1d10")
        c = f.get(cid)
        n = r.total
        low, _, text = next(o for o in CONFUSED_OUTCOMES if o[0] <= n <= o[1])
        e = c.economy  # no reactions while Confused: barred by before_use, not spent
        if low in (1, 2):
            # 1: its move is the random one; 2-6: it stays put; neither acts
            e = replace(e, actions=0, bonus=0, move=0)
        elif low == 7:
            # the action is kept for that one melee attack, and for nothing else
            e = replace(e, bonus=0, move=0, used=e.used + (CONFUSED_ATTACK,))
        f = put(f, replace(c, economy=e))
        ev.append(EffectRolled(c.id, c.name, "Confused", r, text))
    return f


_HURTING = (("Bleeding", "piercing"), ("Burning", "fire"))  # conditions that deal damage as a turn starts


def end_effects(f: Fight, cid: str, ev: Events) -> Fight:
    """The end of `cid`'s turn: Disengage is over (its own, and a readied one taken in this turn);
    a Confused creature owes its save again."""
    for other in f.combatants:
        if other.economy.disengaged:
            f = put(f, replace(other, economy=replace(other.economy, disengaged=False)))
    c = f.get(cid)
    cond = c.condition("Confused")
    if cond is None:
        return f  # nothing changed: no new state to build
    c = replace(c, due=tuple(d for d in c.due if d.what != cond.name) + (Due(cond.name, cond.dc),))
    ev.append(SaveDue(c.id, c.name, cond.name, cond.dc))
    return put(f, c)


def lose_turn(rs: "D20", f: Fight, cid: str, ev: Events, reason: str, given: GivenRolls | None) -> Fight:
    """A lost turn (Surprised, Stunned) still starts and ends: its durations tick, its reaction comes
    back and Bleeding or Burning still hurts, but nothing is done in it and the Confused d10 is not
    rolled."""
    c = f.get(cid)
    ev.append(E.TurnSkipped(cid, c.name, reason))
    # the turn still starts: the reaction comes back (Stunned still forbids using it while it lasts)
    f = put(f, replace(c, economy=replace(c.economy, reactions=1)))
    f = expire(f, cid, "turn_start", ev)
    f = pools.turn_start(f, cid, ev)  # legendary actions back, a recharge owed, as on any turn
    f = start_effects(rs, f, cid, ev, given, lost=True)
    f = end_effects(f, cid, ev)
    f = expire(f, cid, "turn_end", ev)
    c = f.get(cid)
    return put(f, replace(c, economy=replace(c.economy, done=True)))


def condition_added(f: Fight, c: Combatant, cond: Condition, ev: Events) -> Fight:
    if cond.name == "Concentrating":
        incap = incapacitated(c)
        if incap:
            raise RuleError(f"{c.name} is {incap} and cannot concentrate.")
        return f
    if cond.name not in INCAPACITATING:
        return f
    f = end_concentration(f, c.id, f"{cond.name.lower()}", ev)
    # a grapple ends when the grappler is incapacitated
    f = release_grapples(f, c.id, f"{c.name} is {cond.name}", ev)
    if cond.name == "Unconscious":
        c = f.get(c.id)
        if not c.has("Prone"):
            f = put(f, replace(c, conditions=c.conditions + (Condition("Prone"),)))
            ev.append(E.ConditionAdded(c.id, c.name, "Prone", "falls unconscious"))
        ev.append(E.Info(f"{c.name} drops whatever it was holding", c.id))
    return f


def release_grapples(f: Fight, grappler: str, reason: str, ev: Events) -> Fight:
    """Every grapple held by `grappler` ends (it is incapacitated, down, or gone)."""
    for other in f.combatants:
        g = other.condition("Grappled")
        if g is not None and g.source == grappler:
            f = put(f, remove_condition(other, "Grappled"))
            ev.append(E.ConditionEnded(other.id, other.name, "Grappled", reason))
    return f


def condition_removed(f: Fight, c: Combatant, cond: Condition, ev: Events) -> Fight:
    what = "concentration" if cond.name == "Concentrating" else cond.name
    return put(f, _drop_dues(c, what)) if c.due else f


def prune_dues(f: Fight) -> Fight:
    """Saves owed against a condition that has since ended (expired) are no longer owed (a recharge
    roll owed is not a save: engine.pools keeps it)."""
    for c in f.combatants:
        if not c.due:
            continue
        keep = tuple(
            d for d in c.due if is_recharge(d) or c.has("Concentrating" if d.what == "concentration" else d.what)
        )
        if keep != c.due:
            f = put(f, replace(c, due=keep))
    return f
