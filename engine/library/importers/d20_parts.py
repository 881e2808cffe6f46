"""The parts of a d20 statblock both 5e importers (Improved Initiative, the 5e SRD API) build the same
way from a creature's named texts: traits (Legendary Resistance and Spellcasting among them read for
what they give), actions, bonus actions, reactions and legendary actions as attacks and abilities,
Multiattack's attacks, other speeds, and the report line that says what was taken and what was not.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from msgspec.structs import replace

from engine.library.abilities import MAX_ABILITIES, MAX_TRAITS, Ability, Spellcasting, Trait
from engine.library.d20 import D20Attack, D20Statblock, Speed
from engine.library.importers.common import bounds, number
from engine.library.importers.text5e import (
    ability_from_text,
    legendary_count,
    merge_spellcasting,
    multiattack,
    read_limits,
    spellcasting_from_text,
)
from engine.limits import TEXT

_RESISTANCE = re.compile(r"^\s*+Legendary\s++Resistance\b", re.I)
_SPELLCASTING = re.compile(r"\bSpellcasting\b", re.I)
_SPEED_KIND = re.compile(r"\s*+(walk|fly|swim|climb|burrow)\b", re.I)
_HAS_DIGIT = re.compile(r"\d")


def cut_text(text: str, what: str, skipped: list[str]) -> str:
    """A text whole, or (past a note's TEXT characters, which no statblock's is) cut at a word and said."""
    text = text.strip()
    if len(text) <= TEXT:
        return text
    skipped.append(f"{what}'s text past {TEXT} characters (cut)")
    return text[: TEXT - 1].rsplit(" ", 1)[0] + "\u2026"


@dataclass
class Parts:
    """What a creature's texts gave, and what the report says about them."""

    attacks: list[D20Attack] = field(default_factory=list)
    actions: list[Ability] = field(default_factory=list)
    traits: list[Trait] = field(default_factory=list)
    spellcasting: Spellcasting | None = None
    legendary: int = 0
    legendary_resistance: int = 0
    legendary_text: str = ""  # where the count of legendary actions a round is said
    skipped: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # what was taken that the report should say how
    # (name, text, act, what is read for its attacks) of each Multiattack
    multi: list[tuple[str, str, str, str]] = field(default_factory=list)

    def trait(self, name: str, text: str, spells: Spellcasting | None = None) -> None:
        """A trait: Legendary Resistance is its uses a day, Spellcasting its spells (kept as a trait too,
        for its text; `spells`: what the file says of them in fields of its own, taken over the text's);
        any other is shown with its text."""
        name = name.strip()[:80] or "Trait"
        if _RESISTANCE.match(name):
            self.legendary_resistance = min(read_limits(name).uses or 3, 9)
            return
        if spells is not None:
            self.spellcasting = merge_spellcasting(self.spellcasting, spells)
        elif _SPELLCASTING.search(name):
            found = spellcasting_from_text(text)
            if found is None:
                self.skipped.append(f"{name}'s spells (no spell list read in its text)")
            self.spellcasting = merge_spellcasting(self.spellcasting, found)
        self.traits.append(Trait(name=name, text=cut_text(text, name, self.skipped)))

    def action(self, name: str, text: str, act: str, attack: D20Attack | None, usage: str = "",
               given: dict[str, Any] | None = None, read: str = "") -> None:
        """One entry of Actions (act "action"), Bonus Actions, Reactions or Legendary Actions; `given`:
        what the file says of it in fields of its own (the SRD API's dc, damage), over its text's; `read`:
        a Multiattack's attacks said apart from its text (the SRD API's list), read instead of it."""
        name = name.strip()[:80] or "Action"
        if attack is not None and act == "action":
            self.attacks.append(attack)
            return
        if name.casefold().startswith("multiattack"):
            self.multi.append((name, text, act, read or text))
            return
        ability = ability_from_text(name, cut_text(text, name, self.skipped), act, usage)
        if attack is not None:  # an attack roll made as a reaction or a legendary action
            ability = replace(ability, hit=attack.bonus, damage=attack.damage, save="", dc=0, on_save="half")
        if given:
            ability = replace(ability, **{k: v for k, v in given.items() if v})
        self.actions.append(ability)

    def finish(self) -> None:
        """Multiattacks resolved against the attacks and abilities now all read, one name per ability,
        the legendary actions a round counted, and the counts within a statblock's."""
        names = [a.name for a in self.attacks] + [a.name for a in self.actions]
        for name, text, act, read in self.multi:
            makes = multiattack(read, names)
            if not makes:
                self.skipped.append(f"{name}'s attacks (not read from its text: shown with it)")
            self.actions.insert(0, Ability(name=name, text=cut_text(text, name, self.skipped), act=act, attacks=makes))
        self.actions = _unique(self.actions)
        if any(a.act == "legendary" for a in self.actions):
            self.legendary = min(legendary_count(self.legendary_text), 9)
            if not self.legendary_text:
                self.skipped.append("legendary actions a round (not said: 3 taken)")
            self.actions = [_within(a, self.legendary) for a in self.actions]
        if len(self.actions) > MAX_ABILITIES - _spells(self.spellcasting):
            keep = max(MAX_ABILITIES - _spells(self.spellcasting), 0)
            self.skipped.append(f"abilities past the first {keep}: {', '.join(a.name for a in self.actions[keep:])}")
            self.actions = self.actions[:keep]
        if len(self.traits) > MAX_TRAITS:
            self.skipped.append(f"traits past the first {MAX_TRAITS}")
            self.traits = self.traits[:MAX_TRAITS]

    def fields(self) -> dict[str, Any]:
        """The statblock fields the parts fill."""
        out: dict[str, Any] = {"attacks": tuple(self.attacks), "actions": tuple(self.actions),
                               "traits": tuple(self.traits), "legendary": self.legendary,
                               "legendary_resistance": self.legendary_resistance}
        if self.spellcasting is not None:
            out["spellcasting"] = self.spellcasting
        return out

    def took(self) -> list[str]:
        """The report's phrases for what the parts took."""
        out = []
        if self.actions:
            out.append("abilities " + ", ".join(_short(a) for a in self.actions))
        if self.legendary:
            out.append(f"{self.legendary} legendary actions a round")
        if self.legendary_resistance:
            out.append(f"Legendary Resistance {self.legendary_resistance}/day")
        if self.traits:
            out.append("traits " + ", ".join(t.name for t in self.traits))
        sc = self.spellcasting
        if sc is not None:
            slots = "/".join(str(n) for n in sc.slots)
            # a bonus of 0 is none given (the model's default): not shown as "+0"
            out.append(f"spellcasting (DC {sc.dc}, " + (f"{sc.bonus:+d}, " if sc.bonus else "")
                       + f"{len(sc.spells)} spells" + (f", slots {slots}" if slots else "") + ")")
        return out + self.notes


