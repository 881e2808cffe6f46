"""The 5e SRD API's monsters (https://www.dnd5eapi.co, data in github.com/5e-bits/5e-database,
src/2014/5e-SRD-Monsters.json): name, type, armor_class [{type, value}] (an int in old dumps),
hit_points, hit_dice / hit_points_roll, speed {walk}, strength..charisma, proficiencies (saving
throws), damage_resistances / _vulnerabilities / _immunities, actions [{name, desc, attack_bonus,
damage [{damage_type {name}, damage_dice}]}]. A file is one monster, a list, or {"results": [...]}."""

from __future__ import annotations

import re
from typing import Any

from engine.errors import RuleError
from engine.library.base import validate
from engine.library.d20 import ABILITY_KEYS, Abilities, D20Attack, D20Statblock, DamagePart, Saves
from engine.library.importers.common import SHAPE_ERRORS, ImportProblem, ImportResult, bounds, entry_name, number
from engine.library.importers.improved_initiative import (
    _DEFENSES,
    _RANGE,
    _REACH,
    _dice,
    parse_attack,
    range_of,
    read_defenses,
    took_line,
)

FORMAT = "5e SRD API"
_LONG = ("strength", "dexterity", "constitution", "intelligence", "wisdom", "charisma")
_SCORES = dict(zip(_LONG, ABILITY_KEYS, strict=True))
# "5d8", "5d8+5" (possessive, so a long run of digits or spaces is read once)
_HIT_DICE = re.compile(r"\s*+\d++d\d++(?:\s*+[+-]\s*+\d++)?\s*+")


def _stat(v: Any, what: str, field: str, cls: type = D20Statblock) -> int:
    """A number for `cls`'s field, in the ruleset's bounds for it: one out of them is refused."""
    return number(v, what, *bounds(cls, field))


def _monsters(data: Any) -> list[Any]:
    if isinstance(data, dict) and isinstance(data.get("results"), list):
        return data["results"]
    return data if isinstance(data, list) else [data]


def _is_monster(v: Any) -> bool:
    return isinstance(v, dict) and "name" in v and "hit_points" in v and "armor_class" in v


def recognise(data: Any) -> bool:
    items = _monsters(data)
    return bool(items) and all(_is_monster(v) for v in items[:5])


def _ac(v: Any) -> int:
    if isinstance(v, list) and v and isinstance(v[0], dict):
        return _stat(v[0].get("value", 10), "armor_class", "ac")
    return _stat(v, "armor_class", "ac")


_CHOICE = " (a choice of damage: the first option taken)"


def _first_option(d: dict[str, Any]) -> Any:
    """A damage choice's first option ({"choose": 1, "from": {"options": [...]}}), or {}."""
    opts = (d.get("from") or {}).get("options") if isinstance(d.get("from"), dict) else None
    return opts[0] if opts and isinstance(opts[0], dict) else {}


def _damage_parts(damage: Any) -> tuple[list[DamagePart], str]:
    """An action's damage list as parts (a choice as its first option), and why, if it is a choice."""
    parts = []
    why = ""
    for d in damage or []:
        if not isinstance(d, dict):
            continue
        if "damage_dice" not in d:
            why = _CHOICE if "from" in d or "choose" in d else ""
            d = _first_option(d)
            if "damage_dice" not in d:
                continue
        typ = d.get("damage_type") or {}
        parts.append(DamagePart(dice=_dice(str(d["damage_dice"])), type=str(typ.get("name", "")).lower()[:40]))
    return parts, why


def _hit_parts(parsed: D20Attack | None, parts: list[DamagePart], why: str) -> tuple[list[DamagePart], str]:
    """The parts the hit deals: the list also holds dice the text deals later (a disease's acid)."""
    if parsed and parsed.damage and len(parsed.damage) < len(parts):
        why = f" (damage {', '.join(f'{d.dice} {d.type}' for d in parts[len(parsed.damage) :])} is not the hit's)"
        parts = parts[: len(parsed.damage)]
    return parts, why


def _attack(a: dict[str, Any]) -> tuple[D20Attack | None, str]:
    name = str(a.get("name", "")).strip()[:80] or "Attack"
    desc = str(a.get("desc", ""))
    if "attack_bonus" not in a:
        return None, f"{name} (no attack roll)"
    parts, why = _damage_parts(a.get("damage"))
    parsed = parse_attack(name, desc)
    parts, why = _hit_parts(parsed, parts, why)
    kind = parsed.kind if parsed else "melee"
    reach = _REACH.search(desc)
    attack = D20Attack(
        name=name,
        bonus=_stat(a["attack_bonus"], f"{name}'s attack_bonus", "bonus", D20Attack),
        kind=kind,
        reach=_stat(reach[1], f"{name}'s reach", "reach", D20Attack) if reach and kind == "melee" else 5,
        range=range_of(_RANGE.search(desc), name),
        damage=tuple(parts),
        rider=parsed.rider if parsed else "",
        **({"save": parsed.save, "dc": parsed.dc, "condition": parsed.condition} if parsed else {}),
    )
    return attack, why


