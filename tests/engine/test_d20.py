"""d20 turn structure and action economy (issue 2, item 6, first bullet; rules/d20.txt)."""

from __future__ import annotations

import pytest

from engine import RuleError
from engine import commands as C
from engine import events as E
from tests.engine.support import add, by_name, cid, frozen_copy, names, of, play, setup


def four(seed: int = 1):
    return setup(
        "d20",
        add("Ana", "pc", "party", dex=10),
        add("Bo", "pc", "party", dex=14),
        add("Cy", dex=12),
        add("Di", dex=18),
        seed=seed,
    )


def start(f, dice: dict[str, int], surprised: tuple[str, ...] = ()):
    init = tuple((cid(f, n), (v,)) for n, v in dice.items())
    return play(f, C.StartFight(initiative=init, surprised=tuple(cid(f, n) for n in surprised)))


def test_d20_initiative_is_d20_plus_dex_modifier():
    f = four()
    f, ev = start(f, {"Ana": 7, "Bo": 7, "Cy": 7, "Di": 7})
    rolled = {e.name: e.value for e in of(ev, E.InitiativeRolled)}
    # Dex 10 -> +0, 14 -> +2, 12 -> +1, 18 -> +4
    assert rolled == {"Ana": 7, "Bo": 9, "Cy": 8, "Di": 11}
    assert names(f, f.order) == ["Di", "Bo", "Cy", "Ana"]
    # a low Dexterity is a penalty: Dex 7 -> -2
    g = setup("d20", add("Slow", dex=7))
    g, ev = play(g, C.StartFight(initiative=((cid(g, "Slow"), (1,)),)))
    assert of(ev, E.InitiativeRolled)[0].value == -1


def test_d20_initiative_rolls_from_the_fight_seed():
    a, _ = play(four(seed=5), C.StartFight())
    b, _ = play(four(seed=5), C.StartFight())
    assert a == b
    assert [c.initiative for c in a.combatants] == [c.initiative for c in b.combatants]


def test_d20_ties_go_to_higher_dex_then_gm_order():
    f = setup(
        "d20",
        add("Low", dex=12),  # +1
        add("High", dex=13),  # +1, higher Dex
        add("Twin A", dex=14),
        add("Twin B", dex=14),
    )
    f, _ = start(f, {"Low": 10, "High": 10, "Twin A": 9, "Twin B": 9})
    # Low and High both total 11: the higher Dex goes first. The twins (11 too, Dex 14) go first of
    # all, in the order they were added, until the GM decides otherwise.
    assert names(f, f.order) == ["Twin A", "Twin B", "High", "Low"]
    # the GM settles the tie between the twins
    f, ev = play(f, C.Reorder(cid(f, "Twin B"), 0))
    assert names(f, f.order) == ["Twin B", "Twin A", "High", "Low"]
    assert of(ev, E.OrderSet)
    # a later re-sort (initiative changed by hand) keeps the GM's call on the tie
    f, _ = play(f, C.SetInitiative(cid(f, "Low"), 5))
    assert names(f, f.order) == ["Twin B", "Twin A", "High", "Low"]
    f, _ = play(f, C.SetInitiative(cid(f, "Low"), 30))
    assert names(f, f.order)[0] == "Low"


def test_d20_reorder_mid_round_keeps_the_turn_on_whoever_is_acting():
    f = four()
    f, _ = start(f, {"Di": 20, "Bo": 15, "Cy": 10, "Ana": 5})
    assert names(f, f.order) == ["Di", "Bo", "Cy", "Ana"]
    f, _ = play(f, C.NextTurn())
    assert by_name(f, "Bo").id == f.current
    # Di, who has acted, is moved to the end: nobody is skipped and nobody acts twice
    f, _ = play(f, C.Reorder(cid(f, "Di"), 3))
    assert f.current == cid(f, "Bo")
    seen = []
    for _ in range(3):
        f, ev = play(f, C.NextTurn())
        seen += [e.name for e in of(ev, E.TurnStarted)]
    assert seen == ["Cy", "Ana", "Bo"]
    assert f.round == 2
    # the new order holds for round 2
    assert names(f, f.order) == ["Bo", "Cy", "Ana", "Di"]


def test_d20_surprised_creature_loses_its_first_turn():
    f = four()
    f, ev = start(f, {"Di": 20, "Bo": 15, "Cy": 10, "Ana": 5}, surprised=("Di", "Cy"))
    # Di would go first but is surprised: the first turn is Bo's
    skipped = of(ev, E.TurnSkipped)
    assert [e.name for e in skipped] == ["Di"]
    assert f.current == cid(f, "Bo")
    assert not by_name(f, "Di").has("Surprised")
    f, ev = play(f, C.NextTurn())
    assert [e.name for e in of(ev, E.TurnSkipped)] == ["Cy"]
    assert f.current == cid(f, "Ana")
    # in round 2 everyone acts, the surprised ones included
    turns = []
    for _ in range(4):
        f, ev = play(f, C.NextTurn())
        turns += [e.name for e in of(ev, E.TurnStarted)]
    assert turns == ["Di", "Bo", "Cy", "Ana"]
    assert not of(ev, E.TurnSkipped)


