"""Improved Initiative's statblocks (https://github.com/cynicaloptimist/improved-initiative, the
`StatBlock` interface in client/../StatBlock.ts): Name, Type, HP {Value, Notes}, AC {Value, Notes},
InitiativeModifier, Speed [..], Abilities {Str..Cha}, Saves [{Name, Modifier}], DamageResistances,
DamageVulnerabilities, DamageImmunities, Traits/Actions/BonusActions/Reactions [{Name, Content}],
Player ("player" for a PC). A file is a list of them, or the app's export object whose values hold
them (as objects or as JSON strings)."""

from __future__ import annotations

import json
import re
from typing import Any, NamedTuple

from engine.errors import RuleError
from engine.library.base import validate
from engine.library.d20 import MAX_SKILLS, Abilities, D20Attack, D20Statblock, DamagePart, Saves, Skill
from engine.library.importers.common import (
    FEET,
    SHAPE_ERRORS,
    ImportProblem,
    ImportResult,
    bounds,
    entry_name,
    number,
    untaken,
)
from engine.library.importers.d20_parts import Parts, condition_words, read_speeds
from engine.library.importers.text5e import (
    condition_of,
    dice_text,
    failed_save_damage,
    legendary_count_said,
    read_save,
)
from engine.limits import LINE, TEXT

FORMAT = "Improved Initiative"
_ABILITY = {"str": "str", "dex": "dex", "con": "con", "int": "int", "wis": "wis", "cha": "cha"}
# Every pattern below is linear in its text: a run of digits or spaces is taken possessively (`++`,
# `*+`: read once, never given back and retried), no two quantifiers can share the same characters,
# and a search that could start anywhere inside a run (`_HIT_DICE`) starts only at the run's first
# character. Without that, "Melee" and 80,000 spaces, or "(" and 80,000 digits, took a minute.
# "Melee Weapon Attack: +5 to hit", and "Weapon Attack: +3 to hit" with no word for its kind (as
# Improved Initiative's SRD list writes some beasts': melee when it gives a reach, ranged on a range)
_ATTACK = re.compile(
    r"(?:(Melee or Ranged|Melee|Ranged)\s++(?:(?:Weapon|Spell)\s*+)?|(?<![A-Za-z])(?:Weapon|Spell)\s++)"
    r"Attack(?: Roll)?:\s*+([+\-\u2212])\s*+(\d++)(?:\s*+to hit)?",
    re.I,
)
_REACH = re.compile(r"reach\s++(\d++)\s*+f(?:ee)?t", re.I)
# "range 80/320 ft.", and "ranged 20/60 ft." as some statblocks misspell it
_RANGE = re.compile(r"\brange[d]?\s++(\d++)(?:\s*+/\s*+(\d++))?\s*+f(?:ee)?t", re.I)
# one damage part: "12 (2d6 + 5) bludgeoning damage", "(1d6 + 2) slashing damage", "1 piercing damage"
_PART = re.compile(
    r"(?:(\d++)\s*+\(([0-9dD+\-\u2212\s]*+)\)|\(([0-9dD+\-\u2212\s]*+)\)|(\d++))\s++(?:([A-Za-z]++)\s++)?damage\b",
    re.I,
)
# the weapon's other grip, said after its damage: ", or 9 (1d10 + 4) slashing damage if used with two hands"
_ALT = re.compile(r",?\s++or\s++(\d++\s*+\([^)]*+\)\s*+(?:[A-Za-z]++\s++)?damage\b[^,.]*+)", re.I)
# what joins one damage part of the hit to the next: "... damage plus 4 (1d8) acid damage"
_LINK = re.compile(r",?\s++(?:plus|and)\s++", re.I)
# what is left of the hit's first sentence after its damage opens with: ", and", " plus", spaces
_REST_LEAD = re.compile(r"[\s,;]*+(?:(?:and|plus)\b)?\s*+", re.I)
_HIT = re.compile(r"\bHit:\s*+", re.I)
_SENTENCE = re.compile(r"\.(?:\s++|$)")
_DICE = re.compile(r"\d*+d\d++(?:[+-]\d++)?|\d++")  # fullmatch
_FIRST_INT = re.compile(r"-?\d++")
_HIT_DICE = re.compile(r"(?<!\d)\d++\s*+d\s*+\d++(?:\s*+[+\-\u2212]\s*+\d++)?", re.I)
RIDER_MAX = TEXT  # a rider is kept whole; longer than a note it could not be carried


