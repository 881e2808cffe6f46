"""saves/follow.py: following a save file as it is written, by a real GM app, by a writer killed in
the middle of a record, and through replaced, truncated and damaged files."""

from __future__ import annotations

import dataclasses
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path
from unittest import mock

import msgspec
import pytest

from engine import commands as C
from engine.history import History
from engine.state import Fight
from saves import follow, journal
from saves import format as fmt
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
    path.write_bytes(data[:header_end])  # good again: a fight with only its header
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


# --- a file written over in place (`cp other.fracas f.fracas`: the same inode, other contents) ----


def _fight(path: Path, note: str, turns: int = 3, start: Fight | None = None) -> History:
    """A d20 fight: started, `turns` turns, a note, `turns` more. Written without waiting for the
    disk after each record (fsync, which changes no byte of the file): these are files for the
    follower to read, and _other writes up to a hundred fights of 400 records to find one of the
    size it needs, some 4 ms of waiting a record."""
    with mock.patch.object(journal, "fsync", _no_sync), mock.patch.object(journal, "fsync_dir", _no_sync):
        with Session.create(path, start or demo_history("d20").state) as s:
            s.apply(C.StartFight())
            for _ in range(turns):
                s.apply(C.NextTurn())
            s.apply(C.Note(text=note))
            for _ in range(turns):
                s.apply(C.NextTurn())
            return s.history


def _no_sync(_: object) -> None:
    pass


def _is(fol: Follower, want: History) -> bool:
    """The follower shows that fight: the same state, and the same commands got it there."""
    assert fol.history is not None
    return fol.state == want.state and [n.command for n in fol.history.nodes] == [n.command for n in want.nodes]


