"""d20 concentration (issue 5, d20 rule 4) and turn parts (d20 rule 5), and one undo per attack."""

from __future__ import annotations

import pytest

from engine import RuleError
from engine import commands as C
from engine.core import rolls_due
from engine.history import History
from engine.mechanics import EffectRolled
from engine.rules.d20 import combat as X
from engine.state import Due
from tests.engine.support import add, by_name, cid, frozen_copy, log, of, play, setup


def fight():
    f = setup(
        "d20",
        add("Bran", "pc", "party", hp=30, ac=16, dex=14, str=16, prof=2),
        add("Ysolde", "pc", "party", hp=22, ac=13, dex=16, con_save=2),
        add("Orc", hp=40, ac=13, dex=10, str=18),
        seed=5,
    )
    init = tuple((cid(f, n), (v,)) for n, v in (("Bran", 20), ("Ysolde", 15), ("Orc", 10)))
    f, _ = play(f, C.StartFight(initiative=init))
    return f


# --- concentration ----------------------------------------------------------------------------


@pytest.mark.parametrize("damage, dc", [(7, 10), (20, 10), (21, 10), (22, 11), (35, 17)])
def test_d20_concentration_save_due_on_damage_dc_10_or_half_the_damage(damage, dc):
    f = fight()
    y = cid(f, "Ysolde")
    f, _ = play(f, C.AddCondition(y, "Concentrating", note="Bless"), C.TempHealth(y, 50))
    f, ev = play(f, C.Damage(y, damage))
    due = of(ev, X.SaveDue)[0]
    assert (due.what, due.dc) == ("concentration", dc)
    assert by_name(f, "Ysolde").due == (Due("concentration", dc, f"took {damage} damage"),)
    assert f"must make a Constitution save (DC {dc}) to keep concentrating" in log(ev)[-1]


def test_d20_no_concentration_save_without_concentration_or_damage():
    f = fight()
    y = cid(f, "Ysolde")
    _, ev = play(f, C.Damage(y, 5))
    assert not of(ev, X.SaveDue)
    f = setup("d20", C.AddCombatant("Wisp", stats=(("hp", 9),), resist=("fire",)))
    f, _ = play(f, C.AddCondition(cid(f, "Wisp"), "Concentrating"), C.Damage(cid(f, "Wisp"), 1, type="fire"))
    assert by_name(f, "Wisp").due == ()  # resisted down to 0: no damage taken


def test_d20_concentration_failed_save_ends_it_a_success_keeps_it():
    f = fight()
    y = cid(f, "Ysolde")
    f, _ = play(f, C.AddCondition(y, "Concentrating"), C.Damage(y, 24))
    ok, ev = play(f, X.D20Test(y, resolves="concentration", given=(10,)))  # 12 vs 12
    t = of(ev, X.TestRolled)[0]
    assert (t.ability, t.dc, t.roll.total, t.success) == ("con", 12, 12, True)
    assert by_name(ok, "Ysolde").has("Concentrating") and by_name(ok, "Ysolde").due == ()
    bad, ev = play(f, X.D20Test(y, resolves="concentration", given=(9,)))
    assert not by_name(bad, "Ysolde").has("Concentrating")
    assert of(ev, X.E.ConditionEnded)[0].reason == "failed the Constitution save"
    with pytest.raises(RuleError, match="no concentration save due"):
        play(ok, X.D20Test(y, resolves="concentration", given=(9,)))
    with pytest.raises(RuleError, match="DC is 12"):
        play(f, X.D20Test(y, resolves="concentration", dc=8, given=(9,)))


