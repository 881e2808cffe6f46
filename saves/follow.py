"""Following a save file that another Fracas is writing: the players' view (`fracas view`).

A follower never locks, never writes and never changes the file, so the GM's app cannot notice it.
It reads the whole journal once (`journal.parse`), then on each `poll` only the bytes appended since
the last complete record: a frame is read when its header and payload checksums hold, and a frame
still being written (too short, or its payload not all there yet) is waited for. Undo, redo and
position records move the cursor as they do on a load.

It also makes sure the bytes it has read are still there: a file can be written over in place (`cp
other.fracas fight.fracas`: the same inode, any size). When the file grew, the first and the last bytes
read must be as they were; when it changed without growing, all of them (their CRC-32); and since
two writes close together can leave the file's times unmoved, until the times are SETTLE_NS older
than a read each poll checks the first and last bytes, then all of them once. A torn tail is waited
for, but a rewrite under it is still seen.

Anything that does not continue the journal it has read (the file replaced by a rename or written
over in place, truncated, damaged, a record that does not fit) makes it read the whole file again;
while that fails, the last good fight stays and `problem` says why in one line, and each later poll
tries again once the file changed. See docs/view.md.
"""

from __future__ import annotations

import os
import stat
import time
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec

from engine.history import History
from engine.state import Fight
from saves import format as fmt
from saves import journal
from saves.errors import SaveError

_O_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_O_BINARY = getattr(os, "O_BINARY", 0)

# What is kept of the bytes read, to tell the journal read from another written over it in place: the
# first bytes (the header: the fight's start and when it was created), the last ones before the end
# read (the last records) and a CRC-32 of all of them.
_HEAD = 8192
_TAIL = 4096
_CHUNK = 1 << 20
# Two writes close together can leave a file's times as they were (a coarse clock; FAT keeps 2 s), so
# until the times are this much older than a read, each poll checks the first and last bytes read, and
# once they are, all of them once (as git does for a "racily clean" file). After that a write moves them.
SETTLE_NS = 2_000_000_000
_REWRITTEN = "the file was rewritten in place (copied over?); read again"


def _now() -> int:
    return time.time_ns()


class _Reload(Exception):
    """The file does not continue the journal read so far: read the whole file again (the message,
    if any, is the notice saying why)."""


@dataclass(frozen=True)
class Identity:
    """What tells one file from another at the same path, and whether it changed."""

    dev: int
    ino: int
    size: int
    mtime_ns: int
    ctime_ns: int  # moves when the contents are written even if the mtime is set back (`cp -p`)

    @property
    def stamp(self) -> int:
        return max(self.mtime_ns, self.ctime_ns)


