"""Plain list's fights on disk: its own command and event are saved by their tags like any other
(nothing in saves/ knows the ruleset), read back with the same history and state, pass `fracas check`,
and the save tests' random round trip (tests/saves/test_roundtrip.py) holds for it too."""

from __future__ import annotations

import argparse
from pathlib import Path

import msgspec
import pytest
from plainlist.rules import ID, PlainClock, Shove, Shoved

import tests.saves.test_roundtrip as roundtrip
from engine import commands as C
from engine import new_fight
from saves import cli, journal
from saves.session import Session
from tests.saves.util import assert_same_history, stats_of


def test_the_save_tests_take_its_stats_from_its_own_specs() -> None:
    assert stats_of(ID) == (("hp", 10), ("init", 10))


def test_random_round_trips_with_undo_redo_reopen_and_save_as() -> None:
    """tests/saves/test_roundtrip.py's hypothesis test, for this ruleset (its own command included)."""
    assert roundtrip.others_own(ID)  # Shove is among the commands drawn
    roundtrip.test_save_load_equal(ID)


def play(s: Session) -> None:
    s.apply(C.AddCombatant("Ann", kind="pc", side="party", stats=(("hp", 14), ("init", 15))))
    s.apply(C.AddCombatant("Goblin", stats=(("hp", 7), ("init", 12)), count=2))
    s.apply(C.StartFight())
    s.apply(Shove("c1", "c2"))
    s.apply(C.UseAction("c3", "reaction", "Parry"))
    s.apply(C.NextTurn())
    s.apply(C.Damage("c1", 5, type="slashing"))
    s.apply(C.UseAction("c2", "action", "Stab"))
    s.undo()
    s.undo()
    s.redo()  # the damage is back; the stab stays undone
    s.apply(C.RemoveCondition("c2", "Prone"))  # a new branch: the stab is abandoned
    s.apply(C.NextTurn())
    s.apply(Shove("c3", "c1"))
    s.apply(C.SetInitiative("c1", 1))
    s.apply(C.Note("Ann is pinned", who="c1"))
    for _ in range(4):
        s.apply(C.NextTurn())
    s.apply(C.Heal("c1", dice="1d4"))


def test_create_play_close_open_same_history_and_state(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "plain.fracas"
    s = Session.create(path, new_fight(ID, "Plain fight", seed=11))
    play(s)
    mem = Session.memory(new_fight(ID, "Plain fight", seed=11))
    play(mem)
    assert_same_history(mem.history, s.history)
    s.close()
    back = Session.open(path)
    assert back.notices == [] and back.header is not None and back.header.ruleset == ID
    assert_same_history(mem.history, back.history)
    assert len(back.history.nodes) > len(back.history.path())  # the abandoned stab is kept
    shoves = [n for n in back.history.nodes if isinstance(n.command, Shove)]
    assert len(shoves) == 2 and all(any(isinstance(e, Shoved) for e in n.events) for n in shoves)
    assert back.state.get("c1").has("Prone") and back.state.round == 2
    # its own clock, read back by its tag from its own file (nothing in engine/ or saves/ names it)
    assert all(type(n.state.clock) is PlainClock for n in back.history.nodes)
    assert back.state.clock == mem.state.clock and back.state.phase == back.state.order.index(back.state.current)
    # undo goes back to the start of the fight, and redo comes again
    depth = len(back.history.path()) - 1
    while back.undo() is not None:
        pass
    assert back.state == mem.history.nodes[0].state
    for _ in range(depth):
        assert back.redo() is not None
    assert back.state == mem.state
    back.close()

    # `fracas check`: every record reads; the journal parses to the same history
    assert cli.cmd_check(argparse.Namespace(file=path, repair=False)) == 0
    out = capsys.readouterr().out
    assert out.startswith("ok: ") and f"{ID} fight 'Plain fight'" in out and "round 2" in out
    loaded = journal.parse(path, path.read_bytes())
    assert loaded.torn == "" and loaded.dropped == []
    assert_same_history(mem.history, loaded.history)


def test_its_command_and_event_are_saved_by_tag(tmp_path: Path) -> None:
    """The record holds the command as its tag and fields, the same JSON `fracas script` reads."""
    assert msgspec.json.encode(Shove("c1", "c2")) == b'{"cmd":"plain_shove","who":"c1","target":"c2"}'
    assert msgspec.json.encode(Shoved("c1", "Ann", "c2", "Bob")).startswith(b'{"event":"plain_shoved"')
