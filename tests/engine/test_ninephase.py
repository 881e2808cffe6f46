"""Nine-phase turn structure and action economy (issue 2, item 6, third bullet; rules/ninephase.txt)."""

from __future__ import annotations

import pytest

from engine import RuleError, get_ruleset
from engine import commands as C
from engine import events as E
from engine.rules.ninephase import catalog as K
from engine.rules.ninephase.commands import Activity
from engine.rules.ninephase.events import ChannelInterrupted, ChannelResolved
from tests.engine.support import add, by_name, cid, frozen_copy, log, of, play, setup


def fight():
    f = setup("ninephase", add("Archer", "pc", "party"), add("Goblin"), add("Orc", hp=12, grit=3))
    return play(f, C.StartFight())[0]


def to_phase(f, phase: int, round_: int | None = None):
    """Press next until the given phase (of this round unless said); never loops past it."""
    round_ = f.round if round_ is None else round_
    assert (round_, phase) >= (f.round, f.phase), "that phase is behind us"
    events = []
    while (f.round, f.phase) != (round_, phase):
        f, ev = play(f, C.NextTurn())
        events += ev
    return f, events


def act(who: str, name: str, **kw) -> Activity:
    return Activity(who, name, **kw)


def test_ninephase_nine_phases_a_round():
    f = fight()
    assert (f.round, f.phase) == (1, 1)
    labels = []
    for _ in range(9):
        f, ev = play(f, C.NextTurn())
        labels += [e.label for e in of(ev, E.PhaseStarted)]
    assert labels == [f"Phase {p}" for p in range(2, 10)] + ["Phase 1"]
    assert f.round == 2
    assert get_ruleset("ninephase").phase_label(f) == "Round 2 · Phase 1"


def test_ninephase_three_actions_one_reaction_per_round():
    f = fight()
    a = cid(f, "Archer")
    f, _ = play(f, act(a, "Shout"), C.NextTurn(), act(a, "Sprint", cost=2))
    assert by_name(f, "Archer").economy.actions == 0
    f, _ = play(f, C.NextTurn())
    with pytest.raises(RuleError, match="costs 1 action and Archer has 0 left"):
        play(f, act(a, "Kick"))
    # the one reaction of the round
    f, _ = play(f, act(a, "Duck", reaction=True), C.NextTurn())
    with pytest.raises(RuleError, match="already used its reaction this round"):
        play(f, act(a, "Dodge", reaction=True))
    # unused actions and reactions are lost at round end, and everything comes back
    f, ev = to_phase(f, 1, 2)
    assert "Goblin 3 actions and the reaction" in " ".join(log(ev))
    e = by_name(f, "Archer").economy
    assert (e.actions, e.reactions, e.used, e.phases, e.master) == (3, 1, (), (), False)


def test_ninephase_reaction_spends_no_action_unless_it_says():
    f = fight()
    a = cid(f, "Archer")
    f, _ = play(f, act(a, "Parry", reaction=True))
    assert by_name(f, "Archer").economy.actions == 3
    # one that says it costs an action does
    g = fight()
    g, _ = play(g, act(a, "Riposte", reaction=True, cost=1))
    assert by_name(g, "Archer").economy.actions == 2
    # with every action spent, a reaction that costs none is still there
    f = fight()
    f, _ = play(f, act(a, "Charge", cost=3), C.NextTurn(), K.DoActivity(a, "Opportunity Attack"))
    e = by_name(f, "Archer").economy
    assert (e.actions, e.reactions) == (0, 0)


def test_ninephase_one_act_or_react_per_phase():
    f = fight()
    a = cid(f, "Archer")
    f, _ = play(f, act(a, "Shout"))
    before = frozen_copy(f)
    with pytest.raises(RuleError, match="already acted in phase 1"):
        play(f, act(a, "Duck", reaction=True))
    with pytest.raises(RuleError, match="already acted in phase 1"):
        play(f, act(a, "Wave"))
    assert frozen_copy(f) == before
    f, _ = play(f, C.NextTurn(), act(a, "Duck", reaction=True))
    with pytest.raises(RuleError, match="already reacted in phase 2"):
        play(f, act(a, "Wave"))
    # a 0-cost activity still uses the turn for the phase
    f, _ = play(f, C.NextTurn(), act(a, "Glance", cost=0))
    with pytest.raises(RuleError, match="already acted in phase 3"):
        play(f, act(a, "Wave"))
    assert a not in get_ruleset("ninephase").actors(f)
    # next phase it may act again with what it has left
    f, _ = play(f, C.NextTurn(), act(a, "Wave"))


