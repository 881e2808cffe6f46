"""d20 damage (issue 5, d20 rule 2) and conditions with their automation (d20 rule 3)."""

from __future__ import annotations

import pytest

from engine import RuleError
from engine import commands as C
from engine.core import rolls_due
from engine.mechanics import EffectRolled
from engine.rules.d20 import combat as X
from tests.engine.support import add, by_name, cid, frozen_copy, log, of, play, setup


def fight(*extra, order=("Bran", "Orc", "Gob")):
    f = setup(
        "d20",
        add("Bran", "pc", "party", hp=30, ac=16, dex=14, str=16),
        add("Orc", hp=40, ac=13, dex=10),
        add("Gob", hp=7, ac=15, dex=14),
        *extra,
        seed=5,
    )
    return f


def start(f, order=("Bran", "Orc", "Gob"), rolls=()):
    init = tuple((cid(f, n), (20 - 5 * i,)) for i, n in enumerate(order))
    f, ev = play(f, C.StartFight(initiative=init, rolls=rolls))
    return f, ev


# --- damage ---------------------------------------------------------------------------------------


def test_d20_typed_damage_resistance_halves_vulnerability_doubles():
    f = setup(
        "d20",
        add("Bran", "pc", "party", dex=20),
        C.AddCombatant("Golem", stats=(("hp", 50), ("ac", 10)), resist=("fire",), vulnerable=("cold",)),
        C.AddCombatant("Odd", stats=(("hp", 50), ("ac", 10)), resist=("acid",), vulnerable=("acid",)),
    )
    f, _ = start(f, ("Bran", "Golem", "Odd"))
    b, g, o = cid(f, "Bran"), cid(f, "Golem"), cid(f, "Odd")
    f, ev = play(f, X.D20Attack(b, g, damage="1d8", mod=0, type="fire", given=(15,), damage_given=(7,)))
    d = of(ev, X.E.Damaged)[0]
    assert (d.rolled, d.amount, d.detail) == (7, 3, "resisted, halved")  # halves, rounding down
    f, ev = play(f, C.Damage(g, 6, type="Cold"))
    assert of(ev, X.E.Damaged)[0].amount == 12
    f, ev = play(f, C.Damage(g, 6, type="slashing"))
    assert of(ev, X.E.Damaged)[0].amount == 6
    f, ev = play(f, C.Damage(o, 7, type="acid"))  # both: halved, then doubled
    assert of(ev, X.E.Damaged)[0].amount == 6
    assert by_name(f, "Golem").hp == 50 - 3 - 12 - 6


def test_d20_temporary_hit_points_are_lost_first():
    f = fight()
    f, _ = start(f)
    f, _ = play(f, C.TempHealth(cid(f, "Orc"), 5))
    f, ev = play(f, X.D20Attack(cid(f, "Bran"), cid(f, "Orc"), damage="1d8", given=(15,), damage_given=(8,)))
    orc = by_name(f, "Orc")
    assert (orc.hp, orc.health[0].temp) == (37, 0)
    assert "5 absorbed by temporary hp" in of(ev, X.E.Damaged)[0].detail


def test_d20_pc_at_zero_shows_deaths_door_and_a_companion_drops():
    f = fight()
    f, _ = play(f, C.AddCombatant("Wolf", side="party", owner="c1", stats=(("hp", 5),)))
    f, _ = start(f)
    f, ev = play(f, C.NextTurn(), C.NextTurn())  # the Wolf acts right after Bran; then the Orc
    assert f.current == cid(f, "Orc")
    f, ev = play(f, X.D20Attack(cid(f, "Orc"), cid(f, "Bran"), damage="1d12", mod=40, given=(19,), damage_given=(1,)))
    assert of(ev, X.E.Dropped)[0].state == "is at Death's Door"
    assert X.status(by_name(f, "Bran")) == "Death's Door"
    f, ev = play(f, C.Damage(cid(f, "Wolf"), 9))
    assert of(ev, X.E.Dropped)[0].state == "drops at 0 hit points"
    assert X.status(by_name(f, "Wolf")) == "dropped"
    # Death's Door is a state: nothing else is invented (no saves due, the PC still gets its turns)
    assert by_name(f, "Bran").due == ()


def test_d20_damage_total_entered_is_checked_against_the_dice():
    f = fight()
    f, _ = start(f)
    b, o = cid(f, "Bran"), cid(f, "Orc")
    f2, ev = play(f, X.D20Attack(b, o, damage="2d6", mod=3, given=(15,), damage_total=14))
    d = of(ev, X.E.Damaged)[0]
    assert d.amount == 14 and d.roll.entered and "(entered total)" in log(ev)[-1]
    assert f2.rng == f.rng
    with pytest.raises(RuleError, match="16 is not a possible total for 2d6\\+3 \\(5 to 15\\)"):
        play(f, X.D20Attack(b, o, damage="2d6", mod=3, given=(15,), damage_total=16))


