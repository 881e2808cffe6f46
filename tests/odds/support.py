"""Fights for the odds tests, built from statblocks as the library makes them (each combatant keeps
its statblock, so the auto-play reads its attacks), and the exact odds of simple duels."""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from typing import Any

import engine.library as L
from engine import apply, new_fight
from engine import commands as C
from engine.odds import Odds
from engine.odds.report import wilson
from engine.state import Fight


def fight(rules: str, *sides: tuple[str, dict[str, Any], int], seed: int = 1) -> Fight:
    """A fight of `rules` with (side, statblock fields, count) entries, in that order."""
    f = new_fight(rules, "Odds test", seed)
    for side, data, count in sides:
        sb = L.decode_entry(rules, {"side": side, **data})
        cmd, _ = L.to_add(sb, count)
        f, _ = apply(f, cmd)
    return f


def started(f: Fight, first: str, last: str, dice: tuple[int, int]) -> Fight:
    """`f` started with the table's initiative dice: `first` rolls dice[0], `last` dice[1]."""
    out, _ = apply(f, C.StartFight(initiative=((first, (dice[0],)), (last, (dice[1],)))))
    return out


def in_interval(p: Fraction | float, odds_k: int, n: int) -> bool:
    low, high = wilson(odds_k, n)
    return low <= float(p) <= high


def decided_share(o: Odds) -> tuple[int, int]:
    """The party's wins and the runs one side won."""
    party, foes = o.side("party"), o.side("enemy")
    assert party is not None and foes is not None
    return party.wins, party.wins + foes.wins


def duel(p_a: Fraction, p_b: Fraction, hits_a: int, hits_b: int) -> Fraction:
    """The exact chance that A wins a duel of alternate attacks, A first: A lands each attack with
    chance p_a and needs `hits_a` of them; B likewise (no round cap)."""

    @cache
    def a_turn(i: int, j: int) -> Fraction:
        # A(i, j) = p_a X + (1 - p_a) B(i, j), B(i, j) = p_b Y + (1 - p_b) A(i, j), solved for A
        x = Fraction(1) if i == 1 else b_turn(i - 1, j)
        y = Fraction(0) if j == 1 else a_turn(i, j - 1)
        return (p_a * x + (1 - p_a) * p_b * y) / (1 - (1 - p_a) * (1 - p_b))

    @cache
    def b_turn(i: int, j: int) -> Fraction:
        y = Fraction(0) if j == 1 else a_turn(i, j - 1)
        return p_b * y + (1 - p_b) * a_turn(i, j)

    return a_turn(hits_a, hits_b)


def die(sides: int) -> dict[int, Fraction]:
    return {k: Fraction(1, sides) for k in range(1, sides + 1)}


def rounds_duel(hp_a: int, hp_b: int, dmg_a: dict[int, Fraction], dmg_b: dict[int, Fraction]) -> Fraction:
    """The exact chance that A wins when every round A's blow always lands first (its damage drawn
    from `dmg_a`), then B's if it still stands: a fight decided by health alone."""

    @cache
    def win(a: int, b: int) -> Fraction:
        total = Fraction(0)
        for d, p in dmg_a.items():
            if b - d <= 0:
                total += p
                continue
            for e, q in dmg_b.items():
                if a - e > 0:
                    total += p * q * win(a - e, b - d)
        return total

    return win(hp_a, hp_b)
