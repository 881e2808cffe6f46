"""Warhammer turn structure and reactions (issue 2, item 6, fourth bullet; rules/warhammer.txt)."""

from __future__ import annotations

import pytest

from engine import RuleError
from engine import commands as C
from engine import events as E
from engine.rules.warhammer.commands import Fortune
from engine.rules.warhammer.ruleset import success_levels
from tests.engine.support import add, by_name, cid, frozen_copy, names, of, play, setup


def band(fortune: int = 0):
    return setup(
        "warhammer",
        add("Ulf", "pc", "party", i=45, ag=35, fortune=fortune),
        add("Wig", "pc", "party", i=40, ag=50),
        add("Goblin", i=30, ag=40),
        add("Troll", i=20, ag=15, wounds=30),
    )


def start(f, dice: dict[str, int], surprised: tuple[str, ...] = ()):
    init = tuple((cid(f, n), (v,)) for n, v in dice.items())
    return play(f, C.StartFight(initiative=init, surprised=tuple(cid(f, n) for n in surprised)))


def test_warhammer_success_levels_are_tens_of_target_minus_tens_of_roll():
    assert success_levels(45, 23) == 2
    assert success_levels(45, 45) == 0
    assert success_levels(45, 49) == 0  # a failure by a hair is still SL 0
    assert success_levels(45, 78) == -3
    assert success_levels(45, 100) == -6  # 00 reads as 100


def test_warhammer_initiative_is_one_d100_test_against_initiative():
    f = band()
    f, ev = start(f, {"Ulf": 23, "Wig": 41, "Goblin": 5, "Troll": 99})
    rolls = {e.name: (e.value, e.roll.total) for e in of(ev, E.InitiativeRolled)}
    assert rolls == {"Ulf": (2, 23), "Wig": (0, 41), "Goblin": (3, 5), "Troll": (-7, 99)}
    assert "failure" in next(e.detail for e in of(ev, E.InitiativeRolled) if e.name == "Wig")
    # the test is made once, at the start: later rounds keep the same order
    order = f.order
    for _ in range(5):
        f, _ = play(f, C.NextTurn())
    assert f.round == 2 and f.order == order
    assert not of(ev, E.InitiativeRolled)[4:]


def test_warhammer_initiative_order_by_sl_ties_to_agility():
    f = band()
    # Ulf 2 SL (Ag 35), Wig 2 SL (Ag 50), Goblin 1 SL (Ag 40), Troll 1 SL (Ag 15)
    f, _ = start(f, {"Ulf": 25, "Wig": 20, "Goblin": 20, "Troll": 10})
    assert names(f, f.order) == ["Wig", "Ulf", "Goblin", "Troll"]
    assert f.current == cid(f, "Wig")
    turns = []
    for _ in range(4):
        f, ev = play(f, C.NextTurn())
        turns += [e.name for e in of(ev, E.TurnStarted)]
    assert turns == ["Ulf", "Goblin", "Troll", "Wig"]


def test_warhammer_full_tie_keeps_the_gms_order():
    f = setup("warhammer", add("A", i=30, ag=30), add("B", i=30, ag=30))
    f, _ = start(f, {"A": 15, "B": 15})
    assert names(f, f.order) == ["A", "B"]
    f, _ = play(f, C.Reorder(cid(f, "B"), 0))
    assert names(f, f.order) == ["B", "A"]
    assert f.current == cid(f, "A")  # A is acting; the new order holds from here on
    f, ev = play(f, C.NextTurn())
    assert f.round == 2 and f.current == cid(f, "B")


