"""Cosmere conditions and hazards (issue 5, Cosmere rule 4) and bosses (rule 5)."""

from __future__ import annotations

import pytest

from engine import RuleError
from engine import commands as C
from engine.core import rolls_due
from engine.mechanics import EffectRolled
from engine.rules.cosmere import combat as X
from engine.rules.cosmere.commands import ChooseSpeed, StartTurn
from engine.rules.cosmere.ruleset import CONDITIONS
from tests.engine.support import by_name, cid, frozen_copy, log, names, of, play, setup


def add(name, kind="npc", side="enemy", flags=(), **stats):
    return C.AddCombatant(name, kind=kind, side=side, stats=tuple(stats.items()), flags=flags)


def fight():
    f = setup(
        "cosmere",
        add("Kaladin", "pc", "party", hp=30, focus=4, speed=30),
        add("Shallan", "pc", "party", hp=20, focus=5, speed=25),
        add("Warrior", hp=18, speed=30),
        add("Stormsinger", hp=24, speed=25, flags=("boss",)),
        seed=3,
    )
    f, _ = play(f, C.StartFight())
    return f


# --- falling ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("feet, dice", [(10, 1), (19, 1), (35, 3), (100, 10)])
def test_cosmere_falling_deals_1d6_impact_per_10_ft_and_leaves_it_prone(feet, dice):
    f = fight()
    k = cid(f, "Kaladin")
    f2, ev = play(f, X.Fall(k, feet, given=(1,) * dice))
    d = of(ev, X.E.Damaged)[0]
    assert (d.roll.expr, d.amount, d.type) == (f"{dice}d6", dice, "impact")
    assert by_name(f2, "Kaladin").has("Prone") and of(ev, X.E.ConditionAdded)[0].detail == "landed hurt"


def test_cosmere_a_fall_under_10_ft_does_nothing():
    f = fight()
    f2, ev = play(f, X.Fall(cid(f, "Kaladin"), 9))
    assert not of(ev, X.E.Damaged) and not by_name(f2, "Kaladin").has("Prone")
    assert "under 10 ft" in log(ev)[0]
    with pytest.raises(RuleError, match="no dice to enter"):
        play(f, X.Fall(cid(f, "Kaladin"), 5, given=(3,)))
    with pytest.raises(RuleError, match="between 0 and 10,000"):
        play(f, X.Fall(cid(f, "Kaladin"), -10))


def test_cosmere_falling_damage_may_be_entered_as_a_total():
    f = fight()
    f2, ev = play(f, X.Fall(cid(f, "Kaladin"), 30, total=11))
    assert by_name(f2, "Kaladin").hp == 19 and f2.rng == f.rng
    with pytest.raises(RuleError, match="19 is not a possible total for 3d6"):
        play(f, X.Fall(cid(f, "Kaladin"), 30, total=19))


# --- dangerous terrain -------------------------------------------------------------------------------


def test_cosmere_dangerous_terrain_hurts_on_entering_and_at_the_start_of_each_turn_there():
    f = fight()
    k = cid(f, "Kaladin")
    f, ev = play(f, X.EnterTerrain(k, "1d6", "burning embers", given=(4,)))
    assert by_name(f, "Kaladin").hp == 26 and by_name(f, "Kaladin").has(X.TERRAIN)
    assert "moved into burning embers" in of(ev, X.E.Damaged)[0].detail
    assert rolls_due(f, StartTurn(k, "fast")) == ((k, X.TERRAIN, "1d6"),)
    f, ev = play(f, StartTurn(k, "fast", rolls=(C.GivenRoll(k, X.TERRAIN, (2,)),)))
    e = of(ev, EffectRolled)[0]
    assert (e.roll.total, e.roll.entered) == (2, True) and by_name(f, "Kaladin").hp == 24
    assert "starts its turn in burning embers" in log(ev)[-1]
    # leaving it: the condition goes, and so does the damage
    f, _ = play(f, C.RemoveCondition(k, X.TERRAIN))
    while f.round == 1:
        f, _ = play(f, C.NextTurn())
    assert rolls_due(f, StartTurn(k)) == ()


