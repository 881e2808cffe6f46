"""d20 attacks (issue 5, d20 rule 1): d20 + bonus against AC, natural 20 and 1, advantage and
disadvantage with their sources, cover, exhaustion, and the exact odds the attack dialog shows."""

from __future__ import annotations

from fractions import Fraction

import pytest

from engine import RuleError, apply
from engine import commands as C
from engine.rules.d20 import combat as X
from tests.engine.support import add, by_name, cid, frozen_copy, log, of, play, setup


def arena(seed: int = 5):
    """Bran (PC) acts first, then Orc, then Gob."""
    f = setup(
        "d20",
        add("Bran", "pc", "party", hp=30, ac=16, dex=14, str=16),
        add("Orc", hp=40, ac=13, dex=10),
        add("Gob", hp=7, ac=15, dex=14),
        seed=seed,
    )
    init = tuple((cid(f, n), (v,)) for n, v in (("Bran", 20), ("Orc", 10), ("Gob", 5)))
    f, _ = play(f, C.StartFight(initiative=init))
    assert f.current == cid(f, "Bran")
    return f


def hit(f, given, **kw):
    kw.setdefault("bonus", 5)
    return play(f, X.D20Attack(cid(f, "Bran"), cid(f, "Orc"), given=given, **kw))


def test_d20_attack_hits_when_total_meets_or_beats_ac():
    f = arena()
    _, ev = hit(f, (8,))  # 8 + 5 = 13 meets AC 13
    assert of(ev, X.AttackRolled)[0].outcome == "hit"
    _, ev = hit(f, (7,))
    assert of(ev, X.AttackRolled)[0].outcome == "miss"


def test_d20_natural_20_always_hits_and_crits_with_damage_dice_rolled_twice():
    f = arena()
    f2, ev = hit(f, (20,), bonus=-10, damage="1d8", mod=3, type="slashing", damage_given=(5, 8))
    a = of(ev, X.AttackRolled)[0]
    assert (a.natural, a.outcome) == (20, "critical")
    dmg = of(ev, X.E.Damaged)[0]
    assert dmg.roll.expr == "2d8+3" and dmg.amount == 16  # dice twice, the modifier once
    assert by_name(f2, "Orc").hp == 24
    with pytest.raises(RuleError, match="needs 2 die results"):
        hit(f, (20,), damage="1d8", mod=3, damage_given=(5,))


def test_d20_critical_doubles_every_dice_term_but_not_flat_bonuses():
    assert X._damage_expr("1d8+1d6+2", 3, True) == "2d8+2d6+5"
    assert X._damage_expr("2d6", -1, False) == "2d6-1"
    assert X._damage_expr("4d6kh3", 0, True) == "4d6kh3+4d6kh3"


def test_d20_natural_1_always_misses():
    f = arena()
    f2, ev = hit(f, (1,), bonus=30, damage="1d8")
    assert of(ev, X.AttackRolled)[0].outcome == "miss"
    assert not of(ev, X.E.Damaged)
    with pytest.raises(RuleError, match="missed"):
        hit(f, (1,), bonus=30, damage="1d8", damage_given=(3,))


def test_d20_advantage_rolls_two_d20_keeps_the_higher_and_lists_its_sources():
    f = arena()
    f, _ = play(f, C.AddCondition(cid(f, "Orc"), "Prone"))
    _, ev = hit(f, (3, 17), high_ground=True)
    a = of(ev, X.AttackRolled)[0]
    assert a.mode == "advantage" and a.natural == 17
    assert a.advantages == ("Orc is Prone (melee)", "high ground")
    assert "advantage: Orc is Prone (melee), high ground" in log(ev)[-1]
    with pytest.raises(RuleError, match="needs 2 die results"):
        hit(f, (17,))


def test_d20_disadvantage_keeps_the_lower():
    f = arena()
    f, _ = play(f, C.AddCondition(cid(f, "Bran"), "Poisoned"))
    _, ev = hit(f, (17, 3))
    a = of(ev, X.AttackRolled)[0]
    assert (a.mode, a.natural, a.outcome) == ("disadvantage", 3, "miss")
    assert a.disadvantages == ("Bran is Poisoned",)


def test_d20_advantage_and_disadvantage_cancel_to_one_d20():
    f = arena()
    f, _ = play(f, C.AddCondition(cid(f, "Orc"), "Prone"))
    _, ev = hit(f, (12,), kind="ranged", high_ground=True)
    a = of(ev, X.AttackRolled)[0]
    assert a.mode == "normal" and a.roll.terms[0].rolls == (12,)
    assert "cancel out" in log(ev)[-1]


