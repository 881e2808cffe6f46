"""The parts of the library API the app builds on beyond the basics: ability-based d20 attacks, a
roster PC brought back to where it stood, a statblock kind registered by a ruleset from its own
files, and Improved Initiative's own export object."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import engine.library as L
from engine import apply, new_fight
from engine import commands as C
from engine import events as E
from engine.errors import RuleError
from engine.rules.d20 import combat as X
from saves import library as S

ROOT = Path(__file__).resolve().parents[2]


def test_a_d20_attack_by_ability_and_proficiency_is_worked_out_by_the_engine():
    sb = L.decode_entry(
        "d20",
        {
            "name": "Duelist",
            "hp": 20,
            "prof": 3,
            "abilities": {"dex": 16},
            "attacks": [
                {"name": "Rapier", "ability": "dex", "bonus": 1, "damage": [{"dice": "1d8", "type": "piercing"}]}
            ],
        },
    )
    rapier = L.attacks(sb)[0]
    assert L.attack_label(sb, rapier) == "Rapier +7, 1d8 piercing+3 (reach 5 ft)"
    fields = L.attack_fields(sb, rapier)
    assert fields["ability"] == "dex" and fields["bonus"] == 1
    f = new_fight("d20", seed=5)
    f, _ = apply(f, L.to_add(sb)[0])
    f, _ = apply(f, C.AddCombatant("Dummy", stats=(("ac", 1),)))
    f, _ = apply(f, C.StartFight(initiative=(("c1", (20,)), ("c2", (1,)))))
    _, ev = apply(f, X.D20Attack(who="c1", target="c2", given=(10,), damage_given=(5,), **fields))
    rolled = next(e for e in ev if isinstance(e, X.AttackRolled))
    assert rolled.roll.total == 17  # 10 + Dex 3 + proficiency 3 + 1
    dealt = next(e for e in ev if isinstance(e, E.Damaged))
    assert (dealt.who, dealt.amount, dealt.type) == ("c2", 8, "piercing")  # 5 on the die + Dex 3


@pytest.mark.parametrize(
    ("attack", "problem"),
    [
        ({"name": "Bolt", "ability": "int"}, "Strength or Dexterity"),
        ({"name": "Bow", "ability": "str", "kind": "ranged"}, "adds Dexterity"),
        ({"name": "Ray", "power": True}, "names its casting ability"),
        ({"name": "Club", "proficient": False}, "needs the ability"),
    ],
)
def test_ability_attacks_that_the_engine_would_refuse_are_refused_on_load(attack, problem):
    with pytest.raises(RuleError, match=problem):
        L.decode_entry("d20", {"name": "X", "hp": 1, "attacks": [attack]})


@pytest.mark.parametrize("rid", ["d20", "ninephase", "warhammer"])
def test_a_roster_pc_is_brought_back_where_it_stood(tmp_path, rid):
    base = {
        "d20": {"hp": 30, "gambit": 2},
        "ninephase": {"hp": 20, "grit": 6},
        "warhammer": {"wounds": 14, "fortune": 2},
    }
    sb = L.decode_entry(rid, {"name": "Ayla", **base[rid]})
    S.add_to_party(rid, [sb], tmp_path)
    m = S.read_party(rid, tmp_path)[0]
    f = new_fight(rid, seed=2)
    for cmd in S.member_commands(rid, m):
        f, _ = apply(f, cmd)
    pool = f.combatants[0].health[0].key
    res = f.combatants[0].resources[0].key if f.combatants[0].resources else ""
    f, _ = apply(f, C.Damage(who="c1", amount=3, pool=pool if rid == "ninephase" else ""))
    if res:
        f, _ = apply(f, C.SpendResource(who="c1", key=res))
    f, _ = apply(f, C.AddCondition(who="c1", name="Cursed", level=2))
    S.write_back(rid, S.changes(rid, S.read_party(rid, tmp_path), f), None, tmp_path)
    m = S.read_party(rid, tmp_path)[0]
    g = new_fight(rid, seed=9)
    for cmd in S.member_commands(rid, m):
        g, _ = apply(g, cmd)
    for cmd in S.restore_commands(m, "c1"):
        g, _ = apply(g, cmd)
    assert S.changes(rid, [m], g) == ()
    assert g.combatants[0].health == f.combatants[0].health and g.combatants[0].has("Cursed")


PROBE = """
import json, tomllib
import msgspec
import engine.library as L
from engine import apply, new_fight
from engine.commands import Command
from engine.library.base import Statblock, StatblockKind, register_kind
from plainlist.rules import Shove  # Plain list's package, found through its entry point

