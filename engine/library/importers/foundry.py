"""Foundry VTT actor exports ("Export Data" on an actor) of the wfrp4e and cosmere-rpg systems, as far
as their fields map. An export is one actor {name, type, system, items, _stats {systemId}}, or a list.

wfrp4e: system.characteristics.<ws..fel>.{initial, advances, modifier, value}, system.status.wounds
.{value, max}, items of type "weapon" (system.damage.value "SB+4", system.reach / range, system
.qualities.value [{name}]) and "armour" (system.AP {head, body, lArm, rArm, lLeg, rLeg}).
cosmere-rpg: system.attributes.<str..pre>.value, system.defenses.<phy|cog|spi>.value,
system.resources.{hea, foc, inv}.max, items of type "weapon" (system.damage {formula, type},
system.attack.range, system.attack.skill). Fields that are not there are skipped and said so."""

from __future__ import annotations

import html
import re
from typing import Any

from engine.errors import RuleError
from engine.library.abilities import MAX_ABILITIES, Ability, DamagePart, Trait
from engine.library.base import Statblock, validate
from engine.library.cosmere import Attributes, CosmereAttack, CosmereStatblock
from engine.library.importers.common import (
    FEET,
    SHAPE_ERRORS,
    ImportProblem,
    ImportResult,
    bounds,
    entry_name,
    in_range,
    number,
    untaken,
    whole,
)
from engine.library.warhammer import QUALITIES, REACH, Armour, Characteristics, WarhammerStatblock, Weapon
from engine.limits import TEXT
from engine.text import shown

FORMAT = "Foundry VTT"
# "SB+4", "9" (possessive: a long run of spaces or digits is read once, never retried)
_SB = re.compile(r"\s*+(SB)?\s*+([+-]?\s*+\d++)?\s*+", re.I)  # fullmatch
_PLAIN_INT = re.compile(r"\s*+[+-]?\d++\s*+")  # fullmatch
_DICE = re.compile(r"\d*+d\d++(?:[+-]\d++)?")  # fullmatch
# a part of a value that is summed (initial + advances + modifier): checked against this, the sum
# against the ruleset's own bounds
_PART = (-1_000_000, 1_000_000)
# weapon groups the wfrp4e system counts as ranged (its config's groupToType)
_RANGED_GROUPS = ("blackpowder", "bow", "crossbow", "engineering", "entangling", "explosives", "sling", "throwing")
_AP = {"head": "head", "body": "body", "lArm": "larm", "rArm": "rarm", "lLeg": "lleg", "rLeg": "rleg"}


def _system(v: Any) -> str:
    if not isinstance(v, dict):
        return ""
    stats = v.get("_stats") or {}
    sid = stats.get("systemId") if isinstance(stats, dict) else None
    if isinstance(sid, str) and sid:
        return sid
    system = v.get("system") or v.get("data") or {}
    if isinstance(system, dict) and "characteristics" in system and "status" in system:
        return "wfrp4e"
    if isinstance(system, dict) and "attributes" in system and "defenses" in system:
        return "cosmere-rpg"
    return ""


def _actors(data: Any) -> list[Any]:
    return data if isinstance(data, list) else [data]


def recognise(data: Any) -> bool:
    items = _actors(data)
    return bool(items) and all(_system(v) in ("wfrp4e", "cosmere-rpg") for v in items[:5])


def _num(v: Any, what: str, default: int = 0, span: tuple[int, int] = _PART) -> int:
    """A number field: an int, a whole float or a text that is a plain integer (a fraction, NaN or a
    number out of `span` is refused, never rounded); anything else (missing, a formula) is `default`."""
    if v is None or isinstance(v, bool):
        return default
    if isinstance(v, int | float):
        return whole(v, what, *span)
    if isinstance(v, str) and _PLAIN_INT.fullmatch(v):
        return number(v, what, *span)
    return default


def _stat(v: int, what: str, cls: type, field: str) -> int:
    """`v` for `cls`'s field if it is in the ruleset's bounds for it; refused if not."""
    return in_range(v, what, *bounds(cls, field))


