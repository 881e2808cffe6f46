"""The user's library, the party roster, the importers (sample files in the real formats) and the
`library`/`party` command-line functions."""

from __future__ import annotations

import argparse
import io
import json
import re
import time

import pytest

import engine.library as L
from engine import apply, new_fight
from engine import commands as C
from engine.library.importers.improved_initiative import parse_attack
from engine.state import Duration
from saves import library as S
from tui import library_cli

# Improved Initiative's StatBlock, as published in its repository
# (github.com/cynicaloptimist/improved-initiative, common/StatBlock.ts): Name, HP/AC {Value, Notes},
# InitiativeModifier, Abilities {Str..Cha}, Saves [{Name, Modifier}], Damage* [str], Actions
# [{Name, Content}], Player ("player" for a PC).
II_MONSTER = {
    "Id": "ogre-1",
    "Name": "Hill Brute",
    "Source": "",
    "Type": "Large giant",
    "HP": {"Value": 59, "Notes": "(7d10 + 21)"},
    "AC": {"Value": 11, "Notes": "(hide armor)"},
    "InitiativeModifier": -1,
    "Speed": ["40 ft."],
    "Abilities": {"Str": 19, "Dex": 8, "Con": 16, "Int": 5, "Wis": 7, "Cha": 7},
    "Saves": [{"Name": "Con", "Modifier": 5}],
    "DamageVulnerabilities": [],
    "DamageResistances": ["cold"],
    "DamageImmunities": ["poison"],
    "ConditionImmunities": [],
    "Skills": [],
    "Senses": [],
    "Languages": [],
    "Challenge": "2",
    "Traits": [{"Name": "Thick Skull", "Content": "Hard to stun."}],
    "Actions": [
        {
            "Name": "Greatclub",
            "Content": "Melee Weapon Attack: +9 to hit, reach 10 ft., one target. "
            "Hit: 12 (2d6 + 5) bludgeoning damage.",
        },
        {
            "Name": "Javelin",
            "Content": "Ranged Weapon Attack: +6 to hit, range 30/120 ft., one target. "
            "Hit: 11 (2d6 + 4) piercing damage plus 3 (1d6) fire damage.",
        },
        {"Name": "Bellow", "Content": "Each creature within 30 feet must make a DC 12 Wisdom saving throw."},
    ],
    "Reactions": [],
    "Description": "",
    "Player": "",
    "Version": "2.0.0",
    "ImageURL": "",
}
II_PC = {
    "Name": "Ayla",
    "HP": {"Value": 24, "Notes": ""},
    "AC": {"Value": 16, "Notes": ""},
    "InitiativeModifier": 3,
    "Abilities": {"Str": 10, "Dex": 16, "Con": 12, "Int": 10, "Wis": 14, "Cha": 8},
    "Actions": [],
    "Player": "player",
}

# The 5e SRD API's monster (dnd5eapi.co/api/monsters/<index>; data in github.com/5e-bits/5e-database,
# src/2014/5e-SRD-Monsters.json): armor_class [{type, value}], hit_points, hit_dice, hit_points_roll,
# strength..charisma, proficiencies, damage_*, actions [{name, desc, attack_bonus, damage [...]}].
SRD_MONSTER = {
    "index": "tunnel-thing",
    "name": "Tunnel Thing",
    "size": "Medium",
    "type": "aberration",
    "armor_class": [{"type": "natural", "value": 14}],
    "hit_points": 27,
    "hit_dice": "5d8",
    "hit_points_roll": "5d8+5",
    "speed": {"walk": "30 ft.", "climb": "30 ft."},
    "strength": 15,
    "dexterity": 12,
    "constitution": 13,
    "intelligence": 4,
    "wisdom": 10,
    "charisma": 5,
    "proficiency_bonus": 2,
    "proficiencies": [{"value": 3, "proficiency": {"index": "saving-throw-con", "name": "Saving Throw: CON"}}],
    "damage_vulnerabilities": [],
    "damage_resistances": ["acid"],
    "damage_immunities": [],
    "actions": [
        {
            "name": "Bite",
            "desc": "Melee Weapon Attack: +4 to hit, reach 5 ft., one target. Hit: 7 (1d10 + 2) piercing damage.",
            "attack_bonus": 4,
            "damage": [{"damage_type": {"index": "piercing", "name": "Piercing"}, "damage_dice": "1d10+2"}],
        },
        {"name": "Screech", "desc": "Creatures nearby are deafened."},
    ],
    "special_abilities": [{"name": "Spider Climb", "desc": "Climbs walls."}],
}

