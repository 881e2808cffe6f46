"""The 5e SRD API's monsters (https://www.dnd5eapi.co, data in github.com/5e-bits/5e-database,
src/2014/5e-SRD-Monsters.json): name, type, armor_class [{type, value}] (an int in old dumps),
hit_points, hit_dice / hit_points_roll, speed {walk}, strength..charisma, proficiencies (saving
throws), damage_resistances / _vulnerabilities / _immunities, actions [{name, desc, attack_bonus,
damage [{damage_type {name}, damage_dice}]}]. A file is one monster, a list, or {"results": [...]}."""

from __future__ import annotations

import re
from typing import Any

from engine.errors import RuleError
from engine.library.abilities import Ability, Spellcasting
from engine.library.base import validate
from engine.library.d20 import (
    ABILITY_KEYS,
    MAX_SKILLS,
    Abilities,
    D20Attack,
    D20Statblock,
    DamagePart,
    Saves,
    Skill,
    Speed,
)
from engine.library.importers.common import (
    SHAPE_ERRORS,
    ImportProblem,
    ImportResult,
    bounds,
    entry_name,
    number,
    untaken,
)
from engine.library.importers.d20_parts import Parts, condition_words, read_speeds
from engine.library.importers.improved_initiative import (
    _DEFENSES,
    _RANGE,
    _REACH,
    _dice,
    extras_took,
    parse_attack,
    range_of,
    read_defenses,
    took_line,
)
from engine.library.importers.text5e import damage_chain, read_limits, read_save

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


def _ac(v: Any, skipped: list[str]) -> int:
    """The first armor class; any other (AC 15 with a spell) is said in `skipped`: one AC is kept."""
    if isinstance(v, list) and v and isinstance(v[0], dict):
        others = [_ac_words(x) for x in v[1:] if isinstance(x, dict)]
        if others:
            first = str(v[0].get("value"))[:6]
            skipped.append(f"other armor classes (the first, AC {first}, taken): {', '.join(others)}")
        return _stat(v[0].get("value", 10), "armor_class", "ac")
    return _stat(v, "armor_class", "ac")


def _ac_words(x: dict[str, Any]) -> str:
    """One armor_class entry as words: "AC 15 (spell: Mage Armor)", "AC 12 (dex)"."""
    why = [str(_get(x, k, "name") or "")[:40] for k in ("spell", "armor", "condition") if _get(x, k, "name")]
    if isinstance(x.get("armor"), list):
        why = [str(_get(a, "name") or "")[:40] for a in x["armor"][:3]]
    kind = str(x.get("type", "") or "")[:20]
    label = " ".join(x for x in (kind, ", ".join(why)) if x)
    return f"AC {str(x.get('value', '?'))[:6]}" + (f" ({label})" if label else "")


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


def _hit_parts(parsed: D20Attack | None, parts: list[DamagePart], why: str) -> tuple[list[DamagePart], str, str]:
    """The parts the hit deals, why some of the list's are not taken, and what was read from the text:
    the list also holds dice the text deals later (a disease's acid), and may leave out a part the
    text's hit deals (a mace's fire): that part is read from the text."""
    if parsed and parsed.damage and len(parsed.damage) < len(parts):
        why = f" (damage {', '.join(f'{d.dice} {d.type}' for d in parts[len(parsed.damage) :])} is not the hit's)"
        return parts[: len(parsed.damage)], why, ""
    if parsed and len(parsed.damage) > len(parts) and all(
        p.type == q.type for p, q in zip(parts, parsed.damage, strict=False)
    ):
        more = parsed.damage[len(parts) :]
        read = f"{', '.join(f'{d.dice} {d.type}' for d in more)} read from its text (the damage list omits it)"
        return parts + list(more), why, read
    return parts, why, ""


def _attack(a: dict[str, Any]) -> tuple[D20Attack | None, str, str]:
    """An action with an attack roll as an attack, what of its data was not taken (why), and what
    was read from its text instead."""
    name = str(a.get("name", "")).strip()[:80] or "Attack"
    desc = str(a.get("desc", ""))
    if "attack_bonus" not in a:
        return None, "", ""
    parts, why = _damage_parts(a.get("damage"))
    parsed = parse_attack(name, desc)
    parts, why, read = _hit_parts(parsed, parts, why)
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
        **({"save": parsed.save, "dc": parsed.dc, "condition": parsed.condition, "rider_damage": parsed.rider_damage,
            "rider_half": parsed.rider_half} if parsed else {}),
    )
    return attack, why, read


