"""Undo and redo over states (issue 2, item 5): O(1) each; a command after an undo starts a branch."""

from __future__ import annotations

import pytest

from engine import History, RuleError
from engine import commands as C
from engine import events as E
from tests.engine.support import add, setup


def started_history(n_turns: int = 0) -> History:
    h = History.start(setup("d20", add("Ana"), add("Bo"), add("Cy")))
    h.apply(C.StartFight())
    for _ in range(n_turns):
        h.apply(C.NextTurn())
    return h


def test_undo_returns_the_previous_state_and_redo_the_next():
    h = started_history()
    s0 = h.state
    events = h.apply(C.Damage("c1", 3))
    s1 = h.state
    assert s1 != s0 and isinstance(events[0], E.Damaged)
    node = h.undo()
    assert h.state is s0  # the very same object: nothing is recomputed
    assert node is not None and node.command == C.Damage("c1", 3) and node.events == events
    assert h.can_redo
    node = h.redo()
    assert h.state is s1 and node is not None and node.events == events
    assert not h.can_redo


def test_undo_at_the_root_and_redo_at_the_tip_do_nothing():
    h = History.start(setup("d20", add("Ana")))
    assert not h.can_undo and h.undo() is None
    assert not h.can_redo and h.redo() is None


def test_a_refused_command_leaves_the_history_as_it_was():
    h = started_history()
    nodes, cursor, state = len(h.nodes), h.cursor, h.state
    with pytest.raises(RuleError):
        h.apply(C.Damage("c9", 3))
    assert (len(h.nodes), h.cursor, h.state) == (nodes, cursor, state)


def test_new_command_after_undo_starts_a_branch_old_branch_still_in_nodes():
    h = started_history()
    h.apply(C.Damage("c1", 3))
    h.apply(C.Damage("c1", 4))
    old_tip = h.cursor
    old_state = h.state
    h.undo()
    h.undo()
    h.apply(C.Heal("c2", 1))
    # the new command hangs off the node the cursor was on
    assert h.nodes[h.cursor].parent == old_tip - 2
    assert h.nodes[h.cursor].command == C.Heal("c2", 1)
    # redo now follows the new branch: there is nothing after its tip
    assert not h.can_redo
    # the old branch is still there, whole
    assert h.nodes[old_tip].state is old_state
    assert [h.nodes[i].command for i in (old_tip - 1, old_tip)] == [C.Damage("c1", 3), C.Damage("c1", 4)]
    assert h.path()[-2:] == [old_tip - 2, h.cursor]
    # undoing the branch and redoing goes back down the branch most recently visited
    h.undo()
    h.redo()
    assert h.nodes[h.cursor].command == C.Heal("c2", 1)
    # and the GM can still go back to the old branch
    h.goto(old_tip)
    assert h.state is old_state
    with pytest.raises(IndexError):
        h.goto(len(h.nodes))


def test_log_follows_the_current_path():
    h = started_history()
    h.apply(C.Note("first"))
    h.undo()
    h.apply(C.Note("second"))
    texts = [e.text for _, e in h.log() if isinstance(e, E.Noted)]
    assert texts == ["second"]
    assert len(h.log(limit=1)) == 1


class _CountingList(list):
    """A list that counts how many of its items are read: undo and redo must read a fixed few."""

    reads = 0

    def __getitem__(self, i):
        _CountingList.reads += 1
        return super().__getitem__(i)


@pytest.mark.parametrize("length", [10, 2000])
def test_undo_and_redo_are_o1(length):
    h = started_history()
    for i in range(length):
        h.apply(C.Note(f"n{i}"))
    h.nodes = _CountingList(h.nodes)
    _CountingList.reads = 0
    for _ in range(5):
        h.undo()
    for _ in range(5):
        h.redo()
    _ = h.state
    # the same handful of reads whatever the length of the history (no walk, no copy)
    assert _CountingList.reads <= 31
    assert h.cursor == len(h.nodes) - 1


def test_states_in_a_long_history_share_untouched_combatants():
    h = started_history(n_turns=3)
    before = h.state
    h.apply(C.Damage("c2", 1))
    after = h.state
    shared = [a is b for a, b in zip(before.combatants, after.combatants, strict=True)]
    assert shared == [True, False, True]