def _saves(m: dict[str, Any]) -> dict[str, int]:
    """The saving throws among the proficiencies ({proficiency {index "saving-throw-dex"}, value})."""
    saves = {}
    for p in m.get("proficiencies") or []:
        prof = (p or {}).get("proficiency") or {}
        idx = str(prof.get("index", ""))
        if idx.startswith("saving-throw-") and idx[13:] in ABILITY_KEYS:
            saves[idx[13:]] = _stat(p.get("value", 0), idx, idx[13:], Saves)
    return saves


def _actions(m: dict[str, Any]) -> tuple[list[D20Attack], list[str]]:
    """The attacks among the actions, and what was skipped (and why)."""
    attacks, skipped = [], []
    for a in m.get("actions") or []:
        if not isinstance(a, dict):
            continue
        attack, why = _attack(a)
        if attack is None:
            skipped.append(why)
        else:
            attacks.append(attack)
            if why:
                skipped.append(f"{attack.name}{why}")
    return attacks, skipped


# the sections that are only text for the engine: said in the report by their entries' names
_TEXT_ONLY = ("special_abilities", "legendary_actions", "reactions")


def _text_only(m: dict[str, Any], skipped: list[str]) -> None:
    for section in _TEXT_ONLY:
        names = [str(x.get("name", "")) for x in m.get(section) or [] if isinstance(x, dict)]
        if names:
            skipped.append(f"{section.replace('_', ' ')} {', '.join(names)} (text only)")


def _speed(walk: Any) -> int:
    return _stat(walk, "speed", "speed") if re.search(r"\d", str(walk)) else 30


def convert_monster(m: dict[str, Any]) -> tuple[D20Statblock, str]:
    name = m.get("name")
    if not isinstance(name, str) or not name.strip():
        raise RuleError("it has no name")
    scores = {k: _stat(m[f], f, k, Abilities) for f, k in _SCORES.items() if f in m}
    saves = _saves(m)
    dice = str(m.get("hit_points_roll") or m.get("hit_dice") or "")
    dice = _dice(dice) if _HIT_DICE.fullmatch(dice) else ""
    speed = (m.get("speed") or {}).get("walk", "30") if isinstance(m.get("speed"), dict) else "30"
    attacks, skipped = _actions(m)
    _text_only(m, skipped)
    prof = m.get("proficiency_bonus", 2)
    defenses, note = read_defenses(tuple(m.get(f"damage_{what}") for _, what in _DEFENSES), skipped)
    sb = D20Statblock(
        name=name.strip()[:80],
        type=str(m.get("type", ""))[:80],
        hp=_stat(m["hit_points"], "hit_points", "hp"),
        hp_dice=dice,
        ac=_ac(m["armor_class"]),
        abilities=Abilities(**scores),
        speed=_speed(speed),
        prof=_stat(prof, "proficiency_bonus", "prof"),
        # an empty Saves() is written as an empty table unless it is the field's own default
        **({"saves": Saves(**saves)} if saves else {}),
        resist=defenses["resist"].types,
        vulnerable=defenses["vulnerable"].types,
        immune=defenses["immune"].types,
        attacks=tuple(attacks),
        note=note,
        source=FORMAT,
    )
    validate(sb)
    took = f"HP {sb.hp}" + (f" ({dice})" if dice else "") + f", AC {sb.ac}, abilities"
    return sb, took_line(sb.name, took, attacks, note, skipped)


def convert(data: Any) -> ImportResult:
    creatures, report = [], []
    for i, m in enumerate(_monsters(data)):
        if not _is_monster(m):
            raise ImportProblem(f"{entry_name(i, m, 'name')}: not an SRD monster (name, hit_points, armor_class)")
        try:
            sb, line = convert_monster(m)
        except RuleError as exc:
            raise ImportProblem(f"{entry_name(i, m, 'name')}: {exc}") from None
        except SHAPE_ERRORS as exc:
            # a field of an unexpected shape (a number where a table belongs): this entry's problem
            raise ImportProblem(
                f"{entry_name(i, m, 'name')}: a field has an unexpected shape ({type(exc).__name__})"
            ) from None
        creatures.append(sb)
        report.append(line)
    return ImportResult(FORMAT, "d20", tuple(creatures), (), tuple(report))
