"""Reading and writing save files on disk: the journal reader, durable appends, atomic rewrites, locks.

Rules this module keeps (docs/save-format.md explains why):
- A failed load never writes anything. Only a successful writable open of a file with a torn tail
  changes the file, and only after a backup of the whole file is safely on disk.
- Appends are one `write` of one whole frame, then fsync; a failed append is cut off again.
- Rewrites go to a temporary file in the same directory, are fsync'd, renamed over (or linked to) the
  target, and the directory is fsync'd; the new file is locked before it gets its name.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import errno
import gc
import os
import re
import stat
import sys
import zlib
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import msgspec

from engine import RuleError, get_ruleset
from engine.history import History
from engine.state import state_hook
from saves import format as fmt
from saves.errors import LockedError, ReadOnlyError, SaveError

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows has no flock; files open unlocked there
    fcntl = None  # type: ignore[assignment]

_O_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_O_BINARY = getattr(os, "O_BINARY", 0)


class Loaded(msgspec.Struct):
    """A journal read back: the header, the rebuilt history, and what was left out."""

    header: fmt.Header
    history: History
    end: int  # offset just after the last good record
    size: int  # the file's size as read
    records: int
    since_checkpoint: int  # steps after the last full state (the writer's checkpoint policy)
    version: int = fmt.FORMAT  # the format the file was written in (older ones were upgraded)
    window: bytes = b""  # the compression window after the last good record (the writer goes on from it)
    torn: str = ""  # what was dropped from the end, for the notice ("" = nothing)
    dropped: list[str] = msgspec.field(default_factory=list)  # repair only: stretches skipped or cut


# --- reading ----------------------------------------------------------------------------------


def read_file(path: Path, fd: int | None = None) -> bytes:
    """The whole file, refusing sizes beyond the limit before reading them."""
    own = fd is None
    try:
        if own:
            if not stat.S_ISREG(os.stat(path).st_mode):  # before opening: a FIFO would block
                raise SaveError(path, describe_kind(path))
            fd = os.open(path, os.O_RDONLY | _O_CLOEXEC | _O_BINARY)
        assert fd is not None
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise SaveError(path, describe_kind(path))
        size = st.st_size
        if size > fmt.MAX_FILE:
            raise SaveError(path, f"the file is {size} bytes, more than a save can be ({fmt.MAX_FILE})", 0)
        chunks = []
        pos = 0
        while True:
            chunk = os.pread(fd, max(size - pos, 1 << 16), pos)
            if not chunk:
                break
            chunks.append(chunk)
            pos += len(chunk)
            if pos > fmt.MAX_FILE:
                raise SaveError(path, f"the file is more than a save can be ({fmt.MAX_FILE} bytes)", 0)
        return b"".join(chunks)
    except IsADirectoryError:
        raise SaveError(path, "this is a folder, not a save file") from None
    except OSError as exc:
        raise SaveError(path, f"cannot read the file: {exc.strerror or exc}") from None
    finally:
        if own and fd is not None:
            os.close(fd)


def describe_kind(path: Path) -> str:
    return "this is a folder, not a save file" if path.is_dir() else "not a regular file, so not a save"


def describe_start(data: bytes) -> str:
    """Why a file is not a save, in words a GM understands."""
    if not data:
        return "the file is empty: not a Fracas save"
    if fmt.MAGIC.startswith(data):
        return "the file ends inside its first bytes: an incomplete Fracas save"
    head = data[:64].lstrip()
    if head.startswith(b"{"):
        return "this looks like JSON (a script or an export?), not a Fracas save"
    return "not a Fracas save file (it does not start with the Fracas signature)"


def parse(path: Path, data: bytes, resync: bool = False) -> Loaded:
    """Read a whole journal from bytes. SaveError (one line, with the offset) for anything but a torn
    tail, which is left out and described in `Loaded.torn`.

    `resync` (for repair only): damage after the header does not stop the read. Bytes that are not a
    frame are skipped up to the next frame whose header and payload checksums hold, and reading goes
    on there if that record fits the fight; the first record that does not fit ends the read. What
    was skipped or cut is listed in `Loaded.dropped`."""
    if not data.startswith(fmt.MAGIC):
        raise SaveError(path, describe_start(data), 0)
    # a history of thousands of states allocates a lot and frees nothing: the cycle collector would
    # only slow the load down (states are gc=False structs; nodes form no cycles)
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        return _parse(path, data, resync)
    except RecursionError:  # a decoder or check nested too deep: one line, never a traceback
        raise SaveError(path, "a record is nested too deeply to be a save") from None
    finally:
        if was_enabled:
            gc.enable()


def _problem(exc: BaseException) -> str:
    """An unexpected decode-time failure in words, without the exception's class name."""
    if isinstance(exc, RecursionError):
        return "nested too deeply"
    if isinstance(exc, MemoryError):
        return "too large to read"
    text = " ".join(str(exc).split())[:200]
    return f"cannot be read ({text})" if text else "cannot be read"


