"""saves/script_lines.py: the script vocabulary's `add ... from` and attacks' `weapon`, resolved
against the fight as it stands (issue 13, item 7)."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest

import engine.library as L
from engine import apply, new_fight
from engine import commands as C
from engine.errors import RuleError
from engine.rules.d20.combat import D20Attack
from saves import library as S
from saves import script_lines as SL


def run(f, *lines, folder=None):  # type: ignore[no-untyped-def]
    for raw in lines:
        obj = msgspec.json.decode(raw)
        cmd = SL.resolve(obj, f, folder)
        before = f
        f, events = apply(f, cmd)
        for extra in SL.follow_up(obj, before, events):
            f, _ = apply(f, extra)
    return f


@pytest.fixture()
def folder(tmp_path: Path) -> Path:
    return tmp_path / "data"


def test_add_from_the_library_with_count_and_fields_that_win(folder: Path) -> None:
    f = new_fight("d20", seed=4)
    lines = (b'{"cmd":"add","from":"goblin","count":4}', b'{"cmd":"add","from":"Bugbear","side":"neutral"}')
    f = run(f, *lines, folder=folder)
    goblin = S.find("d20", "Goblin", folder).statblock
    assert [c.name for c in f.combatants] == ["Goblin 1", "Goblin 2", "Goblin 3", "Goblin 4", "Bugbear"]
    assert all(L.statblock_of("d20", c) == goblin and c.hp == goblin.hp for c in f.combatants[:4])
    assert f.combatants[4].side == "neutral"


def test_rolled_health_is_reproducible_and_leaves_the_fights_dice_alone(folder: Path) -> None:
    line = b'{"cmd":"add","from":"Goblin","count":4,"health":"rolled"}'
    a = run(new_fight("d20", seed=4), line, folder=folder)
    b = run(new_fight("d20", seed=4), line, folder=folder)
    hps = [c.health[0].max for c in a.combatants]
    assert hps == [c.health[0].max for c in b.combatants] and len(set(hps)) > 1
    assert a.rng == new_fight("d20", seed=4).rng  # the fight's own stream was not used
    # the fight's setting is the default when the line says nothing
    f, _ = apply(new_fight("d20", seed=4), C.Setting("add_health", "rolled"))
    cmd = SL.resolve({"cmd": "add", "from": "Goblin", "count": 2}, f, folder)
    assert isinstance(cmd, C.AddCombatant) and len(cmd.copies) == 2
    assert SL.resolve({"cmd": "add", "from": "Goblin", "health": "fixed"}, f, folder).copies == ()


def test_weapon_fills_the_attack_and_fields_in_the_line_win(folder: Path) -> None:
    f = new_fight("d20", seed=4)
    f = run(f, b'{"cmd":"add","name":"Ayla","kind":"pc","side":"party","stats":[["hp",30]]}')
    f = run(f, b'{"cmd":"add","from":"Goblin"}', folder=folder)
    cmd = SL.resolve({"cmd": "d20_attack", "who": "c2", "target": "c1", "weapon": "sling", "bonus": 6}, f, folder)
    assert isinstance(cmd, D20Attack)
    assert (cmd.label, cmd.kind, cmd.damage, cmd.type, cmd.bonus) == ("Sling", "ranged", "1d4+2", "bludgeoning", 6)


def test_extra_damage_parts_follow_a_hit(folder: Path) -> None:
    f = new_fight("d20", seed=4)
    f = run(f, b'{"cmd":"add","name":"Ayla","kind":"pc","side":"party","stats":[["hp",40],["ac",5]]}')
    f = run(f, b'{"cmd":"add","from":"Cinder Hound"}', folder=folder)
    f = run(f, b'{"cmd":"start"}')
    line = {"cmd": "d20_attack", "who": "c2", "target": "c1", "weapon": "Smouldering Bite", "use": "none"}
    line["given"] = [15]
    cmd = SL.resolve(line, f, folder)
    after, events = apply(f, cmd)
    extra = SL.follow_up(line, f, events)
    assert extra == [C.Damage("c1", dice="1d4", type="fire", source="c2")]
    crit = SL.follow_up({**line, "given": [20]}, f, apply(f, SL.resolve({**line, "given": [20]}, f, folder))[1])
    assert crit == [C.Damage("c1", dice="2d4", type="fire", source="c2")]
    missed = {**line, "given": [1]}
    assert SL.follow_up(missed, f, apply(f, SL.resolve(missed, f, folder))[1]) == []
    assert after.get("c1").health[0].current < 40


@pytest.mark.parametrize(
    ("line", "problem"),
    [
        ({"cmd": "add", "from": "Nobody"}, "no d20 statblock called 'Nobody'"),
        ({"cmd": "add", "from": ""}, '"from" names a library entry'),
        ({"cmd": "add", "from": "Goblin", "count": "four"}, '"count" is a whole number'),
        ({"cmd": "add", "from": "Goblin", "count": 99}, "between 1 and 50"),
        ({"cmd": "add", "from": "Goblin", "health": "average"}, '"fixed" or "rolled"'),
        ({"cmd": "add", "from": "Goblin", "sidee": "party"}, "not a command"),
        ({"cmd": "d20_attack", "who": "c9", "target": "c1", "weapon": "Sling"}, "No combatant with id 'c9'"),
        ({"cmd": "d20_attack", "who": "c1", "target": "c2", "weapon": "Sling"}, "Ayla has no statblock"),
        ({"cmd": "d20_attack", "who": "c2", "target": "c1", "weapon": "Axe"}, "no attack 'Axe'"),
        ({"cmd": "d20_attack", "who": "c2", "target": "c1", "weapon": 3}, '"weapon" names one'),
        ({"cmd": "cosmere_attack", "who": "c2", "targets": ["c1"], "weapon": "Sling"}, "are d20_attack commands"),
    ],
)
def test_bad_lines_are_one_line_refusals(line, problem, folder: Path) -> None:  # type: ignore[no-untyped-def]
    f = new_fight("d20", seed=4)
    f = run(f, b'{"cmd":"add","name":"Ayla","kind":"pc","side":"party"}')
    f = run(f, b'{"cmd":"add","from":"Goblin"}', folder=folder)
    with pytest.raises(RuleError) as info:
        apply(f, SL.resolve(line, f, folder))
    assert problem in str(info.value) and "\n" not in str(info.value)


def test_uses_library_and_plain_lines() -> None:
    assert SL.uses_library({"cmd": "add", "from": "Goblin"})
    assert SL.uses_library({"cmd": "wh_attack", "who": "c1", "target": "c2", "weapon": "Sword"})
    assert not SL.uses_library({"cmd": "add", "name": "Goblin"}) and not SL.uses_library([1])
    f = new_fight("d20")
    assert SL.resolve({"cmd": "add", "name": "Bob"}, f) == C.AddCombatant("Bob")


def test_every_starter_entry_of_every_ruleset_adds_and_attacks_by_weapon(folder: Path) -> None:
    targets = {"d20": "target", "wh_attack": "target", "cosmere_attack": "targets"}
    for rid in ("d20", "cosmere", "warhammer"):
        for sb in L.starter(rid):
            f = new_fight(rid, seed=1)
            f = run(f, b'{"cmd":"add","name":"Foe","kind":"pc","side":"party"}')
            f = run(f, msgspec.json.encode({"cmd": "add", "from": sb.name}), folder=folder)
            f = run(f, b'{"cmd":"start"}')
            a = L.attacks(sb)[0]
            tag = L.attack_command(sb).__struct_config__.tag
            key = targets.get(tag, "target")
            line = {"cmd": tag, "who": "c2", key: ["c1"] if key == "targets" else "c1", "weapon": a.name}
            cmd = SL.resolve(line, f, folder)
            assert type(cmd) is L.attack_command(sb)
            expect = {k: v for k, v in L.attack_fields(sb, a).items() if k != "extra"}
            assert {k: getattr(cmd, k) for k in expect} == expect


def test_the_demos_take_their_foes_from_the_bundled_bestiary(folder: Path) -> None:
    from saves.demo import demo_fight

    for rid in ("d20", "cosmere", "warhammer", "ninephase"):
        foes = [c for c in demo_fight(rid).combatants if c.side == "enemy"]
        assert foes and all(L.statblock_of(rid, c) is not None for c in foes)
        for c in foes:
            sb = L.statblock_of(rid, c)
            assert sb in L.starter(rid) and L.attacks(sb)  # each with its attacks (nine-phase: activities)
            assert c.health[0].max == L.kind_of(sb).health(sb)
    # the nine-phase orcs' both tracks, as the bestiary gives them
    for c in demo_fight("ninephase").combatants:
        if c.side == "enemy":
            sb = L.statblock_of("ninephase", c)
            assert [(p.key, p.max) for p in c.health] == [("hp", sb.hp), ("grit", sb.grit)]