def test_d20_turn_has_move_action_bonus_and_gambit_once_each():
    f = four()
    f, _ = start(f, {"Di": 20, "Bo": 15, "Cy": 10, "Ana": 5})
    di = cid(f, "Di")
    f, _ = play(f, C.UseAction(di, "gambit", "Press the attack"))
    f, _ = play(f, C.UseAction(di, "move"), C.UseAction(di, "action", "Attack"))
    f, _ = play(f, C.UseAction(di, "bonus", "Off-hand attack"))
    for what in ("move", "action", "bonus", "gambit"):
        before = frozen_copy(f)
        with pytest.raises(RuleError):
            play(f, C.UseAction(di, what))
        assert frozen_copy(f) == before
    # the next turn brings a fresh set
    for _ in range(4):
        f, _ = play(f, C.NextTurn())
    assert f.current == di
    f, _ = play(f, C.UseAction(di, "action"), C.UseAction(di, "bonus"), C.UseAction(di, "move"))


def test_d20_gambit_only_at_the_very_start_of_the_turn():
    f = four()
    f, _ = start(f, {"Di": 20, "Bo": 15, "Cy": 10, "Ana": 5})
    di = cid(f, "Di")
    f, _ = play(f, C.UseAction(di, "move"))
    with pytest.raises(RuleError, match="start of its turn"):
        play(f, C.UseAction(di, "gambit"))
    # a reaction taken on someone else's turn does not spend anyone's Gambit
    f, _ = play(f, C.NextTurn())
    bo = cid(f, "Bo")
    f, _ = play(f, C.UseAction(di, "reaction", "Opportunity attack"))
    f, _ = play(f, C.UseAction(bo, "gambit"))


def test_d20_only_reactions_off_turn():
    f = four()
    f, _ = start(f, {"Di": 20, "Bo": 15, "Cy": 10, "Ana": 5})
    with pytest.raises(RuleError, match="not Bo's turn"):
        play(f, C.UseAction(cid(f, "Bo"), "action"))
    with pytest.raises(RuleError, match="not 'swim'"):
        play(f, C.UseAction(cid(f, "Di"), "swim"))


def test_d20_reaction_returns_at_start_of_own_turn():
    f = four()
    f, _ = start(f, {"Di": 20, "Bo": 15, "Cy": 10, "Ana": 5})
    ana = cid(f, "Ana")
    # Ana has a reaction from the start of the fight, before her first turn
    f, _ = play(f, C.UseAction(ana, "reaction", "Opportunity attack"))
    with pytest.raises(RuleError, match="already used its reaction"):
        play(f, C.UseAction(ana, "reaction"))
    # it does not come back when the round turns, nor on other turns ...
    f, _ = play(f, C.NextTurn(), C.NextTurn())
    assert f.current == cid(f, "Cy")
    assert by_name(f, "Ana").economy.reactions == 0
    # ... but at the start of her own turn
    f, _ = play(f, C.NextTurn())
    assert f.current == ana
    assert by_name(f, "Ana").economy.reactions == 1
    # used on her own turn, it stays spent through the new round until her next turn
    f, _ = play(f, C.UseAction(ana, "reaction"), C.NextTurn())
    assert f.round == 2
    assert by_name(f, "Ana").economy.reactions == 0
    for _ in range(3):
        f, _ = play(f, C.NextTurn())
    assert f.current == ana and by_name(f, "Ana").economy.reactions == 1


def test_d20_companion_acts_on_owners_turn():
    f = setup("d20", add("Ranger", "pc", "party", dex=14), add("Orc", dex=10), add("Ogre", dex=8))
    ranger = cid(f, "Ranger")
    f, _ = play(
        f,
        C.AddCombatant("Wolf", side="party", owner=ranger, stats=(("dex", 20), ("hp", 11))),
    )
    wolf = cid(f, "Wolf")
    f, ev = start(f, {"Ranger": 5, "Orc": 15, "Ogre": 1})
    # the companion rolls no initiative of its own: it acts on its owner's, right after it
    assert "Wolf" not in [e.name for e in of(ev, E.InitiativeRolled)]
    assert names(f, f.order) == ["Orc", "Ranger", "Wolf", "Ogre"]
    f, _ = play(f, C.NextTurn())
    assert f.current == ranger
    f, _ = play(f, C.NextTurn())
    assert f.current == wolf
    f, _ = play(f, C.UseAction(wolf, "action", "Bite"))
    # when the owner's initiative changes, the companion moves with it
    f, _ = play(f, C.SetInitiative(ranger, 30))
    assert names(f, f.order) == ["Ranger", "Wolf", "Orc", "Ogre"]
    assert f.current == wolf
    # a companion cannot have companions, and at 0 HP it simply drops
    with pytest.raises(RuleError, match="companion"):
        play(f, C.AddCombatant("Flea", owner=wolf))
    f, ev = play(f, C.Damage(wolf, 11))
    assert of(ev, E.Dropped)[0].state == "drops at 0 hit points"


