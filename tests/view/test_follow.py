"""saves/follow.py: following a save file as it is written, by a real GM app, by a writer killed in
the middle of a record, and through replaced, truncated and damaged files."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

from engine import commands as C
from saves import format as fmt
from saves import journal
from saves.demo import demo_history
from saves.follow import Follower
from saves.session import Session
from tests.tui.support import app_on, notifications, sync


def _session(path: Path, rules: str = "d20") -> Session:
    return Session.create(path, demo_history(rules).state)


def _same(fol: Follower, s: Session) -> None:
    assert fol.history is not None
    assert fol.problem == ""
    assert fol.history.cursor == s.history.cursor
    assert fol.state == s.state


def test_follows_steps_undo_and_redo_without_reading_again(tmp_path: Path) -> None:
    path = tmp_path / "f.fracas"
    s = _session(path)
    fol = Follower(path)
    _same(fol, s)
    s.apply(C.StartFight())
    for _ in range(10):
        s.apply(C.NextTurn())
        assert fol.poll()
        _same(fol, s)
    for _ in range(3):
        s.undo()
        assert fol.poll()
        _same(fol, s)
    s.redo()
    assert fol.poll()
    _same(fol, s)
    s.apply(C.Note(text="a branch after an undo"))  # continues an earlier node: a new branch
    assert fol.poll()
    _same(fol, s)
    assert not fol.poll()  # nothing new: nothing to redraw
    assert fol.reloads == 0  # every record was read from where the last one ended


def test_never_locks_so_the_gm_can_open_the_file(tmp_path: Path) -> None:
    path = tmp_path / "f.fracas"
    _session(path).close()
    before = path.read_bytes()
    fol = Follower(path)
    s = Session.open(path)  # would be LockedError if the follower held a lock
    assert not s.readonly
    s.apply(C.StartFight())
    fol.poll()
    _same(fol, s)
    s.close()
    assert path.read_bytes().startswith(before)  # the follower wrote nothing


@sync
async def test_follows_a_real_gm_app(tmp_path: Path) -> None:
    """The GM's app (a pilot) plays on a file; the follower keeps up after every key."""
    path = tmp_path / "f.fracas"
    _session(path).close()
    fol = Follower(path)
    s = Session.open(path)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        s.apply(C.StartFight())
        await pilot.pause()
        for key in ["n"] * 10 + ["ctrl+z"] * 3 + ["ctrl+y"]:
            before = s.history.cursor
            await pilot.press(key)
            await pilot.pause()
            assert s.history.cursor != before, key
            assert fol.poll()
            _same(fol, s)
        # the GM's app never notices the follower: no notice, and it still writes the same file
        assert not [m for m in notifications(pilot) if "replaced" in m or "read-only" in m]
        assert s.check_file() == "" and not s.readonly
    s.close()


_HALF_WRITER = textwrap.dedent(
    """
    import os, sys, time
    path, frame = sys.argv[1], bytes.fromhex(sys.argv[2])
    fd = os.open(path, os.O_WRONLY)
    end = os.fstat(fd).st_size
    os.pwrite(fd, frame[: len(frame) // 2], end)  # half a record, then killed before the rest
    os.fsync(fd)
    print("half", flush=True)
    time.sleep(60)
    """
)


def test_a_writer_killed_in_the_middle_of_a_record(tmp_path: Path) -> None:
    path = tmp_path / "f.fracas"
    s = _session(path)
    s.apply(C.StartFight())
    s.close()
    # the next record as the GM's app would write it, made on a copy
    copy = tmp_path / "copy.fracas"
    copy.write_bytes(path.read_bytes())
    size = copy.stat().st_size
    with Session.open(copy) as t:
        t.apply(C.NextTurn())
        want = t.state
    frame = copy.read_bytes()[size:]
    assert len(frame) > fmt.FRAME_SIZE

    fol = Follower(path)
    before = fol.state
    proc = subprocess.Popen([sys.executable, "-c", _HALF_WRITER, str(path), frame.hex()], stdout=subprocess.PIPE)
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == b"half"
    finally:
        proc.kill()
        proc.wait()
    assert not fol.poll() or fol.problem == ""
    assert fol.state == before  # the half record is waited for, never read half
    assert fol.problem == "" and "still being written" in fol.notice
    # the rest of the record arrives: it is read whole
    with open(path, "r+b") as fh:
        fh.seek(size + len(frame) // 2)
        fh.write(frame[len(frame) // 2 :])
    assert fol.poll()
    assert fol.state == want and fol.problem == "" and fol.notice == ""


def test_a_replaced_file_is_read_again(tmp_path: Path) -> None:
    path = tmp_path / "f.fracas"
    s = _session(path)
    s.apply(C.StartFight())
    fol = Follower(path)
    s.close()
    other = tmp_path / "other.fracas"
    with _session(other, "cosmere") as t:
        t.apply(C.StartFight())
        want = t.state
    os.replace(other, path)  # an export or a copy renamed over it
    assert fol.poll()
    assert fol.state == want and fol.reloads == 1
    assert "replaced" in fol.notice


def test_a_truncated_file_is_reported_then_followed_again(tmp_path: Path) -> None:
    path = tmp_path / "f.fracas"
    s = _session(path)
    s.apply(C.StartFight())
    for _ in range(3):
        s.apply(C.NextTurn())
    fol = Follower(path)
    s.close()
    data = path.read_bytes()
    header_end = len(fmt.MAGIC) + fmt.FRAME_SIZE + fmt.unpack_frame(data, len(fmt.MAGIC))[0]
    with open(path, "r+b") as fh:
        fh.truncate(header_end - 5)  # cut inside the header: nothing to show from it
    assert fol.poll()
    assert fol.problem and "\n" not in fol.problem
    shown = fol.state
    assert shown is not None and shown.started  # the last good fight stays on screen
    assert not fol.poll()  # the same bad file is not read again and again
    path.write_bytes(data[: header_end])  # good again: a fight with only its header
    assert fol.poll()
    assert fol.problem == "" and fol.state is not None and not fol.state.started


def test_damage_is_reported_and_a_good_file_followed_again(tmp_path: Path) -> None:
    path = tmp_path / "f.fracas"
    s = _session(path)
    s.apply(C.StartFight())
    fol = Follower(path)
    end = path.stat().st_size
    s.apply(C.NextTurn())
    s.apply(C.NextTurn())
    s.close()
    good = path.read_bytes()
    bad = bytearray(good)
    bad[end + 2] ^= 0xFF  # the frame header of the next record no longer checks out
    path.write_bytes(bytes(bad))
    assert fol.poll()
    assert "offset" in fol.problem and "\n" not in fol.problem
    path.write_bytes(good)
    assert fol.poll()
    assert fol.problem == ""
    assert fol.state == journal.parse(path, good).history.state


def test_a_file_that_goes_away_and_comes_back(tmp_path: Path) -> None:
    path = tmp_path / "f.fracas"
    _session(path).close()
    fol = Follower(path)
    data = path.read_bytes()
    path.unlink()
    assert fol.poll() and "gone" in fol.problem
    path.write_bytes(data)
    assert fol.poll() and fol.problem == ""


def test_not_a_save_at_all(tmp_path: Path) -> None:
    path = tmp_path / "f.fracas"
    path.write_text("{}")
    fol = Follower(path)
    assert fol.history is None and "JSON" in fol.problem
