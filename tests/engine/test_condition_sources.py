"""The same condition from two sources (issue 25, item 5c): the longer stands whole, a shorter one
given later is said in the log and dropped; one as long or longer replaces it (docs/conditions.md)."""

from __future__ import annotations

from engine import commands as C
from engine import events as E
from engine.core import ends_at, outlasts
from engine.state import Duration
from tests.engine.support import add, by_name, cid, of, play, setup
from tests.engine.test_durations import d20_three, turns_until_gone


def test_a_shorter_blessed_from_another_source_does_not_cut_a_longer_one_short() -> None:
    f = d20_three()  # Ana's turn, round 1: Ana, Bo, Cy
    ana, bo, cy = cid(f, "Ana"), cid(f, "Bo"), cid(f, "Cy")
    f, _ = play(f, C.AddCondition(cy, "Blessed", Duration("turn_end", ana, 3), source=ana))
    f, ev = play(f, C.AddCondition(cy, "Blessed", Duration("turn_end", bo, 1), source=bo))
    held = by_name(f, "Cy").condition("Blessed")
    assert held is not None and held.duration == Duration("turn_end", ana, 3) and held.source == ana
    assert not of(ev, E.ConditionAdded)
    (line,) = of(ev, E.Info)
    assert "Cy stays Blessed" in line.text and "would end sooner" in line.text
    # and it lasts its three rounds: Ana's third turn end from now (the current one counted)
    seen, ended, _, _ = turns_until_gone(f, "Cy", "Blessed")
    assert ended.reason == "expired at the end of Ana's turn" and seen[-1] == ("Bo", 3)


def test_a_longer_one_given_later_replaces_the_shorter() -> None:
    f = d20_three()
    ana, bo, cy = cid(f, "Ana"), cid(f, "Bo"), cid(f, "Cy")
    f, _ = play(f, C.AddCondition(cy, "Blessed", Duration("turn_end", bo, 1), source=bo))
    f, ev = play(f, C.AddCondition(cy, "Blessed", Duration("turn_start", ana, 2), source=ana))
    held = by_name(f, "Cy").condition("Blessed")
    assert held is not None and held.duration == Duration("turn_start", ana, 2) and held.source == ana
    assert [e.condition for e in of(ev, E.ConditionAdded)] == ["Blessed"]


def test_one_as_long_replaces_and_until_removed_outlasts_any_end() -> None:
    f = d20_three()
    ana, cy = cid(f, "Ana"), cid(f, "Cy")
    f, _ = play(f, C.AddCondition(cy, "Prone", Duration("turn_end", ana, 2), note="first"))
    f, _ = play(f, C.AddCondition(cy, "Prone", Duration("turn_end", ana, 2), note="second"))
    held = by_name(f, "Cy").condition("Prone")
    assert held is not None and held.note == "second"
    f, _ = play(f, C.AddCondition(cy, "Prone"))  # until removed: longer than any end
    f, ev = play(f, C.AddCondition(cy, "Prone", Duration("turn_end", ana, 5)))
    held = by_name(f, "Cy").condition("Prone")
    assert held is not None and held.duration.kind == "manual" and of(ev, E.Info)


def test_ends_compare_across_whose_turn_it_counts() -> None:
    f = d20_three()  # Ana acts first; Bo and Cy are still to act this round
    ana, bo, cy = cid(f, "Ana"), cid(f, "Bo"), cid(f, "Cy")
    # Cy's next turn start comes this round, Ana's next start only in the next round
    assert outlasts(f, Duration("turn_start", ana, 1), Duration("turn_start", cy, 1))
    # Ana's turn end is ahead (her turn is under way), before Bo's
    assert outlasts(f, Duration("turn_end", bo, 1), Duration("turn_end", ana, 1))
    assert ends_at(f, Duration("turn_end", ana, 1))[0] == 0  # type: ignore[index]
    assert ends_at(f, Duration()) is None
    # the end of the round comes after every turn of it
    assert outlasts(f, Duration("round_end", round=f.round), Duration("turn_end", cy, 1))
    assert not outlasts(f, Duration("turn_end", cy, 1), Duration("turn_end", cy, 1))


def test_nine_phase_compares_phases_and_rounds() -> None:
    f = setup("ninephase", add("Orc"), add("Elf"))
    f, _ = play(f, C.StartFight())
    orc = cid(f, "Orc")
    r = f.round
    f, _ = play(f, C.AddCondition(orc, "Debilitated", Duration("phase_end", round=r + 1, phase=3)))
    f, ev = play(f, C.AddCondition(orc, "Debilitated", Duration("phase_end", round=r, phase=8)))
    held = by_name(f, "Orc").condition("Debilitated")
    assert held is not None and held.duration.round == r + 1 and of(ev, E.Info)
    f, _ = play(f, C.AddCondition(orc, "Debilitated", Duration("round_end", round=r + 1)))
    held = by_name(f, "Orc").condition("Debilitated")
    assert held is not None and held.duration.kind == "round_end"
