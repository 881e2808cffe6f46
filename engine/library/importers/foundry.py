"""Foundry VTT actor exports ("Export Data" on an actor) of the wfrp4e and cosmere-rpg systems, as far
as their fields map. An export is one actor {name, type, system, items, _stats {systemId}}, or a list.

wfrp4e: system.characteristics.<ws..fel>.{initial, advances, modifier, value}, system.status.wounds
.{value, max}, items of type "weapon" (system.damage.value "SB+4", system.reach / range, system
.qualities.value [{name}]) and "armour" (system.AP {head, body, lArm, rArm, lLeg, rLeg}).
cosmere-rpg: system.attributes.<str..pre>.value, system.defenses.<phy|cog|spi>.value,
system.resources.{hea, foc, inv}.max, items of type "weapon" (system.damage {formula, type},
system.attack.range, system.attack.skill). Fields that are not there are skipped and said so."""

from __future__ import annotations

import re
from typing import Any

from engine.errors import RuleError
from engine.library.base import Statblock, validate
from engine.library.cosmere import Attributes, CosmereAttack, CosmereStatblock
from engine.library.importers.common import ImportProblem, ImportResult, entry_name
from engine.library.warhammer import QUALITIES, REACH, Armour, Characteristics, WarhammerStatblock, Weapon

FORMAT = "Foundry VTT"
_SB = re.compile(r"^\s*(SB)?\s*([+-]?\s*\d+)?\s*$", re.I)
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


def _num(v: Any, default: int = 0) -> int:
    if isinstance(v, bool):
        return default
    if isinstance(v, int | float):
        return int(v)
    if isinstance(v, str) and re.fullmatch(r"\s*[+-]?\d+\s*", v):
        return int(v)
    return default


def _get(d: Any, *path: str) -> Any:
    for p in path:
        if not isinstance(d, dict):
            return None
        d = d.get(p)
    return d


def _clamp(v: int, lo: int, hi: int) -> int:
    return max(lo, min(hi, v))


def _wfrp(actor: dict[str, Any]) -> tuple[Statblock, str]:
    system = actor.get("system") or actor.get("data") or {}
    chars = {}
    for k in ("ws", "bs", "s", "t", "i", "ag", "dex", "int", "wp", "fel"):
        c = _get(system, "characteristics", k)
        if isinstance(c, dict):
            value = c.get("value")
            if value is None:
                value = _num(c.get("initial"), 30) + _num(c.get("advances")) + _num(c.get("modifier"))
            chars[k] = _clamp(_num(value, 30), 0, 200)
    wounds = _get(system, "status", "wounds")
    w = _clamp(_num(_get(wounds, "max"), _num(_get(wounds, "value"), 10)), 0, 999)
    weapons, armour, skipped = [], dict.fromkeys(_AP.values(), 0), []
    for item in actor.get("items") or []:
        if not isinstance(item, dict):
            continue
        isys = item.get("system") or item.get("data") or {}
        name = str(item.get("name", "")).strip()[:80] or "Weapon"
        if item.get("type") == "weapon":
            dmg = str(_get(isys, "damage", "value") or "")
            m = _SB.match(dmg)
            if m is None:
                skipped.append(f"{name} (damage {dmg!r} is not SB+N or N)")
                continue
            quals, unknown = [], []
            for q in _get(isys, "qualities", "value") or []:
                qname = str(q.get("name", "") if isinstance(q, dict) else q).lower().replace("-", "")
                (quals if qname in QUALITIES else unknown).append(qname)
            if _get(isys, "twohanded", "value"):
                quals.append("twohanded")
            group = str(_get(isys, "weaponGroup", "value") or "").lower()
            mode = str(_get(isys, "modeOverride", "value") or "").lower()
            ranged = mode == "ranged" or (group in _RANGED_GROUPS and mode != "melee")
            kind = "melee" if not ranged else ("thrown" if group in ("throwing", "explosives") else "missile")
            rng_text = str(_get(isys, "range", "value") or "")
            rng = _num(rng_text)
            if ranged and rng_text and not rng:
                skipped.append(f"{name}'s range {rng_text!r} (a formula: left out)")
            if _get(isys, "offhand", "value"):
                quals.append("offhand")
            reach = str(_get(isys, "reach", "value") or "").lower()
            reach = {"vshort": "very short", "vlong": "very long"}.get(reach, reach)
            weapons.append(
                Weapon(
                    name=name,
                    skill="ws" if kind == "melee" else "bs",
                    damage=_clamp(_num((m[2] or "0").replace(" ", "")), -20, 50),
                    sb=bool(m[1]),
                    kind=kind,
                    reach=reach if reach in REACH else "",
                    range=_clamp(rng, 0, 2000),
                    qualities=tuple(dict.fromkeys(quals)),
                )
            )
            if unknown:
                skipped.append(f"{name}'s qualities {', '.join(unknown)} (the engine does not run them)")
        elif item.get("type") == "armour":
            ap = _get(isys, "AP") or _get(isys, "ap") or {}
            for k, loc in _AP.items():
                armour[loc] += _num(ap.get(k) if isinstance(ap, dict) else 0)
    sb = WarhammerStatblock(
        name=str(actor["name"]).strip()[:80],
        type=str(actor.get("type", ""))[:80],
        kind="pc" if actor.get("type") == "character" else "npc",
        side="party" if actor.get("type") == "character" else "enemy",
        wounds=w,
        characteristics=Characteristics(**chars),
        armour=Armour(**{k: _clamp(v, 0, 30) for k, v in armour.items()}),
        weapons=tuple(weapons),
        source=f"{FORMAT} wfrp4e",
    )
    validate(sb)
    line = f"{sb.name}: took characteristics, Wounds {w}, armour" + (
        "; weapons " + ", ".join(x.name for x in weapons) if weapons else ""
    )
    return sb, line + ("; skipped " + "; ".join(skipped) if skipped else "")