def _get(d: Any, *path: str) -> Any:
    for p in path:
        if not isinstance(d, dict):
            return None
        d = d.get(p)
    return d


# a wfrp4e characteristic without its value: the sum of these parts (and each one's default)
_SUMMED = (("initial", 30), ("advances", 0), ("modifier", 0))


def _characteristics(system: Any) -> Characteristics:
    chars = {}
    for k in Characteristics.__struct_fields__:
        c = _get(system, "characteristics", k)
        if isinstance(c, dict):
            value = c.get("value")
            if value is None:
                value = sum(_num(c.get(part), f"{k} {part}", d) for part, d in _SUMMED)
            else:
                value = _num(value, f"characteristic {k}", 30, bounds(Characteristics, k))
            chars[k] = _stat(value, f"characteristic {k}", Characteristics, k)
    return Characteristics(**chars)


# the item flags ({value: true}) that are weapon qualities of their own, in the order they are added
_FLAG_QUALITIES = ("twohanded", "offhand")
# the wfrp4e system's reach ids that are no reach word of the ruleset's
_REACH_WORDS = {"vshort": "very short", "vlong": "very long"}


def _qualities(name: str, isys: Any, skipped: list[str]) -> list[str]:
    """The weapon's qualities the engine runs (and its flags); the others are said in `skipped`."""
    quals, unknown = [], []
    for q in _get(isys, "qualities", "value") or []:
        qname = str(q.get("name", "") if isinstance(q, dict) else q).lower().replace("-", "")
        (quals if qname in QUALITIES else unknown).append(qname)
    if unknown:
        skipped.append(f"{name}'s qualities {', '.join(unknown)} (the engine does not run them)")
    return quals + [flag for flag in _FLAG_QUALITIES if _get(isys, flag, "value")]


def _weapon_kind(isys: Any) -> tuple[bool, str]:
    """Whether the weapon is ranged (its mode, else its group), and its kind: melee, thrown, missile."""
    group = str(_get(isys, "weaponGroup", "value") or "").lower()
    mode = str(_get(isys, "modeOverride", "value") or "").lower()
    ranged = mode == "ranged" or (group in _RANGED_GROUPS and mode != "melee")
    return ranged, "melee" if not ranged else ("thrown" if group in ("throwing", "explosives") else "missile")


def _weapon_range(name: str, isys: Any, ranged: bool, skipped: list[str]) -> int:
    """The range (a formula, "SB*3", is left out and said in `skipped` for a ranged weapon)."""
    rng_text = str(_get(isys, "range", "value") or "")
    rng = _num(rng_text, f"{name}'s range", 0, bounds(Weapon, "range"))
    if ranged and rng_text and not rng:
        skipped.append(f"{name}'s range {shown(rng_text)} (a formula: left out)")
    return rng


def _weapon(name: str, isys: Any, skipped: list[str]) -> Weapon | None:
    """A wfrp4e weapon item, or None (and why in `skipped`) when its damage is no SB+N or N."""
    dmg = str(_get(isys, "damage", "value") or "")
    m = _SB.fullmatch(dmg)
    if m is None:
        skipped.append(f"{name} (damage {shown(dmg)} is not SB+N or N)")
        return None
    quals = _qualities(name, isys, skipped)
    ranged, kind = _weapon_kind(isys)
    rng = _weapon_range(name, isys, ranged, skipped)
    reach = str(_get(isys, "reach", "value") or "").lower()
    reach = _REACH_WORDS.get(reach, reach)
    damage = number(m[2].replace(" ", ""), f"{name}'s damage", *bounds(Weapon, "damage")) if m[2] else 0
    return Weapon(
        name=name,
        skill="ws" if kind == "melee" else "bs",
        damage=damage,
        sb=bool(m[1]),
        kind=kind,
        reach=reach if reach in REACH else "",
        range=rng,
        qualities=tuple(dict.fromkeys(quals)),
    )