def _saves(m: dict[str, Any]) -> dict[str, int]:
    """The saving throws among the proficiencies ({proficiency {index "saving-throw-dex"}, value})."""
    saves = {}
    for p in m.get("proficiencies") or []:
        prof = (p or {}).get("proficiency") or {}
        idx = str(prof.get("index", ""))
        if idx.startswith("saving-throw-") and idx[13:] in ABILITY_KEYS:
            saves[idx[13:]] = _stat(p.get("value", 0), idx, idx[13:], Saves)
    return saves


# each list of actions and when its entries are used
_SECTIONS = (("actions", "action"), ("bonus_actions", "bonus"), ("reactions", "reaction"),
             ("legendary_actions", "legendary"), ("lair_actions", "lair"))
# the keys of an action this importer reads; any other holding something is said in the report
_ACTION_KEYS = frozenset(("name", "desc", "attack_bonus", "damage", "dc", "usage", "multiattack_type", "actions"))


def _usage(u: Any) -> str:
    """The API's usage as a name's words: "(Recharge 5-6)", "(3/Day)", "(Recharges after a Long Rest)"."""
    if not isinstance(u, dict):
        return ""
    kind = str(u.get("type", "")).lower()
    if kind == "recharge on roll" and str(u.get("min_value", "")).isdigit():
        return f"(Recharge {u['min_value']}-6)"
    if kind == "per day" and str(u.get("times", "")).isdigit():
        return f"({u['times']}/Day)"
    if kind == "recharge after rest":
        rests = u.get("rest_types") if isinstance(u.get("rest_types"), list) else []
        return f"(Recharges after a {'Short or ' if 'short' in rests else ''}Long Rest)"
    return ""


def _given(a: dict[str, Any]) -> dict[str, Any]:
    """An action's save and damage as the API's own fields say them (its text says them too)."""
    out: dict[str, Any] = {}
    dc = a.get("dc")
    if isinstance(dc, dict):
        kind = str(_get(dc, "dc_type", "index") or "")[:3]
        if kind in ABILITY_KEYS and isinstance(dc.get("dc_value"), int) and 0 < dc["dc_value"] <= 100:
            out.update(save=kind, dc=dc["dc_value"])
        success = str(dc.get("success_type", ""))
        if success in ("half", "none"):
            out["on_save"] = success
    return out


def _on_save(name: str, desc: str, given: dict[str, Any]) -> str:
    """Half on a save when the text says so, over the data's success_type (the text is what the GM
    reads); the report's phrase when the two disagree, else ""."""
    said = read_save(desc)
    data = given.get("on_save")
    if said is None or data is None or said.on_save == data:
        return ""
    if said.on_save == "half":
        given["on_save"] = "half"
        return f"{name} half on a save (its text says half; the data's success_type says none)"
    # the text says nothing of a success: the data's half is kept (a wording the reader missed)
    return f"{name} half on a save (the data's success_type says half; its text does not say)"


def _get(d: Any, *path: str) -> Any:
    for p in path:
        d = d.get(p) if isinstance(d, dict) else None
    return d


def _multi_names(items: Any) -> str:
    """A Multiattack's `actions` list ([{action_name, count}]) in the words the text reader takes."""
    bits = []
    for x in items if isinstance(items, list) else ():
        if isinstance(x, dict) and str(x.get("count", "")).isdigit() and 0 < int(x["count"]) <= 9:
            bits.append(f"{x['count']} with its {x.get('action_name', '')}")
    return ", ".join(bits) + "." if bits else ""


def _option_items(o: Any) -> list[Any]:
    """One of `action_options`' options as a list of {action_name, count}: an "action" is one, a
    "multiple" its items."""
    if not isinstance(o, dict):
        return []
    return o["items"] if isinstance(o.get("items"), list) else [o]