def test_ninephase_activity_costs_zero_to_three():
    f = fight()
    a = cid(f, "Archer")
    for cost in (-1, 4):
        with pytest.raises(RuleError, match="costs 0 to 3"):
            play(f, act(a, "Odd", cost=cost))
    with pytest.raises(RuleError, match="needs a name"):
        play(f, act(a, "  "))


def test_ninephase_earliest_phase_and_phase_lock():
    f = fight()
    a = cid(f, "Archer")
    # listed phase 3: not in 1 or 2, but in 3 or any later phase
    with pytest.raises(RuleError, match="cannot start before phase 3"):
        play(f, act(a, "Move", earliest=3))
    f3, _ = to_phase(f, 3)
    play(f3, act(a, "Move", earliest=3))
    f7, _ = to_phase(f, 7)
    play(f7, act(a, "Move", earliest=3))
    # Phase Lock 3: only in phase 3
    with pytest.raises(RuleError, match="Phase Locked to phase 3; it is phase 7"):
        play(f7, act(a, "Aimed Shot", earliest=3, lock=True))
    play(f3, act(a, "Aimed Shot", earliest=3, lock=True))
    with pytest.raises(RuleError, match="Phase Locked: give the phase"):
        play(f3, act(a, "Aimed Shot", lock=True))
    # no phase listed: any phase
    play(f, act(a, "Shout"))
    # a weapon's Speed Factor is its earliest phase
    with pytest.raises(RuleError, match="cannot start before phase 5"):
        play(f3, K.DoActivity(a, "Weapon attack", speed=5))
    f5, _ = to_phase(f, 5)
    f5, ev = play(f5, K.DoActivity(a, "Weapon attack", speed=5))
    assert "Master Action" in log(ev)[0]


def test_ninephase_one_master_action_a_round_master_reaction_counts():
    f = fight()
    a, g = cid(f, "Archer"), cid(f, "Goblin")
    f, _ = play(f, act(a, "Loose", master=True), C.NextTurn())
    with pytest.raises(RuleError, match="already used its Master Action this round"):
        play(f, act(a, "Stab", master=True))
    # a Master Action leaves the reaction, and the remaining actions, for later phases
    assert by_name(f, "Archer").economy.reactions == 1
    f, _ = play(f, act(a, "Step"), C.NextTurn())
    # ... but not a Master Reaction, which would be a second Master Action
    with pytest.raises(RuleError, match="already used its Master Action this round"):
        play(f, act(a, "Counterspell", reaction=True, master=True))
    f, _ = play(f, act(a, "Duck", reaction=True))
    # a Master Reaction counts as the Master Action of the round ...
    f, _ = play(f, act(g, "Counterspell", reaction=True, master=True), C.NextTurn())
    with pytest.raises(RuleError, match="already used its Master Action this round"):
        play(f, act(g, "Stab", master=True))
    # ... but leaves the three actions untouched
    assert by_name(f, "Goblin").economy.actions == 3
    # a new round brings a new Master Action
    f, _ = to_phase(f, 1, 2)
    play(f, act(a, "Loose", master=True))


def test_ninephase_each_activity_once_per_round():
    f = fight()
    a = cid(f, "Archer")
    f, _ = play(f, act(a, "Shout", cost=0), C.NextTurn())
    with pytest.raises(RuleError, match="(?i)already attempted shout this round"):
        play(f, act(a, "shout", cost=0))
    # unless it says it can be repeated
    f, _ = play(f, act(a, "Reload", repeatable=True), C.NextTurn(), act(a, "Reload", repeatable=True))
    f, _ = to_phase(f, 1, 2)
    play(f, act(a, "Shout", cost=0))


