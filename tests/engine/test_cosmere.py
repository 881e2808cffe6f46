"""Cosmere turn structure and action economy (issue 2, item 6, second bullet; rules/cosmere.txt)."""

from __future__ import annotations

import pytest

from engine import RuleError, get_ruleset
from engine import commands as C
from engine import events as E
from engine.rules.cosmere.commands import ChooseSpeed, StartTurn
from tests.engine.support import add, by_name, cid, frozen_copy, names, of, play, setup


def party():
    """Two PCs, an allied NPC and two enemies; d20 tie-breakers entered by hand."""
    f = setup(
        "cosmere",
        add("Kal", "pc", "party", speed=30),
        add("Shal", "pc", "party", speed=25),
        add("Teft", "npc", "party", speed=25),
        add("Parshendi", speed=25),
        add("Assassin", speed=40),
    )
    dice = {"Kal": 10, "Shal": 12, "Teft": 5, "Parshendi": 15, "Assassin": 3}
    return f, tuple((cid(f, n), (v,)) for n, v in dice.items())


def started(surprised: tuple[str, ...] = ()):
    f, init = party()
    return play(f, C.StartFight(initiative=init, surprised=tuple(cid(f, n) for n in surprised)))


def turn_of(ev) -> list[tuple[str, str]]:
    return [(e.name, e.detail) for e in of(ev, E.TurnStarted)]


def test_cosmere_fast_turn_two_actions_slow_turn_three():
    f, _ = started()
    kal, para = cid(f, "Kal"), cid(f, "Parshendi")
    f, ev = play(f, StartTurn(kal, "fast"))
    assert by_name(f, "Kal").economy.actions == 2
    assert turn_of(ev) == [("Kal", "fast turn, 2 actions")]
    f, ev = play(f, C.NextTurn(), StartTurn(para, "slow"))
    assert by_name(f, "Parshendi").economy.actions == 3
    assert f.phase == 3  # the slow NPC phase


def test_cosmere_phases_run_fast_pcs_fast_npcs_slow_pcs_slow_npcs():
    f, _ = started()
    f, _ = play(
        f,
        ChooseSpeed(cid(f, "Shal"), "fast"),
        ChooseSpeed(cid(f, "Assassin"), "fast"),
        ChooseSpeed(cid(f, "Kal"), "slow"),
    )
    turns, phases = [], []
    for _ in range(6):
        f, ev = play(f, C.NextTurn())
        turns += [e.name for e in of(ev, E.TurnStarted)]
        phases += [e.label for e in of(ev, E.PhaseStarted)]
    # fast PC, fast NPC, slow PC, then the slow NPCs (the allied NPC among them)
    assert turns[:3] == ["Shal", "Assassin", "Kal"]
    assert sorted(turns[3:5]) == ["Parshendi", "Teft"]
    assert phases[:3] == ["Fast NPC turns", "Slow PC turns", "Slow NPC turns"]
    assert [by_name(f, n).economy.actions for n in ("Shal", "Assassin", "Kal")] == [0, 0, 0]
    # once everyone has had a turn the next round starts with the fast PCs
    assert f.round == 2 and f.phase == 0
    assert "Fast PC turns" in phases[3:]
    assert all(not c.economy.done and not c.economy.speed for c in f.combatants)


def test_cosmere_each_combatant_one_turn_a_round():
    f, _ = started()
    kal = cid(f, "Kal")
    f, _ = play(f, StartTurn(kal, "fast"), C.NextTurn())
    with pytest.raises(RuleError, match="already taken its turn"):
        play(f, StartTurn(kal, "slow"))
    with pytest.raises(RuleError, match="already taken its turn"):
        play(f, ChooseSpeed(kal, "slow"))


def test_cosmere_pc_may_choose_fast_at_the_moment_it_acts():
    f, _ = started()
    kal, shal = cid(f, "Kal"), cid(f, "Shal")
    f, _ = play(f, ChooseSpeed(kal, "fast"), C.NextTurn())
    assert f.current == kal
    # Kal's fast turn ends; Shal has not decided, so the fast-PC phase waits for her
    f, ev = play(f, C.NextTurn())
    assert f.current == "" and f.phase == 0
    assert not of(ev, E.PhaseStarted)
    # she decides now, in the moment, to go fast
    f, ev = play(f, StartTurn(shal, "fast"))
    assert turn_of(ev) == [("Shal", "fast turn, 2 actions")]
    assert f.phase == 0
    # pressing next with nobody left to decide moves on to the fast NPCs (none) and slow PCs
    f, ev = play(f, C.NextTurn())
    assert f.phase == 3 or f.current != ""
    # a PC cannot go fast once the fast-PC phase is over
    f2, _ = started()
    f2, _ = play(f2, C.NextTurn())  # nobody chose fast: on to the slow PCs, Kal first
    assert f2.phase == 2 and f2.current == cid(f2, "Kal")
    with pytest.raises(RuleError, match="fast turns .* are over"):
        play(f2, StartTurn(cid(f2, "Shal"), "fast"))
    with pytest.raises(RuleError, match="fast turns .* are over"):
        play(f2, ChooseSpeed(cid(f2, "Shal"), "fast"))


