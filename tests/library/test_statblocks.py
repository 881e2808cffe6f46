"""Statblocks: every starter entry turns into commands the engine takes, and its attacks hit."""

from __future__ import annotations

import pytest

import engine.library as L
from engine import apply, new_fight
from engine import commands as C
from engine.dice import Rng
from engine.errors import RuleError
from engine.library import ninephase as N
from engine.rules.cosmere.commands import StartTurn
from engine.rules.ninephase.commands import Activity

RULES = ("d20", "cosmere", "warhammer", "ninephase")


@pytest.mark.parametrize("rid", RULES)
def test_starter_bestiary_has_a_dozen_valid_foes(rid):
    entries = L.starter(rid)
    assert len(entries) >= 12
    assert len({e.name for e in entries}) == len(entries)
    for sb in entries:
        assert L.attacks(sb), f"{sb.name} has no attacks"


def _target(rid):
    return C.AddCombatant("Target", kind="pc", side="party")


@pytest.mark.parametrize("rid", RULES)
def test_every_starter_entry_is_added_and_attacks(rid):
    for sb in L.starter(rid):
        f = new_fight(rid, seed=3)
        f, _ = apply(f, _target(rid))
        cmd, _ = L.to_add(sb, 2)
        f, _ = apply(f, cmd)
        assert [c.name for c in f.combatants[1:]] == [f"{sb.name} 1", f"{sb.name} 2"]
        kind = L.kind_of(sb)
        assert f.combatants[1].health[0].max == kind.health(sb)
        if rid == "ninephase":
            continue  # activities are checked below, phase by phase
        f, _ = apply(f, C.StartFight())
        a = L.attacks(sb)[0]
        cls = L.attack_command(sb)
        fields = {k: v for k, v in L.attack_fields(sb, a).items() if k != "extra"}
        if rid == "cosmere":
            f, _ = apply(f, StartTurn(who="c2"))
        else:
            for _ in range(4):  # on to one of the copies' turns (attacks are made on one's own turn)
                if f.current in ("c2", "c3"):
                    break
                f, _ = apply(f, C.NextTurn())
        who = f.current
        tgt = {"targets": ("c1",)} if rid == "cosmere" else {"target": "c1"}
        f2, ev = apply(f, cls(who=who, **tgt, **fields))
        assert ev, sb.name


def test_d20_attack_fields_match_the_statblock():
    sb = L.decode_entry(
        "d20",
        {
            "name": "Test",
            "hp": 10,
            "attacks": [
                {
                    "name": "Flame Blade",
                    "bonus": 5,
                    "damage": [
                        {"dice": "1d8 + 3", "type": "slashing"},
                        {"dice": "1d6", "type": "fire"},
                        {"dice": "2", "type": "slashing"},
                    ],
                }
            ],
        },
    )
    fields = L.attack_fields(sb, L.find_attack(sb, "flame blade"))
    assert fields == {
        "bonus": 5,
        "damage": "1d8+3+2",
        "type": "slashing",
        "kind": "melee",
        "label": "Flame Blade",
        "extra": (("1d6", "fire"),),
    }
    with pytest.raises(RuleError, match="no attack 'Bite'"):
        L.find_attack(sb, "Bite")


def test_warhammer_damage_adds_the_strength_bonus_when_the_weapon_says():
    sb = next(s for s in L.starter("warhammer") if s.name == "Road Warden Deserter")
    xbow, sword = L.attacks(sb)[:2]
    assert L.attack_fields(sb, xbow) == {
        "weapon": "Crossbow",
        "kind": "missile",
        "skill": "bs",
        "damage": 9,
        "impale": True,
    }
    assert L.attack_fields(sb, sword)["damage"] == 4 + 34 // 10
    add = L.to_add(sb)[0]
    assert "champion" in add.flags and "shield" in add.flags and dict(add.stats)["ap_shield"] == 2


def test_ninephase_activity_is_performed_and_spends_its_resource():
    sb = next(s for s in L.starter("ninephase") if s.name == "Ember Adept")
    f = new_fight("ninephase", seed=1)
    f, _ = apply(f, L.to_add(sb)[0])
    f, _ = apply(f, C.StartFight())
    for _ in range(2):
        f, _ = apply(f, C.NextTurn())  # on to phase 3
    burst = L.find_attack(sb, "Cinder Burst")
    f, _ = apply(f, Activity(who="c1", **L.attack_fields(sb, burst)))
    assert f.get("c1").pool("embers").current == 2
    assert N.catalog(sb)[1].name == "Cinder Burst" and N.catalog(sb)[1].channel


def test_rolled_health_is_one_command_with_copies_numbered_after_existing():
    sb = L.decode_entry("d20", {"name": "Goblin", "hp": 7, "hp_dice": "2d6"})
    cmd, rng = L.to_add(sb, 3, "rolled", Rng(seed=9))
    assert cmd.count == 3 and len(cmd.copies) == 3 and rng.counter == 6
    hps = [dict(c)["hp"] for c in cmd.copies]
    assert all(2 <= hp <= 12 for hp in hps) and len(set(hps)) > 1  # seed 9 rolls differing totals
    f = new_fight("d20", seed=1)
    for name in ("Goblin", "Orc"):
        f, _ = apply(f, C.AddCombatant(name, count=2) if name == "Goblin" else C.AddCombatant(name))
    f, _ = apply(f, cmd)
    added = f.combatants[3:]
    assert [c.name for c in added] == ["Goblin 3", "Goblin 4", "Goblin 5"]
    assert [c.health[0].max for c in added] == hps
    assert all(L.statblock_of("d20", c) == sb for c in added)  # every copy keeps the statblock
    fixed = L.to_add(sb, 3)[0]
    assert fixed.count == 3 and fixed.copies == () and L.statblock_from_json("d20", fixed.statblock) == sb
    with pytest.raises(RuleError, match="between 1 and 50"):
        L.to_add(sb, 0)
    with pytest.raises(RuleError, match="fixed' or 'rolled"):
        L.to_add(sb, 1, "avg")  # type: ignore[arg-type]


