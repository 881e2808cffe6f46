"""Warhammer attack sequence (issue 6, warhammer 1-5): a test per numbered rule, named after it,
with the worked examples of the rule text (Anna, Ulfberth, Wigmar, Thesalva)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from engine import RuleError, apply, describe, get_ruleset, new_fight
from engine import commands as C
from engine import events as E
from engine.history import History
from engine.rules.warhammer import combat as W
from engine.state import Fight

Attack = W.Attack


def stats(**kw: int) -> tuple[tuple[str, int], ...]:
    base = {"wounds": 12, "ws": 40, "bs": 40, "ag": 30, "i": 90, "t": 30, "wp": 30}
    base.update(kw)
    return tuple(base.items())


def wh(*people: tuple[str, dict, tuple[str, ...]], surprised: tuple[str, ...] = ()) -> Fight:
    """A started fight; combatants act in the order given (c1 first), nobody has Fortune."""
    f = new_fight("warhammer", seed=5)
    for name, st, flags in people:
        f, _ = apply(f, C.AddCombatant(name, stats=stats(**st), flags=flags))
    # Initiative 90 for all: rolls 5, 15, 25, ... give SL 9, 8, 7, ...
    init = tuple((f"c{i + 1}", (5 + 10 * i,)) for i in range(len(people)))
    f, _ = apply(f, C.StartFight(initiative=init, surprised=surprised))
    return f


def p(name: str, flags: tuple[str, ...] = (), **st: int) -> tuple[str, dict, tuple[str, ...]]:
    return (name, st, flags)


def turn(f: Fight, cid: str) -> Fight:
    for _ in range(50):
        if f.current == cid:
            return f
        f, _ = apply(f, C.NextTurn())
    raise AssertionError(f"{cid} never got a turn")


def hit(f: Fight, cmd: C.Command) -> tuple[Fight, list[E.Event], list[str]]:
    f2, ev = apply(f, cmd)
    return f2, list(ev), [describe(e) for e in ev]


def refused(f: Fight, cmd: C.Command, words: str) -> None:
    with pytest.raises(RuleError) as err:
        apply(f, cmd)
    assert words.lower() in str(err.value).lower(), str(err.value)


def only(ev: list[E.Event], kind: type):
    found = [e for e in ev if isinstance(e, kind)]
    assert len(found) == 1, found
    return found[0]


# --- rule 1: the attack test ---------------------------------------------------------------------


def test_rule1_attack_test_is_d100_against_ws_in_melee_and_bs_with_missiles():
    f = wh(p("Ulf", ws=48, bs=31), p("Gob"))
    f, ev, log = hit(f, Attack("c1", "c2", weapon="Axe", given_attack=(45,), given_damage=(1,)))
    a = only(ev, W.AttackTested)
    assert (a.skill, a.need, a.result, a.sl) == ("WS", 48, "hit", 0)
    assert log[1] == "Ulf attacks Gob (Axe): WS 48; 1d100 = [45] = 45 (entered): hit, SL +0"
    f = wh(p("Ulf", ws=48, bs=31), p("Gob"))
    f, ev, _ = hit(f, Attack("c1", "c2", kind="missile", modifier=-10, given_attack=(45,)))
    a = only(ev, W.AttackTested)
    assert (a.skill, a.need, a.result) == ("BS", 21, "miss")
    f = wh(p("Ulf", ws=48, bs=31), p("Gob"))
    _, ev, _ = hit(f, Attack("c1", "c2", kind="thrown", given_attack=(30,), given_damage=(1,)))
    assert only(ev, W.AttackTested).skill == "BS"


def test_rule1_success_levels_are_tens_of_the_target_minus_tens_of_the_roll():
    assert W.success_levels(48, 12) == 3
    assert W.success_levels(48, 45) == 0
    assert W.success_levels(48, 67) == -2
    assert W.success_levels(48, 100) == -6  # 00 reads as 100
    f = wh(p("Ulf", ws=48), p("Gob"))
    _, ev, _ = hit(f, Attack("c1", "c2", given_attack=(67,)))
    assert only(ev, W.AttackTested).sl == -2


def test_rule1_a_hit_that_is_a_double_is_a_critical_hit():
    f = wh(p("Ulf", ws=48), p("Gob", ("champion",)))
    _, ev, log = hit(f, Attack("c1", "c2", given_attack=(33,), given_damage=(2,), given_critical=(40,)))
    assert only(ev, W.AttackTested).result == "critical hit"
    crit = only(ev, W.CriticalRolled)
    assert crit.cause == "critical hit" and crit.total == 40
    assert "the GM reads the Body critical table" in describe(crit)  # 33 reversed is 33


def test_rule1_96_to_100_always_miss_even_with_a_higher_skill():
    f = wh(p("Ulf", ws=120), p("Gob"))
    _, ev, _ = hit(f, Attack("c1", "c2", given_attack=(97,)))
    a = only(ev, W.AttackTested)
    assert a.result == "miss (96 or more always misses)" and a.sl == 0
    assert W.hit_chance(120) == Fraction(95, 100)


def test_rule1_a_miss_that_is_a_double_is_a_fumble_and_00_always_is():
    f = wh(p("Ulf", ws=40), p("Gob"))
    f2, ev, log = hit(f, Attack("c1", "c2", given_attack=(55,), given_fumble=(87,), fumble_result="Drops the axe"))
    assert only(ev, W.AttackTested).result == "fumble"
    assert "Ulf fumbles: 1d100 = [87] = 87 (entered); Drops the axe" in log
    assert f2.get("c1").condition("Drops the axe").note == "fumble roll 87"
    f = wh(p("Ulf", ws=120), p("Gob"))
    _, ev, log = hit(f, Attack("c1", "c2", given_attack=(100,), given_fumble=(3,)))
    assert only(ev, W.AttackTested).result == "fumble (96 or more always misses)"
    assert "Ulf fumbles: 1d100 = [3] = 3 (entered); the GM reads the Fumble table" in log
    refused(wh(p("Ulf"), p("Gob")), Attack("c1", "c2", given_attack=(12,), fumble_result="x"), "no fumble")


def test_rule1_impale_weapons_also_crit_on_a_roll_ending_in_0():
    f = wh(p("Ulf", ws=48), p("Gob", ("champion",)))
    _, ev, _ = hit(f, Attack("c1", "c2", impale=True, given_attack=(30,), given_damage=(1,), given_critical=(9,)))
    assert only(ev, W.AttackTested).result == "critical hit"
    _, ev, _ = hit(f, Attack("c1", "c2", given_attack=(30,), given_damage=(1,)))
    assert only(ev, W.AttackTested).result == "hit"


def test_rule1_dual_wielding_main_hand_at_minus20_off_hand_at_minus40():
    f = wh(p("Thesalva", ("offhand",), ws=60), p("Gob"), p("Orc"))
    refused(wh(p("Plain", ws=60), p("Gob")), Attack("c1", "c2", option="dual"), "no 'offhand' flag")
    f, ev, _ = hit(f, Attack("c1", "c2", option="dual", given_attack=(50,)))
    a = only(ev, W.AttackTested)
    assert (
        a.need == 40 and a.mods == (("Dual wielding, main hand", -20),) and a.attack == "attack 1 of 2, Dual wielding"
    )
    refused(f, Attack("c1", "c3"), "every attack of the turn uses it")
    f, ev, _ = hit(f, Attack("c1", "c3", option="dual", given_attack=(50,)))
    assert only(ev, W.AttackTested).need == 20  # the off hand, against another target
    refused(f, Attack("c1", "c2", option="dual"), "has made all 2 attacks this turn")


@pytest.mark.parametrize(
    ("option", "flag", "needs"),
    [
        ("swift_even", "swift_attack", (30, 30)),
        ("swift_lead", "swift_attack", (40, 20)),
        ("lightning_even", "lightning_attack", (20, 20, 20)),
        ("lightning_lead", "lightning_attack", (40, 20, 0)),
    ],
)
def test_rule1_swift_and_lightning_attack_add_attacks_with_their_penalties(option, flag, needs):
    refused(wh(p("Ulf", ws=40), p("Gob")), Attack("c1", "c2", option=option), f"no '{flag}' flag")
    f = wh(p("Ulf", (flag,), ws=40), p("Gob", wounds=99))
    got = []
    for _ in needs:
        f, ev, _ = hit(f, Attack("c1", "c2", option=option, given_attack=(99,)))
        got.append(only(ev, W.AttackTested).need)
    assert tuple(got) == needs
    refused(f, Attack("c1", "c2", option=option), f"all {len(needs)} attacks")


def test_rule1_one_attack_a_turn_and_only_on_the_attackers_turn():
    f = wh(p("Ulf"), p("Gob"))
    refused(f, Attack("c2", "c1"), "not Gob's turn")
    refused(f, Attack("c1", "c1"), "cannot attack itself")
    f, _, _ = hit(f, Attack("c1", "c2", given_attack=(99,)))
    refused(f, Attack("c1", "c2"), "has made its attack this turn")
    refused(f, C.UseAction("c1", "action"), "already taken its one action")
    f = turn(f, "c2")
    f = turn(f, "c1")  # a new turn, a new attack
    f, _, _ = hit(f, Attack("c1", "c2", given_attack=(99,)))


# --- rule 2: defence ---------------------------------------------------------------------------


def test_rule2_a_parry_that_wins_the_opposed_test_cancels_the_hit():
    f = wh(p("Ulf", ws=48), p("Gob", ws=50))
    f, ev, log = hit(f, Attack("c1", "c2", defence="parry", given_attack=(35,), given_defence=(12,)))
    d = only(ev, W.DefenceTested)
    assert (d.need, d.sl, d.success) == (50, 4, True)
    assert log[-1] == "Gob parries: WS 50; 1d100 = [12] = 12 (entered): success, SL +4; the hit is cancelled"
    assert not [e for e in ev if isinstance(e, E.Damaged)]
    assert f.get("c2").hp == 12 and f.get("c2").economy.reactions == 0


def test_rule2_a_losing_defence_lowers_the_attackers_sl_by_its_own():
    # attacker SL 4 (48 vs 02 -> 4-0), defender SL 1 (50 vs 41): the hit stands at SL 3, and SL 3
    # beats a damage die of 2
    f = wh(p("Ulf", ws=48), p("Gob", ws=50, t=0))
    f, ev, log = hit(
        f, Attack("c1", "c2", damage=1, defence="parry", given_attack=(2,), given_defence=(41,), given_damage=(2,))
    )
    assert "the hit stands, attacker's SL +4 -> +3" in log[-3] or any("SL +4 -> +3" in x for x in log)
    dmg = only(ev, E.Damaged)
    assert (dmg.rolled, dmg.amount) == (4, 4)  # SL 3 instead of the die 2, +1 damage


def test_rule2_equal_sl_keeps_the_hit_and_a_failed_defence_changes_nothing():
    f = wh(p("Ulf", ws=48), p("Gob", ws=50, t=0))
    _, ev, log = hit(f, Attack("c1", "c2", defence="dodge", given_attack=(25,), given_defence=(2,), given_damage=(5,)))
    # dodge uses Agility 30: 02 gives SL 3 against the attacker's 2 (48 vs 25): cancelled
    d = only(ev, W.DefenceTested)
    assert d.skill == "AG" and d.outcome == "the hit is cancelled"
    f2 = wh(p("Ulf", ws=48), p("Gob", ws=48, t=0))
    _, ev, log = hit(
        f2, Attack("c1", "c2", defence="parry", given_attack=(25,), given_defence=(23,), given_damage=(5,))
    )
    # equal SL (2 and 2): the defender did not beat the attack; the hit stands at SL 2 - 2
    assert any(x.endswith("the hit stands, attacker's SL +2 -> +0") for x in log), log
    _, ev, log = hit(
        f2, Attack("c1", "c2", defence="parry", given_attack=(25,), given_defence=(90,), given_damage=(5,))
    )
    d = only(ev, W.DefenceTested)
    assert not d.success and d.outcome == "the hit stands"
    assert only(ev, E.Damaged).amount == 5


def test_rule2_a_critical_hit_can_only_be_stopped_by_a_critical_success():
    f = wh(p("Ulf", ws=48), p("Gob", ("champion",), ws=90, t=0))
    # a plain success with more SL does not stop a critical
    _, ev, log = hit(
        f,
        Attack(
            "c1", "c2", defence="parry", given_attack=(44,), given_defence=(10,), given_damage=(3,), given_critical=(5,)
        ),
    )
    d = only(ev, W.DefenceTested)
    assert d.success and d.sl == 8 and "only a critical success stops a critical hit" in d.outcome
    assert only(ev, E.Damaged).amount == 3 and only(ev, W.CriticalRolled)
    # a critical success (a double) with more SL does
    _, ev, _ = hit(f, Attack("c1", "c2", defence="parry", given_attack=(44,), given_defence=(11,)))
    assert only(ev, W.DefenceTested).outcome == "the hit is cancelled"
    assert not [e for e in ev if isinstance(e, W.CriticalRolled)]


def test_rule2_ulfberth_and_wigmar_two_handed_parry_twice_or_parry_and_dodge():
    for name in ("Ulfberth", "Wigmar"):
        f = wh(p("Gob", ws=90), p("Orc", ws=90), p("Bat", ws=90), p(name, ("twohanded",), ws=48, ag=35))
        assert (f.get("c4").economy.reactions, f.get("c4").economy.parries) == (1, 1)
        swing = dict(given_attack=(12,), given_defence=(99,), given_damage=(1,))
        # a miss costs no parry
        missed, _, _ = hit(f, Attack("c1", "c4", defence="parry", given_attack=(99,)))
        assert missed.get("c4").economy.parries == 1
        # parry twice ...
        f2, _, _ = hit(f, Attack("c1", "c4", defence="parry", **swing))
        f2 = turn(f2, "c2")
        f2, _, _ = hit(f2, Attack("c2", "c4", defence="parry", **swing))
        f2 = turn(f2, "c3")
        refused(f2, Attack("c3", "c4", defence="dodge"), f"{name} has no reactions left")
        # ... or one parry and one dodge
        f3, _, _ = hit(f, Attack("c1", "c4", defence="parry", **swing))
        f3 = turn(f3, "c2")
        f3, _, _ = hit(f3, Attack("c2", "c4", defence="dodge", **swing))
        e = f3.get("c4").economy
        assert (e.parries, e.reactions) == (0, 0)
        # but never two dodges: the bonus is a parry
        f4, _, _ = hit(f, Attack("c1", "c4", defence="dodge", **swing))
        f4 = turn(f4, "c2")
        refused(f4, Attack("c2", "c4", defence="dodge"), f"{name} has no reactions left")


def test_rule2_ulfberth_fighting_defensively_gets_two_bonus_parries_or_a_parry_and_a_dodge():
    f = wh(p("Ulfberth", ("twohanded",), ws=48), p("Gob", ws=90), p("Orc", ws=90), p("Bat", ws=90))
    f, _ = apply(f, C.UseAction("c1", "defensive"))
    e = f.get("c1").economy
    assert (e.reactions, e.parries, e.defensive) == (1, 1, 1)
    for who, what in (("c2", "parry"), ("c3", "parry"), ("c4", "dodge")):
        f = turn(f, who)
        f, _, _ = hit(f, Attack(who, "c1", defence=what, given_attack=(12,), given_defence=(99,), given_damage=(1,)))
    e = f.get("c1").economy
    assert (e.reactions, e.parries, e.defensive) == (0, 0, 0)


def test_rule2_thesalva_attacks_with_both_daggers_and_keeps_only_her_dodge():
    f = wh(p("Thesalva", ("offhand",), ws=42, ag=50), p("Troll", ws=40, t=60))
    assert f.get("c1").economy.parries == 1  # eligible for a bonus parry ...
    f, _, log = hit(f, Attack("c1", "c2", weapon="Dagger", option="dual", given_attack=(99,)))
    assert f.get("c1").economy.parries == 0  # ... given up for the frenzied two-weapon attack
    assert "Thesalva attacks with the off-hand weapon instead of parrying with it this round." in log
    f = turn(f, "c2")
    f, ev, _ = hit(f, Attack("c2", "c1", defence="dodge", given_attack=(12,), given_defence=(13,)))
    assert only(ev, W.DefenceTested).outcome == "the hit is cancelled"
    refused(f, Attack("c2", "c1", defence="parry"), "has made its attack")
    refused(f, C.UseAction("c1", "parry"), "no parries or reactions left")


def test_rule2_thrown_weapons_are_dodged_at_0_or_parried_at_minus20():
    f = wh(p("Gob", bs=40), p("Ulf", ws=50, ag=50))
    _, ev, _ = hit(
        f,
        Attack("c1", "c2", kind="thrown", defence="parry", given_attack=(12,), given_defence=(99,), given_damage=(1,)),
    )
    d = only(ev, W.DefenceTested)
    assert d.need == 30 and d.mods == (("parrying a thrown weapon", -20),)
    _, ev, _ = hit(
        f,
        Attack("c1", "c2", kind="thrown", defence="dodge", given_attack=(12,), given_defence=(99,), given_damage=(1,)),
    )
    assert only(ev, W.DefenceTested).need == 50


def test_rule2_arrows_bolts_and_bullets_can_only_be_dodged_at_minus20():
    f = wh(p("Gob", bs=40), p("Ulf", ws=50, ag=50))
    refused(f, Attack("c1", "c2", kind="missile", defence="parry"), "only dodged")
    _, ev, _ = hit(
        f,
        Attack("c1", "c2", kind="missile", defence="dodge", given_attack=(12,), given_defence=(99,), given_damage=(1,)),
    )
    assert only(ev, W.DefenceTested).need == 30
    # a pistol fired in melee is defended normally
    _, ev, _ = hit(
        f,
        Attack(
            "c1",
            "c2",
            kind="missile",
            in_melee=True,
            defence="parry",
            given_attack=(12,),
            given_defence=(99,),
            given_damage=(1,),
        ),
    )
    assert only(ev, W.DefenceTested).need == 50
    choices = W.defence_choices(f, Attack("c1", "c2", kind="missile"))
    assert choices[0][0] == "parry" and "only be dodged" in choices[0][2]
    assert choices[1] == ("dodge", -20, "")


def test_rule2_a_surprised_defender_cannot_defend_the_attacker_gets_20_and_being_attacked_ends_it():
    f = wh(p("Ulf", ws=40), p("Gob"), surprised=("c2",))
    refused(f, Attack("c1", "c2", defence="dodge"), "Surprised and cannot react")
    f, ev, log = hit(f, Attack("c1", "c2", given_attack=(99,)))
    assert only(ev, W.AttackTested).need == 60
    assert log[-1] == "Gob is no longer Surprised (was attacked)"
    assert not f.get("c2").has("Surprised")


def test_rule2_a_miss_needs_no_defence_and_keeps_the_reaction():
    f = wh(p("Ulf", ws=40), p("Gob"))
    f, _, log = hit(f, Attack("c1", "c2", defence="parry", given_attack=(80,), given_defence=(5,)))
    assert "The attack missed: Gob needs no parry, and keeps the reaction." in log
    assert "Entered but not needed: defence roll." in log
    assert f.get("c2").economy.reactions == 1


# --- rule 3: damage ----------------------------------------------------------------------------


def test_rule3_damage_is_d10_plus_the_weapon_bonus_or_sl_instead_of_a_lower_die():
    f = wh(p("Ulf", ws=48), p("Gob", wounds=30, t=0))
    _, ev, _ = hit(f, Attack("c1", "c2", damage=4, given_attack=(45,), given_damage=(7,)))
    assert only(ev, E.Damaged).amount == 11
    _, ev, _ = hit(f, Attack("c1", "c2", damage=4, given_attack=(2,), given_damage=(3,)))  # SL 4 > 3
    dmg = only(ev, E.Damaged)
    assert dmg.amount == 8 and "SL 4 instead of the die" in dmg.detail


@pytest.mark.parametrize(
    ("rolled", "where"),
    [
        (1, "body"),
        (10, "body"),
        (93, "body"),
        (24, "head"),
        (4, "head"),
        (5, "rarm"),
        (46, "rarm"),
        (37, "rleg"),
        (97, "rleg"),
        (8, "larm"),
        (98, "larm"),
        (9, "lleg"),
        (19, "lleg"),
        (99, "lleg"),
        (100, "body"),
    ],
)
def test_rule3_hit_location_reverses_the_attack_roll(rolled, where):
    assert W.location(rolled) == where


def test_rule3_armour_at_the_location_then_the_toughness_bonus_then_wounds():
    f = wh(p("Ulf", ws=48), p("Gob", wounds=12, t=34, ap_head=2, ap_body=1))
    f2, ev, log = hit(f, Attack("c1", "c2", damage=4, given_attack=(24,), given_damage=(7,)))  # reversed 42: head
    dmg = only(ev, E.Damaged)
    assert (dmg.rolled, dmg.amount, dmg.left) == (11, 6, 6)  # 11 - AP 2 - TB 3
    assert dmg.detail == "Head (reversed 42), die 7, damage +4, AP 2, TB 3"
    _, ev, _ = hit(f, Attack("c1", "c2", damage=0, given_attack=(21,), given_damage=(3,)))  # body: 3-1-3
    assert only(ev, E.Damaged).amount == 0
    # the GM may name the location
    _, ev, _ = hit(f, Attack("c1", "c2", damage=4, location="body", given_attack=(24,), given_damage=(7,)))
    assert only(ev, E.Damaged).amount == 7
    refused(f, Attack("c1", "c2", location="tail"), "No hit location 'tail'")


def test_rule3_a_shields_ap_counts_against_missiles():
    f = wh(p("Gob", bs=48), p("Ulf", wounds=20, t=0, ap_shield=2))
    _, ev, _ = hit(f, Attack("c1", "c2", kind="missile", damage=3, given_attack=(21,), given_damage=(5,)))
    assert only(ev, E.Damaged).amount == 6 and "shield AP 2" in only(ev, E.Damaged).detail
    _, ev, _ = hit(f, Attack("c1", "c2", kind="missile", damage=3, shield=False, given_attack=(21,), given_damage=(5,)))
    assert only(ev, E.Damaged).amount == 8
    _, ev, _ = hit(f, Attack("c1", "c2", kind="melee", damage=3, given_attack=(21,), given_damage=(5,)))
    assert only(ev, E.Damaged).amount == 8


# --- rule 4: zero Wounds and criticals ----------------------------------------------------------


def test_rule4_a_minion_collapses_at_zero_wounds_and_loses_its_turns():
    f = wh(p("Ulf", ws=48), p("Gob", ("minion",), wounds=3, t=0), p("Orc"))
    f, ev, log = hit(f, Attack("c1", "c2", damage=0, given_attack=(21,), given_damage=(3,)))
    assert "Gob is at 0 Wounds and collapses, helpless" in log
    assert not [e for e in ev if isinstance(e, W.CriticalRolled)]  # exactly 0: nothing beyond
    f, ev = apply(f, C.NextTurn())
    assert any(isinstance(e, E.TurnSkipped) and e.reason == "collapsed at 0 Wounds" for e in ev)
    assert f.current == "c3"
    refused(f, C.UseAction("c2", "dodge"), "collapsed at 0 Wounds and cannot defend")


def test_rule4_a_champion_tests_willpower_plus_0_to_keep_fighting():
    f = wh(p("Ulf", ws=48), p("Troll", ("champion",), wounds=3, t=0, wp=40), p("Orc"))
    f2, ev, log = hit(f, Attack("c1", "c2", given_attack=(21,), given_damage=(3,), given_willpower=(40,)))
    w = only(ev, W.WillpowerTested)
    assert (w.need, w.success) == (40, True) and f2.get("c2").has("Fighting on")
    f2, ev = apply(f2, C.NextTurn())
    assert f2.current == "c2"  # fights on at 0 Wounds
    f3, ev, log = hit(f, Attack("c1", "c2", given_attack=(21,), given_damage=(3,), given_willpower=(41,)))
    assert "stops fighting" in log[-2]
    # the failure stays on the sheet: marked, and named in its zero-Wounds line
    assert log[-1] == "Troll is Stopped fighting" and f3.get("c2").has("Stopped fighting")
    assert "has stopped fighting" in get_ruleset("warhammer").dropped_state(f3, f3.get("c2"))
    g, _ = apply(f3, W.KeepFighting("c2", given=(12,)))  # the GM asks again: a pass replaces the failure
    assert g.get("c2").has("Fighting on") and not g.get("c2").has("Stopped fighting")
    f3, ev = apply(f3, C.NextTurn())
    assert f3.current == "c3"
    # the test can also be made on its own (after damage typed in by hand)
    f4, _ = apply(f, C.Damage("c2", amount=5))
    f4, ev = apply(f4, W.KeepFighting("c2", given=(12,)))
    assert f4.get("c2").has("Fighting on")
    # a new test replaces the last one (an earlier result must not outlive a new fall to 0)
    f5, ev = apply(f4, W.KeepFighting("c2", given=(90,)))
    assert not f5.get("c2").has("Fighting on") and W.collapsed(f5.get("c2"))
    f6 = wh(p("Ulf", ws=48), p("Boss", ("champion",), wounds=3, resolve=1))
    f6, _ = apply(f6, C.Damage("c2", amount=5))
    refused(f6, W.KeepFighting("c2"), "has Resolve and fights on without a test")
    refused(f, W.KeepFighting("c2"), "not at 0 Wounds")
    refused(f, W.KeepFighting("c3"), "Only champion-tier")


def test_rule4_those_with_resolve_fight_on_at_zero_wounds():
    f = wh(p("Ulf", ws=48), p("Anna", wounds=3, t=0, resolve=1), p("Orc"))
    f, ev, log = hit(f, Attack("c1", "c2", given_attack=(21,), given_damage=(3,)))
    assert "Anna is at 0 Wounds and fights on (Resolve)" in log
    assert not [e for e in ev if isinstance(e, W.WillpowerTested)]
    f, _ = apply(f, C.NextTurn())
    assert f.current == "c2"


def test_rule4_any_wounding_hit_at_zero_wounds_is_a_critical_with_5_a_point():
    f = wh(p("Ulf", ws=48), p("Anna", wounds=3, t=0, resolve=1))
    f, _ = apply(f, C.Damage("c2", amount=3))
    _, ev, log = hit(f, Attack("c1", "c2", damage=1, given_attack=(21,), given_damage=(2,), given_critical=(10,)))
    crit = only(ev, W.CriticalRolled)
    assert crit.cause == "wounding hit at 0 Wounds" and crit.total == 10 + 15
    # any hit on a defender already at 0 Wounds causes a critical injury, even one that armour and
    # Toughness stop entirely (nothing beyond 0: no +5s); a miss does not
    f2 = wh(p("Ulf", ws=48), p("Anna", wounds=3, t=40, resolve=1))
    f2, _ = apply(f2, C.Damage("c2", amount=3))
    _, ev, _ = hit(f2, Attack("c1", "c2", given_attack=(21,), given_damage=(2,), given_critical=(38,)))
    assert only(ev, E.Damaged).amount == 0
    crit = only(ev, W.CriticalRolled)
    assert (crit.cause, crit.mods, crit.total) == ("hit at 0 Wounds", (), 38)
    _, ev, _ = hit(f2, Attack("c1", "c2", given_attack=(60,)))
    assert not [e for e in ev if isinstance(e, W.CriticalRolled)]


def anna(helmet: int = 0) -> Fight:
    # Anna (1 Wound left after the troll, Toughness 30: TB 3) and the goblin archer
    f = wh(p("Goblin", ("minion",), bs=40), p("Anna", wounds=11, t=30, resolve=1, resilience=1, ap_head=helmet))
    f, _ = apply(f, C.Damage("c2", amount=10))
    assert f.get("c2").hp == 1
    return f


def test_rule4_anna_example_1_wound_and_6_damage_adds_25_to_the_critical_roll():
    # the arrow hits the face: attack roll 24 reversed is 42, the head. d10 5 + 4 = 9, - TB 3 = 6
    f, ev, log = hit(
        anna(),
        Attack(
            "c1",
            "c2",
            kind="missile",
            damage=4,
            given_attack=(24,),
            given_damage=(5,),
            given_critical=(48,),
            injury="Broken jaw",
        ),
    )
    dmg = only(ev, E.Damaged)
    assert (dmg.amount, dmg.left) == (6, 0)
    crit = only(ev, W.CriticalRolled)
    assert crit.mods == (("5 beyond 0 Wounds", 25),) and crit.total == 73 and crit.location == "head"
    assert describe(crit) == (
        "Anna: critical roll for a critical injury to the Head (taken past 0 Wounds): "
        "1d100 = [48] = 48 (entered) +25 (5 beyond 0 Wounds) = 73: Broken jaw"
    )
    assert f.get("c2").condition("Broken jaw").note == "critical injury, Head, roll 73"


def test_rule4_anna_example_with_a_helmet_the_armour_deflects_73_to_53():
    # the helmet (AP 2) makes the damage 4 after armour and Toughness: the text's 6 needs 2 more
    f, ev, log = hit(
        anna(helmet=2),
        Attack(
            "c1",
            "c2",
            kind="missile",
            damage=6,
            given_attack=(24,),
            given_damage=(5,),
            given_critical=(48,),
            deflect=True,
        ),
    )
    crit = only(ev, W.CriticalRolled)
    assert crit.total == 53 and crit.mods == (("5 beyond 0 Wounds", 25), ("armour deflection", -20))
    assert f.get("c2").stat("ap_head") == 0  # AP 2 -> 0, until repaired
    arm = only(ev, W.ArmourDamaged)
    assert describe(arm) == "Anna's armour deflects the blow: critical -20; Head AP 2 -> 0 until repaired"


def test_rule4_deflection_with_1_ap_takes_10_off_and_leaves_no_armour():
    f, ev, _ = hit(
        anna(helmet=1),
        Attack(
            "c1",
            "c2",
            kind="missile",
            damage=5,
            given_attack=(24,),
            given_damage=(5,),
            given_critical=(48,),
            deflect=True,
        ),
    )
    crit = only(ev, W.CriticalRolled)  # 5 + 5 - AP 1 - TB 3 = 6: 5 beyond Anna's 1 Wound
    assert crit.mods == (("5 beyond 0 Wounds", 25), ("armour deflection", -10)) and crit.total == 63
    assert f.get("c2").stat("ap_head") == 0


def test_rule4_only_champions_masters_or_those_with_resilience_may_deflect():
    f = wh(p("Ulf", ws=48), p("Thug", wounds=20, ap_body=3), p("Boss", ("master",), wounds=20, ap_body=3))
    refused(f, Attack("c1", "c2", given_attack=(11,), given_damage=(1,), deflect=True), "Only champions, masters")
    f2, ev, _ = hit(f, Attack("c1", "c3", given_attack=(11,), given_damage=(1,), given_critical=(50,), deflect=True))
    assert only(ev, W.CriticalRolled).total == 30
    refused(
        f,
        Attack("c1", "c3", given_attack=(11,), given_damage=(1,), deflect=True, location="head"),
        "no armour on the Head",
    )
    refused(f, Attack("c1", "c3", given_attack=(12,), given_damage=(1,), deflect=True), "no critical to deflect")
    refused(f, Attack("c1", "c3", given_attack=(12,), given_damage=(1,), injury="Ouch"), "no critical injury")


@pytest.mark.parametrize(
    ("rolled", "result", "conditions"),
    [
        (15, "Grazing blow: no effect", ()),
        (25, "Grazing blow: no effect (the sudden-death table skips 21-30", ()),
        (35, "Seriously injured: fights at -20", ("Seriously injured",)),
        (50, "Critically wounded: prone and stunned indefinitely", ("Critically wounded", "Prone", "Stunned")),
        (70, "Dead", ("Dead",)),
    ],
)
def test_rule4_minions_may_use_the_sudden_death_table(rolled, result, conditions):
    f = wh(p("Ulf", ws=48), p("Gob", ("minion",), wounds=20, t=0), p("Orc"))
    f, ev, log = hit(f, Attack("c1", "c2", given_attack=(11,), given_damage=(1,), given_critical=(rolled,)))
    crit = only(ev, W.CriticalRolled)
    assert crit.sudden and crit.result.startswith(result)
    assert tuple(c.name for c in f.get("c2").conditions) == conditions
    if conditions and conditions[0] != "Seriously injured":
        f, ev = apply(f, C.NextTurn())
        assert f.current == "c3"  # dead or critically wounded: its turns are skipped


def test_rule4_seriously_injured_fights_at_minus_20_and_the_gm_may_skip_the_sudden_death_table():
    f = wh(p("Gob", ("minion",), ws=50), p("Ulf", ws=48, wounds=30))
    f, _ = apply(f, C.AddCondition("c1", "Seriously injured"))
    _, ev, _ = hit(f, Attack("c1", "c2", given_attack=(99,)))
    assert only(ev, W.AttackTested).mods == (("Seriously injured", -20),)
    f2 = wh(p("Ulf", ws=48), p("Gob", ("minion",), wounds=20))
    _, ev, _ = hit(
        f2, Attack("c1", "c2", sudden_death=False, given_attack=(11,), given_damage=(1,), given_critical=(50,))
    )
    assert not only(ev, W.CriticalRolled).sudden
    refused(wh(p("Ulf"), p("Boss", ("champion",))), Attack("c1", "c2", sudden_death=True), "for minions")


def test_rule4_a_critical_outside_an_attack():
    f = wh(p("Ulf"), p("Anna", ("champion",), ap_body=2))
    f, ev, log = hit(
        f,
        W.Critical(
            "c2", "body", modifier=15, deflect=True, given=(40,), source="fell off the bridge", injury="Cracked ribs"
        ),
    )
    assert only(ev, W.CriticalRolled).total == 35
    assert f.get("c2").has("Cracked ribs") and f.get("c2").stat("ap_body") == 0
    refused(f, W.Critical("c2", "wing"), "No hit location")


def test_rule4_tiers_and_fortune_resolve_resilience_are_tracked():
    f = wh(p("Gob", ("minion",)), p("Troll", ("champion",), resolve=1), p("Anna", fortune=2, resolve=1, resilience=1))
    assert [W.tier(c) for c in f.combatants] == ["minion", "champion", ""]
    anna_ = f.get("c3")
    assert [(x.key, x.current) for x in anna_.resources] == [("fortune", 2), ("resolve", 1), ("resilience", 1)]
    f, ev = apply(f, C.SpendResource("c3", "resilience"))
    assert not W.may_deflect(f.get("c3")) and W.may_deflect(f.get("c2"))


# --- rule 5: the engine side of the attack dialog -------------------------------------------------


def test_rule5_one_undo_takes_back_the_whole_attack_sequence():
    f = anna(helmet=2)
    h = History.start(f)
    h.apply(
        W.Attack(
            "c1",
            "c2",
            kind="missile",
            damage=6,
            given_attack=(24,),
            given_damage=(5,),
            given_critical=(48,),
            deflect=True,
            injury="Fractured jaw",
        )
    )
    after = h.state.get("c2")
    assert after.hp == 0 and after.stat("ap_head") == 0 and after.has("Fractured jaw")
    h.undo()
    assert h.state == f
    h.redo()
    assert h.state.get("c2") == after


def test_rule5_the_dialog_previews_the_roll_before_the_defence_is_chosen():
    f = wh(p("Ulf", ws=48), p("Gob", ws=45, wounds=30))
    plain = W.Attack("c1", "c2", damage=3)
    first, _ = W.preview_attack(f, plain)
    parried, _ = W.preview_attack(f, W.Attack("c1", "c2", damage=3, defence="parry"))
    assert first.roll == parried.roll  # the attack roll the GM saw does not change
    assert parried.defence == "parry"
    f2, _ = apply(f, W.Attack("c1", "c2", damage=3, defence="parry"))
    assert f2.get("c2").hp == parried.left
    assert f.get("c2").hp == 30  # previews change nothing


def test_rule5_the_chance_to_hit_is_exact_before_rolling():
    f = wh(p("Ulf", ws=48), p("Gob", ws=45), surprised=("c2",))
    odds = W.attack_odds(f, W.Attack("c1", "c2", modifier=-10))
    assert odds.need == 58 and odds.mods == (("defender Surprised", 20), ("modifier", -10))
    assert odds.hit == Fraction(58, 100)
    assert odds.critical == Fraction(5, 100)  # 11 22 33 44 55
    assert odds.fumble == Fraction(5, 100)  # 66 77 88 99 00
    f = wh(p("Ulf", ws=48), p("Gob", ws=45))
    odds = W.attack_odds(f, W.Attack("c1", "c2", defence="parry"))
    # the same number by brute force over every pair of rolls
    lands = 0
    for x in range(1, 101):
        if x > 48 or x >= 96:
            continue
        asl, crit = 4 - x // 10, W.is_double(x)
        for d in range(1, 101):
            ok = d <= 45
            cancel = ok and (not crit or W.is_double(d)) and (4 - d // 10) > asl
            lands += not cancel
    assert odds.lands == Fraction(lands, 10_000)
    assert odds.defence_need == 45


def test_rule2_a_hit_that_stands_never_drops_below_sl_0():
    # critical 11 (SL +3) against a plain parry success 10 (SL +8): the hit stands at SL 0, not -5
    f = wh(p("Ulf", ws=48), p("Gob", ("champion",), ws=90, t=0, wounds=30))
    _, ev, _ = hit(
        f,
        Attack(
            "c1", "c2", defence="parry", given_attack=(11,), given_defence=(10,), given_damage=(2,), given_critical=(5,)
        ),
    )
    assert only(ev, W.DefenceTested).outcome.endswith("the hit stands, attacker's SL +3 -> +0")
    assert only(ev, E.Damaged).amount == 2


def test_rule3_temporary_wounds_take_the_damage_first():
    f = wh(p("Ulf", ws=48), p("Gob", wounds=5, t=0))
    f, _ = apply(f, C.TempHealth("c2", amount=3))
    f, ev, _ = hit(f, Attack("c1", "c2", damage=3, given_attack=(21,), given_damage=(4,)))
    dmg = only(ev, E.Damaged)
    assert dmg.amount == 7 and dmg.left == 1 and "3 absorbed by temporary Wounds" in dmg.detail
    assert f.get("c2").health[0].temp == 0