def _parse(path: Path, data: bytes, resync: bool = False) -> Loaded:
    mv = memoryview(data)
    n = len(data)
    header_at = len(fmt.MAGIC)
    first = _frame_at(path, data, mv, header_at)
    if first is None or first[0] == "torn":
        raise SaveError(path, "the file ends inside its header: an incomplete save", header_at)
    _, kind, payload, pos = first
    if kind != fmt.HEADER:
        raise SaveError(path, "the first record is not a header", header_at)
    header, decode, version = _read_header(path, payload, header_at)
    replay = _Replay(header, decode, version, payload, n)
    records = 1
    torn = ""
    dropped: list[str] = []
    while pos < n:
        try:
            got = _frame(path, data, mv, pos)
        except SaveError:
            if not resync:
                raise
            # bytes that are no frame of this journal: skip to the next frame that checks out
            nxt = _next_frame(data, mv, pos + 1)
            dropped.append(f"{(nxt if nxt is not None else n) - pos} bytes at offset {pos} that are not a record")
            pos = n if nxt is None else nxt
            continue
        if got[0] == "torn":
            torn = str(got[1])
            break
        _, kind, payload, stop = got
        try:
            replay.record(kind, payload)
        except Exception as exc:  # anything a hostile record provokes is one clean line
            problem = _record_problem(kind, exc)
        else:
            records += 1
            pos = stop
            continue
        if not resync:
            raise SaveError(path, problem, pos)
        dropped.append(
            f"{n - pos} bytes from offset {pos} on, whose records do not continue the fight ({problem}); "
            "the fight up to there is kept"
        )
        pos = n
        break
    return Loaded(header, replay.history, pos, n, records, replay.since, version, replay.window, torn, dropped)


def _frame(path: Path, data: bytes, mv: memoryview, pos: int) -> tuple[str, Any, Any, int] | tuple[str, str]:
    """The frame at `pos` (before the end): the common case inline, anything unusual through
    _frame_at, which explains it."""
    body = pos + fmt.FRAME_SIZE
    if body <= len(data):
        length, kind, pcrc, hcrc = fmt.FRAME.unpack_from(data, pos)
        stop = body + length
        if length <= fmt.MAX_RECORD and stop <= len(data) and zlib.crc32(mv[pos : pos + 9]) == hcrc:
            payload = mv[body:stop]
            if zlib.crc32(payload) == pcrc and kind in fmt.VALID_KINDS:
                return ("ok", kind, payload, stop)
    got = _frame_at(path, data, mv, pos)
    assert got is not None  # only past the end, which the caller never asks for
    return got


def _record_problem(kind: int, exc: Exception) -> str:
    """A record that does not fit the fight, in one line naming its kind."""
    name = fmt.KIND_NAMES.get(kind & ~fmt.COMPRESSED, "record")
    if isinstance(exc, (msgspec.DecodeError, msgspec.ValidationError)):
        return f"{name} record: unreadable: {exc}"
    if isinstance(exc, fmt.FormatProblem):
        return f"{name} record: {exc}"
    return f"{name} record: {_problem(exc)}"