def test_cosmere_pc_without_a_choice_takes_a_slow_turn_once_fast_turns_are_over():
    f, _ = started()
    kal = cid(f, "Kal")
    f, _ = play(f, ChooseSpeed(kal, "fast"), ChooseSpeed(cid(f, "Assassin"), "fast"))
    f, _ = play(f, C.NextTurn(), C.NextTurn())  # Kal went fast; the phase waits for Shal
    assert f.phase == 0 and f.current == ""
    f, _ = play(f, C.NextTurn())  # she does not take it: on to the fast NPC
    assert f.current == cid(f, "Assassin")
    f, ev = play(f, StartTurn(cid(f, "Shal")))
    assert turn_of(ev) == [("Shal", "slow turn, 3 actions")]


def test_cosmere_pc_that_chose_fast_but_missed_the_phase_goes_slow():
    f, _ = started()
    shal = cid(f, "Shal")
    f, _ = play(f, ChooseSpeed(shal, "fast"), ChooseSpeed(cid(f, "Assassin"), "fast"))
    f, _ = play(f, StartTurn(cid(f, "Assassin")))  # the GM moves on to a fast NPC turn
    assert f.phase == 1
    f, ev = play(f, StartTurn(shal))
    assert turn_of(ev) == [("Shal", "slow turn, 3 actions")]


def test_cosmere_gm_picks_which_npcs_go_fast():
    f, _ = started()
    f, _ = play(f, ChooseSpeed(cid(f, "Parshendi"), "fast"))
    rs = get_ruleset("cosmere")
    assert names(f, [c.id for c in rs.suggested(f, 1)]) == ["Parshendi"]
    # the others wait for the slow NPC phase (where a picked NPC that missed its phase may go too)
    assert names(f, [c.id for c in rs.suggested(f, 3)]) == ["Assassin", "Parshendi", "Teft"]
    # the GM may also start an NPC's fast turn directly, in its phase
    f, _ = play(f, C.NextTurn())
    assert f.phase == 1 and f.current == cid(f, "Parshendi")
    f, ev = play(f, StartTurn(cid(f, "Assassin"), "fast"))
    assert turn_of(ev) == [("Assassin", "fast turn, 2 actions")]
    while f.phase < 3:
        f, _ = play(f, C.NextTurn())
    # both fast NPCs are done: only Teft is left for the slow NPC phase
    assert f.current == cid(f, "Teft")
    assert rs.suggested(f, 3) == []


def test_cosmere_allied_npcs_act_in_npc_phases():
    f, _ = started()
    teft = cid(f, "Teft")
    rs = get_ruleset("cosmere")
    assert teft not in [c.id for c in rs.suggested(f, 0)]
    assert teft not in [c.id for c in rs.suggested(f, 2)]
    assert teft in [c.id for c in rs.suggested(f, 3)]
    f, _ = play(f, ChooseSpeed(teft, "fast"))
    assert [c.id for c in rs.suggested(f, 1)] == [teft]
    # an allied NPC cannot slip into a PC phase
    f, _ = play(f, StartTurn(teft, "fast"))
    assert f.phase == 1


def test_cosmere_reaction_at_start_of_every_turn_and_at_start_of_combat():
    f, _ = started()
    kal = cid(f, "Kal")
    assert all(c.economy.reactions == 1 for c in f.combatants)
    # used before its first turn, it is gone ...
    f, _ = play(f, C.UseAction(kal, "reaction", "Dodge"))
    with pytest.raises(RuleError, match="no reaction left"):
        play(f, C.UseAction(kal, "reaction"))
    # ... until the start of its turn, fast or slow
    f, _ = play(f, StartTurn(kal, "fast"))
    assert by_name(f, "Kal").economy.reactions == 1
    # reactions do not stack: an unused one is replaced, not added to
    f, _ = play(f, C.NextTurn(), StartTurn(cid(f, "Shal"), "fast"))
    assert by_name(f, "Shal").economy.reactions == 1
    # a reaction can be used off one's own turn
    f, _ = play(f, C.UseAction(kal, "reaction", "Reactive Strike"))
    assert by_name(f, "Kal").pool("focus").current == 2  # Reactive Strike costs 1 focus


