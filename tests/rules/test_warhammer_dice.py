"""Issue 7 for Warhammer: every roll of the attack sequence, and the Initiative test, can be typed in
from the table. The same fight played with entered dice and with seeded dice that fall the same way
ends in equal states and equal logs, except for the `entered` marks."""

from __future__ import annotations

import msgspec
import pytest

from engine import RuleError, apply, describe, new_fight
from engine import commands as C
from engine import events as E
from engine.dice import DiceRoll, Rng
from engine.rules.warhammer import combat as W
from engine.state import Fight

SEED = 4  # a seed whose dice bring every kind of roll below (checked by the test)


def build() -> Fight:
    f = new_fight("warhammer", seed=SEED)
    for cmd in (
        C.AddCombatant(
            "Ulfberth",
            kind="pc",
            side="party",
            flags=("twohanded",),
            stats=(
                ("wounds", 14),
                ("ws", 55),
                ("ag", 35),
                ("i", 38),
                ("t", 45),
                ("wp", 40),
                ("resolve", 1),
                ("ap_body", 2),
            ),
        ),
        C.AddCombatant(
            "Goblin", flags=("minion",), stats=(("wounds", 4), ("ws", 35), ("ag", 35), ("i", 30), ("t", 25))
        ),
        C.AddCombatant(
            "Troll",
            flags=("champion",),
            stats=(("wounds", 6), ("ws", 45), ("ag", 20), ("i", 15), ("t", 20), ("wp", 40), ("ap_head", 1)),
        ),
    ):
        f, _ = apply(f, cmd)
    return f


def decide(f: Fight) -> C.Command:
    """The GM's next command, from the state alone (so both plays take the same decisions)."""
    if not f.current:
        return C.NextTurn()
    a = f.get(f.current)
    if a.economy.actions != 1:
        return C.NextTurn()
    foes = [c for c in f.combatants if c.side != a.side and not W.out_of_action(c)]
    if not foes:
        return C.NextTurn()
    t = foes[0]
    try:
        W.spend_defence(t, "parry")
        defence = "parry"
    except RuleError:
        defence = ""
    return W.Attack(a.id, t.id, weapon="Axe", damage=4 if a.side == "party" else 3, defence=defence)  # type: ignore[arg-type]


def dice(r: DiceRoll) -> tuple[int, ...]:
    return tuple(x for t in r.terms for x in t.rolls)


def entered_version(cmd: C.Command, events: tuple[E.Event, ...]) -> C.Command:
    """The command with the table's dice: exactly the numbers the app rolled."""
    if isinstance(cmd, C.StartFight):
        return msgspec.structs.replace(
            cmd, initiative=tuple((e.who, dice(e.roll)) for e in events if isinstance(e, E.InitiativeRolled))
        )
    if isinstance(cmd, W.Attack):
        given = {}
        for e in events:
            field = {
                W.AttackTested: "given_attack",
                W.FumbleRolled: "given_fumble",
                W.DefenceTested: "given_defence",
                E.Damaged: "given_damage",
                W.CriticalRolled: "given_critical",
                W.WillpowerTested: "given_willpower",
            }.get(type(e))
            if field:
                assert field not in given
                given[field] = dice(e.roll)  # type: ignore[attr-defined]
        return msgspec.structs.replace(cmd, **given)
    return cmd


def unmark(e: E.Event) -> E.Event:
    changes = {
        k: msgspec.structs.replace(getattr(e, k), entered=False)
        for k in e.__struct_fields__
        if isinstance(getattr(e, k), DiceRoll)
    }
    return msgspec.structs.replace(e, **changes) if changes else e


