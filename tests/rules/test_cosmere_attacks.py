"""Cosmere attacks (issue 5, Cosmere rules 1-3): the attack test against a defense with the damage dice
rolled at once; miss, graze, hit, critical; several targets on one roll; advantage and disadvantage;
Reactive Strike; one undo per attack."""

from __future__ import annotations

from fractions import Fraction

import pytest

from engine import RuleError, apply
from engine import commands as C
from engine.history import History
from engine.rules.cosmere import combat as X
from engine.rules.cosmere.commands import StartTurn
from tests.engine.support import by_name, cid, frozen_copy, log, of, play, setup


def add(name, kind="npc", side="enemy", flags=(), **stats):
    return C.AddCombatant(name, kind=kind, side=side, stats=tuple(stats.items()), flags=flags)


def arena():
    """Kaladin's fast turn has begun; two Parshendi and an ally stand by."""
    f = setup(
        "cosmere",
        add("Kaladin", "pc", "party", hp=30, focus=4, phy=15, speed=30),
        add("Warrior 1", hp=18, phy=14, cog=11, spi=12),
        add("Warrior 2", hp=18, phy=16, cog=11, spi=12),
        add("Teft", "npc", "party", hp=15, focus=2, phy=13),
        seed=3,
    )
    f, _ = play(f, C.StartFight(), StartTurn(cid(f, "Kaladin"), "fast"))
    return f


def strike(f, targets=("Warrior 1",), **kw):
    kw.setdefault("modifier", 4)
    kw.setdefault("damage", "1d8")
    return play(f, X.CosmereAttack(cid(f, "Kaladin"), tuple(cid(f, t) for t in targets), **kw))


def results(ev):
    return [(r.target_name, r.outcome, r.damage) for r in of(ev, X.TargetResult)]


def test_cosmere_attack_test_against_the_chosen_defense_with_damage_dice_rolled_at_the_same_time():
    f = arena()
    _, ev = strike(f, defense="cog", given=(7,), damage_given=(5,))  # 11 meets Cognitive 11
    a = of(ev, X.CosmereAttackRolled)[0]
    assert a.defense == "cog" and a.damage.total == 5
    assert results(ev) == [("Warrior 1", "hit", 9)]
    # the damage dice are rolled with the test, hit or miss: a miss moves the random state just as far
    f1, _ = strike(f, given=(2,))
    f2, _ = strike(f, given=(19,))
    assert f1.rng == f2.rng != f.rng


def test_cosmere_miss_deals_no_damage():
    f = arena()
    f2, ev = strike(f, given=(9,), damage_given=(8,))  # 13 against Physical 14
    assert results(ev) == [("Warrior 1", "miss", 0)] and not of(ev, X.E.Damaged)
    assert by_name(f2, "Warrior 1").hp == 18


def test_cosmere_graze_spends_one_focus_per_missed_target_for_the_dice_total():
    f = arena()
    f2, ev = strike(
        f, ("Warrior 1", "Warrior 2"), given=(9,), damage_given=(6,), graze=(cid(f, "Warrior 1"), cid(f, "Warrior 2"))
    )
    assert results(ev) == [("Warrior 1", "graze", 6), ("Warrior 2", "graze", 6)]  # no modifier on a graze
    assert by_name(f2, "Kaladin").pool("focus").current == 2
    assert [e.delta for e in of(ev, X.E.ResourceChanged)] == [-2]
    f3, ev = strike(f, ("Warrior 1", "Warrior 2"), given=(9,), damage_given=(6,), graze=(cid(f, "Warrior 2"),))
    assert results(ev) == [("Warrior 1", "miss", 0), ("Warrior 2", "graze", 6)]
    assert by_name(f3, "Kaladin").pool("focus").current == 3


def test_cosmere_graze_needs_focus_and_a_missed_target():
    f = arena()
    f, _ = play(f, C.SpendResource(cid(f, "Kaladin"), "focus", 4))
    before = frozen_copy(f)
    with pytest.raises(RuleError, match="costs 1 focus and Kaladin has 0"):
        strike(f, given=(9,), graze=(cid(f, "Warrior 1"),))
    with pytest.raises(RuleError, match="was hit: there is nothing to graze"):
        strike(f, given=(15,), graze=(cid(f, "Warrior 1"),))
    assert frozen_copy(f) == before


