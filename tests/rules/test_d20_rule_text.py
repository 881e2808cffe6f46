"""d20 audit against its rule text, sentence by sentence: the rules the other d20 test files did not pin
down yet (initiative with another ability, surprise after round 1, the move split around the action,
Stand up / Pick up weapon / Put out fire, Help, the attack bonus formulas, Armor Class, the Confused
7-8 attack, what a creature down at 0 still holds)."""

from __future__ import annotations

import pytest

from engine import RuleError
from engine import commands as C
from engine import events as E
from engine.mechanics import EffectRolled
from engine.rules.d20 import combat as X
from tests.engine.support import add, by_name, cid, frozen_copy, log, names, of, play, setup


def duel(*extra: C.AddCombatant, **bran: int):
    """Bran (PC, speed 30) acts first, then Orc, then anyone extra."""
    stats = {"hp": 30, "ac": 16, "dex": 14, "str": 16, "prof": 2, "speed": 30, **bran}
    f = setup("d20", add("Bran", "pc", "party", **stats), add("Orc", hp=40, ac=13, dex=10, str=14), *extra, seed=3)
    init = [(cid(f, "Bran"), (20,)), (cid(f, "Orc"), (10,))]
    init += [(c.id, (5,)) for c in f.combatants[2:] if not c.owner]
    f, _ = play(f, C.StartFight(initiative=tuple(init)))
    assert f.current == cid(f, "Bran")
    return f


# --- initiative and surprise ------------------------------------------------------------------


def test_d20_an_orok_rolls_initiative_with_wisdom_instead_of_dexterity():
    f = setup(
        "d20",
        C.AddCombatant("Orok", "pc", "party", stats=(("dex", 8), ("wis", 16)), flags=("init_wis",)),
        add("Elf", dex=16, wis=8),
    )
    f, ev = play(f, C.StartFight(initiative=((cid(f, "Orok"), (10,)), (cid(f, "Elf"), (10,)))))
    rolled = {e.name: e.value for e in of(ev, E.InitiativeRolled)}
    assert rolled == {"Orok": 13, "Elf": 13}  # 10 + Wis 16 (+3); 10 + Dex 16 (+3): not 10 - 1 + 3
    # the tie still goes to the higher Dexterity
    assert names(f, f.order) == ["Elf", "Orok"]


def test_d20_without_the_trait_initiative_ignores_wisdom():
    f = setup("d20", add("Human", dex=8, wis=16))
    _, ev = play(f, C.StartFight(initiative=((cid(f, "Human"), (10,)),)))
    assert of(ev, E.InitiativeRolled)[0].value == 9


def test_d20_a_creature_joining_unaware_loses_its_first_turn_even_after_round_1():
    f = duel()
    f, _ = play(f, C.NextTurn(), C.NextTurn())  # round 2, Bran again
    assert f.round == 2
    f, _ = play(f, C.AddCombatant("Scout", stats=(("dex", 12),)))
    s = cid(f, "Scout")
    f, _ = play(f, C.SetInitiative(s, 5), C.AddCondition(s, "Surprised"))
    f, ev = play(f, C.NextTurn(), C.NextTurn())  # the Orc, then the Scout's turn is lost
    assert [e.name for e in of(ev, E.TurnSkipped)] == ["Scout"]
    assert not by_name(f, "Scout").has("Surprised") and f.current == cid(f, "Bran")
    f, ev = play(f, C.NextTurn(), C.NextTurn())  # round 3: the Scout acts
    assert f.current == s and not of(ev, E.TurnSkipped)


# --- the move, split around the action ---------------------------------------------------------


def test_d20_the_move_can_be_split_around_the_action_up_to_the_speed():
    f = duel()
    b = cid(f, "Bran")
    f, ev = play(f, C.UseAction(b, "move", cost=10), C.UseAction(b, "action", "Attack"))
    assert X.movement_left(by_name(f, "Bran")) == 20 and "M20ft" in log(ev)[-1]
    f, ev = play(f, C.UseAction(b, "move", cost=20))
    assert X.movement_left(by_name(f, "Bran")) == 0 and by_name(f, "Bran").economy.move == 0
    assert "Bran uses 20 ft (move)" in log(ev)[0]
    before = frozen_copy(f)
    with pytest.raises(RuleError, match="already moved"):
        play(f, C.UseAction(b, "move", cost=5))
    assert frozen_copy(f) == before


