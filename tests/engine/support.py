"""Small helpers the engine tests share: build a fight, apply commands, read the log."""

from __future__ import annotations

from collections.abc import Iterable

import msgspec

from engine import apply, describe, new_fight
from engine import commands as C
from engine.events import Event
from engine.state import Combatant, Fight


def play(f: Fight, *cmds: C.Command) -> tuple[Fight, list[Event]]:
    """Apply commands in order; return the final state and every event they produced."""
    out: list[Event] = []
    for cmd in cmds:
        f, ev = apply(f, cmd)
        out.extend(ev)
    return f, out


def setup(rules: str, *adds: C.AddCombatant, seed: int = 1) -> Fight:
    f, _ = play(new_fight(rules, "Test", seed), *adds)
    return f


def add(name: str, kind: str = "npc", side: str = "enemy", **stats: int) -> C.AddCombatant:
    return C.AddCombatant(name, kind=kind, side=side, stats=tuple(stats.items()))  # type: ignore[arg-type]


def by_name(f: Fight, name: str) -> Combatant:
    for c in f.combatants:
        if c.name == name:
            return c
    raise KeyError(name)


def cid(f: Fight, name: str) -> str:
    return by_name(f, name).id


def names(f: Fight, ids: Iterable[str]) -> list[str]:
    return [f.get(x).name for x in ids]


def log(events: Iterable[Event]) -> list[str]:
    return [describe(e) for e in events]


def of(events: Iterable[Event], kind: type) -> list:
    return [e for e in events if isinstance(e, kind)]


def frozen_copy(f: Fight) -> bytes:
    """The state as bytes, to prove a refused command left it exactly as it was."""
    return msgspec.json.encode(f)