# Foundry VTT actor export ("Export Data"), wfrp4e system (github.com/moo-man/WFRP4e-FoundryVTT,
# src/model: actor/components/characteristics.js {initial, modifier, advances}, status wounds,
# item/weapon.js damage.value "SB+4", weaponGroup, reach, range, qualities, twohanded, offhand;
# item/armour.js AP {head, lArm, rArm, lLeg, rLeg, body}).
FOUNDRY_WFRP = {
    "name": "Ditch Robber",
    "type": "npc",
    "_stats": {"systemId": "wfrp4e"},
    "system": {
        "characteristics": {
            k: {"initial": 30, "advances": 5, "modifier": 0}
            for k in ("ws", "bs", "s", "t", "i", "ag", "dex", "int", "wp", "fel")
        },
        "status": {"wounds": {"value": 11, "max": 11}},
    },
    "items": [
        {
            "name": "Spear",
            "type": "weapon",
            "system": {
                "damage": {"value": "SB+4", "dice": ""},
                "weaponGroup": {"value": "polearm"},
                "reach": {"value": "vLong"},
                "range": {"value": ""},
                "twohanded": {"value": False},
                "qualities": {"value": [{"name": "impale"}, {"name": "fast"}]},
            },
        },
        {
            "name": "Crossbow",
            "type": "weapon",
            "system": {"damage": {"value": "9"}, "weaponGroup": {"value": "crossbow"}, "range": {"value": "60"}},
        },
        {"name": "Leather Jack", "type": "armour", "system": {"AP": {"body": 1, "lArm": 1, "rArm": 1, "head": 0}}},
    ],
}
# cosmere-rpg system (github.com/the-metalworks/cosmere-rpg, src/system/data/actor/common.ts:
# attributes {value, bonus}, defenses and resources' max as derived values {value, override,
# useOverride}, skills {rank, mod}; item mixins attacking.ts attack {type, range {value, long}},
# damaging.ts damage {formula, type}).
FOUNDRY_COSMERE = {
    "name": "Chasm Raider",
    "type": "adversary",
    "_stats": {"systemId": "cosmere-rpg"},
    "system": {
        "attributes": {k: {"value": 2, "bonus": 0} for k in ("str", "spd", "int", "wil", "awa", "pre")},
        "defenses": {"phy": {"value": 14}, "cog": {"useOverride": True, "override": 12, "value": 14}, "spi": {}},
        "resources": {
            "hea": {"value": 20, "max": {"value": 20}},
            "foc": {"value": 4, "max": {"value": 4}},
            "inv": {"value": 0, "max": {"value": 0}},
        },
        "skills": {"hwp": {"rank": 2, "mod": {"value": 4}}, "lwp": {"rank": 1}},
    },
    "items": [
        {
            "name": "Axe",
            "type": "weapon",
            "system": {
                "attack": {"type": "melee", "range": {"value": 5}},
                "activation": {"skill": "hwp"},
                "damage": {"formula": "1d6", "type": "keen"},
            },
        },
        {
            "name": "Shortbow",
            "type": "weapon",
            "system": {
                "attack": {"type": "ranged", "range": {"value": 80, "long": 320}},
                "activation": {"skill": "lwp"},
                "damage": {"formula": "1d6", "type": "keen"},
            },
        },
    ],
}


@pytest.fixture
def folder(tmp_path):
    return tmp_path / "data"


def _write(tmp_path, name, data):
    p = tmp_path / name
    p.write_text(json.dumps(data), encoding="utf-8")
    return p


def test_improved_initiative_import_takes_attacks_and_sends_players_to_the_party(tmp_path, folder):
    p = _write(tmp_path, "ii.json", [II_MONSTER, II_PC])
    done = S.import_file(p, "", folder)
    assert done.result.ruleset == "d20" and done.added == 2
    brute = S.find("d20", "hill brute", folder).statblock
    # InitiativeModifier is what Improved Initiative adds on top of Dexterity, as Fracas's init is
    assert (brute.hp, brute.hp_dice, brute.ac, brute.init, brute.saves.con) == (59, "7d10+21", 11, -1, 5)
    club, jav = brute.attacks
    assert (club.bonus, club.reach, club.damage[0].dice, club.damage[0].type) == (9, 10, "2d6+5", "bludgeoning")
    assert jav.kind == "ranged" and jav.range == "30/120" and [d.type for d in jav.damage] == ["piercing", "fire"]
    assert brute.immune == ("poison",) and brute.resist == ("cold",)
    # an action without an attack roll is an ability read from its text, a trait is kept with its text
    assert "abilities Bellow (DC 12 wis)" in done.result.report[0] and "traits Thick Skull" in done.result.report[0]
    assert [a.name for a in brute.actions] == ["Bellow"] and brute.traits[0].name == "Thick Skull"
    party = S.read_party("d20", folder)
    assert [m.name for m in party] == ["Ayla"] and party[0].statblock.kind == "pc"
    again = S.import_file(p, "", folder)
    assert (again.added, again.replaced) == (0, 2)
    assert [sb.name for sb in S.read_user("d20", folder)] == ["Hill Brute"]


