"""Conditions and durations (issue 2, item 7): turn start / end after N, end of phase P after N
rounds and end of round in nine-phase, turn hooks for rulesets, and expiry as a logged event."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from engine import RuleError, describe
from engine import commands as C
from engine import events as E
from engine.ruleset import REGISTRY, Ruleset, begin_turn, finish_turn
from engine.state import Clock, Duration
from tests.engine.support import add, by_name, cid, of, play, setup


def d20_three():
    f = setup("d20", add("Ana", dex=10), add("Bo", dex=10), add("Cy", dex=10))
    init = tuple((cid(f, n), (v,)) for n, v in {"Ana": 20, "Bo": 15, "Cy": 10}.items())
    return play(f, C.StartFight(initiative=init))[0]


def turns_until_gone(f, who: str, condition: str, limit: int = 30):
    """Press next until the condition ends; return (turn starts seen, the end event, state)."""
    seen = []
    for _ in range(limit):
        f, ev = play(f, C.NextTurn())
        seen += [(e.name, f.round) for e in of(ev, E.TurnStarted)]
        ended = [e for e in of(ev, E.ConditionEnded) if e.condition == condition]
        if ended:
            assert not by_name(f, who).has(condition)
            return seen, ended[0], ev, f
        assert by_name(f, who).has(condition)
    raise AssertionError(f"{condition} never ended")


def test_condition_ends_at_start_of_a_combatants_turn_after_n():
    f = d20_three()  # Ana's turn, round 1
    bo = cid(f, "Bo")
    f, ev = play(f, C.AddCondition(cid(f, "Cy"), "Blessed", duration=Duration("turn_start", bo, 2)))
    assert describe(of(ev, E.ConditionAdded)[0]).endswith("(until the start of Bo's turn 2 turns from now)")
    seen, ended, ev, f = turns_until_gone(f, "Cy", "Blessed")
    # Bo's turn in round 1, then Bo's turn in round 2: it ends as the second one starts
    assert seen[-1] == ("Bo", 2)
    assert [x for x in seen if x[0] == "Bo"] == [("Bo", 1), ("Bo", 2)]
    assert ended.reason == "expired at the start of Bo's turn"
    # the expiry is in the log, after the turn it belongs to begins
    lines = [describe(e) for e in ev]
    assert lines.index("Bo's turn") < lines.index("Cy is no longer Blessed (expired at the start of Bo's turn)")


def test_condition_ends_at_end_of_a_combatants_turn_after_n():
    f = d20_three()
    cy = cid(f, "Cy")
    f, _ = play(f, C.AddCondition(cid(f, "Ana"), "Dodging", duration=Duration("turn_end", cy, 1)))
    seen, ended, ev, f = turns_until_gone(f, "Ana", "Dodging")
    # Cy's turn ends and Ana's next turn begins in the same press of next
    assert ended.reason == "expired at the end of Cy's turn"
    assert of(ev, E.TurnEnded)[0].name == "Cy"
    assert seen[-1] == ("Ana", 2)


def test_turn_end_duration_set_during_its_own_turn_counts_that_turn():
    f = d20_three()
    ana = cid(f, "Ana")
    assert f.current == ana
    f, _ = play(f, C.AddCondition(ana, "Raging", duration=Duration("turn_end", ana, 2)))
    seen, ended, ev, f = turns_until_gone(f, "Ana", "Raging")
    # this turn is the first end, her round-2 turn the second
    assert ended.reason == "expired at the end of its turn"
    assert f.round == 2 and of(ev, E.TurnEnded)[0].name == "Ana"


def test_lost_turns_count_for_durations():
    f = setup("d20", add("Ana"), add("Bo"))
    init = ((cid(f, "Ana"), (20,)), (cid(f, "Bo"), (1,)))
    f, _ = play(f, C.AddCondition(cid(f, "Bo"), "Hexed", duration=Duration("turn_end", cid(f, "Bo"), 1)))
    f, ev = play(f, C.StartFight(initiative=init, surprised=(cid(f, "Bo"),)))
    f, ev = play(f, C.NextTurn())
    assert [e.name for e in of(ev, E.TurnSkipped)] == ["Bo"]
    assert not by_name(f, "Bo").has("Hexed")


@pytest.mark.parametrize("rules", ["cosmere", "warhammer"])
def test_turn_durations_count_in_the_other_turn_based_rulesets(rules):
    f = setup(rules, add("Ana", "pc", "party"), add("Bo"))
    ana = cid(f, "Ana")
    f, _ = play(f, C.StartFight(), C.AddCondition(cid(f, "Bo"), "Marked", duration=Duration("turn_end", ana, 1)))
    for _ in range(12):
        f, ev = play(f, C.NextTurn())
        if of(ev, E.TurnEnded) and of(ev, E.TurnEnded)[0].who == ana:
            break
    assert not by_name(f, "Bo").has("Marked")
    assert [e.reason for e in of(ev, E.ConditionEnded)] == ["expired at the end of Ana's turn"]


def ninephase_two():
    f = setup("ninephase", add("Orc"), add("Elf"))
    return play(f, C.StartFight())[0]


def to_phase(f, round_: int, phase: int):
    assert (round_, phase) >= (f.round, f.phase), "that phase is behind us"
    out = []
    while (f.round, f.phase) != (round_, phase):
        f, ev = play(f, C.NextTurn())
        out += ev
    return f, out


def test_ninephase_condition_ends_at_end_of_phase_p_after_n_rounds():
    f = ninephase_two()
    f, _ = to_phase(f, 1, 4)
    # an effect of 2 rounds taken in phase 4 of round 1 ends at the end of phase 4 of round 3
    f, ev = play(f, C.AddCondition("c1", "Slowed", duration=Duration("phase_end", round=3, phase=4)))
    assert describe(ev[0]) == "Orc is Slowed (until the end of phase 4 of round 3)"
    f, ev = to_phase(f, 3, 4)
    assert by_name(f, "Orc").has("Slowed") and not of(ev, E.ConditionEnded)
    f, ev = play(f, C.NextTurn())
    assert (f.round, f.phase) == (3, 5)
    assert [describe(e) for e in of(ev, E.ConditionEnded)] == [
        "Orc is no longer Slowed (expired at the end of phase 4)"
    ]
    assert not by_name(f, "Orc").has("Slowed")


def test_ninephase_condition_ends_at_end_of_round():
    f = ninephase_two()
    f, _ = to_phase(f, 1, 6)
    f, _ = play(f, C.AddCondition("c2", "Blinded", duration=Duration("round_end", round=1)))
    f, ev = to_phase(f, 1, 9)
    assert by_name(f, "Elf").has("Blinded")
    f, ev = play(f, C.NextTurn())
    assert f.round == 2
    lines = [describe(e) for e in ev]
    assert "Elf is no longer Blinded (expired at the end of the round)" in lines
    assert lines.index("Elf is no longer Blinded (expired at the end of the round)") < lines.index("Round 2")


def test_durations_already_over_or_foreign_to_the_ruleset_are_refused():
    f = ninephase_two()
    f, _ = to_phase(f, 2, 5)
    for d in (Duration("phase_end", round=2, phase=4), Duration("phase_end", round=1, phase=9),
              Duration("round_end", round=1), Duration("phase_end", round=2, phase=10)):
        with pytest.raises(RuleError):
            play(f, C.AddCondition("c1", "Slowed", duration=d))
    # the current phase is still fine: it ends when this phase does
    play(f, C.AddCondition("c1", "Slowed", duration=Duration("phase_end", round=2, phase=5)))
    # nine-phase has no turns to count
    with pytest.raises(RuleError, match="end of a phase or of a round"):
        play(f, C.AddCondition("c1", "Slowed", duration=Duration("turn_end", "c1", 1)))
    # and the turn-based rulesets have no phases to end at
    g = d20_three()
    for d in (Duration("phase_end", round=1, phase=3), Duration("round_end", round=2)):
        with pytest.raises(RuleError, match="start or end of a combatant's turn"):
            play(g, C.AddCondition("c1", "Slowed", duration=d))
    with pytest.raises(RuleError, match="at most 10,000 rounds"):
        play(f, C.AddCondition("c1", "Slowed", duration=Duration("round_end", round=10**9)))


def test_manual_conditions_last_until_removed():
    f = d20_three()
    f, _ = play(f, C.AddCondition("c2", "Prone"))
    for _ in range(9):
        f, _ = play(f, C.NextTurn())
    assert by_name(f, "Bo").has("Prone")


class _Slot(Clock, frozen=True, gc=False, omit_defaults=True, tag="test-hooks"):
    slot: int = 0  # the index in `order` acting; -1 before the first turn

    @property
    def number(self) -> int:
        return self.slot

    def with_number(self, n: int) -> _Slot:
        return _Slot(n)


class _Hooked(Ruleset):
    """A minimal round-robin ruleset that logs its start- and end-of-turn hooks, as Bleeding or a
    repeated save would: a new system plugs into the generic engine without touching it."""

    id = "test-hooks"
    title = "Hooks"
    clock_type = _Slot

    def start(self, f, cmd, ev):
        f = replace(f, round=1, clock=_Slot(-1), order=tuple(c.id for c in f.combatants))
        return self.advance(f, ev)

    def advance(self, f, ev):
        if f.current:
            f = finish_turn(self, f, ev)
        idx = f.phase + 1
        if idx >= len(f.order):
            f, idx = replace(f, round=f.round + 1), 0
            ev.append(E.RoundStarted(f.round))
        return begin_turn(self, replace(f, clock=_Slot(idx)), f.order[idx], ev)

    def turn_start_effects(self, f, cid, ev):
        c = f.get(cid)
        if c.has("Bleeding"):
            ev.append(E.Info(f"{c.name} bleeds", cid))
        return f

    def turn_end_effects(self, f, cid, ev):
        c = f.get(cid)
        if c.has("Confused"):
            ev.append(E.Info(f"{c.name} repeats the save", cid))
        return f


@pytest.fixture
def hooked():
    REGISTRY[_Hooked.id] = _Hooked()
    yield _Hooked.id
    del REGISTRY[_Hooked.id]


def test_rulesets_hook_start_and_end_of_turn_effects(hooked):
    f = setup(hooked, add("Ana"), add("Bo"))
    f, _ = play(f, C.AddCondition("c1", "Bleeding"), C.AddCondition("c1", "Confused"))
    f, ev = play(f, C.StartFight(initiative=(("c1", (20,)), ("c2", (1,)))))
    lines = [describe(e) for e in ev]
    assert lines[-2:] == ["Ana's turn", "Ana bleeds"]
    f, ev = play(f, C.NextTurn())
    lines = [describe(e) for e in ev]
    assert lines[:2] == ["Ana repeats the save", "Ana ends the turn"]
    f, ev = play(f, C.NextTurn())
    # Bo is neither bleeding nor confused: only Ana's round-2 turn start has an effect
    assert [describe(e) for e in of(ev, E.Info)] == ["Ana bleeds"]
