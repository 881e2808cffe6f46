"""Several Fracas opening one torn save at once (issue 22): opening a torn file for writing rewrites it
(a new inode renamed over the path), and a writer that opened the old inode before the rename and
locked it after the repairer let go of it must not take that stale lock for the file's. Every
acknowledged command ends up in the main file (docs/save-format.md, "Several writers at once"); the
writers that lose get a clean LockedError and write nothing."""

from __future__ import annotations

import multiprocessing
import os
import random
import time
import traceback
from pathlib import Path
from typing import Any

import pytest

from engine import commands as C
from engine import new_fight
from saves import journal
from saves.errors import LockedError
from saves.session import Session
from tests.saves.util import SOAK

pytestmark = pytest.mark.skipif(journal.fcntl is None, reason="no file locks on this platform")

WRITERS = 6
NOTES = 5


def torn_file(path: Path) -> bytes:
    """A save with a few commands and a torn last record (a crash while appending)."""
    with Session.create(path, new_fight("d20", "Torn", 7)) as s:
        s.apply(C.AddCombatant(name="Brannoc", kind="pc", side="party", stats=(("hp", 30),)))
        s.apply(C.Note(text="before the crash"))
        s.apply(C.Note(text="torn away"))
    data = path.read_bytes()
    path.write_bytes(data[:-4])
    return data[:-4]


def notes_in(path: Path) -> list[str]:
    """The notes on the line of play of a save (read-only: the file is not touched)."""
    s = Session.open(path, readonly=True)
    return [n.command.text for n in s.history.nodes if isinstance(n.command, C.Note)]


def recovered(folder: Path) -> list[Path]:
    return sorted(folder.glob("*-recovered-*.fracas"))


# --- the interleaving that lost commands, made to happen every time -------------------------------


def _late_lock(monkeypatch: pytest.MonkeyPatch, meanwhile: Any) -> None:
    """The next `journal.lock` (the second writer's, on the descriptor it has just opened) first lets
    `meanwhile` run: the first writer opens, repairs and writes in that gap."""
    real = journal.lock
    armed = [True]

    def lock(fd: int, path: Path) -> None:
        if armed[0]:
            armed[0] = False
            meanwhile()
        real(fd, path)

    monkeypatch.setattr(journal, "lock", lock)


def test_a_writer_that_locked_the_torn_file_after_its_repair_does_not_repair_it_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "f.fracas"
    torn_file(path)

    def first_writer() -> None:  # opens, repairs, writes its notes, closes: all acknowledged
        with Session.open(path) as s:
            assert s.notices and "torn last record" in s.notices[0]
            for k in range(NOTES):
                s.apply(C.Note(text=f"first {k}"))

    _late_lock(monkeypatch, first_writer)
    with Session.open(path) as second:  # it had opened the torn inode before the first one's rename
        assert second.notices == [], "the file was repaired twice"
        second.apply(C.Note(text="second 0"))
    got = notes_in(path)
    assert got == ["before the crash"] + [f"first {k}" for k in range(NOTES)] + ["second 0"]
    assert recovered(tmp_path) == []
    assert len(list(tmp_path.glob("*.bak"))) == 1


def test_a_writer_that_locked_the_torn_file_while_the_repairer_plays_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "f.fracas"
    torn_file(path)
    first: list[Session] = []

    def first_writer() -> None:  # opens and repairs, and is still playing
        s = Session.open(path)
        s.apply(C.Note(text="first 0"))
        first.append(s)

    _late_lock(monkeypatch, first_writer)
    with pytest.raises(LockedError, match="open in another running Fracas"):
        Session.open(path)
    (s,) = first
    for k in range(1, NOTES):
        s.apply(C.Note(text=f"first {k}"))
        assert s.pop_notices() == []  # its file was never replaced under it
    s.close()
    assert notes_in(path) == ["before the crash"] + [f"first {k}" for k in range(NOTES)]
    assert recovered(tmp_path) == [] and len(list(tmp_path.glob("*.bak"))) == 1


