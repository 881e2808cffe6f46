"""Cosmere's round, read sentence by sentence: fast and slow turns, the four phases, ties of Speed, the
reactions of the start of combat and of each turn, Surprised, actions only on one's turn, granted
actions and reactions, Ready, and combatants down at 0 health."""

from __future__ import annotations

import pytest

from engine import RuleError, get_ruleset
from engine import commands as C
from engine import events as E
from engine.rules.cosmere import combat as X
from engine.rules.cosmere.commands import ChooseSpeed, StartTurn
from engine.state import Duration
from tests.engine.support import by_name, cid, frozen_copy, log, names, of, play, setup


def add(name, kind="npc", side="enemy", flags=(), **stats):
    return C.AddCombatant(name, kind=kind, side=side, stats=tuple(stats.items()), flags=flags)


def table(surprised=(), **d20):
    """Two PCs, an allied NPC, two foes; the tie-breaking d20s entered (default 10 each)."""
    f = setup(
        "cosmere",
        add("Kaladin", "pc", "party", speed=30, focus=3),
        add("Shallan", "pc", "party", speed=25, focus=3),
        add("Teft", "npc", "party", speed=25),
        add("Warrior", speed=25, hp=12),
        add("Scout", speed=25, hp=12),
    )
    rolls = tuple((c.id, (d20.get(c.name, 10),)) for c in f.combatants)
    f, _ = play(f, C.StartFight(initiative=rolls, surprised=tuple(cid(f, n) for n in surprised)))
    return f


def turns(ev) -> list[tuple[str, str]]:
    return [(e.name, e.detail) for e in of(ev, E.TurnStarted)]


def whole_round(f):
    out = []
    r = f.round
    while f.round == r:
        f, ev = play(f, C.NextTurn())
        out += turns(ev)
    return f, out


# --- fast and slow turns, the phases ---------------------------------------------------------------


def test_cosmere_round_runs_fast_pcs_fast_npcs_slow_pcs_slow_npcs_with_2_or_3_actions():
    f = table(Warrior=3, Scout=18, Teft=7)
    f, _ = play(f, ChooseSpeed(cid(f, "Shallan"), "fast"), ChooseSpeed(cid(f, "Warrior"), "fast"))
    f, seen = whole_round(f)
    assert seen[:5] == [
        ("Shallan", "fast turn, 2 actions"),  # fast PCs
        ("Warrior", "fast turn, 2 actions"),  # fast NPCs, before any slow PC
        ("Kaladin", "slow turn, 3 actions"),  # slow PCs
        ("Scout", "slow turn, 3 actions"),  # slow NPCs: the allied Teft among them, by their d20
        ("Teft", "slow turn, 3 actions"),
    ]
    assert f.round == 2 and f.phase == 0  # everyone took one turn: the next round begins


def test_cosmere_ties_go_to_the_higher_speed_then_the_higher_d20():
    f = table(Warrior=4, Scout=19, Teft=12, Kaladin=1, Shallan=20)
    rs = get_ruleset("cosmere")
    # Speed 30 beats a d20 of 20; among Speed 25 the d20 decides
    assert names(f, [c.id for c in rs.suggested(f, 2)]) == ["Kaladin", "Shallan"]
    assert names(f, [c.id for c in rs.suggested(f, 3)]) == ["Scout", "Teft", "Warrior"]


def test_cosmere_the_choice_is_made_again_each_round():
    f = table()
    k = cid(f, "Kaladin")
    f, _ = play(f, StartTurn(k, "fast"))
    f, _ = whole_round(f)
    assert by_name(f, "Kaladin").economy.speed == ""  # undecided again
    f, ev = play(f, StartTurn(k, "slow"))
    assert turns(ev) == [("Kaladin", "slow turn, 3 actions")]


# --- reactions ---------------------------------------------------------------------------------------