def _other(
    tmp_path: Path, size: int, grow: range, turns: int = 3, start: Fight | None = None, who: str = "goblin"
) -> tuple[Path, History]:
    """Another fight (another note) whose file is `size` bytes plus something in `grow`."""
    other = tmp_path / "other.fracas"
    # the note's length steps every 20 (one "!" more) and the size with it: one of each length
    # first, then the others (whose digits may yet make a size of their own)
    for n in [*range(0, 300, 20), *(n for n in range(300) if n % 20)]:
        want = _fight(other, f"the {who} {n:03} " + "!" * (n // 20), turns, start)
        if other.stat().st_size - size in grow:
            return other, want
        other.unlink()
    raise AssertionError(f"no fight {grow} bytes longer than {size}")


def _copy_over(other: Path, path: Path, keep_times: bool = True) -> None:
    """`cp other path`: the same file (inode), its contents replaced; with the old times put back
    (as `cp -p` would, or as a write within the same clock tick leaves them)."""
    st = path.stat()
    shutil.copyfile(other, path)
    if keep_times:
        os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert path.stat().st_ino == st.st_ino


def test_a_fight_of_the_same_size_copied_over_in_place(tmp_path: Path) -> None:
    path = tmp_path / "f.fracas"
    _fight(path, "the goblin flees")
    fol = Follower(path)
    size = path.stat().st_size
    other, want = _other(tmp_path, size, range(0, 1))
    assert not _is(fol, want)
    _copy_over(other, path)
    assert path.stat().st_size == size and path.stat().st_mtime_ns == fol._ident.mtime_ns  # noqa: SLF001
    assert fol.poll()
    assert _is(fol, want) and fol.problem == "" and fol.reloads == 1
    assert "rewritten" in fol.notice
    assert not fol.poll()


def test_a_fight_a_few_bytes_longer_copied_over_is_read_not_waited_for(tmp_path: Path) -> None:
    path = tmp_path / "f.fracas"
    _fight(path, "the goblin flees")
    fol = Follower(path)
    other, want = _other(tmp_path, path.stat().st_size, range(1, fmt.FRAME_SIZE))  # not even a frame header more
    _copy_over(other, path, keep_times=False)
    assert fol.poll()
    assert _is(fol, want) and fol.problem == "" and fol.reloads == 1
    assert "still being written" not in fol.notice


def test_a_shorter_fight_copied_over_in_place(tmp_path: Path) -> None:
    path = tmp_path / "f.fracas"
    _fight(path, "the goblin flees", turns=5)
    fol = Follower(path)
    other = tmp_path / "other.fracas"
    want = _fight(other, "the goblin flees", turns=2)
    _copy_over(other, path)
    assert fol.poll()
    assert _is(fol, want) and fol.problem == "" and fol.reloads == 1


def _half_record(path: Path) -> None:
    """The next record of the fight in `path`, half of it appended: a writer killed mid-record."""
    copy = path.with_name("copy.fracas")
    shutil.copyfile(path, copy)
    size = copy.stat().st_size
    with Session.open(copy) as t:
        t.apply(C.NextTurn())
    frame = copy.read_bytes()[size:]
    copy.unlink()
    with open(path, "ab") as fh:
        fh.write(frame[: len(frame) // 2])


def test_a_fight_copied_over_a_record_still_being_written(tmp_path: Path) -> None:
    """Waiting for a torn tail, then a fight a few bytes longer than what was read (but shorter than
    the file with its torn tail) is copied over: read, not waited for as the same torn record."""
    path = tmp_path / "f.fracas"
    _fight(path, "the goblin flees")
    read = path.stat().st_size
    _half_record(path)
    fol = Follower(path)
    assert "still being written" in fol.notice
    torn = path.stat().st_size
    other, want = _other(tmp_path, read, range(1, min(fmt.FRAME_SIZE, torn - read)))
    _copy_over(other, path)
    assert path.stat().st_size < torn
    assert fol.poll()
    assert _is(fol, want) and fol.problem == "" and fol.reloads == 1


@pytest.fixture
def frozen_times(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The file's times never move (every write within one tick of a coarse clock) and the clock is
    what the test says: the follower has only the bytes to go by."""
    at = 1_700_000_000 * 10**9
    clock = [at + 1]
    real_of = follow._of  # noqa: SLF001

    def frozen(st: os.stat_result) -> follow.Identity:
        return dataclasses.replace(real_of(st), mtime_ns=at, ctime_ns=at)

    monkeypatch.setattr(follow, "_of", frozen)
    monkeypatch.setattr(follow, "_identity", lambda path: frozen(os.stat(path)))
    monkeypatch.setattr(follow, "_now", lambda: clock[0])
    return clock


@pytest.fixture
def same_second(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every fight made in the same second: the headers differ only where the test makes them."""
    real = fmt.new_header
    monkeypatch.setattr(
        fmt, "new_header", lambda root: msgspec.structs.replace(real(root), created="2024-01-01T00:00:00+00:00")
    )


def _middle_only(a: bytes, b: bytes) -> bool:
    """Two files that differ, but neither in the first nor the last bytes the follower keeps."""
    head, tail = follow._HEAD, follow._TAIL  # noqa: SLF001
    return a != b and a[:head] == b[:head] and a[-tail:] == b[-tail:]


@pytest.mark.usefixtures("same_second")
def test_rewrites_that_leave_the_times_as_they_were(tmp_path: Path, frozen_times: list[int]) -> None:
    path = tmp_path / "f.fracas"
    demo = demo_history("d20").state
    # long enough that the middle is in neither the first nor the last bytes kept of what was read
    _fight(path, "the goblin flees", turns=200, start=demo)
    size = path.stat().st_size
    assert size > follow._HEAD + follow._TAIL + 1000  # noqa: SLF001
    fol = Follower(path)

    # a fight whose only difference is a name of the same length, in the header: seen at once
    grey = next(i for i, c in enumerate(demo.combatants) if c.name == "Grey Wolf")
    names = list(demo.combatants)
    names[grey] = msgspec.structs.replace(names[grey], name="Grey Hawk")
    renamed = msgspec.structs.replace(demo, combatants=tuple(names))
    other, want = _other(tmp_path, size, range(0, 1), turns=200, start=renamed)
    _copy_over(other, path)
    assert fol.poll()
    assert _is(fol, want) and fol.reloads == 1
    other.unlink()

    # only a note in the middle differs: the times have not settled, so only the ends are checked
    # (cheaply) on each poll; once they have, every byte once, and the rewrite is read
    other, want = _other(tmp_path, size, range(0, 1), turns=200, start=renamed, who="wolf")
    assert _middle_only(path.read_bytes(), other.read_bytes())
    _copy_over(other, path)
    checks = fol.checks
    for _ in range(3):
        assert not fol.poll()
    assert fol.checks == checks and fol.reloads == 1
    frozen_times[0] += follow.SETTLE_NS
    assert fol.poll()
    assert _is(fol, want) and fol.reloads == 2 and "rewritten" in fol.notice
    # settled: nothing more is read while nothing changes
    frozen_times[0] += follow.SETTLE_NS
    assert not fol.poll()
    checks = fol.checks
    for _ in range(5):
        assert not fol.poll()
    assert fol.checks == checks


@pytest.mark.usefixtures("same_second")
def test_a_torn_tail_kept_while_the_bytes_before_it_change(tmp_path: Path, frozen_times: list[int]) -> None:
    """A record still being written is waited for, but not forever: the bytes before it rewritten
    (the times unmoved, the torn tail the same) are seen once the times settle, and read again."""
    path = tmp_path / "f.fracas"
    _fight(path, "the goblin flees", turns=200)
    read = path.stat().st_size
    _half_record(path)
    tail = path.read_bytes()[read:]
    fol = Follower(path)
    assert "still being written" in fol.notice
    other, want = _other(tmp_path, read, range(0, 1), turns=200, who="wolf")
    new = other.read_bytes() + tail  # another fight, then the same torn tail
    assert _middle_only(path.read_bytes()[:read], new[:read])
    path.write_bytes(new)
    for _ in range(3):
        assert not fol.poll()
        assert "still being written" in fol.notice and fol.reloads == 0
    frozen_times[0] += follow.SETTLE_NS
    assert fol.poll()
    assert _is(fol, want) and fol.reloads == 1 and fol.problem == ""


def test_appends_are_read_incrementally_not_the_whole_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "f.fracas"
    s = _session(path)
    fol = Follower(path)
    parses = []
    real = journal.parse
    monkeypatch.setattr(journal, "parse", lambda *a, **k: parses.append(1) or real(*a, **k))
    s.apply(C.StartFight())
    for _ in range(20):
        s.apply(C.NextTurn())
        assert fol.poll()
        _same(fol, s)
        fol.poll()
    s.undo()
    assert fol.poll()
    _same(fol, s)
    # once the file's times have settled, every byte read is checked once, and it is still the same
    clock = [follow._now() + follow.SETTLE_NS]  # noqa: SLF001
    monkeypatch.setattr(follow, "_now", lambda: clock[0])
    checks = fol.checks
    assert not fol.poll()
    assert fol.checks == checks + 1
    checks = fol.checks
    for _ in range(5):
        assert not fol.poll()
    assert fol.checks == checks  # and then only a stat per poll
    s.apply(C.NextTurn())
    assert fol.poll()
    _same(fol, s)
    assert parses == [] and fol.reloads == 0 and fol.notice == ""
    s.close()