def _wounds(system: Any) -> int:
    """status.wounds: its max, else its value, else 10."""
    wounds = _get(system, "status", "wounds")
    span = bounds(WarhammerStatblock, "wounds")
    return _num(_get(wounds, "max"), "wounds", _num(_get(wounds, "value"), "wounds", 10, span), span)


def _add_armour(armour: dict[str, int], name: str, isys: Any) -> None:
    """An armour item's AP on each location, added to `armour`."""
    ap = _get(isys, "AP") or _get(isys, "ap") or {}
    for k, loc in _AP.items():
        armour[loc] += _num(ap.get(k) if isinstance(ap, dict) else 0, f"{name}'s AP {k}")


class _WfrpItems:
    """What an actor's items give: weapons (its weapon items, and traits that are weapons: Bite, Weapon),
    armour points per location (armour items, and the Armour trait on every location), traits with
    their text; items of other types are named in the report."""

    def __init__(self) -> None:
        self.weapons: list[Weapon] = []
        self.armour = dict.fromkeys(_AP.values(), 0)
        self.traits: list[Trait] = []
        self.skipped: list[str] = []
        self.others: list[str] = []

    def read(self, actor: dict[str, Any]) -> None:
        for item in actor.get("items") or []:
            if not isinstance(item, dict):
                continue
            isys = item.get("system") or item.get("data") or {}
            name = str(item.get("name", "")).strip()[:80] or "Item"
            kind = item.get("type")
            if kind == "weapon":
                weapon = _weapon(name, isys, self.skipped)
                if weapon is not None:
                    self.weapons.append(weapon)
            elif kind == "armour":
                _add_armour(self.armour, name, isys)
            elif kind == "trait":
                self.trait(name, isys)
            else:
                self.others.append(f"{name} ({str(kind)[:20]})")

    def trait(self, name: str, isys: Any) -> None:
        """A creature trait: a rollable one that deals damage is a weapon (its specification the damage,
        with the Strength Bonus when its bonus characteristic is Strength); Armour N adds N to every
        location; any other is kept with its text (and its specification: "Fear (2)")."""
        spec = str(_get(isys, "specification", "value") or "").strip()
        number_spec = _PLAIN_INT.fullmatch(spec) is not None
        if _get(isys, "rollable", "damage") and number_spec:
            ranged = str(_get(isys, "rollable", "rollCharacteristic") or "ws").lower() == "bs"
            self.weapons.append(Weapon(
                name=name,
                skill="bs" if ranged else "ws",
                damage=number(spec, f"{name}'s damage", *bounds(Weapon, "damage")),
                sb=str(_get(isys, "rollable", "bonusCharacteristic") or "").lower() == "s",
                kind="missile" if ranged else "melee",
            ))
            return
        if name.casefold() == "armour" and number_spec:
            n = number(spec, f"{name}'s points", *_PART)
            for loc in self.armour:
                self.armour[loc] += n
            return
        label = f"{name} ({spec[:30]})" if spec else name
        self.traits.append(Trait(name=label[:80], text=_cut(html_text(_get(isys, "description")), name, self.skipped)))


def _who(actor: dict[str, Any]) -> dict[str, str]:
    """A character is a PC, to the party; any other actor an NPC, an enemy."""
    pc = actor.get("type") == "character"
    return {"kind": "pc" if pc else "npc", "side": "party" if pc else "enemy"}


# the wfrp4e system keys this importer reads (characteristics, and Wounds among the status)
_WFRP_TAKEN = frozenset(("characteristics", "status"))