def test_cosmere_reaction_from_the_start_of_combat_is_usable_before_the_first_turn_and_is_not_kept():
    f = table()
    s = cid(f, "Shallan")
    assert all(c.economy.reactions == 1 for c in f.combatants)
    f, _ = play(f, C.UseAction(s, "reaction", "Dodge"))  # before her first turn, on Kaladin's
    with pytest.raises(RuleError, match="no reaction left"):
        play(f, C.UseAction(s, "reaction", "Dodge"))
    # her turn brings a new one, whether it is fast or slow
    g, _ = play(f, StartTurn(s, "fast"))
    assert by_name(g, "Shallan").economy.reactions == 1
    g, _ = play(f, StartTurn(s, "slow"))
    assert by_name(g, "Shallan").economy.reactions == 1
    # an unused reaction lasts until the start of the next turn, where the new one replaces it
    k = cid(f, "Kaladin")
    f, _ = play(f, StartTurn(k, "fast"))
    f, _ = whole_round(f)
    f, _ = play(f, StartTurn(k, "fast"))
    assert by_name(f, "Kaladin").economy.reactions == 1


def test_cosmere_reactions_work_on_or_off_ones_own_turn():
    f = table()
    k = cid(f, "Kaladin")
    f, _ = play(f, StartTurn(k, "fast"), C.UseAction(k, "reaction", "Dodge"))  # on its own turn
    assert by_name(f, "Kaladin").economy.reactions == 0


# --- surprise ----------------------------------------------------------------------------------------


def test_cosmere_surprised_at_the_start_has_no_reaction_until_its_turn_and_loses_the_condition_after_it():
    f = table(surprised=("Warrior",))
    w = cid(f, "Warrior")
    assert by_name(f, "Warrior").economy.reactions == 0 and by_name(f, "Teft").economy.reactions == 1
    f, _ = play(f, StartTurn(w, "slow"))
    assert by_name(f, "Warrior").economy.reactions == 1 and by_name(f, "Warrior").has("Surprised")
    f, ev = play(f, C.NextTurn())
    assert not by_name(f, "Warrior").has("Surprised")
    assert ("Warrior", "Surprised") in [(e.name, e.condition) for e in of(ev, E.ConditionEnded)]


def test_cosmere_surprised_added_by_hand_before_the_start_also_means_no_reaction():
    f = setup("cosmere", add("Kaladin", "pc", "party"), add("Warrior"))
    f, _ = play(f, C.AddCondition(cid(f, "Warrior"), "Surprised"), C.StartFight())
    assert by_name(f, "Warrior").economy.reactions == 0
    assert by_name(f, "Kaladin").economy.reactions == 1


def test_cosmere_surprised_given_in_round_1_before_its_first_turn_takes_the_reaction_and_can_be_taken_back():
    f = table()
    w = cid(f, "Warrior")
    f, ev = play(f, C.AddCondition(w, "Surprised"))
    assert by_name(f, "Warrior").economy.reactions == 0 and "no reaction" in log(ev)[-1]
    f, ev = play(f, C.RemoveCondition(w, "Surprised"))
    assert by_name(f, "Warrior").economy.reactions == 1
    # after its first turn, adding Surprised changes nothing about its reaction
    f, _ = play(f, StartTurn(w, "slow"), C.NextTurn())
    f, _ = play(f, C.AddCondition(w, "Surprised"))
    assert by_name(f, "Warrior").economy.reactions == 1


# --- actions -----------------------------------------------------------------------------------------


def test_cosmere_actions_only_on_ones_own_turn_and_the_rest_are_lost_at_its_end():
    f = table()
    k, s = cid(f, "Kaladin"), cid(f, "Shallan")
    with pytest.raises(RuleError, match="not Kaladin's turn"):
        play(f, C.UseAction(k, "action", "Move"))
    with pytest.raises(RuleError, match="not Kaladin's turn"):
        play(f, C.UseAction(k, "free", "Drop"))  # a free action is an action too
    f, _ = play(f, StartTurn(k, "fast"), C.UseAction(k, "action", "Move"))
    f, ev = play(f, StartTurn(s, "fast"))
    assert of(ev, E.TurnEnded)[0].lost == "1 action" and by_name(f, "Kaladin").economy.actions == 0


def test_cosmere_named_actions_once_per_turn_free_actions_unlimited_but_each_once():
    f = table()
    k = cid(f, "Kaladin")
    f, _ = play(f, StartTurn(k, "slow"))
    f, _ = play(f, *(C.UseAction(k, "free", n) for n in ("Banter", "Drop", "Shout", "Point", "Glare")))
    assert by_name(f, "Kaladin").economy.actions == 3
    with pytest.raises(RuleError, match="once per turn"):
        play(f, C.UseAction(k, "free", "drop"))
    f, _ = play(f, C.UseAction(k, "action", "Lashing", cost=2))  # a talent's action, unnamed by the text
    with pytest.raises(RuleError, match="once per turn"):
        play(f, C.UseAction(k, "action", "Lashing", cost=1))