def test_cosmere_surprised_gets_no_starting_reaction_and_loses_it_after_first_turn():
    f, ev = started(surprised=("Parshendi",))
    para = cid(f, "Parshendi")
    assert by_name(f, "Parshendi").has("Surprised")
    assert by_name(f, "Parshendi").economy.reactions == 0
    assert by_name(f, "Kal").economy.reactions == 1
    with pytest.raises(RuleError, match="no reaction"):
        play(f, C.UseAction(para, "reaction"))
    f, _ = play(f, StartTurn(para, "slow"))
    # its own turn brings a reaction; Surprised lasts until the end of that first turn
    assert by_name(f, "Parshendi").economy.reactions == 1
    assert by_name(f, "Parshendi").has("Surprised")
    f, ev = play(f, C.NextTurn())
    assert not by_name(f, "Parshendi").has("Surprised")
    ended = of(ev, E.ConditionEnded)
    assert [(e.name, e.condition) for e in ended] == [("Parshendi", "Surprised")]


def test_cosmere_unused_actions_are_lost_at_end_of_turn():
    f, _ = started()
    kal = cid(f, "Kal")
    f, _ = play(f, StartTurn(kal, "slow"))
    assert f.phase == 2
    f, _ = play(f, C.UseAction(kal, "action", "Strike"))
    f, ev = play(f, C.NextTurn())
    assert of(ev, E.TurnEnded)[0].lost == "2 actions"
    assert by_name(f, "Kal").economy.actions == 0
    # actions belong to one's own turn only
    with pytest.raises(RuleError, match="not Kal's turn"):
        play(f, C.UseAction(kal, "action", "Move"))


def test_cosmere_each_named_action_once_per_turn():
    f, _ = started()
    kal = cid(f, "Kal")
    f, _ = play(f, StartTurn(kal, "slow"), C.UseAction(kal, "action", "Strike"))
    before = frozen_copy(f)
    with pytest.raises(RuleError, match="once per turn"):
        play(f, C.UseAction(kal, "action", "strike"))
    assert frozen_copy(f) == before
    # free actions too: as many different ones as wanted, each once
    f, _ = play(f, C.UseAction(kal, "free", "Banter"), C.UseAction(kal, "free", "Drop"))
    with pytest.raises(RuleError, match="once per turn"):
        play(f, C.UseAction(kal, "free", "Banter"))
    assert by_name(f, "Kal").economy.actions == 2
    # a 3-action activity does not fit in 2 actions; 2 do
    with pytest.raises(RuleError, match="costs 3 actions"):
        play(f, C.UseAction(kal, "action", "Brace", cost=3))
    f, _ = play(f, C.UseAction(kal, "action", "Move", cost=2))
    # next round, Strike is available again
    while f.round == 1:
        f, _ = play(f, C.NextTurn())
    f, _ = play(f, StartTurn(kal, "fast"), C.UseAction(kal, "action", "Strike"))


def test_cosmere_action_costs_are_one_to_three():
    f, _ = started()
    kal = cid(f, "Kal")
    f, _ = play(f, StartTurn(kal, "slow"))
    for cost in (0, 4, -1):
        with pytest.raises(RuleError):
            play(f, C.UseAction(kal, "action", "Odd", cost=cost))
    with pytest.raises(RuleError, match="not 'bonus'"):
        play(f, C.UseAction(kal, "bonus"))


def test_cosmere_suggested_order_by_speed_then_d20():
    f, _ = started()
    rs = get_ruleset("cosmere")
    # slow NPCs: Assassin (Speed 40) first, then the 25s by their d20 (Parshendi 15, Teft 5)
    assert names(f, [c.id for c in rs.suggested(f, 3)]) == ["Assassin", "Parshendi", "Teft"]
    # slow PCs: Kal (30) before Shal (25) although Shal rolled higher
    assert names(f, [c.id for c in rs.suggested(f, 2)]) == ["Kal", "Shal"]
    # the suggestion is what `next` follows
    f, _ = play(f, C.NextTurn())
    assert f.current == cid(f, "Kal")


def test_cosmere_joining_mid_fight_gets_a_reaction_and_a_d20_for_ties():
    f, _ = started()
    f, ev = play(f, C.NextTurn(), C.AddCombatant("Bridgeman", kind="pc", side="party", stats=(("speed", 30),)))
    late = by_name(f, "Bridgeman")
    assert late.economy.reactions == 1
    (roll,) = of(ev, E.InitiativeRolled)
    assert roll.name == "Bridgeman" and late.tiebreak == roll.value
    f, _ = play(f, C.UseAction(late.id, "reaction", "Dodge"))
