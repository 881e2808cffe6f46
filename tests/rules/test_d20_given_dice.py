"""Issue 7 for d20: every roll takes the table's dice; a fight played with entered dice equals the same
fight played with seeded dice that fell the same way, except for the `entered` marks."""

from __future__ import annotations

import msgspec
import pytest

from engine import RuleError, apply, describe, get_ruleset, new_fight, ruleset_ids
from engine import commands as C
from engine import events as E
from engine.dice import DiceRoll, Rng
from engine.mechanics import EffectRolled
from engine.rules.d20 import combat as X
from tests.engine.support import frozen_copy


def dice(r: DiceRoll) -> tuple[int, ...]:
    return tuple(v for t in r.terms for v in t.rolls)


def entered(cmd: C.Command, events: tuple[E.Event, ...]) -> C.Command:
    """The same command with every die it rolled given, as the table would type them in."""
    rolls = tuple(C.GivenRoll(e.who, e.what, dice(e.roll)) for e in events if isinstance(e, EffectRolled))
    tests = [dice(e.roll) for e in events if isinstance(e, X.TestRolled)]
    damage = [dice(e.roll) for e in events if isinstance(e, E.Damaged) and e.roll is not None]
    attack = [dice(e.roll) for e in events if isinstance(e, X.AttackRolled)]
    r = msgspec.structs.replace
    if isinstance(cmd, C.StartFight):
        init = tuple((e.who, dice(e.roll)) for e in events if isinstance(e, E.InitiativeRolled))
        return r(cmd, initiative=init, rolls=rolls)
    if isinstance(cmd, C.NextTurn):
        return r(cmd, rolls=rolls)
    if isinstance(cmd, X.D20Attack):
        return r(cmd, given=attack[0], damage_given=damage[0] if damage else None)
    if isinstance(cmd, X.ShieldBash):
        return r(
            cmd, given=attack[0], damage_given=damage[0] if damage else None, save_given=tests[0] if tests else None
        )
    if isinstance(cmd, X.D20Test):
        return r(cmd, given=tests[0])
    if isinstance(cmd, X.Grapple):
        return r(cmd, given=tests[0], target_given=tests[1])
    if isinstance(cmd, C.Damage) and cmd.dice:
        return r(cmd, given=damage[0])
    return cmd


def script() -> list[C.Command]:
    return [
        C.AddCombatant(
            "Bran", "pc", "party", stats=(("hp", 30), ("ac", 16), ("dex", 14), ("str", 16)), flags=("shield",)
        ),
        C.AddCombatant("Ysolde", "pc", "party", stats=(("hp", 22), ("ac", 13), ("dex", 16), ("con_save", 2))),
        C.AddCombatant("Orc", stats=(("hp", 60), ("ac", 13), ("dex", 10))),
        C.AddCondition("c2", "Concentrating"),
        C.AddCondition("c2", "Bleeding"),
        C.AddCondition("c3", "Confused", dc=12),
        C.AddCondition("c3", "Burning", dice="2d4"),
        C.StartFight(),
        X.D20Attack("c1", "c3", bonus=5, damage="1d8", mod=3, type="slashing", advantage=("Help",)),
        X.ShieldBash("c1", "c3"),
        C.NextTurn(),
        X.D20Test("c2", resolves="concentration"),
        X.D20Test("c2", "save", "dex", dc=14, cover="half"),
        C.Damage("c3", dice="3d6", type="fire"),
        C.NextTurn(),
        X.D20Attack("c3", "c2", bonus=4, damage="1d12", mod=2, type="slashing", use="none"),
        X.D20Test("c3", "check", label="Athletics"),
        C.NextTurn(),
        X.D20Test("c3", resolves="Confused", bonus=1),
        C.NextTurn(),
        C.NextTurn(),
        X.Grapple("c1", "c3", bonus=5, target_bonus=3),
    ]


def play(seed: int, typed_from: list | None = None):
    """Play the script with the app rolling, or (typed_from: the first run's events per command) with
    every die typed in as the first run rolled it. Returns the state, the log, the events per command."""
    f = new_fight("d20", "Given", seed)
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
            per_cmd.append(None)  # a step this seed's dice made impossible
            continue
        per_cmd.append(ev)
        logs.extend(describe(e) for e in ev)
    return f, logs, per_cmd


