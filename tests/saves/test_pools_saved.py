"""A fight with a statblock's limited abilities (issue 24) saved and opened again: the pools, their
recharge and refresh, the recharge owed, the d20 lair round and the immunities are state, so the file
keeps them, and undo and redo across the reopening give them back."""

from __future__ import annotations

from pathlib import Path

from engine import commands as C
from engine import new_fight
from engine.area import AreaEffect, AreaTarget
from engine.pools import LEGENDARY, LEGENDARY_RESISTANCE, find_pool
from engine.state import Due, Pool
from saves.session import Session
from tests.saves.util import assert_same_history


def test_pools_and_dues_survive_the_file(tmp_path: Path) -> None:
    path = tmp_path / "dragon.fracas"
    s = Session.create(path, new_fight("d20", "Lair", 7))
    s.apply(
        C.AddCombatant(
            "Red Dragon",
            stats=(("hp", 200), ("dex", 10)),
            immune=("fire",),
            condition_immune=("Frightened",),
            resources=(Pool("Fire Breath", 1, 1, recharge=5), Pool(LEGENDARY, 3, 3, refresh=True),
                       Pool(LEGENDARY_RESISTANCE, 3, 3)),
        )
    )
    s.apply(C.AddCombatant("Ana", kind="pc", side="party", stats=(("hp", 60),)))
    s.apply(C.StartFight(initiative=(("c1", (20,)), ("c2", (2,)))))
    s.apply(AreaEffect(targets=(AreaTarget("c2", given=(3,)),), dice="18d6", type="fire", save="dex", dc=21,
                       source="c1", ability="Fire Breath", spend=(("Fire Breath", 1),)))
    s.apply(C.NextTurn())
    s.apply(C.UseAbility("c1", "Tail Attack", spend=((LEGENDARY, 2),), act="legendary"))
    s.apply(C.UseAbility("c1", "Magma", act="lair"))
    s.apply(C.NextTurn())  # round 2, the dragon's turn: the legendary actions back, the recharge owed
    s.apply(C.SavingThrow("c1", "d20", 25, given=(2,), legendary=True))
    before = s.state
    dragon = before.get("c1")
    assert dragon.due == (Due("recharge Fire Breath", 5, "d6"),)
    s.close()

    again = Session.open(path)
    try:
        assert again.state == before
        assert_same_history(s.history, again.history)
        d = again.state.get("c1")
        assert [(p.key, p.current, p.recharge, p.refresh) for p in d.resources] == [
            ("Fire Breath", 0, 5, False), (LEGENDARY, 3, 0, True), (LEGENDARY_RESISTANCE, 2, 0, False)
        ]
        assert d.due == dragon.due and d.immune == ("fire",) and d.condition_immune == ("Frightened",)
        assert d.economy.lair == 1
        # the owed roll is settled in the reopened fight, and undo gives it back
        again.apply(C.Recharge("c1", "Fire Breath", given=6))
        assert find_pool(again.state.get("c1"), "Fire Breath").current == 1 and not again.state.get("c1").due
        again.undo()
        assert again.state == before
        again.undo()  # the Legendary Resistance spent
        assert find_pool(again.state.get("c1"), LEGENDARY_RESISTANCE).current == 3
    finally:
        again.close()
