"""Save-file figures for `make bench`.

save.commit_ms  median time of one durable `Session.apply` (written and fsync'd) in a d20 fight of
                50 combatants
save.resume_ms  median time to `Session.open` a file of 10,000 commands (50 combatants) until the state
                and the whole undo history are in memory
save.size_kb    that file's size

The fight is played from real commands through a real Session: 50 combatants added, the fight
started, then a seeded mix of damage (numbers and dice), healing, conditions, actions, rolls, notes,
next turn, undo and redo (with branches). Files go to a temporary folder on the file system that
`FRACAS_BENCH_DIR` names, else the system's temporary folder: fsync costs what that disk costs.
"""

from __future__ import annotations

import os
import random
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from engine import RuleError, new_fight
from engine import commands as C
from saves.session import Session

COMMANDS = 10_000
COMBATANTS = 50

ROSTER = (
    ("Fighter", "pc", "party", 44, 16, 14),
    ("Cleric", "pc", "party", 38, 18, 10),
    ("Rogue", "pc", "party", 30, 14, 18),
    ("Wizard", "pc", "party", 24, 12, 14),
    ("Ranger", "pc", "party", 34, 15, 16),
    ("Goblin", "npc", "enemy", 7, 15, 14),
    ("Orc", "npc", "enemy", 15, 13, 12),
    ("Hobgoblin", "npc", "enemy", 11, 18, 12),
    ("Bugbear", "npc", "enemy", 27, 16, 14),
    ("Wolf", "npc", "enemy", 11, 13, 15),
)
CONDITIONS = ("Prone", "Poisoned", "Frightened", "Blinded", "Restrained", "Bleeding", "Hidden")
TYPES = ("", "slashing", "piercing", "fire", "cold", "psychic")


def _setup(session: Session) -> None:
    per = COMBATANTS // len(ROSTER)
    for name, kind, side, hp, ac, dex in ROSTER:
        session.apply(
            C.AddCombatant(
                name=name, kind=kind, side=side, count=per, stats=(("hp", hp), ("ac", ac), ("dex", dex))  # type: ignore[arg-type]
            )
        )
    session.apply(C.StartFight())


def _next_command(rng: random.Random, session: Session) -> C.Command | str:
    """One move of the GM: a command, or "undo" / "redo"."""
    f = session.state
    ids = [c.id for c in f.combatants]
    who = rng.choice(ids)
    r = rng.random()
    if r < 0.04:
        return "undo"
    if r < 0.06:
        return "redo"
    if r < 0.22:
        return C.Damage(who=who, amount=rng.randint(1, 12), type=rng.choice(TYPES))
    if r < 0.34:
        return C.Damage(who=who, dice=rng.choice(("1d6", "1d8+3", "2d6+2", "1d10", "3d6")), type=rng.choice(TYPES))
    if r < 0.42:
        return C.Heal(who=who, dice=rng.choice(("1d8+3", "2d4+2")))
    if r < 0.50:
        name = rng.choice(CONDITIONS)
        return C.AddCondition(who=who, name=name)
    if r < 0.55:
        c = f.get(who)
        if c.conditions:
            return C.RemoveCondition(who=who, name=rng.choice(c.conditions).name)
        return C.SavingThrow(who=who, dice="1d20+2", dc=13, label="Constitution save")
    if r < 0.62 and f.current:
        return C.UseAction(who=f.current, what=rng.choice(("action", "bonus", "move")), name="Attack")
    if r < 0.66:
        return C.Roll(dice="1d20+5", who=who, label="attack")
    if r < 0.68:
        return C.Note(text=f"note {rng.randint(1, 999)}", who=who)
    return C.NextTurn()


def play(session: Session, commands: int, seed: int = 1) -> list[float]:
    """Play until `commands` commands are in the file; the seconds each durable apply took."""
    rng = random.Random(seed)
    times: list[float] = []
    done = len(session.history.nodes) - 1
    while done < commands:
        move = _next_command(rng, session)
        if move == "undo":
            session.undo()
            continue
        if move == "redo":
            session.redo()
            continue
        assert not isinstance(move, str)
        t0 = time.perf_counter()
        try:
            session.apply(move)
        except RuleError:
            continue
        times.append(time.perf_counter() - t0)
        done += 1
    return times


def build(path: Path, commands: int = COMMANDS, seed: int = 1) -> tuple[Session, list[float]]:
    session = Session.create(path, new_fight("d20", "Benchmark brawl", seed))
    _setup(session)
    return session, play(session, commands, seed)


def run() -> list[tuple[str, float, str]]:
    base = os.environ.get("FRACAS_BENCH_DIR") or None
    folder = Path(tempfile.mkdtemp(prefix="fracas-bench-", dir=base))
    try:
        path = folder / "bench.fracas"
        session, times = build(path)
        session.close()
        commit = statistics.median(times) * 1000
        del session
        resumes = []
        for _ in range(5):
            t0 = time.perf_counter()
            s = Session.open(path)
            resumes.append(time.perf_counter() - t0)
            assert len(s.history.nodes) > COMMANDS and s.state.combatants
            s.close()
            del s  # freeing this history must not be timed as part of the next open
        size = path.stat().st_size / 1024
        return [
            ("save.commit_ms", commit, "ms"),
            ("save.resume_ms", statistics.median(resumes) * 1000, "ms"),
            ("save.size_kb", size, "kB"),
        ]
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    for name, value, unit in run():
        print(f"{name} {value:.3f} {unit}")
