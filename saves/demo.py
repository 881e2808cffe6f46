"""The bundled demo fights: a handful of combatants per ruleset, as JSON Lines of script commands.

The foes come from the starter bestiary (`{"cmd":"add","from":"Bandit","count":3}`, resolved by
saves/script_lines.py against the bundled entries only, never the user's library, so every demo is
the same everywhere), each with its statblock and attacks. A demo is always played on a fresh copy,
so the bundled files are never written to.
"""

from __future__ import annotations

from importlib import resources
from importlib.resources.abc import Traversable

import msgspec

import engine.library as L
from engine import RuleError, command_union, new_fight
from engine.commands import Command
from engine.history import History
from engine.rules import REGISTRY
from engine.state import Fight
from saves import script_lines

NAMES = {
    "d20": "Ambush on the Old Road",
    "cosmere": "Skirmish on the Shattered Plains",
    "ninephase": "The Orc Ford",
    "warhammer": "Troll Bridge",
}


def _demo_file(rules: str) -> Traversable:
    return resources.files("saves").joinpath("demos", f"{rules}.jsonl")


def has_demo(rules: str) -> bool:
    """Whether Fracas bundles a demo for this ruleset (one registered from elsewhere may have none)."""
    return rules in REGISTRY and _demo_file(rules).is_file()


def _lines(rules: str) -> list[object]:
    if not has_demo(rules):
        known = ", ".join(sorted(r for r in REGISTRY if has_demo(r)))
        raise RuleError(f"No demo for '{rules}'. Demos: {known}.")
    text = _demo_file(rules).read_bytes()
    return [msgspec.json.decode(line) for line in text.splitlines() if line.strip()]


def demo_history(rules: str, seed: int = 7) -> History:
    """The demo fight set up (combatants added, not yet started), with that set-up as its history."""
    h = History.start(new_fight(rules, NAMES.get(rules, "Demo"), seed))
    bundled = [L.Entry(sb) for sb in L.starter(rules)] if rules in L.kind_ids() else []
    dec = msgspec.json.Decoder(command_union())
    for obj in _lines(rules):
        if script_lines.uses_library(obj):
            cmd = script_lines.resolve(obj, h.state, entries=bundled)  # type: ignore[arg-type]
        else:
            cmd = dec.decode(msgspec.json.encode(obj))
        h.apply(cmd)
    return h


def demo_commands(rules: str) -> list[Command]:
    """The demo's set-up as engine commands (library lines resolved)."""
    h = demo_history(rules)
    return [h.nodes[i].command for i in h.path()[1:]]  # type: ignore[misc]


def demo_fight(rules: str, seed: int = 7) -> Fight:
    return demo_history(rules, seed).state