def test_d20_prone_target_gives_advantage_in_melee_and_disadvantage_at_range():
    f = arena()
    f, _ = play(f, C.AddCondition(cid(f, "Orc"), "Prone"))
    melee = X.attack_preview(f, X.D20Attack(cid(f, "Bran"), cid(f, "Orc"), kind="melee"))
    ranged = X.attack_preview(f, X.D20Attack(cid(f, "Bran"), cid(f, "Orc"), kind="ranged"))
    assert melee.mode == "advantage" and ranged.mode == "disadvantage"


@pytest.mark.parametrize(
    "who, condition, mode",
    [
        ("Orc", "Blinded", "advantage"),
        ("Orc", "Marked", "advantage"),
        ("Orc", "Restrained", "advantage"),
        ("Orc", "Stunned", "advantage"),
        ("Orc", "Unconscious", "advantage"),
        ("Bran", "Hidden", "advantage"),
        ("Bran", "Blinded", "disadvantage"),
        ("Bran", "Frightened", "disadvantage"),
        ("Bran", "Poisoned", "disadvantage"),
        ("Orc", "Concealed", "disadvantage"),
        ("Orc", "Grappled", "normal"),
        ("Orc", "Incapacitated", "normal"),
    ],
)
def test_d20_conditions_give_the_tables_advantage_and_disadvantage(who, condition, mode):
    f = arena()
    f, _ = play(f, C.AddCondition(cid(f, who), condition))
    p = X.attack_preview(f, X.D20Attack(cid(f, "Bran"), cid(f, "Orc")))
    assert p.mode == mode
    if mode != "normal":
        assert f"{who} is {condition}" in (p.advantages + p.disadvantages)[0]


def test_d20_dodge_gives_attacks_against_it_disadvantage_until_its_next_turn():
    f = arena()
    f, _ = play(f, C.NextTurn(), C.UseAction(cid(f, "Orc"), "action", "Dodge"))
    assert by_name(f, "Orc").economy.dodging
    f, _ = play(f, C.NextTurn(), C.NextTurn())  # Gob, then Bran
    p = X.attack_preview(f, X.D20Attack(cid(f, "Bran"), cid(f, "Orc")))
    assert p.mode == "disadvantage" and p.disadvantages == ("Orc is Dodging",)
    f, _ = play(f, C.NextTurn())  # the Orc's next turn: Dodge is over
    assert not by_name(f, "Orc").economy.dodging


def test_d20_high_ground_and_flanking_give_advantage_flanking_on_melee_only():
    f = arena()
    p = X.attack_preview(f, X.D20Attack(cid(f, "Bran"), cid(f, "Orc"), flanking=True))
    assert p.mode == "advantage" and p.advantages == ("flanking",)
    with pytest.raises(RuleError, match="melee attacks only"):
        X.attack_preview(f, X.D20Attack(cid(f, "Bran"), cid(f, "Orc"), kind="ranged", flanking=True))


def test_d20_gm_named_sources_and_gm_override():
    f = arena()
    cmd = X.D20Attack(cid(f, "Bran"), cid(f, "Orc"), advantage=("Help",))
    assert X.attack_preview(f, cmd).advantages == ("Help",)
    _, ev = hit(f, (9,), advantage=("Help",), mode="normal")
    a = of(ev, X.AttackRolled)[0]
    assert a.mode == "normal" and a.override and "GM's call" in log(ev)[-1]


def test_d20_cover_adds_to_ac_and_full_cover_cannot_be_targeted():
    f = arena()
    assert X.attack_preview(f, X.D20Attack(cid(f, "Bran"), cid(f, "Orc"), cover="half")).ac == 15
    assert X.attack_preview(f, X.D20Attack(cid(f, "Bran"), cid(f, "Orc"), cover="three-quarters")).ac == 18
    _, ev = hit(f, (9,), cover="half")  # 14 against 13 + 2
    assert of(ev, X.AttackRolled)[0].outcome == "miss"
    before = frozen_copy(f)
    with pytest.raises(RuleError, match="full cover"):
        hit(f, (20,), cover="full")
    assert frozen_copy(f) == before