def test_d20_a_move_cannot_go_beyond_the_speed_left():
    f = duel()
    b = cid(f, "Bran")
    with pytest.raises(RuleError, match="only 30 ft of movement left, not 35"):
        play(f, C.UseAction(b, "move", cost=35))
    f, _ = play(f, C.UseAction(b, "move", cost=25))
    with pytest.raises(RuleError, match="only 5 ft"):
        play(f, C.UseAction(b, "move", cost=10))
    # a move with no distance takes what is left
    f, _ = play(f, C.UseAction(b, "move"))
    assert X.movement_left(by_name(f, "Bran")) == 0
    with pytest.raises(RuleError, match="distance in feet"):
        play(duel(), C.UseAction(b, "move", cost=0))
    with pytest.raises(RuleError, match="Only a move takes a distance"):
        play(duel(), C.UseAction(b, "action", "Attack", cost=2))


def test_d20_dash_adds_movement_equal_to_the_speed():
    f = duel()
    b = cid(f, "Bran")
    f, _ = play(f, C.UseAction(b, "move", cost=20), C.UseAction(b, "action", "Dash"))
    assert X.movement_left(by_name(f, "Bran")) == 40  # 10 left + 30
    f, _ = play(f, C.UseAction(b, "move", cost=40))
    with pytest.raises(RuleError, match="already moved"):
        play(f, C.UseAction(b, "move"))


def test_d20_slowed_halves_the_movement_of_the_turn():
    f = duel()
    b = cid(f, "Bran")
    f, _ = play(f, C.AddCondition(b, "Slowed"))
    assert X.movement_left(by_name(f, "Bran")) == 15
    with pytest.raises(RuleError, match="only 15 ft"):
        play(f, C.UseAction(b, "move", cost=20))


def test_d20_standing_up_from_prone_costs_half_the_speed():
    f = duel()
    b = cid(f, "Bran")
    f, _ = play(f, C.AddCondition(b, "Prone"))
    f2, ev = play(f, C.UseAction(b, "move", "Stand up"))
    assert not by_name(f2, "Bran").has("Prone")
    assert X.movement_left(by_name(f2, "Bran")) == 15
    assert [e.reason for e in of(ev, E.ConditionEnded)] == ["stood up"]
    # not enough movement left to stand
    f3, _ = play(f, C.UseAction(b, "move", cost=20))
    with pytest.raises(RuleError, match="needs 15 ft of movement to stand up and has 10 ft left"):
        play(f3, C.UseAction(b, "move", "Stand up"))
    # standing takes movement, not the action; and a grappled creature (speed 0) cannot
    with pytest.raises(RuleError, match="costs movement"):
        play(f, C.UseAction(b, "action", "Stand up"))
    g, _ = play(f, C.AddCondition(b, "Grappled"))
    with pytest.raises(RuleError, match="speed is 0"):
        play(g, C.UseAction(b, "move", "Stand up"))
    with pytest.raises(RuleError, match="not Prone"):
        play(f2, C.UseAction(b, "move", "Stand up"))


def test_d20_picking_up_a_dropped_weapon_costs_the_move_or_an_action():
    f = duel()
    b = cid(f, "Bran")
    f, _ = play(f, C.AddCondition(b, "Disarmed"))
    by_move, ev = play(f, C.UseAction(b, "move", "Pick up weapon"))
    assert not by_name(by_move, "Bran").has("Disarmed") and by_name(by_move, "Bran").economy.move == 0
    by_action, _ = play(f, C.UseAction(b, "action", "Pick up weapon"))
    e = by_name(by_action, "Bran").economy
    assert not by_name(by_action, "Bran").has("Disarmed") and (e.actions, e.move) == (0, 1)
    with pytest.raises(RuleError, match="costs the move or an action"):
        play(f, C.UseAction(b, "bonus", "Pick up weapon"))
    with pytest.raises(RuleError, match="not Disarmed"):
        play(by_move, C.UseAction(b, "action", "Pick up weapon"))


def test_d20_putting_out_a_fire_takes_an_action_not_a_bonus_action():
    f = duel()
    b = cid(f, "Bran")
    f, _ = play(f, C.AddCondition(b, "Burning"))
    with pytest.raises(RuleError, match="takes an action"):
        play(f, C.UseAction(b, "bonus", "Put out fire"))
    f, _ = play(f, C.UseAction(b, "action", "Put out fire"))
    assert not by_name(f, "Bran").has("Burning")


# --- Help ----------------------------------------------------------------------------------------


def helped():
    f = duel(add("Ysolde", "pc", "party", hp=20, dex=12))
    b, y = cid(f, "Bran"), cid(f, "Ysolde")
    f, ev = play(f, C.UseAction(b, "action", "Help", target=y))
    assert by_name(f, "Ysolde").condition("Helped").source == b
    assert "Ysolde is Helped (by Bran" in log(ev)[-1]
    return f, b, y