def test_cosmere_hit_deals_the_dice_total_plus_the_skill_modifier():
    f = arena()
    f2, ev = strike(f, given=(10,), damage_given=(3,))
    assert results(ev) == [("Warrior 1", "hit", 7)]
    assert by_name(f2, "Warrior 1").hp == 11
    assert "Kaladin's hit: 3 + 4" in of(ev, X.E.Damaged)[0].detail


def test_cosmere_hit_without_damage_dice_reports_and_deals_no_damage():
    f = arena()
    g, ev = strike(f, damage="", given=(15,))
    assert results(ev) == [("Warrior 1", "hit", 0)]  # the modifier alone is not damage
    assert by_name(g, "Warrior 1").hp == by_name(f, "Warrior 1").hp


def test_cosmere_critical_spends_an_opportunity_and_maximises_the_dice_for_every_target():
    f = arena()
    _, ev = strike(
        f,
        ("Warrior 1", "Warrior 2"),
        damage="2d6",
        given=(11,),
        damage_given=(1, 2),
        graze=(cid(f, "Warrior 2"),),
        critical=True,
    )
    # 15 hits Physical 14, misses 16: the hit becomes critical, the graze deals the maximised dice too
    assert results(ev) == [("Warrior 1", "critical", 16), ("Warrior 2", "critical graze", 12)]
    assert "spends an Opportunity" in log(ev)[1]


def test_cosmere_critical_needs_a_hit():
    f = arena()
    with pytest.raises(RuleError, match="A critical needs a hit"):
        strike(f, given=(2,), critical=True)


def test_cosmere_one_roll_against_several_targets_each_compared_on_its_own():
    f = arena()
    _, ev = strike(f, ("Warrior 1", "Warrior 2"), given=(11,), damage_given=(5,))
    assert results(ev) == [("Warrior 1", "hit", 9), ("Warrior 2", "miss", 0)]
    a = of(ev, X.CosmereAttackRolled)[0]
    assert a.test.terms[0].rolls == (11,) and a.damage.total == 5  # one test, one damage roll


@pytest.mark.parametrize(
    "flag, source",
    [
        ("in_reach", "ranged attack within an enemy's reach"),
        ("long_range", "long range"),
        ("unstable", "unstable footing"),
    ],
)
def test_cosmere_ranged_disadvantages_keep_the_lower_d20(flag, source):
    f = arena()
    _, ev = strike(f, kind="ranged", given=(15, 5), **{flag: True})
    r = of(ev, X.TargetResult)[0]
    assert (r.mode, r.natural, r.disadvantages, r.outcome) == ("disadvantage", 5, (source,), "miss")
    with pytest.raises(RuleError, match="Only a ranged attack"):
        strike(f, given=(15, 5), **{flag: True})


def test_cosmere_a_target_it_cannot_sense_gives_a_disadvantage_against_it_alone_and_cannot_be_grazed():
    f = arena()
    w2 = cid(f, "Warrior 2")
    _, ev = strike(f, ("Warrior 1", "Warrior 2"), given=(12, 11), damage_given=(4,), unsensed=(w2,))
    r1, r2 = of(ev, X.TargetResult)
    assert (r1.mode, r1.natural, r1.outcome) == ("normal", 12, "hit")  # the first d20 for a straight roll
    assert (r2.mode, r2.natural, r2.outcome, r2.sensed) == ("disadvantage", 11, "miss", False)
    with pytest.raises(RuleError, match="cannot sense it"):
        strike(f, ("Warrior 2",), given=(3, 4), unsensed=(w2,), graze=(w2,))
    with pytest.raises(RuleError, match="rolls 2 d20s"):
        strike(f, ("Warrior 2",), given=(3,), unsensed=(w2,))