def _wfrp(actor: dict[str, Any]) -> tuple[Statblock, str]:
    system = actor.get("system") or actor.get("data") or {}
    w = _wounds(system)
    items = _WfrpItems()
    items.read(actor)
    for what, found in (("weapons", items.weapons), ("traits", items.traits)):
        if len(found) > 100:
            items.skipped.append(f"{what} past the first 100: {', '.join(x.name for x in found[100:])}")
    sb = WarhammerStatblock(
        name=str(actor["name"]).strip()[:80],
        type=str(actor.get("type", ""))[:80],
        **_who(actor),
        wounds=w,
        characteristics=_characteristics(system),
        armour=Armour(**{k: _stat(v, f"armour {k}", Armour, k) for k, v in items.armour.items()}),
        weapons=tuple(items.weapons[:100]),
        traits=tuple(items.traits[:100]),
        source=f"{FORMAT} wfrp4e",
    )
    validate(sb)
    took = [
        f"characteristics, Wounds {w}, armour",
        "weapons " + ", ".join(x.name for x in sb.weapons) if sb.weapons else "",
        "traits " + ", ".join(x.name for x in sb.traits) if sb.traits else "",
    ]
    return sb, _line(sb.name, took, items.skipped, _untaken(actor, system, _WFRP_TAKEN, items.others))


def _derived(d: Any, what: str, default: int, span: tuple[int, int] = _PART) -> int:
    """A cosmere-rpg derived value {value, override, useOverride, bonus} (or a plain number)."""
    if not isinstance(d, dict):
        return _num(d, what, default, span)
    raw = d.get("override") if d.get("useOverride") else d.get("value")
    if raw is None:
        return default
    return _num(raw, what, default, span) + _num(d.get("bonus"), f"{what} bonus")


# which attribute each skill adds (cosmere-rpg's skill ids), to work out an attack bonus from rank
_SKILL_ATTR = {
    "agi": "spd",
    "ath": "str",
    "hwp": "str",
    "lwp": "spd",
    "stl": "spd",
    "thv": "spd",
    "cra": "int",
    "ded": "int",
    "dis": "wil",
    "intm": "wil",
    "lor": "int",
    "med": "int",
    "dec": "pre",
    "ins": "awa",
    "lea": "pre",
    "prc": "awa",
    "prs": "pre",
    "sur": "awa",
}
# the defense each pair of attributes makes: 10 + both (used when an export leaves it derived)
_DEFENSE_OF = {"phy": ("str", "spd"), "cog": ("int", "wil"), "spi": ("awa", "pre")}


def _skill_bonus(name: str, system: Any, skill: str, attrs: dict[str, int], skipped: list[str]) -> int:
    """The attack's bonus: the skill's modifier, else its rank plus its attribute, else 0 (said)."""
    mod = _get(system, "skills", skill, "mod")
    if isinstance(mod, dict) and (mod.get("value") is not None or mod.get("useOverride")):
        return _derived(mod, f"{name}'s skill modifier", 0)
    if skill in _SKILL_ATTR and _get(system, "skills", skill) is not None:
        return _num(_get(system, "skills", skill, "rank"), f"skill {skill[:20]} rank") + attrs[_SKILL_ATTR[skill]]
    skipped.append(f"{name}'s attack bonus (no skill {shown(skill)} on the sheet: 0 taken)")
    return 0


def _range_text(ranged: bool, short: int, long: int) -> str:
    """A ranged weapon's "short/long", a melee weapon's reach, or "" when there is none."""
    if ranged:
        return f"{short}/{max(long, short)}" if short else ""
    return str(short) if short else ""


def _cosmere_attack(
    item: dict[str, Any], system: Any, attrs: dict[str, int], skipped: list[str]
) -> CosmereAttack | None:
    """A cosmere-rpg weapon item, or None (and why in `skipped`) when its damage is no plain dice."""
    isys = item.get("system") or {}
    name = str(item.get("name", "")).strip()[:80] or "Weapon"
    formula = str(_get(isys, "damage", "formula") or "").replace(" ", "")
    if formula and not _DICE.fullmatch(formula):
        skipped.append(f"{name} (damage {shown(formula)} is not plain dice)")
        return None
    ranged = str(_get(isys, "attack", "type") or "").lower() == "ranged"
    short = _num(_get(isys, "attack", "range", "value"), f"{name}'s range", 0, FEET)
    long = _num(_get(isys, "attack", "range", "long"), f"{name}'s long range", 0, FEET)
    skill = str(_get(isys, "activation", "skill") or _get(isys, "damage", "skill") or "")
    bonus = _skill_bonus(name, system, skill, attrs, skipped)
    return CosmereAttack(
        name=name,
        skill=skill[:80],
        bonus=_stat(bonus, f"{name}'s attack bonus", CosmereAttack, "bonus"),
        kind="ranged" if ranged else "melee",
        range=_range_text(ranged, short, long),
        damage=formula,
        type=str(_get(isys, "damage", "type") or "")[:40],
    )


