"""Nine-phase channels whose activity says they may finish after the round ends: they run on into the
next round, keep their interruption window across the round change and resolve in the new round."""

from __future__ import annotations

from engine import commands as C
from engine.rules.ninephase import board as B
from engine.rules.ninephase import catalog as K
from engine.rules.ninephase.commands import Activity
from engine.state import ActivitySpec
from tests.rules.test_ninephase_text import fight, play, refused, to_phase

# cost 3, Phase Lock 8, and its text lets it finish next round: begins in 8, resolves in phase 2 of the next round
STORM = ActivitySpec("Call Storm", cost=3, phase=8, channel=True, across_rounds=True)


def with_storm(*names: str):  # type: ignore[no-untyped-def]
    f, _ = play(fight(*names), K.DefineActivity(STORM))
    return f


def test_a_channel_that_may_finish_next_round_is_allowed_late_and_says_when_it_resolves():
    f = to_phase(with_storm("Mirelle", "Orc"), 8)
    f, log = play(f, K.DoActivity("c1", "Call Storm"))
    assert log[-1] == "Mirelle begins channeling Call Storm in phase 8, resolving in phase 2 of the next round"
    row = B.board(f)[0]
    assert row.cells[7][-1].text == "begins Call Storm (resolves in phase 2 next round)"
    assert [i.kind for i in row.cells[8]] == ["channeling"]  # the rest of this round's span


def test_it_resolves_in_the_next_round_and_is_announced_when_that_phase_begins():
    f = to_phase(with_storm("Mirelle", "Orc"), 8)
    f, _ = play(f, K.DoActivity("c1", "Call Storm"))
    f = to_phase(f, 9)
    f, log = play(f, C.NextTurn())  # round 2, phase 1: still channeling
    assert (f.round, f.phase) == (2, 1)
    assert not any("resolves" in line for line in log)
    assert [i.kind for i in B.board(f)[0].cells[0]] == ["channeling"]
    f, log = play(f, C.NextTurn())  # phase 2: it resolves
    assert "Mirelle's channel Call Storm resolves in phase 2" in log
    assert [i.kind for i in B.board(f)[0].cells[1]] == ["resolves"]
    # its actions were spent in the round it began; this round's are fresh
    assert f.get("c1").economy.actions == 3


def test_damage_in_the_new_round_before_it_resolves_interrupts_it_and_at_resolution_does_not():
    f = to_phase(with_storm("Mirelle", "Orc"), 8)
    f, _ = play(f, K.DoActivity("c1", "Call Storm"))
    f = to_phase(to_phase(f, 9), 1)  # round 2, phase 1: inside the window (phases 9, 1)
    g, log = play(f, C.Damage("c1", amount=1))
    assert log[-1].startswith("Mirelle's channel Call Storm is interrupted (took damage in phase 1)")
    # in its completion phase damage no longer interrupts it
    h, _ = play(f, C.NextTurn())
    h, log = play(h, C.Damage("c1", amount=1))
    assert not any("interrupted" in line for line in log)


def test_a_channel_of_a_cost_3_activity_begun_in_phase_7_resolves_in_phase_1():
    spec = ActivitySpec("Slow Ward", cost=3, phase=7, channel=True, across_rounds=True)
    f, _ = play(fight("Mirelle"), K.DefineActivity(spec))
    f = to_phase(f, 7)
    f, _ = play(f, K.DoActivity("c1", "Slow Ward"))
    f = to_phase(f, 9)
    f, log = play(f, C.NextTurn())
    assert (f.round, f.phase) == (2, 1)
    assert "Mirelle's channel Slow Ward resolves in phase 1" in log


def test_without_the_permission_it_is_still_refused_and_only_a_channel_can_have_it():
    f = fight("Mirelle")
    refused(f, K.DefineActivity(ActivitySpec("Call Storm", cost=3, phase=8, channel=True)), "after the round ends")
    refused(f, K.DefineActivity(ActivitySpec("Shout", cost=1, across_rounds=True)), "only a channel")
    # the ad-hoc activity takes the same permission
    f = to_phase(f, 8)
    g, log = play(f, Activity("c1", "Call Storm", cost=3, earliest=8, channel=True, across_rounds=True))
    assert log[-1].endswith("resolving in phase 2 of the next round")
    refused(f, Activity("c1", "Call Storm", cost=3, earliest=8, channel=True), "after the round ends")


def test_a_channel_that_finished_in_the_round_is_not_carried():
    fb = ActivitySpec("Fireball", cost=3, phase=3, channel=True)
    f, _ = play(with_storm("Mirelle"), K.DefineActivity(fb))
    f = to_phase(f, 3)
    f, _ = play(f, K.DoActivity("c1", "Fireball"))
    f = to_phase(to_phase(f, 9), 1)
    assert f.get("c1").channels == ()


def test_two_channels_of_one_activity_are_told_apart_by_the_phase_they_began():
    # one runs on from last round's phase 8 and the same activity is begun again in phase 1
    f = to_phase(fight("Mirelle", "Orc"), 8)
    f, _ = play(f, Activity("c1", "Gale", cost=3, earliest=8, channel=True, across_rounds=True))
    f = to_phase(to_phase(f, 9), 1)
    f, _ = play(f, Activity("c1", "Gale", cost=2, earliest=1, channel=True))
    assert [ch.activity for ch in f.get("c1").channels if ch.status == ""] == ["Gale", "Gale"]
    refused(f, K.StopChannel("c1", "Gale"), "say which by the phase it began")
    refused(f, K.StopChannel("c1", "Gale", start=5), "no channel called Gale begun in phase 5")
    g, log = play(f, K.StopChannel("c1", "Gale", start=8))
    live = [ch for ch in g.get("c1").channels if ch.status == ""]
    assert [ch.start for ch in live] == [1]
    assert "Gale is interrupted" in log[-1]
