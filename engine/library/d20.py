"""d20 statblocks: abilities, AC, hit points (number and dice), speed, initiative, saves, damage
resistances, and attacks (bonus, reach or range, damage parts, a rider) that fill `d20_attack`."""

from collections.abc import Iterable
from typing import Annotated, Any, Literal

import msgspec

from engine.commands import Command, Damage
from engine.errors import RuleError
from engine.events import Event
from engine.library.abilities import (
    LEGENDARY,
    MAX_PARTS,
    Ability,
    DamagePart,
    Spellcasting,
    check_spellcasting,
    pools,
)
from engine.library.base import (
    Statblock,
    StatblockKind,
    check_dice,
    check_name,
    check_word,
    doubled,
    find_attack,
    register_kind,
    signed,
)
from engine.limits import LINE, NAME, TEXT
from engine.rules.d20 import combat
from engine.state import Combatant
from engine.text import check_line, check_multiline

Score = Annotated[int, msgspec.Meta(ge=1, le=40)]
Bonus = Annotated[int, msgspec.Meta(ge=-20, le=40)]
ABILITY_KEYS = tuple(combat.ABILITIES)  # str dex con int wis cha


class Abilities(msgspec.Struct, frozen=True, omit_defaults=True, forbid_unknown_fields=True):
    str: Score = 10
    dex: Score = 10
    con: Score = 10
    int: Score = 10
    wis: Score = 10
    cha: Score = 10


class Saves(msgspec.Struct, frozen=True, omit_defaults=True, forbid_unknown_fields=True):
    """Each save's whole bonus (None: the plain ability modifier)."""

    str: Bonus | None = None
    dex: Bonus | None = None
    con: Bonus | None = None
    int: Bonus | None = None
    wis: Bonus | None = None
    cha: Bonus | None = None


class D20Attack(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True, forbid_unknown_fields=True):
    """One attack. `reach` in feet for a melee attack; `range` "normal/long" in feet for a ranged one.
    The first damage part is the one the engine's attack rolls (its type meets resistances); further
    parts of another type come back as `extra` in attack_fields, to deal as their own Damage."""

    name: str
    bonus: Bonus = 0  # the whole attack bonus; with `ability`, what adds on top (a magic weapon's +1)
    # ability + proficiency instead of a written bonus: the engine works both out from the stats, and
    # for a weapon adds the ability modifier to the damage too (so `damage` is the bare dice)
    ability: Literal["", "str", "dex", "con", "int", "wis", "cha"] = ""
    proficient: bool = True
    power: bool = False  # a power (spell) attack: the casting ability's modifier, spends an action
    kind: Literal["melee", "ranged"] = "melee"
    reach: Annotated[int, msgspec.Meta(ge=0, le=1000)] = 5
    range: str = ""
    damage: tuple[DamagePart, ...] = ()
    # what else a hit does, whole as the statblock says it (several lines allowed), and what of it the
    # app can act on: the save it calls for, its DC, the condition given to a target that fails it
    # (or, without a save, to the one hit): "DC 11 Constitution saving throw or be Poisoned"
    rider: str = ""
    save: Literal["", "str", "dex", "con", "int", "wis", "cha"] = ""
    dc: Annotated[int, msgspec.Meta(ge=0, le=100)] = 0
    condition: str = ""
    # the damage a failed save against the rider deals ("taking 9 (2d8) poison damage on a failed
    # save"), and whether a success halves it ("or half as much damage on a successful one")
    rider_damage: tuple[DamagePart, ...] = ()
    rider_half: bool = False


class Speed(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True, forbid_unknown_fields=True):
    """A way of moving besides walking, in feet ("fly 60 ft. (hover)")."""

    kind: Literal["fly", "swim", "climb", "burrow"]
    feet: Annotated[int, msgspec.Meta(ge=0, le=500)]
    hover: bool = False


class Skill(msgspec.Struct, frozen=True, omit_defaults=True, forbid_unknown_fields=True):
    name: str
    bonus: Bonus = 0


class D20Statblock(Statblock, frozen=True, kw_only=True, tag="d20"):
    hp: Annotated[int, msgspec.Meta(ge=0, le=9999)]
    hp_dice: str = ""
    ac: Annotated[int, msgspec.Meta(ge=0, le=60)] = 10
    abilities: Abilities = Abilities()
    speed: Annotated[int, msgspec.Meta(ge=0, le=500)] = 30  # walking; 0 for a creature that only swims
    speeds: tuple[Speed, ...] = ()  # its other speeds
    init: Bonus = 0  # initiative bonus beyond the Dexterity modifier
    prof: Annotated[int, msgspec.Meta(ge=0, le=10)] = 2
    saves: Saves = Saves()
    gambit: Annotated[int, msgspec.Meta(ge=0, le=99)] = 0
    resist: tuple[str, ...] = ()
    vulnerable: tuple[str, ...] = ()
    attacks: tuple[D20Attack, ...] = ()
    legendary: Annotated[int, msgspec.Meta(ge=0, le=9)] = 0  # legendary actions a round
    legendary_resistance: Annotated[int, msgspec.Meta(ge=0, le=9)] = 0  # per day
    spellcasting: Spellcasting | None = None
    skills: tuple[Skill, ...] = ()
    senses: str = ""  # "darkvision 60 ft., passive Perception 12", as the statblock says
    languages: str = ""
    challenge: str = ""  # "1/4", "17 (18,000 XP)"


