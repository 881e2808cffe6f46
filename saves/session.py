"""A fight being played: the engine's history plus (for a file-backed session) its journal on disk.

The app talks only to a Session: `apply`, `undo` and `redo` return after the change is durable, so the
screen never shows a result that is not saved. `Session.memory` keeps everything in memory (tests,
throwaway fights).
"""

from __future__ import annotations

from pathlib import Path

from engine import History, RuleError
from engine.commands import Command
from engine.events import Event
from engine.history import Node
from engine.state import Fight


class Session:
    """In-memory session; the file-backed journal extends it."""

    def __init__(self, history: History, path: Path | None = None, readonly: bool = False) -> None:
        self.history = history
        self.path = path
        self.readonly = readonly

    @classmethod
    def memory(cls, fight: Fight) -> Session:
        return cls(History.start(fight))

    @property
    def state(self) -> Fight:
        return self.history.state

    def apply(self, command: Command) -> tuple[Event, ...]:
        """Apply a command. RuleError (nothing changed, nothing written) for a broken rule."""
        if self.readonly:
            raise RuleError("This fight is open read-only.")
        return self.history.apply(command)

    def undo(self) -> Node | None:
        if self.readonly:
            raise RuleError("This fight is open read-only.")
        return self.history.undo()

    def redo(self) -> Node | None:
        if self.readonly:
            raise RuleError("This fight is open read-only.")
        return self.history.redo()

    def close(self) -> None:
        """Release the file (and its lock); a memory session has nothing to release."""