def test_cosmere_turn_start_dice_are_refused_when_nothing_rolls():
    f = fight()
    k = cid(f, "Kaladin")
    before = frozen_copy(f)
    with pytest.raises(RuleError, match="No In dangerous terrain roll was due for Kaladin"):
        play(f, StartTurn(k, rolls=(C.GivenRoll(k, X.TERRAIN, (2,)),)))
    with pytest.raises(RuleError, match="was due"):
        play(f, C.NextTurn(rolls=(C.GivenRoll(k, "Bleeding", (2,)),)))
    with pytest.raises(RuleError, match="was due"):
        play(setup("cosmere", add("A")), C.StartFight(rolls=(C.GivenRoll("c1", X.TERRAIN, (2,)),)))
    assert frozen_copy(f) == before


# --- conditions as stated -----------------------------------------------------------------------------


def test_cosmere_surprised_slowed_and_prone_as_stated():
    f = setup("cosmere", add("Kaladin", "pc", "party"), add("Warrior"))
    f, ev = play(f, C.StartFight(surprised=(cid(f, "Warrior"),)))
    assert by_name(f, "Warrior").economy.reactions == 0 and by_name(f, "Warrior").has("Surprised")
    for name in ("Surprised", "Slowed", "Prone", "Braced", "Squeezing", X.TERRAIN):
        assert CONDITIONS[name]
    # squeezing: attacks against it gain an advantage
    f, _ = play(f, C.AddCondition(cid(f, "Warrior"), "Squeezing"))
    odds = X.attack_preview(f, X.CosmereAttack(cid(f, "Kaladin"), (cid(f, "Warrior"),)))
    assert odds[0].mode == "advantage"


# --- bosses ---------------------------------------------------------------------------------------


def test_cosmere_boss_takes_a_fast_and_a_slow_turn_each_round_each_with_its_own_actions():
    f = fight()
    boss = cid(f, "Stormsinger")
    seen = []
    for _ in range(12):
        f, ev = play(f, C.NextTurn())
        for e in of(ev, X.E.TurnStarted):
            seen.append((f.round, f.phase, e.name, e.detail))
        if f.current == boss:
            e = by_name(f, "Stormsinger").economy
            assert e.reactions == 1 and e.used == ()
            f, _ = play(f, X.CosmereAttack(boss, (cid(f, "Kaladin"),), given=(2,)))  # Strike in each turn
    boss_turns = [(r, p, d) for r, p, n, d in seen if n == "Stormsinger"]
    assert boss_turns[:2] == [(1, 1, "fast turn, 2 actions"), (1, 3, "slow turn, 3 actions")]
    assert boss_turns[2][:2] == (2, 1)  # and again next round


def test_cosmere_boss_gets_a_fresh_reaction_each_turn_and_cannot_pick_one_speed():
    f = fight()
    boss = cid(f, "Stormsinger")
    with pytest.raises(RuleError, match="boss: it takes both a fast and a slow turn"):
        play(f, ChooseSpeed(boss, "slow"))
    f, _ = play(f, StartTurn(boss))
    assert by_name(f, "Stormsinger").economy.speed == "fast"
    f, ev = play(f, C.NextTurn())
    assert "takes a slow turn too" in " ".join(log(ev))
    f, _ = play(f, X.CosmereAttack(boss, (cid(f, "Kaladin"),), use="reaction", given=(2,)))
    assert by_name(f, "Stormsinger").economy.reactions == 0
    with pytest.raises(RuleError, match="has had its fast turn"):
        play(f, StartTurn(boss, "fast"))
    f, _ = play(f, StartTurn(boss))
    e = by_name(f, "Stormsinger").economy
    assert (e.speed, e.actions, e.reactions) == ("slow", 3, 1)
    f, _ = play(f, C.NextTurn())
    with pytest.raises(RuleError, match="already taken its turn"):
        play(f, StartTurn(boss))


def test_cosmere_boss_is_suggested_for_the_fast_npc_phase_without_choosing():
    from engine import get_ruleset

    f = fight()
    rs = get_ruleset("cosmere")
    assert names(f, [c.id for c in rs.suggested(f, 1)]) == ["Stormsinger"]
    assert names(f, [c.id for c in rs.suggested(f, 3)]) == ["Warrior", "Stormsinger"]