class PlainStatblock(Statblock, frozen=True, kw_only=True, tag="plainlist"):
    hp: int
    init: int = 10
    shoves: tuple[str, ...] = ()

class Shoving(msgspec.Struct, frozen=True):
    name: str

class PlainKind(StatblockKind):
    ruleset = "plainlist"
    struct = PlainStatblock
    def stats(self, sb): return (("hp", sb.hp), ("init", sb.init))
    def attacks(self, sb): return tuple(Shoving(n) for n in sb.shoves)
    def attack_command(self, sb): return Shove
    def attack_fields(self, sb, attack): return {}
    def attack_label(self, sb, attack): return attack.name
    def from_combatant(self, c): return PlainStatblock(name=c.name, hp=c.health[0].max, init=c.stat("init"))

register_kind(PlainKind())
entries = L.parse_toml("plainlist", '[[creature]]\\nname = "Brawler"\\nhp = 12\\nshoves = ["Shove"]\\n', "plain.toml")
f = new_fight("plainlist", seed=1)
f, _ = apply(f, L.to_add(entries[0], 2)[0])
print(json.dumps([L.kind_ids(), [c.name for c in f.combatants], [c.health[0].max for c in f.combatants]]))
"""


def test_a_fifth_ruleset_registers_its_own_statblock_kind():
    out = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        check=True,
    )
    kinds, names, hps = json.loads(out.stdout.strip().splitlines()[-1])
    assert "plainlist" in kinds and names == ["Brawler 1", "Brawler 2"] and hps == [12, 12]


def test_improved_initiatives_own_export_object_is_read(tmp_path):
    # the app's "Export" (Settings > Account) is one object of localStorage keys: a list of ids and
    # one key per creature holding its StatBlock (as a JSON string)
    block = {
        "Id": "x1",
        "Name": "Mire Toad",
        "HP": {"Value": 11, "Notes": "(2d8+2)"},
        "AC": {"Value": 12, "Notes": ""},
        "InitiativeModifier": 1,
        "Abilities": {"Str": 12, "Dex": 12, "Con": 12, "Int": 2, "Wis": 10, "Cha": 3},
        "Actions": [
            {
                "Name": "Bite",
                "Content": "Melee Weapon Attack: +3 to hit, reach 5 ft., one target. Hit: 5 (1d8 + 1) piercing damage.",
            }
        ],
    }
    export = {"ImprovedInitiative.Creatures": json.dumps(["x1"]), "ImprovedInitiative.Creatures.x1": json.dumps(block)}
    p = tmp_path / "ii-export.json"
    p.write_text(json.dumps(export), encoding="utf-8")
    done = S.import_file(p, "d20", tmp_path / "data")
    assert [sb.name for sb in done.result.creatures] == ["Mire Toad"]
    assert L.attack_fields(done.result.creatures[0], done.result.creatures[0].attacks[0])["damage"] == "1d8+1"


def test_the_issues_fight_party_four_goblins_and_a_bugbear_then_goblin_3_attacks(tmp_path):
    pcs = [
        L.decode_entry("d20", {"name": n, "hp": 20, "ac": 14, "kind": "pc", "side": "party"}) for n in ("Ayla", "Bren")
    ]
    S.add_to_party("d20", pcs, tmp_path)
    f = new_fight("d20", seed=11)
    for m in S.read_party("d20", tmp_path):
        for cmd in S.member_commands("d20", m):
            f, _ = apply(f, cmd)
    goblin = S.find("d20", "goblin", tmp_path).statblock
    bugbear = S.find("d20", "bugbear", tmp_path).statblock
    for sb, n in ((goblin, 4), (bugbear, 1)):
        cmd, _ = L.to_add(sb, n, "rolled")
        f, _ = apply(f, cmd)
    assert [c.name for c in f.combatants] == ["Ayla", "Bren", "Goblin 1", "Goblin 2", "Goblin 3", "Goblin 4", "Bugbear"]
    f, _ = apply(f, C.StartFight())
    g3 = next(c for c in f.combatants if c.name == "Goblin 3")
    while f.current != g3.id:
        f, _ = apply(f, C.NextTurn())
    first = L.attacks(goblin)[0]
    fields = L.attack_fields(goblin, first)
    f, ev = apply(f, L.attack_command(goblin)(who=g3.id, target="c1", given=(20,), **fields))
    rolled = next(e for e in ev if isinstance(e, X.AttackRolled))
    assert rolled.label == "Jagged Knife" and rolled.outcome == "critical"
    assert next(e for e in ev if isinstance(e, E.Damaged)).type == "piercing"