def _of(st: os.stat_result) -> Identity:
    return Identity(st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


def _identity(path: Path) -> Identity:
    st = os.stat(path)
    if not stat.S_ISREG(st.st_mode):
        raise SaveError(path, journal.describe_kind(path))
    return _of(st)


class Follower:
    """The fight in a save file as another program writes it.

    `poll()` returns True when the fight shown should be redrawn (a new state, or a change of
    `problem`). `history` is None until the file has been read once; `problem` is "" while the file
    is followed, else one line saying what is wrong (the fight shown is then the last good one)."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.history: History | None = None
        self.problem = ""
        self.notice = ""  # the last thing worth telling (a torn tail waited for, a reload and why)
        self.reloads = 0  # full reads after the first (tests and figures)
        self.checks = 0  # re-reads of every byte already read, to see they are still there (the same)
        self._ident: Identity | None = None
        self._end = 0  # offset after the last complete record applied
        self._head = b""  # the file's first bytes, up to _HEAD (never past `_end`)
        self._tail = b""  # the bytes just before `_end`, up to _TAIL
        self._crc = 0  # CRC-32 of the bytes before `_end`
        self._settled = False  # all of them checked since the file's times last moved (SETTLE_NS)
        self._window = b""
        self._wsize = 0
        self._current = False  # the file's format is this version's: records decode straight
        self._failed: Identity | None = None  # the file as it was when reading it last failed
        self._codec = fmt.codec()
        self._decoders = {
            fmt.STEP: self._codec.step_decoder,
            fmt.UNDO: self._codec.move_decoder,
            fmt.REDO: self._codec.move_decoder,
            fmt.POSITION: self._codec.position_decoder,
        }
        self.poll()

    @property
    def state(self) -> Fight | None:
        return None if self.history is None else self.history.state

    # --- polling --------------------------------------------------------------------------

    def poll(self) -> bool:
        """Catch up with the file. Never raises for anything the file or its folder does."""
        try:
            ident = _identity(self.path)
        except FileNotFoundError:
            return self._fail("the file is gone (moved or deleted?); waiting for it to come back", None)
        except SaveError as exc:
            return self._fail(exc.problem, None)
        except OSError as exc:
            return self._fail(f"cannot read the file: {exc.strerror or exc}", None)
        if self.history is None or self._ident is None:
            return self._reload(ident, "")
        if self.problem:
            # a damaged file is read again only once it changed (or once more when its times have
            # settled, in case it changed within the same tick as the failed read), not on every poll
            if ident == self._failed and (self._settled or _now() < ident.stamp + SETTLE_NS):
                return False
            return self._reload(ident, "")
        old = self._ident
        if (ident.dev, ident.ino) != (old.dev, old.ino):
            return self._reload(ident, "the file was replaced (saved anew or copied over); read again")
        if ident.size < self._end:
            cut = f"the file was cut short ({ident.size} bytes, {self._end} were read); read again"
            return self._reload(ident, cut)
        if ident == old:
            if self._settled:
                return False  # the common case: one stat
            full = _now() >= ident.stamp + SETTLE_NS
        else:
            # written without growing (in place, or only its attributes): every byte read is checked;
            # grown (appended to, most likely): the first and the last, and all of them once settled
            full = ident.size <= old.size
        try:
            return self._catch_up(ident, full, changed=ident != old)
        except _Reload as exc:
            return self._reload(ident, str(exc))

    def _fail(self, problem: str, ident: Identity | None) -> bool:
        self._failed = ident
        if problem == self.problem:
            return False
        self.problem = problem
        return True

    def _reload(self, ident: Identity, why: str) -> bool:
        """Read the whole file; on failure keep the last good fight and say why."""
        seen = _now()
        self._settled = seen >= ident.stamp + SETTLE_NS
        try:
            fd = os.open(self.path, os.O_RDONLY | _O_CLOEXEC | _O_BINARY)
        except OSError as exc:
            return self._fail(f"cannot read the file: {exc.strerror or exc}", ident)
        try:
            # the identity of what is read, from the descriptor: a rename between stat and open
            ident = _of(os.fstat(fd))
            self._settled = seen >= ident.stamp + SETTLE_NS
            data = journal.read_file(self.path, fd)
            loaded = journal.parse(self.path, data)
        except SaveError as exc:
            return self._fail(str(exc), ident)
        finally:
            os.close(fd)
        if self.history is not None:
            self.reloads += 1
        end = loaded.end
        self.history = loaded.history
        self._ident = ident
        self._end = end
        self._head = data[: min(end, _HEAD)]
        self._tail = data[max(0, end - _TAIL) : end]
        self._crc = zlib.crc32(memoryview(data)[:end])
        self._window = loaded.window
        self._wsize = loaded.header.window
        self._current = loaded.version == fmt.FORMAT
        self._failed = None
        self.problem = ""
        self.notice = why or (loaded.torn and "the last record is still being written")
        return True

    def _catch_up(self, ident: Identity, full: bool, changed: bool) -> bool:
        """Check that the bytes read so far are still there (all of them if `full`, else the first
        and the last), then apply the complete records after them. _Reload if they are not."""
        seen = _now()
        try:
            fd = os.open(self.path, os.O_RDONLY | _O_CLOEXEC | _O_BINARY)
        except OSError as exc:
            raise _Reload from exc
        try:
            st = os.fstat(fd)
            if (st.st_dev, st.st_ino) != (ident.dev, ident.ino) or st.st_size < self._end:
                raise _Reload
            if full:
                self._check_all(fd)
            elif os.pread(fd, len(self._head), 0) != self._head:
                raise _Reload(_REWRITTEN)
            start = self._end - len(self._tail)
            size = min(st.st_size, self._end + fmt.MAX_FILE)
            data = os.pread(fd, size - start, start)  # the last bytes read, then any new ones
        except OSError as exc:
            raise _Reload from exc
        finally:
            os.close(fd)
        at = len(self._tail)
        if data[:at] != self._tail:
            raise _Reload(_REWRITTEN)
        moved = False
        if len(data) > at:
            if self._current:
                moved = self._append(data, at)
            elif changed:  # an older format: records go through upgrades, so read it all again
                raise _Reload
        self._ident = _of(st)
        self._settled = full and seen >= self._ident.stamp + SETTLE_NS
        return moved

    def _check_all(self, fd: int) -> None:
        """Every byte before `_end` as it was read (their CRC-32), else _Reload."""
        self.checks += 1
        crc = 0
        pos = 0
        while pos < self._end:
            chunk = os.pread(fd, min(_CHUNK, self._end - pos), pos)
            if not chunk:
                raise _Reload
            crc = zlib.crc32(chunk, crc)
            pos += len(chunk)
        if crc != self._crc:
            raise _Reload(_REWRITTEN)

    def _append(self, data: bytes, at: int) -> bool:
        """Apply the complete records in `data` from `at` (the file's `_end`); leave a record still
        being written for later."""
        history = self.history
        assert history is not None
        mv = memoryview(data)
        pos = at
        moved = False
        while pos + fmt.FRAME_SIZE <= len(data):
            length, kind, pcrc, hcrc = fmt.unpack_frame(data, pos)
            if not fmt.header_ok(mv, pos, hcrc):
                if data.count(0, pos) == len(data) - pos:
                    break  # zeros where the file grew before its data arrived: wait
                raise _Reload  # damage: the full read says what it is
            if length > fmt.MAX_RECORD or kind not in fmt.VALID_KINDS:
                raise _Reload
            body = pos + fmt.FRAME_SIZE
            stop = body + length
            if stop > len(data):
                break  # the payload is still being written
            payload = mv[body:stop]
            if zlib.crc32(payload) != pcrc:
                if stop == len(data):
                    break  # the last bytes may not have reached the file yet
                raise _Reload
            try:
                self._apply(history, kind, payload)
            except (fmt.FormatProblem, msgspec.DecodeError, msgspec.ValidationError, KeyError, IndexError) as exc:
                raise _Reload from exc
            pos = stop
            moved = True
        if moved:
            start = self._end - at  # the file offset of data[0]
            self._crc = zlib.crc32(mv[at:pos], self._crc)
            self._end += pos - at
            self._tail = bytes(mv[max(0, self._end - _TAIL) - start : pos])
        self.notice = "" if pos == len(data) else "a record is still being written"
        return moved

    def _apply(self, history: History, kind: int, payload: memoryview) -> None:
        """One record, applied as `journal.parse` applies it (the same checks)."""
        if kind & fmt.COMPRESSED:
            kind &= ~fmt.COMPRESSED
            raw: bytes | memoryview = fmt.inflate(payload, self._window)
        else:
            raw = payload
        rec: Any = self._decoders[kind].decode(raw) if kind in self._decoders else None
        if rec is None:
            raise fmt.FormatProblem("a second header in the middle of the file")
        nodes = history.nodes
        if kind == fmt.STEP:
            if rec.parent != history.cursor:
                raise fmt.FormatProblem("the step does not continue the fight")
            before = nodes[history.cursor].state
            if rec.state is not msgspec.UNSET:
                fmt.check_fight(rec.state)
                state = self._codec.reshare(before, rec.state)
            elif rec.delta is not msgspec.UNSET:
                state = self._codec.apply_delta(before, rec.delta)
            else:
                raise fmt.FormatProblem("the step has no outcome")
            if state.ruleset != before.ruleset:
                raise fmt.FormatProblem("the step changes the ruleset")
            history.push(state, rec.command, rec.events)
        elif kind == fmt.UNDO:
            if nodes[history.cursor].parent != rec.to or rec.to < 0:
                raise fmt.FormatProblem("an undo that does not fit")
            history.undo()
        elif kind == fmt.REDO:
            if nodes[history.cursor].redo != rec.to or rec.to < 0:
                raise fmt.FormatProblem("a redo that does not fit")
            history.redo()
        else:
            journal._position(history, rec)  # noqa: SLF001 - the loader's own check and apply
        # the window moves only once the record is applied: a retried record starts from the same one
        self._window = fmt.slide(self._window, raw, self._wsize)