# the resources: (Fracas field, key in system.resources, default when the export gives no value)
_RESOURCES = (("hp", "hea", 10), ("focus", "foc", 3), ("investiture", "inv", 0))
# the other derived values: (Fracas field, path in system, default)
_OTHERS = (("speed", ("movement", "walk", "rate"), 25), ("deflect", ("deflect",), 0))


def _cosmere_stats(system: Any, attrs: dict[str, int]) -> dict[str, int]:
    """The defenses, resources, speed and deflect: each derived value (or its default) in its bounds."""
    given = {
        f"defense {k}": (k, _get(system, "defenses", k), 10 + attrs[a] + attrs[b]) for k, (a, b) in _DEFENSE_OF.items()
    }
    res = _get(system, "resources") or {}
    for field, key, default in _RESOURCES:
        span = bounds(CosmereStatblock, field)
        given[field] = (field, _get(res, key, "max"), _num(_get(res, key, "value"), field, default, span))
    for field, path, default in _OTHERS:
        given[field] = (field, _get(system, *path), default)
    return {
        field: _stat(_derived(d, what, default, bounds(CosmereStatblock, field)), what, CosmereStatblock, field)
        for what, (field, d, default) in given.items()
    }


_COST = {"act": "action", "rea": "reaction", "fre": "free"}
# an action item's words for its Strike's range and its target's defense, read from its description
_ITEM_RANGE = re.compile(r"\brange\s++(\d{1,5}+)(?:\s*+/\s*+(\d{1,5}+))?", re.I)
_ITEM_REACH = re.compile(r"\breach\s++(\d{1,5}+)", re.I)
_VS = re.compile(r"\bvs\.?\s++(Physical|Cognitive|Spiritual)\b", re.I)


class _CosmereItems:
    """What an actor's items give: attacks from weapon items and from action items that are Strikes
    ("Strike: Mace", an action with a skill test and damage), abilities from the other action items
    (their cost, reaction or free activation, focus spent, uses), and the items of other types named."""

    def __init__(self, system: Any, attrs: dict[str, int]) -> None:
        self.system, self.attrs = system, attrs
        self.attacks: list[CosmereAttack] = []
        self.actions: list[Ability] = []
        self.skipped: list[str] = []
        self.others: list[str] = []
        self.from_actions: list[str] = []

    def read(self, actor: dict[str, Any]) -> None:
        for item in actor.get("items") or []:
            if not isinstance(item, dict):
                continue
            kind = item.get("type")
            if kind == "weapon":
                attack = _cosmere_attack(item, self.system, self.attrs, self.skipped)
                if attack is not None:
                    self.attacks.append(attack)
            elif kind == "action":
                self.action(item)
            else:
                self.others.append(f"{str(item.get('name', '')).strip()[:80] or 'Item'} ({str(kind)[:20]})")

    def action(self, item: dict[str, Any]) -> None:
        isys = item.get("system") or {}
        name = str(item.get("name", "")).strip()[:80] or "Action"
        text = _cut(html_text(_get(isys, "description")), name, self.skipped)
        formula = str(_get(isys, "damage", "formula") or "").replace(" ", "")
        skill = str(_get(isys, "activation", "skill") or "")
        strike = name.casefold().startswith("strike") or (formula and skill and skill != "none")
        if strike and (not formula or _DICE.fullmatch(formula)):
            self.attacks.append(self.strike(name, isys, text, formula, skill))
            self.from_actions.append(name)
            return
        if formula and not _DICE.fullmatch(formula):
            self.skipped.append(f"{name}'s damage {shown(formula)} (not plain dice: kept in its text)")
            formula = ""
        self.actions.append(_cosmere_ability(name, isys, text, formula))

    def strike(self, name: str, isys: Any, text: str, formula: str, skill: str) -> CosmereAttack:
        rng, reach = _ITEM_RANGE.search(text), _ITEM_REACH.search(text)
        vs = _VS.search(text)
        bonus = _skill_bonus(name, self.system, skill, self.attrs, self.skipped)
        cost = _num(_get(isys, "activation", "cost", "value"), f"{name}'s cost", 1, (0, 3))
        return CosmereAttack(
            name=name,
            skill=skill[:80],
            bonus=_stat(bonus, f"{name}'s attack bonus", CosmereAttack, "bonus"),
            defense={"c": "cog", "s": "spi"}.get(vs[1][0].lower(), "phy") if vs else "phy",
            kind="ranged" if rng else "melee",
            range=_range_text(True, int(rng[1]), int(rng[2] or rng[1])) if rng else (reach[1] if reach else ""),
            damage=formula,
            type=str(_get(isys, "damage", "type") or "")[:40],
            cost=cost,
        )