class _Replay:
    """The records after the header played onto the history, with what the next one is read
    against: the compression window, what is left of the inflate budget (all records together, so a
    compression bomb stops), and the steps since the last full state."""

    def __init__(self, header: fmt.Header, decode: Any, version: int, payload: memoryview, size: int) -> None:
        self.wsize = header.window
        self.window = fmt.slide(b"", payload, self.wsize)
        self.budget = fmt.inflate_budget(size) - len(payload)
        self.codec = c = fmt.codec()
        # the current format decodes straight into typed records; older ones go through `decode`
        moves = c.move_decoder
        self.typed = (
            {fmt.STEP: c.step_decoder, fmt.UNDO: moves, fmt.REDO: moves, fmt.POSITION: c.position_decoder}
            if version == fmt.FORMAT
            else None
        )
        self.decode = decode
        self.history = History.start(header.root)
        self.ruleset = header.ruleset
        self.since = 0

    def record(self, kind: int, payload: Any) -> None:
        """Decode one record and play it (FormatProblem or a decode error when it does not fit)."""
        if kind & fmt.COMPRESSED:
            kind &= ~fmt.COMPRESSED
            payload = fmt.inflate(payload, self.window, self.budget)
        self.budget -= len(payload)
        if self.budget < 0:
            raise fmt.FormatProblem("the records add up to far more than a save of this size can hold")
        if self.wsize:
            self.window = (self.window + payload)[-self.wsize :]
        typed = self.typed
        rec = typed[kind].decode(payload) if typed is not None and kind in typed else self.decode(kind, payload)
        history = self.history
        if kind == fmt.STEP:
            self._step(rec)
        elif kind == fmt.UNDO:
            parent = history.nodes[history.cursor].parent
            if parent < 0 or rec.to != parent:
                raise fmt.FormatProblem(f"an undo to node {rec.to}, but the fight is at node {history.cursor}")
            history.undo()
        elif kind == fmt.REDO:
            nxt = history.nodes[history.cursor].redo
            if nxt < 0 or rec.to != nxt:
                raise fmt.FormatProblem(f"a redo to node {rec.to}, but the fight is at node {history.cursor}")
            history.redo()
        elif kind == fmt.POSITION:
            _position(history, rec)
        else:  # a header again: _decode has refused unknown kinds already
            raise fmt.FormatProblem("a second header in the middle of the file")

    def _step(self, rec: Any) -> None:
        history = self.history
        if rec.parent != history.cursor:
            raise fmt.FormatProblem(f"the step continues node {rec.parent} but the fight is at node {history.cursor}")
        before = history.nodes[history.cursor].state
        if rec.state is not msgspec.UNSET:
            fmt.check_fight(rec.state)
            state = self.codec.reshare(before, rec.state)
            self.since = 0
        elif rec.delta is not msgspec.UNSET:
            state = self.codec.apply_delta(before, rec.delta)
            self.since += 1
        else:
            raise fmt.FormatProblem("the step has no outcome")
        if state.ruleset != self.ruleset:
            raise fmt.FormatProblem(f"the step changes the ruleset to '{state.ruleset}'")
        history.push(state, rec.command, rec.events)


def _next_frame(data: bytes, mv: memoryview, start: int) -> int | None:
    """The first offset from `start` where a whole frame of a known kind checks out (both CRCs)."""
    n = len(data)
    for m in _KIND_BYTE.finditer(data, start + 4):
        pos = m.start() - 4
        if pos + fmt.FRAME_SIZE > n:
            return None
        length, kind, pcrc, hcrc = fmt.unpack_frame(data, pos)
        stop = pos + fmt.FRAME_SIZE + length
        if kind == fmt.HEADER or length > fmt.MAX_RECORD or stop > n or not fmt.header_ok(mv, pos, hcrc):
            continue
        if zlib.crc32(mv[pos + fmt.FRAME_SIZE : stop]) == pcrc:
            return pos
    return None


_KIND_BYTE = re.compile(b"[" + re.escape(bytes(sorted(k for k in fmt.VALID_KINDS if k != fmt.HEADER))) + b"]")