def test_srd_import(tmp_path, folder):
    done = S.import_file(_write(tmp_path, "srd.json", {"count": 1, "results": [SRD_MONSTER]}), "d20", folder)
    sb = S.find("d20", "Tunnel Thing", folder).statblock
    assert (sb.hp, sb.hp_dice, sb.ac, sb.saves.con, sb.resist) == (27, "5d8+5", 14, 3, ("acid",))
    assert sb.attacks[0].damage[0].dice == "1d10+2" and sb.attacks[0].bonus == 4
    # an action without an attack roll is an ability with its text; every key not taken is named
    assert "abilities Screech" in done.result.report[0] and "fields not taken: index, size" in done.result.report[0]
    assert sb.actions[0].name == "Screech" and sb.actions[0].text


def test_foundry_imports(tmp_path, folder):
    done = S.import_file(_write(tmp_path, "w.json", FOUNDRY_WFRP), "", folder)
    w = S.find("warhammer", "Ditch Robber", folder).statblock
    assert w.characteristics.ws == 35 and w.wounds == 11 and (w.armour.body, w.armour.larm, w.armour.head) == (1, 1, 0)
    spear, xbow = w.weapons
    assert (spear.qualities, spear.sb, spear.damage, spear.kind, spear.reach) == (
        ("impale",),
        True,
        4,
        "melee",
        "very long",
    )
    assert (xbow.kind, xbow.skill, xbow.sb, xbow.damage, xbow.range) == ("missile", "bs", False, 9, 60)
    assert "qualities fast (the engine does not run them)" in done.result.report[0]
    done = S.import_file(_write(tmp_path, "c.json", FOUNDRY_COSMERE), "cosmere", folder)
    c = S.find("cosmere", "Chasm Raider", folder).statblock
    assert (c.hp, c.focus, c.phy, c.cog, c.spi) == (20, 4, 14, 12, 14)  # spi left derived: 10 + awa + pre
    axe, bow = c.attacks
    assert (axe.bonus, axe.kind, axe.range, axe.damage, axe.type) == (4, "melee", "5", "1d6", "keen")
    assert (bow.bonus, bow.kind, bow.range) == (3, "ranged", "80/320")  # rank 1 + Speed 2


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        ("not json", "not JSON"),
        (json.dumps({"hello": 1}), "not a format Fracas imports"),
        (json.dumps([II_MONSTER, {**II_PC, "AC": {"Value": "tough"}}]), "entry 2 ('Ayla'): AC is not a number"),
        (json.dumps([SRD_MONSTER]), "for d20, not cosmere"),
    ],
)
def test_a_bad_or_foreign_file_is_one_line_and_writes_nothing(tmp_path, folder, content, problem):
    p = tmp_path / "bad.json"
    p.write_text(content, encoding="utf-8")
    with pytest.raises(L.LibraryError) as exc:
        S.import_file(p, "cosmere" if "cosmere" in problem else "", folder)
    assert str(exc.value).startswith(str(p)) and problem in str(exc.value) and "\n" not in str(exc.value)
    assert not (folder / "library").exists() and not (folder / "party").exists()


def test_a_few_hundred_creatures_import_quickly(tmp_path, folder, capsys):
    many = [{**II_MONSTER, "Name": f"Brute {i}", "Id": str(i)} for i in range(400)]
    p = _write(tmp_path, "many.json", many)
    t = time.perf_counter()
    done = S.import_file(p, "", folder)
    took = time.perf_counter() - t
    assert done.added == 400 and len(S.load("d20", folder)) == 400 + len(L.starter("d20"))
    with capsys.disabled():
        print(f"\n400 Improved Initiative creatures imported in {took:.3f} s")


