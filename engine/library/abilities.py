"""What a statblock holds besides its weapon attacks, in every ruleset: traits, abilities (a breath
weapon with a save, a gaze, Multiattack, a reaction such as Parry, a legendary action, a focus
ability), and spellcasting.

One model for all four rulesets; each ruleset's kind reads the words its own way (`act` is d20's
action / bonus / reaction / legendary / lair, Cosmere's action / free / reaction; `save` is a d20
ability, a Cosmere defense or a Warhammer characteristic). Limited uses become the combatant's
resources (engine.state.Pool) when it joins a fight, named by `pool_key`, so spending, recharging
and undoing them are the engine's.
"""

from collections.abc import Iterable
from typing import Annotated, Literal

import msgspec

from engine.dice import parse
from engine.errors import RuleError
from engine.limits import LINE, NAME, TEXT, WORD
from engine.pools import LEGENDARY, LEGENDARY_RESISTANCE  # the engine's names for these pools
from engine.state import Pool
from engine.text import check_line, check_multiline, shown

Count = Annotated[int, msgspec.Meta(ge=0, le=99)]
DC = Annotated[int, msgspec.Meta(ge=0, le=100)]
Level = Annotated[int, msgspec.Meta(ge=-1, le=9)]

MAX_ABILITIES = 100  # abilities (spells among them) of one statblock, as base.MAX_ATTACKS for attacks
MAX_TRAITS = 100
MAX_PARTS = 10  # damage parts of one ability
MAX_MULTI = 20  # attacks one Multiattack makes
MAX_SLOT_LEVEL = 9

FOCUS = "focus"  # Cosmere's resource of that key (engine.rules.cosmere)


class DamagePart(msgspec.Struct, frozen=True, omit_defaults=True, forbid_unknown_fields=True):
    dice: str  # "1d6+2", or a flat number "3"
    type: str = ""


class Trait(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True, forbid_unknown_fields=True):
    """Something always true of the creature (Pack Tactics, Magic Resistance), shown on its sheet."""

    name: str
    text: str = ""


class Ability(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True, forbid_unknown_fields=True):
    """Something the creature does that is not a plain weapon attack.

    - `text`: the whole description as the statblock has it, never cut (riders, areas, DCs).
    - `act`: when it is used, in the ruleset's words (see the module docstring); `cost`: the actions
      (Cosmere) or legendary actions (d20) it takes; `focus`: the focus it spends (Cosmere).
    - A save: `save` (what the targets save or test with), `dc`, `on_save` (half the damage, or
      none); `damage` rolled once for every target; `condition` given to those who fail (or, with
      `hit`, to the one hit); `targets` how many it may catch (0: every one in its area, `area`).
    - `hit`: an attack roll's bonus (a spell attack, a ray) instead of a save.
    - Limits: `recharge` the lowest d6 roll that brings it back at the start of the creature's turn
      (5: "recharge 5-6"), or `uses` per `per` ("day", "fight"); a spell (`level` 0-9, 0 a cantrip)
      spends a slot of its level instead, unless `uses` says how often it is cast (3/day each).
    - `attacks`: Multiattack's list, by name, one entry per attack made ("Bite", "Claw", "Claw").
    """

    name: str
    text: str = ""
    act: str = "action"
    cost: Count = 1
    focus: Count = 0
    save: str = ""
    dc: DC = 0
    on_save: Literal["half", "none"] = "half"
    damage: tuple[DamagePart, ...] = ()
    condition: str = ""
    targets: Count = 1
    area: str = ""
    hit: Annotated[int, msgspec.Meta(ge=-20, le=40)] | None = None
    recharge: Annotated[int, msgspec.Meta(ge=0, le=6)] = 0
    uses: Count = 0
    per: Literal["", "day", "fight", "round"] = ""
    level: Level = -1
    attacks: tuple[str, ...] = ()


class Spellcasting(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True, forbid_unknown_fields=True):
    """A caster's spell save DC, spell attack bonus, slots per spell level (from the 1st) and spells
    (each an Ability with its `level`)."""

    ability: str = ""
    dc: DC = 0
    bonus: Annotated[int, msgspec.Meta(ge=-20, le=40)] = 0
    slots: tuple[Count, ...] = ()
    spells: tuple[Ability, ...] = ()


