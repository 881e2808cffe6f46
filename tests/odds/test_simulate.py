"""`engine.odds.simulate` checked against what can be known (issue 26): an even mirror match gives 50%
within its interval, a hopeless fight near 100%, a simple duel its exact odds worked out by hand (in
each ruleset), the same result for a seed with 1 or 2 workers, a cancel mid-way, one-line refusals.
Small run counts, in this process (workers=1) but for one test: the suite's time stays small."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from engine import RuleError, apply, new_fight
from engine import commands as C
from engine.odds import Odds, simulate
from saves.demo import demo_fight
from tests.odds.support import decided_share, die, duel, fight, in_interval, rounds_duel, started

# one plain fighter per ruleset: the same on both sides makes a mirror match
FIGHTER: dict[str, dict[str, Any]] = {
    "d20": {"name": "Sellsword", "hp": 14, "ac": 13,
            "attacks": [{"name": "Sword", "bonus": 4, "damage": [{"dice": "1d8+2", "type": "slashing"}]}]},
    "cosmere": {"name": "Spearman", "hp": 16, "phy": 13, "focus": 2,
                "attacks": [{"name": "Spear", "bonus": 4, "damage": "1d8", "type": "keen"}]},
    "ninephase": {"name": "Raider", "hp": 12, "grit": 3,
                  "activities": [{"name": "Hack", "weapon": True, "speed": 4}]},
    "warhammer": {"name": "Mercenary", "kind": "pc", "wounds": 10,
                  "characteristics": {"ws": 40, "t": 30, "ag": 30, "s": 30},
                  "weapons": [{"name": "Sword", "damage": 4}]},
}
# a weak one, to lose: few hit points, a poor attack
WEAK: dict[str, dict[str, Any]] = {
    "d20": {"name": "Urchin", "hp": 3, "ac": 10,
            "attacks": [{"name": "Stick", "bonus": 0, "damage": [{"dice": "1d2"}]}]},
    "cosmere": {"name": "Urchin", "hp": 3, "phy": 10, "focus": 0,
                "attacks": [{"name": "Stick", "bonus": 0, "damage": "1d2"}]},
    "ninephase": {"name": "Urchin", "hp": 2, "grit": 0,
                  "activities": [{"name": "Poke", "weapon": True, "speed": 9}],
                  "actions": [{"name": "Poke", "damage": [{"dice": "1"}]}]},
    "warhammer": {"name": "Urchin", "tier": "minion", "wounds": 2,
                  "characteristics": {"ws": 15, "t": 20, "ag": 20}, "weapons": [{"name": "Stick", "damage": 0}]},
}
RULESETS = tuple(FIGHTER)


@pytest.mark.parametrize("rules", RULESETS)
def test_an_even_mirror_match_is_fifty_fifty_within_its_interval(rules: str) -> None:
    f = fight(rules, ("party", FIGHTER[rules], 2), ("enemy", FIGHTER[rules], 2))
    o = simulate(f, 200, seed=11, workers=1)
    wins, decided = decided_share(o)
    assert decided >= 150, o.lines()
    assert in_interval(0.5, wins, decided), o.lines()
    if not o.draws:  # where no run ends with both sides down at once, the party's own interval
        party = o.side("party")
        assert party is not None and party.low <= 0.5 <= party.high, o.lines()


@pytest.mark.parametrize("rules", RULESETS)
def test_a_hopeless_fight_is_lost_nearly_always(rules: str) -> None:
    f = fight(rules, ("party", WEAK[rules], 1), ("enemy", FIGHTER[rules], 3))
    o = simulate(f, 100, seed=3, workers=1)
    foes = o.side("enemy")
    assert foes is not None and foes.p >= 0.97 and foes.low >= 0.9, o.lines()
    assert o.fates[0].p_down >= 0.97
    assert o.headline().startswith("The party "), o.headline()


def check_exact(o: Odds, exact: Fraction) -> None:
    party = o.side("party")
    assert party is not None
    assert o.unfinished == 0 and not o.draws, o.lines()
    assert party.low <= float(exact) <= party.high, (float(exact), o.lines())


def test_d20_duel_matches_its_exact_odds() -> None:
    """A at +5 against AC 13 (needs 8: 13 in 20), 5 damage, B's 15 hit points: 3 hits. B at +2
    against AC 12 (needs 10: 11 in 20), 5 damage, A's 10: 2 hits. A first (initiative given). The
    damage is flat, so a critical changes nothing."""
    a = {"name": "Anna", "kind": "pc", "hp": 10, "ac": 12,
         "attacks": [{"name": "Blade", "bonus": 5, "damage": [{"dice": "5"}]}]}
    b = {"name": "Brute", "hp": 15, "ac": 13, "attacks": [{"name": "Club", "bonus": 2, "damage": [{"dice": "5"}]}]}
    f = started(fight("d20", ("party", a, 1), ("enemy", b, 1)), "c1", "c2", (20, 1))
    exact = duel(Fraction(13, 20), Fraction(11, 20), 3, 2)
    check_exact(simulate(f, 2000, seed=5, workers=1), exact)


def test_cosmere_duel_matches_its_exact_odds() -> None:
    """No focus (no grazes), both fast: the PC's fast turn comes first each round. A: +4 against
    Physical 14 (needs 10: 11 in 20), 3 + 4 damage on a hit, B's 14 health: 2 hits. B: +3 against
    Physical 12 (needs 9: 12 in 20), 3 + 3, A's 12: 2 hits."""
    a = {"name": "Anna", "kind": "pc", "hp": 12, "phy": 12, "focus": 0,
         "attacks": [{"name": "Spear", "bonus": 4, "damage": "3"}]}
    b = {"name": "Brute", "hp": 14, "phy": 14, "focus": 0, "attacks": [{"name": "Axe", "bonus": 3, "damage": "3"}]}
    f = fight("cosmere", ("party", a, 1), ("enemy", b, 1))
    exact = duel(Fraction(11, 20), Fraction(12, 20), 2, 2)
    check_exact(simulate(f, 2000, seed=5, workers=1), exact)