def _dice(text: str) -> str:
    return dice_text(text)


def _part_at(text: str, pos: int) -> tuple[DamagePart, int] | None:
    """The damage part that starts exactly at `pos`, and where it ends."""
    m = _PART.match(text, pos)
    if m is None:
        return None
    dice = _dice(m[2] or m[3] or m[4])
    if not _DICE.fullmatch(dice):
        return None
    return DamagePart(dice=dice, type=(m[5] or "").lower()), m.end()


def _clip(text: str) -> str:
    """The rider whole; past RIDER_MAX characters (no statblock's is) it is cut at a word and ends
    with an ellipsis, which `rider_cut` reports."""
    text = text.strip()
    if len(text) <= RIDER_MAX:
        return text
    return text[: RIDER_MAX - 1].rsplit(" ", 1)[0].rstrip(" ,;.") + "\u2026"


def rider_fields(rider: str) -> dict[str, Any]:
    """What a rider says the app can act on: the save it calls for, its DC, the condition a failed save
    gives outright ("DC 11 Constitution saving throw or be Poisoned") and the damage it deals (half on
    a success, when the text says so); without a save, the condition a hit gives ("the target is
    grappled")."""
    if not rider:
        return {}
    save = read_save(rider)
    if save is not None:
        parts, half = failed_save_damage(rider)
        return {"save": save.save, "dc": save.dc, "condition": save.condition, "rider_damage": parts,
                "rider_half": half}
    cond = condition_of(rider)
    return {"condition": cond} if cond else {}


def read_hit(hit: str) -> tuple[tuple[DamagePart, ...], str]:
    """The damage a hit deals and the rest of what it says (the rider), from the text after "Hit:".

    The damage is the chain of parts the first sentence opens with ("12 (2d6 + 5) piercing damage plus
    4 (1d8) acid damage"). Dice said later, in a save the target makes ("..., and the target must make
    a DC 11 Constitution saving throw, taking 18 (4d8) poison damage on a failed save") or in a later
    sentence, are not the hit's: they stay in the rider for the GM, as does the other grip's damage
    ("or 9 (1d10 + 4) slashing damage if used with two hands")."""
    hit = hit.strip()
    m = _SENTENCE.search(hit)
    first, after = (hit[: m.start()], hit[m.end() :]) if m else (hit, "")
    parts: list[DamagePart] = []
    kept: list[str] = []
    pos = 0
    while (found := _part_at(first, pos)) is not None:
        parts.append(found[0])
        pos = found[1]
        alt = _ALT.match(first, pos)
        if alt:
            kept.append(f"or {alt[1].strip()}")
            pos = alt.end()
        link = _LINK.match(first, pos)
        if link is None or _part_at(first, link.end()) is None:
            break
        pos = link.end()
    rest = first[_REST_LEAD.match(first, pos).end() :] if parts else first
    kept += [rest, after]
    return tuple(parts), ". ".join(x.strip(" .") for x in kept if x.strip(" ."))