def slot_key(level: int) -> str:
    return f"Spell slots {level}"


def pool_key(a: Ability) -> str:
    """The resource an ability's limited uses are kept in ("" when it has none of its own: at will,
    or a spell spending a slot)."""
    if a.recharge or a.uses:
        return a.name
    return ""


def spend_of(a: Ability) -> tuple[tuple[str, int], ...]:
    """What using `a` spends from its user's resources: its own pool, a slot of its level, the
    legendary actions it costs."""
    out: list[tuple[str, int]] = []
    key = pool_key(a)
    if key:
        out.append((key, 1))
    elif a.level > 0:
        out.append((slot_key(a.level), 1))
    if a.act == "legendary":
        out.append((LEGENDARY, a.cost))
    if a.focus:  # Cosmere: the focus every adversary and character has as a resource
        out.append((FOCUS, a.focus))
    return tuple(out)


def pools(abilities: tuple[Ability, ...], slots: tuple[int, ...] = (), legendary: int = 0,
          resistance: int = 0) -> tuple[Pool, ...]:
    """The resources a creature with these abilities joins a fight with, each full."""
    out: list[Pool] = []
    seen: set[str] = set()
    for a in abilities:
        key = pool_key(a)
        if key and key.casefold() not in seen:
            seen.add(key.casefold())
            n = 1 if a.recharge else a.uses
            out.append(Pool(key, n, n, recharge=a.recharge))
    for level, n in enumerate(slots, start=1):
        if n:
            out.append(Pool(slot_key(level), n, n))
    if legendary:
        out.append(Pool(LEGENDARY, legendary, legendary, refresh=True))
    if resistance:
        out.append(Pool(LEGENDARY_RESISTANCE, resistance, resistance))
    return tuple(out)


def ability_label(a: Ability) -> str:
    """One line for a pick list: "Fire Breath (recharge 5-6): DC 21 Dex, 18d6 fire, half on a save"."""
    limits = _limits(a)
    head = a.name + (f" ({'; '.join(limits)})" if limits else "")
    parts = _effects(a)
    return f"{head}: {', '.join(parts)}" if parts else head


def _limits(a: Ability) -> list[str]:
    limits = []
    if a.recharge:
        limits.append(f"recharge {a.recharge}-6" if a.recharge < 6 else "recharge 6")
    if a.uses:
        limits.append(f"{a.uses}/{a.per or 'day'}")
    if a.level >= 0:
        limits.append("cantrip" if a.level == 0 else f"level {a.level}")
    if a.act not in ("", "action"):
        limits.append(a.act + (f", costs {a.cost}" if a.act == "legendary" and a.cost > 1 else ""))
    elif a.cost != 1:  # Cosmere: an ability taking two or three of the turn's actions (or none)
        limits.append(f"{a.cost} actions")
    if a.focus:
        limits.append(f"{a.focus} focus")
    return limits


def _effects(a: Ability) -> list[str]:
    parts = []
    if a.attacks:
        parts.append(", ".join(a.attacks))
    if a.hit is not None:
        parts.append(f"{a.hit:+d} to hit")
    if a.save:
        parts.append(f"DC {a.dc} {a.save.capitalize()}" if a.dc else f"{a.save.capitalize()} save")
    if a.damage:
        parts.append(" + ".join(f"{p.dice} {p.type}".strip() for p in a.damage))
        if a.save:
            parts.append("half on a save" if a.on_save == "half" else "none on a save")
    if a.condition:
        parts.append(a.condition)
    return parts


# --- checks (what the struct's types cannot say) ---------------------------------------------------


def check_trait(t: Trait) -> None:
    _name(t.name, "trait name")
    check_multiline(t.text, f"{t.name}'s text", TEXT)


