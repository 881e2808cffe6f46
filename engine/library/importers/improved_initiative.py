"""Improved Initiative's statblocks (https://github.com/cynicaloptimist/improved-initiative, the
`StatBlock` interface in client/../StatBlock.ts): Name, Type, HP {Value, Notes}, AC {Value, Notes},
InitiativeModifier, Speed [..], Abilities {Str..Cha}, Saves [{Name, Modifier}], DamageResistances,
DamageVulnerabilities, DamageImmunities, Traits/Actions/BonusActions/Reactions [{Name, Content}],
Player ("player" for a PC). A file is a list of them, or the app's export object whose values hold
them (as objects or as JSON strings)."""

from __future__ import annotations

import json
import re
from typing import Any

from engine.errors import RuleError
from engine.library.base import validate
from engine.library.d20 import Abilities, D20Attack, D20Statblock, DamagePart, Saves, mod
from engine.library.importers.common import ImportProblem, ImportResult, entry_name

FORMAT = "Improved Initiative"
_ABILITY = {"str": "str", "dex": "dex", "con": "con", "int": "int", "wis": "wis", "cha": "cha"}
_ATTACK = re.compile(
    r"(Melee or Ranged|Melee|Ranged)\s+(?:Weapon|Spell)?\s*Attack(?: Roll)?:\s*([+\-\u2212])\s*(\d+)\s*(?:to hit)?",
    re.I,
)
_REACH = re.compile(r"reach\s+(\d+)\s*f(?:ee)?t", re.I)
_RANGE = re.compile(r"range\s+(\d+)(?:\s*/\s*(\d+))?\s*f(?:ee)?t", re.I)
# "12 (2d6 + 5) bludgeoning damage", "(1d6 + 2) slashing damage", "1 piercing damage"
_PART = re.compile(r"(?:(\d+)\s*)?(?:\(\s*([0-9dD+\-\u2212 ]+?)\s*\)\s*)?([A-Za-z]+)\s+damage", re.I)
_DICE = re.compile(r"^\d*d\d+(?:[+-]\d+)?$|^\d+$")
_FIRST_INT = re.compile(r"-?\d+")
_HIT_DICE = re.compile(r"\d+\s*d\s*\d+(?:\s*[+\-\u2212]\s*\d+)?", re.I)


def _dice(text: str) -> str:
    return text.replace("\u2212", "-").replace(" ", "").lower()


def parse_attack(name: str, text: str) -> D20Attack | None:
    """An attack from a statblock's sentence ("Melee Weapon Attack: +9 to hit, reach 10 ft., one
    target. Hit: 12 (2d6 + 5) bludgeoning damage."), or None when it is no attack roll."""
    m = _ATTACK.search(text)
    if m is None:
        return None
    bonus = int(m[3]) * (-1 if m[2] in "-\u2212" else 1)
    kind = "ranged" if m[1].lower() == "ranged" else "melee"
    reach = _REACH.search(text)
    rng = _RANGE.search(text)
    hit = re.split(r"\bHit:\s*", text, maxsplit=1, flags=re.I)
    parts: list[DamagePart] = []
    rider = ""
    if len(hit) == 2:
        # the hit's damage is its first sentence ("... damage plus 4 (1d8) acid damage."); what follows
        # (a save, a later effect with its own dice) is the rider, never damage of the hit
        first, _, rest = hit[1].partition(". ")
        # "5 (1d6 + 2) piercing damage, or 6 (1d8 + 2) ... with two hands": the first is the attack's,
        # the alternative stays in the rider for the GM
        first, *alt = re.split(r",?\s+or\s+(?=\d+\s*\()", first, maxsplit=1)
        if alt:
            rest = f"or {alt[0]}. {rest}".strip(". ")
        end = 0
        for p in _PART.finditer(first):
            dice = _dice(p[2]) if p[2] else (p[1] or "")
            if not dice or not _DICE.match(dice):
                continue
            parts.append(DamagePart(dice=dice, type=p[3].lower()))
            end = p.end()
        tail = first[end:].strip(" .,;") if parts else first.strip(" .")
        tail = re.sub(r"^(and|plus)\s+", "", tail, flags=re.I)
        rider = " ".join(x for x in (tail, rest.strip(" .")) if x)
    return D20Attack(
        name=name,
        bonus=bonus,
        kind=kind,
        reach=int(reach[1]) if reach and kind == "melee" else 5,
        # "Melee or Ranged": a melee attack that may also be thrown keeps its range too
        range=(f"{rng[1]}/{rng[2]}" if rng[2] else rng[1]) if rng else "",
        damage=tuple(parts),
        rider=" ".join(rider.split())[:200],
    )


def _blocks(data: Any) -> list[Any]:
    if isinstance(data, list):
        return data
    out = []
    for v in data.values():
        if isinstance(v, str) and v.startswith("{"):
            try:
                v = json.loads(v)
            except ValueError:
                continue
        if _is_block(v):
            out.append(v)
    return out


def _is_block(v: Any) -> bool:
    return isinstance(v, dict) and "Name" in v and isinstance(v.get("HP"), dict) and "AC" in v


def recognise(data: Any) -> bool:
    if isinstance(data, list):
        return bool(data) and all(_is_block(v) for v in data[:5])
    if isinstance(data, dict):
        return bool(_blocks(data))
    return False


