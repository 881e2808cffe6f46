"""Warhammer: the attack sequence, from the d100 attack test to critical injuries, as one command.

One `Attack` is one table action: attack test, an optional parry or dodge, damage, hit location,
armour and Toughness, Wounds, zero Wounds, the critical or sudden-death roll, the Willpower test to
keep fighting. So one undo takes the whole sequence back. Every roll can be typed in from the table
(`given_*`, validated, marked entered, never moving the fight's random source). Dice the app rolls
are drawn in a fixed order (attack, fumble, defence, damage, critical, Willpower), so a dialog can
preview an attack with `preview_attack` (a pure dry run), show the attack roll, and add the
defence choice without the attack roll changing.

Pure helpers for the dialog: `attack_odds` (exact chances before rolling), `defence_choices`,
`location`, `success_levels`. The decisions where the text is silent are in docs/rules/warhammer.md.
"""

from fractions import Fraction
from typing import Literal

import msgspec
from msgspec.structs import replace

from engine import events as E
from engine.commands import Command, Given, register_command
from engine.dice import DiceRoll, Rng, roll
from engine.errors import RuleError
from engine.events import Event, register_event
from engine.rules.warhammer.economy import WarhammerEconomy
from engine.ruleset import get_ruleset
from engine.state import Combatant, Condition, Fight, put, set_pool, set_stat

# --- d100 reading -------------------------------------------------------------------------------

AUTO_MISS = 96  # any attack roll of 96 or more misses


