"""A fight being played: the engine's history plus (for a file-backed session) its journal on disk.

The app talks only to a Session: `apply`, `undo` and `redo` return after the change is durable
(written and fsync'd), so the screen never shows a result that is not saved. `Session.memory` keeps
everything in memory (tests, throwaway fights); `create` and `open` work on a save file.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import os
import re
from collections.abc import Iterable
from pathlib import Path
from types import TracebackType

import msgspec

from engine import History, RuleError
from engine.commands import Command
from engine.core import apply as engine_apply
from engine.events import Event
from engine.history import Node
from engine.state import Fight
from saves import format as fmt
from saves import journal
from saves.errors import LockedError, ReadOnlyError, SaveError

_RECOVERED = re.compile(r"-recovered-\d{8}-\d{6}(-\d+)?\Z")


class Session:
    """A fight and, when file-backed, the open (and locked) save file it is journaled to."""

    def __init__(self, history: History, path: Path | None = None, readonly: bool = False) -> None:
        self.history = history
        self.path = path
        self.readonly = readonly
        self.notices: list[str] = []  # what opening the file had to tell the GM
        self.header: fmt.Header | None = None
        self.read_format = fmt.FORMAT  # the save format the file was in when read (older ones upgrade)
        self._fd: int | None = None
        self._end = 0  # the file's length: every record so far, nothing after
        self._codec: fmt.Codec | None = None
        self._since = 0  # steps since the last full state
        self._window = b""  # the compression window: raw bytes of the last records
        self._wsize = fmt.WINDOW
        self._pending: list[str] = []  # notices from checks made by apply/undo/redo (pop_notices)
        # set when the file was lost (replaced, removed, grown) and no copy could be written: the
        # fight lives in memory only and every change is refused until a copy is on disk
        self._lost = ""
        self._depth = 0  # commands from the start to the cursor (the list facts)

    # --- starting -----------------------------------------------------------------------------
    @classmethod
    def memory(cls, fight: Fight) -> Session:
        return cls(History.start(fight))

    @classmethod
    def create(cls, path: Path, fight: Fight) -> Session:
        """A new save file holding `fight` as its start; refuses to replace an existing file."""
        path = Path(path)
        c = fmt.codec()
        header = fmt.new_header(fight)
        payload = c.encode(header)
        try:
            header = c.header_decoder.decode(payload)  # the fight as it will read back
            fmt.check_fight(header.root)
        except (msgspec.DecodeError, msgspec.ValidationError, fmt.FormatProblem) as exc:
            raise SaveError(path, f"this fight cannot be saved: {exc}") from None
        if path.exists() or path.is_symlink():
            raise SaveError(path, "a file with this name already exists; not overwriting it")
        if not path.parent.is_dir():
            raise SaveError(path, "the folder does not exist")
        data = fmt.MAGIC + fmt.frame(fmt.HEADER, payload)
        try:
            fd = journal.atomic_write(path, [data], overwrite=False, keep_locked=True)
        except FileExistsError:
            raise SaveError(path, "a file with this name already exists; not overwriting it") from None
        except OSError as exc:
            raise SaveError(path, f"cannot create the file: {exc.strerror or exc}") from None
        assert fd is not None
        s = cls(History.start(header.root), path)
        s.header = header
        s._fd, s._end, s._codec = fd, len(data), c
        s._wsize = header.window
        s._window = fmt.slide(b"", payload, header.window)
        s._facts()
        return s

    @classmethod
    def open(cls, path: Path, readonly: bool = False, repair: bool = False) -> Session:
        """A save file with its whole history, the cursor where the GM left it.

        Writable: the file is locked (LockedError if another app has it) and a torn last record is
        cut off after the whole file is backed up. ReadOnlyError when the file can be read but not
        written (permissions, a read-only disk, a folder where no backup can go). Read-only: the file
        is only read, never locked. `repair` (writable only, `fracas check --repair`): damage after
        the header is skipped too, keeping every record that fits, after the same backup.
        """
        path = Path(path)
        if readonly:
            loaded = journal.parse(path, journal.read_file(path))
            s = cls(loaded.history, path, readonly=True)
            s.header = loaded.header
            if loaded.torn:
                s.notices.append(
                    f"{loaded.torn} (the file itself was left as it is: open it for writing or run "
                    "`fracas check --repair` to remove it)"
                )
            s.read_format = loaded.version
            if loaded.version != fmt.FORMAT:
                s.notices.append(f"an older save (format {loaded.version}), read through its upgrade")
            return s
        fd = journal.open_locked(path)
        try:
            data = journal.read_file(path, fd)
            loaded = journal.parse(path, data, resync=repair)
            notices: list[str] = []
            end, since, window = loaded.end, loaded.since_checkpoint, loaded.window
            if loaded.torn or loaded.dropped or loaded.version != fmt.FORMAT:
                whys = [*loaded.dropped, loaded.torn]
                if loaded.version != fmt.FORMAT:
                    whys.append(f"an older save (format {loaded.version}) was upgraded to format {fmt.FORMAT}")
                why = "; ".join(w for w in whys if w)
                try:
                    saved = journal.backup(path, data)
                    if loaded.version != fmt.FORMAT or loaded.dropped:
                        # a whole new journal: records after a skipped stretch were read with the
                        # window they were written with, and are written again with their new one
                        chunks, since, window = journal.history_records(
                            loaded.history, created=loaded.header.created
                        )
                    else:
                        chunks = [data[:end]]
                    # through a symlink, the file it points to is rewritten, not the link replaced
                    real = Path(os.path.realpath(path))
                    new_fd = journal.atomic_write(real, chunks, overwrite=True, keep_locked=True)
                except OSError as exc:
                    raise ReadOnlyError(
                        path, f"{why}, but the file could not be rewritten ({exc.strerror or exc}); open it read-only"
                    ) from None
                assert new_fd is not None
                os.close(fd)
                fd = new_fd
                end = sum(len(x) for x in chunks)
                notices.append(f"{why}; the file as it was is kept in {saved.name}")
        except BaseException:
            os.close(fd)
            raise
        s = cls(loaded.history, path)
        s.header = loaded.header
        s.notices = notices
        s._fd, s._end, s._codec, s._since = fd, end, fmt.codec(), since
        s._window, s._wsize = window, loaded.header.window
        s._depth = len(loaded.history.path()) - 1
        s._facts()
        return s

    @classmethod
    def open_or_readonly(cls, path: Path) -> Session:
        """Open for writing if possible; if another Fracas has the file (LockedError) or it cannot
        be written (ReadOnlyError), open it read-only with a notice saying why."""
        try:
            return cls.open(path)
        except (LockedError, ReadOnlyError) as exc:
            why = exc.problem
        s = cls.open(path, readonly=True)
        s.notices.insert(0, f"opened read-only: {why}")
        return s

    # --- playing ------------------------------------------------------------------------------
    @property
    def state(self) -> Fight:
        return self.history.state

    def apply(self, command: Command) -> tuple[Event, ...]:
        """Apply a command; returns once it is on disk. RuleError (nothing changed, nothing written)
        for a broken rule; SaveError (nothing changed) when it cannot be written."""
        return self.apply_all((command,))[0]

    def apply_all(self, commands: Iterable[Command]) -> tuple[tuple[Event, ...], ...]:
        """Apply a batch of commands all or nothing: the engine runs each in turn on the state the
        one before left, and only when every one is allowed are they recorded, one undo step (and
        one journal record) each. RuleError: none was recorded. Each command's events, in order.

        This is the one transaction boundary: dialogs and the app hand their batch here and catch
        the refusal, rather than each dry-running the engine first."""
        self._writable()
        state = self.history.state
        steps: list[tuple[Fight, Fight, Command, tuple[Event, ...]]] = []
        for command in commands:
            after, events = engine_apply(state, command)
            steps.append((state, after, command, events))
            state = after
        for before, after, command, events in steps:
            self._record(before, after, command, events)
        return tuple(events for _, _, _, events in steps)

    def _record(self, before: Fight, state: Fight, command: Command, events: tuple[Event, ...]) -> None:
        """Write one applied command to the journal (when file-backed) and push it on the history;
        SaveError (this one not recorded) when it cannot be written."""
        if self._fd is not None:
            c = self._codec or fmt.codec()
            if not c.knows(command, events):
                c = fmt.codec()  # a ruleset registered a command or event type since
                if not c.knows(command, events):
                    what = type(command).__name__
                    raise SaveError(self.path, f"'{what}' cannot be saved: its type is not registered")
            self._codec = c
            full = self._since >= fmt.CHECKPOINT_EVERY and state.round != before.round
            payload = c.step_record(self.history.cursor, before, state, command, events, full)
            try:
                # a record that would not read back (types, or the values the reader checks) is never written
                rec = c.step_decoder.decode(payload)
                if rec.state is not msgspec.UNSET:
                    fmt.check_fight(rec.state)
                else:
                    c.apply_delta(before, rec.delta)
            except (msgspec.DecodeError, msgspec.ValidationError, fmt.FormatProblem) as exc:
                raise SaveError(self.path, f"this command cannot be saved ({exc}); nothing was changed") from None
            self._write(fmt.STEP, payload)
            self._since = 0 if full else self._since + 1
        self.history.push(state, command, events)
        self._depth += 1
        self._facts()

    def undo(self) -> Node | None:
        """Step back (durably); the node undone, or None at the start of the fight."""
        self._writable()
        parent = self.history.nodes[self.history.cursor].parent
        if parent < 0:
            return None
        if self._fd is not None:
            self._write(fmt.UNDO, fmt.codec().encode(fmt.Move(parent)))
        node = self.history.undo()
        self._depth -= 1
        self._facts()
        return node

    def redo(self) -> Node | None:
        self._writable()
        nxt = self.history.nodes[self.history.cursor].redo
        if nxt < 0:
            return None
        if self._fd is not None:
            self._write(fmt.REDO, fmt.codec().encode(fmt.Move(nxt)))
        node = self.history.redo()
        self._depth += 1
        self._facts()
        return node

    def save_as(self, path: Path) -> None:
        """Write the whole fight (history included) to a new file and carry on there. The new file is
        complete on disk before this returns; the old one is left as it was."""
        path = Path(path)
        if self.path is not None and path.resolve() == self.path.resolve():
            raise SaveError(path, "this is the file the fight is already saved in")
        if path.exists() or path.is_symlink():
            raise SaveError(path, "a file with this name already exists; not overwriting it")
        copy = self._copy(path)
        try:
            fd = journal.atomic_write(path, copy[0], overwrite=False, keep_locked=True)
        except FileExistsError:
            raise SaveError(path, "a file with this name already exists; not overwriting it") from None
        except OSError as exc:
            raise SaveError(path, f"cannot write the file: {exc.strerror or exc}") from None
        assert fd is not None
        self._adopt(path, fd, copy)

    def _copy(self, path: Path) -> tuple[list[bytes], int, bytes, fmt.Header]:
        """The whole history as a file's chunks, verified by reading them back (nothing written)."""
        created = self.header.created if self.header is not None else None
        chunks, since, window = journal.history_records(self.history, created=created)
        check = journal.parse(path, b"".join(chunks))
        if (
            len(check.history.nodes) != len(self.history.nodes)
            or check.history.cursor != self.history.cursor
            or check.history.state != self.history.state
        ):
            raise SaveError(path, "the copy did not read back the same (nothing was written)")
        return chunks, since, window, check.header

    def _adopt(self, path: Path, fd: int, copy: tuple[list[bytes], int, bytes, fmt.Header]) -> None:
        """Carry on in the new file `fd` (written from `copy`), releasing the old one."""
        chunks, since, window, header = copy
        self.close()
        self.path, self.readonly, self.header, self._lost = path, False, header, ""
        self._fd, self._end, self._codec, self._since = fd, sum(len(x) for x in chunks), fmt.codec(), since
        self._window, self._wsize = window, header.window
        self._depth = len(self.history.path()) - 1
        self._facts()

    # --- the file under the fight -------------------------------------------------------------
    def check_file(self) -> str:
        """"" while the file on disk is still the one this session writes; otherwise the fight is
        moved to a new file (or kept in memory if none can be written) and a one-line notice says
        so. Cheap: one stat and one fstat. Said once: later calls return "" again."""
        if self.readonly or self.path is None or self._fd is None or self._lost:
            return ""
        why = self._file_problem()
        return self._rescue(why) if why else ""

    def pop_notices(self) -> list[str]:
        """Notices from the checks `apply`, `undo` and `redo` made since the last call."""
        out, self._pending = self._pending, []
        return out

    def _file_problem(self) -> str:
        assert self._fd is not None and self.path is not None
        try:
            own = os.fstat(self._fd)
        except OSError as exc:
            return f"can no longer be read ({exc.strerror or exc})"
        try:
            disk = os.stat(self.path)
        except FileNotFoundError:
            return "was removed by another program"
        except OSError as exc:
            return f"can no longer be found ({exc.strerror or exc})"
        if (disk.st_dev, disk.st_ino) != (own.st_dev, own.st_ino):
            return "was replaced by another program"
        if own.st_nlink == 0:
            return "was removed by another program"
        if own.st_size > self._end:
            # never write after (or over) bytes this fight did not write
            return f"grew under this fight (another program added {own.st_size - self._end} bytes to it)"
        if own.st_size < self._end:
            return f"was cut short by another program ({self._end - own.st_size} bytes are gone)"
        return ""

    def _rescue(self, why: str) -> str:
        """Write the whole fight to a free name next to the file (else in the data folder) and carry
        on there; if that fails too, keep the fight in memory and refuse changes."""
        assert self.path is not None
        name = self.path.name
        count = len(self.history.nodes) - 1
        what = f"the fight (all {count} command{'s' if count != 1 else ''})"
        try:
            new = self._write_recovery(self.path)
        except (SaveError, OSError) as exc:
            self.close()
            self._lost = why
            problem = exc.problem if isinstance(exc, SaveError) else (exc.strerror or str(exc))
            return (
                f"{name} {why}; no copy could be written ({problem}): {what} is kept in memory only, "
                "and changes are refused until it can be saved"
            )
        return f"{name} {why}; {what} goes on in {new.name}"

    def _write_recovery(self, old: Path) -> Path:
        stem = old.name[: -len(fmt.EXTENSION)] if old.name.endswith(fmt.EXTENSION) else old.name
        stem = _RECOVERED.sub("", stem)  # a copy of a copy is named after the original, not longer
        stamp = dt.datetime.now().strftime("%Y%m%d-%H%M%S")
        names = [f"{stem}-recovered-{stamp}{'-' + str(i) if i else ''}{fmt.EXTENSION}" for i in range(100)]
        copy = self._copy(old)
        problem: OSError | SaveError | None = None
        folders = [old.parent]
        try:
            from saves.store import default_dir  # store imports this module

            data = default_dir()
            if data.resolve() != old.parent.resolve():
                folders.append(data)
        except (SaveError, OSError) as exc:
            problem = exc
        for folder in folders:
            for name in names:
                target = folder / name
                # never the name of the file just lost: the notice must name a file the GM has not seen go
                if target.exists() or target.is_symlink() or target.name == old.name:
                    continue
                try:
                    fd = journal.atomic_write(target, copy[0], overwrite=False, keep_locked=True)
                except FileExistsError:
                    continue
                except OSError as exc:
                    problem = exc  # a folder gone or not writable: try the next one
                    break
                assert fd is not None
                self._adopt(target, fd, copy)
                return target
        if problem is not None:
            raise problem
        raise SaveError(old, "no free name for a copy")

    def _guard(self) -> None:
        """Before a write: the file must still be ours (else the fight moves to a copy first), and
        a fight kept in memory only tries again to reach the disk; SaveError if it cannot."""
        if self.path is None or self.readonly:
            return
        if self._lost:
            notice = self._rescue(self._lost)
            if self._lost:
                raise SaveError(
                    self.path,
                    f"the file {self._lost} and no copy of the fight could be written; this change was not made",
                )
            self._pending.append(notice)
            return
        notice = self.check_file()
        if notice:
            self._pending.append(notice)
            if self._lost:
                raise SaveError(self.path, f"{notice}; this change was not made")

    def close(self) -> None:
        """Release the file (and its lock). Everything is already on disk; closing twice is fine."""
        fd, self._fd = self._fd, None
        if fd is not None:
            with contextlib.suppress(OSError):
                os.close(fd)

    def __enter__(self) -> Session:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    # --- internals ----------------------------------------------------------------------------
    def _facts(self) -> None:
        """What `fracas list` shows, kept beside the file so the list never reads the journal."""
        if self._fd is not None:
            journal.write_facts(self._fd, self._end, self.history.state, self._depth)

    def _writable(self) -> None:
        if self.readonly:
            raise RuleError("This fight is open read-only.")
        if self.path is not None and self._fd is None and not self._lost:
            raise RuleError("This fight's file is closed.")
        self._guard()

    def _write(self, kind: int, payload: bytes) -> None:
        assert self._fd is not None
        try:
            data = fmt.seal(kind, payload, self._window)
        except fmt.FormatProblem as exc:
            raise SaveError(self.path, f"this change cannot be saved: {exc}; nothing was changed") from None
        try:
            journal.append(self._fd, self._end, data)
        except OSError as exc:
            problem = f"could not save ({exc.strerror or exc}); the last change was not made"
            try:
                intact = os.fstat(self._fd).st_size == self._end
            except OSError:
                intact = False
            if not intact:
                # half a record may be on disk: stop writing here; reopening drops it cleanly
                self.close()
                self.readonly = True
                problem += "; the file is read-only in this window now, reopen it to go on"
            raise SaveError(self.path, problem, self._end) from None
        self._end += len(data)
        self._window = fmt.slide(self._window, payload, self._wsize)