def parse_attack(name: str, text: str) -> D20Attack | None:
    """An attack from a statblock's sentence ("Melee Weapon Attack: +9 to hit, reach 10 ft., one
    target. Hit: 12 (2d6 + 5) bludgeoning damage."), or None when it is no attack roll."""
    m = _ATTACK.search(text)
    if m is None:
        return None
    bonus = number(m[2].replace("\u2212", "-") + m[3], f"{name}'s attack bonus", *bounds(D20Attack, "bonus"))
    head, hit = _head_and_hit(text[m.end() :])
    reach = _REACH.search(head)
    rng = _RANGE.search(head)
    word = (m[1] or "").lower()
    kind = "ranged" if word == "ranged" or (not word and rng and not reach) else "melee"
    parts, rider = read_hit(hit) if hit else ((), "")
    return D20Attack(
        name=name,
        bonus=bonus,
        kind=kind,
        reach=number(reach[1], f"{name}'s reach", *bounds(D20Attack, "reach")) if reach and kind == "melee" else 5,
        # "Melee or Ranged": a melee attack that may also be thrown keeps its range too
        range=range_of(rng, name),
        damage=parts,
        rider=_clip(rider),
        **rider_fields(rider),
    )


def range_of(rng: re.Match[str] | None, name: str) -> str:
    """A `_RANGE` match as the statblock writes it: "80/320", "30", or "" (each number in FEET)."""
    if rng is None:
        return ""
    feet = [str(number(x, f"{name}'s range", *FEET)) for x in (rng[1], rng[2]) if x]
    return "/".join(feet)


def _head_and_hit(text: str) -> tuple[str, str]:
    """What comes before "Hit:" (reach, range, target) and after it; no "Hit:" gives no hit text."""
    m = _HIT.search(text)
    return (text[: m.start()], text[m.end() :]) if m else (text, "")


def reach_unread(text: str) -> bool:
    """The attack says it has a reach but not one Fracas can read ("reach,.0 ft."): 5 ft is taken."""
    m = _ATTACK.search(text)
    head = _head_and_hit(text[m.end() :])[0] if m else ""
    return m is not None and (m[1] or "").lower() != "ranged" and "reach" in head.lower() and not _REACH.search(head)


def _blocks(data: Any) -> list[Any]:
    if isinstance(data, list):
        return data
    out = []
    for v in data.values():
        if isinstance(v, str) and v.startswith("{"):
            try:
                v = json.loads(v)
            except (ValueError, RecursionError):  # not JSON, or nested deeper than any statblock
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


def _stat(v: Any, what: str, field: str, cls: type = D20Statblock) -> int:
    """A number for `cls`'s field, in the ruleset's bounds for it: one out of them is refused."""
    return number(v, what, *bounds(cls, field))


# the damage types of the d20 rules (SRD 5.1, "Damage Types"): a word in a Damage* list that is none of
# them (a condition put in the wrong list, "blinded") is no resistance the engine could apply
DAMAGE_TYPES = frozenset(
    ("acid", "bludgeoning", "cold", "fire", "force", "lightning", "necrotic", "piercing", "poison", "psychic")
    + ("radiant", "slashing", "thunder")
)
_PHYSICAL = ("bludgeoning", "piercing", "slashing")
_LEAD = re.compile(rf"\s*+(?:(?:and|or|damage|{'|'.join(sorted(DAMAGE_TYPES))})\b\s*+)++", re.I)
# a list's items: at commas and semicolons, and at an "and" before a type ("piercing and slashing"),
# never inside the condition ("that aren't silvered and aren't adamantine")
_ITEMS = re.compile(rf"[;,]|\band\b(?=\s++(?:{'|'.join(sorted(DAMAGE_TYPES))})\b)", re.I)
_NOTE_LEAD = {"resist": "Resists", "vulnerable": "Vulnerable to", "immune": "Immune to"}


class DamageWords(NamedTuple):
    types: tuple[str, ...]  # the damage types named, in the file's order
    note: str  # "Resists bludgeoning, piercing, slashing: only from nonmagical weapons." or ""
    others: tuple[str, ...]  # entries that name no damage type, as written