def _int(v: Any, what: str) -> int:
    if isinstance(v, bool) or not isinstance(v, int | float | str):
        raise RuleError(f"{what} is not a number")
    m = _FIRST_INT.search(str(v))
    if m is None:
        raise RuleError(f"{what} is not a number")
    return int(m.group())


def _words(v: Any) -> tuple[str, ...]:
    if not isinstance(v, list):
        return ()
    out: list[str] = []
    for item in v:
        if isinstance(item, str):
            # "bludgeoning, piercing, and slashing from nonmagical attacks": the damage words only
            for w in re.split(r"[;,]|\band\b", item):
                w = w.strip().lower()
                if w and len(w) <= 40 and " " not in w:
                    out.append(w)
    return tuple(dict.fromkeys(out))


def convert_block(block: dict[str, Any]) -> tuple[D20Statblock, str]:
    """One StatBlock as a d20 statblock and its report line (RuleError when it cannot be one)."""
    took: list[str] = []
    skipped: list[str] = []
    name = block.get("Name")
    if not isinstance(name, str) or not name.strip():
        raise RuleError("it has no Name")
    hp = block.get("HP") or {}
    ac = block.get("AC") or {}
    hp_value = max(0, _int(hp.get("Value", 0), "HP"))
    m = _HIT_DICE.search(str(hp.get("Notes", "")))
    hp_dice = _dice(m.group()) if m else ""
    abilities_in = block.get("Abilities") or {}
    scores = {}
    for k, v in abilities_in.items() if isinstance(abilities_in, dict) else ():
        key = _ABILITY.get(str(k).lower()[:3])
        if key:
            scores[key] = min(40, max(1, _int(v, f"ability {k}")))
    abilities = Abilities(**scores)
    saves = {}
    for s in block.get("Saves") or []:
        if isinstance(s, dict):
            key = _ABILITY.get(str(s.get("Name", "")).lower()[:3])
            if key:
                saves[key] = max(-20, min(40, _int(s.get("Modifier", 0), "a save")))
    init_total = _int(block.get("InitiativeModifier", mod(abilities.dex)), "InitiativeModifier")
    speed = 30
    speeds = block.get("Speed") or []
    if speeds and isinstance(speeds, list) and _FIRST_INT.search(str(speeds[0])):
        speed = min(500, max(0, _int(speeds[0], "Speed")))
    attacks = []
    for section in ("Actions", "BonusActions", "Reactions", "LegendaryActions"):
        for a in block.get(section) or []:
            if not isinstance(a, dict):
                continue
            aname = str(a.get("Name", "")).strip() or "Attack"
            attack = parse_attack(aname[:80], str(a.get("Content", "")))
            if attack is None:
                skipped.append(f"{aname} (no attack roll)")
            elif section != "Actions":
                skipped.append(f"{aname} (an attack outside the Actions: add it by hand)")
            else:
                attacks.append(attack)
    traits = [str(t.get("Name", "")) for t in block.get("Traits") or [] if isinstance(t, dict)]
    if traits:
        skipped.append(f"traits {', '.join(traits)} (text only: the engine does not run them)")
    pc = str(block.get("Player", "")).lower() == "player"
    sb = D20Statblock(
        name=name.strip()[:80],
        type=str(block.get("Type", ""))[:80],
        kind="pc" if pc else "npc",
        side="party" if pc else "enemy",
        hp=hp_value,
        hp_dice=hp_dice,
        ac=max(0, min(60, _int(ac.get("Value", 10), "AC"))),
        abilities=abilities,
        speed=speed,
        init=max(-20, min(40, init_total - mod(abilities.dex))),
        saves=Saves(**saves),
        resist=_words(block.get("DamageResistances")),
        vulnerable=_words(block.get("DamageVulnerabilities")),
        immune=_words(block.get("DamageImmunities")),
        attacks=tuple(attacks),
        source=FORMAT,
    )
    validate(sb)
    took.append(f"HP {hp_value}" + (f" ({hp_dice})" if hp_dice else "") + f", AC {sb.ac}, abilities")
    if attacks:
        took.append("attacks " + ", ".join(f"{a.name} {a.bonus:+d}" for a in attacks))
    line = f"{sb.name}{' (PC, to the party)' if pc else ''}: took {'; '.join(took)}"
    if skipped:
        line += "; skipped " + "; ".join(skipped)
    return sb, line


def convert(data: Any) -> ImportResult:
    creatures = []
    party = []
    report = []
    for i, block in enumerate(_blocks(data)):
        if not _is_block(block):
            raise ImportProblem(f"{entry_name(i, block, 'Name')}: not an Improved Initiative statblock")
        try:
            sb, line = convert_block(block)
        except RuleError as exc:
            raise ImportProblem(f"{entry_name(i, block, 'Name')}: {exc}") from None
        except (TypeError, AttributeError, KeyError, ValueError, IndexError) as exc:
            # a field of an unexpected shape (a number where a table belongs): this entry's problem
            raise ImportProblem(
                f"{entry_name(i, block, 'Name')}: a field has an unexpected shape ({type(exc).__name__})"
            ) from None
        (party if sb.kind == "pc" else creatures).append(sb)
        report.append(line)
    return ImportResult(FORMAT, "d20", tuple(creatures), tuple(party), tuple(report))
