"""What engine.state remembers of a combatants tuple (where each combatant sits, who watches whose
turn) always matches the tuple, through a long d20 fight with durations coming and going: the
memo carried from tuple to tuple by `put` and `put_all` is never stale."""

from __future__ import annotations

import random

from engine import RuleError, apply, new_fight
from engine import commands as C
from engine.ruleset import expire
from engine.state import _MEMO, Duration, Fight, positions, watching

NAMES = ("Prone", "Blinded", "Frightened", "Poisoned", "Marked", "Hidden", "Concentrating")


def fresh_watch(f: Fight) -> dict[tuple[str, str], int]:
    out: dict[tuple[str, str], int] = {}
    for c in f.combatants:
        for x in c.conditions:
            key = (x.duration.who, x.duration.kind)
            out[key] = out.get(key, 0) + 1
    return out


def fresh_positions(f: Fight) -> dict[str, int]:
    out: dict[str, int] = {}
    for i, c in enumerate(f.combatants):
        out.setdefault(c.id, i)
    return out


def fight(n: int = 12, seed: int = 7) -> Fight:
    f = new_fight("d20", "Memo", seed=seed)
    for i in range(n):
        f, _ = apply(f, C.AddCombatant(f"F{i}", stats=(("hp", 30), ("dex", 10 + i % 5))))
    f, _ = apply(f, C.StartFight())
    return f


def command(f: Fight, rnd: random.Random) -> C.Command:
    ids = [c.id for c in f.combatants]
    x = rnd.random()
    who = rnd.choice(ids)
    if x < 0.3:
        return C.NextTurn()
    if x < 0.6:
        kind = rnd.choice(("turn_start", "turn_end", "manual"))
        d = Duration(kind, rnd.choice(ids), rnd.randint(1, 3)) if kind != "manual" else Duration()
        return C.AddCondition(who, rnd.choice(NAMES), duration=d)
    if x < 0.75:
        c = f.get(who)
        if c.conditions:
            return C.RemoveCondition(who, rnd.choice(c.conditions).name)
        return C.Note("quiet")
    if x < 0.85:
        return C.Damage(who, rnd.randint(1, 40))
    if x < 0.9:
        return C.Heal(who, rnd.randint(1, 40))
    if x < 0.95:
        return C.UseAction(f.current or who, rnd.choice(("action", "bonus", "move")), "Dash")
    return C.UseAction(who, "reaction", "Opportunity attack")


def naive_expire(f: Fight, cid: str, kind: str) -> list[tuple[str, tuple[tuple[str, int], ...]]]:
    """What expire should leave: every watching duration counted down, those at 0 gone."""
    out = []
    for c in f.combatants:
        keep = []
        for x in c.conditions:
            d = x.duration
            if d.who == cid and d.kind == kind:
                if d.count <= 1:
                    continue
                keep.append((x.name, d.count - 1))
            else:
                keep.append((x.name, d.count))
        out.append((c.id, tuple(keep)))
    return out


def shape(f: Fight) -> list[tuple[str, tuple[tuple[str, int], ...]]]:
    return [(c.id, tuple((x.name, x.duration.count) for x in c.conditions)) for c in f.combatants]


def test_the_memo_matches_every_tuple_of_a_long_fight() -> None:
    rnd = random.Random(11)
    f = fight()
    checked = 0
    carried = 0
    for _ in range(3000):
        cmd = command(f, rnd)
        try:
            f, _ = apply(f, cmd)
        except RuleError:
            continue
        hit = _MEMO.get(id(f.combatants))
        if hit is not None and hit[0] is f.combatants and hit[2] is not None:
            carried += 1  # known without a scan: the parent's memo came along
        assert watching(f.combatants) == fresh_watch(f), cmd
        assert positions(f.combatants) == fresh_positions(f), cmd
        checked += 1
    assert checked > 2000
    assert carried > checked // 2  # the memo is carried, not rebuilt every command


def test_expire_counts_down_what_a_scan_would() -> None:
    rnd = random.Random(5)
    f = fight(8, seed=3)
    hits = 0
    for _ in range(1500):
        try:
            f, _ = apply(f, command(f, rnd))
        except RuleError:
            continue
        cid = rnd.choice(f.combatants).id
        kind = rnd.choice(("turn_start", "turn_end"))
        want = naive_expire(f, cid, kind)
        ev: list = []
        after = expire(f, cid, kind, ev)
        assert shape(after) == want
        hits += bool(ev) or after is not f
        assert watching(after.combatants) == fresh_watch(after)
    assert hits > 50  # the fights did have durations to count down