MAX_SKILLS = 30


def mod(score: int) -> int:
    return (score - 10) // 2


def total_bonus(sb: D20Statblock, a: D20Attack) -> int:
    """The attack roll's bonus: as written, or ability modifier + proficiency (+ the written bonus)."""
    if not a.ability:
        return a.bonus
    return mod(getattr(sb.abilities, a.ability)) + (sb.prof if a.proficient else 0) + a.bonus


def damage_text(parts: tuple[DamagePart, ...]) -> str:
    return " + ".join(f"{p.dice} {p.type}".strip() for p in parts) or "no damage"


# when an ability is used: an action, a bonus action, a reaction, a legendary action (at the end of
# another creature's turn, spending `cost` of its legendary actions) or a lair action
ACTS = ("action", "bonus", "reaction", "legendary", "lair")


class D20Kind(StatblockKind):
    ruleset = "d20"
    struct = D20Statblock
    save_words = ABILITY_KEYS
    act_words = ACTS

    def stats(self, sb: Any) -> tuple[tuple[str, int], ...]:
        a: Abilities = sb.abilities
        out: list[tuple[str, int]] = [
            ("hp", sb.hp),
            ("ac", sb.ac),
            ("speed", sb.speed),
            ("init", sb.init),
            ("prof", sb.prof),
        ]
        out += [(k, getattr(a, k)) for k in ABILITY_KEYS]
        for k in ABILITY_KEYS:
            given = getattr(sb.saves, k)
            # the engine reads `<ability>_save`; con_save is always set (concentration saves use it)
            if given is not None or k == "con":
                out.append((f"{k}_save", given if given is not None else mod(getattr(a, k))))
        if sb.gambit:
            out.append(("gambit", sb.gambit))
        return tuple(out)

    def add_fields(self, sb: Any) -> dict[str, Any]:
        fields = super().add_fields(sb)
        fields["resist"] = tuple(sb.resist)
        fields["vulnerable"] = tuple(sb.vulnerable)
        return fields

    def resources(self, sb: Any) -> tuple[Any, ...]:
        sc: Spellcasting | None = sb.spellcasting
        spells = sc.spells if sc else ()
        return pools(sb.actions + spells, sc.slots if sc else (), sb.legendary, sb.legendary_resistance)

    def abilities(self, sb: Any) -> tuple[Ability, ...]:
        return tuple(sb.actions) + (sb.spellcasting.spells if sb.spellcasting else ())

    def attacks(self, sb: Any) -> tuple[Any, ...]:
        return tuple(sb.attacks)

    def attack_command(self, sb: Any) -> type[Command]:
        return combat.D20Attack

    def attack_fields(self, sb: Any, attack: Any) -> dict[str, Any]:
        """bonus, damage (dice of the first part, and of later parts of the same or no type), type,
        kind, label; `extra`: ((dice, type), ...) of parts of other types, dealt on a hit by the app."""
        a: D20Attack = attack
        main: list[str] = []
        extra: list[tuple[str, str]] = []
        typ = a.damage[0].type if a.damage else ""
        for i, part in enumerate(a.damage):
            if i == 0 or part.type.casefold() in ("", typ.casefold()):
                main.append(part.dice)
            else:
                extra.append((part.dice, part.type))
        fields: dict[str, Any] = {
            "bonus": a.bonus,
            "damage": "+".join(d.replace(" ", "") for d in main),
            "type": typ,
            "kind": a.kind,
            "label": a.name,
        }
        if a.ability:
            fields["ability"] = a.ability
            fields["proficient"] = a.proficient
        if a.power:
            fields["use"] = "power"
        if extra:
            fields["extra"] = tuple(extra)
        return fields

    def follow_up(self, sb: Any, attack: str, events: Iterable[Event]) -> list[Command]:
        """The attack's damage parts of another type than the first (a bite's 1d4 fire), each its own
        Damage, when the attack hit (dice doubled on a critical)."""
        extra = self.attack_fields(sb, find_attack(sb, attack)).get("extra", ())
        rolled = next((e for e in events if isinstance(e, combat.AttackRolled)), None)
        if not extra or rolled is None or rolled.outcome == "miss":
            return []
        crit = rolled.outcome == "critical"
        return [Damage(rolled.target, dice=doubled(d) if crit else d, type=t, source=rolled.who) for d, t in extra]

    def attack_label(self, sb: Any, attack: Any) -> str:
        a: D20Attack = attack
        if a.kind == "ranged":
            where = f"range {a.range} ft" if a.range else "ranged"
        else:
            where = f"reach {a.reach} ft" + (f" or range {a.range} ft" if a.range else "")
        text = f"{a.name} {signed(total_bonus(sb, a))}, {damage_text(a.damage)}"
        if a.ability and not a.power:
            m = mod(getattr(sb.abilities, a.ability))
            text += f"{signed(m)}" if m and a.damage else ""
        text += f" ({where})"
        return f"{text}; {' '.join(a.rider.split())}" if a.rider else text

    def check(self, sb: Any) -> None:
        for field in ("resist", "vulnerable", "immune"):
            for word in getattr(sb, field):
                check_word(word, "damage type")
        for word in sb.condition_immune:
            check_word(word, "condition")
        self._check_magic(sb)
        self._check_extras(sb)
        for a in sb.attacks:
            _check_attack(a)

    def _check_extras(self, sb: Any) -> None:
        """Other speeds (each kind once), skills, senses, languages, challenge."""
        if len(sb.speeds) > 4 or len({x.kind for x in sb.speeds}) != len(sb.speeds):
            raise RuleError("speeds: each of fly, swim, climb and burrow at most once")
        if len(sb.skills) > MAX_SKILLS:
            raise RuleError(f"skills: {len(sb.skills)}, at most {MAX_SKILLS}")
        for skill in sb.skills:
            check_name(skill.name, "skill name")
        check_line(sb.senses, "senses", LINE)
        check_line(sb.languages, "languages", LINE)
        check_line(sb.challenge, "challenge", NAME)

    def _check_magic(self, sb: Any) -> None:
        """Legendary actions within the creature's count, and spells within its slots."""
        for a in self.abilities(sb):
            if a.act == "legendary" and not sb.legendary:
                raise RuleError(f"{a.name} is a legendary action and the creature has none (legendary = 0)")
            if a.act == "legendary" and not 1 <= a.cost <= sb.legendary:
                raise RuleError(f"{a.name} costs {a.cost} {LEGENDARY.lower()}; it has {sb.legendary} a round")
        if sb.spellcasting is not None:
            check_spellcasting(sb.spellcasting, ABILITY_KEYS)

    def from_combatant(self, c: Combatant) -> Statblock:
        s = dict(c.stats)
        hp = c.health[0].max if c.health else s.get("hp", 10)
        abilities = Abilities(**{k: s.get(k, 10) for k in ABILITY_KEYS})
        # a save equal to the plain modifier is no save proficiency: left out
        given = {k: s[f"{k}_save"] for k in ABILITY_KEYS if f"{k}_save" in s}
        saves = Saves(**{k: v for k, v in given.items() if v != mod(s.get(k, 10))})
        return D20Statblock(
            name=c.name,
            kind=c.kind,
            side=c.side,
            hp=hp,
            ac=s.get("ac", 10),
            abilities=abilities,
            speed=s.get("speed", 30),
            init=s.get("init", 0),
            prof=s.get("prof", 2),
            saves=saves,
            gambit=s.get("gambit", 0),
            resist=c.resist,
            vulnerable=c.vulnerable,
            immune=c.immune,
            condition_immune=c.condition_immune,
            flags=c.flags,
            note=c.note,
        )