# --- conditions that act on their own -----------------------------------------------------------


def test_d20_bleeding_deals_1d4_piercing_at_the_start_of_each_of_its_turns():
    f = fight()
    f, _ = play(f, C.AddCondition(cid(f, "Orc"), "Bleeding"))
    f, _ = start(f)
    assert rolls_due(f, C.NextTurn()) == (("c2", "Bleeding", "1d4"),)
    f, ev = play(f, C.NextTurn(rolls=(C.GivenRoll(cid(f, "Orc"), "Bleeding", (3,)),)))
    e = of(ev, EffectRolled)[0]
    assert (e.what, e.roll.total, e.roll.entered) == ("Bleeding", 3, True)
    d = of(ev, X.E.Damaged)[0]
    assert (d.amount, d.type, d.detail) == (3, "piercing", "Bleeding")
    assert log(ev)[-2:] == ["Orc, Bleeding: 1d4 = [3] = 3 (entered)", "Orc takes 3 piercing damage (Bleeding), 37 left"]
    # and again next round, rolled by the app this time
    f, ev = play(f, C.NextTurn(), C.NextTurn())
    f, ev = play(f, C.NextTurn())
    assert of(ev, EffectRolled) and by_name(f, "Orc").hp < 37


def test_d20_burning_deals_fire_at_turn_start_1d4_unless_the_source_says_more_and_ends_when_put_out():
    f = fight()
    f, _ = play(f, C.AddCondition(cid(f, "Orc"), "Burning"), C.AddCondition(cid(f, "Gob"), "Burning", dice="2d6"))
    f, _ = start(f)
    f, ev = play(f, C.NextTurn(rolls=(C.GivenRoll(cid(f, "Orc"), "Burning", (4,)),)))
    assert of(ev, X.E.Damaged)[0].type == "fire" and of(ev, EffectRolled)[0].roll.expr == "1d4"
    f, ev = play(f, C.UseAction(cid(f, "Orc"), "action", "Put out fire"))
    assert [e.condition for e in of(ev, X.E.ConditionEnded)] == ["Burning"]
    with pytest.raises(RuleError, match="not Burning"):
        play(f, C.UseAction(cid(f, "Orc"), "bonus", "Put out fire"))
    assert rolls_due(f, C.NextTurn()) == ((cid(f, "Gob"), "Burning", "2d6"),)
    f, ev = play(f, C.NextTurn(rolls=(C.GivenRoll(cid(f, "Gob"), "Burning", total=9),)))
    assert of(ev, X.E.Damaged)[0].amount == 9 and by_name(f, "Gob").down
    assert "Gob, Burning: 2d6 = 9 (entered total)" in log(ev)


@pytest.mark.parametrize(
    "d10, acts, moves, text",
    [
        (1, False, False, "random direction"),
        (4, False, False, "does not move or act"),
        (7, True, False, "melee attack against a random creature"),
        (10, True, True, "acts normally"),
    ],
)
def test_d20_confused_no_reactions_a_d10_at_turn_start_with_its_outcome_and_a_save_at_the_end(d10, acts, moves, text):
    f = fight()
    f, _ = play(f, C.AddCondition(cid(f, "Orc"), "Confused", dc=13))
    f, _ = start(f)
    o = cid(f, "Orc")
    with pytest.raises(RuleError, match="Confused and cannot take reactions"):
        play(f, C.UseAction(o, "reaction", "Opportunity attack"))
    f, ev = play(f, C.NextTurn(rolls=(C.GivenRoll(o, "Confused", (d10,)),)))
    e = of(ev, EffectRolled)[0]
    assert e.roll.total == d10 and text in e.outcome and text in log(ev)[-1]
    econ = by_name(f, "Orc").economy
    assert (econ.actions == 1, econ.move == 1) == (acts, moves)
    # no reactions while Confused: refused, though not spent (it is back once Confused ends)
    with pytest.raises(RuleError, match="Confused and cannot take reactions"):
        play(f, C.UseAction(o, "reaction"))
    f, ev = play(f, C.NextTurn())
    due = of(ev, X.SaveDue)[0]
    assert (due.what, due.dc) == ("Confused", 13)
    assert by_name(f, "Orc").due == (X.Due("Confused", 13),)
    # the save: success ends Confused
    f2, ev = play(f, X.D20Test(o, "save", "wis", bonus=2, given=(12,), resolves="Confused"))
    assert of(ev, X.TestRolled)[0].success and not by_name(f2, "Orc").has("Confused")
    assert by_name(f2, "Orc").due == ()
    # a failure keeps it, the save no longer owed
    f3, ev = play(f, X.D20Test(o, "save", "wis", bonus=2, given=(2,), resolves="Confused"))
    assert by_name(f3, "Orc").has("Confused") and by_name(f3, "Orc").due == ()