def test_delete_does_not_move_a_file_replaced_while_it_waited_for_the_lock(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`fracas delete` locks the file as a writer does: the same stale lock must not let it move the
    repaired file out from under the Fracas that repaired it."""
    from saves.store import trash

    monkeypatch.setenv("FRACAS_DATA_DIR", str(tmp_path))
    path = tmp_path / "f.fracas"
    torn_file(path)
    first: list[Session] = []
    _late_lock(monkeypatch, lambda: first.append(Session.open(path)))  # a Fracas opens (and repairs) it then
    with pytest.raises(LockedError):
        trash(path, tmp_path)
    (s,) = first
    s.apply(C.Note(text="still here"))
    assert s.pop_notices() == [] and s.path == path
    s.close()
    assert "still here" in notes_in(path) and not (tmp_path / "trash" / "f.fracas").exists()


# --- the real thing: writers in their own processes, all at once --------------------------------


def _writer(path: str, who: int, barrier: Any, queue: Any) -> None:
    """One Fracas: open the save for writing as soon as all are ready, write NOTES notes; report what
    was acknowledged (an apply that returned) and how it ended."""
    acked: list[str] = []
    real = journal.lock
    pause = random.Random(os.getpid()).random() * 0.02

    def preempted(fd: int, locked: Path) -> None:
        # a loaded machine: this writer is descheduled between opening the file and locking it
        time.sleep(pause)
        real(fd, locked)

    journal.lock = preempted  # type: ignore[assignment]  # this process only (forked)
    try:
        barrier.wait(timeout=30)
        try:
            s = Session.open(Path(path))
        except LockedError as exc:
            queue.put((who, "locked", str(exc), acked))
            return
        with s:
            for k in range(NOTES):
                text = f"w{who} n{k}"
                s.apply(C.Note(text=text))
                acked.append(text)
                notice = s.pop_notices()
                if notice:
                    queue.put((who, "notice", "; ".join(notice), []))
        queue.put((who, "wrote", "", acked))
    except BaseException:
        queue.put((who, "error", traceback.format_exc(), acked))


def _trial(folder: Path) -> None:
    path = folder / "race.fracas"
    torn_file(path)
    ctx = multiprocessing.get_context("fork")
    barrier = ctx.Barrier(WRITERS)
    queue = ctx.Queue()
    procs = [ctx.Process(target=_writer, args=(str(path), i, barrier, queue)) for i in range(WRITERS)]
    for p in procs:
        p.start()
    reports = [queue.get(timeout=60) for _ in range(WRITERS)]
    for p in procs:
        p.join(timeout=30)
    problems = [r for r in reports if r[1] in ("error", "notice")]
    assert not problems, problems
    acked = [text for r in reports for text in r[3]]
    winners = [r for r in reports if r[1] == "wrote"]
    assert winners, "no writer got the file"
    for _, how, message, written in reports:
        if how == "locked":  # a clean refusal, before anything was written
            assert "open in another running Fracas" in message and written == []
    main = notes_in(path)
    assert main[0] == "before the crash"
    missing = [t for t in acked if t not in main]
    assert not missing, f"acknowledged but not in the main file: {missing}"
    assert len(main) == len(set(main)) == 1 + len(acked)  # and nothing written that was not acknowledged
    assert recovered(folder) == [], "a writer's commands went to a recovered copy"
    assert len(list(folder.glob("race.fracas.*.bak"))) == 1, "the torn file was repaired more than once"


@pytest.mark.soak
@pytest.mark.skipif("fork" not in multiprocessing.get_all_start_methods(), reason="needs fork")
def test_writers_opening_one_torn_file_at_once_lose_nothing(tmp_path: Path) -> None:
    """WRITERS processes open one torn save at once and write NOTES notes each; a few trials here
    (about a second), 200 with FRACAS_SOAK=1 (`make soak`)."""
    for trial in range(200 if SOAK else 4):
        folder = tmp_path / f"t{trial}"
        folder.mkdir()
        _trial(folder)