def test_cosmere_brace_with_cover_gives_incoming_attacks_a_disadvantage_until_its_next_turn():
    f = arena()
    k, w1 = cid(f, "Kaladin"), cid(f, "Warrior 1")
    f, ev = play(f, C.UseAction(k, "action", "Brace"))
    assert by_name(f, "Kaladin").has("Braced")
    odds = X.attack_preview(f, X.CosmereAttack(w1, (k,), modifier=3))
    assert odds[0].mode == "disadvantage" and "Braced" in odds[0].disadvantages[0]
    while f.round == 1:
        f, ev = play(f, C.NextTurn())
    assert by_name(f, "Kaladin").has("Braced")  # through everyone else's turns
    f, ev = play(f, StartTurn(k))  # next round, its next turn: the Brace is over
    assert not by_name(f, "Kaladin").has("Braced")


def test_cosmere_advantage_and_disadvantage_cancel_one_for_one_and_the_gm_can_override():
    f = arena()
    cmd = X.CosmereAttack(
        cid(f, "Kaladin"),
        (cid(f, "Warrior 1"),),
        kind="ranged",
        long_range=True,
        unstable=True,
        advantage=("high perch",),
    )
    assert X.attack_preview(f, cmd)[0].mode == "disadvantage"  # 1 advantage against 2 disadvantages
    cmd = X.CosmereAttack(cid(f, "Kaladin"), (cid(f, "Warrior 1"),), kind="ranged", long_range=True, advantage=("aid",))
    assert X.attack_preview(f, cmd)[0].mode == "normal"
    cmd = X.CosmereAttack(cid(f, "Kaladin"), (cid(f, "Warrior 1"),), kind="ranged", long_range=True, mode="advantage")
    assert X.attack_preview(f, cmd)[0].mode == "advantage"
    _, ev = strike(f, kind="ranged", long_range=True, mode="advantage", given=(3, 17))
    assert of(ev, X.TargetResult)[0].natural == 17 and "GM's call" in log(ev)[-2]


def test_cosmere_hit_chance_is_exact():
    assert X.hit_chance(4, 14) == Fraction(11, 20)
    assert X.hit_chance(4, 14, "advantage") == 1 - Fraction(9, 20) ** 2
    assert X.hit_chance(4, 14, "disadvantage") == Fraction(11, 20) ** 2
    assert X.hit_chance(0, 25) == 0 and X.hit_chance(10, 5) == 1  # no automatic results in the text
    f = arena()
    odds = X.attack_preview(
        f, X.CosmereAttack(cid(f, "Kaladin"), (cid(f, "Warrior 1"), cid(f, "Warrior 2")), modifier=4)
    )
    assert [o.p_hit for o in odds] == [Fraction(11, 20), Fraction(9, 20)]


def test_cosmere_outcome_preview_rolls_the_very_dice_the_attack_then_uses():
    f = arena()
    cmd = X.CosmereAttack(cid(f, "Kaladin"), (cid(f, "Warrior 1"), cid(f, "Warrior 2")), modifier=4, damage="1d8")
    before = frozen_copy(f)
    seen = X.outcome_preview(f, cmd)
    assert frozen_copy(f) == before
    missed = tuple(r.target for r in seen if r.outcome == "miss")
    hits = any(r.outcome == "hit" for r in seen)
    _, ev = play(f, X.msgspec.structs.replace(cmd, graze=missed[:1], critical=hits))
    after = of(ev, X.TargetResult)
    assert [(r.natural, r.total) for r in after] == [(r.natural, r.total) for r in seen]