def test_cosmere_talents_can_grant_more_actions_and_reactions():
    f = table()
    k, s = cid(f, "Kaladin"), cid(f, "Shallan")
    before = frozen_copy(f)
    with pytest.raises(RuleError, match="not Kaladin's turn"):
        play(f, X.Grant(k, actions=1))
    with pytest.raises(RuleError, match="1 to 3"):
        play(f, X.Grant(k))
    assert frozen_copy(f) == before
    f, ev = play(f, X.Grant(s, reactions=1, label="Quick Reflexes"))  # a reaction at any time
    assert by_name(f, "Shallan").economy.reactions == 2 and "Quick Reflexes" in log(ev)[0]
    f, _ = play(f, C.UseAction(s, "reaction", "Dodge"), C.UseAction(s, "reaction", "Reactive Strike"))
    f, _ = play(f, StartTurn(k, "fast"), X.Grant(k, actions=1, label="Surge"))
    assert by_name(f, "Kaladin").economy.actions == 3
    f, _ = play(f, C.UseAction(k, "action", "Lash", cost=3))
    # extra actions are lost at the end of the turn like the others; extra reactions end at the next turn
    f, _ = play(f, X.Grant(k, actions=2, reactions=2))
    f, ev = play(f, C.NextTurn())
    assert by_name(f, "Kaladin").economy.actions == 0 and of(ev, E.TurnEnded)[0].lost == "2 actions"
    f, _ = whole_round(f)
    f, _ = play(f, StartTurn(k, "fast"))
    assert by_name(f, "Kaladin").economy.reactions == 1


def test_cosmere_ready_costs_its_action_plus_the_readied_ones_and_lets_it_act_off_its_turn():
    f = table()
    k, s = cid(f, "Kaladin"), cid(f, "Shallan")
    with pytest.raises(RuleError, match="not Kaladin's turn"):
        play(f, C.UseAction(k, "free", "Drop"))  # dropping on another's turn needs Ready
    f, ev = play(f, StartTurn(k, "fast"), C.UseAction(k, "action", "Ready: Strike", cost=2))
    assert by_name(f, "Kaladin").economy.actions == 0  # 1 for Ready and 1 for the Strike it holds
    assert "readies Strike" in log(ev)[-1]
    f, _ = play(f, StartTurn(s, "fast"))
    before = frozen_copy(f)
    with pytest.raises(RuleError, match="readied Strike, not Move"):
        play(f, C.UseAction(k, "action", "Move"))
    assert frozen_copy(f) == before
    # the held Strike goes off on Shallan's turn, already paid for
    g, ev = play(f, X.CosmereAttack(k, (cid(f, "Warrior"),), modifier=3, damage="1d6", given=(15,), damage_given=(2,)))
    assert [e.what for e in of(ev, E.ActionUsed)] == ["readied"] and by_name(g, "Warrior").hp == 7
    with pytest.raises(RuleError, match="not Kaladin's turn"):
        play(g, C.UseAction(k, "action", "Strike"))  # once only
    # unused, it lapses at the start of its next turn
    while f.round == 1:
        f, _ = play(f, C.NextTurn())
    f, ev = play(f, StartTurn(k, "fast"))
    assert "lapses unused (Strike)" in " ".join(log(ev)) and by_name(f, "Kaladin").economy.ready == ""


def test_cosmere_ready_is_one_named_action_and_a_plain_ready_holds_any_one_action():
    f = table()
    k, s = cid(f, "Kaladin"), cid(f, "Shallan")
    f, _ = play(f, StartTurn(k, "slow"), C.UseAction(k, "action", "Ready", cost=1))
    with pytest.raises(RuleError, match="already used Ready"):
        play(f, C.UseAction(k, "action", "Ready: Move", cost=2))
    with pytest.raises(RuleError, match="Ready is an action"):
        play(setup_turn(), C.UseAction("c1", "free", "Ready: Drop"))
    f, _ = play(f, C.NextTurn())
    f, ev = play(f, C.UseAction(k, "free", "Drop"))  # the held action: a Drop on another's turn
    assert of(ev, E.ActionUsed)[0].label == "Drop" and by_name(f, "Kaladin").economy.ready == ""
    assert s  # Shallan stays undecided: nothing else moved


