"""The shapes of Improved Initiative's real SRD export (ogl_creatures.json in
github.com/cynicaloptimist/improved-initiative, a list of StatBlock objects) that the importer got
wrong before it was checked against that file, one regression test each. The inputs are written for
this test, in the file's shape (its field names and sentence patterns), with other creatures and
numbers: no statblock text of the SRD is copied here."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import engine.library as L
from engine import apply, new_fight
from engine import commands as C
from engine import events as E
from engine.library.importers import improved_initiative as II
from engine.library.importers import run
from engine.library.importers.srd import convert_monster
from saves import library as S


def block(**over: Any) -> dict[str, Any]:
    """One StatBlock as the export writes it: every list present, empty where the creature has none."""
    b: dict[str, Any] = {
        "Name": "Marsh Stalker",
        "Source": "Test Bestiary",
        "Type": "Medium monstrosity, unaligned",
        "HP": {"Value": 38, "Notes": "(7d8+7)"},
        "AC": {"Value": 14, "Notes": "(natural armor)"},
        "InitiativeModifier": 0,
        "Speed": ["30 ft.", "swim 20 ft."],
        "Abilities": {"Str": 14, "Dex": 16, "Con": 12, "Int": 5, "Wis": 13, "Cha": 6},
        "DamageVulnerabilities": [],
        "DamageResistances": [],
        "DamageImmunities": [],
        "ConditionImmunities": [],
        "Saves": [],
        "Skills": [],
        "Senses": [],
        "Languages": [],
        "Challenge": "2",
        "Traits": [],
        "Actions": [],
        "Reactions": [],
        "LegendaryActions": [],
        "Description": "",
        "Player": "",
    }
    b.update(over)
    return b


def action(name: str, content: str) -> dict[str, str]:
    return {"Name": name, "Content": content, "Usage": ""}


def one(**over: Any) -> Any:
    sb, _line = II.convert_block(block(**over))
    return sb


def parts(a: Any) -> list[tuple[str, str]]:
    return [(d.dice, d.type) for d in a.damage]


# --- initiative --------------------------------------------------------------------------------


def test_initiative_modifier_is_what_comes_on_top_of_dexterity():
    # Improved Initiative rolls d20 + Dex modifier + InitiativeModifier (client/Combatant/Combatant.ts):
    # the SRD file has 0 for every creature, so a Dex 16 creature rolls +3, and Fracas's `init`
    # (the bonus beyond Dexterity) is 0, not 0 - 3
    assert one().init == 0
    assert one(InitiativeModifier=2).init == 2
    assert one(InitiativeModifier=-1, Abilities={"Dex": 8}).init == -1
    # without the field, nothing on top
    b = block()
    del b["InitiativeModifier"]
    assert II.convert_block(b)[0].init == 0


# --- a hit's damage ----------------------------------------------------------------------------


def test_damage_in_a_save_the_hit_calls_for_is_not_the_hits():
    # "..., and the target must make a DC n saving throw, taking X (dice) poison damage on a failed save"
    a = II.parse_attack(
        "Fang",
        "Melee Weapon Attack: +5 to hit, reach 5 ft., one creature. Hit: 8 (1d10 + 3) piercing damage, "
        "and the target must make a DC 12 Constitution saving throw, taking 13 (3d8) poison damage on a "
        "failed save, or half as much damage on a successful one.",
    )
    assert a is not None and parts(a) == [("1d10+3", "piercing")]
    assert a.rider == (
        "the target must make a DC 12 Constitution saving throw, taking 13 (3d8) poison damage on a "
        "failed save, or half as much damage on a successful one"
    )


def test_a_flat_hit_then_a_save_for_dice():
    a = II.parse_attack(
        "Nip",
        "Melee Weapon Attack: +6 to hit, reach 5 ft., one target. Hit: 1 piercing damage, and the target "
        "must make a DC 9 Constitution saving throw, taking 7 (2d6) poison damage on a failed save.",
    )
    assert a is not None and parts(a) == [("1", "piercing")] and a.rider.startswith("the target must make a DC 9")


def test_a_plus_after_the_two_handed_alternative_is_still_the_hits():
    a = II.parse_attack(
        "Cursed Blade",
        "Melee Weapon Attack: +7 to hit, reach 5 ft., one target. Hit: 9 (1d10 + 4) slashing damage, or "
        "10 (1d12 + 4) slashing damage if used with two hands, plus 9 (2d8) necrotic damage.",
    )
    assert a is not None and parts(a) == [("1d10+4", "slashing"), ("2d8", "necrotic")]
    assert a.rider == "or 10 (1d12 + 4) slashing damage if used with two hands"


def test_the_alternative_without_a_comma_and_a_flat_first_part_with_a_plus():
    spear = II.parse_attack(
        "Pike",
        "Melee or Ranged Weapon Attack: +4 to hit, reach 5 ft. or range 20/60 ft., one target. Hit: 5 "
        "(1d6 + 2) piercing damage or 6 (1d8 + 2) piercing damage if used with two hands to make a melee attack.",
    )
    assert spear is not None and parts(spear) == [("1d6+2", "piercing")] and spear.range == "20/60"
    assert spear.kind == "melee" and spear.reach == 5
    bite = II.parse_attack(
        "Bite",
        "Melee Weapon Attack: +5 to hit, reach 5 ft., one target. Hit: 1 piercing damage plus 5 (2d4) acid damage.",
    )
    assert bite is not None and parts(bite) == [("1", "piercing"), ("2d4", "acid")] and bite.rider == ""


def test_a_hit_that_deals_nothing_and_a_sentence_without_its_full_stop():
    net = II.parse_attack(
        "Snare",
        "Ranged Weapon Attack: +3 to hit, range 15/30 ft., one Large or smaller creature. Hit: The target is "
        "restrained. A creature can use its action to make a DC 11 Strength check to free it.",
    )
    assert net is not None and net.damage == () and net.kind == "ranged"
    assert (
        net.rider == "The target is restrained. A creature can use its action to make a DC 11 Strength check to free it"
    )
    fist = II.parse_attack(
        "Fist", "Melee Weapon Attack: +2 to hit, reach 5 ft., one target. Hit: 3 (1d6) bludgeoning damage"
    )
    assert fist is not None and parts(fist) == [("1d6", "bludgeoning")] and fist.rider == ""


def test_a_spell_attack_and_reaches_written_tight_or_loose():
    touch = II.parse_attack(
        "Chill Grasp",
        "Melee Spell Attack: +8 to hit, reach 5 ft., one creature. Hit: 14 (4d6) cold damage. The target "
        "can't regain hit points until the start of its next turn.",
    )
    assert touch is not None and (touch.bonus, touch.kind, parts(touch)) == (8, "melee", [("4d6", "cold")])
    for where in ("reach 15ft.", "reach 15 ft. ,"):
        a = II.parse_attack(
            "Tail", f"Melee Weapon Attack: +9 to hit, {where} one target. Hit: 12 (2d8 + 3) bludgeoning damage."
        )
        assert a is not None and a.reach == 15


# --- riders ------------------------------------------------------------------------------------


def test_the_rider_keeps_its_sentences():
    a = II.parse_attack(
        "Longbow",
        "Ranged Weapon Attack: +6 to hit, range 150/600 ft., one target. Hit: 8 (1d8 + 4) piercing damage plus "
        "7 (2d6) poison damage, and the target must succeed on a DC 13 Constitution saving throw or be "
        "poisoned. The poison lasts until magic ends it.",
    )
    assert a is not None and parts(a) == [("1d8+4", "piercing"), ("2d6", "poison")]
    assert a.rider == (
        "the target must succeed on a DC 13 Constitution saving throw or be poisoned. "
        "The poison lasts until magic ends it"
    )


def test_a_long_rider_is_kept_whole_and_one_past_a_note_is_cut_at_a_word():
    long_text = " ".join(f"Then the swallowed creature takes another turn of bile number {i}." for i in range(12))
    a = II.parse_attack(
        "Gulp",
        f"Melee Weapon Attack: +9 to hit, reach 10 ft., one target. Hit: 20 (3d10 + 4) piercing damage. {long_text}",
    )
    assert a is not None and a.rider == long_text.rstrip(".") and len(a.rider) > 700
    huge = " ".join(f"Then the swallowed creature takes another turn of bile number {i}." for i in range(40))
    a = II.parse_attack(
        "Gulp",
        f"Melee Weapon Attack: +9 to hit, reach 10 ft., one target. Hit: 20 (3d10 + 4) piercing damage. {huge}",
    )
    assert a is not None and len(a.rider) <= 2000 and a.rider.endswith("\u2026")
    cut = a.rider[:-1]
    # a whole word: what follows the cut is a space or the punctuation it dropped
    assert huge.startswith(cut) and huge[len(cut)] in " .,;" and len(cut) > 1900
    line = II.convert_block(block(Actions=[action("Gulp", "Melee Weapon Attack: +9 to hit, reach 10 ft., one target. "
                                                  f"Hit: 20 (3d10 + 4) piercing damage. {huge}")]))[1]
    assert "Gulp's rider (past 2000 characters: cut)" in line


# --- range and reach ---------------------------------------------------------------------------


def test_ranged_misspelt_before_the_range_is_still_the_range():
    a = II.parse_attack(
        "Weighted Net",
        "Ranged Weapon Attack: +4 to hit, ranged 20/60 ft., one Medium or smaller creature. "
        "Hit: The target is restrained.",
    )
    assert a is not None and a.range == "20/60"


def test_an_unreadable_reach_is_said_in_the_report():
    content = "Melee Weapon Attack: +8 to hit, reach,.0 ft., one target. Hit: 15 (2d10 + 4) piercing damage."
    sb, line = II.convert_block(block(Actions=[action("Bite", content)]))
    assert sb.attacks[0].reach == 5 and parts(sb.attacks[0]) == [("2d10+4", "piercing")]
    assert "Bite's reach (unreadable: 5 ft taken)" in line
    fine = "Melee Weapon Attack: +8 to hit, reach 10 ft., one target. Hit: 15 (2d10 + 4) piercing damage."
    assert "unreadable" not in II.convert_block(block(Actions=[action("Bite", fine)]))[1]


# --- resistances, immunities -------------------------------------------------------------------


def test_a_condition_on_the_physical_types_keeps_slashing_and_is_said_in_the_note():
    # the export splits "bludgeoning, piercing, and slashing from ..." at its commas
    sb, line = II.convert_block(
        block(
            DamageResistances=[
                "fire",
                "bludgeoning",
                "piercing",
                "and slashing from nonmagical weapons that aren't cold iron",
            ],
            DamageImmunities=["poison", "bludgeoning", "piercing", "and slashing damage from nonmagical attacks"],
        )
    )
    assert sb.resist == ("fire", "bludgeoning", "piercing", "slashing")
    assert sb.immune == ("poison", "bludgeoning", "piercing", "slashing")
    assert sb.note.splitlines() == [
        "Resists bludgeoning, piercing, slashing: only from nonmagical weapons that aren't cold iron.",
        "Immune to bludgeoning, piercing, slashing: only from nonmagical attacks.",
    ]
    assert "in the note: Resists bludgeoning" in line
    # the note goes with every copy into the fight, after what the engine has no field for
    f, _ = apply(new_fight("d20", seed=1), L.to_add(sb, 1, "fixed")[0])
    assert "only from nonmagical weapons that aren't cold iron" in f.combatants[0].note
    assert "slashing" in f.combatants[0].resist


def test_plain_lists_give_no_note():
    sb = one(DamageResistances=["cold", "fire"], DamageVulnerabilities=["radiant"])
    assert (sb.resist, sb.vulnerable, sb.note) == (("cold", "fire"), ("radiant",), "")


def test_the_srd_apis_one_string_list_reads_the_same():
    m = {
        "name": "Bog Wight",
        "hit_points": 45,
        "armor_class": [{"type": "natural", "value": 13}],
        "damage_resistances": ["necrotic; bludgeoning, piercing, and slashing from nonmagical attacks"],
    }
    sb, line = convert_monster(m)
    assert sb.resist == ("necrotic", "bludgeoning", "piercing", "slashing")
    assert sb.note == "Resists bludgeoning, piercing, slashing: only from nonmagical attacks." and "in the note" in line


def test_a_condition_in_a_damage_list_is_skipped_with_its_reason():
    sb, line = II.convert_block(block(DamageImmunities=["blinded", "psychic"]))
    assert sb.immune == ("psychic",)
    assert "skipped immunities blinded (not a damage type)" in line


# --- the written entry -------------------------------------------------------------------------


def test_a_creature_without_saves_writes_no_empty_saves_table(tmp_path: Path):
    p = tmp_path / "ii.json"
    p.write_text(
        json.dumps([block(), block(Name="Reed Wader", Saves=[{"Name": "Dex", "Modifier": 5}])]), encoding="utf-8"
    )
    S.import_file(p, "d20", tmp_path / "data")
    text = S.library_path("d20", tmp_path / "data").read_text(encoding="utf-8")
    assert text.count("[creature.saves]") == 1
    assert S.find("d20", "Reed Wader", tmp_path / "data").statblock.saves.dex == 5


def test_an_imported_save_bite_hits_for_its_piercing_only():
    bite = (
        "Melee Weapon Attack: +5 to hit, reach 5 ft., one creature. Hit: 8 (1d10 + 3) piercing damage, and the "
        "target must make a DC 12 Constitution saving throw, taking 13 (3d8) poison damage on a failed save."
    )
    data = [block(Actions=[action("Multiattack", "It bites twice."), action("Fang", bite)])]
    sb = run(data, "d20").creatures[0]
    fields = L.attack_fields(sb, sb.attacks[0])
    assert (fields["bonus"], fields["damage"], fields["type"]) == (5, "1d10+3", "piercing") and "extra" not in fields
    f, _ = apply(new_fight("d20", seed=3), L.to_add(sb, 1, "fixed")[0])
    assert f.combatants[0].stat("init") == 0  # its Dex 16 gives the +3; nothing on top
    f, _ = apply(f, C.AddCombatant("Target", stats=(("hp", 40), ("ac", 10))))
    f, _ = apply(f, C.StartFight())
    while f.current != "c1":
        f, _ = apply(f, C.NextTurn())
    f, ev = apply(f, L.attack_command(sb)(who="c1", target="c2", given=(15,), damage_given=(6,), **fields))
    dealt = [e for e in ev if isinstance(e, E.Damaged)]
    # the hit's piercing, once: the save's poison is the GM's to roll, from the rider
    assert [(e.type, e.amount) for e in dealt] == [("piercing", 9)]
    assert f.combatants[1].health[0].current == 31
