"""What a statblock holds besides its weapon attacks, in every ruleset: traits, abilities (a breath
weapon with a save, a gaze, Multiattack, a reaction such as Parry, a legendary action, a focus
ability), and spellcasting.

One model for all four rulesets; each ruleset's kind reads the words its own way (`act` is d20's
action / bonus / reaction / legendary / lair, Cosmere's action / free / reaction; `save` is a d20
ability, a Cosmere defense or a Warhammer characteristic). Limited uses become the combatant's
resources (engine.state.Pool) when it joins a fight, named by `pool_key`, so spending, recharging
and undoing them are the engine's.
"""

from typing import Annotated, Literal

import msgspec

from engine.state import Pool

Count = Annotated[int, msgspec.Meta(ge=0, le=99)]
DC = Annotated[int, msgspec.Meta(ge=0, le=100)]
Level = Annotated[int, msgspec.Meta(ge=-1, le=9)]

LEGENDARY = "Legendary actions"  # the pool a legendary creature spends, full again at its turn
LEGENDARY_RESISTANCE = "Legendary Resistance"


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
    limits = []
    if a.recharge:
        limits.append(f"recharge {a.recharge}-6" if a.recharge < 6 else "recharge 6")
    if a.uses:
        limits.append(f"{a.uses}/{a.per or 'day'}")
    if a.level >= 0:
        limits.append("cantrip" if a.level == 0 else f"level {a.level}")
    if a.act not in ("", "action"):
        limits.append(a.act + (f", costs {a.cost}" if a.act == "legendary" and a.cost > 1 else ""))
    if a.focus:
        limits.append(f"{a.focus} focus")
    head = a.name + (f" ({'; '.join(limits)})" if limits else "")
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
    return f"{head}: {', '.join(parts)}" if parts else head