def _spells(sc: Spellcasting | None) -> int:
    return len(sc.spells) if sc else 0


def _short(a: Ability) -> str:
    bits = []
    if a.recharge:
        bits.append(f"recharge {a.recharge}")
    if a.uses:
        bits.append(f"{a.uses}/{a.per}")
    if a.act != "action":
        bits.append(a.act + (f" {a.cost}" if a.cost > 1 else ""))
    if a.save:
        bits.append(f"DC {a.dc} {a.save}")
    return a.name + (f" ({', '.join(bits)})" if bits else "")


def _unique(actions: list[Ability]) -> list[Ability]:
    """Each ability its own name: a second "Claw" is "Claw (2)" (a Multiattack names the first); an
    ability may share an attack's name, as they are offered apart."""
    out = []
    seen: set[str] = set()
    for a in actions:
        name, n = a.name, 1
        while name.casefold() in seen:
            n += 1
            name = f"{a.name[:74]} ({n})"
        seen.add(name.casefold())
        out.append(a if name == a.name else replace(a, name=name))
    return out


def _within(a: Ability, legendary: int) -> Ability:
    if a.act == "legendary" and a.cost > legendary:
        return replace(a, cost=legendary)
    return a


def read_speeds(texts: list[str], skipped: list[str]) -> tuple[int, tuple[Speed, ...]]:
    """A speed's texts ("30 ft.", "fly 60 ft. (hover)", "swim 40 ft.", or all in one): the walking
    speed (0 for a creature with only other speeds, 30 when none is said at all) and the other speeds.
    A number out of the ruleset's bounds is refused, as every number is (never clamped)."""
    walk: int | None = None
    others: dict[str, Speed] = {}
    for text in texts:
        for piece in text.split(","):
            if not piece.strip():
                continue
            m = _SPEED_KIND.match(piece)
            kind = (m[1] or "walk").lower() if m else "walk"
            if not _HAS_DIGIT.search(piece):
                skipped.append(f"speed {' '.join(piece.split())[:40]!r} (no number of feet)")
                continue
            feet = number(piece[m.end():] if m else piece, "Speed", *bounds(D20Statblock, "speed"))
            if kind == "walk":
                walk = feet if walk is None else walk
            elif kind not in others:
                others[kind] = Speed(kind=kind, feet=feet, hover="hover" in piece.lower())  # type: ignore[arg-type]
    if walk is None:
        walk = 0 if others else 30
    return walk, tuple(others.values())


def condition_words(items: list[str], skipped: list[str]) -> tuple[str, ...]:
    """Condition immunities as the ruleset names conditions ("Petrified"); a text that is no word or
    two ("see below") is said in `skipped`."""
    out: list[str] = []
    for item in items:
        for word in re.split(r"[,;]", item):
            word = " ".join(word.split()).strip(" .")
            if not word:
                continue
            if len(word) > 40 or len(word.split()) > 3:
                skipped.append(f"condition immunity {word[:40]!r} (not a condition)")
                continue
            out.append(word.title())
    return tuple(dict.fromkeys(out))