def test_d20_stunned_loses_its_turn_and_cannot_react():
    f = fight()
    f, _ = play(f, C.AddCondition(cid(f, "Orc"), "Stunned"), C.AddCondition(cid(f, "Orc"), "Bleeding"))
    f, _ = start(f)
    with pytest.raises(RuleError, match="Stunned: no actions or reactions"):
        play(f, C.UseAction(cid(f, "Orc"), "reaction"))
    f, ev = play(f, C.NextTurn(rolls=(C.GivenRoll(cid(f, "Orc"), "Bleeding", (2,)),)))
    assert [e.reason for e in of(ev, X.E.TurnSkipped)] == ["Stunned"]
    assert f.current == cid(f, "Gob")
    assert by_name(f, "Orc").hp == 38  # a lost turn still starts: it bleeds


def test_d20_incapacitated_takes_no_actions_or_reactions():
    f = fight()
    f, _ = play(f, C.AddCondition(cid(f, "Orc"), "Incapacitated"))
    f, _ = start(f)
    f, ev = play(f, C.NextTurn())
    assert f.current == cid(f, "Orc")  # its turn comes, with nothing in it
    e = by_name(f, "Orc").economy
    assert (e.actions, e.bonus) == (0, 0)
    assert "Orc is Incapacitated: no actions or reactions this turn" in log(ev)
    for what in ("action", "bonus", "reaction"):
        with pytest.raises(RuleError, match="Incapacitated"):
            play(f, C.UseAction(cid(f, "Orc"), what))
    # the reaction is barred, not spent: once the condition ends it can react this round
    g, _ = play(f, C.RemoveCondition(cid(f, "Orc"), "Incapacitated"))
    g, _ = play(g, C.UseAction(cid(g, "Orc"), "reaction"))
    assert by_name(g, "Orc").economy.reactions == 0
    # becoming incapacitated mid-turn counts at once
    f, _ = play(f, C.NextTurn())
    f, _ = play(f, C.AddCondition(cid(f, "Gob"), "Incapacitated"))
    with pytest.raises(RuleError, match="Incapacitated"):
        play(f, C.UseAction(cid(f, "Gob"), "action", "Attack"))


def test_d20_unconscious_is_incapacitated_and_prone():
    f = fight()
    f, _ = start(f)
    f, ev = play(f, C.AddCondition(cid(f, "Orc"), "Unconscious"))
    orc = by_name(f, "Orc")
    assert orc.has("Prone") and X.incapacitated(orc) == "Unconscious"
    with pytest.raises(RuleError, match="Unconscious"):
        play(f, C.UseAction(cid(f, "Orc"), "reaction"))
    # waking up leaves it prone, as it fell
    f, _ = play(f, C.RemoveCondition(cid(f, "Orc"), "Unconscious"))
    assert by_name(f, "Orc").has("Prone")


@pytest.mark.parametrize("condition", ["Grappled", "Restrained"])
def test_d20_grappled_and_restrained_have_speed_zero(condition):
    f = fight()
    f, _ = start(f)
    f, _ = play(f, C.AddCondition(cid(f, "Bran"), condition))
    with pytest.raises(RuleError, match=f"{condition}: its speed is 0"):
        play(f, C.UseAction(cid(f, "Bran"), "move"))
    assert X.effective_speed(by_name(f, "Bran")) == (0, condition)
    f, _ = play(f, C.RemoveCondition(cid(f, "Bran"), condition))
    play(f, C.UseAction(cid(f, "Bran"), "move"))


def test_d20_slowed_halves_speed():
    f = fight()
    f, _ = play(f, C.AddCondition(cid(f, "Bran"), "Slowed"))
    assert X.effective_speed(by_name(f, "Bran")) == (15, "Slowed")


