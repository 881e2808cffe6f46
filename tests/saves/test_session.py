"""The file-backed Session's promises, one by one."""

from __future__ import annotations

import errno
import os
from pathlib import Path
from typing import Any

import msgspec
import pytest

from engine import RuleError, new_fight
from engine import commands as C
from saves import format as fmt
from saves import journal
from saves.errors import LockedError, SaveError
from saves.session import Session
from saves.store import default_dir, list_saves
from tests.saves.util import assert_same_history, build_file


def started(path: Path, rules: str = "d20", seed: int = 5) -> Session:
    s = Session.create(path, new_fight(rules, "Test fight", seed))
    s.apply(C.AddCombatant(name="Hero", kind="pc", side="party", stats=(("hp", 30), ("dex", 14))))
    s.apply(C.AddCombatant(name="Goblin", count=3, stats=(("hp", 7), ("dex", 12))))
    s.apply(C.StartFight())
    return s


def frames(data: bytes) -> list[tuple[int, int, int]]:
    """(offset, kind, total frame size) of every frame after the magic."""
    out = []
    pos = len(fmt.MAGIC)
    while pos < len(data):
        length, kind, _, _ = fmt.unpack_frame(data, pos)
        out.append((pos, kind, fmt.FRAME_SIZE + length))
        pos += fmt.FRAME_SIZE + length
    return out


def one_line(exc: BaseException, path: Path) -> str:
    text = str(exc)
    assert "\n" not in text and path.name in text
    return text


# --- creating ---------------------------------------------------------------------------------


def test_create_refuses_to_overwrite(tmp_path: Path) -> None:
    path = tmp_path / "f.fracas"
    path.write_bytes(b"precious")
    with pytest.raises(SaveError) as err:
        Session.create(path, new_fight("d20"))
    assert "already exists" in one_line(err.value, path)
    assert path.read_bytes() == b"precious"
    with pytest.raises(SaveError, match="folder does not exist"):
        Session.create(tmp_path / "nowhere" / "f.fracas", new_fight("d20"))


def test_create_leaves_no_temporary_files(tmp_path: Path) -> None:
    s = started(tmp_path / "f.fracas")
    s.save_as(tmp_path / "g.fracas")
    s.close()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["f.fracas", "g.fracas"]


def test_every_command_is_in_the_file_when_apply_returns(tmp_path: Path) -> None:
    path = tmp_path / "f.fracas"
    s = started(path)
    s.apply(C.Damage(who="c2", dice="2d6"))
    # a second reader sees it at once: nothing is buffered in the session
    other = Session.open(path, readonly=True)
    assert_same_history(s.history, other.history)
    s.undo()
    assert Session.open(path, readonly=True).history.cursor == s.history.cursor
    s.close()


def test_rule_error_writes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "f.fracas"
    s = started(path)
    before = path.read_bytes()
    with pytest.raises(RuleError):
        s.apply(C.Damage(who="c99", amount=3))
    with pytest.raises(RuleError):
        s.apply(C.StartFight())
    assert path.read_bytes() == before
    assert len(s.history.nodes) == 4


def test_a_command_that_would_not_read_back_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "f.fracas"
    s = started(path)
    before = path.read_bytes()
    with pytest.raises(SaveError, match="cannot be saved"):
        s.apply(C.SetInitiative(who="c2", value=3.5))  # type: ignore[arg-type]  # a float where an int goes
    assert path.read_bytes() == before and len(s.history.nodes) == 4
    s.apply(C.NextTurn())
    s.close()
    assert_same_history(s.history, Session.open(path).history)


def test_oversized_record_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "f.fracas"
    s = started(path)
    before = path.read_bytes()
    monkeypatch.setattr(fmt, "MAX_RECORD", 40)
    with pytest.raises(SaveError, match="limit"):
        s.apply(C.Note(text="x" * 500))
    assert path.read_bytes() == before and len(s.history.nodes) == 4


