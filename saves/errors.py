"""Errors from save files: always one line naming the file, the byte offset (when there is one) and
the problem, so the app and the command line can show them as they are, never as a traceback."""

from __future__ import annotations

from pathlib import Path


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


class SaveError(Exception):
    """A save file could not be read or written. Nothing on disk was changed by the failure."""

    def __init__(self, path: Path | str | None, problem: str, offset: int | None = None) -> None:
        self.path = Path(path) if path is not None else None
        self.offset = offset
        self.problem = _one_line(problem)
        where = str(self.path) if self.path is not None else "save file"
        at = f" at offset {offset}" if offset is not None else ""
        super().__init__(f"{where}{at}: {self.problem}")


class LockedError(SaveError):
    """Another running Fracas holds the file open for writing; it may still be opened read-only."""


class ReadOnlyError(SaveError):
    """The file may be read but not written (permissions, a read-only disk): open it read-only."""