def test_d20_exhaustion_is_minus_one_per_level_on_d20_rolls():
    f = setup("d20", add("Tired", "pc", "party", dex=10), add("Orc", ac=13))
    f, _ = play(f, C.AddCondition(cid(f, "Tired"), "Exhaustion", level=2))
    f, ev = play(f, C.StartFight(initiative=((cid(f, "Tired"), (15,)), (cid(f, "Orc"), (1,)))))
    assert by_name(f, "Tired").initiative == 13  # initiative is a d20 roll too
    _, ev = play(f, X.D20Attack(cid(f, "Tired"), cid(f, "Orc"), bonus=5, given=(10,)))
    a = of(ev, X.AttackRolled)[0]
    assert a.roll.total == 13 and a.outcome == "hit"
    _, ev = play(f, X.D20Test(cid(f, "Tired"), "save", "wis", dc=10, bonus=1, given=(10,)))
    assert of(ev, X.TestRolled)[0].roll.total == 9


def test_d20_hidden_attacker_has_advantage_and_attacking_ends_hidden():
    f = arena()
    f, _ = play(f, C.AddCondition(cid(f, "Bran"), "Hidden"))
    f, ev = hit(f, (2, 15))
    assert of(ev, X.AttackRolled)[0].mode == "advantage"
    assert [e.condition for e in of(ev, X.E.ConditionEnded)] == ["Hidden"]
    assert not by_name(f, "Bran").has("Hidden")


def test_d20_charmed_cannot_attack_its_charmer():
    f = arena()
    f, _ = play(f, C.AddCondition(cid(f, "Bran"), "Charmed", source=cid(f, "Orc")))
    with pytest.raises(RuleError, match="Charmed by Orc"):
        hit(f, (10,))
    play(f, X.D20Attack(cid(f, "Bran"), cid(f, "Gob"), given=(10,)))  # anyone else is fair game


def test_d20_hit_chance_is_exact_with_advantage_and_disadvantage():
    assert X.hit_chance(5, 15) == (Fraction(11, 20), Fraction(1, 20))
    assert X.hit_chance(5, 15, "advantage") == (1 - Fraction(9, 20) ** 2, 1 - Fraction(19, 20) ** 2)
    assert X.hit_chance(5, 15, "disadvantage") == (Fraction(11, 20) ** 2, Fraction(1, 400))
    assert X.hit_chance(0, 40)[0] == Fraction(1, 20)  # only a natural 20
    assert X.hit_chance(30, 10)[0] == Fraction(19, 20)  # a natural 1 still misses
    assert X.test_chance(2, 10) == Fraction(13, 20)
    assert X.test_chance(0, 25) == 0 and X.test_chance(10, 5) == 1


def test_d20_hit_chance_matches_every_outcome_counted():
    # brute force over both dice: the formula and the table agree for every bonus and AC
    for bonus in range(-3, 12, 3):
        for ac in range(8, 26, 4):
            for mode in ("normal", "advantage", "disadvantage"):
                hits = crits = 0
                pairs = [(a, b) for a in range(1, 21) for b in range(1, 21)]
                for a, b in pairs:
                    n = a if mode == "normal" else max(a, b) if mode == "advantage" else min(a, b)
                    hits += n == 20 or (n != 1 and n + bonus >= ac)
                    crits += n == 20
                assert X.hit_chance(bonus, ac, mode) == (Fraction(hits, 400), Fraction(crits, 400))


def test_d20_attack_preview_reads_the_state_and_the_numbers_entered():
    f = arena()
    f, _ = play(f, C.AddCondition(cid(f, "Bran"), "Exhaustion", level=1))
    p = X.attack_preview(f, X.D20Attack(cid(f, "Bran"), cid(f, "Orc"), bonus=6, cover="half"))
    assert (p.bonus, p.ac, p.mode, p.dice) == (5, 15, "normal", 1)
    assert (p.p_hit, p.p_crit) == X.hit_chance(5, 15)


def test_d20_attack_refusals_leave_the_state_untouched():
    f = arena()
    before = frozen_copy(f)
    for cmd, msg in [
        (X.D20Attack(cid(f, "Bran"), cid(f, "Bran")), "itself"),
        (X.D20Attack(cid(f, "Bran"), cid(f, "Orc"), kind="thrown"), "melee"),
        (X.D20Attack(cid(f, "Bran"), cid(f, "Orc"), use="sneaky"), "use"),
        (X.D20Attack(cid(f, "Bran"), cid(f, "Orc"), damage="2x"), "Cannot read"),
        (X.D20Attack(cid(f, "Orc"), cid(f, "Bran")), "not Orc's turn"),
        (X.D20Attack(cid(f, "Bran"), cid(f, "Orc"), given=(23,)), "23 is not a possible result on a d20"),
    ]:
        with pytest.raises(RuleError, match=msg):
            apply(f, cmd)
        assert frozen_copy(f) == before