def test_warhammer_duel_matches_its_exact_odds() -> None:
    """WS 60 against WS 50 (a d100 at or under it, 96+ always missing): 60 and 50 in 100. Neither can
    defend (no weapon to parry with, Agility 0: a dodge never succeeds), one wounding hit is enough
    (1 Wound, no armour, no Toughness). A first (its Initiative test rolled 01)."""
    a = {"name": "Anna", "kind": "pc", "wounds": 1, "flags": ["unarmed"],
         "characteristics": {"ws": 60, "t": 0, "ag": 0, "i": 60},
         "weapons": [{"name": "Axe", "damage": 5, "sb": False}]}
    b = {"name": "Brute", "tier": "minion", "wounds": 1, "flags": ["unarmed"],
         "characteristics": {"ws": 50, "t": 0, "ag": 0, "i": 10},
         "weapons": [{"name": "Club", "damage": 5, "sb": False}]}
    f = started(fight("warhammer", ("party", a, 1), ("enemy", b, 1)), "c1", "c2", (1, 100))
    exact = duel(Fraction(60, 100), Fraction(50, 100), 1, 1)
    check_exact(simulate(f, 2000, seed=5, workers=1), exact)


def test_ninephase_duel_matches_its_exact_odds() -> None:
    """No attack roll in the text: every blow lands. A acts in phase 3 (1d4), B in phase 5 (1d6), so
    A's blow comes first each round; a B dropped in phase 3 never strikes. 7 and 6 Hit Points, no Grit."""
    a = {"name": "Anna", "kind": "pc", "hp": 7, "grit": 0, "activities": [{"name": "Jab", "weapon": True, "speed": 3}],
         "actions": [{"name": "Jab", "damage": [{"dice": "1d4"}]}]}
    b = {"name": "Brute", "hp": 6, "grit": 0, "activities": [{"name": "Maul", "weapon": True, "speed": 5}],
         "actions": [{"name": "Maul", "damage": [{"dice": "1d6"}]}]}
    f = fight("ninephase", ("party", a, 1), ("enemy", b, 1))
    exact = rounds_duel(7, 6, die(4), die(6))
    check_exact(simulate(f, 2000, seed=5, workers=1), exact)


def test_the_same_seed_gives_the_same_odds_with_one_worker_or_two() -> None:
    f = demo_fight("d20")
    one = simulate(f, 40, seed=9, workers=1)
    assert one == simulate(f, 40, seed=9, workers=1)
    assert one == simulate(f, 40, seed=9, workers=2)  # (the one test that starts a pool)
    assert one != simulate(f, 40, seed=10, workers=1)


def test_progress_and_a_cancel_mid_way_return_what_was_finished() -> None:
    f = demo_fight("warhammer")
    seen: list[int] = []
    o = simulate(f, 200, seed=2, workers=1, on_progress=lambda x: seen.append(x.runs), cancelled=lambda: len(seen) >= 3)
    assert seen == [10, 20, 30] and o.runs == 30
    whole = simulate(f, 30, seed=2, workers=1)
    assert whole == o  # the same runs: the first 30 of the 200


def test_from_the_middle_of_a_fight_the_headline_says_from_here() -> None:
    f = demo_fight("d20")
    f, _ = apply(f, C.StartFight())
    o = simulate(f, 20, seed=1, workers=1)
    assert o.started and o.headline().startswith("From here the party wins ")
    assert o.runs == 20 and o.finished + o.unfinished == 20
    assert [x.name for x in o.fates] == [c.name for c in f.combatants]


def test_a_ruleset_without_auto_play_is_refused_in_one_line() -> None:
    f = new_fight("plainlist", "Plain")
    f, _ = apply(f, C.AddCombatant("A", side="party"))
    f, _ = apply(f, C.AddCombatant("B"))
    with pytest.raises(RuleError, match="^Plain list has no auto-play: odds cannot be simulated$"):
        simulate(f, 10, workers=1)


@pytest.mark.parametrize("runs", [0, -1, 100_001])
def test_runs_out_of_range_are_refused(runs: int) -> None:
    with pytest.raises(RuleError, match="Runs: between 1 and 100,000"):
        simulate(demo_fight("d20"), runs, workers=1)


def test_a_fight_with_nobody_on_one_side_or_over_is_refused() -> None:
    f = fight("d20", ("enemy", FIGHTER["d20"], 2))
    with pytest.raises(RuleError, match="Nobody on the party's side can fight"):
        simulate(f, 10, workers=1)
    done, _ = apply(demo_fight("d20"), C.EndFight())
    with pytest.raises(RuleError, match="The fight is over"):
        simulate(done, 10, workers=1)