def _cosmere_ability(name: str, isys: Any, text: str, formula: str) -> Ability:
    """A cosmere-rpg action item that is no Strike: when it is used (an action costing 1-3, a reaction,
    a free action), the focus it consumes, its uses and its damage."""
    act = _COST.get(str(_get(isys, "activation", "cost", "type") or "act"), "action")
    cost = _num(_get(isys, "activation", "cost", "value"), f"{name}'s cost", 1, (0, 3)) if act == "action" else 1
    focus = 0
    for c in _get(isys, "activation", "consume") or []:
        if isinstance(c, dict) and c.get("resource") == "foc":
            focus += _num(_get(c, "value", "min"), f"{name}'s focus", 0, (0, 99)) or _num(
                _get(c, "value", "actual"), f"{name}'s focus", 0, (0, 99))
    uses = _get(isys, "activation", "uses")
    n = _num(_get(uses, "max"), f"{name}'s uses", 0, (0, 99)) if isinstance(uses, dict) else 0
    per = "day" if "day" in str(_get(uses, "recharge") or "").lower() or "rest" in str(
        _get(uses, "recharge") or "").lower() else "fight"
    dtype = str(_get(isys, "damage", "type") or "")[:40]
    return Ability(
        name=name, text=text, act=act, cost=cost, focus=min(focus, 99), uses=n, per=per if n else "",
        damage=(DamagePart(dice=formula, type=dtype),) if formula else (),
    )


# the cosmere-rpg system keys this importer reads
_COSMERE_TAKEN = frozenset(("attributes", "defenses", "resources", "skills", "movement", "deflect", "type"))


def _cosmere(actor: dict[str, Any]) -> tuple[Statblock, str]:
    system = actor.get("system") or {}
    attrs = {
        k: _num(_get(system, "attributes", k, "value"), f"attribute {k}", 0, bounds(Attributes, k))
        for k in Attributes.__struct_fields__
    }
    stats = _cosmere_stats(system, attrs)
    items = _CosmereItems(system, attrs)
    items.read(actor)
    sb = CosmereStatblock(
        name=str(actor["name"]).strip()[:80],
        type=str(_get(system, "type", "id") or actor.get("type", ""))[:80],
        **_who(actor),
        attributes=Attributes(**attrs),
        attacks=tuple(items.attacks[:100]),
        actions=_unique_names(items.actions, items.skipped),
        source=f"{FORMAT} cosmere-rpg",
        **stats,
    )
    validate(sb)
    took = [
        f"attributes, defenses, health {sb.hp}, focus {sb.focus}",
        "weapons " + ", ".join(f"{a.name} {a.bonus:+d}" for a in sb.attacks) if sb.attacks else "",
        "attacks from action items " + ", ".join(items.from_actions) if items.from_actions else "",
        "abilities " + ", ".join(_ability_word(a) for a in sb.actions) if sb.actions else "",
    ]
    return sb, _line(sb.name, took, items.skipped, _untaken(actor, system, _COSMERE_TAKEN, items.others))