def test_warhammer_fortune_picks_slot_for_one_round():
    f = band(fortune=2)
    f, ev = start(f, {"Ulf": 99, "Wig": 20, "Goblin": 20, "Troll": 10})
    assert names(f, f.order) == ["Wig", "Goblin", "Troll", "Ulf"]
    # with Fortune in hand the round waits at its start for it to be spent
    assert f.current == "" and f.phase == -1
    assert of(ev, E.Info)
    ulf = cid(f, "Ulf")
    f, ev = play(f, Fortune(ulf, 0))
    assert names(f, f.order) == ["Ulf", "Wig", "Goblin", "Troll"]
    assert by_name(f, "Ulf").pool("fortune").current == 1
    f, ev = play(f, C.NextTurn())
    assert f.current == ulf
    # once someone has acted it is too late to buy a slot
    with pytest.raises(RuleError, match="start of a round"):
        play(f, Fortune(cid(f, "Ulf"), 2))
    for _ in range(4):
        f, ev = play(f, C.NextTurn())
    # round 2: the bought slot is gone, the order is by SL again
    assert f.round == 2 and f.phase == -1
    assert names(f, f.order) == ["Wig", "Goblin", "Troll", "Ulf"]


def test_warhammer_fortune_needs_a_point_to_spend():
    f = band(fortune=1)
    f, _ = start(f, {"Ulf": 99, "Wig": 20, "Goblin": 20, "Troll": 10})
    with pytest.raises(RuleError, match="no Fortune"):
        play(f, Fortune(cid(f, "Goblin"), 0))
    with pytest.raises(RuleError, match="outside the order"):
        play(f, Fortune(cid(f, "Ulf"), 9))
    f, _ = play(f, Fortune(cid(f, "Ulf"), 1))
    before = frozen_copy(f)
    with pytest.raises(RuleError, match="no Fortune"):
        play(f, Fortune(cid(f, "Ulf"), 0))
    assert frozen_copy(f) == before
    # with no Fortune left anywhere the next round does not wait
    for _ in range(5):
        f, _ = play(f, C.NextTurn())
    assert f.round == 2 and f.current == cid(f, "Wig")


def test_warhammer_surprised_cannot_act_or_react_and_loses_it_end_of_round_one_or_when_attacked():
    f = band()
    f, ev = start(f, {"Ulf": 23, "Wig": 35, "Goblin": 30, "Troll": 10}, surprised=("Wig", "Troll"))
    assert names(f, f.order) == ["Ulf", "Wig", "Troll", "Goblin"]
    wig, troll = cid(f, "Wig"), cid(f, "Troll")
    # cannot react
    with pytest.raises(RuleError, match="Surprised and cannot react"):
        play(f, C.UseAction(troll, "dodge"))
    # the first attack on the Troll ends its surprise
    f, ev = play(f, C.UseAction(cid(f, "Ulf"), "action", "Strike", target=troll))
    assert [(e.name, e.reason) for e in of(ev, E.ConditionEnded)] == [("Troll", "was attacked")]
    f, _ = play(f, C.UseAction(troll, "dodge"))
    # Wig, still surprised, cannot act on its turn; the Troll now can
    f, ev = play(f, C.NextTurn())
    assert [e.name for e in of(ev, E.TurnSkipped)] == ["Wig"]
    assert f.current == troll
    f, _ = play(f, C.NextTurn(), C.NextTurn())
    # the end of round 1 ends Surprised for everyone
    assert f.round == 2
    assert not by_name(f, "Wig").has("Surprised")
    assert f.current == cid(f, "Ulf")
    f, ev = play(f, C.NextTurn())
    assert f.current == wig and not of(ev, E.TurnSkipped)


def test_warhammer_one_action_per_turn():
    f = band()
    f, _ = start(f, {"Ulf": 5, "Wig": 20, "Goblin": 30, "Troll": 10})
    assert names(f, f.order) == ["Ulf", "Wig", "Troll", "Goblin"]
    ulf = cid(f, "Ulf")
    f, _ = play(f, C.UseAction(ulf, "action", "Strike"))
    with pytest.raises(RuleError, match="one action this turn"):
        play(f, C.UseAction(ulf, "action", "Strike"))
    with pytest.raises(RuleError, match="one action this turn"):
        play(f, C.UseAction(ulf, "defensive"))
    with pytest.raises(RuleError, match="not Wig's turn"):
        play(f, C.UseAction(cid(f, "Wig"), "action"))
    f, ev = play(f, C.NextTurn())
    assert of(ev, E.TurnEnded)[0].lost == ""
    f, ev = play(f, C.NextTurn())
    assert of(ev, E.TurnEnded)[0].lost == "action"