def _frame_at(
    path: Path, data: bytes, mv: memoryview, pos: int
) -> tuple[str, Any, Any, int] | tuple[str, str] | None:
    """The frame at `pos`: ("ok", kind, payload, end), ("torn", why) for a torn tail, None at EOF."""
    n = len(data)
    if pos >= n:
        return None
    left = n - pos
    if left < fmt.FRAME_SIZE:
        return ("torn", _torn(pos, left, "an incomplete record"))
    length, kind, pcrc, hcrc = fmt.unpack_frame(data, pos)
    if not fmt.header_ok(mv, pos, hcrc):
        if data.count(0, pos) == left:
            # a crash after the file grew but before its data reached the disk leaves zeros
            return ("torn", _torn(pos, left, "zeros left by a crash"))
        raise SaveError(path, "damaged record header (checksum mismatch)", pos)
    if length > fmt.MAX_RECORD:
        raise SaveError(path, f"a record of {length} bytes, more than the limit of {fmt.MAX_RECORD}", pos)
    body = pos + fmt.FRAME_SIZE
    stop = body + length
    if stop > n:
        return ("torn", _torn(pos, left, "an incomplete record"))
    payload = mv[body:stop]
    if zlib.crc32(payload) != pcrc:
        if stop == n:
            return ("torn", _torn(pos, left, "a last record that did not fully reach the disk"))
        raise SaveError(path, "damaged record (checksum mismatch)", pos)
    if kind not in fmt.VALID_KINDS:
        raise SaveError(path, f"unknown record kind {kind} (written by a newer Fracas?)", pos)
    return ("ok", kind, payload, stop)


def _torn(pos: int, size: int, what: str) -> str:
    return f"a torn last record ({what}, {size} bytes at offset {pos}: a crash while saving) was dropped"


def _read_header(path: Path, payload: memoryview, at: int) -> tuple[fmt.Header, Any, int]:
    """The header and the record decoder for the file's format version."""
    version = _format_version(path, payload, at)
    decode = _current_decoder() if version == fmt.FORMAT else _old_decoder(version)
    try:
        header = decode(fmt.HEADER, payload)
    except fmt.FormatProblem as exc:
        raise SaveError(path, f"header: {exc}", at) from None
    _check_header(path, header, at)
    return header, decode, version


def _format_version(path: Path, payload: memoryview, at: int) -> int:
    """The save format the header says, one this Fracas reads."""
    try:
        version = msgspec.msgpack.decode(payload, type=fmt.Probe).format
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        raise SaveError(path, f"unreadable header: {exc}", at) from None
    except Exception as exc:  # RecursionError (arrays nested a thousand deep) and the like
        raise SaveError(path, f"unreadable header: {_problem(exc)}", at) from None
    if version > fmt.FORMAT:
        raise SaveError(
            path,
            f"written by a newer Fracas (save format {version}; this version reads formats 1 to "
            f"{fmt.FORMAT}): update Fracas to open it",
            at,
        )
    if version < 1:
        raise SaveError(path, f"unknown save format {version}", at)
    return version


def _current_decoder() -> Callable[[int, memoryview], Any]:
    """The record decoder of the current format: straight into the typed records."""
    c = fmt.codec()
    decoders = {
        fmt.HEADER: c.header_decoder,
        fmt.STEP: c.step_decoder,
        fmt.UNDO: c.move_decoder,
        fmt.REDO: c.move_decoder,
        fmt.POSITION: c.position_decoder,
    }

    def decode(kind: int, data: memoryview) -> Any:
        try:
            return decoders[kind].decode(data)
        except (msgspec.DecodeError, msgspec.ValidationError) as exc:
            raise fmt.FormatProblem(f"unreadable: {exc}") from None
        except Exception as exc:
            raise fmt.FormatProblem(_problem(exc)) from None

    return decode