def damage_words(v: Any, field: str) -> DamageWords:
    """A Damage* list ("cold", "bludgeoning", "piercing", "and slashing from nonmagical weapons that
    aren't silvered"; or the SRD's one string "bludgeoning, piercing, and slashing from nonmagical
    weapons") as damage types. A condition on some of them ("from nonmagical weapons") cannot be the
    engine's, which applies the type to every hit: it takes the types and says the condition in a
    note line for the GM. In a list split at its commas the condition written on the last physical
    type belongs to all three (bludgeoning, piercing and slashing), as the statblock's sentence reads."""
    items: list[str] = []
    for entry in v if isinstance(v, list) else ():
        if isinstance(entry, str):
            items += [x.strip() for x in _ITEMS.split(entry) if x.strip()]
    types: list[str] = []
    others: list[str] = []
    limits: list[tuple[list[str], str]] = []
    for item in items:
        # the types are the words the item opens with ("slashing damage from ..."); what follows is
        # the condition, whose own words are no types ("... that aren't cold iron")
        lead = _LEAD.match(item)
        named = [w.lower() for w in re.findall(r"[A-Za-z]+", lead[0]) if w.lower() in DAMAGE_TYPES] if lead else []
        if not named:
            others.append(" ".join(item.split())[:40])
            continue
        types += named
        tail = " ".join(item[lead.end() :].split()).strip(" .") if lead else ""
        if tail:
            limits.append((named, tail))
    types = list(dict.fromkeys(types))
    lines = []
    for named, tail in limits:
        covered = [t for t in types if t in _PHYSICAL] if set(named) <= set(_PHYSICAL) else named
        lines.append(f"{_NOTE_LEAD[field]} {', '.join(covered)}: only {tail[:120]}.")
    return DamageWords(tuple(types), " ".join(dict.fromkeys(lines)), tuple(dict.fromkeys(others)))


# the three Damage* lists: the statblock field each fills and the word the report uses for it
_DEFENSES = (("resist", "resistances"), ("vulnerable", "vulnerabilities"), ("immune", "immunities"))


def read_defenses(fields: tuple[Any, Any, Any], skipped: list[str]) -> tuple[dict[str, DamageWords], str]:
    """The resist, vulnerable and immune lists (`fields`, in that order) as damage words, and their
    conditions as the note; an entry that names no damage type is said in `skipped`."""
    defenses = {key: damage_words(v, key) for (key, _), v in zip(_DEFENSES, fields, strict=True)}
    for key, what in _DEFENSES:
        if defenses[key].others:
            skipped.append(f"{what} {', '.join(defenses[key].others)} (not a damage type)")
    return defenses, "\n".join(d.note for d in defenses.values() if d.note)


def took_line(head: str, took: str, attacks: list[D20Attack], note: str, skipped: list[str],
              more: tuple[str, ...] = ()) -> str:
    """A report line: "<head>: took <took>; attacks ...; abilities ...; in the note: ...; skipped ...;
    fields not taken: ..." (each part only when there is something to say)."""
    parts = [took]
    if attacks:
        parts.append("attacks " + ", ".join(f"{a.name} {a.bonus:+d}" for a in attacks))
    parts += [x for x in more if x and not x.startswith("fields not taken")]
    if note:
        parts.append("in the note: " + " ".join(note.split("\n")))
    line = f"{head}: took {'; '.join(parts)}"
    line += "; skipped " + "; ".join(skipped) if skipped else ""
    return line + "".join(f"; {x}" for x in more if x.startswith("fields not taken"))


def _abilities(block: dict[str, Any]) -> Abilities:
    given = block.get("Abilities") or {}
    scores = {}
    for k, v in given.items() if isinstance(given, dict) else ():
        key = _ABILITY.get(str(k).lower()[:3])
        if key:
            scores[key] = _stat(v, f"{key.title()} score", key, Abilities)
    return Abilities(**scores)


def _saves(block: dict[str, Any]) -> dict[str, int]:
    saves = {}
    for s in block.get("Saves") or []:
        if isinstance(s, dict):
            key = _ABILITY.get(str(s.get("Name", "")).lower()[:3])
            if key:
                saves[key] = _stat(s.get("Modifier", 0), f"{key.title()} save", key, Saves)
    return saves