def test_d20_help_gives_an_ally_advantage_on_its_next_check_then_it_is_spent():
    f, b, y = helped()
    f, _ = play(f, C.NextTurn(), C.NextTurn())  # the Orc, then Ysolde
    f, ev = play(f, X.D20Test(y, "check", "str", label="Athletics", dc=12, given=(4, 13)))
    t = of(ev, X.TestRolled)[0]
    assert (t.mode, t.roll.total, t.advantages) == ("advantage", 13, ("Ysolde is Helped",))
    assert not by_name(f, "Ysolde").has("Helped")
    _, ev = play(f, X.D20Test(y, "check", "str", dc=12, given=(4,)))
    assert of(ev, X.TestRolled)[0].mode == "normal"


def test_d20_help_gives_advantage_on_the_next_attack_but_not_on_a_save():
    f, b, y = helped()
    o = cid(f, "Orc")
    _, ev = play(f, X.D20Test(y, "save", "dex", dc=12, given=(4,)))
    assert of(ev, X.TestRolled)[0].mode == "normal"  # a save is not a check
    f, _ = play(f, C.NextTurn(), C.NextTurn())
    assert X.attack_preview(f, X.D20Attack(y, o)).mode == "advantage"
    f, ev = play(f, X.D20Attack(y, o, bonus=3, given=(2, 12)))
    assert of(ev, X.AttackRolled)[0].natural == 12
    assert not by_name(f, "Ysolde").has("Helped")


def test_d20_help_lapses_at_the_start_of_the_helpers_next_turn():
    f, b, y = helped()
    f, ev = play(f, C.NextTurn(), C.NextTurn(), C.NextTurn())  # Orc, Ysolde (does nothing), Bran
    assert f.current == b and not by_name(f, "Ysolde").has("Helped")


def test_d20_help_needs_an_action_and_someone_else():
    f = duel()
    b = cid(f, "Bran")
    with pytest.raises(RuleError, match="cannot Help itself"):
        play(f, C.UseAction(b, "action", "Help", target=b))
    with pytest.raises(RuleError, match="Only the Help action"):
        play(f, C.UseAction(b, "action", "Dodge", target=cid(f, "Orc")))
    g, _ = play(f, C.UseAction(b, "action", "Help"))  # no one named: logged only
    assert not any(c.has("Helped") for c in g.combatants)


# --- attack bonus and Armor Class -------------------------------------------------------------


def test_d20_weapon_attack_adds_strength_and_proficiency_dexterity_for_ranged_and_finesse():
    f = duel(dex=18)  # Bran: Str 16 (+3), Dex 18 (+4), proficiency 2
    b, o = cid(f, "Bran"), cid(f, "Orc")
    bran = by_name(f, "Bran")
    assert X.attack_bonus(bran, "str") == 5
    assert X.attack_bonus(bran, "dex", "ranged") == 6
    assert X.attack_bonus(bran, "dex", "melee") == 6  # a finesse weapon
    assert X.attack_bonus(bran, "str", proficient=False) == 3  # no proficiency, no bonus
    with pytest.raises(RuleError, match="ranged weapon attack adds the Dexterity"):
        X.attack_bonus(bran, "str", "ranged")
    # in the attack: 8 + 5 = 13 meets AC 13; the damage adds the same +3
    _, ev = play(f, X.D20Attack(b, o, ability="str", damage="1d8", given=(8,), damage_given=(4,)))
    a, d = of(ev, X.AttackRolled)[0], of(ev, E.Damaged)[0]
    assert (a.roll.total, a.outcome, d.amount, d.roll.expr) == (13, "hit", 7, "1d8+3")
    # without proficiency: 8 + 3 = 11 misses
    _, ev = play(f, X.D20Attack(b, o, ability="str", proficient=False, damage="1d8", given=(8,)))
    assert of(ev, X.AttackRolled)[0].outcome == "miss"
    # a +1 weapon adds on top
    assert X.attack_preview(f, X.D20Attack(b, o, ability="dex", kind="ranged", bonus=1)).bonus == 7
    with pytest.raises(RuleError, match="leave mod out"):
        play(f, X.D20Attack(b, o, ability="str", damage="1d8", mod=3, given=(8,)))