def _old_decoder(version: int) -> Callable[[int, memoryview], Any]:
    """The record decoder of an older format: each record upgraded, then converted."""
    c = fmt.codec()
    types = {
        fmt.HEADER: fmt.Header,
        fmt.STEP: c.step,
        fmt.UNDO: fmt.Move,
        fmt.REDO: fmt.Move,
        fmt.POSITION: fmt.Position,
    }
    context: dict[str, Any] = {}  # what upgrades of later records need from the header (fmt.upgrade)

    def decode(kind: int, data: memoryview) -> Any:
        try:
            raw = msgspec.msgpack.decode(data)
        except msgspec.DecodeError as exc:
            raise fmt.FormatProblem(f"unreadable (format {version}): {exc}") from None
        except Exception as exc:
            raise fmt.FormatProblem(f"unreadable (format {version}): {_problem(exc)}") from None
        try:
            new_kind, raw = fmt.upgrade(kind, raw, version, context)
        except fmt.FormatProblem:
            raise
        except Exception as exc:  # old data an upgrade did not expect: a clean error, not a crash
            raise fmt.FormatProblem(f"cannot upgrade from format {version}: {_problem(exc)}") from None
        if new_kind != kind:
            raise fmt.FormatProblem("an upgrade changed the record kind")
        try:
            return msgspec.convert(raw, types[kind], dec_hook=state_hook)
        except msgspec.ValidationError as exc:
            raise fmt.FormatProblem(f"unreadable (format {version}): {exc}") from None
        except Exception as exc:
            raise fmt.FormatProblem(f"unreadable (format {version}): {_problem(exc)}") from None

    return decode


def _check_header(path: Path, header: fmt.Header, at: int) -> None:
    """A header the rest of the file can be read against: one ruleset, a known one, a sane window."""
    if header.ruleset != header.root.ruleset:
        raise SaveError(path, "the header names two different rulesets", at)
    try:
        fmt.check_fight(header.root)
    except fmt.FormatProblem as exc:
        raise SaveError(path, f"header: {exc}", at) from None
    if not 0 <= header.window <= fmt.MAX_WINDOW:
        raise SaveError(path, f"a compression window of {header.window} bytes is out of range", at)
    try:
        get_ruleset(header.ruleset)
    except RuleError:
        known = f"a fight for the ruleset '{header.ruleset}', which this Fracas does not know"
        raise SaveError(path, known, at) from None


def _position(history: History, rec: fmt.Position) -> None:
    nodes = history.nodes
    count = len(nodes)
    if not 0 <= rec.cursor < count:
        raise fmt.FormatProblem(f"the cursor {rec.cursor} is not a node of this fight")
    for node, child in rec.redo:
        if not 0 <= node < count or not -1 <= child < count:
            raise fmt.FormatProblem(f"a redo link {node} -> {child} outside the fight")
        if child >= 0 and nodes[child].parent != node:
            raise fmt.FormatProblem(f"node {child} does not follow node {node}")
    for node, child in rec.redo:
        nodes[node].redo = child
    history.goto(rec.cursor)


# --- writing ----------------------------------------------------------------------------------


def fsync(fd: int) -> None:
    if sys.platform == "darwin" and fcntl is not None and hasattr(fcntl, "F_FULLFSYNC"):
        fcntl.fcntl(fd, fcntl.F_FULLFSYNC)  # macOS fsync does not flush the drive's cache
    else:
        os.fsync(fd)


def fsync_dir(directory: Path) -> None:
    """Make a rename or a new name in `directory` durable."""
    try:
        fd = os.open(directory, os.O_RDONLY | _O_CLOEXEC)
    except OSError:
        return  # some platforms cannot open a directory; nothing more can be done there
    try:
        os.fsync(fd)
    except OSError as exc:
        if exc.errno not in (errno.EINVAL, errno.EBADF, errno.EACCES):
            raise
    finally:
        os.close(fd)


def write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        done = os.write(fd, view)
        view = view[done:]


def lock(fd: int, path: Path) -> None:
    """An exclusive lock for the life of the descriptor: one writing app per file."""
    if fcntl is None:  # pragma: no cover
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        raise LockedError(path, "this fight is open in another running Fracas.") from None
    except OSError as exc:
        if exc.errno in (errno.ENOLCK, errno.EOPNOTSUPP, getattr(errno, "ENOTSUP", -1)):
            return  # a file system without locks (some network mounts): work unlocked
        raise