# each section of actions and when its entries are used
_SECTIONS = (("Actions", "action"), ("BonusActions", "bonus"), ("Reactions", "reaction"),
             ("LegendaryActions", "legendary"), ("LairActions", "lair"))


def _parts(block: dict[str, Any]) -> Parts:
    """The traits, attacks and abilities of every section, each whole; what cannot be taken is said."""
    p = Parts()
    for t in block.get("Traits") or []:
        if isinstance(t, dict):
            p.trait(str(t.get("Name", "")), str(t.get("Content", "")))
    for section, act in _SECTIONS:
        for a in block.get(section) or []:
            if not isinstance(a, dict):
                continue
            aname = str(a.get("Name", "")).strip()[:80] or "Attack"
            content = str(a.get("Content", ""))
            if act == "legendary" and _is_legendary_intro(aname, content):
                p.legendary_text = content
                continue
            attack = parse_attack(aname, content)
            p.action(aname, content, act, attack, str(a.get("Usage", "") or ""))
            if attack is not None and reach_unread(content):
                p.skipped.append(f"{aname}'s reach (unreadable: 5 ft taken)")
            if attack is not None and attack.rider.endswith("\u2026") and "\u2026" not in content:
                p.skipped.append(f"{aname}'s rider (past {RIDER_MAX} characters: cut)")
    if not p.legendary_text:
        p.legendary_text = next((t for t in _texts(block) if legendary_count_said(t)), "")
    p.finish()
    return p


def _is_legendary_intro(name: str, content: str) -> bool:
    """The entry that says how many legendary actions a round ("Legendary Actions": "The dragon can
    take 3 legendary actions, ..."), not an action of its own."""
    return legendary_count_said(content) and (not name.strip() or name.strip().casefold().startswith("legendary"))


def _texts(block: dict[str, Any]) -> list[str]:
    out = [str(block.get("Description", ""))]
    for section in ("Traits", "LegendaryActions"):
        out += [str(t.get("Content", "")) for t in block.get(section) or [] if isinstance(t, dict)]
    return out


def _hp(block: dict[str, Any]) -> tuple[int, str]:
    """HP {Value, Notes}: the hit points, and the hit dice the notes say ("(5d8 + 5)") or ""."""
    hp = block.get("HP") or {}
    hp_value = _stat(hp.get("Value", 0), "HP", "hp")
    m = _HIT_DICE.search(str(hp.get("Notes", "")))
    return hp_value, _dice(m.group()) if m else ""


def _words(v: Any) -> list[str]:
    """A list of texts (Senses, Languages, ConditionImmunities), or one text, as texts."""
    if isinstance(v, str):
        return [v] if v.strip() else []
    return [str(x) for x in v if isinstance(x, str | int) and str(x).strip()] if isinstance(v, list) else []


def _skills(block: dict[str, Any]) -> tuple[Skill, ...]:
    out = []
    for s in block.get("Skills") or []:
        if isinstance(s, dict) and str(s.get("Name", "")).strip():
            bonus = _stat(s.get("Modifier", 0), "skill bonus", "bonus", D20Attack)
            out.append(Skill(str(s["Name"]).strip()[:80], bonus))
    return tuple(out[:MAX_SKILLS])


def _line(texts: list[str], what: str, skipped: list[str]) -> str:
    text = ", ".join(" ".join(t.split()) for t in texts)
    if len(text) > LINE:
        skipped.append(f"{what} past {LINE} characters (cut)")
        text = text[: LINE - 1].rsplit(" ", 1)[0] + "\u2026"
    return text


# the StatBlock keys this importer reads; any other holding something is named in the report
_TAKEN = frozenset(
    ("Name", "Type", "HP", "AC", "InitiativeModifier", "Speed", "Abilities", "DamageVulnerabilities",
     "DamageResistances", "DamageImmunities", "ConditionImmunities", "Saves", "Skills", "Senses", "Languages",
     "Challenge", "Traits", "Player") + tuple(s for s, _ in _SECTIONS)
)