def test_user_entries_win_by_name_and_a_combatant_is_saved(folder):
    mine = L.decode_entry("d20", {"name": "goblin", "hp": 99})
    S.save_statblocks("d20", [mine], folder)
    e = S.find("d20", "Goblin", folder)
    assert e.origin == "user" and e.statblock.hp == 99
    f, _ = apply(new_fight("d20", seed=1), C.AddCombatant("Ogg", stats=(("hp", 30), ("ac", 13))))
    S.save_combatant("d20", f.combatants[0], folder)
    assert S.find("d20", "ogg", folder).statblock.ac == 13
    path = S.library_path("d20", folder)
    path.write_text("[[creature]]\nname = 'Bad'\nhp = -3\n", encoding="utf-8")
    # a bad entry costs that entry, named in one line, never the rest (issue 22 item 4) ...
    entries, problem = S.load_usable("d20", folder)
    assert len(entries) == len(L.starter("d20"))
    assert re.search(r"d20.toml: 1 entry left out \(entry 1 \('Bad'\)", problem)
    # ... and nothing writes over what could not be read
    with pytest.raises(L.LibraryError, match=r"d20.toml: entry 1 \('Bad'\)"):
        S.save_combatant("d20", f.combatants[0], folder)
    assert "hp = -3" in path.read_text(encoding="utf-8")


def test_party_changes_are_found_and_written_back(folder):
    pc = L.decode_entry("d20", {"name": "Ayla", "hp": 24, "gambit": 2, "kind": "pc", "side": "party"})
    S.add_to_party("d20", [pc], folder)
    f = new_fight("d20", seed=1)
    f, _ = apply(f, L.to_add(S.read_party("d20", folder)[0].statblock)[0])
    f, _ = apply(f, C.Damage(who="c1", amount=5))
    f, _ = apply(f, C.SpendResource(who="c1", key="gambit"))
    f, _ = apply(f, C.AddCondition(who="c1", name="Exhaustion", level=2))
    f, _ = apply(f, C.AddCondition(who="c1", name="Prone", duration=Duration("turn_end", "c1")))
    found = S.changes("d20", S.read_party("d20", folder), f)
    assert [(c.what, c.key, c.before, c.after) for c in found[0].changes] == [
        ("health", "hp", "24", "19"),
        ("resource", "gambit", "2", "1"),
        ("condition", "Exhaustion", "", "2"),
    ]
    done = S.write_back("d20", found, None, folder)
    now = S.read_party("d20", folder)[0].now
    assert now.health[0].current == 19 and now.conditions[0].name == "Exhaustion"
    assert S.changes("d20", S.read_party("d20", folder), f) == ()
    S.undo_write_back(done, folder)  # undo: the old roster back
    assert S.read_party("d20", folder)[0].now == S.Now()


def _parser():
    p = argparse.ArgumentParser(prog="fracas")
    sub = p.add_subparsers(dest="command")
    library_cli.add_parsers(sub)
    return p


def _cli(*argv):
    out, err = io.StringIO(), io.StringIO()
    code = library_cli.run(_parser().parse_args(list(argv)), out, err)
    return code, out.getvalue(), err.getvalue()


def test_cli_list_show_import(tmp_path, folder):
    d = ["--dir", str(folder)]
    code, out, _ = _cli("library", "list", "--rules", "warhammer", *d)
    assert code == 0 and "Bog Lurker" in out
    code, out, _ = _cli("library", "show", "bugbear", "--rules", "d20", *d)
    assert code == 0 and "Spiked Club +5, 2d6+3 bludgeoning" in out
    code, out, _ = _cli("library", "show", "Ghoul", "--rules", "warhammer", "--json", *d)
    assert json.loads(out)["wounds"] == 12
    bad = _write(tmp_path, "bad.json", [{**II_MONSTER, "Name": "Evil\x1b[2J Name"}, II_PC])
    code, _, err = _cli("party", "import", str(bad), *d)
    assert code == 1 and "\x1b" not in err and err.count("\n") == 1 and "entry 1" in err
    p = _write(tmp_path, "ii.json", [II_MONSTER, II_PC])
    code, out, _ = _cli("party", "import", str(p), *d)
    assert code == 0 and "1 PCs to the party" in out
    code, out, _ = _cli("party", "list", "--json", *d)
    assert json.loads(out) == [{"rules": "d20", "name": "Ayla"}]
    code, out, _ = _cli("party", "show", "ayla", "--rules", "d20", *d)
    assert code == 0 and "Ayla" in out
    code, out, err = _cli("library", "show", "Nobody", "--rules", "d20", *d)
    assert code == 1 and err.count("\n") == 1 and "No d20 statblock called 'Nobody'" in err
    code, _, err = _cli("library", "list", "--rules", "chess", *d)
    assert code == 1 and "No ruleset 'chess'" in err
    code, _, err = _cli("library", "import", str(tmp_path / "missing.json"), *d)
    assert code == 1 and "no such file" in err