def same_file(fd: int, path: Path) -> bool:
    """Whether `path` still names the file open as `fd` (same device and inode, still linked)."""
    try:
        own = os.fstat(fd)
        disk = os.stat(path)
    except OSError:
        return False
    return (own.st_dev, own.st_ino) == (disk.st_dev, disk.st_ino) and own.st_nlink > 0


# a lock taken on a file that was then renamed over (by the writer that held it before, repairing a
# torn tail) is tried again on the new file this many times before giving up as locked
LOCK_RETRIES = 50


def open_locked(path: Path) -> int:
    """The file opened for writing and locked; SaveError/LockedError if not possible. No O_APPEND:
    appends go to the journal's own known end (`append`), never after bytes someone else added.

    The lock is checked to be on the file the path names once it is held: another writer may have
    rewritten the file (a torn tail cut off, an upgrade) and renamed the new one over the path between
    this open and this lock, then let go of the old one. That old file is no longer the save: the
    path is opened and locked again (LockedError while the other writer still has the new file)."""
    for _ in range(LOCK_RETRIES):
        try:
            fd = os.open(path, os.O_RDWR | _O_CLOEXEC | _O_BINARY)
        except IsADirectoryError:
            raise SaveError(path, "this is a folder, not a save file") from None
        except PermissionError:
            raise ReadOnlyError(path, "no permission to write this file (open it read-only)") from None
        except OSError as exc:
            if exc.errno == errno.EROFS:
                raise ReadOnlyError(path, "the file is on a read-only disk (open it read-only)") from None
            raise SaveError(path, f"cannot open the file: {exc.strerror or exc}") from None
        try:
            lock(fd, path)
            if same_file(fd, path):
                return fd
        except BaseException:
            os.close(fd)
            raise
        os.close(fd)  # a file replaced while we waited: its lock guards nothing now
    raise LockedError(path, "this fight is open in another running Fracas (its file keeps being rewritten).")