def test_d20_concentration_each_damage_its_own_save_waive_and_removal():
    f = fight()
    y = cid(f, "Ysolde")
    f, _ = play(f, C.AddCondition(y, "Concentrating"), C.Damage(y, 4), C.Damage(y, 30))
    assert [d.dc for d in by_name(f, "Ysolde").due] == [10, 15]
    f2, ev = play(f, X.D20Test(y, resolves="concentration", waive=True))
    assert [d.dc for d in by_name(f2, "Ysolde").due] == [15] and "waives" in log(ev)[0]
    f3, _ = play(f, C.RemoveCondition(y, "Concentrating"))
    assert by_name(f3, "Ysolde").due == ()


def test_d20_concentration_ends_when_incapacitated():
    f = fight()
    y = cid(f, "Ysolde")
    for cond in ("Incapacitated", "Unconscious", "Stunned"):
        g, _ = play(f, C.AddCondition(y, "Concentrating"), C.Damage(y, 3))
        g, ev = play(g, C.AddCondition(y, cond))
        assert not by_name(g, "Ysolde").has("Concentrating") and by_name(g, "Ysolde").due == ()
        assert of(ev, X.E.ConditionEnded)[0].reason == cond.lower()
        with pytest.raises(RuleError, match="cannot concentrate"):
            play(g, C.AddCondition(y, "Concentrating"))


def test_d20_bleeding_concentrating_caster_is_hit_and_the_save_is_prompted_and_undone_in_one_step():
    """The acceptance scenario, on the engine: the hit and its damage, the save owed; each undone alone."""
    f = fight()
    y, o = cid(f, "Ysolde"), cid(f, "Orc")
    h = History.start(f)
    h.apply(C.AddCondition(y, "Concentrating", note="Shield of Faith"))
    h.apply(C.AddCondition(y, "Bleeding"))
    h.apply(C.NextTurn(rolls=(C.GivenRoll(y, "Bleeding", (2,)),)))  # Ysolde's turn: she bleeds
    assert [d.dc for d in h.state.get(y).due] == [10]
    h.apply(X.D20Test(y, resolves="concentration", given=(15,)))
    h.apply(C.NextTurn())  # the Orc
    before_attack = h.state
    ev = h.apply(X.D20Attack(o, y, bonus=6, damage="1d12", mod=4, type="slashing", given=(14,), damage_given=(12,)))
    assert of(ev, X.SaveDue)[0].dc == 10 and h.state.get(y).hp == 22 - 2 - 16
    assert [type(e).__name__ for e in ev] == ["ActionUsed", "AttackRolled", "Damaged", "SaveDue"]
    h.undo()  # one undo takes back the roll, the damage, the action and the save owed
    assert h.state == before_attack
    h.redo()
    h.apply(X.D20Test(y, resolves="concentration", given=(3,)))
    assert not h.state.get(y).has("Concentrating")
    h.undo()
    assert h.state.get(y).has("Concentrating") and [d.dc for d in h.state.get(y).due] == [10]


# --- turn parts --------------------------------------------------------------------------------


def test_d20_two_weapon_bonus_attack_after_the_attack_action_without_a_positive_modifier():
    f = fight()
    b, o = cid(f, "Bran"), cid(f, "Orc")
    with pytest.raises(RuleError, match="only after taking the Attack action"):
        play(f, X.D20Attack(b, o, use="offhand", damage="1d6", mod=3, given=(15,)))
    f, _ = play(f, X.D20Attack(b, o, bonus=5, damage="1d6", mod=3, given=(2,)))
    f2, ev = play(f, X.D20Attack(b, o, bonus=5, use="offhand", damage="1d6", mod=3, given=(15,), damage_given=(4,)))
    assert of(ev, X.E.Damaged)[0].amount == 4 and of(ev, X.E.Damaged)[0].roll.expr == "1d6"
    e = by_name(f2, "Bran").economy
    assert (e.actions, e.bonus) == (0, 0)
    _, ev = play(f, X.D20Attack(b, o, bonus=5, use="offhand", damage="1d6", mod=-1, given=(15,), damage_given=(4,)))
    assert of(ev, X.E.Damaged)[0].amount == 3  # a negative modifier still counts
    with pytest.raises(RuleError, match="bonus action"):
        play(f2, X.D20Attack(b, o, use="offhand", damage="1d6", given=(15,)))