@pytest.mark.parametrize(
    ("text", "dice", "rider"),
    [
        (
            "Melee Weapon Attack: +9 to hit, reach 10 ft., one target. Hit: 12 (2d6 + 5) bludgeoning damage. "
            "The target must succeed on a DC 14 Constitution saving throw or take 6 (1d12) acid damage later.",
            [("2d6+5", "bludgeoning")],
            "The target must succeed on a DC 14 Constitution saving throw or take 6 (1d12) acid damage later",
        ),
        (
            "Melee or Ranged Weapon Attack: +4 to hit, reach 5 ft. or range 20/60 ft., one target. Hit: 5 (1d6 + 2) "
            "piercing damage, or 6 (1d8 + 2) piercing damage if used with two hands to make a melee attack.",
            [("1d6+2", "piercing")],
            "or 6 (1d8 + 2) piercing damage if used with two hands to make a melee attack",
        ),
        (
            "Melee Weapon Attack: +11 to hit, reach 10 ft., one target. Hit: 17 (2d10 + 6) piercing damage plus "
            "4 (1d8) acid damage.",
            [("2d10+6", "piercing"), ("1d8", "acid")],
            "",
        ),
        ("Ranged Spell Attack: \u22121 to hit, range 60 ft., one target. Hit: 1 cold damage.", [("1", "cold")], ""),
    ],
)
def test_the_hit_sentence_gives_the_damage_and_the_rest_is_the_rider(text, dice, rider):
    a = parse_attack("X", text)
    assert a is not None and [(d.dice, d.type) for d in a.damage] == dice and a.rider == rider


def test_srd_damage_listed_for_a_later_effect_is_not_the_hits(tmp_path, folder):
    # as in 5e-SRD-Monsters.json: the damage list also holds a disease's acid that the text deals later
    tentacle = {
        "name": "Tentacle",
        "desc": "Melee Weapon Attack: +9 to hit, reach 10 ft., one target. Hit: 12 (2d6 + 5) bludgeoning damage. "
        "If the target is a creature, it takes 6 (1d12) acid damage every 10 minutes.",
        "attack_bonus": 9,
        "damage": [
            {"damage_type": {"index": "bludgeoning", "name": "Bludgeoning"}, "damage_dice": "2d6+5"},
            {"damage_type": {"index": "acid", "name": "Acid"}, "damage_dice": "1d12"},
        ],
    }
    m = {**SRD_MONSTER, "actions": [{"name": "Multiattack", "desc": "Two tentacles."}, tentacle]}
    done = S.import_file(_write(tmp_path, "srd.json", [m]), "d20", folder)
    t = done.result.creatures[0].attacks[0]
    assert [(d.dice, d.type) for d in t.damage] == [("2d6+5", "bludgeoning")] and t.reach == 10
    assert "1d12 acid is not the hit's" in done.result.report[0]


JUNK = (None, "x", -5, 10**12, 2.5, True, [], {}, [1, "a"], {"Value": "?"}, "\u202e")


def _mutations(data, path=()):
    """`data` with one value at a time replaced by junk, at every depth."""
    if isinstance(data, dict):
        items = list(data.items())
    elif isinstance(data, list):
        items = list(enumerate(data))
    else:
        return
    for key, value in items:
        for junk in JUNK:
            yield _replaced(data, key, junk)
        for sub in _mutations(value):
            yield _replaced(data, key, sub)


def _replaced(data, key, value):
    if isinstance(data, dict):
        return {**data, key: value}
    out = list(data)
    out[key] = value
    return out


@pytest.mark.parametrize(
    "sample", [[II_MONSTER], [SRD_MONSTER], FOUNDRY_WFRP, FOUNDRY_COSMERE], ids=["ii", "srd", "wfrp", "cosmere"]
)
def test_any_odd_field_is_an_import_or_a_one_line_refusal(tmp_path, sample):
    p = tmp_path / "odd.json"
    seen = 0
    for data in _mutations(sample):
        p.write_text(json.dumps(data), encoding="utf-8")
        try:
            result = S.read_import(p)
        except L.LibraryError as exc:
            assert str(exc).startswith(str(p)) and "\n" not in str(exc)
            continue
        for sb in (*result.creatures, *result.party):
            L.decode_entry(result.ruleset, L.to_table(sb))  # whatever is taken reads back from a file
        seen += 1
    assert seen > 0