def setup_turn():
    f = setup("cosmere", add("Kaladin", "pc", "party"), add("Warrior"))
    f, _ = play(f, C.StartFight(), StartTurn("c1", "fast"))
    return f


# --- down at 0 health ----------------------------------------------------------------------------------


def test_cosmere_a_combatant_down_at_0_health_is_not_offered_a_turn_and_the_round_still_ends():
    f = table(surprised=("Scout",))
    sc, w = cid(f, "Scout"), cid(f, "Warrior")
    f, _ = play(f, C.AddCondition(sc, "Braced", Duration("turn_start", sc, 1)))
    f, _ = play(f, C.Damage(sc, amount=12), ChooseSpeed(w, "fast"), C.Damage(w, amount=12))
    f, seen = whole_round(f)
    assert [n for n, _ in seen if n in ("Scout", "Warrior")] == []
    assert f.round == 2
    # its turn passed: Surprised ends, durations that watch its turn tick
    assert not by_name(f, "Scout").has("Surprised") and not by_name(f, "Scout").has("Braced")
    # healed, it is offered its turn again; down, the GM can still start it by hand
    f, _ = play(f, C.Heal(w, 5))
    assert w in [c.id for c in get_ruleset("cosmere").suggested(f, 3)]
    f, ev = play(f, StartTurn(sc, "slow"))
    assert f.current == sc and turns(ev) == [("Scout", "slow turn, 3 actions")]


def test_cosmere_a_pc_down_at_0_health_does_not_hold_up_the_fast_pc_phase():
    f = setup("cosmere", add("Kaladin", "pc", "party", hp=5), add("Shallan", "pc", "party"), add("Warrior"))
    f, _ = play(f, C.StartFight(), C.Damage(cid(f, "Kaladin"), amount=5), StartTurn(cid(f, "Shallan"), "fast"))
    f, ev = play(f, C.NextTurn())
    # Shallan is done, Kaladin is down: nobody left to decide, so on (his slow turn passes) to the NPCs
    assert f.current == cid(f, "Warrior")
    assert [(e.name, e.reason) for e in of(ev, E.TurnSkipped)] == [("Kaladin", "down at 0 health: no turn this round")]
    f, ev = play(f, C.NextTurn())
    assert f.round == 2 and not of(ev, E.TurnSkipped)


# --- starting someone of a later phase -----------------------------------------------------------------


def test_cosmere_every_character_still_takes_its_turn_when_the_gm_starts_a_later_phase_early():
    f = table(Warrior=3, Scout=18, Teft=7)
    k, w = cid(f, "Kaladin"), cid(f, "Warrior")
    f, _ = play(f, ChooseSpeed(k, "fast"), ChooseSpeed(cid(f, "Scout"), "fast"))
    f, ev = play(f, StartTurn(w, "slow"))  # the GM starts a slow NPC before anyone else
    assert f.phase == 3 and f.current == w
    said = " ".join(log(ev))
    assert "Kaladin chose a fast turn, but the fast PC turns are over: it goes slow" in said
    assert "Scout misses its fast turn: it goes slow" in said
    assert "Shallan has not taken its turn yet: it goes in the slow NPC phase" in said
    # the PCs passed over come first in the slow NPC phase, then the NPCs left; then the round ends
    rs = get_ruleset("cosmere")
    assert names(f, [c.id for c in rs.suggested(f, 3)]) == ["Kaladin", "Shallan", "Scout", "Teft"]
    f, seen = whole_round(f)
    assert [n for n, _ in seen] == ["Kaladin", "Shallan", "Scout", "Teft"]
    assert all(d == "slow turn, 3 actions" for _, d in seen)
    # a passed-over PC may be started by hand there too
    g = table()
    g, _ = play(g, StartTurn(cid(g, "Warrior"), "slow"), StartTurn(cid(g, "Shallan")))
    assert g.current == cid(g, "Shallan") and by_name(g, "Shallan").economy.actions == 3
    # before the slow NPC phase, it lists only NPCs there
    assert "Kaladin" not in names(table(), [c.id for c in rs.suggested(table(), 3)])