def tens(r: int) -> int:
    """The tens die of a d100 result 1-100 (100 reads as 00)."""
    return (r // 10) % 10


def units(r: int) -> int:
    return r % 10


def is_double(r: int) -> bool:
    """11, 22, ... 99 and 00 (100)."""
    return tens(r) == units(r)


def success_levels(target: int, r: int) -> int:
    """Tens digit of the target minus tens digit of the roll (00 counts as 100): a success has
    SL >= 0, a failure SL <= 0. A target below 0 counts as 0."""
    return max(target, 0) // 10 - r // 10


def impale_zero(r: int) -> bool:
    """Impale's extra crit: one of the two dice shows 0 (01-09 and 10, 20, ... 90). 00 has two
    zeros, and always misses anyway."""
    return (tens(r) == 0) != (units(r) == 0)


def reverse(r: int) -> int:
    """The attack roll with its digits swapped, for the hit location: 37 -> 73, 05 -> 50, 00 -> 00."""
    return units(r) * 10 + tens(r)


# key, label, lowest and highest reversed roll
LOCATIONS: tuple[tuple[str, str, int, int], ...] = (
    ("body", "Body", 1, 39),
    ("head", "Head", 40, 49),
    ("rarm", "Right (main) arm", 50, 64),
    ("rleg", "Right (main) leg", 65, 79),
    ("larm", "Left arm", 80, 89),
    ("lleg", "Left leg", 90, 99),
)
LOCATION_LABEL = {k: label for k, label, _, _ in LOCATIONS}


def location(r: int) -> str:
    """Hit location of an attack roll: its digits reversed, on the chart. A reversed 00 is not on
    the chart; Fracas reads it as Body (a roll of 00 always misses, so it only matters when the GM
    forces a hit)."""
    rev = reverse(r)
    for key, _, low, high in LOCATIONS:
        if low <= rev <= high:
            return key
    return "body"


def armour(c: Combatant, loc: str) -> int:
    return c.stat(f"ap_{loc}")


def toughness_bonus(c: Combatant) -> int:
    return c.stat("t") // 10


# --- tiers, zero Wounds ---------------------------------------------------------------------------

TIERS = ("master", "champion", "minion")


def tier(c: Combatant) -> str:
    """minion, champion or master from the combatant's flags; "" for the untiered (most PCs)."""
    for t in TIERS:
        if t in c.flags:
            return t
    return ""


def points(c: Combatant, key: str) -> int:
    p = c.pool(key)
    return p.current if p is not None else 0


def is_companion(c: Combatant) -> bool:
    """A companion: flagged so, or a non-player character on the party's side."""
    return "companion" in c.flags or (c.kind == "npc" and c.side == "party")


def resolute(c: Combatant) -> bool:
    """At least 1 point of Resolve. The text names who has it: PCs, companions and masters. For
    them a Resolve never set (maximum 0) counts as that point; one tracked and spent down to 0
    does not. Anyone else needs a point of Resolve of its own."""
    if points(c, "resolve") >= 1:
        return True
    p = c.pool("resolve")
    untracked = p is None or p.max == 0
    return untracked and (c.kind == "pc" or is_companion(c) or tier(c) == "master")


def fights_on(c: Combatant) -> bool:
    """At 0 Wounds: those with Resolve fight on; a champion who passed its Willpower test too."""
    return resolute(c) or c.has("Fighting on")


def collapsed(c: Combatant) -> bool:
    return c.has("Collapsed") or (c.down and not fights_on(c))


def out_of_action(c: Combatant) -> str:
    """Why a combatant cannot act or defend at all ("" if it can)."""
    if c.has("Dead"):
        return "dead"
    if c.has("Critically wounded"):
        return "critically wounded (prone and stunned)"
    if collapsed(c):
        return "collapsed at 0 Wounds"
    return ""


def zero_wounds_state(c: Combatant) -> str:
    if resolute(c):
        return "is at 0 Wounds and fights on (Resolve)"
    if tier(c) == "champion":
        if c.has("Fighting on"):
            return "is at 0 Wounds and fights on (passed its Willpower test)"
        if c.has("Stopped fighting"):
            return "is at 0 Wounds and has stopped fighting (failed its Willpower test)"
        return "is at 0 Wounds: a Willpower test decides whether it keeps fighting"
    return "is at 0 Wounds and collapses, helpless"


def may_deflect(c: Combatant) -> bool:
    """Armour deflection: the restriction is on opponents (champions, masters, or Resilience);
    PCs and companions are not the lesser folk it shuts out (Anna, a PC, may deflect)."""
    if c.kind == "pc" or is_companion(c):
        return True
    return tier(c) in ("champion", "master") or points(c, "resilience") >= 1


# --- reactions ----------------------------------------------------------------------------------


def spend_defence(c: Combatant, what: str, aware: bool | None = None) -> WarhammerEconomy:
    """The economy after one parry or dodge: a parry takes a bonus parry first (shield, off-hand,
    two-handed), then the reaction, then the fighting-defensively reaction; a dodge the reaction,
    then the fighting-defensively one. Raises if none is left or the combatant cannot react.

    `aware`: the GM's ruling on whether the defender is aware of the attack (None: aware unless
    Surprised). An unaware defender cannot defend at all."""
    e = c.economy
    if aware is False:
        raise RuleError(f"{c.name} is not aware of the attack and cannot defend.")
    if c.has("Surprised") and not aware:
        raise RuleError(f"{c.name} is Surprised and cannot react.")
    why = out_of_action(c)
    if why:
        raise RuleError(f"{c.name} is {why} and cannot defend.")
    if what == "parry" and "unarmed" in c.flags:
        raise RuleError(f"{c.name} has no melee weapon or object ready to parry with: only a dodge.")
    if what == "parry" and e.parries > 0:
        return replace(e, parries=e.parries - 1)
    if e.reactions > 0:
        return replace(e, reactions=e.reactions - 1)
    if e.defensive > 0:
        return replace(e, defensive=e.defensive - 1)
    kind = "parries or reactions" if what == "parry" else "reactions"
    raise RuleError(f"{c.name} has no {kind} left this round.")


# --- multiple attacks ---------------------------------------------------------------------------


class AttackOption(msgspec.Struct, frozen=True):
    label: str
    penalties: tuple[int, ...]
    flag: str = ""  # the combatant flag (talent or second weapon) it needs
    needs: str = ""  # how the GM reads that flag


OPTIONS: dict[str, AttackOption] = {
    "": AttackOption("Single attack", (0,)),
    "dual": AttackOption("Dual wielding", (-20, -40), "offhand", "a weapon in the off hand"),
    "swift_even": AttackOption("Swift Attack -10/-10", (-10, -10), "swift_attack", "the Swift Attack talent"),
    "swift_lead": AttackOption("Swift Attack 0/-20", (0, -20), "swift_attack", "the Swift Attack talent"),
    "lightning_even": AttackOption(
        "Lightning Attack -20/-20/-20", (-20, -20, -20), "lightning_attack", "the Lightning Attack talent"
    ),
    "lightning_lead": AttackOption(
        "Lightning Attack 0/-20/-40", (0, -20, -40), "lightning_attack", "the Lightning Attack talent"
    ),
}

KINDS = ("melee", "thrown", "missile")


# --- commands -----------------------------------------------------------------------------------


class Attack(Command, tag="wh_attack"):
    """One attack, start to finish. `who` attacks `target` on its own turn.

    kind: melee, thrown, or missile (arrows, bolts, bullets); `in_melee` for a missile weapon used in
    melee, which is defended normally. skill: "" = WS for melee, BS otherwise. modifier: the GM's
    situational modifiers. option: a multiple-attack option (see OPTIONS), the same for every attack
    of the turn. defence: "", "parry" or "dodge" (the defender's choice; made only if the attack
    hits). aware: the GM's ruling on whether the defender knows of this attack (None = yes unless
    Surprised; False = it cannot defend; True = it may defend though Surprised). shield: whether a
    shield's AP counts against this missile (None = if the defender is aware of it).
    location: the GM's override of the hit location. deflect: the defender has its armour deflect a
    critical. sudden_death: a minion's fate by the sudden-death table (None = yes for minions).
    injury / fumble_result: what the GM read on the critical or fumble table (kept as a condition).
    given_*: the table's dice for each roll.
    """

    who: str
    target: str
    weapon: str = ""
    kind: Literal["melee", "thrown", "missile"] = "melee"
    in_melee: bool = False
    damage: int = 0
    impale: bool = False
    skill: Literal["", "ws", "bs"] = ""
    modifier: int = 0
    option: str = ""
    defence: Literal["", "parry", "dodge"] = ""
    defence_modifier: int = 0
    aware: bool | None = None
    shield: bool | None = None
    location: str = ""
    deflect: bool = False
    sudden_death: bool | None = None
    injury: str = ""
    fumble_result: str = ""
    given_attack: Given = None
    given_fumble: Given = None
    given_defence: Given = None
    given_damage: Given = None
    given_critical: Given = None
    given_willpower: Given = None


class Critical(Command, tag="wh_critical"):
    """A critical injury outside an attack (a wounding hit at 0 Wounds from the Damage command,
    a fall): the d100 roll plus `modifier` (+5 per point of damage beyond 0 Wounds)."""

    who: str
    location: str = "body"
    modifier: int = 0
    deflect: bool = False
    sudden_death: bool | None = None
    injury: str = ""
    given: Given = None
    source: str = ""


class KeepFighting(Command, tag="wh_willpower"):
    """A champion at 0 Wounds tests Willpower (+0 unless the GM says otherwise) to keep fighting."""

    who: str
    modifier: int = 0
    given: Given = None


for _cmd in (Attack, Critical, KeepFighting):
    register_command(_cmd)


# --- events -------------------------------------------------------------------------------------


def _mods(base_label: str, base: int, mods: tuple[tuple[str, int], ...], need: int) -> str:
    text = f"{base_label} {base}"
    for label, v in mods:
        text += f" {v:+d} ({label})"
    return text + (f" = {need}" if mods else "")


class AttackTested(Event, tag="wh_attack"):
    who: str
    name: str
    target: str
    target_name: str
    roll: DiceRoll
    skill: str
    base: int
    need: int
    result: str  # "hit", "critical hit", "miss", "fumble"
    sl: int
    mods: tuple[tuple[str, int], ...] = ()
    weapon: str = ""
    attack: str = ""  # "attack 2 of 3, Lightning Attack 0/-20/-40"

    def text(self) -> str:
        what = ", ".join(x for x in (self.weapon, self.attack) if x)
        what = f" ({what})" if what else ""
        tested = _mods(self.skill, self.base, self.mods, self.need)
        return (
            f"{self.name} attacks {self.target_name}{what}: {tested}; {self.roll.text()}: "
            f"{self.result}, SL {self.sl:+d}"
        )


class DefenceTested(Event, tag="wh_defence"):
    who: str
    name: str
    kind: str  # parry / dodge
    roll: DiceRoll
    skill: str
    base: int
    need: int
    success: bool
    sl: int
    outcome: str
    mods: tuple[tuple[str, int], ...] = ()
    critical: bool = False

    def text(self) -> str:
        tested = _mods(self.skill, self.base, self.mods, self.need)
        res = ("critical success" if self.critical else "success") if self.success else "failure"
        verb = "parries" if self.kind == "parry" else "dodges"
        return f"{self.name} {verb}: {tested}; {self.roll.text()}: {res}, SL {self.sl:+d}; {self.outcome}"


class CriticalRolled(Event, tag="wh_critical"):
    who: str
    name: str
    location: str
    roll: DiceRoll
    total: int
    cause: str
    mods: tuple[tuple[str, int], ...] = ()
    sudden: bool = False
    result: str = ""  # the sudden-death band, or the injury the GM read

    def text(self) -> str:
        mods = "".join(f" {v:+d} ({label})" for label, v in self.mods)
        table = "sudden-death roll" if self.sudden else "critical roll"
        where = LOCATION_LABEL.get(self.location, self.location)
        head = f"{self.name}: {table} for a critical injury to the {where} ({self.cause}): "
        body = f"{self.roll.text()}{mods}" + (f" = {self.total}" if self.mods else "")
        if self.result:
            return f"{head}{body}: {self.result}"
        return f"{head}{body}; the GM reads the {where} critical table"


class ArmourDamaged(Event, tag="wh_armour"):
    who: str
    name: str
    location: str
    before: int
    after: int
    reduction: int

    def text(self) -> str:
        where = LOCATION_LABEL.get(self.location, self.location)
        return (
            f"{self.name}'s armour deflects the blow: critical -{self.reduction}; {where} AP "
            f"{self.before} -> {self.after} until repaired"
        )


class FumbleRolled(Event, tag="wh_fumble"):
    who: str
    name: str
    roll: DiceRoll
    result: str = ""

    def text(self) -> str:
        res = self.result or "the GM reads the Fumble table"
        return f"{self.name} fumbles: {self.roll.text()}; {res}"


class WillpowerTested(Event, tag="wh_willpower"):
    who: str
    name: str
    roll: DiceRoll
    need: int
    success: bool
    mods: tuple[tuple[str, int], ...] = ()

    def text(self) -> str:
        tested = _mods("WP", self.need - sum(v for _, v in self.mods), self.mods, self.need)
        res = "keeps on fighting" if self.success else "stops fighting: bruised, battered, unwilling or unable"
        return f"{self.name} tests Willpower to keep fighting: {tested}; {self.roll.text()}: {res}"


for _ev in (AttackTested, DefenceTested, CriticalRolled, ArmourDamaged, FumbleRolled, WillpowerTested):
    register_event(_ev)


# --- sudden death -------------------------------------------------------------------------------

SUDDEN_GAP = (
    "the sudden-death table skips 21-30; Fracas reads it as a grazing blow (the band below), "
    "adding no effect the text does not give"
)


def sudden_death(total: int) -> tuple[str, tuple[str, ...]]:
    """The band of a sudden-death total and the conditions it gives."""
    if total <= 20:
        return "Grazing blow: no effect", ()
    if total <= 30:
        return f"Grazing blow: no effect ({SUDDEN_GAP})", ()
    if total <= 40:
        return "Seriously injured: fights at -20; a Cool test or it flees at once", ("Seriously injured",)
    if total <= 65:
        return "Critically wounded: prone and stunned indefinitely", ("Critically wounded", "Prone", "Stunned")
    return "Dead", ("Dead",)


# --- validation helpers -------------------------------------------------------------------------


def _given_ok(expr: str, given: Given, what: str) -> None:
    if given is None:
        return
    try:
        roll(expr, Rng(), given)
    except RuleError as e:
        raise RuleError(f"{what}: {e}") from None


def _draw(f: Fight, expr: str, given: Given) -> tuple[DiceRoll, Fight]:
    r, rng = roll(expr, f.rng, given)
    return r, (f if given is not None else replace(f, rng=rng))


def _line(text: str, what: str, limit: int = 120) -> str:
    text = text.strip()
    if len(text) > limit or "\n" in text or "\r" in text:
        raise RuleError(f"Keep the {what} to one line of at most {limit} characters.")
    return text


def _add_condition(
    f: Fight, cid: str, name: str, note: str, ev: list[Event], detail: str = "", verb: str = ""
) -> Fight:
    c = f.get(cid)
    kept = tuple(x for x in c.conditions if x.name.lower() != name.lower())
    f = put(f, replace(c, conditions=kept + (Condition(name, note=note),)))
    ev.append(E.ConditionAdded(c.id, c.name, name, detail, verb))
    return f


# --- the attack ---------------------------------------------------------------------------------


class AttackReport(msgspec.Struct, frozen=True, gc=False):
    """What an attack did, for the dialog's preview: every number the table would call out."""

    need: int
    roll: int
    hit: bool
    critical: bool
    fumble: bool
    sl: int
    defence: str = ""
    defence_need: int = 0
    defence_roll: int = 0
    defence_sl: int = 0
    cancelled: bool = False
    location: str = ""
    die: int = 0
    raw: int = 0
    armour: int = 0
    toughness: int = 0
    wounds: int = 0  # what came off Wounds
    left: int = 0
    critical_total: int | None = None
    sudden: str = ""
    willpower: bool | None = None


def attack_skill(cmd: Attack) -> str:
    if cmd.skill:
        return cmd.skill
    return "ws" if cmd.kind == "melee" else "bs"


def _attack_mods(f: Fight, cmd: Attack) -> tuple[tuple[str, int], ...]:
    """The modifiers of this attack test: the attack option's penalty, a Surprised defender, the
    attacker's injuries, the GM's modifier."""
    a, t = f.get(cmd.who), f.get(cmd.target)
    opt = OPTIONS.get(cmd.option)
    mods: list[tuple[str, int]] = []
    if opt is not None and cmd.option:
        n = a.economy.attacks if a.economy.attack_option == cmd.option else 0
        if n < len(opt.penalties) and opt.penalties[n]:
            hand = ""
            if cmd.option == "dual":
                hand = ", main hand" if n == 0 else ", off hand"
            mods.append((f"{opt.label}{hand}", opt.penalties[n]))
    if t.has("Surprised"):
        mods.append(("defender Surprised", 20))
    if a.has("Seriously injured"):
        mods.append(("Seriously injured", -20))
    if cmd.modifier:
        mods.append(("modifier", cmd.modifier))
    return tuple(mods)


def _defence_mods(f: Fight, cmd: Attack, what: str) -> tuple[tuple[str, int], ...]:
    t = f.get(cmd.target)
    mods: list[tuple[str, int]] = []
    if cmd.kind == "thrown" and not cmd.in_melee and what == "parry":
        mods.append(("parrying a thrown weapon", -20))
    if cmd.kind == "missile" and not cmd.in_melee and what == "dodge":
        mods.append(("dodging a missile", -20))
    if t.has("Seriously injured"):
        mods.append(("Seriously injured", -20))
    if cmd.defence_modifier:
        mods.append(("modifier", cmd.defence_modifier))
    return tuple(mods)


def defence_choices(f: Fight, cmd: Attack) -> tuple[tuple[str, int, str], ...]:
    """(parry / dodge, automatic modifier, why not) for the dialog; `why not` is "" when allowed."""
    t = f.get(cmd.target)
    out = []
    for what in ("parry", "dodge"):
        why = ""
        if cmd.kind == "missile" and not cmd.in_melee and what == "parry":
            why = "arrows, bolts and bullets can only be dodged"
        else:
            try:
                spend_defence(t, what, cmd.aware)
            except RuleError as e:
                why = str(e)
        mod = sum(v for label, v in _defence_mods(f, replace(cmd, defence_modifier=0), what))
        out.append((what, mod, why))
    return tuple(out)


# the attack's fields that name one of a few choices, and the refusal for anything else
_CHOICES: tuple[tuple[str, tuple[str, ...], str], ...] = (
    ("kind", KINDS, "A weapon is melee, thrown or missile, not '{}'."),
    ("skill", ("", "ws", "bs"), "Attack with WS or BS, not '{}'."),
    ("defence", ("", "parry", "dodge"), "Defend with a parry or a dodge, not '{}'."),
)

# every roll the table may type in, in the order they are checked: (dice, field, what)
_GIVEN_ROLLS: tuple[tuple[str, str, str], ...] = (
    ("1d100", "given_attack", "Attack roll"),
    ("1d100", "given_fumble", "Fumble roll"),
    ("1d100", "given_defence", "Defence roll"),
    ("1d10", "given_damage", "Damage die"),
    ("1d100", "given_critical", "Critical roll"),
    ("1d100", "given_willpower", "Willpower roll"),
)


def _check_attacker(f: Fight, cmd: Attack) -> tuple[Combatant, Combatant]:
    """Who may attack: a fight under way, the attacker's own turn, an attacker able to act."""
    if not f.started or f.ended:
        raise RuleError("The fight is not under way.")
    a, t = f.get(cmd.who), f.get(cmd.target)
    if a.id == t.id:
        raise RuleError(f"{a.name} cannot attack itself.")
    if f.current != a.id:
        raise RuleError(f"It is not {a.name}'s turn: attacks are made on the attacker's turn.")
    if a.has("Surprised"):
        raise RuleError(f"{a.name} is Surprised and cannot act.")
    why = out_of_action(a)
    if why:
        raise RuleError(f"{a.name} is {why} and cannot attack.")
    return a, t


def _check_fields(cmd: Attack) -> None:
    """The command's own fields: known choices, believable numbers, one-line texts."""
    for field, allowed, refusal in _CHOICES:
        value = getattr(cmd, field)
        if value not in allowed:
            raise RuleError(refusal.format(value))
    if not -50 <= cmd.damage <= 100:
        raise RuleError(f"A weapon's damage bonus of {cmd.damage} is not believable (-50 to 100).")
    for m, what in ((cmd.modifier, "attack"), (cmd.defence_modifier, "defence")):
        if not -200 <= m <= 200:
            raise RuleError(f"An {what} modifier is between -200 and +200, not {m}.")
    if cmd.location and cmd.location not in LOCATION_LABEL:
        raise RuleError(f"No hit location '{cmd.location}' (use {', '.join(LOCATION_LABEL)}).")
    _line(cmd.weapon, "weapon name", 80)
    _line(cmd.injury, "critical injury")
    _line(cmd.fumble_result, "fumble result")


def _check_option(a: Combatant, cmd: Attack) -> AttackOption:
    """Multiple attacks: the first attack of a turn spends the action and picks the option (which
    may need a talent or an off-hand weapon); later ones keep that option, up to its count."""
    opt = OPTIONS.get(cmd.option)
    if opt is None:
        raise RuleError(f"Unknown attack option '{cmd.option}' (known: {', '.join(k for k in OPTIONS if k)}).")
    e = a.economy
    if e.attacks == 0:
        if e.actions < 1:
            raise RuleError(f"{a.name} has already taken its one action this turn.")
        if opt.flag and opt.flag not in a.flags:
            raise RuleError(f"{opt.label} needs {opt.needs}: {a.name} has no '{opt.flag}' flag.")
        if cmd.option == "dual" and e.parries < 1:
            raise RuleError(f"{a.name} has already parried with its off-hand weapon this round: no off-hand attack.")
        return opt
    current = OPTIONS.get(e.attack_option, OPTIONS[""])
    if cmd.option != e.attack_option:
        raise RuleError(f"{a.name} is attacking with {current.label} this turn: every attack of the turn uses it.")
    if e.attacks >= len(current.penalties):
        n = len(current.penalties)
        made = "its attack" if n == 1 else f"all {n} attacks"
        raise RuleError(f"{a.name} has made {made} this turn.")
    return opt


def _check_defence(t: Combatant, cmd: Attack) -> None:
    """The defender's chosen parry or dodge, and the sudden-death table (minions only)."""
    if cmd.defence:
        if cmd.kind == "missile" and not cmd.in_melee and cmd.defence == "parry":
            raise RuleError("Arrows, bolts and bullets cannot be parried, only dodged (at -20).")
        # refuses an unaware, Surprised or spent defender before anything rolls
        spend_defence(t, cmd.defence, cmd.aware)
    if cmd.sudden_death and tier(t) != "minion":
        raise RuleError(f"The sudden-death table is for minions; {t.name} is not one.")


def _validate(f: Fight, cmd: Attack) -> tuple[Combatant, Combatant, AttackOption]:
    """Everything the rules refuse, checked before anything rolls or changes."""
    a, t = _check_attacker(f, cmd)
    _check_fields(cmd)
    opt = _check_option(a, cmd)
    _check_defence(t, cmd)
    for dice, field, what in _GIVEN_ROLLS:
        _given_ok(dice, getattr(cmd, field), what)
    return a, t, opt


def _spend_action(rs: object, f: Fight, a: Combatant, opt: AttackOption, cmd: Attack, ev: list[Event]) -> Fight:
    """The attacker's action: its first attack of the turn spends it and sets the attack option (a
    dual-wielding attack spends the off hand's parry too); a later attack only counts."""
    e = a.economy
    n = e.attacks
    if n == 0:
        e = replace(e, actions=0, attacks=1, attack_option=cmd.option, used=e.used + (cmd.weapon or "Attack",))
        if cmd.option == "dual":
            e = replace(e, parries=e.parries - 1)
    else:
        e = replace(e, attacks=n + 1)
    a = replace(a, economy=e)
    f = put(f, a)
    if n == 0:
        label = opt.label if cmd.option else (cmd.weapon or "Attack")
        ev.append(E.ActionUsed(a.id, a.name, "action", label, rs.describe_economy(a)))  # type: ignore[attr-defined]
        if cmd.option == "dual":
            off = f"{a.name} attacks with the off-hand weapon instead of parrying with it this round."
            ev.append(E.Info(off, a.id))
    return f


def _attack_test(
    f: Fight,
    cmd: Attack,
    a: Combatant,
    t: Combatant,
    opt: AttackOption,
    n: int,
    mods: tuple[tuple[str, int], ...],
    ev: list[Event],
) -> tuple[Fight, AttackReport]:
    """The attack test: d100 against WS or BS plus modifiers; a double is a critical hit (or a
    fumble on a miss), Impale adds a zero, 96 or more always misses."""
    skill = attack_skill(cmd)
    base = a.stat(skill)
    need = base + sum(v for _, v in mods)
    r, f = _draw(f, "1d100", cmd.given_attack)
    x = r.total
    hit = x <= need and x < AUTO_MISS
    crit = hit and (is_double(x) or (cmd.impale and impale_zero(x)))
    fumble = not hit and is_double(x)
    sl = success_levels(need, x) if hit else min(0, success_levels(need, x))
    result = "critical hit" if crit else "hit" if hit else "fumble" if fumble else "miss"
    if not hit and x >= AUTO_MISS and x <= need:
        result += " (96 or more always misses)"
    attack_label = f"attack {n + 1} of {len(opt.penalties)}, {opt.label}" if cmd.option else ""
    ev.append(
        AttackTested(
            a.id, a.name, t.id, t.name, r, skill.upper(), base, need, result, sl, mods, cmd.weapon, attack_label
        )
    )
    return f, AttackReport(need, x, hit, crit, fumble, sl)


def _fumble(f: Fight, cmd: Attack, a: Combatant, fumbled: bool, ev: list[Event], notes: list[str]) -> Fight:
    """A fumble: its d100 roll and what the GM read on the fumble table (kept as a condition)."""
    if not fumbled:
        if cmd.fumble_result:
            raise RuleError("There is no fumble to record: the attack did not fumble.")
        if cmd.given_fumble is not None:
            notes.append("fumble roll")
        return f
    fr, f = _draw(f, "1d100", cmd.given_fumble)
    text = _line(cmd.fumble_result, "fumble result")
    ev.append(FumbleRolled(a.id, a.name, fr, text))
    if text:
        f = _add_condition(f, a.id, text, f"fumble roll {fr.total}", ev, "fumble", "suffers")
    return f


def _not_landed(cmd: Attack, notes: list[str]) -> None:
    """A miss or a cancelled hit: nothing to deflect or record, and the damage rolls go unused."""
    if cmd.deflect:
        raise RuleError("There is no critical to deflect: the attack did not land.")
    if cmd.injury:
        raise RuleError("There is no critical injury to record: the attack did not land.")
    for given, what in (
        (cmd.given_damage, "damage die"),
        (cmd.given_critical, "critical roll"),
        (cmd.given_willpower, "Willpower roll"),
    ):
        if given is not None:
            notes.append(what)


def _end_surprise(f: Fight, tid: str, ev: list[Event]) -> Fight:
    """Being attacked ends Surprised, whatever the outcome."""
    t = f.get(tid)
    if t.has("Surprised"):
        f = put(f, replace(t, conditions=tuple(c for c in t.conditions if c.name != "Surprised")))
        ev.append(E.ConditionEnded(t.id, t.name, "Surprised", "was attacked"))
    return f


def attack(rs: object, f: Fight, cmd: Attack) -> tuple[Fight, list[Event], AttackReport]:
    """The whole attack sequence; raises RuleError (nothing changed) for anything the rules refuse."""
    a, t, opt = _validate(f, cmd)
    ev: list[Event] = []
    notes: list[str] = []
    mods = _attack_mods(f, cmd)  # before the action is spent: the option's penalty counts earlier attacks
    surprised = t.has("Surprised")
    n = a.economy.attacks
    f = _spend_action(rs, f, a, opt, cmd, ev)
    f, report = _attack_test(f, cmd, a, t, opt, n, mods, ev)
    hit, sl = report.hit, report.sl
    f = _fumble(f, cmd, a, report.fumble, ev, notes)

    cancelled = False
    if hit and cmd.defence:
        f, sl, cancelled, report = _defend(rs, f, cmd, t.id, sl, report.critical, report, ev)
    elif cmd.defence:
        ev.append(E.Info(f"The attack missed: {t.name} needs no {cmd.defence}, and keeps the reaction.", t.id))
    if not (hit and cmd.defence) and cmd.given_defence is not None:
        notes.append("defence roll")

    if hit and not cancelled:
        f, report = _wound(rs, f, cmd, t.id, report.roll, sl, report.critical, surprised, report, ev, notes)
    else:
        _not_landed(cmd, notes)
    f = _end_surprise(f, t.id, ev)
    if notes:
        ev.append(E.Info(f"Entered but not needed: {', '.join(notes)}."))
    return f, ev, report


def _defend(
    rs: object, f: Fight, cmd: Attack, tid: str, sl: int, crit: bool, report: AttackReport, ev: list[Event]
) -> tuple[Fight, int, bool, AttackReport]:
    t = f.get(tid)
    what = cmd.defence
    t = replace(t, economy=spend_defence(t, what, cmd.aware))
    f = put(f, t)
    ev.append(E.ActionUsed(t.id, t.name, what, "", rs.describe_economy(t)))  # type: ignore[attr-defined]
    skill = "ws" if what == "parry" else "ag"
    mods = _defence_mods(f, cmd, what)
    base = t.stat(skill)
    need = base + sum(v for _, v in mods)
    r, f = _draw(f, "1d100", cmd.given_defence)
    d = r.total
    ok = d <= need
    dsl = success_levels(need, d)
    dcrit = ok and is_double(d)
    if ok and crit and not dcrit:
        wins = False
        outcome = "only a critical success stops a critical hit"
    else:
        wins = ok and dsl > sl
        outcome = ""
    if wins:
        outcome = "the hit is cancelled"
        new_sl = sl
    else:
        # the hit stands: its SL drops by the defender's SL, but a hit never goes below SL 0
        new_sl = max(0, sl - max(dsl, 0))
        drop = f"the hit stands, attacker's SL {sl:+d} -> {new_sl:+d}" if new_sl != sl else "the hit stands"
        outcome = f"{outcome}; {drop}" if outcome else drop
    ev.append(DefenceTested(t.id, t.name, what, r, skill.upper(), base, need, ok, dsl, outcome, mods, dcrit))
    report = replace(report, defence=what, defence_need=need, defence_roll=d, defence_sl=dsl, cancelled=wins, sl=new_sl)
    return f, new_sl, wins, report


def _soak(cmd: Attack, t: Combatant, loc: str, surprised: bool) -> tuple[int, int, int]:
    """What stops damage: the location's armour, a shield's AP against thrown and missile weapons
    (by default when the defender sees the attack coming), the Toughness Bonus."""
    shield = 0
    missile = cmd.kind in ("thrown", "missile")
    aware = cmd.aware if cmd.aware is not None else not surprised
    if missile and (cmd.shield if cmd.shield is not None else aware):
        shield = t.stat("ap_shield")
    return armour(t, loc), shield, toughness_bonus(t)


def _damage_detail(cmd: Attack, loc: str, x: int, roll_part: str, soak: tuple[int, int, int], absorbed: int) -> str:
    """The damage line's detail: location, die or SL, weapon, armour, shield, TB, temporary Wounds."""
    ap, shield, tb = soak
    where = LOCATION_LABEL[loc]
    parts = [f"{where}" + (" (the GM's call)" if cmd.location else f" (reversed {reverse(x):02d})")]
    parts.append(roll_part)
    parts.append(f"damage {cmd.damage:+d}" if cmd.damage else "")
    parts.append(f"AP {ap}")
    if shield:
        parts.append(f"shield AP {shield}")
    parts.append(f"TB {tb}")
    if absorbed:
        parts.append(f"{absorbed} absorbed by temporary Wounds")
    return ", ".join(p for p in parts if p)


def _land_damage(
    f: Fight, cmd: Attack, tid: str, x: int, sl: int, surprised: bool, report: AttackReport, ev: list[Event]
) -> tuple[Fight, int, int, AttackReport]:
    """Damage: the hit location, the d10 (or the SL when higher) plus the weapon, less armour, shield
    and TB, off temporary Wounds first, then Wounds. Returns the Wounds before and the excess past 0."""
    t = f.get(tid)
    loc = cmd.location or location(x)
    dr, f = _draw(f, "1d10", cmd.given_damage)
    die = dr.total
    use_sl = sl > die
    raw = (sl if use_sl else die) + cmd.damage
    soak = _soak(cmd, t, loc, surprised)
    ap, shield, tb = soak
    dealt = max(0, raw - ap - shield - tb)
    pool = t.health[0]
    absorbed = min(pool.temp, dealt)  # temporary Wounds (the generic command) go first
    detail = _damage_detail(cmd, loc, x, f"SL {sl} instead of the die" if use_sl else f"die {die}", soak, absorbed)
    before = t.hp
    left = max(0, before - (dealt - absorbed))
    excess = max(0, dealt - absorbed - before)
    t = replace(t, health=set_pool(t.health, replace(pool, current=left, temp=pool.temp - absorbed)))
    f = put(f, t)
    ev.append(E.Damaged(t.id, t.name, dealt, raw, "", detail, dr, left))
    report = replace(report, location=loc, die=die, raw=raw, armour=ap + shield, toughness=tb, wounds=dealt, left=left)
    if before > 0 and left == 0:
        f = put(f, replace(t, dropped=(f.round, f.phase)))
        ev.append(E.Dropped(t.id, t.name, zero_wounds_state(t)))
    if dealt == 0:
        ev.append(E.Info(f"No damage gets through: {t.name} is not injured.", t.id))
    return f, before, excess, report


def _critical_causes(crit: bool, before: int, excess: int) -> tuple[list[str], tuple[tuple[str, int], ...]]:
    """Why this hit causes a critical injury (none: no critical) and the +5 per Wound past 0."""
    causes = []
    if crit:
        causes.append("critical hit")
    if before == 0:
        # any hit on a defender already at 0 Wounds causes one, even if nothing gets through
        causes.append("wounding hit at 0 Wounds" if excess > 0 else "hit at 0 Wounds")
    elif excess > 0:
        causes.append("taken past 0 Wounds")
    modifier = ((f"{excess} beyond 0 Wounds", 5 * excess),) if excess > 0 else ()
    return causes, modifier


def _no_critical(cmd: Attack, notes: list[str]) -> None:
    """A hit that causes no critical injury: nothing to deflect or record, the critical roll unused."""
    if cmd.deflect:
        raise RuleError("There is no critical to deflect: this hit causes no critical injury.")
    if cmd.injury:
        raise RuleError("There is no critical injury to record: this hit causes none.")
    if cmd.given_critical is not None:
        notes.append("critical roll")


def _champion_willpower(
    f: Fight, cmd: Attack, tid: str, reached_zero: bool, report: AttackReport, ev: list[Event], notes: list[str]
) -> tuple[Fight, AttackReport]:
    """A champion without Resolve brought to 0 Wounds tests Willpower to keep fighting."""
    t = f.get(tid)
    if reached_zero and not resolute(t) and tier(t) == "champion" and not t.has("Dead"):
        f, ok = _willpower(f, t.id, 0, cmd.given_willpower, ev)
        report = replace(report, willpower=ok)
    elif cmd.given_willpower is not None:
        notes.append("Willpower roll")
    return f, report


def _wound(
    rs: object,
    f: Fight,
    cmd: Attack,
    tid: str,
    x: int,
    sl: int,
    crit: bool,
    surprised: bool,
    report: AttackReport,
    ev: list[Event],
    notes: list[str],
) -> tuple[Fight, AttackReport]:
    """A hit that stands: the damage, then its riders (a critical injury, a champion's Willpower test)."""
    f, before, excess, report = _land_damage(f, cmd, tid, x, sl, surprised, report, ev)
    causes, modifier = _critical_causes(crit, before, excess)
    if causes:
        f, total, sudden = _critical(
            f,
            tid,
            report.location,
            modifier,
            " and ".join(causes),
            cmd.deflect,
            cmd.sudden_death,
            cmd.injury,
            cmd.given_critical,
            ev,
        )
        report = replace(report, critical_total=total, sudden=sudden)
    else:
        _no_critical(cmd, notes)
    return _champion_willpower(f, cmd, tid, before > 0 and report.left == 0, report, ev, notes)


def _critical(
    f: Fight,
    cid: str,
    loc: str,
    mods: tuple[tuple[str, int], ...],
    cause: str,
    deflect: bool,
    sudden_choice: bool | None,
    injury: str,
    given: Given,
    ev: list[Event],
) -> tuple[Fight, int, str]:
    c = f.get(cid)
    sudden = tier(c) == "minion" if sudden_choice is None else sudden_choice
    if sudden and tier(c) != "minion":
        raise RuleError(f"The sudden-death table is for minions; {c.name} is not one.")
    injury = _line(injury, "critical injury")
    if sudden and injury:
        raise RuleError("The sudden-death table gives the result itself: no injury to type in.")
    deflection: ArmourDamaged | None = None
    if deflect:
        if not may_deflect(c):
            raise RuleError(
                f"Only champions, masters and those with Resilience can have armour deflect a blow; {c.name} cannot."
            )
        ap = armour(c, loc)
        where = LOCATION_LABEL[loc]
        if ap < 1:
            raise RuleError(f"{c.name} has no armour on the {where} to deflect the blow.")
        cut = 20 if ap >= 2 else 10
        after = max(0, ap - 2)
        mods = mods + (("armour deflection", -cut),)
        c = replace(c, stats=set_stat(c.stats, f"ap_{loc}", after))
        f = put(f, c)
        deflection = ArmourDamaged(c.id, c.name, loc, ap, after, cut)
    r, f = _draw(f, "1d100", given)
    total = r.total + sum(v for _, v in mods)
    if deflection is not None:
        ev.append(deflection)
    result = ""
    conds: tuple[str, ...] = ()
    if sudden:
        result, conds = sudden_death(total)
    ev.append(CriticalRolled(c.id, c.name, loc, r, total, cause, mods, sudden, result or injury))
    for name in conds:
        f = _add_condition(f, c.id, name, f"sudden-death roll {total}", ev, "sudden death")
    if injury:
        where = LOCATION_LABEL[loc]
        f = _add_condition(
            f, c.id, injury, f"critical injury, {where}, roll {total}", ev, f"critical, {where}", "suffers"
        )
    return f, total, result


def _willpower(f: Fight, cid: str, modifier: int, given: Given, ev: list[Event]) -> tuple[Fight, bool]:
    c = f.get(cid)
    mods = (("modifier", modifier),) if modifier else ()
    need = c.stat("wp") + modifier
    r, f = _draw(f, "1d100", given)
    ok = r.total <= need
    ev.append(WillpowerTested(c.id, c.name, r, need, ok, mods))
    if ok:
        if c.has("Stopped fighting"):
            f = put(f, replace(c, conditions=tuple(x for x in c.conditions if x.name != "Stopped fighting")))
            ev.append(E.ConditionEnded(c.id, c.name, "Stopped fighting", "passed a new Willpower test"))
        f = _add_condition(f, c.id, "Fighting on", f"Willpower roll {r.total} vs {need}", ev)
    else:
        if c.has("Fighting on"):
            # a new test replaces the result of an earlier one (from an earlier time at 0 Wounds)
            f = put(f, replace(c, conditions=tuple(x for x in c.conditions if x.name != "Fighting on")))
            ev.append(E.ConditionEnded(c.id, c.name, "Fighting on", "failed the Willpower test"))
        # the failure is kept where the GM sees it (tracker, sheet, a reopened file): out of the fight
        f = _add_condition(f, c.id, "Stopped fighting", f"Willpower roll {r.total} vs {need}", ev)
    return f, ok


def preview_attack(f: Fight, cmd: Attack, rs: object | None = None) -> tuple[AttackReport, tuple[Event, ...]]:
    """What `cmd` would do, without doing it (the state is frozen: nothing changes)."""
    if rs is None:
        rs = get_ruleset(f.ruleset)
    _, ev, report = attack(rs, f, cmd)
    return report, tuple(ev)


# --- the other commands -------------------------------------------------------------------------


def critical_command(f: Fight, cmd: Critical, ev: list[Event]) -> Fight:
    if not f.started or f.ended:
        raise RuleError("The fight is not under way.")
    c = f.get(cmd.who)
    if cmd.location not in LOCATION_LABEL:
        raise RuleError(f"No hit location '{cmd.location}' (use {', '.join(LOCATION_LABEL)}).")
    if not -200 <= cmd.modifier <= 500:
        raise RuleError(f"A critical modifier is between -200 and +500, not {cmd.modifier}.")
    _given_ok("1d100", cmd.given, "Critical roll")
    cause = _line(cmd.source, "source", 80) or "critical injury"
    mods = (("modifier", cmd.modifier),) if cmd.modifier else ()
    f, _, _ = _critical(f, c.id, cmd.location, mods, cause, cmd.deflect, cmd.sudden_death, cmd.injury, cmd.given, ev)
    return f


def willpower_refusal(c: Combatant) -> str:
    """Why `c` may not test Willpower to keep fighting ("" if it may)."""
    if tier(c) != "champion":
        return f"Only champion-tier combatants test Willpower to keep fighting; {c.name} is not one."
    if not c.down:
        return f"{c.name} is not at 0 Wounds."
    if resolute(c):
        return f"{c.name} has Resolve and fights on without a test."
    if c.has("Dead"):
        return f"{c.name} is dead."
    return ""


def keep_fighting_command(f: Fight, cmd: KeepFighting, ev: list[Event]) -> Fight:
    if not f.started or f.ended:
        raise RuleError("The fight is not under way.")
    c = f.get(cmd.who)
    refusal = willpower_refusal(c)
    if refusal:
        raise RuleError(refusal)
    if not -100 <= cmd.modifier <= 100:
        raise RuleError(f"A Willpower modifier is between -100 and +100, not {cmd.modifier}.")
    _given_ok("1d100", cmd.given, "Willpower roll")
    f, _ = _willpower(f, c.id, cmd.modifier, cmd.given, ev)
    return f


# --- odds for the dialog ------------------------------------------------------------------------


class Odds(msgspec.Struct, frozen=True):
    """Exact chances of an attack, before anything is rolled."""

    need: int
    mods: tuple[tuple[str, int], ...]
    hit: Fraction
    critical: Fraction
    fumble: Fraction
    defence_need: int | None = None
    defence_mods: tuple[tuple[str, int], ...] = ()
    lands: Fraction | None = None  # the hit survives the chosen defence


def hit_chance(need: int) -> Fraction:
    """The chance that a d100 attack test against `need` hits (96-100 always miss)."""
    return Fraction(max(0, min(need, AUTO_MISS - 1)), 100)


def _attack_result(need: int, x: int, impale: bool) -> tuple[bool, bool, int]:
    hit = x <= need and x < AUTO_MISS
    crit = hit and (is_double(x) or (impale and impale_zero(x)))
    return hit, crit, success_levels(need, x)


def _cancel_chance(dneed: int, sl: int, crit: bool) -> Fraction:
    wins = 0
    for d in range(1, 101):
        ok = d <= dneed
        if not ok:
            continue
        if crit and not is_double(d):
            continue
        if success_levels(dneed, d) > sl:
            wins += 1
    return Fraction(wins, 100)


def attack_odds(f: Fight, cmd: Attack) -> Odds:
    """Chances to hit, to crit and to fumble for `cmd` as it stands; with a defence chosen, also
    the chance that the hit survives it (every pair of d100 results counted)."""
    a = f.get(cmd.who)
    f.get(cmd.target)
    mods = _attack_mods(f, cmd)
    need = a.stat(attack_skill(cmd)) + sum(v for _, v in mods)
    hits = crits = fumbles = 0
    lands = Fraction(0)
    dneed: int | None = None
    dmods: tuple[tuple[str, int], ...] = ()
    if cmd.defence:
        t = f.get(cmd.target)
        dmods = _defence_mods(f, cmd, cmd.defence)
        dneed = t.stat("ws" if cmd.defence == "parry" else "ag") + sum(v for _, v in dmods)
    cache: dict[tuple[int, bool], Fraction] = {}
    for x in range(1, 101):
        hit, crit, sl = _attack_result(need, x, cmd.impale)
        if hit:
            hits += 1
            crits += crit
            if dneed is not None:
                key = (sl, crit)
                if key not in cache:
                    cache[key] = _cancel_chance(dneed, sl, crit)
                lands += (1 - cache[key]) / 100
        elif is_double(x):
            fumbles += 1
    return Odds(
        need,
        mods,
        Fraction(hits, 100),
        Fraction(crits, 100),
        Fraction(fumbles, 100),
        dneed,
        dmods,
        lands if dneed is not None else None,
    )
