"""Undo and redo over states: a tree of nodes, each O(1) to move along.

Node 0 is the fight before any command. Every applied command adds a child of the current node; undo
moves to the parent, redo to the child most recently visited. A command after an undo starts a new
branch: the old branch stays in the tree (and in the save file), just no longer on the redo path.
"""

from __future__ import annotations

import msgspec

from engine.commands import Command
from engine.core import apply
from engine.events import Event
from engine.state import Fight


class Node(msgspec.Struct):
    state: Fight
    parent: int  # -1 for the root
    command: Command | None = None
    events: tuple[Event, ...] = ()
    redo: int = -1  # the child that redo goes to


class History(msgspec.Struct):
    nodes: list[Node] = msgspec.field(default_factory=list)
    cursor: int = 0

    @classmethod
    def start(cls, fight: Fight) -> History:
        return cls([Node(fight, -1)], 0)

    @property
    def state(self) -> Fight:
        return self.nodes[self.cursor].state

    @property
    def can_undo(self) -> bool:
        return self.nodes[self.cursor].parent >= 0

    @property
    def can_redo(self) -> bool:
        return self.nodes[self.cursor].redo >= 0

    def apply(self, command: Command) -> tuple[Event, ...]:
        """Apply a command to the current state; RuleError leaves the history as it was."""
        state, events = apply(self.state, command)
        self.push(state, command, events)
        return events

    def push(self, state: Fight, command: Command, events: tuple[Event, ...]) -> int:
        """Record an already-computed outcome (a save file being read back) as a child of the cursor."""
        self.nodes.append(Node(state, self.cursor, command, events))
        idx = len(self.nodes) - 1
        self.nodes[self.cursor].redo = idx
        self.cursor = idx
        return idx

    def undo(self) -> Node | None:
        """Step back; returns the node that was undone (its command and events), or None."""
        node = self.nodes[self.cursor]
        if node.parent < 0:
            return None
        self.nodes[node.parent].redo = self.cursor
        self.cursor = node.parent
        return node

    def redo(self) -> Node | None:
        nxt = self.nodes[self.cursor].redo
        if nxt < 0:
            return None
        self.cursor = nxt
        return self.nodes[nxt]

    def goto(self, index: int) -> None:
        """Move the cursor to any node (a save file restoring where the GM was)."""
        if not 0 <= index < len(self.nodes):
            raise IndexError(index)
        self.cursor = index

    def path(self) -> list[int]:
        """Node indexes from the root to the cursor: the fight as it is now."""
        out = []
        i = self.cursor
        while i >= 0:
            out.append(i)
            i = self.nodes[i].parent
        out.reverse()
        return out

    def log(self, limit: int | None = None) -> list[tuple[int, Event]]:
        """Events on the current path, oldest first (the last `limit` commands' worth)."""
        idx = self.path()
        if limit is not None:
            idx = idx[-limit:]
        return [(i, e) for i in idx for e in self.nodes[i].events]
