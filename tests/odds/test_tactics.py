"""Each ruleset's auto-play makes the choices docs/odds.md says it makes (engine/rules/<id>/tactics.py)."""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from engine import apply
from engine import commands as C
from engine.dice import Rng
from engine.odds.play import Game
from engine.odds.runs import tactics_for
from engine.rules.cosmere import combat as cosmere
from engine.rules.cosmere import tactics as cosmere_tactics
from engine.rules.cosmere.commands import ChooseSpeeds
from engine.rules.warhammer import combat as warhammer
from saves.demo import demo_fight
from tests.odds.support import fight, started

DRAKE: dict[str, Any] = {
    "name": "Drake", "hp": 60, "ac": 15,
    "attacks": [{"name": "Bite", "bonus": 6, "damage": [{"dice": "1d10+4", "type": "piercing"}]}],
    "actions": [{"name": "Fire Breath", "recharge": 5, "save": "dex", "dc": 14, "targets": 0,
                 "damage": [{"dice": "6d6", "type": "fire"}]}],
}
HERO: dict[str, Any] = {"name": "Hero", "kind": "pc", "hp": 40, "ac": 14,
                        "attacks": [{"name": "Sword", "bonus": 5, "damage": [{"dice": "1d8+3"}]}]}


def breath_left(g: Game) -> int:
    p = g.f.get("c1").pool("Fire Breath")
    assert p is not None
    return p.current


def test_d20_an_area_is_used_when_it_catches_two_or_more() -> None:
    tactics = tactics_for("d20")
    for heroes, breathes in ((1, False), (2, False), (4, True)):
        # an area catches half the enemies standing, rounded up: 1 of 1, 1 of 2, 2 of 4
        f = fight("d20", ("enemy", DRAKE, 1), ("party", HERO, heroes))
        f = started(f, "c1", "c2", (20, 1))
        g = Game(f, tactics, {})
        tactics.step(g)
        assert (breath_left(g) == 0) is breathes, heroes


def test_cosmere_reads_a_miss_from_the_very_die_the_attack_rolls() -> None:
    f = demo_fight("cosmere")
    f, _ = apply(f, C.StartFight())
    f, _ = apply(f, ChooseSpeeds(fast=tuple(c.id for c in f.combatants if "boss" not in c.flags)))
    f, _ = apply(f, C.NextTurn())
    who = f.get(f.current)
    foe = next(c for c in f.combatants if c.side != who.side)
    cmd = cosmere.CosmereAttack(who.id, (foe.id,), modifier=3, damage="1d8")
    misses = 0
    for seed in range(60):
        g = replace(f, rng=Rng(seed, 0))
        preview = cosmere.outcome_preview(g, cmd)
        expected = tuple(r.target for r in preview if r.outcome == "miss")
        assert cosmere_tactics._missed(g, cmd) == expected
        misses += bool(expected)
    assert 10 < misses < 50


def test_cosmere_goes_fast_unless_a_third_action_adds_damage() -> None:
    f = demo_fight("cosmere")  # Kaladin: one Strike; the Stormsinger (a boss): a 2-action attack and a Strike
    tactics = tactics_for("cosmere")
    g = Game(f, tactics, {})
    assert isinstance(tactics, cosmere_tactics.CosmereTactics)
    assert tactics.goes_fast(g, f.get("c1"))
    singer = replace(f.get("c6"), flags=())
    assert not tactics.goes_fast(g, singer)


def test_warhammer_parries_with_the_better_skill_and_only_dodges_missiles() -> None:
    f = demo_fight("warhammer")
    f, _ = apply(f, C.StartFight())
    tactics = tactics_for("warhammer")
    g = Game(f, tactics, {})
    ulfberth = f.get("c1")  # WS 48, Ag 35: parries a blow
    melee = warhammer.Attack("c6", "c1", weapon="Massive Club", damage=10)
    assert tactics._defence(g, melee) == "parry"  # type: ignore[attr-defined]
    shot = warhammer.Attack("c3", "c1", weapon="Short Bow", kind="missile", skill="bs", damage=7)
    assert tactics._defence(g, shot) == "dodge"  # type: ignore[attr-defined]
    g.f = replace(f, combatants=tuple(replace(c, flags=("unarmed",)) if c.id == "c1" else c for c in f.combatants))
    assert tactics._defence(g, melee) == "dodge"  # type: ignore[attr-defined]
    assert ulfberth.stat("ws") > ulfberth.stat("ag")


def test_ninephase_plans_its_round_in_the_earliest_phases_it_may_take() -> None:
    mage = {"name": "Mage", "hp": 10, "grit": 2, "resources": [{"name": "sparks", "max": 2}],
            "activities": [{"name": "Staff", "weapon": True, "speed": 5},
                           {"name": "Blast", "channel": True, "phase": 2, "cost": 2, "resource": "sparks"},
                           {"name": "Rally", "master": True, "phase": 1}],
            "actions": [{"name": "Blast", "damage": [{"dice": "3d6"}]}]}
    f = fight("ninephase", ("party", mage, 1), ("enemy", {"name": "Orc", "hp": 30, "grit": 0}, 1))
    f, _ = apply(f, C.StartFight())
    tactics = tactics_for("ninephase")
    g = Game(f, tactics, {})
    plan = tactics._plan(g, f.get("c1"))  # type: ignore[attr-defined]
    # the channel (the most damage) in the phase it is locked to, the weapon at its Speed Factor:
    # 3 actions in all; Rally deals nothing and is left out
    assert {p: m.name for p, m in plan.items()} == {2: "Blast", 5: "Staff"}
    tactics.step(g)  # phase 1: nothing
    tactics.step(g)  # phase 2: the channel begins
    assert [ch.activity for ch in g.f.get("c1").channels] == ["Blast"]
    for _ in range(2):
        tactics.step(g)  # phases 3 and 4: it resolves in phase 4, dealing its damage
    assert g.f.get("c2").hp < 30


class Recording(Game):
    """A run that keeps the commands the auto-play sends."""

    def do(self, cmd: C.Command) -> Any:
        self.__dict__.setdefault("sent", []).append(cmd)
        return super().do(cmd)


def targets_of(g: Game) -> list[str]:
    return [c.target for c in g.__dict__.get("sent", []) if hasattr(c, "target")]


def test_d20_attacks_the_most_hurt_enemy_it_can_attack() -> None:
    f = fight("d20", ("party", HERO, 1), ("enemy", DRAKE | {"actions": []}, 2))
    f = started(f, "c1", "c2", (20, 1))
    f, _ = apply(f, C.Damage("c3", 30))  # Drake 2 is the most hurt
    tactics = tactics_for("d20")
    g = Recording(f, tactics, {})
    tactics.step(g)
    assert targets_of(g) == ["c3"]
    f, _ = apply(f, C.AddCondition("c1", "Charmed", source="c3"))  # Charmed by it: the other one
    g = Recording(f, tactics, {})
    tactics.step(g)
    assert targets_of(g) == ["c2"] and g.refused == 0