# --- write failures -----------------------------------------------------------------------------


def test_disk_full_loses_only_the_failed_command(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "f.fracas"
    s = started(path)
    before = path.read_bytes()
    real_pwrite = os.pwrite

    def half_then_full(fd: int, data: Any, pos: int) -> int:
        real_pwrite(fd, bytes(data[: len(data) // 2]), pos)
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(journal.os, "pwrite", half_then_full)  # appends write at the journal's end
    with pytest.raises(SaveError) as err:
        s.apply(C.Damage(who="c2", amount=4))
    assert "No space left" in one_line(err.value, path)
    assert path.read_bytes() == before, "the half-written record was not cut off"
    assert len(s.history.nodes) == 4
    monkeypatch.setattr(journal.os, "pwrite", real_pwrite)
    s.apply(C.Damage(who="c2", amount=4))
    s.close()
    assert_same_history(s.history, Session.open(path).history)


def test_fsync_failure_is_reported_and_undone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "f.fracas"
    s = started(path)
    before = path.read_bytes()
    calls = {"n": 0}
    real = journal.fsync

    def failing(fd: int) -> None:
        calls["n"] += 1
        if calls["n"] == 1:
            raise OSError(errno.EIO, "Input/output error")
        real(fd)

    monkeypatch.setattr(journal, "fsync", failing)
    with pytest.raises(SaveError, match="Input/output error"):
        s.undo()
    assert path.read_bytes() == before and s.history.cursor == 3
    assert s.undo() is not None
    s.close()
    assert Session.open(path, readonly=True).history.cursor == 2


# --- read-only and locks ------------------------------------------------------------------------


def test_readonly_session_never_writes(tmp_path: Path) -> None:
    path = tmp_path / "f.fracas"
    started(path).close()
    before = path.read_bytes()
    ro = Session.open(path, readonly=True)
    for action in (lambda: ro.apply(C.NextTurn()), ro.undo, ro.redo):
        with pytest.raises(RuleError, match="read-only"):
            action()
    assert path.read_bytes() == before


def test_second_writer_gets_locked_error(tmp_path: Path) -> None:
    path = tmp_path / "f.fracas"
    first = started(path)
    with pytest.raises(LockedError) as err:
        Session.open(path)
    assert "another running Fracas" in one_line(err.value, path)
    assert isinstance(err.value, SaveError)
    ro = Session.open(path, readonly=True)  # reading is always allowed
    assert ro.state == first.state
    first.close()
    again = Session.open(path)
    again.apply(C.NextTurn())
    again.close()


def test_lock_follows_save_as(tmp_path: Path) -> None:
    s = started(tmp_path / "f.fracas")
    s.save_as(tmp_path / "g.fracas")
    with pytest.raises(LockedError):
        Session.open(tmp_path / "g.fracas")
    Session.open(tmp_path / "f.fracas").close()  # the old file was released
    s.close()


def test_closed_session_refuses_changes(tmp_path: Path) -> None:
    s = started(tmp_path / "f.fracas")
    s.close()
    s.close()
    with pytest.raises(RuleError, match="closed"):
        s.apply(C.NextTurn())


# --- history --------------------------------------------------------------------------------------


def test_branches_and_position_survive_save_as(tmp_path: Path) -> None:
    s = started(tmp_path / "f.fracas")
    s.apply(C.Damage(who="c2", amount=3))
    s.apply(C.NextTurn())
    s.undo()
    s.undo()
    s.apply(C.AddCondition(who="c3", name="Prone"))  # a new branch; the damage branch stays in the file
    s.apply(C.RemoveCombatant(who="c4"))
    s.undo()  # a redo is waiting at the cursor
    s.save_as(tmp_path / "g.fracas")
    s.close()
    for name in ("f.fracas", "g.fracas"):
        back = Session.open(tmp_path / name, readonly=True)
        assert_same_history(s.history, back.history)
        assert back.history.can_redo
    back = Session.open(tmp_path / "g.fracas")
    node = back.redo()
    assert node is not None and node.command == C.RemoveCombatant(who="c4")
    back.close()


def test_history_shares_unchanged_combatants(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fmt, "CHECKPOINT_EVERY", 3)
    path = tmp_path / "f.fracas"
    s = build_file(path, "d20", 11, 150)
    s.close()
    raw = path.read_bytes()
    c = fmt.codec()
    full = 0
    window = b""
    for pos, kind, size in frames(raw):
        payload = raw[pos + fmt.FRAME_SIZE : pos + size]
        if kind & fmt.COMPRESSED:
            payload = fmt.inflate(payload, window)
        window = fmt.slide(window, payload, fmt.WINDOW)
        if kind & ~fmt.COMPRESSED == fmt.STEP:
            full += c.step_decoder.decode(payload).state is not msgspec.UNSET
    assert full >= 2, "no checkpoint was written"
    back = Session.open(path, readonly=True)
    assert_same_history(s.history, back.history)
    shared = total = 0
    for node in back.history.nodes[1:]:
        before = back.history.nodes[node.parent].state.combatants
        for c1 in node.state.combatants:
            for c0 in before:
                if c0.id == c1.id:
                    total += 1
                    shared += c0 is c1 or c0 != c1
    assert shared == total, "an unchanged combatant was copied instead of shared"


# --- bad files ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        (b"", "empty"),
        (b"\x89FRA", "incomplete"),
        (b'{"cmd":"add","name":"Bob"}\n', "JSON"),
        (b"PK\x03\x04 some zip file", "not a Fracas save"),
        (fmt.MAGIC, "ends inside its header"),
        (fmt.MAGIC + b"\x00" * 5, "ends inside its header"),
    ],
)
def test_not_a_save(tmp_path: Path, content: bytes, problem: str) -> None:
    path = tmp_path / "f.fracas"
    path.write_bytes(content)
    for readonly in (True, False):
        with pytest.raises(SaveError) as err:
            Session.open(path, readonly=readonly)
        text = one_line(err.value, path)
        assert problem in text and "offset" in text
        assert path.read_bytes() == content


def test_missing_file_and_folder(tmp_path: Path) -> None:
    with pytest.raises(SaveError, match="cannot"):
        Session.open(tmp_path / "missing.fracas", readonly=True)
    with pytest.raises(SaveError, match="cannot"):
        Session.open(tmp_path / "missing.fracas")
    with pytest.raises(SaveError, match="folder"):
        Session.open(tmp_path, readonly=True)


def test_newer_format_is_refused_and_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "f.fracas"
    c = fmt.codec()
    header = msgspec.structs.replace(fmt.new_header(new_fight("d20")), format=fmt.FORMAT + 1)
    path.write_bytes(fmt.MAGIC + fmt.frame(fmt.HEADER, c.encode(header)) + b"whatever comes next")
    before = path.read_bytes()
    for readonly in (True, False):
        with pytest.raises(SaveError) as err:
            Session.open(path, readonly=readonly)
        assert "newer Fracas" in one_line(err.value, path)
    assert path.read_bytes() == before


def test_unknown_ruleset_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "f.fracas"
    c = fmt.codec()
    fight = msgspec.structs.replace(new_fight("d20"), ruleset="chess")
    header = fmt.Header(format=1, app="x", ruleset="chess", created="", root=fight)
    path.write_bytes(fmt.MAGIC + fmt.frame(fmt.HEADER, c.encode(header)))
    with pytest.raises(SaveError, match="chess"):
        Session.open(path, readonly=True)


def test_damage_in_the_middle_names_the_offset(tmp_path: Path) -> None:
    path = tmp_path / "f.fracas"
    s = started(path)
    for _ in range(5):
        s.apply(C.NextTurn())
    s.close()
    data = bytearray(path.read_bytes())
    pos, kind, size = frames(bytes(data))[3]
    data[pos + size - 1] ^= 0x10  # a flipped bit in the payload of a record in the middle
    path.write_bytes(bytes(data))
    for readonly in (True, False):
        with pytest.raises(SaveError) as err:
            Session.open(path, readonly=readonly)
        assert f"offset {pos}" in one_line(err.value, path) and "checksum" in str(err.value)
        assert path.read_bytes() == bytes(data)
    assert [p.name for p in tmp_path.iterdir()] == ["f.fracas"], "a failed load left files behind"


# --- torn tails -----------------------------------------------------------------------------------


def torn_file(path: Path) -> tuple[Session, bytes, int]:
    s = started(path)
    for _ in range(4):
        s.apply(C.Damage(who="c3", dice="1d4"))
    s.close()
    data = path.read_bytes()
    last, _, size = frames(data)[-1]
    return s, data, last


@pytest.mark.parametrize("cut", [1, 7, 12, 13, 14, -1])
def test_torn_tail_read_only_is_reported_and_untouched(tmp_path: Path, cut: int) -> None:
    path = tmp_path / "f.fracas"
    s, data, last = torn_file(path)
    torn = data[: last + cut] if cut > 0 else data[:-1]
    path.write_bytes(torn)
    ro = Session.open(path, readonly=True)
    assert len(ro.notices) == 1 and "torn last record" in ro.notices[0]
    assert len(ro.history.nodes) == len(s.history.nodes) - 1
    assert ro.state == s.history.nodes[-2].state
    assert path.read_bytes() == torn


def test_torn_tail_is_backed_up_then_cut_when_opened_for_writing(tmp_path: Path) -> None:
    path = tmp_path / "f.fracas"
    s, data, last = torn_file(path)
    torn = data[:-3]
    path.write_bytes(torn)
    w = Session.open(path)
    assert "torn last record" in w.notices[0] and ".bak" in w.notices[0]
    backups = [p for p in tmp_path.iterdir() if p.name.endswith(".bak")]
    assert len(backups) == 1 and backups[0].read_bytes() == torn
    assert path.read_bytes() == data[:last]
    # the next append lands right after the last good record
    w.apply(C.Note(text="after the crash"))
    w.close()
    back = Session.open(path, readonly=True)
    assert back.notices == [] and back.history.nodes[-1].command == C.Note(text="after the crash")
    assert back.history.nodes[-2].state == s.history.nodes[-2].state


def test_zeros_after_a_power_cut_are_a_torn_tail(tmp_path: Path) -> None:
    path = tmp_path / "f.fracas"
    s, data, last = torn_file(path)
    path.write_bytes(data[:last] + b"\x00" * 300)
    ro = Session.open(path, readonly=True)
    assert "zeros" in ro.notices[0]
    assert ro.state == s.history.nodes[-2].state


def test_a_damaged_last_record_is_dropped_like_a_torn_one(tmp_path: Path) -> None:
    path = tmp_path / "f.fracas"
    s, data, last = torn_file(path)
    broken = bytearray(data)
    broken[-2] ^= 0xFF
    path.write_bytes(bytes(broken))
    ro = Session.open(path, readonly=True)
    assert "did not fully reach the disk" in ro.notices[0]
    assert ro.state == s.history.nodes[-2].state


# --- upgrades -------------------------------------------------------------------------------------


def test_old_format_goes_through_the_upgrade_chain(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "f.fracas"
    s = started(path)
    s.apply(C.Note(text="written in format one"))
    s.close()
    v1 = path.read_bytes()  # the current format, read as if a newer Fracas had come since
    now = fmt.FORMAT
    seen: list[int] = []

    def one_to_two(kind: int, record: Any, context: dict[str, Any]) -> tuple[int, Any]:
        seen.append(kind)
        if kind == fmt.STEP and record["c"].get("cmd") == "note":
            record["c"]["text"] = record["c"]["text"].upper()  # what a real upgrade would reshape
        return kind, record

    monkeypatch.setattr(fmt, "FORMAT", now + 1)
    monkeypatch.setitem(fmt.UPGRADES, now, one_to_two)
    ro = Session.open(path, readonly=True)
    assert ro.history.nodes[-1].command == C.Note(text="WRITTEN IN FORMAT ONE")
    assert f"format {now}" in ro.notices[0] and fmt.HEADER in seen and fmt.STEP in seen
    assert path.read_bytes() == v1
    w = Session.open(path)  # writing: the file is rewritten in the new format, the old one kept
    assert "upgraded" in w.notices[0]
    assert [p for p in tmp_path.iterdir() if p.read_bytes() == v1 and p != path]
    w.apply(C.NextTurn())
    w.close()
    seen.clear()
    back = Session.open(path, readonly=True)
    assert back.header is not None and back.header.format == now + 1 and not seen and back.notices == []
    assert back.history.nodes[-2].command == C.Note(text="WRITTEN IN FORMAT ONE")


def test_missing_upgrade_is_a_clean_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "f.fracas"
    started(path).close()
    monkeypatch.setattr(fmt, "FORMAT", fmt.FORMAT + 1)
    with pytest.raises(SaveError, match=f"no upgrade from save format {fmt.FORMAT - 1} to {fmt.FORMAT}"):
        Session.open(path, readonly=True)


# --- where saves live -----------------------------------------------------------------------------


def test_default_dir_follows_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "deep" / "saves"
    monkeypatch.setenv("FRACAS_DATA_DIR", str(target))
    assert default_dir() == target and target.is_dir()


def test_list_saves_newest_first_with_errors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FRACAS_DATA_DIR", str(tmp_path))
    a = started(tmp_path / "a.fracas", "d20")
    a.close()
    b = started(tmp_path / "b.fracas", "warhammer")
    b.apply(C.NextTurn())
    b.close()
    (tmp_path / "junk.fracas").write_bytes(b"not a save")
    (tmp_path / "notes.txt").write_text("ignored")
    (tmp_path / ".f.fracas.tmp-1-2").write_bytes(b"half a rewrite")
    os.utime(tmp_path / "a.fracas", (1_000_000, 1_000_000))
    os.utime(tmp_path / "b.fracas", (3_000_000, 3_000_000))
    os.utime(tmp_path / "junk.fracas", (2_000_000, 2_000_000))
    infos = list_saves()
    assert [i.path.name for i in infos] == ["b.fracas", "junk.fracas", "a.fracas"]
    assert infos[0].ruleset == "warhammer" and infos[0].round == 1 and infos[0].name == "Test fight"
    assert infos[1].error and "not a Fracas save" in infos[1].error
    assert list_saves(tmp_path / "missing") == []


def test_torn_file_behind_a_symlink_is_repaired_in_place(tmp_path: Path) -> None:
    real = tmp_path / "real.fracas"
    s, data, last = torn_file(real)
    real.write_bytes(data[:-2])
    link = tmp_path / "link.fracas"
    link.symlink_to(real)
    w = Session.open(link)
    w.close()
    assert link.is_symlink() and real.read_bytes() == data[:last]


def test_special_files_are_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.fracas"
    os.mkfifo(fifo)
    for readonly in (True, False):
        with pytest.raises(SaveError, match="not a regular file"):
            Session.open(fifo, readonly=readonly)


def test_a_failing_upgrade_is_a_clean_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "f.fracas"
    started(path).close()

    def broken(kind: int, record: Any, context: dict[str, Any]) -> tuple[int, Any]:
        return kind, record["no such key"]

    now = fmt.FORMAT
    monkeypatch.setattr(fmt, "FORMAT", now + 1)
    monkeypatch.setitem(fmt.UPGRADES, now, broken)
    with pytest.raises(SaveError, match=f"cannot upgrade from format {now}"):
        Session.open(path, readonly=True)