@pytest.mark.parametrize("seed", [1, 7, 42, 2024])
def test_d20_entered_dice_and_seeded_dice_give_equal_states_and_logs(seed):
    seeded, seeded_log, seeded_ev = play(seed)
    typed, typed_log, typed_ev = play(seed, seeded_ev)
    assert typed.rng == Rng(seeded.rng.seed, 0)  # entered dice never move the random state
    assert seeded.rng.counter > 0
    assert msgspec.structs.replace(typed, rng=seeded.rng) == seeded
    assert [line.replace(" (entered)", "") for line in typed_log] == seeded_log
    assert sum(" (entered)" in line for line in typed_log) >= 10
    # the events are the same too, but for the marks
    strip = lambda evs: msgspec.json.encode(evs).replace(b',"entered":true', b"")  # noqa: E731
    assert strip([e for e in typed_ev if e]) == strip([e for e in seeded_ev if e])


def test_d20_impossible_entered_results_are_refused_with_a_message():
    f = new_fight("d20", "Refusals", 1)
    for cmd in script()[:8]:
        f, _ = apply(f, cmd)
    before = frozen_copy(f)
    cases = [
        (X.D20Attack("c1", "c3", use="none", given=(23,)), "23 is not a possible result on a d20"),
        (X.D20Attack("c1", "c3", use="none", given=(0,)), "0 is not a possible result on a d20"),
        (X.D20Attack("c1", "c3", use="none", given=(5, 6)), "needs 1 die result, got 2"),
        (
            X.D20Attack("c1", "c3", use="none", damage="1d8", given=(15,), damage_given=(9,)),
            "9 is not a possible result on a d8",
        ),
        (
            X.D20Attack("c1", "c3", use="none", damage="1d8", mod=3, given=(15,), damage_total=12),
            "12 is not a possible total",
        ),
        (X.D20Attack("c1", "c3", use="none", damage="1d8", given=(15,), damage_given=(3,), damage_total=3), "not both"),
        (X.D20Test("c1", "save", "con", given=(21,)), "21 is not a possible result on a d20"),
        (X.D20Test("c1", "save", "con", bonus=3, total=24), "24 is not a possible total for 1d20\\+3"),
        (C.NextTurn(rolls=(C.GivenRoll("c1", "Bleeding", (2,)),)), "No Bleeding roll was due for Bran"),
        (C.NextTurn(rolls=(C.GivenRoll("c9", "Bleeding", (2,)),)), "No combatant with id 'c9'"),
    ]
    for cmd, msg in cases:
        with pytest.raises(RuleError, match=msg):
            apply(f, cmd)
        assert frozen_copy(f) == before


def test_d20_entered_initiative_and_start_of_turn_dice_at_the_start_of_the_fight():
    f = new_fight("d20", "Start", 3)
    for cmd in script()[:7]:
        f, _ = apply(f, cmd)
    init = (("c1", (2,)), ("c2", (19,)), ("c3", (1,)))
    f2, ev = apply(f, C.StartFight(initiative=init, rolls=(C.GivenRoll("c2", "Bleeding", (4,)),)))
    assert f2.current == "c2" and f2.get("c2").hp == 18
    assert all(e.roll.entered for e in ev if isinstance(e, (E.InitiativeRolled, EffectRolled)))
    assert f2.rng == f.rng
    with pytest.raises(RuleError, match="No Burning roll was due"):
        apply(f, C.StartFight(initiative=init, rolls=(C.GivenRoll("c3", "Burning", (1, 1)),)))


def test_d20_other_rulesets_refuse_start_of_turn_dice():
    # every registered ruleset that rolls nothing at the start of a turn (nine-phase, warhammer, ...)
    for rules in [r for r in ruleset_ids() if not get_ruleset(r).takes_turn_rolls]:
        f = new_fight(rules)
        f, _ = apply(f, C.AddCombatant("A"))
        with pytest.raises(RuleError, match="no dice to enter"):
            apply(f, C.StartFight(rolls=(C.GivenRoll("c1", "Bleeding", (1,)),)))


def test_d20_a_companion_has_no_initiative_roll_to_enter():
    f = new_fight("d20", "Pets", 1)
    f, _ = apply(f, C.AddCombatant("Ranger", "pc", "party"))
    f, _ = apply(f, C.AddCombatant("Wolf", side="party", owner="c1"))
    with pytest.raises(RuleError, match="Wolf is a companion"):
        apply(f, C.StartFight(initiative=(("c1", (12,)), ("c2", (7,)))))
