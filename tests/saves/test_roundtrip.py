"""Save -> load equality, history included, for every ruleset: hypothesis plays random command
sequences (undo, redo, reopening and save-as in between) on a file-backed session and an in-memory
one side by side, and the file must read back exactly the in-memory history."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any
from unittest import mock

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import RuleError, core, get_ruleset, new_fight
from engine import commands as C
from engine.rules.cosmere.commands import ChooseSpeed, StartTurn
from engine.rules.ninephase.commands import Activity
from engine.rules.warhammer.commands import Fortune
from engine.state import Duration
from saves import format as fmt
from saves.session import Session
from tests.saves.util import RULESETS, assert_same_history, stats_of

IDS = ("c1", "c2", "c3", "c4", "c5", "c6")
ID_FIELDS = ("who", "target", "source", "owner", "attacker", "defender")


def commands(rules: str) -> st.SearchStrategy[Any]:
    who = st.sampled_from(IDS)
    small = st.integers(0, 12)
    dice = st.sampled_from(("1d6", "2d6+1", "1d20", "d%", "4d6kh3", "1d8-1d4"))
    duration = st.one_of(
        st.just(Duration()),
        st.builds(Duration, kind=st.sampled_from(("turn_start", "turn_end")), who=who, count=st.integers(1, 3)),
        st.builds(Duration, kind=st.just("round_end"), round=st.integers(0, 4)),
        st.builds(Duration, kind=st.just("phase_end"), round=st.integers(1, 3), phase=st.integers(1, 9)),
    )
    name = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), min_size=1, max_size=12)
    generic = [
        st.builds(C.AddCombatant, name=name, side=st.sampled_from(("party", "enemy")),
                  kind=st.sampled_from(("pc", "npc")), stats=st.just(stats_of(rules)), count=st.integers(1, 3)),
        st.just(C.StartFight()),
        st.just(C.NextTurn()),
        st.just(C.NextTurn()),
        st.builds(C.Damage, who=who, amount=small),
        st.builds(C.Damage, who=who, dice=dice, type=st.sampled_from(("", "fire", "psychic"))),
        st.builds(C.Heal, who=who, amount=small),
        st.builds(C.TempHealth, who=who, amount=small),
        st.builds(C.AddCondition, who=who, name=st.sampled_from(("Prone", "Stunned", "Bleeding", "Slowed")),
                  duration=duration),
        st.builds(C.RemoveCondition, who=who, name=st.sampled_from(("Prone", "Stunned", "Bleeding"))),
        st.builds(C.Roll, dice=dice, who=st.sampled_from(("",) + IDS)),
        st.builds(C.Note, text=name),
        st.builds(C.SavingThrow, who=who, dc=st.integers(5, 20)),
        st.builds(C.RemoveCombatant, who=who),
        st.builds(C.EditCombatant, who=who, name=name),
        st.builds(C.SetInitiative, who=who, value=st.integers(-5, 30)),
        st.builds(C.Reorder, who=who, position=st.integers(0, 4)),
        st.builds(C.SpendResource, who=who, key=st.sampled_from(("focus", "fortune", "grit"))),
        st.builds(C.UseAction, who=who, what=st.sampled_from(("action", "bonus", "move", "reaction", "parry"))),
        st.just(C.EndFight()),
    ]
    own = {
        "cosmere": [st.builds(StartTurn, who=who, speed=st.sampled_from(("", "fast", "slow"))),
                    st.builds(ChooseSpeed, who=who, speed=st.sampled_from(("fast", "slow")))],
        "ninephase": [st.builds(Activity, who=who, name=st.sampled_from(("Strike", "Dodge", "Cast")),
                                cost=st.integers(0, 3), channel=st.booleans(), reaction=st.booleans())],
        "warhammer": [st.builds(Fortune, who=who, position=st.integers(0, 3))],
        "d20": [],
    }
    return st.one_of(*generic, *own.get(rules, others_own(rules)))


def others_own(rules: str) -> list[st.SearchStrategy[Any]]:
    """A ruleset not named above: each command of its own, its combatant fields drawn from the ids
    used here and the rest from the field types."""
    rs = get_ruleset(rules)
    out = []
    for cls in rs.handlers():
        if cls in core._GENERIC:
            continue
        ids = {f.name: st.sampled_from(IDS) for f in msgspec.structs.fields(cls) if f.name in ID_FIELDS}
        out.append(st.builds(cls, **ids))
    return out


def moves(rules: str) -> st.SearchStrategy[list[Any]]:
    extra = st.sampled_from(("undo", "undo", "undo", "redo", "redo", "reopen", "save_as"))
    step = st.one_of(commands(rules), commands(rules), extra)
    opening = st.lists(
        st.builds(C.AddCombatant, name=st.just("Anvil"), stats=st.just(stats_of(rules)), count=st.integers(1, 3)),
        min_size=1, max_size=3,
    ).map(lambda adds: [*adds, C.StartFight()])
    rest = st.lists(step, min_size=10, max_size=50)
    return st.tuples(st.one_of(opening, st.just([])), rest).map(lambda t: t[0] + t[1])


def play_both(rules: str, seed: int, ops: list[Any], folder: Path) -> tuple[Session, Session]:
    path = folder / "fight.fracas"
    mem = Session.memory(new_fight(rules, "Roundtrip", seed))
    disk = Session.create(path, new_fight(rules, "Roundtrip", seed))
    copies = 0
    for op in ops:
        if op == "undo":
            assert (mem.undo() is None) == (disk.undo() is None)
        elif op == "redo":
            assert (mem.redo() is None) == (disk.redo() is None)
        elif op == "reopen":
            disk.close()
            disk = Session.open(disk.path)  # type: ignore[arg-type]
            assert disk.notices == []
            assert_same_history(mem.history, disk.history)
        elif op == "save_as":
            copies += 1
            disk.save_as(folder / f"copy{copies}.fracas")
        else:
            assert disk.path is not None
            size = disk.path.stat().st_size
            try:
                expected = mem.apply(op)
            except RuleError:
                with pytest.raises(RuleError):
                    disk.apply(op)
                assert disk.path.stat().st_size == size, "a refused command wrote to the file"
                continue
            assert disk.apply(op) == expected
    return mem, disk


@pytest.mark.parametrize("rules", RULESETS)
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), seed=st.integers(0, 2**31 - 1), every=st.sampled_from((2, 1000)))
def test_save_load_equal(rules: str, data: st.DataObject, seed: int, every: int) -> None:
    ops = data.draw(moves(rules))
    with tempfile.TemporaryDirectory() as tmp, mock.patch.object(fmt, "CHECKPOINT_EVERY", every):
        mem, disk = play_both(rules, seed, ops, Path(tmp))
        disk.close()
        assert disk.path is not None
        for readonly in (True, False):
            back = Session.open(disk.path, readonly=readonly)
            assert back.notices == []
            assert_same_history(mem.history, back.history)
            back.close()
        # undo walks back to the start of the fight on the reopened file, and redo comes back
        back = Session.open(disk.path)
        steps = 0
        while back.undo() is not None:
            steps += 1
        assert back.state == mem.history.nodes[0].state
        assert steps == len(mem.history.path()) - 1
        for _ in range(steps):
            assert back.redo() is not None
        assert back.state == mem.state
        back.close()
        again = Session.open(disk.path, readonly=True)
        assert again.state == mem.state and len(again.history.nodes) == len(mem.history.nodes)


def test_a_statblock_and_per_copy_stats_survive_a_save_and_reopen(tmp_path: Path) -> None:
    path = tmp_path / "lib.fracas"
    s = Session.create(path, new_fight("d20", "Library", 3))
    block = '{"type":"d20","name":"Goblin","attacks":[{"name":"Scimitar","bonus":4}]}'
    per_copy = ((("hp", 4),), (("hp", 11),))
    s.apply(C.AddCombatant("Goblin", count=2, stats=(("hp", 7),), statblock=block, copies=per_copy))
    s.apply(C.StartFight())
    s.close()
    again = Session.open(path)
    try:
        gobs = [c for c in again.state.combatants if c.name.startswith("Goblin")]
        assert [c.hp for c in gobs] == [4, 11] and all(c.statblock == block for c in gobs)
        again.undo()
        again.undo()
        assert not again.state.combatants  # the add was one step
    finally:
        again.close()
