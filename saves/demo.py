"""The bundled demo fights: a handful of combatants per ruleset, as JSON Lines of ordinary commands.

A demo is always played on a fresh copy, so the bundled files are never written to.
"""

from __future__ import annotations

from importlib import resources

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


def demo_commands(rules: str) -> list[Command]:
    if rules not in REGISTRY:
        raise RuleError(f"No demo for '{rules}'. Known: {', '.join(sorted(REGISTRY))}.")
    text = resources.files("saves").joinpath("demos", f"{rules}.jsonl").read_bytes()
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
