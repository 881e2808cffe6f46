"""Cosmere's and Warhammer's compact economy line is written directly (every action used puts it in
its event): it must say what joining the items' texts says, in every state of the economy."""

import itertools

from msgspec.structs import replace

from engine import apply, new_fight
from engine import commands as C
from engine.ruleset import get_ruleset, join_economy


def _one(rid: str) -> tuple:
    f = new_fight(rid, seed=3)
    f, _ = apply(f, C.AddCombatant("Kal", kind="pc", side="party"))
    rs = get_ruleset(rid)
    c = f.get("c1")
    return rs, replace(c, economy=rs.fresh_economy())


def test_cosmere_line_matches_the_items() -> None:
    rs, c = _one("cosmere")
    for speed, actions, reactions in itertools.product(("", "fast", "slow"), (0, 2, 3), (0, 1, 2)):
        x = replace(c, economy=replace(c.economy, speed=speed, actions=actions, reactions=reactions))
        assert rs.describe_economy(x) == join_economy(rs.economy_of(x))


def test_warhammer_line_matches_the_items() -> None:
    rs, c = _one("warhammer")
    for actions, reactions, parries, defensive in itertools.product((0, 1), (0, 1, 2), (0, 1, 2), (0, 3)):
        e = replace(c.economy, actions=actions, reactions=reactions, parries=parries, defensive=defensive)
        x = replace(c, economy=e)
        assert rs.describe_economy(x) == join_economy(rs.economy_of(x))
