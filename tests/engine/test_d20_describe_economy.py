"""d20 writes the compact economy line ("A1 B1 M20ft R1(barred)") straight from the economy, without
building the items: it must say exactly what the items' texts joined say, in every state a long
fight reaches (measured moves, Dash, reactions spent or barred, turns lost)."""

from __future__ import annotations

import random

from engine import RuleError, apply, new_fight
from engine import commands as C
from engine.ruleset import get_ruleset, join_economy
from engine.state import Fight

CONDITIONS = ("Confused", "Stunned", "Incapacitated", "Slowed", "Grappled", "Prone", "Unconscious", "Hidden")


def fight() -> Fight:
    f = new_fight("d20", "Line", seed=9)
    for i in range(8):
        stats = (("hp", 25), ("dex", 10 + i), ("speed", 25 + 5 * (i % 3)))
        f, _ = apply(f, C.AddCombatant(f"F{i}", kind="pc" if i < 2 else "npc", stats=stats))
    f, _ = apply(f, C.StartFight())
    return f


def command(f: Fight, rnd: random.Random) -> C.Command:
    ids = [c.id for c in f.combatants]
    who = rnd.choice(ids)
    me = f.current or who
    x = rnd.random()
    if x < 0.2:
        return C.NextTurn()
    if x < 0.35:
        return C.UseAction(me, "move", rnd.choice(("", "Move", "Stand up")), cost=rnd.choice((1, 1, 5, 10, 15)))
    if x < 0.5:
        return C.UseAction(me, rnd.choice(("action", "bonus")), rnd.choice(("Dash", "Attack", "Dodge", "")))
    if x < 0.6:
        return C.UseAction(who, "reaction", "Opportunity attack")
    if x < 0.75:
        return C.AddCondition(who, rnd.choice(CONDITIONS))
    if x < 0.85:
        c = f.get(who)
        if c.conditions:
            return C.RemoveCondition(who, rnd.choice(c.conditions).name)
        return C.Heal(who, 5)
    if x < 0.95:
        return C.Damage(who, rnd.randint(1, 20))
    return C.Heal(who, rnd.randint(1, 20))


def test_the_compact_line_is_the_items_texts_joined() -> None:
    rs = get_ruleset("d20")
    rnd = random.Random(3)
    f = fight()
    seen: set[str] = set()
    for _ in range(2500):
        try:
            f, _ = apply(f, command(f, rnd))
        except RuleError:
            continue
        for c in f.combatants:
            line = rs.describe_economy(c)
            assert line == join_economy(rs.economy_of(c)), (c.economy, c.conditions)
            seen.add(line)
    # the fight went through the states that write the line differently
    assert any("ft" in s for s in seen)
    assert any("(barred)" in s for s in seen)
    assert any(" m " in s for s in seen)
    assert any("R0" in s for s in seen)