def _derived(d: Any, default: int) -> int:
    """A cosmere-rpg derived value {value, override, useOverride, bonus} (or a plain number)."""
    if not isinstance(d, dict):
        return _num(d, default)
    raw = d.get("override") if d.get("useOverride") else d.get("value")
    if raw is None:
        return default
    return _num(raw, default) + _num(d.get("bonus"))


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


def _cosmere(actor: dict[str, Any]) -> tuple[Statblock, str]:
    system = actor.get("system") or {}
    names = ("str", "spd", "int", "wil", "awa", "pre")
    attrs = {k: _clamp(_num(_get(system, "attributes", k, "value")), 0, 10) for k in names}
    defenses = {
        k: _clamp(_derived(_get(system, "defenses", k), 10 + attrs[a] + attrs[b]), 0, 60)
        for k, (a, b) in _DEFENSE_OF.items()
    }
    res = _get(system, "resources") or {}
    hp = _derived(_get(res, "hea", "max"), _num(_get(res, "hea", "value"), 10))
    focus = _derived(_get(res, "foc", "max"), _num(_get(res, "foc", "value"), 3))
    inv = _derived(_get(res, "inv", "max"), _num(_get(res, "inv", "value"), 0))
    speed = _derived(_get(system, "movement", "walk", "rate"), 25)
    deflect = _derived(_get(system, "deflect"), 0)
    attacks, skipped = [], []
    for item in actor.get("items") or []:
        if not isinstance(item, dict) or item.get("type") != "weapon":
            continue
        isys = item.get("system") or {}
        name = str(item.get("name", "")).strip()[:80] or "Weapon"
        formula = str(_get(isys, "damage", "formula") or "").replace(" ", "")
        if formula and not re.fullmatch(r"\d*d\d+([+-]\d+)?", formula):
            skipped.append(f"{name} (damage {formula!r} is not plain dice)")
            continue
        ranged = str(_get(isys, "attack", "type") or "").lower() == "ranged"
        short, long = _num(_get(isys, "attack", "range", "value")), _num(_get(isys, "attack", "range", "long"))
        skill = str(_get(isys, "activation", "skill") or _get(isys, "damage", "skill") or "")
        mod = _get(system, "skills", skill, "mod")
        if isinstance(mod, dict) and (mod.get("value") is not None or mod.get("useOverride")):
            bonus = _derived(mod, 0)
        elif skill in _SKILL_ATTR and _get(system, "skills", skill) is not None:
            bonus = _num(_get(system, "skills", skill, "rank")) + attrs[_SKILL_ATTR[skill]]
        else:
            bonus = 0
            skipped.append(f"{name}'s attack bonus (no skill {skill!r} on the sheet: 0 taken)")
        attacks.append(
            CosmereAttack(
                name=name,
                skill=skill[:80],
                bonus=_clamp(bonus, -20, 40),
                kind="ranged" if ranged else "melee",
                range=(f"{short}/{max(long, short)}" if short else "") if ranged else (str(short) if short else ""),
                damage=formula,
                type=str(_get(isys, "damage", "type") or "")[:40],
            )
        )
    sb = CosmereStatblock(
        name=str(actor["name"]).strip()[:80],
        type=str(_get(system, "type", "id") or actor.get("type", ""))[:80],
        kind="pc" if actor.get("type") == "character" else "npc",
        side="party" if actor.get("type") == "character" else "enemy",
        hp=_clamp(hp, 0, 9999),
        attributes=Attributes(**attrs),
        focus=_clamp(focus, 0, 99),
        investiture=_clamp(inv, 0, 99),
        speed=_clamp(speed, 0, 500),
        deflect=_clamp(deflect, 0, 20),
        attacks=tuple(attacks),
        source=f"{FORMAT} cosmere-rpg",
        **defenses,
    )
    validate(sb)
    line = f"{sb.name}: took attributes, defenses, health {sb.hp}, focus {sb.focus}" + (
        "; weapons " + ", ".join(f"{a.name} {a.bonus:+d}" for a in attacks) if attacks else ""
    )
    return sb, line + ("; skipped " + "; ".join(skipped) if skipped else "")


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
        except (TypeError, AttributeError, KeyError, ValueError, IndexError) as exc:
            # a field of an unexpected shape (a number where a table belongs): this entry's problem
            raise ImportProblem(
                f"{entry_name(i, actor, 'name')}: a field has an unexpected shape ({type(exc).__name__})"
            ) from None
        (party if sb.kind == "pc" else creatures).append(sb)
        report.append(line)
    rid = "warhammer" if system == "wfrp4e" else "cosmere"
    return ImportResult(f"{FORMAT} {system}", rid, tuple(creatures), tuple(party), tuple(report))