def _check_rider(a: D20Attack) -> None:
    """The rider whole, and what of it the app acts on: a DC and rider damage need their save."""
    check_multiline(a.rider, f"{a.name}'s rider", TEXT)
    check_line(a.condition, f"{a.name}'s condition", NAME)
    if a.dc and not a.save:
        raise RuleError(f"{a.name}: a DC needs the save it is for (save).")
    if a.rider_damage and not a.save:
        raise RuleError(f"{a.name}: rider damage needs the save it is dealt on (save).")
    if a.rider_half and not a.rider_damage:
        raise RuleError(f"{a.name}: rider_half needs the rider damage it halves (rider_damage).")
    if len(a.rider_damage) > MAX_PARTS:
        raise RuleError(f"{a.name}: {len(a.rider_damage)} rider damage parts, at most {MAX_PARTS}.")


def _check_attack(a: D20Attack) -> None:
    check_name(a.name, "attack name")
    _check_rider(a)
    if a.ability and not a.power and a.ability not in ("str", "dex"):
        raise RuleError(f"{a.name}: a weapon attack adds Strength or Dexterity (power = true for a spell).")
    if a.ability and not a.power and a.kind == "ranged" and a.ability != "dex":
        raise RuleError(f"{a.name}: a ranged weapon attack adds Dexterity.")
    if a.power and not a.ability:
        raise RuleError(f"{a.name}: a power attack names its casting ability (ability).")
    if not a.proficient and not a.ability:
        raise RuleError(f"{a.name}: leaving proficiency off needs the ability the attack adds.")
    if a.range and not _range_ok(a.range):
        raise RuleError(f"{a.name}: a range is feet, or normal/long feet (80/320), not {a.range!r}.")
    for part in a.damage + a.rider_damage:
        if not part.dice:
            raise RuleError(f"{a.name}: a damage part needs its dice.")
        check_dice(part.dice, f"{a.name}'s damage")
        check_word(part.type, "damage type")


def _range_ok(text: str) -> bool:
    parts = text.split("/")
    return len(parts) <= 2 and all(p.strip().isdigit() for p in parts)


KIND = register_kind(D20Kind())
