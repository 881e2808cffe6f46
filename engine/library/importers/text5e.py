"""What a 5e statblock's sentences say that the app can act on, read once for every importer of the
format (Improved Initiative's Content, the 5e SRD API's desc): a save's ability and DC, half or none
on a save, damage dice and types, recharge and uses in a name ("Fire Breath (Recharge 5-6)",
"(3/Day)"), an area, the condition a failed save gives, legendary action counts and costs, a
Multiattack's attacks, and a Spellcasting trait's DC, attack bonus, slots and spells.

Every pattern is linear in its text, as improved_initiative's are: runs of digits, letters or spaces
are taken possessively, so a hostile 80,000-character text is read once.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import NamedTuple

from engine.library.abilities import Ability, DamagePart, Spellcasting

ABILITY_WORDS = {
    "strength": "str",
    "dexterity": "dex",
    "constitution": "con",
    "intelligence": "int",
    "wisdom": "wis",
    "charisma": "cha",
}
# the conditions of the 5e statblocks (a rider's "or be poisoned"), as the d20 ruleset names them
CONDITIONS = (
    "blinded", "charmed", "deafened", "frightened", "grappled", "incapacitated", "invisible", "paralyzed",
    "petrified", "poisoned", "prone", "restrained", "stunned", "unconscious", "exhaustion",
)  # fmt: skip
_ABILITY = "|".join(ABILITY_WORDS)
_SAVE = re.compile(rf"\bDC\s*+(\d{{1,3}}+)\s++({_ABILITY})\s++saving\s++throw", re.I)
_SAVE_AFTER = re.compile(rf"\b({_ABILITY})\s++saving\s++throw\s*+\(\s*+DC\s*+(\d{{1,3}}+)\s*+\)", re.I)
# "half as much damage", "half as much on a success", "half damage", "half the damage"
_HALF = re.compile(r"half\s++as\s++much\b|half\s++(?:the\s++|that\s++)?damage", re.I)
_CONDITION = re.compile(rf"\b({'|'.join(CONDITIONS)})\b", re.I)
# one damage part: "12 (2d6 + 5) fire damage", "(1d6) fire damage", "7 fire damage"
PART = re.compile(
    # a number is read from its first digit only (`(?<!\d)`): a search never restarts inside a run
    r"(?:(?<!\d)(\d++)\s*+\(([0-9dD+\-\u2212\s]{1,40}+)\)|\(([0-9dD+\-\u2212\s]{1,40}+)\)|(?<!\d)(\d++))"
    r"\s++(?:([A-Za-z]++)\s++)?damage\b",
    re.I,
)
_LINK = re.compile(r",?\s++(?:plus|and)\s++", re.I)
_DICE = re.compile(r"\d*+d\d++(?:[+-]\d++)?|\d++")  # fullmatch
_RECHARGE = re.compile(r"\(\s*+Recharge\s++(\d)(?:\s*+[-\u2013\u2014]\s*+6)?\s*+\)", re.I)
_RECHARGE_REST = re.compile(r"\(\s*+Recharges?\s++after\s++a\s++(?:Short\s++or\s++)?Long\s++Rest\s*+\)", re.I)
_USES = re.compile(r"\(\s*+(\d{1,2}+)\s*+/\s*+(Day|Turn|Round)(?:\s++each)?\s*+\)", re.I)
_COSTS = re.compile(r"\(\s*+Costs\s++(\d{1,2}+)\s++Actions?\s*+\)", re.I)
_AREA = re.compile(
    r"\b(\d{1,4}+)[- ]foot[- ](cone|line|cube|sphere|radius|cylinder|emanation|square)\b(?:\s++that\s++is\s++"
    r"(\d{1,4}+)\s++feet\s++wide)?",
    re.I,
)
_LEGENDARY_COUNT = re.compile(r"\bcan\s++take\s++(\d{1,2}+|one|two|three|four|five)\s++legendary\s++actions?", re.I)
_NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8}
_TIMES = {"once": 1, "twice": 2, "thrice": 3}
# Multiattack: "makes three attacks: one with its bite and two with its claws"; "two with its claws"
_MULTI_PART = re.compile(
    r"\b(one|two|three|four|five|six|\d)\s++(?:[a-z]++\s++)?(?:attacks?\s++)?with\s++(?:its|his|her|their)\s++"
    r"([a-z][a-z' ]{0,40}?)(?=\s*+(?:[,.;:]|\band\b|\bor\b|$))",
    re.I,
)
_MULTI_USE = re.compile(r"\buses?\s++(?:its|his|her|their)\s++([A-Z][A-Za-z' ]{0,40}?)(?=\s*+(?:[,.;:]|\band\b|$))")


def dice_text(text: str) -> str:
    return "".join(text.replace("\u2212", "-").split()).lower()


def part_at(text: str, pos: int, search: bool = False) -> tuple[DamagePart, int, int] | None:
    """The damage part at `pos` (or, with `search`, the first after it), its start and its end."""
    m = PART.search(text, pos) if search else PART.match(text, pos)
    if m is None:
        return None
    dice = dice_text(m[2] or m[3] or m[4])
    if not _DICE.fullmatch(dice):
        return None
    return DamagePart(dice=dice, type=(m[5] or "").lower()), m.start(), m.end()


def damage_chain(text: str, pos: int = 0, search: bool = True) -> tuple[DamagePart, ...]:
    """The first damage a text deals (from `pos`; without `search`, only one starting there) and the
    parts joined to it ("... fire damage plus 9 (2d8) necrotic damage"); later mentions of dice (a
    second sentence's) are not taken."""
    found = part_at(text, pos, search=search)
    parts: list[DamagePart] = []
    while found is not None:
        parts.append(found[0])
        link = _LINK.match(text, found[2])
        found = part_at(text, link.end()) if link else None
    return tuple(parts)


class Save(NamedTuple):
    save: str  # "dex"
    dc: int
    on_save: str  # "half" or "none"
    condition: str  # "Poisoned", or ""


def _save_match(text: str) -> tuple[str, int, re.Match[str]] | None:
    """The first save a text calls for: its ability, DC and where it is said."""
    m = _SAVE.search(text)
    if m is not None:
        return ABILITY_WORDS[m[2].lower()], int(m[1]), m
    m = _SAVE_AFTER.search(text)
    return (ABILITY_WORDS[m[1].lower()], int(m[2]), m) if m else None


def read_save(text: str) -> Save | None:
    """The first save a text calls for ("DC 21 Dexterity saving throw"), half or none on a success,
    and the condition a failed save gives outright ("or be Poisoned"), or None."""
    found = _save_match(text)
    if found is None:
        return None
    save, dc, m = found
    return Save(save, dc, "half" if _HALF.search(text) else "none", failed_save_condition(text, m.start()))


_COND_WORDS = "|".join(CONDITIONS)
# what a failed save gives outright: "or be poisoned", "or become frightened", "or take 15 (2d6 + 8)
# bludgeoning damage and be knocked prone" (each gap bounded, so a search stays linear)
_OR_BE = re.compile(
    rf"\bor\s++(?:take\s++[^.;]{{0,80}}?\band\s++)?(?:be(?:come)?|is|are|it\s++is|fall)\s++(?:knocked\s++)?"
    rf"({_COND_WORDS})\b",
    re.I,
)
# "On a failed save, the target is paralyzed"; "a creature that fails the save is restrained"
_FAILED_THEN = re.compile(
    rf"\b(?:on\s++a\s++failed\s++save|fails\s++(?:the|its|this)\s++sav(?:e|ing\s++throw))([^.;]{{0,60}}?)"
    rf"\b(?:is|are|becomes?)\s++(?:knocked\s++)?({_COND_WORDS})\b",
    re.I,
)
# "is restrained on a failed save"
_THEN_FAILED = re.compile(
    rf"\b(?:is|are|becomes?)\s++(?:knocked\s++)?({_COND_WORDS})\b([^.;]{{0,40}}?)\bon\s++a\s++failed\s++save",
    re.I,
)
# a gap holding one of these makes the condition hang on something else ("if the damage reduces it
# to 0 hit points, it is paralyzed"): not the failed save's own
_CONDITIONAL = re.compile(r"\b(?:if|unless|while|when|until|after)\b", re.I)


def failed_save_condition(text: str, pos: int = 0) -> str:
    """The condition a failed save (said from `pos`) gives outright, or "": one named only under a
    further condition ("If the poison reduces the target to 0 hit points, it is ... poisoned") is left
    in the text for the GM."""
    found: list[tuple[int, str]] = []
    m = _OR_BE.search(text, pos)
    if m:
        found.append((m.start(), m[1]))
    for m in _FAILED_THEN.finditer(text, pos):
        if not _CONDITIONAL.search(m[1]):
            found.append((m.start(), m[2]))
            break
    for m in _THEN_FAILED.finditer(text, pos):
        if not _CONDITIONAL.search(m[2]):
            found.append((m.start(), m[1]))
            break
    return min(found)[1].title() if found else ""


_SENTENCE_END = re.compile(r"\.(?:\s|$)")
_TAKING = re.compile(r"\b(?:taking|or\s++takes?)\s++", re.I)


def failed_save_damage(text: str) -> tuple[tuple[DamagePart, ...], bool]:
    """The damage a failed save deals, said in the save's sentence ("... DC 11 Constitution saving
    throw, taking 9 (2d8) poison damage on a failed save, or half as much damage on a successful one";
    "... or take 7 (2d6) cold damage"), and whether a success halves it; ((), False) when none."""
    found = _save_match(text)
    if found is None:
        return (), False
    m = found[2]
    end = _SENTENCE_END.search(text, m.end())
    sentence = text[m.end() : end.start() if end else len(text)]
    taking = _TAKING.search(sentence)
    parts = damage_chain(sentence, taking.end(), search=False) if taking else ()
    return parts, bool(parts) and _HALF.search(sentence) is not None


def condition_of(text: str) -> str:
    m = _CONDITION.search(text)
    return m[1].title() if m else ""


class Limits(NamedTuple):
    name: str  # without its "(Recharge 5-6)", "(3/Day)", "(Costs 2 Actions)"
    recharge: int
    uses: int
    per: str
    cost: int


def read_limits(name: str, usage: str = "") -> Limits:
    """A name's limits: "Fire Breath (Recharge 5-6)", "Teleport (Costs 2 Actions)", "Web (Recharge 5-6)",
    "Gaze (3/Day)", "(Recharges after a Short or Long Rest)" (once a day); `usage` is said the same way."""
    recharge, uses, per, cost = 0, 0, "", 1
    # Improved Initiative's Usage says it bare ("Recharge 5-6", "3/Day"): read as a name's would be
    usage = f"({usage.strip()})" if usage.strip() and "(" not in usage else usage
    for text in (name, usage):
        if m := _RECHARGE.search(text):
            recharge = int(m[1]) if 1 <= int(m[1]) <= 6 else 0
        elif _RECHARGE_REST.search(text):
            uses, per = 1, "day"
        if m := _USES.search(text):
            uses, per = int(m[1]), "day" if m[2].lower() == "day" else "round"
        if m := _COSTS.search(text):
            cost = int(m[1])
    bare = _COSTS.sub("", _USES.sub("", _RECHARGE_REST.sub("", _RECHARGE.sub("", name))))
    if recharge:
        uses, per = 0, ""
    return Limits(" ".join(bare.split()) or name.strip(), recharge, uses, per, cost)


def area_of(text: str) -> str:
    m = _AREA.search(text)
    if m is None:
        return ""
    return f"{m[1]}-foot {m[2].lower()}" + (f", {m[3]} feet wide" if m[3] else "")


def ability_from_text(name: str, text: str, act: str = "action", usage: str = "") -> Ability:
    """An ability from its name and sentence: its save, DC, damage, half or none, condition, area,
    recharge, uses and legendary cost, the text kept whole."""
    lim = read_limits(name, usage)
    save = read_save(text)
    damage = damage_chain(text)
    area = area_of(text)
    fields: dict[str, object] = {}
    if save:
        fields.update(save=save.save, dc=save.dc, on_save=save.on_save, condition=save.condition)
    else:
        # no save: a condition it gives is the GM's to apply ("the target is grappled")
        fields["condition"] = condition_of(text) if damage or area else ""
    if area:
        fields.update(area=area, targets=0)
    if lim.recharge:
        fields["recharge"] = lim.recharge
    if lim.uses:
        fields.update(uses=lim.uses, per=lim.per)
    return Ability(name=lim.name[:80], text=text.strip(), act=act, cost=lim.cost if act == "legendary" else 1,
                   damage=damage, **fields)  # type: ignore[arg-type]


def legendary_count_said(text: str) -> bool:
    return _LEGENDARY_COUNT.search(text) is not None


def legendary_count(text: str) -> int:
    """How many legendary actions a round the text gives ("can take 3 legendary actions"), 3 if none."""
    m = _LEGENDARY_COUNT.search(text)
    if m is None:
        return 3
    word = m[1].lower()
    return int(word) if word.isdigit() else _NUMBER_WORDS[word]


def _singular(word: str) -> str:
    w = " ".join(word.lower().split())
    for end, repl in (("ies", "y"), ("ves", "f"), ("es", ""), ("s", "")):
        if w.endswith(end) and len(w) > len(end) + 2:
            stem = w[: -len(end)] + repl
            return stem
    return w


def multiattack(text: str, names: Iterable[str]) -> tuple[str, ...]:
    """The attacks a Multiattack makes, by the statblock's names, one entry per attack; () when the
    text names something that is none of them (the GM reads the text)."""
    known: dict[str, str] = {}
    for n in names:
        known.setdefault(n.casefold(), n)
        known.setdefault(_singular(n), n)
    # a choice ("... or two with its shortbows") is the first way
    first = re.split(r"\bor\b", text, maxsplit=1, flags=re.I)[0] if re.search(r"\bwith\s++its", text, re.I) else text
    out: list[str] = []
    for m in _MULTI_USE.finditer(first):
        hit = known.get(m[1].strip().casefold())
        if hit:
            out.append(hit)
    for m in _MULTI_PART.finditer(first):
        count = _NUMBER_WORDS.get(m[1].lower()) or int(m[1])
        word = m[2].strip()
        hit = known.get(word.casefold()) or known.get(_singular(word))
        if hit is None:
            return ()
        out += [hit] * count
    return tuple(out) if len(out) <= 20 else ()


# --- spellcasting ----------------------------------------------------------------------------------

_SPELL_DC = re.compile(r"spell\s++save\s++DC\s*+(\d{1,3}+)", re.I)
_SPELL_HIT = re.compile(r"([+-]\d{1,2}+)\s++to\s++hit\s++with\s++spell\s++attacks", re.I)
_SPELL_ABILITY = re.compile(rf"spellcasting\s++ability\s++is\s++({_ABILITY})", re.I)
# "Cantrips (at will): ...", "1st level (4 slots): ...", "At will: ...", "3/day each: ...", each
# maybe a list's item ("- Cantrips (at will): ...")
_SPELL_LINE = re.compile(
    r"^\s*+(?:[-*\u2022]\s*+)?"
    r"(?:(Cantrips?)|(\d)(?:st|nd|rd|th)[- ]level|(At\s++will)|(\d{1,2}+)\s*+/\s*+day(?:\s++each)?)"
    r"\s*+(?:\(\s*+(?:at\s++will|(\d{1,2}+)\s++slots?)\s*+\))?\s*+:\s*+(.*+)$",
    re.I | re.M,
)


def spell_names(text: str) -> list[str]:
    names = []
    for raw in re.split(r",", text):
        name = re.sub(r"\s*+\*++|\s*+\([^)]{0,60}+\)", "", raw).strip(" .*")
        if name:
            names.append(name[:80])
    return names


def spellcasting_from_text(text: str) -> Spellcasting | None:
    """A Spellcasting (or Innate Spellcasting) trait's DC, attack bonus, ability, slots and spells by
    level: cantrips level 0, "3rd level (3 slots)" level 3 with 3 slots, an innate spell level -1 at
    will or so many times a day. None when it lists no spell."""
    slots = [0] * 9
    spells: list[Ability] = []
    seen: set[str] = set()
    for m in _SPELL_LINE.finditer(text):
        level, uses = -1, 0
        if m[1]:
            level = 0
        elif m[2]:
            level = int(m[2])
            if m[5]:
                slots[level - 1] = min(int(m[5]), 99)
        elif m[4]:
            uses = min(int(m[4]), 99)
        for name in spell_names(m[6]):
            if name.casefold() in seen:
                continue
            seen.add(name.casefold())
            if level > 0 and not slots[level - 1]:
                level = -1  # a level said without slots (a warlock's pact slots): no slot of its own spent
            spells.append(Ability(name=name, level=level, uses=uses, per="day" if uses else ""))
    if not spells:
        return None
    while slots and not slots[-1]:
        slots.pop()
    dc = _SPELL_DC.search(text)
    hit = _SPELL_HIT.search(text)
    ability = _SPELL_ABILITY.search(text)
    return Spellcasting(
        ability=ABILITY_WORDS[ability[1].lower()] if ability else "",
        dc=min(int(dc[1]), 100) if dc else 0,
        bonus=int(hit[1]) if hit and -20 <= int(hit[1]) <= 40 else 0,
        slots=tuple(slots),
        spells=tuple(spells),
    )


def merge_spellcasting(a: Spellcasting | None, b: Spellcasting | None) -> Spellcasting | None:
    """A creature with both Spellcasting and Innate Spellcasting: one Spellcasting holding both's
    spells (the first's DC, bonus and ability, unless it has none)."""
    if a is None or b is None:
        return a or b
    names = {s.name.casefold() for s in a.spells}
    return Spellcasting(
        ability=a.ability or b.ability,
        dc=a.dc or b.dc,
        bonus=a.bonus or b.bonus,
        slots=a.slots or b.slots,
        spells=a.spells + tuple(s for s in b.spells if s.name.casefold() not in names),
    )