def _ability_word(a: Ability) -> str:
    bits = [a.act if a.act != "action" else f"{a.cost} action{'s' if a.cost != 1 else ''}"]
    if a.focus:
        bits.append(f"{a.focus} focus")
    return f"{a.name} ({', '.join(bits)})"


def _unique_names(actions: list[Ability], skipped: list[str]) -> tuple[Ability, ...]:
    """One ability of each name, at most a statblock's count; a second of a name is said, as is the rest."""
    out: list[Ability] = []
    seen: set[str] = set()
    for a in actions:
        if a.name.casefold() in seen:
            skipped.append(f"a second action item {shown(a.name)}")
        elif len(out) == MAX_ABILITIES:
            skipped.append(f"action item {shown(a.name)} (past {MAX_ABILITIES} abilities)")
        else:
            seen.add(a.name.casefold())
            out.append(a)
    return tuple(out)


# --- what every actor has besides its numbers: items of other types, keys not read ----------------

_TAG = re.compile(r"<[^<>]*+>")  # stops at the next "<": "<<<<" is read once
# Foundry's own bookkeeping on every document: said in the report by name like any other key
_ACTOR_KEYS = frozenset(("name", "type", "system", "data", "items", "_stats"))


def html_text(v: Any) -> str:
    """An HTML description ({value: "<p>...</p>"} or the text) as plain text, paragraphs as lines."""
    text = v.get("value", "") if isinstance(v, dict) else v
    if not isinstance(text, str):
        return ""
    text = re.sub(r"(?i)</p\s*+>|<br\s*+/?>", "\n", text[:20_000])
    lines = (" ".join(x.split()) for x in html.unescape(_TAG.sub(" ", text)).split("\n"))
    return "\n".join(x for x in lines if x)


def _cut(text: str, what: str, skipped: list[str]) -> str:
    if len(text) <= TEXT:
        return text
    skipped.append(f"{what}'s text past {TEXT} characters (cut)")
    return text[: TEXT - 1].rsplit(" ", 1)[0] + "\u2026"


def _untaken(actor: dict[str, Any], system: Any, taken: frozenset[str], others: list[str]) -> list[str]:
    """The report's phrases for the actor's keys, its system's keys and its items no field took."""
    out = [untaken(actor, _ACTOR_KEYS)]
    if isinstance(system, dict):
        out.append(untaken(system, taken, "system fields not taken"))
    if others:
        out.append("items not taken: " + ", ".join(others))
    return [x for x in out if x]


def _line(head: str, took: list[str], skipped: list[str], rest: list[str]) -> str:
    line = f"{head}: took " + "; ".join(x for x in took if x)
    return line + ("; skipped " + "; ".join(skipped) if skipped else "") + "".join(f"; {x}" for x in rest)


def convert(data: Any) -> ImportResult:
    actors = _actors(data)
    systems = {_system(a) for a in actors}
    if len(systems) != 1:
        raise ImportProblem("a Foundry export mixing systems: import one system's actors at a time")
    system = systems.pop()
    creatures, party, report = [], [], []
    for i, actor in enumerate(actors):
        if not isinstance(actor.get("name"), str) or not actor["name"].strip():
            raise ImportProblem(f"{entry_name(i, actor, 'name')}: an actor with no name")
        try:
            sb, line = _wfrp(actor) if system == "wfrp4e" else _cosmere(actor)
        except RuleError as exc:
            raise ImportProblem(f"{entry_name(i, actor, 'name')}: {exc}") from None
        except SHAPE_ERRORS as exc:
            # a field of an unexpected shape (a number where a table belongs): this entry's problem
            raise ImportProblem(
                f"{entry_name(i, actor, 'name')}: a field has an unexpected shape ({type(exc).__name__})"
            ) from None
        (party if sb.kind == "pc" else creatures).append(sb)
        report.append(line)
    rid = "warhammer" if system == "wfrp4e" else "cosmere"
    return ImportResult(f"{FORMAT} {system}", rid, tuple(creatures), tuple(party), tuple(report))
