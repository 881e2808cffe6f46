"""Cosmere targeting and range: reach and short/long range (the 20/60 axe), a ranged attack on a target
next to an ally (the stakes raised, and the Complication's graze of the ally), Squeezing (Slowed, and
attacks against it gain an advantage), and Brace."""

from __future__ import annotations

import pytest

from engine import RuleError, apply
from engine import commands as C
from engine import events as E
from engine.rules.cosmere import combat as X
from engine.rules.cosmere.commands import StartTurn
from engine.state import Duration
from tests.engine.support import by_name, cid, frozen_copy, log, of, play, setup


def add(name, kind="npc", side="enemy", **stats):
    return C.AddCombatant(name, kind=kind, side=side, stats=tuple(stats.items()))


def arena():
    """Lopen's fast turn; a Parshendi (Physical 14) fights Teft, another (Physical 12) stands back."""
    f = setup(
        "cosmere",
        add("Lopen", "pc", "party", hp=20, focus=3),
        add("Parshendi", hp=20, phy=14),
        add("Archer", hp=20, phy=12),
        add("Teft", "npc", "party", hp=15),
    )
    f, _ = play(f, C.StartFight(), StartTurn("c1", "fast"))
    return f


def throw(f, targets=("Parshendi",), **kw):
    kw.setdefault("kind", "ranged")
    kw.setdefault("modifier", 3)
    kw.setdefault("damage", "1d6")
    return X.CosmereAttack(cid(f, "Lopen"), tuple(cid(f, t) for t in targets), **kw)


# --- reach and range ------------------------------------------------------------------------------------


@pytest.mark.parametrize("feet, mode", [(5, "normal"), (20, "normal"), (25, "disadvantage"), (60, "disadvantage")])
def test_cosmere_an_axe_of_20_60_is_normal_to_20_ft_and_at_a_disadvantage_beyond(feet, mode):
    f = arena()
    odds = X.attack_preview(f, throw(f, range="20/60", distance=(feet,)))
    assert odds[0].mode == mode
    if mode == "disadvantage":
        assert odds[0].disadvantages == (f"long range ({feet} ft, beyond 20 ft)",)


def test_cosmere_an_axe_of_20_60_cannot_reach_past_60_ft():
    f = arena()
    before = frozen_copy(f)
    with pytest.raises(RuleError, match="61 ft away, beyond the long range of 60 ft"):
        apply(f, throw(f, range="20/60", distance=(61,), given=(20, 20)))
    assert frozen_copy(f) == before


def test_cosmere_long_range_keeps_the_lower_of_two_d20s():
    f = arena()
    _, ev = play(f, throw(f, range="20/60", distance=(40,), given=(18, 6), damage_given=(4,)))
    r = of(ev, X.TargetResult)[0]
    assert (r.natural, r.total, r.outcome) == (6, 9, "miss")


def test_cosmere_a_melee_attack_reaches_5_ft_unless_the_weapon_reaches_further():
    f = arena()
    melee = dict(kind="melee")
    assert X.attack_preview(f, throw(f, distance=(5,), **melee))[0].mode == "normal"
    with pytest.raises(RuleError, match="10 ft away, beyond the reach of 5 ft"):
        X.attack_preview(f, throw(f, distance=(10,), **melee))
    assert X.attack_preview(f, throw(f, range="10", distance=(10,), **melee))[0].mode == "normal"
    with pytest.raises(RuleError, match="its reach: one number"):
        X.attack_preview(f, throw(f, range="20/60", **melee))


def test_cosmere_distances_per_target_and_the_refusals():
    f = arena()
    odds = X.attack_preview(f, throw(f, ("Parshendi", "Archer"), range="20/60", distance=(15, 30)))
    assert [o.mode for o in odds] == ["normal", "disadvantage"]
    for kw, msg in [
        (dict(distance=(15,)), "needs the weapon's range"),
        (dict(range="20/60", distance=(15, 20, 25)), "one distance for each of the 1 targets"),
        (dict(range="20/60", distance=(-5,)), "between 0 and 10,000"),
        (dict(range="60/20", distance=(5,)), "from a short range to a longer one"),
        (dict(range="far", distance=(5,)), "short/long like 20/60"),
        (dict(range="20/60", distance=(30,), long_range=True), "not both"),
    ]:
        with pytest.raises(RuleError, match=msg):
            X.attack_preview(f, throw(f, **kw))


# --- a ranged attack on a target next to an ally -------------------------------------------------------


def test_cosmere_a_ranged_attack_on_a_target_beside_an_ally_raises_the_stakes():
    f = arena()
    _, ev = play(f, throw(f, ally=cid(f, "Teft"), given=(15,), damage_given=(2,)))
    assert "within 5 ft of Teft: the stakes are raised" in log(ev)[1]
    assert of(ev, X.TargetResult)[0].outcome == "hit"  # a hit: Teft is untouched