def test_d20_power_attack_adds_the_casting_modifier_and_proficiency():
    f = duel(wis=17)  # +3
    b, o = cid(f, "Bran"), cid(f, "Orc")
    assert X.attack_bonus(by_name(f, "Bran"), "wis", power=True) == 5
    _, ev = play(
        f,
        X.D20Attack(
            b, o, use="power", label="Spirit lash", ability="wis", damage="1d10", given=(9,), damage_given=(6,)
        ),
    )
    a, d = of(ev, X.AttackRolled)[0], of(ev, E.Damaged)[0]
    assert (a.roll.total, d.amount) == (14, 6)  # no modifier on the power's damage unless it says
    with pytest.raises(RuleError, match="always adds the proficiency"):
        X.attack_bonus(by_name(f, "Bran"), "wis", power=True, proficient=False)


def test_d20_off_hand_attack_with_the_ability_leaves_a_positive_modifier_off_its_damage():
    f = duel()
    b, o = cid(f, "Bran"), cid(f, "Orc")
    f, _ = play(f, X.D20Attack(b, o, ability="str", damage="1d6", given=(15,), damage_given=(2,)))
    _, ev = play(f, X.D20Attack(b, o, use="offhand", ability="str", damage="1d4", given=(15,), damage_given=(3,)))
    assert of(ev, E.Damaged)[0].amount == 3
    weak = duel(str=6)  # Str 6: -2 stays on the off-hand damage
    f, _ = play(weak, X.D20Attack(b, o, ability="str", damage="1d6", given=(15,), damage_given=(2,)))
    _, ev = play(f, X.D20Attack(b, o, use="offhand", ability="str", damage="1d4", given=(15,), damage_given=(3,)))
    assert of(ev, E.Damaged)[0].amount == 1


@pytest.mark.parametrize(
    "dex, armor, shield, casting, ac",
    [
        (14, None, False, None, 12),  # 10 + Dex +2
        (14, None, True, None, 14),  # and a shield's +2
        (8, None, False, None, 9),  # a low Dexterity lowers it
        (14, 16, False, None, 16),  # the armor's value
        (14, 16, True, None, 18),
        (14, None, False, 3, 15),  # casting modifier instead of armor
        (14, None, True, 3, 17),
    ],
)
def test_d20_armor_class_is_10_plus_dex_or_the_armor_plus_a_shield(dex, armor, shield, casting, ac):
    assert X.armor_class(dex, armor, shield, casting) == ac


# --- conditions --------------------------------------------------------------------------------


def test_d20_confused_7_or_8_keeps_the_action_for_one_melee_attack_only():
    f = duel()
    b, o = cid(f, "Bran"), cid(f, "Orc")
    f, _ = play(f, C.AddCondition(o, "Confused", dc=12))
    f, ev = play(f, C.NextTurn(rolls=(C.GivenRoll(o, "Confused", (8,)),)))
    assert of(ev, EffectRolled)[0].roll.total == 8
    for cmd in (
        C.UseAction(o, "action", "Dash"),
        X.Ready(o, "Attack", "someone comes"),
        X.Grapple(o, b, given=(10,), target_given=(2,)),
        X.D20Attack(o, b, kind="ranged", given=(10,)),
        X.D20Attack(o, b, use="power", given=(10,)),
    ):
        with pytest.raises(RuleError, match="Confused"):
            play(f, cmd)
    f, ev = play(f, X.D20Attack(o, b, bonus=4, given=(15,)))
    assert of(ev, X.AttackRolled)[0].outcome == "hit"


def test_d20_an_npc_down_at_0_can_do_nothing_and_lets_go_of_what_it_held():
    f = duel(add("Gob", hp=5, dex=10))
    b, o, g = cid(f, "Bran"), cid(f, "Orc"), cid(f, "Gob")
    f, _ = play(f, C.AddCondition(g, "Concentrating"), C.AddCondition(b, "Grappled", source=g))
    f, ev = play(f, C.Damage(g, 9))
    gob = by_name(f, "Gob")
    assert not gob.has("Concentrating") and gob.due == () and not by_name(f, "Bran").has("Grappled")
    assert not of(ev, X.SaveDue)
    for what in ("reaction", "move"):
        with pytest.raises(RuleError, match="down at 0 hit points"):
            play(f, C.UseAction(g, what))
    # a PC at Death's Door keeps what it has: nothing is invented for it
    f, _ = play(f, C.AddCondition(b, "Concentrating"), C.AddCondition(o, "Grappled", source=b))
    f, ev = play(f, C.Damage(b, 40))
    assert by_name(f, "Bran").has("Concentrating") and by_name(f, "Orc").has("Grappled")


def test_d20_a_grapple_ends_when_the_grappler_leaves_the_fight():
    f = duel(add("Gob", hp=5, dex=10))
    g = cid(f, "Gob")
    f, _ = play(f, C.AddCondition(cid(f, "Bran"), "Grappled", source=g))
    f, ev = play(f, C.RemoveCombatant(g))
    assert not by_name(f, "Bran").has("Grappled")
    assert of(ev, E.ConditionEnded)[0].reason == "the grappler left the fight"


