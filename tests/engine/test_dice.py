"""The dice notation parser and the state-held random source (issue 2, item 4)."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import RuleError
from engine.dice import Rng, draw, first_d20, parse, roll

RNG = Rng(seed=42)


def test_ndm_rolls_n_dice_of_m_sides():
    r, rng = roll("3d6", RNG)
    (t,) = r.terms
    assert t.sides == 6 and len(t.rolls) == 3 and all(1 <= v <= 6 for v in t.rolls)
    assert r.total == sum(t.rolls)
    assert rng.counter >= 3 and rng.seed == RNG.seed
    # N defaults to 1, case and spaces do not matter
    r, _ = roll(" D8 ", RNG)
    assert len(r.terms[0].rolls) == 1 and r.terms[0].sides == 8


def test_constants_and_dice_add_and_subtract():
    r, _ = roll("2d6+3", RNG, given=(4, 5))
    assert r.total == 12 and r.constant == 3
    r, _ = roll("1d8-1d4", RNG, given=(6, 4))
    assert r.total == 2 and [t.sign for t in r.terms] == [1, -1]
    r, _ = roll("1d8 - 2 + 1d4 + 10", RNG, given=(1, 1))
    assert r.total == 10
    r, _ = roll("-3", RNG)
    assert r.total == -3 and r.terms == ()
    r, _ = roll("-1d4+1", RNG, given=(3,))
    assert r.total == -2


def test_keep_highest_and_keep_lowest():
    r, _ = roll("4d6kh3", RNG, given=(1, 6, 3, 5))
    assert r.terms[0].kept == (6, 5, 3) and r.total == 14
    r, _ = roll("2d20kl1+2", RNG, given=(17, 4))
    assert r.terms[0].kept == (4,) and r.total == 6
    assert r.text() == "2d20kl1+2 = [~17, 4]+2 = 6 (entered)"
    # a kept duplicate is shown once kept and once dropped
    r, _ = roll("3d6kh2", RNG, given=(5, 5, 5))
    assert r.text().startswith("3d6kh2 = [5, 5, ~5]")


def test_percentile_dice():
    assert parse("d%").terms == parse("d100").terms == parse("1d100").terms
    r, _ = roll("d%", RNG, given=(100,))
    assert r.total == 100
    with pytest.raises(RuleError, match="not a possible result on a d100"):
        roll("d%", RNG, given=(101,))
    assert roll("d%", RNG, given=(0,))[0].total == 100  # "00" as typed from the dice


def test_advantage_and_disadvantage_roll_the_d20_twice():
    r, _ = roll("d20+5 adv", RNG, given=(3, 18))
    assert r.terms[0].rolls == (3, 18) and r.total == 23
    r, _ = roll("1d20+5 dis", RNG, given=(3, 18))
    assert r.total == 8
    assert first_d20(r) == 3
    # only the first single d20 is doubled; other dice are untouched
    r, _ = roll("1d4+1d20 adv", RNG, given=(2, 9, 11))
    assert r.total == 13
    with pytest.raises(RuleError, match="need a d20"):
        parse("2d6 adv")
    with pytest.raises(RuleError, match="need a d20"):
        parse("2d20 dis")


def test_advantage_and_disadvantage_together_is_refused_not_guessed():
    for text in ("d20 adv dis", "d20 dis adv", "d20 disadv", "d20advdis", "d20 adv adv"):
        with pytest.raises(RuleError):
            parse(text)


def test_given_results_are_validated():
    with pytest.raises(RuleError, match="23 is not a possible result on a d20"):
        roll("1d20", RNG, given=(23,))
    with pytest.raises(RuleError, match="0 is not a possible result"):
        roll("2d6", RNG, given=(3, 0))
    with pytest.raises(RuleError, match="needs 2 die results, got 1"):
        roll("2d6", RNG, given=(3,))
    with pytest.raises(RuleError, match="needs 1 die result, got 3"):
        roll("d20+2", RNG, given=(3, 4, 5))
    # entered dice do not move the random source and are marked as entered
    r, rng = roll("2d6", RNG, given=(1, 2))
    assert rng == RNG and r.entered and r.total == 3


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "abc",
        "d",
        "1d",
        "1d0",
        "1d1",
        "0d6",
        "1001d6",
        "1d10001",
        "4d6kh5",
        "4d6kh0",
        "4d6kl",
        "4d6kx2",
        "1d6+",
        "1d6++2",
        "2 d6 3",
        "1d6*2",
        "1d6/2",
        "adv",
        "d20 advantage",
        "1d6" + "+1d6" * 60,
        "9" * 300,
        "99999999",
        "1d6\n+2",
        "(1d6)",
    ],
)
def test_bad_expressions_give_a_rule_error(text):
    with pytest.raises(RuleError) as err:
        roll(text, RNG)
    message = str(err.value)
    assert message and "\n" not in message


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=40))
def test_any_text_parses_or_gives_a_rule_error(text):
    try:
        expr = parse(text)
    except RuleError:
        return
    assert expr.dice_count <= 50 * 1000


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="0123456789dD%+-khl adviso ", max_size=30), st.integers(0, 2**63 - 1))
def test_dice_like_text_rolls_within_its_bounds_or_gives_a_rule_error(text, seed):
    try:
        expr = parse(text)
    except RuleError:
        return
    if expr.dice_count > 200:
        return
    r, rng = roll(expr, Rng(seed))
    assert expr.minimum() <= r.total <= expr.maximum()
    for t in r.terms:
        assert all(1 <= v <= t.sides for v in t.rolls)
    assert rng.counter >= expr.dice_count


def test_rolls_are_deterministic_and_move_the_stream():
    a, rng_a = roll("10d20", RNG)
    b, rng_b = roll("10d20", RNG)
    assert a == b and rng_a == rng_b
    c, _ = roll("10d20", rng_a)
    assert c.terms[0].rolls != a.terms[0].rolls
    d, _ = roll("10d20", Rng(seed=43))
    assert d.terms[0].rolls != a.terms[0].rolls


def test_draws_are_fair():
    rng = Rng(seed=7)
    counts: Counter[int] = Counter()
    for _ in range(6000):
        v, rng = draw(rng, 6)
        counts[v] += 1
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    # 1000 expected per face; 5 standard deviations is about +-144
    assert all(850 <= n <= 1150 for n in counts.values()), counts
    # every face of a big die comes up too (rejection sampling covers the whole range)
    seen = set()
    rng = Rng(seed=9)
    for _ in range(3000):
        v, rng = draw(rng, 100)
        seen.add(v)
    assert seen == set(range(1, 101))


def test_roll_text_for_the_log():
    r, _ = roll("2d6+3", RNG, given=(4, 5))
    assert r.text() == "2d6+3 = [4, 5]+3 = 12 (entered)"
    r, _ = roll("1d8-1d4-1", RNG, given=(6, 2))
    assert r.text() == "1d8-1d4-1 = [6]-[2]-1 = 3 (entered)"


def test_a_table_0_on_a_d10_is_10_and_00_on_percentile_dice_is_100():
    r, _ = roll("1d100", RNG, given=(0,))
    assert r.total == 100
    r, _ = roll("2d10", RNG, given=(0, 3))
    assert r.total == 13
    with pytest.raises(RuleError, match="0 is not a possible result on a d20"):
        roll("1d20", RNG, given=(0,))
