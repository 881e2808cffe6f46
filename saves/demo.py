"""The bundled demo fights: a handful of combatants per ruleset, as JSON Lines of ordinary commands.

A demo is always played on a fresh copy, so the bundled files are never written to.
"""

from __future__ import annotations

from importlib import resources
from importlib.resources.abc import Traversable

import msgspec

from engine import RuleError, command_union, new_fight
from engine.commands import Command
from engine.history import History
from engine.rules import REGISTRY
from engine.state import Fight

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


def demo_commands(rules: str) -> list[Command]:
    if not has_demo(rules):
        known = ", ".join(sorted(r for r in REGISTRY if has_demo(r)))
        raise RuleError(f"No demo for '{rules}'. Demos: {known}.")
    text = _demo_file(rules).read_bytes()
    dec = msgspec.json.Decoder(command_union())
    return [dec.decode(line) for line in text.splitlines() if line.strip()]


def demo_history(rules: str, seed: int = 7) -> History:
    """The demo fight set up (combatants added, not yet started), with that set-up as its history."""
    h = History.start(new_fight(rules, NAMES.get(rules, "Demo"), seed))
    for cmd in demo_commands(rules):
        h.apply(cmd)
    return h


def demo_fight(rules: str, seed: int = 7) -> Fight:
    return demo_history(rules, seed).state