def test_cosmere_a_missed_ranged_attack_and_a_complication_graze_the_ally_without_focus():
    f = arena()
    teft = cid(f, "Teft")
    f2, ev = play(f, throw(f, ally=teft, ally_graze=True, given=(4,), damage_given=(5,)))
    assert of(ev, X.TargetResult)[0].outcome == "miss"
    assert by_name(f2, "Teft").hp == 10  # the damage dice, no modifier
    assert by_name(f2, "Parshendi").hp == 20
    assert by_name(f2, "Lopen").pool("focus").current == 3  # no focus spent
    assert "grazes its ally" in of(ev, E.Damaged)[0].detail
    # the target can still be grazed for focus as well
    f3, _ = play(f, throw(f, ally=teft, ally_graze=True, graze=(cid(f, "Parshendi"),), given=(4,), damage_given=(5,)))
    assert (by_name(f3, "Teft").hp, by_name(f3, "Parshendi").hp) == (10, 15)
    assert by_name(f3, "Lopen").pool("focus").current == 2


def test_cosmere_the_allys_graze_is_never_maximised_by_a_critical_on_another_target():
    f = arena()
    teft = cid(f, "Teft")
    # 13 hits the Archer (12), misses the Parshendi (14); the Opportunity maximises the dice on the targets
    f2, _ = play(
        f, throw(f, ("Parshendi", "Archer"), ally=teft, ally_graze=True, critical=True, given=(10,), damage_given=(2,))
    )
    assert (by_name(f2, "Archer").hp, by_name(f2, "Teft").hp) == (11, 13)


def test_cosmere_the_ally_graze_refusals():
    f = arena()
    teft = cid(f, "Teft")
    before = frozen_copy(f)
    for cmd, msg in [
        (throw(f, ally=teft, ally_graze=True, given=(15,), damage_given=(5,)), "only when the attack misses"),
        (throw(f, ally=teft, kind="melee", given=(4,)), "Only a ranged attack"),
        (throw(f, ally=cid(f, "Archer"), given=(4,)), "not Lopen's ally"),
        (throw(f, ally=cid(f, "Parshendi"), given=(4,)), "not an ally beside the target"),
        (throw(f, ally_graze=True, given=(4,)), "Name the ally"),
        (throw(f, ally=teft, ally_graze=True, damage="", given=(4,)), "has none"),
    ]:
        with pytest.raises(RuleError, match=msg):
            apply(f, cmd)
        assert frozen_copy(f) == before


def test_cosmere_outcome_preview_leaves_the_ally_graze_for_after_the_roll():
    f = arena()
    seen = X.outcome_preview(f, throw(f, ally=cid(f, "Teft"), ally_graze=True, given=(15,)))
    assert [r.outcome for r in seen] == ["hit"]  # no refusal: the choice is not made yet


# --- squeezing, bracing -----------------------------------------------------------------------------------


def test_cosmere_squeezing_makes_it_slowed_and_attacks_against_it_gain_an_advantage():
    f = arena()
    p = cid(f, "Parshendi")
    f, ev = play(f, C.AddCondition(p, "Squeezing", Duration("turn_end", p, 1)))
    c = by_name(f, "Parshendi")
    assert c.has("Slowed") and c.condition("Slowed").duration == c.condition("Squeezing").duration
    assert ("Slowed", "while squeezing") in [(e.condition, e.detail) for e in of(ev, E.ConditionAdded)]
    odds = X.attack_preview(f, throw(f, kind="melee"))
    assert odds[0].mode == "advantage" and "squeezing" in odds[0].advantages[0]
    _, ev = play(f, throw(f, kind="melee", given=(3, 12), damage_given=(1,)))
    assert of(ev, X.TargetResult)[0].natural == 12  # the higher d20
    f, ev = play(f, C.RemoveCondition(p, "Squeezing"))
    assert not by_name(f, "Parshendi").has("Slowed")
    assert "no longer squeezing" in log(ev)[-1]


def test_cosmere_squeezing_leaves_a_slowed_from_elsewhere_alone():
    f = arena()
    p = cid(f, "Parshendi")
    f, _ = play(f, C.AddCondition(p, "Slowed", note="difficult terrain"), C.AddCondition(p, "Squeezing"))
    f, _ = play(f, C.RemoveCondition(p, "Squeezing"))
    assert by_name(f, "Parshendi").condition("Slowed").note == "difficult terrain"


def test_cosmere_brace_gives_attacks_against_it_a_disadvantage():
    f = arena()
    lopen = cid(f, "Lopen")
    f, _ = play(f, C.UseAction(lopen, "action", "Brace"))
    f, _ = play(f, C.NextTurn())
    odds = X.attack_preview(f, X.CosmereAttack(cid(f, "Parshendi"), (lopen,), modifier=2))
    assert odds[0].mode == "disadvantage"
    # Squeezing and Braced at once: one advantage, one disadvantage, a straight roll
    f, _ = play(f, C.AddCondition(lopen, "Squeezing"))
    assert X.attack_preview(f, X.CosmereAttack(cid(f, "Parshendi"), (lopen,)))[0].mode == "normal"