def test_ninephase_channel_resolves_after_cost_phases():
    f = fight()
    a = cid(f, "Archer")
    f, _ = to_phase(f, 3)
    f, ev = play(f, act(a, "Storm", cost=3, earliest=3, channel=True))
    assert log(ev)[-1] == "Archer begins channeling Storm in phase 3, resolving in phase 6"
    c = by_name(f, "Archer")
    assert c.economy.actions == 0 and c.economy.master
    resolved = []
    for _ in range(3):
        f, ev = play(f, C.NextTurn())
        resolved += [(e.activity, e.phase, f.phase) for e in of(ev, ChannelResolved)]
    assert resolved == [("Storm", 6, 6)]
    # its completion is not another turn: the reaction is still free in phase 6
    play(f, act(a, "Duck", reaction=True))
    # a channel must be able to finish in the round, and is phase locked
    f8, _ = to_phase(fight(), 8)
    with pytest.raises(RuleError, match="after the round ends"):
        play(f8, act(a, "Storm", cost=3, earliest=8, channel=True))
    with pytest.raises(RuleError, match="Phase Locked"):
        play(f8, act(a, "Storm", cost=1, channel=True))


def test_ninephase_channel_breaks_on_damage_or_a_save_strictly_inside_its_window():
    f = fight()
    a = cid(f, "Archer")
    f, _ = to_phase(f, 3)
    f, _ = play(f, act(a, "Storm", cost=3, earliest=3, channel=True))
    # damage in the starting phase is adjudicated with it: no interruption
    f, ev = play(f, C.Damage(a, 1))
    assert not of(ev, ChannelInterrupted)
    g, _ = to_phase(f, 4)
    g, ev = play(g, C.Damage(a, 1))
    assert of(ev, ChannelInterrupted)
    h, _ = to_phase(f, 5)
    h, ev = play(h, C.SavingThrow(a, "d20", dc=10, given=(15,)))
    assert of(ev, ChannelInterrupted)
    # an Uninterruptible Channel holds
    u = fight()
    u, _ = to_phase(u, 2)
    u, _ = play(u, act(a, "Ward", cost=2, earliest=2, uninterruptible=True), C.NextTurn(), C.Damage(a, 2))
    assert not of(_, ChannelInterrupted)


def test_ninephase_dropped_combatant_completes_its_phase_and_cannot_act_after():
    f = fight()
    a, g = cid(f, "Archer"), cid(f, "Goblin")
    f, _ = to_phase(f, 2)
    # the archer's arrow drops the goblin in phase 2 ...
    f, _ = play(f, act(a, "Loose", master=True))
    f, ev = play(f, C.Damage(g, 50))
    assert log(of(ev, E.Dropped)) == ["Goblin drops in phase 2; it finishes this phase and cannot act after"]
    # ... but the goblin acts in phase 2 too: both are adjudicated together
    f, _ = play(f, act(g, "Loose", master=True))
    f, _ = play(f, C.Damage(a, 3))
    assert [p.current for p in by_name(f, "Archer").health] == [10, 2]  # Grit first
    # from phase 3 on it cannot act or react
    f, _ = play(f, C.NextTurn())
    assert g not in get_ruleset("ninephase").actors(f)
    with pytest.raises(RuleError, match="dropped in an earlier phase"):
        play(f, act(g, "Crawl"))
    with pytest.raises(RuleError, match="dropped in an earlier phase"):
        play(f, act(g, "Duck", reaction=True))
    # nor next round; healed, it can
    f, _ = to_phase(f, 1, 2)
    with pytest.raises(RuleError, match="dropped"):
        play(f, act(g, "Crawl"))
    f, _ = play(f, C.Heal(g, 2, pool="hp"), act(g, "Crawl"))


def test_ninephase_has_no_surprise_and_no_turn_order():
    f = setup("ninephase", add("A"), add("B"))
    with pytest.raises(RuleError, match="no Surprised rule"):
        play(f, C.StartFight(surprised=("c1",)))
    f, _ = play(f, C.StartFight())
    assert f.current == "" and f.order == ()
    assert get_ruleset("ninephase").actors(f) == ("c1", "c2")
    with pytest.raises(RuleError, match="no fixed turn order"):
        play(f, C.Reorder("c1", 1))
