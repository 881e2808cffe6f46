"""Kill a writing process with SIGKILL at random moments; every command it acknowledged must be in the
file, and the file must open.

The writer is a forked child (the engine already imported, so a run costs milliseconds, not a Python
start-up). It opens a save (a prepared one with history, or one it creates), then plays a known list
of moves; after each `apply` / `undo` / `redo` returns it sends the move's number down a pipe. The
parent picks how many acknowledgements to wait for, then kills the child a random fraction of one
move's time later, so kills land inside writes and fsyncs. Then it reopens the save for writing: the
history must be exactly the in-memory history after the last acknowledged move, or after one more
(the move in flight may have reached the disk before its acknowledgement was sent). Finally it
appends a command and reads the file back, to prove nothing lands after a torn record.
"""

from __future__ import annotations

import os
import random
import select
import shutil
import signal
import struct
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from engine import commands as C
from engine import new_fight
from engine.history import History
from saves import format as fmt
from saves.session import Session
from tests.saves.util import RULESETS, SOAK, node_view, play, run_moves

KILLS = 2000 if SOAK else 200
BASE_MOVES = 40  # history already in the prepared files
RUN_MOVES = 10  # moves each killed writer tries to make
ACK = struct.Struct("<i")

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")


class Plan:
    """One ruleset's fight: a prepared file, the moves a writer makes on top, and every expected
    history along the way."""

    def __init__(self, folder: Path, rules: str, seed: int) -> None:
        self.rules, self.seed = rules, seed
        moves = play(rules, seed, BASE_MOVES + RUN_MOVES)
        self.fresh_moves = moves[:RUN_MOVES]  # for writers that create the file
        self.more_moves = moves[BASE_MOVES:]  # for writers that continue the prepared file
        h = History.start(new_fight(rules, "Fault line", seed))
        self.fresh_views = [node_view(h)]
        views = []
        for i, move in enumerate(moves, start=1):
            run_moves_on_history(h, move)
            if i <= RUN_MOVES:
                self.fresh_views.append(node_view(h))
            if i >= BASE_MOVES:
                views.append(node_view(h))
        self.more_views = views
        self.base = folder / f"base-{rules}.fracas"
        with Session.create(self.base, new_fight(rules, "Fault line", seed)) as s:
            run_moves(s, moves[:BASE_MOVES])
        # the same file with half a record after it: opening it for writing backs it up and
        # rewrites it, so kills also land inside that repair
        data = self.base.read_bytes()
        pos = len(fmt.MAGIC)
        while pos < len(data):  # find the last frame
            last = pos
            pos += fmt.FRAME_SIZE + fmt.unpack_frame(data, pos)[0]
        self.torn = folder / f"torn-{rules}.fracas"
        self.torn.write_bytes(data + data[last : last + fmt.FRAME_SIZE + 2])


def run_moves_on_history(h: History, move: Any) -> None:
    if move == "undo":
        h.undo()
    elif move == "redo":
        h.redo()
    else:
        h.apply(move)


def writer(path: Path, ack: int, plan: Plan, fresh: bool) -> None:
    if fresh:
        s = Session.create(path, new_fight(plan.rules, "Fault line", plan.seed))
        moves = plan.fresh_moves
    else:
        s = Session.open(path)
        moves = plan.more_moves
    os.write(ack, ACK.pack(0))
    for i, move in enumerate(moves, start=1):
        run_moves(s, [move])
        os.write(ack, ACK.pack(i))
    time.sleep(60)  # wait for the kill


def read_acks(fd: int, want: int | None) -> list[int]:
    """Acknowledgements until `want` of them arrived (None: until the pipe closes)."""
    buf = b""
    while want is None or len(buf) // ACK.size < want:
        ready, _, _ = select.select([fd], [], [], 10.0)
        assert ready, "the writer went silent"
        chunk = os.read(fd, 4096)
        if not chunk:
            break
        buf += chunk
    return [ACK.unpack_from(buf, i)[0] for i in range(0, len(buf) - len(buf) % ACK.size, ACK.size)]


def one_run(folder: Path, plan: Plan, fresh: bool, rng: random.Random, move_time: float) -> str:
    path = folder / "fight.fracas"
    torn = not fresh and rng.random() < 0.3
    if not fresh:
        shutil.copyfile(plan.torn if torn else plan.base, path)
    views = plan.fresh_views if fresh else plan.more_views
    moves = len(views) - 1
    wait_for = rng.randint(0, moves + 1)  # +1: sometimes kill during create/open itself
    r, w = os.pipe()
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:  # the child: never return into pytest
        os.close(r)
        code = 0
        try:
            writer(path, w, plan, fresh)
        except BaseException:
            code = 3
        finally:
            os._exit(code)
    os.close(w)
    try:
        acked = read_acks(r, wait_for - 1) if wait_for else []
        time.sleep(rng.uniform(0, move_time))
        os.kill(pid, signal.SIGKILL)
        _, status = os.waitpid(pid, 0)
        acked += read_acks(r, None)
    finally:
        os.close(r)
    assert os.WIFSIGNALED(status), f"the writer failed on its own (status {status}), {plan.rules}"
    if not acked:
        if fresh and not path.exists():
            return "killed in create"
        # killed in create or open: the file is whole (a create is atomic), as it was or repaired
        s = Session.open(path, readonly=True)
        assert node_view(s.history) == views[0] and (torn or s.notices == [])
        return "killed in open" + (" (repairing)" if torn else "")
    last = acked[-1]
    s = Session.open(path)
    got = node_view(s.history)
    ok = got == views[last] or (last + 1 < len(views) and got == views[last + 1])
    assert ok, f"{plan.rules}: {len(got) - 1} nodes on disk after {last} acknowledged moves"
    nodes = len(s.history.nodes)
    s.apply(C.Note(text="after the kill"))
    s.close()
    back = Session.open(path, readonly=True)
    assert back.notices == [] and len(back.history.nodes) == nodes + 1
    assert back.history.nodes[-1].command == C.Note(text="after the kill")
    if torn:
        backups = list(folder.glob("*.bak"))
        assert len(backups) == 1 and backups[0].read_bytes() == plan.torn.read_bytes()
    if s.notices:
        return "torn record dropped"
    return "after every move" if last == moves else "between moves"


@pytest.mark.soak
def test_kill_writer_at_random_moments(tmp_path: Path) -> None:
    rng = random.Random(20261130)
    plans = [Plan(tmp_path, rules, 1000 + k) for k, rules in enumerate(RULESETS)]
    # one move's time here (with its fsync), so the kill lands anywhere inside the next move
    t0 = time.perf_counter()
    with Session.open(shutil.copyfile(plans[0].base, tmp_path / "timing.fracas")) as s:
        run_moves(s, plans[0].more_moves)
    move_time = (time.perf_counter() - t0) / RUN_MOVES
    outcomes: dict[str, int] = {}
    for n in range(KILLS):
        folder = tmp_path / f"run{n}"
        folder.mkdir()
        what = one_run(folder, plans[n % len(plans)], n % 4 == 0, rng, move_time)
        outcomes[what] = outcomes.get(what, 0) + 1
        shutil.rmtree(folder)
    print(f"\n{KILLS} kills, 0 lost acknowledged commands, 0 unreadable files: {outcomes}")
    assert outcomes.get("between moves", 0) > KILLS // 3, outcomes
