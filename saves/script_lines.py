"""The script vocabulary's library words: one decoded JSON object and the fight as
it stands become one engine command.

- `{"cmd":"add","from":"Goblin","count":4}` adds copies of a library statblock (the starter bestiary
  merged with the user's library), each keeping it; `"health":"fixed"|"rolled"` (default: the fight's
  `add_health` setting, else fixed). Other AddCombatant fields given in the line win ("side",
  "name", "note", ...).
- the attack command of a library kind (its `attack_command`: an attack, or an activity) with
  `"weapon"` naming one of the attacker's statblock attacks: the attack fills the command's fields;
  fields given in the line win; what the kind deals after it (`follow_up`) comes as commands of its own.

Every other line is decoded as it is. A problem is a RuleError of one line. Rolled health in a script
is reproducible: its dice come from a random source derived from the fight's seed and the next
combatant id, never from the fight's own stream (so the rest of the script rolls as before).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import msgspec

import engine.library as L
from engine import command_union
from engine.commands import COMMAND_TYPES, Command
from engine.dice import RNG_LIMIT, Rng
from engine.errors import RuleError
from engine.events import Event
from engine.state import Fight
from engine.text import shown

ADD_WORDS = ("from", "health")  # the library words of `add`, not fields of AddCombatant
WEAPON = "weapon"


def attack_tags() -> frozenset[str]:
    """The commands that take `weapon`: each library kind's attack command (a kind's attack command is
    one type whatever the statblock, so none is needed to ask it)."""
    return frozenset(str(L.get_kind(rid).attack_command(None).__struct_config__.tag) for rid in L.kind_ids())


def _names_weapon(tag: str) -> bool:
    """Whether the command of `tag` has a `weapon` field of its own (the log's name of the weapon): a
    typed-in attacker keeps it as given; a statblock weapon of that name fills the rest."""
    cls = next((t for t in COMMAND_TYPES if t.__struct_config__.tag == tag), None)
    return cls is not None and WEAPON in cls.__struct_fields__


def uses_library(obj: object) -> bool:
    """Whether the line needs `resolve` (else the plain command decoder reads it as before)."""
    if not isinstance(obj, Mapping):
        return False
    if obj.get("cmd") == "add":
        return "from" in obj
    return obj.get("cmd") in attack_tags() and WEAPON in obj


def resolve(
    obj: Mapping[str, Any],
    fight: Fight,
    folder: Path | None = None,
    entries: Sequence[L.Entry] | None = None,
) -> Command:
    """The command one script line stands for. `entries`: the library to take `from` names from
    (None: the starter bestiary and the user's library in `folder`, or the data folder)."""
    if not isinstance(obj, Mapping):
        raise RuleError("not a command: expected a JSON object")
    if obj.get("cmd") == "add" and "from" in obj:
        return _add_from(obj, fight, folder, entries)
    if obj.get("cmd") in attack_tags() and WEAPON in obj:
        return _with_weapon(obj, fight)
    return _convert(dict(obj))


def _convert(data: dict[str, Any]) -> Command:
    try:
        cmd = msgspec.convert(data, command_union())
    except msgspec.ValidationError as exc:
        raise RuleError(f"not a command: {' '.join(str(exc).split())}") from None
    assert isinstance(cmd, Command)
    return cmd


def _library(rid: str, folder: Path | None, entries: Sequence[L.Entry] | None) -> Iterable[L.Entry]:
    if entries is not None:
        return entries
    from saves import library as S  # the disk side only when the line needs it
    from saves.errors import SaveError

    try:
        return S.load(rid, folder)
    except SaveError as exc:
        raise RuleError(str(exc)) from None


def _add_from(obj: Mapping[str, Any], fight: Fight, folder: Path | None, entries: Sequence[L.Entry] | None) -> Command:
    name = obj.get("from")
    if not isinstance(name, str) or not name.strip():
        raise RuleError('add: "from" names a library entry ("Goblin").')
    low = name.strip().casefold()
    library = _library(fight.ruleset, folder, entries)
    found = next((e.statblock for e in library if e.statblock.name.casefold() == low), None)
    if found is None:
        raise RuleError(f"add: no {fight.ruleset} statblock called {shown(name)} in the library.")
    count = obj.get("count", 1)
    if not isinstance(count, int) or isinstance(count, bool):
        raise RuleError('add: "count" is a whole number.')
    health = obj.get("health", fight.setting("add_health", "fixed"))
    if health not in L.HP_MODES:
        raise RuleError(f'add: "health" is "fixed" or "rolled", not {shown(health)}.')
    rng = Rng(seed=(fight.rng.seed * 1_000_003 + fight.next_id) % RNG_LIMIT)
    cmd, _ = L.to_add(found, count, health, rng)
    data = msgspec.to_builtins(cmd)
    data.update({k: v for k, v in obj.items() if k not in ADD_WORDS and k != "count"})
    return _convert(data)


def _with_weapon(obj: Mapping[str, Any], fight: Fight) -> Command:
    who = obj.get("who")
    if not isinstance(who, str):
        raise RuleError(f'{obj.get("cmd")}: "who" is the attacker\'s id (c1, c2, ...).')
    c = fight.find(who)
    if c is None:
        raise RuleError(f"No combatant with id {shown(who)}.")
    weapon = obj.get(WEAPON)
    if not isinstance(weapon, str):
        raise RuleError(f'"{WEAPON}" names one of the attacker\'s statblock attacks.')
    sb = L.statblock_of(fight.ruleset, c)
    if sb is None:
        if _names_weapon(str(obj.get("cmd"))):
            return _convert(dict(obj))  # a typed-in attacker: the weapon is only the log's name
        raise RuleError(f"{c.name} has no statblock (not added from the library): give the attack's fields.")
    tag = L.attack_command(sb).__struct_config__.tag
    if obj.get("cmd") != tag:
        raise RuleError(f"{c.name}'s statblock attacks are {tag} commands, not {shown(obj.get('cmd'))}.")
    fields = L.attack_fields(sb, L.find_attack(sb, weapon))
    fields.pop("extra", None)  # dealt after a hit: follow_up
    data: dict[str, Any] = {"cmd": tag, **msgspec.to_builtins(fields)}
    named = _names_weapon(str(tag))
    data.update({k: v for k, v in obj.items() if k != WEAPON or named})
    if named:
        data[WEAPON] = fields[WEAPON]  # the statblock's spelling of its name, for the log
    return _convert(data)


def follow_up(obj: Mapping[str, Any], fight_before: Fight, events: Iterable[Event]) -> list[Command]:
    """After a statblock attack of a line was applied: what its library kind deals as commands of
    their own (a d20 attack's damage parts of another type, when it hit). Empty for anything else."""
    if obj.get("cmd") not in attack_tags() or WEAPON not in obj:
        return []
    c = fight_before.find(str(obj.get("who")))
    sb = L.statblock_of(fight_before.ruleset, c) if c is not None else None
    if sb is None:
        return []
    return L.kind_of(sb).follow_up(sb, str(obj[WEAPON]), events)
