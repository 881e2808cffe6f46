"""Save-file figures for `make bench`.

save.commit_ms  median time of one durable `Session.apply` (written and fsync'd) in a d20 fight of
                50 combatants
save.resume_ms  median time to `Session.open` a file of 10,000 commands (50 combatants) until the state
                and the whole undo history are in memory
save.size_kb    that file's size
save.resume_ratio  that resume's median divided by the median of the floor, measured interleaved in
                the same run: the same file's bytes read and every record's payload decoded with msgspec
                alone (see `decode_floor` for exactly what it includes). Target: at most 10.

The fight is played from real commands through a real Session: 50 combatants added, the fight
started, then a seeded mix of damage (numbers and dice), healing, conditions, actions, rolls, notes,
next turn, undo and redo (with branches). Files go to a temporary folder on the file system that
`FRACAS_BENCH_DIR` names, else the system's temporary folder: fsync costs what that disk costs.
"""

from __future__ import annotations

import gc
import os
import random
import shutil
import statistics
import tempfile
import time
import zlib
from pathlib import Path

import msgspec

from engine import RuleError, new_fight
from engine import commands as C
from saves import format as fmt
from saves.session import Session

COMMANDS = 10_000
COMBATANTS = 50
RESUMES = 9  # resumes, and as many floors, interleaved
RESUME_TARGET = 2.0  # issue 27: hold it

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


def decode_floor(path: Path, decode_payloads: bool = True) -> int:
    """The floor of a resume: the irreducible work of reading the file back, with no Fracas types.

    It includes exactly: reading the whole file into bytes (one `read`); walking its frames with
    `fmt.FRAME.unpack_from` (length and kind; the checksums are not checked); inflating every
    compressed payload with zlib itself (raw deflate, the sliding window of earlier raw payloads as
    preset dictionary, kept as the reader keeps it: `(window + raw)[-size:]`; none of
    `fmt.inflate`'s bounds and checks, so the floor does not move when the reader's checks do); and
    `msgspec.msgpack.decode` of every payload, the header's included, into plain Python objects
    (dicts, lists, str, int: no types, no validation), all kept in a list until the end, as a resume
    keeps its history. The cycle collector is off while it runs, as it is during `Session.open`'s
    parse. It leaves out what a resume does beyond that: the CRC-32 checks, typed decoding into
    structs, applying each step's delta to its parent state, the history's nodes, the lock and the
    read's size checks.

    Untyped decoding builds a dict per map and is slower than the reader's typed decoding into
    `gc=False` structs, so this floor is not a lower bound on the decoding part. With
    `decode_payloads=False` every payload is still inflated but only the header is decoded: the
    read, the frame walk and the inflates alone (save.resume_vs_inflate_ratio, for context).

    Returns how many records it read."""
    was = gc.isenabled()
    gc.disable()
    try:
        with open(path, "rb") as f:
            data = f.read()
        mv = memoryview(data)
        n = len(data)
        unpack = fmt.FRAME.unpack_from
        size, compressed = fmt.FRAME_SIZE, fmt.COMPRESSED
        decompressobj = zlib.decompressobj
        decode = msgspec.msgpack.decode
        pos = len(fmt.MAGIC)
        length, kind, _, _ = unpack(data, pos)
        raw = mv[pos + size : pos + size + length]
        header = decode(raw)
        wsize = header.get("window", fmt.WINDOW)
        window = bytes(raw[-wsize:]) if wsize else b""
        records = [header]
        pos += size + length
        while pos < n:
            length, kind, _, _ = unpack(data, pos)
            body = pos + size
            raw = mv[body : body + length]
            if kind & compressed:
                raw = (decompressobj(-15, zdict=window) if window else decompressobj(-15)).decompress(raw)
            if wsize:
                window = (window + raw)[-wsize:]
            records.append(decode(raw) if decode_payloads else raw)
            pos = body + length
        return len(records)
    finally:
        if was:
            gc.enable()


def resume_figures(path: Path, runs: int = RESUMES, commands: int = COMMANDS) -> dict[str, float]:
    """Medians of `Session.open(path)` and of `decode_floor(path)`, interleaved (floor first, then
    the other way round...), after one untimed warm-up of each."""
    opens: list[float] = []
    floors: list[float] = []
    inflates: list[float] = []

    def one_open() -> float:
        t0 = time.perf_counter()
        s = Session.open(path)
        took = time.perf_counter() - t0
        assert len(s.history.nodes) > commands and s.state.combatants
        s.close()
        del s  # freeing this history must not be timed as part of the next open
        return took

    def one_floor(decode_payloads: bool = True) -> float:
        t0 = time.perf_counter()
        count = decode_floor(path, decode_payloads)
        took = time.perf_counter() - t0
        assert count > commands
        return took

    one_floor()
    one_open()
    for i in range(runs):
        if i % 2 == 0:
            floors.append(one_floor())
            opens.append(one_open())
        else:
            opens.append(one_open())
            floors.append(one_floor())
        inflates.append(one_floor(decode_payloads=False))
    resume = statistics.median(opens)
    floor = statistics.median(floors)
    inflate = statistics.median(inflates)
    return {
        "resume_ms": resume * 1000,
        "floor_ms": floor * 1000,
        "ratio": resume / floor,
        "inflate_ms": inflate * 1000,
        "vs_inflate": resume / inflate,
    }


def run() -> list[tuple]:
    base = os.environ.get("FRACAS_BENCH_DIR") or None
    folder = Path(tempfile.mkdtemp(prefix="fracas-bench-", dir=base))
    try:
        path = folder / "bench.fracas"
        session, times = build(path)
        session.close()
        commit = statistics.median(times) * 1000
        del session
        res = resume_figures(path)
        size = path.stat().st_size / 1024
        return [
            ("save.commit_ms", commit, "ms"),
            ("save.resume_ms", res["resume_ms"], "ms"),
            ("save.size_kb", size, "kB"),
            ("save.resume_ratio", res["ratio"], "x", RESUME_TARGET),
            ("save.resume_floor_ms", res["floor_ms"], "ms"),
            ("save.resume_inflate_only_ms", res["inflate_ms"], "ms"),
            ("save.resume_vs_inflate_ratio", res["vs_inflate"], "x"),
        ]
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    from benchmarks.__main__ import line

    for fig in run():
        print(line(*fig))