def test_d20_shield_bash_bonus_action_1d4_and_a_shove_unless_a_strength_save():
    f = fight()
    b, o = cid(f, "Bran"), cid(f, "Orc")
    with pytest.raises(RuleError, match="shield"):
        play(f, X.ShieldBash(b, o, given=(15,)))
    f, _ = play(f, C.EditCombatant(b, flags=("shield",)))
    assert X.attack_preview(f, X.ShieldBash(b, o)).bonus == 5  # Str 16 (+3) + proficiency 2
    # DC 8 + 2 + 3 = 13; the Orc's Str 18 gives +4 on the save
    f2, ev = play(f, X.ShieldBash(b, o, given=(9,), damage_given=(3,), save_given=(8,)))
    assert of(ev, X.E.Damaged)[0].amount == 3 and of(ev, X.E.Damaged)[0].type == "bludgeoning"
    s = of(ev, X.TestRolled)[0]
    assert (s.dc, s.roll.total, s.success) == (13, 12, False)
    assert "Orc is shoved 5 ft by Bran's shield" in log(ev)
    assert by_name(f2, "Bran").economy.bonus == 0 and by_name(f2, "Bran").economy.actions == 1
    _, ev = play(f, X.ShieldBash(b, o, given=(9,), damage_given=(3,), save_given=(9,)))
    assert of(ev, X.TestRolled)[0].success and "shoved" not in " ".join(log(ev))
    _, ev = play(f, X.ShieldBash(b, o, given=(20,), damage_given=(1, 4), save_total=20))
    assert of(ev, X.E.Damaged)[0].roll.expr == "2d4"
    with pytest.raises(RuleError, match="the bash missed"):
        play(f, X.ShieldBash(b, o, given=(2,), save_given=(9,)))


def test_d20_opportunity_attack_spends_the_reaction_and_needs_a_mover_that_did_not_disengage():
    f = fight()
    b, o = cid(f, "Bran"), cid(f, "Orc")
    f, _ = play(f, C.NextTurn(), C.NextTurn())  # the Orc's turn
    f2, ev = play(f, X.D20Attack(b, o, bonus=5, use="opportunity", given=(12,)))
    assert by_name(f2, "Bran").economy.reactions == 0 and of(ev, X.AttackRolled)[0].use == "opportunity"
    assert "(opportunity attack)" in log(ev)[1]
    with pytest.raises(RuleError, match="already used its reaction"):
        play(f2, X.D20Attack(b, o, use="opportunity", given=(12,)))
    with pytest.raises(RuleError, match="melee attack"):
        play(f, X.D20Attack(b, o, kind="ranged", use="opportunity", given=(12,)))
    g, _ = play(f, C.UseAction(o, "action", "Disengage"))
    with pytest.raises(RuleError, match="Disengage"):
        play(g, X.D20Attack(b, o, use="opportunity", given=(12,)))
    g, _ = play(f, C.AddCondition(b, "Blinded"))
    with pytest.raises(RuleError, match="needs to see"):
        play(g, X.D20Attack(b, o, use="opportunity", given=(12,)))


def test_d20_ready_holds_an_action_and_spends_the_reaction_when_used():
    f = fight()
    b, o = cid(f, "Bran"), cid(f, "Orc")
    f, ev = play(f, X.Ready(b, "Attack", "the orc comes through the door"))
    e = by_name(f, "Bran").economy
    assert (e.actions, e.ready) == (0, "Attack when the orc comes through the door")
    f, _ = play(f, C.NextTurn(), C.NextTurn())
    f2, ev = play(f, X.D20Attack(b, o, bonus=5, use="readied", given=(15,)))
    e = by_name(f2, "Bran").economy
    assert (e.reactions, e.ready) == (0, "")
    with pytest.raises(RuleError, match="no readied action"):
        play(f2, X.Release(b))
    f3, _ = play(f, X.Release(b))
    assert by_name(f3, "Bran").economy.reactions == 0
    # unused, it lapses at the start of its next turn
    f4, ev = play(f, C.NextTurn())
    assert f4.current == b and "readied action lapses unused" in " ".join(log(ev))
    assert by_name(f4, "Bran").economy.ready == ""


