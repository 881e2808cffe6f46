"""Helpers shared by the saves tests."""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Any

from engine import RuleError, get_ruleset, new_fight, ruleset_ids
from engine import commands as C
from engine.history import History
from saves.session import Session

SOAK = os.environ.get("FRACAS_SOAK", "") not in ("", "0")

# stats the bundled rulesets need to be interesting (keys they read; unknown keys are kept as given);
# a ruleset not named here gets its own stat specs' defaults (stats_of)
STATS: dict[str, tuple[tuple[str, int], ...]] = {
    "d20": (("hp", 20), ("ac", 14), ("dex", 14)),
    "cosmere": (("hp", 18), ("focus", 3), ("investiture", 2), ("phy", 13)),
    "ninephase": (("hp", 14), ("grit", 5)),
    "warhammer": (("wounds", 12), ("ws", 40), ("ag", 35), ("i", 38), ("t", 40), ("fortune", 2)),
}
# every ruleset registered when the tests are collected: the plugins found through their entry
# points (Plain list's package too, tests/plainlist_pkg) are covered
RULESETS = ruleset_ids()


def stats_of(rules: str) -> tuple[tuple[str, int], ...]:
    """The stats to add combatants with: the table above, else the ruleset's own stats at their defaults."""
    known = STATS.get(rules)
    if known is None:
        known = tuple((s.key, s.default) for s in get_ruleset(rules).stats)
    return known


def node_view(history: History) -> list[tuple[Any, ...]]:
    """Everything a history holds, comparable with ==."""
    return [(n.parent, n.redo, n.command, n.events, n.state) for n in history.nodes]


def assert_same_history(expected: History, got: History) -> None:
    assert len(got.nodes) == len(expected.nodes), (len(got.nodes), len(expected.nodes))
    for i, (a, b) in enumerate(zip(expected.nodes, got.nodes, strict=True)):
        assert a.parent == b.parent, f"node {i}: parent"
        assert a.command == b.command, f"node {i}: command"
        assert a.events == b.events, f"node {i}: events"
        assert a.state == b.state, f"node {i}: state"
        assert a.redo == b.redo, f"node {i}: redo"
    assert got.cursor == expected.cursor
    assert got.state == expected.state


def random_move(rng: random.Random, history: History, rules: str) -> Any:
    """A plausible GM move for any ruleset: a command, or "undo" / "redo"."""
    f = history.state
    ids = [c.id for c in f.combatants] or ["c1"]
    who = rng.choice(ids)
    r = rng.random()
    if len(f.combatants) < 3 or r < 0.05:
        side = rng.choice(("party", "enemy"))
        return C.AddCombatant(name=rng.choice(("Goblin", "Hero", "Wolf")), side=side, stats=stats_of(rules),
                              count=rng.choice((1, 1, 2)))
    if not f.started:
        return C.StartFight()
    if r < 0.12:
        return "undo"
    if r < 0.16:
        return "redo"
    if r < 0.34:
        return C.Damage(who=who, amount=rng.randint(1, 6))
    if r < 0.44:
        return C.Damage(who=who, dice=rng.choice(("1d6", "2d4+1")), type=rng.choice(("", "fire")))
    if r < 0.50:
        return C.Heal(who=who, dice="1d6")
    if r < 0.58:
        return C.AddCondition(who=who, name=rng.choice(("Prone", "Stunned", "Bleeding", "Marked")))
    if r < 0.62:
        c = f.find(who)
        if c is not None and c.conditions:
            return C.RemoveCondition(who=who, name=c.conditions[0].name)
        return C.Note(text="nothing to remove", who=who)
    if r < 0.66:
        return C.Roll(dice="1d20+3", who=who, label="attack")
    if r < 0.68:
        return C.RemoveCombatant(who=who)
    return C.NextTurn()


def play(rules: str, seed: int, moves: int) -> list[Any]:
    """A list of `moves` GM moves that all succeed in order (RuleErrors are filtered out)."""
    rng = random.Random(seed)
    h = History.start(new_fight(rules, "Fault line", seed))
    out: list[Any] = []
    tries = 0
    while len(out) < moves and tries < moves * 20:
        tries += 1
        move = random_move(rng, h, rules)
        if move == "undo":
            if h.undo() is None:
                continue
        elif move == "redo":
            if h.redo() is None:
                continue
        else:
            try:
                h.apply(move)
            except RuleError:
                continue
        out.append(move)
    return out


def run_moves(session: Session, moves: list[Any]) -> None:
    for move in moves:
        if move == "undo":
            session.undo()
        elif move == "redo":
            session.redo()
        else:
            session.apply(move)


def build_file(path: Path, rules: str, seed: int, moves: int) -> Session:
    s = Session.create(path, new_fight(rules, "Fault line", seed))
    run_moves(s, play(rules, seed, moves))
    return s
