"""Engine figures for `make bench`: the cost of one command, of one undo, and of a long history.

A scripted d20 fight with 50 combatants runs 10,000 commands, a table's mix: next turn, damage and
healing (numbers and dice), conditions on and off, actions, bonus actions, moves and reactions. The
script is drawn once from a fixed seed against the fight as it goes, then replayed for the timings, so
every run measures the same commands.

- engine.apply_us: the median time of one `apply` over those 10,000 commands.
- engine.undo_us: the median time of one `History.undo` while stepping back through all of them.
- engine.history_mb: what a History holding those 10,000 states (with their commands and events)
  keeps allocated, measured with tracemalloc around building it (MB = 10**6 bytes).
- engine.apply_vs_floor: apply's median divided by the floor measured in the same run. The floor is
  the bare immutable update any command needs, with no engine logic: `msgspec.structs.replace` of one
  combatant, then that combatant put into the fight's tuple at a known index and the fight rebuilt with
  `msgspec.structs.replace`.
"""

from __future__ import annotations

import random
import statistics
import time
import tracemalloc

from msgspec.structs import replace

from engine import History, RuleError, apply, new_fight
from engine import commands as C
from engine.state import Duration, Fight

COMBATANTS = 50
COMMANDS = 10_000
SEED = 2024
APPLY_TARGET = 8.0  # engine.apply_vs_floor at most this (issue 27)
CONDITIONS = ("Prone", "Blinded", "Frightened", "Poisoned", "Restrained", "Marked", "Hidden")


def build_fight() -> Fight:
    f = new_fight("d20", "Bench", seed=SEED)
    rnd = random.Random(SEED)
    for i in range(COMBATANTS):
        kind = "pc" if i < 5 else "npc"
        stats = (("hp", rnd.randint(60, 200)), ("dex", rnd.randint(8, 18)), ("ac", rnd.randint(11, 18)))
        side = "party" if kind == "pc" else "enemy"
        f, _ = apply(f, C.AddCombatant(f"Fighter {i}", kind=kind, side=side, stats=stats))
    f, _ = apply(f, C.StartFight())
    return f


def next_command(f: Fight, rnd: random.Random) -> C.Command:
    """One command a GM might enter now, mostly valid; the fight's current state decides."""
    ids = [c.id for c in f.combatants]
    x = rnd.random()
    if x < 0.25:
        return C.NextTurn()
    target = rnd.choice(ids)
    if x < 0.40:
        return C.Damage(target, rnd.randint(1, 12), type=rnd.choice(("", "slashing", "fire")))
    if x < 0.47:
        return C.Damage(target, dice=rnd.choice(("1d8+3", "2d6", "1d12")))
    if x < 0.60:
        return C.Heal(target, rnd.randint(1, 15))
    if x < 0.70:
        name = rnd.choice(CONDITIONS)
        until = Duration("turn_end", rnd.choice(ids), rnd.randint(1, 3)) if rnd.random() < 0.5 else Duration()
        return C.AddCondition(target, name, duration=until)
    if x < 0.76:
        c = f.get(target)
        if c.conditions:
            return C.RemoveCondition(target, rnd.choice(c.conditions).name)
        return C.Note("The wind rises.")
    if x < 0.80:
        return C.UseAction(target, "reaction", "Opportunity attack")
    who = f.current or target
    return C.UseAction(who, rnd.choice(("action", "bonus", "move")), rnd.choice(("Attack", "Dash", "")))


def script() -> tuple[Fight, list[C.Command]]:
    """The 10,000 commands, drawn against the fight as it goes (refused ones are not kept)."""
    start = build_fight()
    rnd = random.Random(SEED + 1)
    f = start
    cmds: list[C.Command] = []
    while len(cmds) < COMMANDS:
        cmd = next_command(f, rnd)
        try:
            f, _ = apply(f, cmd)
        except RuleError:
            continue
        cmds.append(cmd)
    return start, cmds


def time_apply(start: Fight, cmds: list[C.Command]) -> list[float]:
    clock = time.perf_counter_ns
    out = []
    f = start
    for cmd in cmds:
        t0 = clock()
        f, _ = apply(f, cmd)
        out.append(clock() - t0)
    return out


def time_floor(start: Fight) -> list[float]:
    clock = time.perf_counter_ns
    out = []
    f = start
    for i in range(COMMANDS):
        t0 = clock()
        idx = i % COMBATANTS
        cs = f.combatants
        c = replace(cs[idx], note="x" if i & 1 else "")
        f = replace(f, combatants=cs[:idx] + (c,) + cs[idx + 1 :])
        out.append(clock() - t0)
    return out


def build_history(start: Fight, cmds: list[C.Command]) -> History:
    h = History.start(start)
    for cmd in cmds:
        h.apply(cmd)
    return h


def time_undo(h: History) -> list[float]:
    clock = time.perf_counter_ns
    out = []
    while h.can_undo:
        t0 = clock()
        h.undo()
        out.append(clock() - t0)
    return out


def run() -> list[tuple]:
    start, cmds = script()
    # warm up caches (handlers, parsed dice) so the figures are the steady state
    time_apply(start, cmds[:500])
    time_floor(start)
    apply_ns = statistics.median(time_apply(start, cmds))
    floor_ns = statistics.median(time_floor(start))

    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    h = build_history(start, cmds)
    held = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()

    undo_ns = statistics.median(time_undo(h))
    return [
        ("engine.apply_us", apply_ns / 1000, "us"),
        ("engine.undo_us", undo_ns / 1000, "us"),
        ("engine.history_mb", held / 1e6, "MB"),
        ("engine.apply_vs_floor", apply_ns / floor_ns, "x", APPLY_TARGET),
    ]


if __name__ == "__main__":
    from benchmarks.__main__ import line

    for fig in run():
        print(line(*fig))