def check_counts(traits: tuple[Trait, ...], abilities: tuple[Ability, ...]) -> None:
    """The counts, before anything is encoded: a file of 50,000 traits is hostile, not a creature."""
    if len(traits) > MAX_TRAITS:
        raise RuleError(f"traits: {len(traits)}, at most {MAX_TRAITS}")
    if len(abilities) > MAX_ABILITIES:
        raise RuleError(f"abilities and spells: {len(abilities)}, at most {MAX_ABILITIES}")
    for a in abilities:
        if len(a.damage) > MAX_PARTS:
            raise RuleError(f"{shown(a.name)}: {len(a.damage)} damage parts, at most {MAX_PARTS}")
        if len(a.attacks) > MAX_MULTI:
            raise RuleError(f"{shown(a.name)}: {len(a.attacks)} attacks, at most {MAX_MULTI}")


def check_ability(a: Ability, saves: tuple[str, ...] | None, acts: tuple[str, ...] | None,
                  names: Iterable[str] = ()) -> None:
    """One ability as its ruleset reads it: `saves` the words a save may name and `acts` when it may
    be used (None: any one word); `names` the statblock's attacks and abilities a Multiattack may make."""
    _name(a.name, "ability name")
    check_multiline(a.text, f"{a.name}'s text", TEXT)
    check_line(a.act, f"{a.name}'s act", WORD)
    if acts is not None and a.act not in acts:
        raise RuleError(f"{a.name}: act is one of {', '.join(acts)}, not {shown(a.act)}")
    if saves is not None and a.save and a.save not in saves:
        raise RuleError(f"{a.name}: a save is one of {', '.join(saves)}, not {shown(a.save)}")
    check_line(a.save, f"{a.name}'s save", WORD)
    if a.dc and not a.save:
        raise RuleError(f"{a.name}: a DC needs the save it is for (save)")
    if a.save and a.hit is not None:
        raise RuleError(f"{a.name}: an attack roll (hit) or a save, not both")
    for part in a.damage:
        check_damage(part, a.name)
    check_line(a.condition, f"{a.name}'s condition", NAME)
    check_line(a.area, f"{a.name}'s area", LINE)
    if a.uses and not a.per:
        raise RuleError(f"{a.name}: uses need what they are counted per (per = day, fight or round)")
    if a.per and not a.uses:
        raise RuleError(f"{a.name}: per {a.per} needs the number of uses")
    if a.recharge and a.uses:
        raise RuleError(f"{a.name}: a recharge or uses per {a.per}, not both")
    known = {n.casefold() for n in names}
    for name in a.attacks:
        if name.casefold() not in known:
            raise RuleError(f"{a.name} makes {shown(name)}, which is none of its attacks or abilities")


def check_damage(part: DamagePart, owner: str) -> None:
    if not part.dice:
        raise RuleError(f"{owner}: a damage part needs its dice.")
    check_line(part.dice, f"{owner}'s damage", LINE)
    try:
        parse(part.dice)
    except RuleError as exc:
        raise RuleError(f"{owner}'s damage {shown(part.dice)}: {exc}") from None
    check_line(part.type, "damage type", WORD)


def check_spellcasting(sc: Spellcasting, saves: tuple[str, ...] | None, names: Iterable[str] = ()) -> None:
    """Slots for at most nine levels; each spell an ability of level 0-9 (-1: an innate spell, cast at
    will or so many times a day), whose slot the caster has unless its uses say how often."""
    if saves is not None and sc.ability and sc.ability not in saves:
        raise RuleError(f"spellcasting: the ability is one of {', '.join(saves)}, not {shown(sc.ability)}")
    if len(sc.slots) > MAX_SLOT_LEVEL:
        raise RuleError(f"spellcasting: slots for {len(sc.slots)} levels, at most {MAX_SLOT_LEVEL}")
    for s in sc.spells:
        if s.level > 0 and not s.uses and (s.level > len(sc.slots) or not sc.slots[s.level - 1]):
            raise RuleError(f"{s.name} is a level {s.level} spell and there are no level {s.level} slots")


def _name(text: str, what: str) -> None:
    if not text.strip():
        raise RuleError(f"A {what} cannot be empty.")
    check_line(text, what, NAME)