def _option_words(o: Any) -> str:
    """An option as the report says it: "Sword x2", "Slam x1 and Sword x1"."""
    return " and ".join(f"{str(x.get('action_name', ''))[:40]} x{str(x.get('count', ''))[:2]}"
                        for x in _option_items(o) if isinstance(x, dict)) or "?"


def _multi_options(a: dict[str, Any], name: str, p: Parts) -> str:
    """A Multiattack that is a choice (`action_options` {choose 1, from {options}}: two slams, two
    swords, or one of each): the first option is its list (read as its text would be), the others are
    named in the report; "" when there is none."""
    opts = _get(a, "action_options", "from", "options")
    if not isinstance(opts, list) or not opts:
        return ""
    first = _multi_names(_option_items(opts[0]))
    if first and len(opts) > 1:
        others = "; ".join(_option_words(o) for o in opts[1:10])
        p.skipped.append(f"{name}'s other options: {others} (a choice: the first, {_option_words(opts[0])}, taken)")
    return first


# the keys of a trait this importer reads
_TRAIT_KEYS = frozenset(("name", "desc", "usage", "spellcasting"))


def _parts(m: dict[str, Any]) -> Parts:
    """The traits, attacks and abilities, each whole; what cannot be taken is said."""
    p = Parts()
    for t in m.get("special_abilities") or []:
        if isinstance(t, dict):
            name = str(t.get("name", "")).strip()[:80] or "Trait"
            p.trait(name + " " + _usage(t.get("usage")), str(t.get("desc", "")), _spellcasting(p, name, t))
            _trait_untaken(p, name, t)
    for section, act in _SECTIONS:
        for a in m.get(section) or []:
            if isinstance(a, dict):
                _action(p, a, act)
    p.legendary_text = str(m.get("legendary_desc", "") or "")
    p.finish()
    return p


def _trait_untaken(p: Parts, name: str, t: dict[str, Any]) -> None:
    """A trait's fields no field took, said: its damage (a charge's extra dice) stays in its text."""
    parts, _ = _damage_parts(t.get("damage"))
    if parts:
        dice = ", ".join(f"{d.dice} {d.type}".strip() for d in parts)
        p.skipped.append(f"{name}'s damage {dice} (a trait's: in its text, for the GM to deal)")
    extra = untaken(t, _TRAIT_KEYS | ({"damage"} if parts else set()), f"{name}'s fields not taken")
    if extra:
        p.skipped.append(extra)


def _action(p: Parts, a: dict[str, Any], act: str) -> None:
    name = str(a.get("name", "")).strip()[:80] or "Action"
    desc = str(a.get("desc", ""))
    attack, why, read = _attack(a)
    usage = _usage(a.get("usage"))
    if attack is not None:
        _attack_report(p, attack, act, why, read, usage)
    parts, _ = _damage_parts(a.get("damage")) if attack is None else ([], "")
    given = _given(a)
    if parts and not damage_chain(desc):
        given["damage"] = tuple(parts)  # the text gave no dice: the list's
    said = _on_save(read_limits(name).name, desc, given) if attack is None else ""
    if said:
        p.notes.append(said)
    # a Multiattack's own list of the attacks it makes is read rather than its text
    multi = _multi_names(a.get("actions")) or _multi_options(a, name, p)
    p.action(name, desc, act, attack, usage, given, read=multi)
    keys = _ACTION_KEYS | ({"action_options"} if multi else set())
    extra = untaken(a, keys, f"{name}'s fields not taken")
    if extra:
        p.skipped.append(extra)


def _attack_report(p: Parts, attack: D20Attack, act: str, why: str, read: str, usage: str) -> None:
    """What the report says of an attack: damage not taken or read from its text, its rider's
    damage, and a usage an attack cannot carry (an attack has no recharge or uses of its own)."""
    if why:
        p.skipped.append(f"{attack.name}{why}")
    if read:
        p.notes.append(f"{attack.name}'s {read}")
    if attack.rider_damage:
        dice = " + ".join(f"{d.dice} {d.type}".strip() for d in attack.rider_damage)
        p.notes.append(f"{attack.name}'s rider damage {dice} on a failed save"
                       + (", half on a success" if attack.rider_half else ""))
    if usage and act == "action":
        p.skipped.append(f"{attack.name}'s {usage.strip('()').lower()} (an attack has no recharge or uses: "
                         "the GM keeps track)")