def test_ninephase_attack_damage_is_checked_and_labelled():
    def entry(**act: object) -> dict[str, object]:
        return {"name": "Brute", "hp": 9, "activities": [{"name": "Club", "weapon": True, "speed": 4, **act}]}

    sb = L.decode_entry("ninephase", entry(damage="1d6+2", type="bludgeoning"))
    club = sb.activities[0]
    assert L.attack_label(sb, club) == "Club, 1 action, from phase 4, 1d6+2 bludgeoning"
    assert N.strikes(sb) == (club,)
    assert N.strike_fields(club) == {"spec": club.spec, "speed": 4, "dice": "1d6+2", "type": "bludgeoning"}
    with pytest.raises(RuleError, match="Club's damage '1d6x'"):
        L.decode_entry("ninephase", entry(damage="1d6x"))
    with pytest.raises(RuleError, match="a damage type goes with its damage dice"):
        L.decode_entry("ninephase", entry(type="fire"))
    # every weapon activity of the starter bestiary carries its damage (the attack dialog fills it in)
    for s in L.starter("ninephase"):
        assert all(a.damage and a.type for a in s.activities if a.weapon), s.name


@pytest.mark.parametrize(
    ("entry", "problem"),
    [
        ({"name": "X"}, "missing required field `hp`"),
        ({"name": "X", "hp": "lots"}, "Expected `int`"),
        ({"name": "X", "hp": 5, "hp_dice": "2q6"}, "health dice"),
        ({"name": "X", "hp": 5, "attacks": [{"name": "Bite", "damage": [{"dice": "1d6x"}]}]}, "Bite's damage"),
        ({"name": "X", "hp": 5, "abilities": {"dex": 99}}, "<= 40"),
        ({"name": "", "hp": 5}, "cannot be empty"),
        ({"name": "X", "hp": 5, "colour": "red"}, "unknown field `colour`"),
    ],
)
def test_a_bad_entry_is_one_line_naming_the_file_and_the_entry(entry, problem):
    with pytest.raises(L.LibraryError) as exc:
        L.decode_entries("d20", [{"name": "Fine", "hp": 3}, entry], "mine.toml")
    text = str(exc.value)
    assert text.startswith("mine.toml: entry 2") and problem in text and "\n" not in text


def test_a_bad_toml_file_and_a_foreign_ruleset_are_refused():
    with pytest.raises(L.LibraryError, match="x.toml: not valid TOML"):
        L.parse_toml("d20", "[[creature]\nname=", "x.toml")
    with pytest.raises(L.LibraryError, match="for 'cosmere', not d20"):
        L.parse_toml("d20", 'rules = "cosmere"\n', "x.toml")
    with pytest.raises(L.LibraryError, match="a second entry of that name"):
        L.parse_toml("d20", '[[creature]]\nname="A"\nhp=1\n[[creature]]\nname="a"\nhp=2\n', "x.toml")


def test_search_is_fuzzy_by_name_and_type():
    entries = [L.Entry(sb) for sb in L.starter("d20")]
    assert [e.name for e in L.search(entries, "goblin")][:3] == ["Goblin", "Goblin Hexer", "Bugbear"]
    assert L.search(entries, "bugb")[0].name == "Bugbear"
    assert L.search(entries, "gbhx")[0].name == "Goblin Hexer"
    assert {e.name for e in L.search(entries, "undead")} == {"Ashen Revenant"}
    assert L.search(entries, "zzzz") == []
    assert len(L.search(entries, "", limit=None)) == len(entries)


@pytest.mark.parametrize("rid", RULES)
def test_statblock_from_a_combatant_round_trips_its_stats(rid):
    sb = L.starter(rid)[0]
    f = new_fight(rid, seed=1)
    f, _ = apply(f, L.to_add(sb)[0])
    back = L.from_combatant(rid, f.combatants[0])
    again, _ = apply(new_fight(rid, seed=1), L.to_add(back)[0])
    assert again.combatants[0].stats == f.combatants[0].stats
    assert again.combatants[0].health == f.combatants[0].health


def test_a_kept_statblock_that_no_longer_reads_is_none():
    sb = L.decode_entry("d20", {"name": "Goblin", "hp": 7})
    text = L.statblock_json(sb)
    assert L.statblock_from_json("d20", text) == sb
    assert L.statblock_from_json("d20", "") is None
    assert L.statblock_from_json("d20", "{not json") is None
    assert L.statblock_from_json("d20", text.replace('"hp":7', '"hp":"seven"')) is None
    assert L.statblock_from_json("cosmere", text) is None  # another ruleset's statblock
