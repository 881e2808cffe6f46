"""Issue 7 for nine-phase: dice typed in from the table behave exactly like dice the app rolls."""

from __future__ import annotations

import msgspec
import pytest

from engine import RuleError, apply, describe, new_fight
from engine import commands as C
from engine.dice import DiceRoll, Rng
from engine.rules.ninephase import catalog as K
from engine.rules.ninephase.commands import Activity
from engine.state import Fight


def _dice(events) -> list[DiceRoll]:
    out = []
    for e in events:
        for name in e.__struct_fields__:
            v = getattr(e, name)
            if isinstance(v, DiceRoll):
                out.append(v)
    return out


def _unmark(e):
    """The same event with every roll's `entered` mark cleared."""
    changes = {}
    for name in e.__struct_fields__:
        v = getattr(e, name)
        if isinstance(v, DiceRoll):
            changes[name] = msgspec.structs.replace(v, entered=False)
    return msgspec.structs.replace(e, **changes) if changes else e


def setup() -> Fight:
    f = new_fight("ninephase", seed=11)
    for name in ("Aldric", "Orc"):
        f, _ = apply(f, C.AddCombatant(name, stats=(("hp", 20), ("grit", 4))))
    f, _ = apply(f, C.StartFight())
    f, _ = apply(f, C.NextTurn())
    f, _ = apply(f, Activity("c1", "Bless", cost=3, earliest=2, channel=True))
    f, _ = apply(f, C.NextTurn())
    return f


SCRIPT = [
    C.Damage("c2", dice="2d6+1"),
    C.SavingThrow("c1", dice="d20", dc=12),
    C.Damage("c1", dice="1d8"),
    C.Heal("c2", dice="1d4"),
    C.Roll("3d6", label="morale"),
]


def test_entered_dice_give_the_same_fight_and_log_as_seeded_dice_with_the_same_numbers():
    seeded, log_seeded, ev_seeded = setup(), [], []
    given_script = []
    for cmd in SCRIPT:
        seeded, ev = apply(seeded, cmd)
        ev_seeded.extend(ev)
        log_seeded.extend(describe(e) for e in ev)
        (r,) = _dice(ev)
        assert not r.entered
        dice = tuple(x for t in r.terms for x in t.rolls)
        given_script.append(msgspec.structs.replace(cmd, given=dice))
    entered, log_entered, ev_entered = setup(), [], []
    for cmd in given_script:
        entered, ev = apply(entered, cmd)
        ev_entered.extend(ev)
        log_entered.extend(describe(e) for e in ev)
    assert all(r.entered for r in _dice(ev_entered))
    # a typed-in roll never moves the fight's random source
    assert entered.rng == setup().rng and seeded.rng != entered.rng
    assert msgspec.structs.replace(seeded, rng=Rng()) == msgspec.structs.replace(entered, rng=Rng())
    assert [_unmark(e) for e in ev_entered] == ev_seeded
    assert [line.replace(" (entered)", "") for line in log_entered] == log_seeded
    assert any("(entered)" in line for line in log_entered)
    # the channel was interrupted the same way in both
    assert entered.get("c1").channels[0].status == "interrupted"


@pytest.mark.parametrize(
    ("cmd", "words"),
    [
        (C.Damage("c2", dice="2d6", given=(3, 7)), "7 is not a possible result on a d6"),
        (C.Damage("c2", dice="2d6", given=(3,)), "needs 2 die results, got 1"),
        (C.SavingThrow("c1", dice="d20", given=(23,)), "23 is not a possible result on a d20"),
        (C.SavingThrow("c1", dice="d20", given=(0,)), "0 is not a possible result"),
        (C.Damage("c2", amount=3, given=(3,)), "need a dice expression"),
    ],
)
def test_impossible_entered_results_are_refused_and_change_nothing(cmd, words):
    f = setup()
    with pytest.raises(RuleError) as err:
        apply(f, cmd)
    assert words in str(err.value)
    assert f == setup()


def test_a_catalog_activity_and_its_dice_replay_from_a_journal():
    # the commands a save file would hold decode back into the same commands
    cmds = [K.DoActivity("c1", "Weapon attack", speed=2), C.Damage("c2", dice="1d6", given=(4,))]
    dec = msgspec.json.Decoder(C.command_union())
    assert [dec.decode(msgspec.json.encode(c)) for c in cmds] == cmds