# the keys of a `spellcasting` object this importer reads
_SPELLCASTING_KEYS = frozenset(("ability", "dc", "modifier", "slots", "spells"))


def _spellcasting(p: Parts, name: str, t: dict[str, Any]) -> Spellcasting | None:
    """A trait's `spellcasting` object: DC, attack bonus, slots by level, spells with their level and
    usage (at will, so many a day). It says more than its text, so it is taken over the text's; None
    when it lists no spell (the text is read then)."""
    sc = t.get("spellcasting")
    if not isinstance(sc, dict):
        return None
    slots = _slots(sc.get("slots"))
    given = [x for x in sc.get("spells") or [] if isinstance(x, dict)]
    spells = [s for x in given if (s := _spell(x, len(slots))) is not None]
    if not spells:
        return None
    extra = untaken(sc, _SPELLCASTING_KEYS, f"{name}'s fields not taken")
    if extra:
        p.skipped.append(f"{extra} (in its text)")
    # a spell at will (or past the slots) spends no slot: its level is said, as the model keeps none
    levels = [f"{s.name} {x['level']}" for s, x in zip(spells, given, strict=False)
              if s.level < 0 and isinstance(x.get("level"), int) and not isinstance(x.get("level"), bool)]
    if levels:
        p.skipped.append(f"{name}'s spell levels of {', '.join(levels)} (cast at will or past its slots: "
                         "no slot spent, so no level kept)")
    dc, bonus = sc.get("dc"), sc.get("modifier")
    ability = _get(sc, "ability", "index")
    return Spellcasting(
        ability=ability if ability in ABILITY_KEYS else "",
        dc=dc if isinstance(dc, int) and 0 <= dc <= 100 else 0,
        bonus=bonus if isinstance(bonus, int) and -20 <= bonus <= 40 else 0,
        slots=slots,
        spells=tuple(spells),
    )


def _slots(v: Any) -> tuple[int, ...]:
    """slots {"1": 4, "2": 3}: the count for each level from the 1st, up to the highest given."""
    slots = [0] * 9
    for level, n in v.items() if isinstance(v, dict) else ():
        if str(level).isdigit() and 1 <= int(level) <= 9 and isinstance(n, int) and 0 <= n <= 99:
            slots[int(level) - 1] = n
    while slots and not slots[-1]:
        slots.pop()
    return tuple(slots)


def _spell(x: Any, top: int) -> Ability | None:
    """One spell {name, level, usage {type "at will" | "per day", times}}; a spell at will, or of a
    level the caster has no slots for (`top` the highest), spends no slot (level -1)."""
    if not isinstance(x, dict) or not str(x.get("name", "")).strip():
        return None
    level = x.get("level") if isinstance(x.get("level"), int) and 0 <= x["level"] <= 9 else -1
    usage = x.get("usage") if isinstance(x.get("usage"), dict) else {}
    times = usage.get("times") if str(usage.get("type", "")).lower() == "per day" else 0
    uses = times if isinstance(times, int) and not isinstance(times, bool) and 0 < times <= 99 else 0
    if (usage and not uses) or (level > top and not uses):
        level = -1
    return Ability(name=str(x["name"]).strip()[:80], level=level, uses=uses, per="day" if uses else "")


def _skills(m: dict[str, Any]) -> tuple[Skill, ...]:
    """The skills among the proficiencies ({proficiency {index "skill-perception", name}, value})."""
    out = []
    for p in m.get("proficiencies") or []:
        prof = (p or {}).get("proficiency") or {}
        idx = str(prof.get("index", ""))
        if idx.startswith("skill-"):
            name = str(prof.get("name", "")).removeprefix("Skill:").strip() or idx[6:].replace("-", " ").title()
            out.append(Skill(name[:80], _stat(p.get("value", 0), idx, "bonus", D20Attack)))
    return tuple(out[:MAX_SKILLS])


_SPEED_KINDS = ("walk", "fly", "swim", "climb", "burrow")