def test_d20_poisoned_disadvantage_on_attacks_and_checks_and_no_gambit_recovery():
    f = fight(add("Ysolde", "pc", "party", gambit=3))
    f, _ = start(f, ("Bran", "Orc", "Gob", "Ysolde"))
    y = cid(f, "Ysolde")
    f, _ = play(f, C.SpendResource(y, "gambit", 2), C.AddCondition(y, "Poisoned"))
    before = frozen_copy(f)
    with pytest.raises(RuleError, match="Poisoned and cannot recover Gambit Points"):
        play(f, C.RestoreResource(y, "gambit"))
    assert frozen_copy(f) == before
    _, ev = play(f, X.D20Test(y, "check", label="Athletics", dc=10, given=(15, 4)))
    t = of(ev, X.TestRolled)[0]
    assert (t.mode, t.success) == ("disadvantage", False)
    _, ev = play(f, X.D20Test(y, "save", "con", dc=10, given=(15,)))  # saves are not checks
    assert of(ev, X.TestRolled)[0].mode == "normal"
    f, _ = play(f, C.RemoveCondition(y, "Poisoned"), C.RestoreResource(y, "gambit"))
    assert by_name(f, "Ysolde").pool("gambit").current == 2


def test_d20_frightened_disadvantage_on_attacks_and_checks():
    f = fight()
    f, _ = start(f)
    f, _ = play(f, C.AddCondition(cid(f, "Bran"), "Frightened", source=cid(f, "Orc")))
    assert X.attack_preview(f, X.D20Attack(cid(f, "Bran"), cid(f, "Gob"))).mode == "disadvantage"
    _, ev = play(f, X.D20Test(cid(f, "Bran"), "check", given=(3, 18)))
    assert of(ev, X.TestRolled)[0].roll.total == 3


def test_d20_dex_saves_cover_dodge_and_restrained():
    f = fight()
    f, _ = start(f)
    b = cid(f, "Bran")  # Dex 14: +2 on Dex saves with no dex_save stat
    _, ev = play(f, X.D20Test(b, "save", "dex", dc=15, cover="three-quarters", given=(8,)))
    t = of(ev, X.TestRolled)[0]
    assert (t.roll.total, t.success) == (15, True)
    with pytest.raises(RuleError, match="Dexterity saves only"):
        play(f, X.D20Test(b, "save", "con", cover="half", given=(8,)))
    f, _ = play(f, C.UseAction(b, "action", "Dodge"))
    _, ev = play(f, X.D20Test(b, "save", "dex", given=(3, 9)))
    assert of(ev, X.TestRolled)[0].mode == "advantage"
    f, _ = play(f, C.AddCondition(b, "Restrained"))
    _, ev = play(f, X.D20Test(b, "save", "dex", given=(9,)))
    assert of(ev, X.TestRolled)[0].mode == "normal"  # Dodge's advantage and Restrained cancel


def test_d20_grapple_contest_grapples_or_shoves_and_ends_when_the_grappler_is_incapacitated():
    f = fight()
    f, _ = start(f)
    b, o = cid(f, "Bran"), cid(f, "Orc")
    f2, ev = play(f, X.Grapple(b, o, bonus=5, target_bonus=2, given=(10,), target_given=(10,)))
    g = by_name(f2, "Orc").condition("Grappled")
    assert g is not None and g.source == b
    assert by_name(f2, "Bran").economy.actions == 0
    # a tie leaves things as they are
    f3, ev = play(f, X.Grapple(b, o, bonus=2, target_bonus=2, given=(10,), target_given=(10,)))
    assert not by_name(f3, "Orc").has("Grappled") and "resists" in log(ev)[-1]
    f4, _ = play(f, X.Grapple(b, o, shove="prone", bonus=5, given=(10,), target_given=(2,)))
    assert by_name(f4, "Orc").has("Prone")
    f5, ev = play(f2, C.AddCondition(b, "Stunned"))
    assert not by_name(f5, "Orc").has("Grappled")
    assert "Bran is Stunned" in of(ev, X.E.ConditionEnded)[-1].reason


def test_d20_conditions_listed_with_their_effects():
    rs = X  # the ruleset's condition table covers the whole table of the text
    from engine.rules.d20.ruleset import CONDITIONS

    for name in (
        "Blinded",
        "Bleeding",
        "Burning",
        "Charmed",
        "Concealed",
        "Confused",
        "Deafened",
        "Disarmed",
        "Exhaustion",
        "Frightened",
        "Grappled",
        "Hidden",
        "Incapacitated",
        "Marked",
        "Poisoned",
        "Prone",
        "Restrained",
        "Slowed",
        "Stunned",
        "Unconscious",
    ):
        assert CONDITIONS[name]
    assert rs.PUT_OUT in CONDITIONS["Burning"] or "action" in CONDITIONS["Burning"]