def convert_block(block: dict[str, Any]) -> tuple[D20Statblock, str]:
    """One StatBlock as a d20 statblock and its report line (RuleError when it cannot be one, and
    when a number is out of the ruleset's bounds: refused, never clamped)."""
    skipped: list[str] = []
    name = block.get("Name")
    if not isinstance(name, str) or not name.strip():
        raise RuleError("it has no Name")
    ac = block.get("AC") or {}
    hp_value, hp_dice = _hp(block)
    # Improved Initiative rolls d20 + the Dexterity modifier + InitiativeModifier (client/Combatant/
    # Combatant.ts, InitiativeBonus): the field is what comes on top of Dexterity, as Fracas's `init` is
    init = _stat(block.get("InitiativeModifier", 0), "InitiativeModifier", "init")
    speed, speeds = read_speeds(_words(block.get("Speed")), skipped)
    parts = _parts(block)
    pc = str(block.get("Player", "")).lower() == "player"
    defenses, note = read_defenses(tuple(block.get(f"Damage{what.title()}") for _, what in _DEFENSES), skipped)
    saves = _saves(block)
    sb = D20Statblock(
        name=name.strip()[:80],
        type=str(block.get("Type", ""))[:80],
        kind="pc" if pc else "npc",
        side="party" if pc else "enemy",
        hp=hp_value,
        hp_dice=hp_dice,
        ac=_stat(ac.get("Value", 10), "AC", "ac"),
        abilities=_abilities(block),
        speed=_stat(speed, "Speed", "speed"),
        speeds=speeds,
        init=init,
        # an empty Saves() is written as an empty table unless it is the field's own default
        **({"saves": Saves(**saves)} if saves else {}),
        resist=defenses["resist"].types,
        vulnerable=defenses["vulnerable"].types,
        immune=defenses["immune"].types,
        condition_immune=condition_words(_words(block.get("ConditionImmunities")), skipped),
        skills=_skills(block),
        senses=_line(_words(block.get("Senses")), "senses", skipped),
        languages=_line(_words(block.get("Languages")), "languages", skipped),
        challenge=_line(_words(block.get("Challenge")), "challenge", skipped)[:80],
        note=note,
        source=FORMAT,
        **parts.fields(),
    )
    validate(sb)
    took = f"HP {hp_value}" + (f" ({hp_dice})" if hp_dice else "") + f", AC {sb.ac}, abilities"
    more = (*extras_took(sb), *parts.took(), untaken(block, _TAKEN))
    head = f"{sb.name}{' (PC, to the party)' if pc else ''}"
    return sb, took_line(head, took, parts.attacks, note, skipped + parts.skipped, more)


def extras_took(sb: D20Statblock) -> list[str]:
    """The report's phrases for the speeds, skills, senses, languages, challenge and immunities."""
    out = []
    if sb.speeds or sb.speed != 30:
        out.append("speed " + ", ".join([f"{sb.speed} ft."] + [f"{x.kind} {x.feet} ft." for x in sb.speeds]))
    if sb.skills:
        out.append("skills " + ", ".join(f"{x.name} {x.bonus:+d}" for x in sb.skills))
    for what, value in (("senses", sb.senses), ("languages", sb.languages), ("challenge", sb.challenge)):
        if value:
            out.append(f"{what} {value}")
    if sb.immune:
        out.append("damage immunities " + ", ".join(sb.immune))
    if sb.condition_immune:
        out.append("condition immunities " + ", ".join(sb.condition_immune))
    return out


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
        except SHAPE_ERRORS as exc:
            # a field of an unexpected shape (a number where a table belongs): this entry's problem
            raise ImportProblem(
                f"{entry_name(i, block, 'Name')}: a field has an unexpected shape ({type(exc).__name__})"
            ) from None
        (party if sb.kind == "pc" else creatures).append(sb)
        report.append(line)
    return ImportResult(FORMAT, "d20", tuple(creatures), tuple(party), tuple(report))