def test_cosmere_reactive_strike_spends_the_reaction_and_one_focus():
    f = arena()
    k, w1, teft = cid(f, "Kaladin"), cid(f, "Warrior 1"), cid(f, "Teft")
    f, _ = play(f, C.NextTurn())  # Kaladin's turn ends; it is an NPC's move now
    f2, ev = play(
        f, X.CosmereAttack(k, (w1,), modifier=4, damage="1d8", use="reaction", given=(12,), damage_given=(2,))
    )
    kal = by_name(f2, "Kaladin")
    assert (kal.economy.reactions, kal.pool("focus").current) == (0, 3)
    assert "Reactive Strike" in log(ev)[-4] or any("Reactive Strike" in x for x in log(ev))
    with pytest.raises(RuleError, match="no reaction left"):
        play(f2, X.CosmereAttack(k, (w1,), use="reaction", given=(12,)))
    with pytest.raises(RuleError, match="one melee attack against one enemy's Physical defense"):
        play(f, X.CosmereAttack(k, (w1,), use="reaction", defense="cog", given=(12,)))
    with pytest.raises(RuleError, match="against an enemy"):
        play(f, X.CosmereAttack(k, (teft,), use="reaction", given=(12,)))
    g, _ = play(f, C.SpendResource(k, "focus", 4))
    with pytest.raises(RuleError, match="costs 1 focus"):
        play(g, X.CosmereAttack(k, (w1,), use="reaction", given=(12,)))
    # a graze on a Reactive Strike needs a second focus
    g, _ = play(f, C.SpendResource(k, "focus", 3))
    with pytest.raises(RuleError, match="costs 1 focus and Kaladin has 0"):
        play(g, X.CosmereAttack(k, (w1,), use="reaction", damage="1d8", given=(2,), graze=(w1,)))


def test_cosmere_free_actions_and_each_named_action_once_per_turn():
    f = arena()
    k = cid(f, "Kaladin")
    f, _ = strike(f, given=(2,))
    with pytest.raises(RuleError, match="already used Strike this turn"):
        strike(f, given=(2,))
    f, _ = play(f, C.UseAction(k, "free", "Banter"), C.UseAction(k, "free", "Drop"))
    assert by_name(f, "Kaladin").economy.actions == 1  # free actions cost nothing
    with pytest.raises(RuleError, match="already used Banter"):
        play(f, C.UseAction(k, "free", "Banter"))
    f, _ = strike(f, action="Startling Blow", given=(2,))  # a different named action is fine
    with pytest.raises(RuleError, match="costs 1 action and Kaladin has 0"):
        strike(f, action="Another Talent", given=(2,))


def test_cosmere_undo_takes_back_a_whole_attack():
    f = arena()
    h = History.start(f)
    w1, w2 = cid(f, "Warrior 1"), cid(f, "Warrior 2")
    cmd = X.CosmereAttack(
        cid(f, "Kaladin"),
        (w1, w2),
        modifier=4,
        damage="1d8",
        given=(11,),
        damage_given=(8,),
        graze=(w2,),
        critical=True,
    )
    h.apply(cmd)
    after = h.state
    assert after.get(cid(f, "Warrior 1")).hp == 6 and after.get(cid(f, "Warrior 2")).hp == 10
    assert after.get(cid(f, "Kaladin")).pool("focus").current == 3
    h.undo()
    assert h.state == f
    h.redo()
    assert h.state == after


def test_cosmere_attack_refusals_leave_the_state_untouched():
    f = arena()
    k, w1 = cid(f, "Kaladin"), cid(f, "Warrior 1")
    before = frozen_copy(f)
    for cmd, msg in [
        (X.CosmereAttack(k, ()), "at least one target"),
        (X.CosmereAttack(k, (w1, w1)), "once"),
        (X.CosmereAttack(k, (k,)), "itself"),
        (X.CosmereAttack(k, (w1,), defense="armor"), "defense"),
        (X.CosmereAttack(k, (w1,), given=(21,)), "21 is not a possible result on a d20"),
        (X.CosmereAttack(k, (w1,), modifier=4, total=25), "25 is not possible with \\+4 \\(5 to 24\\)"),
        (X.CosmereAttack(k, (w1,), damage="1d8", given=(5,), damage_given=(9,)), "9 is not a possible result on a d8"),
        (X.CosmereAttack(k, (w1,), damage="2d6", given=(5,), damage_total=13), "13 is not a possible total"),
        (X.CosmereAttack(k, (w1,), given=(5,), damage_given=(3,)), "no damage dice"),
        (X.CosmereAttack(k, (w1,), unsensed=(k,)), "Only a target"),
    ]:
        with pytest.raises(RuleError, match=msg):
            apply(f, cmd)
        assert frozen_copy(f) == before
