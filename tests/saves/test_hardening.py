"""Issue 11 (hardening): a fight's file replaced, removed or grown under it; foreign bytes; memory
bombs; hostile values; read-only files; terminal output. Each test fails without its fix."""

from __future__ import annotations

import argparse
import errno
import fcntl
import os
import zlib
from pathlib import Path
from typing import Any

import msgspec
import pytest

from engine import RuleError, new_fight
from engine import commands as C
from engine.state import Combatant, Fight
from saves import cli, journal
from saves import format as fmt
from saves.errors import ReadOnlyError, SaveError
from saves.session import Session
from saves.store import list_saves, save_info
from tests.saves.util import assert_same_history


def started(path: Path, rules: str = "d20", seed: int = 5) -> Session:
    s = Session.create(path, new_fight(rules, "Test fight", seed))
    s.apply(C.AddCombatant(name="Hero", kind="pc", side="party", stats=(("hp", 30), ("dex", 14))))
    s.apply(C.AddCombatant(name="Goblin", count=3, stats=(("hp", 7), ("dex", 12))))
    s.apply(C.StartFight())
    return s


def recovered(folder: Path, stem: str = "f") -> list[Path]:
    return sorted(folder.glob(f"{stem}-recovered-*.fracas"))


# --- A: the file replaced or removed under an open fight ---------------------------------------


def test_check_file_is_quiet_while_the_file_is_ours(tmp_path: Path) -> None:
    s = started(tmp_path / "f.fracas")
    assert s.check_file() == ""
    s.apply(C.Damage(who="c2", amount=3))
    s.undo()
    s.redo()
    assert s.check_file() == "" and s.pop_notices() == [] and recovered(tmp_path) == []


@pytest.mark.parametrize("how", ["replaced", "removed", "grew"])
def test_a_replaced_removed_or_grown_file_moves_the_fight_to_safety(tmp_path: Path, how: str) -> None:
    path = tmp_path / "f.fracas"
    s = started(path)
    s.apply(C.Damage(who="c2", amount=3))
    if how == "replaced":  # what `fracas export f.fracas -o f.fracas` from elsewhere did
        tmp = tmp_path / "other"
        tmp.write_bytes(b"# an export\n")
        os.replace(tmp, path)
    elif how == "removed":
        path.unlink()
    else:
        with open(path, "ab") as f:
            f.write(b"foreign bytes")
    outside = path.read_bytes() if path.exists() else None
    notice = s.check_file()
    assert "f.fracas" in notice and "all 4 commands" in notice and "\n" not in notice
    (new,) = recovered(tmp_path)
    assert new.name in notice and s.path == new
    assert s.check_file() == ""  # said once
    s.apply(C.Damage(who="c3", amount=2))
    s.close()
    again = Session.open(new, readonly=True)
    assert_same_history(s.history, again.history)
    # the other program's file is left exactly as it is
    assert (path.read_bytes() if path.exists() else None) == outside


def test_a_copy_of_a_copy_keeps_the_original_name(tmp_path: Path) -> None:
    path = tmp_path / "f.fracas"
    s = started(path)
    for _ in range(3):
        assert s.path is not None
        s.path.unlink()
        assert "goes on in" in s.check_file()
    assert s.path is not None and s.path.name.count("recovered") == 1
    assert s.path.name.startswith("f-recovered-")


def test_apply_checks_the_file_first_and_queues_the_notice(tmp_path: Path) -> None:
    path = tmp_path / "f.fracas"
    s = started(path)
    path.unlink()
    s.apply(C.Damage(who="c2", amount=3))  # not written into the deleted file
    (notice,) = s.pop_notices()
    assert "removed" in notice
    assert s.pop_notices() == []
    (new,) = recovered(tmp_path)
    assert_same_history(s.history, Session.open(new, readonly=True).history)
    s.undo()
    s.redo()
    assert s.pop_notices() == [] and s.check_file() == ""