def test_d20_charmed_cannot_grapple_or_shove_its_charmer():
    f = duel()
    b, o = cid(f, "Bran"), cid(f, "Orc")
    f, _ = play(f, C.AddCondition(b, "Charmed", source=o))
    with pytest.raises(RuleError, match="Charmed by Orc"):
        play(f, X.Grapple(b, o, shove="prone", given=(15,), target_given=(2,)))
    with pytest.raises(RuleError, match="Charmed by Orc"):
        play(f, X.D20Attack(b, o, use="power", given=(15,)))


def test_d20_unconscious_drops_what_it_holds():
    f = duel()
    _, ev = play(f, C.AddCondition(cid(f, "Orc"), "Unconscious"))
    assert "Orc drops whatever it was holding" in log(ev)


def test_d20_shove_can_push_5_ft_instead_of_knocking_prone():
    f = duel()
    b, o = cid(f, "Bran"), cid(f, "Orc")
    f, ev = play(f, X.Grapple(b, o, shove="push", bonus=5, given=(10,), target_given=(3,)))
    assert "Bran pushes Orc 5 ft" in log(ev) and not by_name(f, "Orc").conditions


def test_d20_half_cover_adds_2_to_dexterity_saves():
    f = duel()
    b = cid(f, "Bran")  # Dex 14: +2
    _, ev = play(f, X.D20Test(b, "save", "dex", dc=15, cover="half", given=(11,)))
    t = of(ev, X.TestRolled)[0]
    assert (t.roll.total, t.success) == (15, True)


def test_d20_restrained_gives_disadvantage_on_dexterity_saves_only():
    f = duel()
    b = cid(f, "Bran")
    f, _ = play(f, C.AddCondition(b, "Restrained"))
    _, ev = play(f, X.D20Test(b, "save", "dex", given=(12, 5)))
    assert of(ev, X.TestRolled)[0].mode == "disadvantage"
    _, ev = play(f, X.D20Test(b, "save", "str", given=(12,)))
    assert of(ev, X.TestRolled)[0].mode == "normal"


@pytest.mark.parametrize("condition", ["Incapacitated", "Stunned", "Unconscious", "Confused"])
def test_d20_a_creature_that_cannot_react_makes_no_opportunity_attack(condition):
    f = duel()
    b, o = cid(f, "Bran"), cid(f, "Orc")
    f, _ = play(f, C.AddCondition(o, condition))
    with pytest.raises(RuleError, match=condition):
        play(f, X.D20Attack(o, b, use="opportunity", given=(15,)))


def test_d20_no_opportunity_attack_against_a_hidden_creature():
    f = duel()
    b, o = cid(f, "Bran"), cid(f, "Orc")
    f, _ = play(f, C.AddCondition(b, "Hidden"))
    with pytest.raises(RuleError, match="Hidden"):
        play(f, X.D20Attack(o, b, use="opportunity", given=(15,)))


@pytest.mark.parametrize("condition", ["Unconscious", "Stunned"])
def test_d20_an_unconscious_or_stunned_creature_does_not_move(condition):
    f = duel()
    b = cid(f, "Bran")
    f, _ = play(f, C.AddCondition(b, condition))
    with pytest.raises(RuleError, match=f"{condition} and cannot move"):
        play(f, C.UseAction(b, "move"))


def test_d20_incapacitated_alone_still_lets_it_move():
    f = duel()
    b = cid(f, "Bran")
    f, _ = play(f, C.AddCondition(b, "Incapacitated"), C.UseAction(b, "move", cost=10))
    assert X.movement_left(by_name(f, "Bran")) == 20


def test_d20_the_reaction_comes_back_at_the_start_of_a_lost_turn_too():
    f = duel()
    o = cid(f, "Orc")
    f, _ = play(f, C.NextTurn())  # the Orc's turn
    f, _ = play(f, C.UseAction(o, "reaction", "Opportunity attack"), C.NextTurn())  # round 2, Bran
    stun = C.Duration("turn_end", who=o)
    f, _ = play(f, C.AddCondition(o, "Stunned", duration=stun))
    f, ev = play(f, C.NextTurn())  # the Orc's turn is lost; the stun ends with it
    assert [e.name for e in of(ev, E.TurnSkipped)] == ["Orc"] and not by_name(f, "Orc").has("Stunned")
    assert by_name(f, "Orc").economy.reactions == 1
    play(f, C.UseAction(o, "reaction", "Opportunity attack"))
