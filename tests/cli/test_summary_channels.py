"""The script runner's summary shows a nine-phase channel with where it stands: under way, resolved or
interrupted, and the round its start or end falls in when it runs over a round change."""

from __future__ import annotations

from engine import apply, new_fight
from engine import commands as C
from engine.rules.ninephase.commands import Activity
from tui.cli import summary


def _fight():  # type: ignore[no-untyped-def]
    f = new_fight("ninephase", seed=1)
    f, _ = apply(f, C.AddCombatant("Mirelle", stats=(("hp", 10), ("grit", 5))))
    f, _ = apply(f, C.StartFight())
    return f


def _to(f, phase):  # type: ignore[no-untyped-def]
    while f.phase != phase:
        f, _ = apply(f, C.NextTurn())
    return f


def test_a_channel_under_way_then_interrupted() -> None:
    f = _to(_fight(), 3)
    f, _ = apply(f, Activity("c1", "Fireball", cost=3, earliest=3, channel=True))
    assert summary(f)["combatants"]["c1"]["channels"] == ["Fireball 3-6"]
    f = _to(f, 4)
    f, _ = apply(f, C.Damage("c1", amount=1))
    assert summary(f)["combatants"]["c1"]["channels"] == ["Fireball 3-6 interrupted in phase 4"]


def test_a_channel_over_the_round_change() -> None:
    f = _to(_fight(), 8)
    f, _ = apply(f, Activity("c1", "Call Storm", cost=3, earliest=8, channel=True, across_rounds=True))
    assert summary(f)["combatants"]["c1"]["channels"] == ["Call Storm 8-2 (next round)"]
    f = _to(_to(f, 9), 1)
    assert summary(f)["combatants"]["c1"]["channels"] == ["Call Storm 8 (last round)-2"]
    f = _to(f, 3)
    assert summary(f)["combatants"]["c1"]["channels"] == ["Call Storm 8 (last round)-2 resolved in phase 2"]