def test_warhammer_reaction_budget_shield_offhand_twohanded_defensive():
    f = setup(
        "warhammer",
        C.AddCombatant("Plain", stats=(("i", 90),)),
        C.AddCombatant("Shield", flags=("shield",), stats=(("i", 80),)),
        C.AddCombatant("Daggers", flags=("offhand",), stats=(("i", 70),)),
        C.AddCombatant("Greataxe", flags=("twohanded",), stats=(("i", 60),)),
    )
    f, _ = play(f, C.StartFight(initiative=tuple((c.id, (1,)) for c in f.combatants)))
    budget = {c.name: (c.economy.reactions, c.economy.parries) for c in f.combatants}
    assert budget == {"Plain": (1, 0), "Shield": (1, 1), "Daggers": (1, 1), "Greataxe": (1, 1)}

    plain, shield = cid(f, "Plain"), cid(f, "Shield")
    # base: one reaction a round, parry or dodge
    f, _ = play(f, C.UseAction(plain, "parry"))
    with pytest.raises(RuleError, match="no parries or reactions left"):
        play(f, C.UseAction(plain, "parry"))
    with pytest.raises(RuleError, match="no reactions left"):
        play(f, C.UseAction(plain, "dodge"))
    # a bonus parry is for parrying only: a shield gives one parry and one parry-or-dodge
    f, _ = play(f, C.UseAction(shield, "dodge"))
    with pytest.raises(RuleError, match="no reactions left"):
        play(f, C.UseAction(shield, "dodge"))
    f, _ = play(f, C.UseAction(shield, "parry"))
    with pytest.raises(RuleError):
        play(f, C.UseAction(shield, "parry"))
    # fighting defensively: forgo the attack for a parry or dodge until its next turn
    assert f.current == plain
    f, _ = play(f, C.UseAction(plain, "defensive"))
    assert by_name(f, "Plain").economy.defensive == 1
    f, _ = play(f, C.UseAction(plain, "dodge"))
    with pytest.raises(RuleError):
        play(f, C.UseAction(plain, "dodge"))
    # the budget comes back with the new round
    for _ in range(4):
        f, _ = play(f, C.NextTurn())
    assert f.round == 2
    assert by_name(f, "Shield").economy.reactions == 1 and by_name(f, "Shield").economy.parries == 1
    assert by_name(f, "Plain").economy.reactions == 1


def test_warhammer_defensive_reaction_lasts_until_its_next_turn():
    f = setup("warhammer", add("Ulf", i=90), add("Goblin", i=10))
    f, _ = play(f, C.StartFight(initiative=tuple((c.id, (1,)) for c in f.combatants)))
    ulf = cid(f, "Ulf")
    f, _ = play(f, C.UseAction(ulf, "defensive"), C.NextTurn(), C.NextTurn())
    # a new round has begun: the round's reaction is back and the defensive one is still held
    assert f.round == 2 and f.current == ulf
    # ... but it lapses as its next turn starts
    assert by_name(f, "Ulf").economy.defensive == 0
    f2 = setup("warhammer", add("Ulf", i=10), add("Goblin", i=90))
    f2, _ = play(f2, C.StartFight(initiative=tuple((c.id, (1,)) for c in f2.combatants)))
    f2, _ = play(f2, C.NextTurn())
    ulf2 = cid(f2, "Ulf")
    f2, _ = play(f2, C.UseAction(ulf2, "defensive"), C.NextTurn())
    assert f2.round == 2 and f2.current == cid(f2, "Goblin")
    e = by_name(f2, "Ulf").economy
    assert (e.reactions, e.defensive) == (1, 1)
    f2, _ = play(f2, C.UseAction(ulf2, "dodge"), C.UseAction(ulf2, "dodge"))
    with pytest.raises(RuleError):
        play(f2, C.UseAction(ulf2, "dodge"))