def replace_file(target: Path, chunks: Iterable[bytes]) -> None:
    """Write `target` (an export, a report) atomically, replacing what is there, unless that is a
    Fracas save or a file another program holds locked: those are never replaced (SaveError). The
    old file stays locked by us while it is replaced, so no Fracas can open it in between."""
    fd: int | None = None
    try:
        fd = os.open(target, os.O_RDONLY | _O_CLOEXEC | _O_BINARY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        pass
    except IsADirectoryError:
        raise SaveError(target, "this is a folder; choose a file name") from None
    except OSError as exc:
        raise SaveError(target, f"cannot write here: {exc.strerror or exc}") from None
    try:
        if fd is not None:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise SaveError(target, "not a regular file; not replacing it")
            if os.pread(fd, len(fmt.MAGIC), 0) == fmt.MAGIC:
                raise SaveError(target, "this is a Fracas save; not overwriting it (choose another name)")
            if fcntl is not None:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    raise SaveError(target, "another program has this file open and locked; not replacing it") from None
                except OSError as exc:
                    if exc.errno not in (errno.ENOLCK, errno.EOPNOTSUPP, getattr(errno, "ENOTSUP", -1)):
                        raise
        atomic_write(target, chunks, overwrite=True, keep_locked=False)
    except OSError as exc:
        raise SaveError(target, f"cannot write: {exc.strerror or exc}") from None
    finally:
        if fd is not None:
            os.close(fd)


def _temp_name(target: Path) -> Path:
    return target.with_name(f".{target.name}.tmp-{os.getpid()}-{os.urandom(4).hex()}")


def atomic_write(target: Path, chunks: Iterable[bytes], *, overwrite: bool, keep_locked: bool) -> int | None:
    """Write a whole new file under `target`: temp file, fsync, rename (or a no-clobber link), directory
    fsync. Returns the new file's descriptor, locked, when `keep_locked`; the file is locked before it
    has its name, so no other app can take it in between."""
    temp = _temp_name(target)
    fd = os.open(temp, os.O_RDWR | os.O_CREAT | os.O_EXCL | _O_CLOEXEC | _O_BINARY, 0o644)
    try:
        if keep_locked:
            lock(fd, temp)
        for chunk in chunks:
            write_all(fd, chunk)
        fsync(fd)
        if overwrite:
            os.replace(temp, target)
        else:
            _link_no_clobber(temp, target)
        fsync_dir(target.parent)
    except BaseException:
        os.close(fd)
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
    if keep_locked:
        os.lseek(fd, 0, os.SEEK_END)
        # the descriptor was opened without O_APPEND; appends go through `append`, which seeks
        return fd
    os.close(fd)
    return None


def _link_no_clobber(temp: Path, target: Path) -> None:
    try:
        os.link(temp, target)
    except FileExistsError:
        raise
    except OSError as exc:
        if exc.errno not in (errno.EPERM, errno.EOPNOTSUPP, errno.EXDEV, getattr(errno, "ENOTSUP", -1)):
            raise
        # no hard links on this file system: check, then rename (a narrow race, but never a torn file)
        if target.exists():
            raise FileExistsError(errno.EEXIST, "File exists", str(target)) from None
        os.rename(temp, target)
        return
    os.unlink(temp)


def backup(path: Path, data: bytes) -> Path:
    """A copy of `data` next to `path`, under a name that is not taken yet."""
    stamp = dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    for i in range(1000):
        name = f"{path.name}.{stamp}{'-' + str(i) if i else ''}.bak"
        target = path.with_name(name)
        if target.exists():
            continue
        try:
            atomic_write(target, [data], overwrite=False, keep_locked=False)
        except FileExistsError:
            continue
        return target
    raise OSError(errno.EEXIST, f"no free backup name next to {path}")


def append(fd: int, end: int, data: bytes) -> None:
    """One frame at offset `end` (the journal's own end, not the file's), then fsync. On failure the
    file is cut back to `end`, so the next append never lands after half a record; the OSError
    propagates."""
    try:
        write_at(fd, end, data)
        fsync(fd)
    except OSError:
        with contextlib.suppress(OSError):
            os.ftruncate(fd, end)
            fsync(fd)
        raise


def write_at(fd: int, pos: int, data: bytes) -> None:
    view = memoryview(data)
    if not hasattr(os, "pwrite"):  # pragma: no cover - Windows
        os.lseek(fd, pos, os.SEEK_SET)
        write_all(fd, data)
        return
    while view:
        done = os.pwrite(fd, view, pos)
        view = view[done:]
        pos += done


# --- list facts -------------------------------------------------------------------------------
#
# `fracas list` and the start screen show each fight's round without reading its journal: a writable
# session keeps [journal length, round, started, ended, commands] in an extended attribute of the file
# after every write. It is only a hint: trusted when its length is the file's size (nothing written
# since), else (or where the file system has no such attributes) the list says the round is unknown.
FACTS_ATTR = "user.fracas.facts"


class Facts(msgspec.Struct, frozen=True):
    round: int
    started: bool
    ended: bool
    commands: int


def write_facts(fd: int, end: int, state: Any, commands: int) -> None:
    setx = getattr(os, "setxattr", None)
    if setx is None:  # pragma: no cover - not on this platform
        return
    value = msgspec.msgpack.encode([end, state.round, state.started, state.ended, commands])
    with contextlib.suppress(OSError):
        setx(fd, FACTS_ATTR, value)


def read_facts(path: Path, size: int) -> Facts | None:
    getx = getattr(os, "getxattr", None)
    if getx is None:  # pragma: no cover
        return None
    try:
        raw = getx(path, FACTS_ATTR)
        end, rnd, started, ended, commands = msgspec.msgpack.decode(raw[:256], type=tuple[int, int, bool, bool, int])
    except (OSError, ValueError, msgspec.DecodeError, msgspec.ValidationError):
        return None
    if end != size or not 0 <= rnd <= fmt.MAX_INT or not 0 <= commands <= fmt.MAX_INT:
        return None
    return Facts(rnd, started, ended, commands)


def read_header(path: Path, limit: int = 4 * 1024 * 1024) -> tuple[fmt.Header, os.stat_result]:
    """Only the header of a save (and the file's stat), reading no more than the header frame: what
    the list shows. SaveError like a full read for a file that is not a save."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            raise SaveError(path, describe_kind(path))
        fd = os.open(path, os.O_RDONLY | _O_CLOEXEC | _O_BINARY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise SaveError(path, f"cannot read the file: {exc.strerror or exc}") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise SaveError(path, describe_kind(path))
        payload = header_frame(fd, path, limit)
    finally:
        os.close(fd)
    try:
        header = _read_header(path, payload, len(fmt.MAGIC))[0]
    except RecursionError:
        raise SaveError(path, "the header is nested too deeply to be a save", len(fmt.MAGIC)) from None
    return header, st


def header_frame(fd: int, path: Path, limit: int = fmt.MAX_RECORD) -> memoryview:
    """The payload of the header frame of the regular file open as `fd`: SaveError unless the file
    starts with the Fracas signature and a whole header frame whose checksums hold (what only a
    Fracas writes). Its content is not decoded: a save of a ruleset this Fracas does not know, or of
    a newer format, has one too. A torn tail after it does not matter."""
    try:
        start = len(fmt.MAGIC) + fmt.FRAME_SIZE
        head = os.pread(fd, start, 0)
        if not head.startswith(fmt.MAGIC):
            raise SaveError(path, describe_start(head), 0)
        if len(head) < start:
            raise SaveError(path, "the file ends inside its header: an incomplete save", len(fmt.MAGIC))
        length = fmt.unpack_frame(head, len(fmt.MAGIC))[0]
        if length > limit:
            raise SaveError(path, f"a header of {length} bytes, more than a list reads ({limit})", len(fmt.MAGIC))
        data = head + os.pread(fd, length, start)
    except OSError as exc:
        raise SaveError(path, f"cannot read the file: {exc.strerror or exc}") from None
    mv = memoryview(data)
    got = _frame_at(path, data, mv, len(fmt.MAGIC))
    if got is None or got[0] == "torn":
        raise SaveError(path, "the file ends inside its header: an incomplete save", len(fmt.MAGIC))
    _, kind, payload, _ = got
    if kind != fmt.HEADER:
        raise SaveError(path, "the first record is not a header", len(fmt.MAGIC))
    return payload


def history_records(history: History, created: str | None = None) -> tuple[list[bytes], int, bytes]:
    """A whole history as frames (header first, then every node in order, then the position): what
    a rewrite writes. Undo and redo records are folded into the final position. Also returns the
    steps written since the last full state and the compression window after the last record."""
    c = fmt.codec()
    every = fmt.CHECKPOINT_EVERY
    nodes = history.nodes
    header = fmt.new_header(nodes[0].state)
    if created:
        header = msgspec.structs.replace(header, created=created)
    raw = c.encode(header)
    wsize = header.window
    window = fmt.slide(b"", raw, wsize)
    out = [fmt.MAGIC, fmt.frame(fmt.HEADER, raw)]

    def add(kind: int, raw: bytes) -> None:
        nonlocal window
        out.append(fmt.seal(kind, raw, window))
        window = fmt.slide(window, raw, wsize)

    since = 0
    natural: dict[int, int] = {}
    cursor = 0
    for i in range(1, len(nodes)):
        node = nodes[i]
        parent = nodes[node.parent]
        if node.parent != cursor:
            # a branch: the step continues an earlier node, so the cursor jumps there first
            add(fmt.POSITION, c.encode(fmt.Position(node.parent)))
        cursor = i
        full = since >= every and node.state.round != parent.state.round
        add(fmt.STEP, c.step_record(node.parent, parent.state, node.state, node.command, node.events, full))
        since = 0 if full else since + 1
        natural[node.parent] = i  # replaying in order leaves each parent's redo on its last child
    redo = tuple((i, node.redo) for i, node in enumerate(nodes) if node.redo != natural.get(i, -1))
    add(fmt.POSITION, c.encode(fmt.Position(history.cursor, redo)))
    return out, since, window