def test_when_no_copy_can_be_written_nothing_is_acknowledged(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "f.fracas"
    s = started(path)
    from saves import journal

    def no_space(*a: object, **k: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(journal, "atomic_write", no_space)
    path.unlink()
    notice = s.check_file()
    assert "memory" in notice and "\n" not in notice
    before = s.history.state
    with pytest.raises(SaveError) as err:
        s.apply(C.Damage(who="c2", amount=3))
    assert "\n" not in str(err.value) and s.history.state == before
    with pytest.raises(SaveError):
        s.undo()
    monkeypatch.undo()  # space again: the next command saves the fight to a new file first
    s.apply(C.Damage(who="c2", amount=3))
    assert any("goes on in" in n for n in s.pop_notices())
    (new,) = recovered(tmp_path)
    assert_same_history(s.history, Session.open(new, readonly=True).history)


def test_recovery_goes_to_the_data_folder_when_the_folder_is_gone(tmp_path: Path) -> None:
    folder = tmp_path / "table"
    folder.mkdir()
    path = folder / "f.fracas"
    s = started(path)
    path.unlink()
    folder.rmdir()
    notice = s.check_file()
    from saves.store import default_dir

    (new,) = recovered(default_dir())
    assert new.name in notice and s.path == new
    s.apply(C.NextTurn())
    assert_same_history(s.history, Session.open(new, readonly=True).history)


def test_readonly_and_memory_sessions_have_nothing_to_check(tmp_path: Path) -> None:
    assert Session.memory(new_fight("d20")).check_file() == ""
    path = tmp_path / "f.fracas"
    started(path).close()
    r = Session.open(path, readonly=True)
    assert r.check_file() == "" and r.pop_notices() == []
    with pytest.raises(RuleError):
        r.apply(C.NextTurn())


# --- A: export never replaces a save, nor a locked file ---------------------------------------


def ns(**kw: object) -> argparse.Namespace:
    return argparse.Namespace(**kw)


def test_export_refuses_to_overwrite_a_save_even_one_in_play(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a, b = tmp_path / "a.fracas", tmp_path / "b.fracas"
    started(a).close()
    app = started(b)  # another Fracas is playing b
    seen = b.read_bytes()
    assert cli.cmd_export(ns(file=a, json=False, markdown=True, output=b)) == 1
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and "Fracas save" in err[0] and "Traceback" not in err[0]
    assert b.read_bytes() == seen and app.check_file() == ""
    app.close()
    assert cli.cmd_export(ns(file=a, json=True, markdown=False, output=b)) == 1  # closed: still a save
    assert b.read_bytes() == seen


def test_export_replaces_a_plain_file_but_not_a_locked_one(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a = tmp_path / "a.fracas"
    started(a).close()
    out = tmp_path / "notes.md"
    out.write_text("old notes")
    assert cli.cmd_export(ns(file=a, json=False, markdown=True, output=out)) == 0
    assert out.read_text().startswith("# Test fight")
    out.write_text("old notes")
    with open(out, "rb") as held:
        fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
        assert cli.cmd_export(ns(file=a, json=False, markdown=True, output=out)) == 1
    assert "locked" in capsys.readouterr().err and out.read_text() == "old notes"


def test_appends_go_to_the_journal_end_not_after_foreign_bytes(tmp_path: Path) -> None:
    path = tmp_path / "f.fracas"
    s = started(path)
    s.close()  # the descriptor a writable open uses has no O_APPEND
    fd = journal.open_locked(path)
    try:
        assert not fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_APPEND
    finally:
        os.close(fd)


# --- C and D: hostile values and compression bombs -------------------------------------------


def header_raw(fight: Fight | None = None) -> dict[str, Any]:
    h = fmt.new_header(fight or new_fight("d20", "Hostile", 1))
    return msgspec.msgpack.decode(msgspec.msgpack.encode(h))


def file_of(raw_header: dict[str, Any] | bytes, *records: tuple[int, bytes]) -> bytes:
    payload = raw_header if isinstance(raw_header, bytes) else msgspec.msgpack.encode(raw_header)
    out = [fmt.MAGIC, fmt.frame(fmt.HEADER, payload)]
    out += [fmt.frame(kind, data) for kind, data in records]
    return b"".join(out)


def refused(tmp_path: Path, data: bytes, *words: str) -> str:
    path = tmp_path / "hostile.fracas"
    path.write_bytes(data)
    for readonly in (True, False):
        with pytest.raises(SaveError) as err:
            Session.open(path, readonly=readonly)
        text = str(err.value)
        assert "\n" not in text and "hostile.fracas" in text and "Error" not in text, text
        for w in words:
            assert w in text, text
    assert path.read_bytes() == data
    return text


def test_arrays_nested_deep_in_a_header_are_one_line(tmp_path: Path) -> None:
    plain = msgspec.msgpack.encode({**header_raw(), "junk": 0})
    deep = plain.replace(b"\xa4junk\x00", b"\xa4junk" + b"\x91" * 100_000 + b"\x90")
    refused(tmp_path, file_of(deep), "nested too deeply")


def test_arrays_nested_deep_in_a_record_are_one_line(tmp_path: Path) -> None:
    step = msgspec.msgpack.encode({"p": 0, "c": {"cmd": "note", "text": "x"}, "junk": 0})
    deep = step.replace(b"\xa4junk\x00", b"\xa4junk" + b"\x91" * 100_000 + b"\x90")
    refused(tmp_path, file_of(header_raw(), (fmt.STEP, deep)), "offset")


@pytest.mark.parametrize("counter", [2**64 - 1, 2**63, -1])
def test_a_dice_counter_out_of_range_is_refused(tmp_path: Path, counter: int) -> None:
    raw = header_raw()
    raw["root"]["rng"] = {"type": "rng", "seed": 1, "counter": counter}
    refused(tmp_path, file_of(raw), "header")


def test_huge_ints_are_refused(tmp_path: Path) -> None:
    # the clock's number (d20's slot) sits inside the ruleset's own clock struct
    for field, value in (
        ("round", -(2**63)),
        ("next_id", 2**63 + 5),
        ("clock", {"type": "d20", "slot": 2**62 + 1}),
        ("clock", {"type": "d20", "slot": -(2**63)}),
    ):
        raw = header_raw()
        assert raw["root"]["ruleset"] == "d20"
        raw["root"][field] = value
        text = refused(tmp_path, file_of(raw), "header")
        # the reader's own check, or the engine's type constraint where it has one
        assert "out of range" in text or "Expected `int`" in text, text


@pytest.mark.parametrize("bad", ["bad id", "c0", "c1\n", "", "x" * 50, "c01"])
def test_a_bad_combatant_id_is_refused_in_a_header(tmp_path: Path, bad: str) -> None:
    f = new_fight("d20", "Hostile", 1)
    f = msgspec.structs.replace(f, combatants=(Combatant(id=bad, name="Gob"),), next_id=2)
    refused(tmp_path, file_of(header_raw(f)), "header")


@pytest.mark.parametrize("setter", [
    {"f": "current", "v": "bad id"},
    {"f": "order", "v": ["c1", "bad id"]},
    {"f": "rng", "v": {"type": "rng", "seed": 0, "counter": 2**64 - 1}},
    {"f": "next_id", "v": 0},
])
def test_a_bad_value_set_by_a_delta_is_refused(tmp_path: Path, setter: dict[str, Any]) -> None:
    step = msgspec.msgpack.encode({"p": 0, "c": {"cmd": "note", "text": "x"}, "d": {"f": [setter]}})
    refused(tmp_path, file_of(header_raw(), (fmt.STEP, step)), "step record")


def test_a_bad_combatant_in_a_delta_is_refused(tmp_path: Path) -> None:
    new = {"type": "combatant", "id": "c1", "name": "Gob", "owner": "not an id"}
    step = msgspec.msgpack.encode({"p": 0, "c": {"cmd": "note", "text": "x"}, "d": {"l": [new]}})
    refused(tmp_path, file_of(header_raw(), (fmt.STEP, step)), "step record")
    twice = {"type": "combatant", "id": "c1", "name": "Gob"}
    step = msgspec.msgpack.encode({"p": 0, "c": {"cmd": "note", "text": "x"}, "d": {"l": [twice, twice]}})
    refused(tmp_path, file_of(header_raw(), (fmt.STEP, step)), "two combatants")


def test_a_name_with_control_characters_from_an_earlier_fracas_still_opens(tmp_path: Path) -> None:
    # the engine refuses such names now, but a fight saved before it did must not be lost
    f = msgspec.structs.replace(new_fight("d20", "Hostile", 1), name="Troll \x1b[2J")
    path = tmp_path / "old.fracas"
    path.write_bytes(file_of(header_raw(f)))
    with Session.open(path) as s:
        assert s.state.name == "Troll \x1b[2J"
        s.apply(C.Note("still saving"))
    with Session.open(path, readonly=True) as s:
        assert s.state.name == "Troll \x1b[2J" and len(s.history.nodes) == 2


def bomb(window: bytes, size: int) -> bytes:
    """A step record padded with `size` bytes of note text, deflated against `window`."""
    raw = msgspec.msgpack.encode({"p": 0, "c": {"cmd": "note", "text": "x" * size}})
    co = zlib.compressobj(9, zlib.DEFLATED, -15, 8, zdict=window)
    return co.compress(raw) + co.flush()


def test_one_record_inflating_far_beyond_its_size_is_refused(tmp_path: Path) -> None:
    raw = msgspec.msgpack.encode(header_raw())
    packed = bomb(fmt.slide(b"", raw, fmt.WINDOW), 8 * 1024 * 1024)
    assert len(packed) < 20_000
    refused(tmp_path, file_of(raw, (fmt.STEP | fmt.COMPRESSED, packed)), "inflates to more than")


def test_many_small_bombs_stop_at_the_files_budget(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fmt, "INFLATE_FLOOR", 1024 * 1024)  # the same rule, at a size a test can afford
    raw = msgspec.msgpack.encode(header_raw())
    window = fmt.slide(b"", raw, fmt.WINDOW)
    records = []
    for i in range(40):
        text = "y" * 60_000
        step = msgspec.msgpack.encode({"p": i, "c": {"cmd": "note", "text": text}, "d": {}})
        co = zlib.compressobj(9, zlib.DEFLATED, -15, 8, zdict=window)
        records.append((fmt.STEP | fmt.COMPRESSED, co.compress(step) + co.flush()))
        window = fmt.slide(window, step, fmt.WINDOW)
    refused(tmp_path, file_of(raw, *records), "far more than a save of this size")


def test_the_writer_refuses_what_the_reader_would(tmp_path: Path) -> None:
    s = started(tmp_path / "f.fracas")
    before = (tmp_path / "f.fracas").read_bytes()
    # out of the reader's range: refused by the engine (RuleError) or else by the writer (SaveError)
    with pytest.raises((SaveError, RuleError)) as err:
        s.apply(C.SetInitiative(who="c1", value=2**62 + 1))
    assert "\n" not in str(err.value)
    assert (tmp_path / "f.fracas").read_bytes() == before
    s.close()
    assert Session.open(tmp_path / "f.fracas").check_file() == ""


# --- B: foreign bytes inside a file, and repair ------------------------------------------------


def frame_starts(data: bytes) -> list[int]:
    out, pos = [], len(fmt.MAGIC)
    while pos < len(data):
        out.append(pos)
        pos += fmt.FRAME_SIZE + fmt.unpack_frame(data, pos)[0]
    return out


def test_repair_keeps_the_records_before_and_after_a_foreign_stretch(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "f.fracas"
    s = started(path)
    for i in range(6):
        s.apply(C.Damage(who="c2", amount=1 + i % 3))
        s.apply(C.NextTurn())
    s.undo()
    s.close()
    good = path.read_bytes()
    at = frame_starts(good)[7]
    foreign = b"\x00garbage from another program\xff" * 3
    bad = good[:at] + foreign + good[at:]
    path.write_bytes(bad)
    assert cli.cmd_check(ns(file=path, repair=False)) == 1 and path.read_bytes() == bad
    capsys.readouterr()
    assert cli.cmd_check(ns(file=path, repair=True)) == 0
    out = capsys.readouterr().out
    assert f"{len(foreign)} bytes at offset {at}" in out and "repaired" in out
    (backup,) = tmp_path.glob("*.bak")
    assert backup.read_bytes() == bad
    back = Session.open(path, readonly=True)
    assert back.notices == []
    assert_same_history(s.history, back.history)  # every record, before and after the stretch


def test_repair_keeps_the_prefix_when_what_follows_cannot_continue(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "f.fracas"
    s = started(path)
    for _ in range(4):
        s.apply(C.Damage(who="c2", amount=1))
    s.close()
    good = path.read_bytes()
    starts = frame_starts(good)
    at = starts[4]  # overwrite a whole record: the ones after it no longer fit the fight
    bad = bytearray(good)
    bad[at : starts[5]] = b"\xee" * (starts[5] - at)
    path.write_bytes(bytes(bad))
    assert cli.cmd_check(ns(file=path, repair=True)) == 0
    out = capsys.readouterr().out
    assert "do not continue the fight" in out and "kept" in out
    back = Session.open(path, readonly=True)
    assert len(back.history.nodes) == 4  # the root and the three steps before the damage
    for a, b in zip(back.history.nodes, s.history.nodes, strict=False):
        assert a.state == b.state and a.command == b.command


def test_repair_never_guesses_about_the_header(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "f.fracas"
    started(path).close()
    bad = bytearray(path.read_bytes())
    bad[len(fmt.MAGIC) + 20] ^= 0xFF
    path.write_bytes(bytes(bad))
    assert cli.cmd_check(ns(file=path, repair=True)) == 1
    assert len(capsys.readouterr().err.splitlines()) == 1
    assert path.read_bytes() == bytes(bad) and not list(tmp_path.glob("*.bak"))


# --- E: read-only files ---------------------------------------------------------------------------


def refuse_writes(monkeypatch: pytest.MonkeyPatch, err: int, paths: tuple[Path, ...] = ()) -> None:
    """os.open failing with `err` for writing (root ignores file modes, so chmod cannot show this)."""
    real = os.open

    def fake(path: Any, flags: int, *a: Any, **k: Any) -> int:
        writing = flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT)
        if writing and (not paths or any(str(path).startswith(str(p)) for p in paths)):
            raise OSError(err, os.strerror(err), str(path))
        return real(path, flags, *a, **k)

    monkeypatch.setattr(os, "open", fake)


@pytest.mark.parametrize("err", [errno.EACCES, errno.EPERM, errno.EROFS])
def test_a_file_that_cannot_be_written_is_a_read_only_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, err: int
) -> None:
    path = tmp_path / "f.fracas"
    started(path).close()
    refuse_writes(monkeypatch, err)
    with pytest.raises(ReadOnlyError) as exc:
        Session.open(path)
    assert "read-only" in str(exc.value) and "\n" not in str(exc.value)
    s = Session.open_or_readonly(path)
    assert s.readonly and s.notices[0].startswith("opened read-only: ")
    assert len(s.history.nodes) == 4


def test_a_torn_file_in_a_read_only_folder_is_a_read_only_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "f.fracas"
    started(path).close()
    data = path.read_bytes()
    path.write_bytes(data[:-3])  # a torn tail: opening for writing needs a backup next to it
    real = os.open

    def fake(p: Any, flags: int, *a: Any, **k: Any) -> int:
        if flags & os.O_CREAT:  # the file itself opens, nothing new can be created in the folder
            raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(p))
        return real(p, flags, *a, **k)

    monkeypatch.setattr(os, "open", fake)
    with pytest.raises(ReadOnlyError):
        Session.open(path)
    s = Session.open_or_readonly(path)
    assert s.readonly and s.notices[0].startswith("opened read-only: ") and len(s.notices) == 2
    assert path.read_bytes() == data[:-3]


def test_open_or_readonly_when_another_fracas_has_it(tmp_path: Path) -> None:
    path = tmp_path / "f.fracas"
    app = started(path)
    s = Session.open_or_readonly(path)
    assert s.readonly and "another running Fracas" in s.notices[0]
    app.close()
    w = Session.open_or_readonly(path)
    assert not w.readonly and w.notices == []


# --- C: the list reads headers only -----------------------------------------------------------------


def test_list_reads_headers_and_the_list_facts(tmp_path: Path) -> None:
    s = started(tmp_path / "a.fracas")
    s.apply(C.NextTurn())
    s.undo()
    info = save_info(tmp_path / "a.fracas")
    assert (info.name, info.ruleset, info.known, info.started, info.round) == ("Test fight", "d20", True, True, 1)
    assert info.commands == 3 and info.size == (tmp_path / "a.fracas").stat().st_size
    s.close()
    # a copy without the facts (or with stale ones) says so instead of guessing
    (tmp_path / "b.fracas").write_bytes((tmp_path / "a.fracas").read_bytes())
    info = save_info(tmp_path / "b.fracas")
    assert info.name == "Test fight" and not info.known and info.round == 0
    with open(tmp_path / "a.fracas", "ab") as f:
        f.write(b"x")
    assert not save_info(tmp_path / "a.fracas").known


def test_listing_a_16_mb_bomb_is_quick(tmp_path: Path) -> None:
    raw = msgspec.msgpack.encode(header_raw())
    window = fmt.slide(b"", raw, fmt.WINDOW)
    packed = bomb(window, 8 * 1024 * 1024)
    records = [(fmt.STEP | fmt.COMPRESSED, packed)] * (16 * 1024 * 1024 // len(packed))
    path = tmp_path / "bomb.fracas"
    path.write_bytes(file_of(raw, *records))
    started(tmp_path / "good.fracas").close()
    import time
    import tracemalloc

    tracemalloc.start()
    t = time.perf_counter()
    infos = list_saves(tmp_path)
    took = time.perf_counter() - t
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert took < 0.5 and peak < 5 * 1024 * 1024, (took, peak)
    assert [i.path.name for i in infos if not i.error] == ["bomb.fracas", "good.fracas"] or len(infos) == 2
    with pytest.raises(SaveError):  # and opening it is refused, not a memory blow-up
        Session.open(path, readonly=True)


# --- F: terminal output ----------------------------------------------------------------------------


def test_paths_are_printable_in_check_and_list(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "evil\x1b]0;title\x07"
    folder.mkdir()
    path = folder / "f\x1b[2J.fracas"
    started(path).close()
    assert cli.cmd_check(ns(file=path, repair=False)) == 0
    assert cli.cmd_list(ns(dir=folder)) == 0
    empty = tmp_path / "empty\x1b[31m"
    empty.mkdir()
    assert cli.cmd_list(ns(dir=empty)) == 0
    got = capsys.readouterr()
    assert "\x1b" not in got.out and "\x07" not in got.out and "\x1b" not in got.err


def test_a_list_longer_than_a_fight_can_hold_is_refused_unread(tmp_path: Path) -> None:
    from engine.core import MAX_COMBATANTS

    assert fmt.MAX_COMBATANTS == MAX_COMBATANTS
    many = [{"type": "combatant", "id": f"c{i + 1}", "name": "Gob"} for i in range(MAX_COMBATANTS + 1)]
    step = msgspec.msgpack.encode({"p": 0, "c": {"cmd": "note", "text": "x"}, "d": {"l": many}})
    refused(tmp_path, file_of(header_raw(), (fmt.STEP, step)), "step record")


# --- soak: other programs touching the file of a fight in play ------------------------------------


@pytest.mark.soak
def test_interference_never_loses_an_acknowledged_command(tmp_path: Path) -> None:
    import random

    from tests.saves.util import SOAK, play

    rng = random.Random(1111)
    runs = 300 if SOAK else 8
    for run in range(runs):
        folder = tmp_path / str(run)
        folder.mkdir()
        path = folder / "f.fracas"
        s = Session.create(path, new_fight("d20", "Interfered", run))
        moves = play("d20", run, 40)
        for move in moves:
            if rng.random() < 0.1:
                target = s.path
                assert target is not None
                what = rng.randrange(4)
                if what == 0:
                    (folder / "tmp").write_bytes(rng.randbytes(rng.randint(0, 300)))
                    os.replace(folder / "tmp", target)
                elif what == 1:
                    target.unlink()
                elif what == 2:
                    with open(target, "ab") as f:
                        f.write(rng.randbytes(rng.randint(1, 100)))
                else:
                    os.truncate(target, max(len(fmt.MAGIC), target.stat().st_size - rng.randint(1, 50)))
            if move == "undo":
                s.undo()
            elif move == "redo":
                s.redo()
            else:
                s.apply(move)
            for notice in s.pop_notices():
                assert "\n" not in notice and "goes on in" in notice, notice
        assert s.check_file() == ""
        s.close()
        assert s.path is not None
        back = Session.open(s.path, readonly=True)
        assert_same_history(s.history, back.history)