def test_d20_dash_gives_a_second_move():
    f = fight()
    b = cid(f, "Bran")
    f, _ = play(f, C.UseAction(b, "move"), C.UseAction(b, "action", "Dash"), C.UseAction(b, "move"))
    with pytest.raises(RuleError, match="already moved"):
        play(f, C.UseAction(b, "move"))


def test_d20_disengage_lasts_this_turn():
    f = fight()
    b, o = cid(f, "Bran"), cid(f, "Orc")
    f, _ = play(f, C.UseAction(b, "action", "Disengage"))
    assert by_name(f, "Bran").economy.disengaged
    with pytest.raises(RuleError, match="Disengage"):
        play(f, X.D20Attack(o, b, use="opportunity", given=(15,)))
    f, _ = play(f, C.NextTurn())
    assert not by_name(f, "Bran").economy.disengaged
    play(f, X.D20Attack(o, b, use="opportunity", given=(15,)))


def test_d20_dodge_until_its_next_turn_also_helps_dex_saves():
    f = fight()
    b, o = cid(f, "Bran"), cid(f, "Orc")
    f, _ = play(f, C.UseAction(b, "action", "Dodge"), C.NextTurn(), C.NextTurn())
    assert X.attack_preview(f, X.D20Attack(o, b)).mode == "disadvantage"
    f, _ = play(f, C.NextTurn())
    assert f.current == b and X.attack_preview(f, X.D20Attack(o, b)).mode == "normal"


def test_d20_one_undo_takes_back_a_whole_attack():
    f = fight()
    b, o = cid(f, "Bran"), cid(f, "Orc")
    f, _ = play(f, C.AddCondition(b, "Hidden"), C.AddCondition(o, "Concentrating"))
    h = History.start(f)
    h.apply(X.D20Attack(b, o, bonus=5, damage="1d8", mod=3, type="slashing", given=(4, 20)))
    after = h.state
    assert after.get(o).hp < 40 and not after.get(b).has("Hidden") and after.get(o).due
    assert after.get(b).economy.actions == 0 and after.rng != f.rng
    h.undo()
    assert h.state == f
    h.redo()
    assert h.state == after


def test_d20_rolls_due_names_the_start_of_turn_rolls_before_next():
    f = fight()
    y, o = cid(f, "Ysolde"), cid(f, "Orc")
    f, _ = play(
        f, C.AddCondition(y, "Bleeding"), C.AddCondition(y, "Burning", dice="1d6"), C.AddCondition(o, "Confused")
    )
    assert rolls_due(f, C.NextTurn()) == ((y, "Bleeding", "1d4"), (y, "Burning", "1d6"))
    f, ev = play(f, C.NextTurn(rolls=(C.GivenRoll(y, "Bleeding", (4,)), C.GivenRoll(y, "Burning", (6,)))))
    assert [e.roll.total for e in of(ev, EffectRolled)] == [4, 6]
    assert rolls_due(f, C.NextTurn()) == ((o, "Confused", "1d10"),)
    before = frozen_copy(f)
    with pytest.raises(RuleError, match="No Bleeding roll was due for Orc"):
        play(f, C.NextTurn(rolls=(C.GivenRoll(o, "Confused", (3,)), C.GivenRoll(o, "Bleeding", (3,)))))
    with pytest.raises(RuleError, match="11 is not a possible result on a d10"):
        play(f, C.NextTurn(rolls=(C.GivenRoll(o, "Confused", (11,)),)))
    assert frozen_copy(f) == before