def _speeds(v: Any, skipped: list[str]) -> tuple[int, tuple[Speed, ...]]:
    """speed {walk, fly, swim, climb, burrow: "40 ft.", hover: true}: a creature with no walk keeps
    its other speeds (walk 0)."""
    if not isinstance(v, dict):
        return 30, ()
    hover = " (hover)" if v.get("hover") is True else ""
    texts = [f"{k} {v[k]}" + (hover if k == "fly" else "") for k in _SPEED_KINDS if isinstance(v.get(k), str | int)]
    other = [k for k in v if k not in (*_SPEED_KINDS, "hover")]
    if other:
        skipped.append(f"speeds {', '.join(str(k)[:20] for k in other)} (not a kind of speed Fracas keeps)")
    return read_speeds(texts, skipped)


def _senses(v: Any) -> str:
    """senses {darkvision: "60 ft.", passive_perception: 12} as the statblock's line."""
    if not isinstance(v, dict):
        return ""
    text = ", ".join(f"{str(k).replace('_', ' ')} {x}" for k, x in v.items() if isinstance(x, str | int))
    return " ".join(text.split())[:200]


def _challenge(m: dict[str, Any]) -> str:
    cr = m.get("challenge_rating")
    if not isinstance(cr, int | float) or isinstance(cr, bool) or not 0 <= cr <= 99:
        return ""
    text = {0.125: "1/8", 0.25: "1/4", 0.5: "1/2"}.get(float(cr), f"{cr:g}")
    xp = m.get("xp")
    return text + (f" ({xp:,} XP)" if isinstance(xp, int) and not isinstance(xp, bool) and 0 <= xp < 10**9 else "")


# the monster keys this importer reads; any other holding something is named in the report
_TAKEN = frozenset(
    ("name", "type", "armor_class", "hit_points", "hit_dice", "hit_points_roll", "speed", "proficiencies",
     "damage_vulnerabilities", "damage_resistances", "damage_immunities", "condition_immunities", "senses",
     "languages", "challenge_rating", "xp", "proficiency_bonus", "special_abilities", "legendary_desc")
    + _LONG + tuple(s for s, _ in _SECTIONS)
)


def convert_monster(m: dict[str, Any]) -> tuple[D20Statblock, str]:
    name = m.get("name")
    if not isinstance(name, str) or not name.strip():
        raise RuleError("it has no name")
    scores = {k: _stat(m[f], f, k, Abilities) for f, k in _SCORES.items() if f in m}
    saves = _saves(m)
    dice = str(m.get("hit_points_roll") or m.get("hit_dice") or "")
    dice = _dice(dice) if _HIT_DICE.fullmatch(dice) else ""
    skipped: list[str] = []
    speed, speeds = _speeds(m.get("speed"), skipped)
    parts = _parts(m)
    prof = m.get("proficiency_bonus", 2)
    defenses, note = read_defenses(tuple(m.get(f"damage_{what}") for _, what in _DEFENSES), skipped)
    conditions = [str(c.get("name", "") if isinstance(c, dict) else c) for c in m.get("condition_immunities") or []]
    sb = D20Statblock(
        name=name.strip()[:80],
        type=str(m.get("type", ""))[:80],
        hp=_stat(m["hit_points"], "hit_points", "hp"),
        hp_dice=dice,
        ac=_ac(m["armor_class"], skipped),
        abilities=Abilities(**scores),
        speed=speed,
        speeds=speeds,
        prof=_stat(prof, "proficiency_bonus", "prof"),
        # an empty Saves() is written as an empty table unless it is the field's own default
        **({"saves": Saves(**saves)} if saves else {}),
        resist=defenses["resist"].types,
        vulnerable=defenses["vulnerable"].types,
        immune=defenses["immune"].types,
        condition_immune=condition_words(conditions, skipped),
        skills=_skills(m),
        senses=_senses(m.get("senses")),
        languages=" ".join(str(m.get("languages", "") or "").split())[:200],
        challenge=_challenge(m),
        note=note,
        source=FORMAT,
        **parts.fields(),
    )
    validate(sb)
    took = f"HP {sb.hp}" + (f" ({dice})" if dice else "") + f", AC {sb.ac}, abilities"
    more = (*extras_took(sb), *parts.took(), untaken(m, _TAKEN))
    return sb, took_line(sb.name, took, parts.attacks, note, skipped + parts.skipped, more)


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
