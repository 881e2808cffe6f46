"""Issue 7 for Cosmere: every roll takes the table's dice; a fight played with entered dice equals the
same fight played with seeded dice that fell the same way, except for the `entered` marks."""

from __future__ import annotations

import msgspec
import pytest

from engine import RuleError, apply, describe, new_fight
from engine import commands as C
from engine import events as E
from engine.dice import DiceRoll, Rng
from engine.history import History
from engine.mechanics import EffectRolled
from engine.rules.cosmere import combat as X
from engine.rules.cosmere.commands import StartTurn


def dice(r: DiceRoll) -> tuple[int, ...]:
    return tuple(v for t in r.terms for v in t.rolls)


def entered(cmd: C.Command, events: tuple[E.Event, ...]) -> C.Command:
    rolls = tuple(C.GivenRoll(e.who, e.what, dice(e.roll)) for e in events if isinstance(e, EffectRolled))
    damage = [dice(e.roll) for e in events if isinstance(e, E.Damaged) and e.roll is not None]
    r = msgspec.structs.replace
    if isinstance(cmd, C.StartFight):
        return r(cmd, initiative=tuple((e.who, dice(e.roll)) for e in events if isinstance(e, E.InitiativeRolled)))
    if isinstance(cmd, (C.NextTurn, StartTurn)):
        return r(cmd, rolls=rolls)
    if isinstance(cmd, X.CosmereAttack):
        a = next(e for e in events if isinstance(e, X.CosmereAttackRolled))
        return r(cmd, given=dice(a.test), damage_given=dice(a.damage) if a.damage else None)
    if isinstance(cmd, (X.Fall, X.EnterTerrain)) and damage:
        return r(cmd, given=damage[0])
    return cmd


def script() -> list[C.Command]:
    k, w1, w2, boss = "c1", "c2", "c3", "c4"
    return [
        C.AddCombatant("Kaladin", "pc", "party", stats=(("hp", 30), ("focus", 6), ("phy", 15), ("speed", 30))),
        C.AddCombatant("Warrior", "npc", count=2, stats=(("hp", 30), ("phy", 13), ("spi", 11))),
        C.AddCombatant("Stormsinger", stats=(("hp", 40), ("phy", 12), ("cog", 14)), flags=("boss",)),
        C.StartFight(),
        X.EnterTerrain(w1, "1d4", "embers"),
        StartTurn(k, "fast"),
        X.CosmereAttack(k, (w1, w2), modifier=5, damage="2d6", label="Spear", graze=(w2,), unsensed=()),
        X.CosmereAttack(
            k, (boss,), modifier=3, damage="1d8", defense="cog", action="Startling Blow", kind="ranged", long_range=True
        ),
        C.NextTurn(),
        X.CosmereAttack(boss, (k,), modifier=4, damage="1d10", defense="phy"),
        X.CosmereAttack(k, (boss,), modifier=5, damage="1d6", use="reaction"),
        C.NextTurn(),
        C.NextTurn(),
        X.CosmereAttack(w1, (k,), modifier=3, damage="1d6", critical=False),
        X.Fall(w1, 40),
        C.NextTurn(),
        C.NextTurn(),
        C.NextTurn(),
        C.NextTurn(),
        C.NextTurn(),
    ]


def play(seed: int, typed_from: list | None = None):
    f = new_fight("cosmere", "Given", seed)
    logs: list[str] = []
    per_cmd: list = []
    for i, cmd in enumerate(script()):
        if typed_from is not None:
            if typed_from[i] is None:
                continue
            cmd = entered(cmd, typed_from[i])
        try:
            f, ev = apply(f, cmd)
        except RuleError:
            per_cmd.append(None)
            continue
        per_cmd.append(ev)
        logs.extend(describe(e) for e in ev)
    return f, logs, per_cmd


@pytest.mark.parametrize("seed", [1, 3, 99, 2024])
def test_cosmere_entered_dice_and_seeded_dice_give_equal_states_and_logs(seed):
    seeded, seeded_log, seeded_ev = play(seed)
    typed, typed_log, typed_ev = play(seed, seeded_ev)
    assert seeded.rng.counter > 10 and typed.rng == Rng(seeded.rng.seed, 0)
    assert msgspec.structs.replace(typed, rng=seeded.rng) == seeded
    assert [line.replace(" (entered)", "") for line in typed_log] == seeded_log
    assert sum(" (entered)" in line for line in typed_log) >= 8
    strip = lambda evs: msgspec.json.encode([e for e in evs if e]).replace(b',"entered":true', b"")  # noqa: E731
    assert strip(typed_ev) == strip(seeded_ev)


def test_cosmere_a_typed_in_round_undone_and_redone_keeps_the_typed_numbers():
    seeded, _, seeded_ev = play(5)
    h = History.start(new_fight("cosmere", "Given", 5))
    for cmd, ev in zip(script(), seeded_ev, strict=True):
        if ev is not None:
            h.apply(entered(cmd, ev))
    end = h.state
    logs = [describe(e) for _, e in h.log()]
    for _ in range(6):
        h.undo()
    for _ in range(6):
        h.redo()
    assert h.state == end and [describe(e) for _, e in h.log()] == logs
    assert any("(entered)" in line for line in logs[-20:])


def test_cosmere_impossible_entered_results_are_refused_with_a_message():
    f = new_fight("cosmere", "Refusals", 1)
    for cmd in script()[:6]:
        f, _ = apply(f, cmd)
    for cmd, msg in [
        (X.CosmereAttack("c1", ("c2",), given=(23,)), "23 is not a possible result on a d20"),
        (X.CosmereAttack("c1", ("c2",), given=(3, 4)), "rolls 1 d20: enter 1"),
        (
            X.CosmereAttack("c1", ("c2",), damage="2d6", given=(3,), damage_given=(7, 1)),
            "7 is not a possible result on a d6",
        ),
        (X.CosmereAttack("c1", ("c2",), damage="2d6", given=(3,), damage_given=(6,)), "needs 2 die results, got 1"),
        (X.CosmereAttack("c1", ("c2",), kind="ranged", long_range=True, total=12), "enter both d20s"),
        (X.Fall("c1", 20, given=(7, 1)), "7 is not a possible result on a d6"),
        (X.EnterTerrain("c1", "1d4", given=(5,)), "5 is not a possible result on a d4"),
        (C.NextTurn(rolls=(C.GivenRoll("c1", X.TERRAIN, (2,)),)), "was due"),
    ]:
        with pytest.raises(RuleError, match=msg):
            apply(f, cmd)