def test_d20_companion_of_a_removed_owner_keeps_its_place_alone():
    f = setup("d20", add("Ranger", "pc", "party", dex=14), add("Orc", dex=10))
    f, _ = play(f, C.AddCombatant("Wolf", side="party", owner=cid(f, "Ranger")))
    f, _ = start(f, {"Ranger": 20, "Orc": 10})
    f, _ = play(f, C.RemoveCombatant(cid(f, "Ranger")))
    assert by_name(f, "Wolf").owner == ""
    assert names(f, f.order) == ["Wolf", "Orc"]


def test_d20_down_npc_loses_its_turns_pc_at_deaths_door_keeps_them():
    f = four()
    f, _ = start(f, {"Di": 20, "Bo": 15, "Cy": 10, "Ana": 5})
    f, ev = play(f, C.Damage(cid(f, "Cy"), 99), C.Damage(cid(f, "Bo"), 99))
    assert [e.state for e in of(ev, E.Dropped)] == ["is down at 0 hit points", "is at Death's Door"]
    f, ev = play(f, C.NextTurn())
    assert f.current == cid(f, "Bo")  # a PC at 0 still takes its turns
    f, ev = play(f, C.NextTurn())
    assert [e.name for e in of(ev, E.TurnSkipped)] == ["Cy"]
    assert f.current == cid(f, "Ana")


def test_d20_unused_action_is_reported_lost_at_end_of_turn():
    f = four()
    f, _ = start(f, {"Di": 20, "Bo": 15, "Cy": 10, "Ana": 5})
    f, _ = play(f, C.UseAction(cid(f, "Di"), "action"))
    f, ev = play(f, C.NextTurn())
    assert of(ev, E.TurnEnded)[0].lost == "bonus action"


def test_d20_joining_mid_fight_goes_to_the_bottom_until_given_initiative():
    f = four()
    f, _ = start(f, {"Di": 20, "Bo": 15, "Cy": 10, "Ana": 5})
    f, _ = play(f, C.NextTurn(), C.AddCombatant("Late", stats=(("dex", 30),)))
    assert names(f, f.order)[-1] == "Late"
    assert f.current == cid(f, "Bo")
    f, _ = play(f, C.SetInitiative(cid(f, "Late"), 12))
    assert names(f, f.order) == ["Di", "Bo", "Late", "Cy", "Ana"]
    f, ev = play(f, C.NextTurn())
    assert f.current == cid(f, "Late")


def test_d20_removing_the_acting_combatant_passes_the_turn_on():
    f = four()
    f, _ = start(f, {"Di": 20, "Bo": 15, "Cy": 10, "Ana": 5})
    f, _ = play(f, C.NextTurn())
    f, _ = play(f, C.RemoveCombatant(cid(f, "Bo")))
    assert f.current == ""
    f, _ = play(f, C.NextTurn())
    assert f.current == cid(f, "Cy")
    # removing someone who already acted does not skip anyone either
    f, _ = play(f, C.RemoveCombatant(cid(f, "Di")))
    f, _ = play(f, C.NextTurn())
    assert f.current == cid(f, "Ana")


def test_d20_tie_follows_dexterity_edited_mid_fight():
    f = setup("d20", add("Low", dex=12), add("High", dex=13))
    f, _ = start(f, {"Low": 10, "High": 10})
    assert names(f, f.order) == ["High", "Low"]
    f, _ = play(f, C.EditCombatant(cid(f, "Low"), stats=(("dex", 13),)))
    # still a tie on Dex: the earlier order stands
    assert names(f, f.order) == ["High", "Low"]
    # initiative is rolled once; a tie is judged on the Dexterity the combatant has now
    f, _ = play(f, C.EditCombatant(cid(f, "Low"), stats=(("dex", 15),)))
    assert names(f, f.order) == ["Low", "High"]


def test_d20_companion_at_zero_loses_its_turns_even_if_entered_as_a_pc():
    f = setup("d20", add("Ranger", "pc", "party", dex=14), add("Orc", dex=10))
    f, _ = play(f, C.AddCombatant("Hawk", kind="pc", side="party", owner=cid(f, "Ranger")))
    f, _ = start(f, {"Ranger": 20, "Orc": 1})
    f, ev = play(f, C.Damage(cid(f, "Hawk"), 99))
    assert of(ev, E.Dropped)[0].state == "drops at 0 hit points"
    f, ev = play(f, C.NextTurn())
    assert [e.name for e in of(ev, E.TurnSkipped)] == ["Hawk"]
    assert f.current == cid(f, "Orc")