def test_entered_dice_give_the_same_fight_and_log_as_seeded_dice_with_the_same_numbers():
    seeded = build()
    played: list[tuple[C.Command, Fight, tuple[E.Event, ...]]] = []
    cmd: C.Command = C.StartFight()
    for _ in range(40):
        seeded, ev = apply(seeded, cmd)
        played.append((cmd, seeded, ev))
        cmd = decide(seeded)
    kinds = {type(e) for _, _, ev in played for e in ev}
    assert {W.AttackTested, W.DefenceTested, E.Damaged, W.CriticalRolled, W.FumbleRolled, W.WillpowerTested} <= kinds
    assert any(
        isinstance(e, W.DefenceTested) and e.outcome == "the hit is cancelled" for _, _, ev in played for e in ev
    )

    entered = build()
    for cmd, state, ev in played:
        typed = entered_version(cmd, ev)
        entered, ev2 = apply(entered, typed)
        assert entered.rng == build().rng  # typed-in dice never move the random source
        assert msgspec.structs.replace(entered, rng=Rng()) == msgspec.structs.replace(state, rng=Rng())
        assert tuple(unmark(e) for e in ev2) == ev
        log, log2 = [describe(e) for e in ev], [describe(e) for e in ev2]
        assert [x.replace(" (entered)", "") for x in log2] == log
        rolls = [getattr(e, k) for e in ev2 for k in e.__struct_fields__ if isinstance(getattr(e, k), DiceRoll)]
        assert all(r.entered for r in rolls)


def started() -> Fight:
    f, _ = apply(build(), C.StartFight(initiative=(("c1", (5,)), ("c2", (50,)), ("c3", (90,)))))
    return f


@pytest.mark.parametrize(
    ("cmd", "words"),
    [
        (W.Attack("c1", "c2", given_attack=(101,)), "Attack roll: 101 is not a possible result on a d100"),
        # (a 0 typed in is the dice's "00", 100: see the test below)
        (W.Attack("c1", "c2", given_attack=(-1,)), "Attack roll: -1 is not a possible result on a d100"),
        (W.Attack("c1", "c2", given_attack=(12, 3)), "Attack roll: '1d100' needs 1 die result, got 2"),
        (W.Attack("c1", "c2", given_damage=(11,)), "Damage die: 11 is not a possible result on a d10"),
        (W.Attack("c1", "c2", defence="parry", given_defence=(-4,)), "Defence roll: -4 is not a possible"),
        (W.Attack("c1", "c2", given_critical=(101,)), "Critical roll: 101"),
        (W.Attack("c1", "c2", given_fumble=(200,)), "Fumble roll: 200"),
        (W.Attack("c1", "c2", given_willpower=(-3,)), "Willpower roll: -3"),
        (W.Critical("c2", given=(101,)), "Critical roll: 101"),
    ],
)
def test_impossible_entered_results_are_refused_and_change_nothing(cmd, words):
    f = started()
    before = msgspec.json.encode(f)
    with pytest.raises(RuleError) as err:
        apply(f, cmd)
    assert words in str(err.value)
    assert msgspec.json.encode(f) == before


def test_an_impossible_initiative_roll_is_refused_naming_whose():
    with pytest.raises(RuleError, match="Goblin's Initiative roll: 101 is not a possible result on a d100"):
        apply(build(), C.StartFight(initiative=(("c2", (101,)),)))


def test_both_digits_of_an_entered_d100_count():
    f = started()
    # 45 entered: not a double, reversed 54 -> right arm; 44: a double (critical), reversed 44 -> head
    _, ev = apply(f, W.Attack("c1", "c2", given_attack=(45,), given_damage=(1,)))
    assert [e.result for e in ev if isinstance(e, W.AttackTested)] == ["hit"]
    assert "Right (main) arm (reversed 54)" in next(e for e in ev if isinstance(e, E.Damaged)).detail
    _, ev = apply(f, W.Attack("c1", "c2", given_attack=(44,), given_damage=(1,), given_critical=(10,)))
    assert [e.result for e in ev if isinstance(e, W.AttackTested)] == ["critical hit"]
    assert next(e for e in ev if isinstance(e, W.CriticalRolled)).location == "head"
    # 100 (00) is a double and always misses: a fumble
    _, ev = apply(f, W.Attack("c1", "c2", given_attack=(100,), given_fumble=(1,)))
    assert any(isinstance(e, W.FumbleRolled) for e in ev)
    # typed as the dice show it, 00 (a 0) is the same 100; a 0 on the damage d10 is a 10
    _, ev0 = apply(f, W.Attack("c1", "c2", given_attack=(0,), given_fumble=(1,)))
    assert [describe(e).replace(" (entered)", "") for e in ev0] == [
        describe(e).replace(" (entered)", "") for e in ev
    ]
    _, ev = apply(f, W.Attack("c1", "c2", given_attack=(45,), given_damage=(0,)))
    assert "die 10" in next(e for e in ev if isinstance(e, E.Damaged)).detail
