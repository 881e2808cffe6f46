"""Whole statblocks through the importers (issue 24): abilities without an attack roll, recharge,
legendary actions and resistance, reactions, traits, spellcasting, immunities, other speeds, skills,
riders whole, a damage part only the text gives, Foundry cosmere-rpg action items and wfrp4e traits,
and a report naming every field not taken.

Every input here is written for this test in its format's shape (Improved Initiative's StatBlock, the
5e SRD API's monster, Foundry actors of cosmere-rpg and wfrp4e): the creatures, names, sentences and
numbers are our own, in the sentence patterns those files use; no product text is copied."""

from __future__ import annotations

import copy
import time
from typing import Any

import pytest

import engine.library as L
from engine import apply, new_fight
from engine import commands as C
from engine.errors import RuleError
from engine.library.abilities import LEGENDARY, LEGENDARY_RESISTANCE, spend_of
from engine.library.importers import foundry, run
from engine.library.importers import improved_initiative as II
from engine.library.importers import srd as SRD


def ii(**over: Any) -> dict[str, Any]:
    b: dict[str, Any] = {
        "Id": "t-1", "Name": "Cinder Wyrm", "Source": "Our Test Book", "Type": "Huge dragon, chaotic evil",
        "HP": {"Value": 200, "Notes": "(16d12 + 96)"}, "AC": {"Value": 19, "Notes": "(natural armor)"},
        "InitiativeModifier": 0, "Speed": ["40 ft.", "climb 40 ft.", "fly 80 ft."],
        "Abilities": {"Str": 26, "Dex": 10, "Con": 22, "Int": 16, "Wis": 13, "Cha": 20},
        "DamageVulnerabilities": [], "DamageResistances": [], "DamageImmunities": ["fire"], "ConditionImmunities": [],
        "Saves": [{"Name": "Dex", "Modifier": 6}], "Skills": [{"Name": "Perception", "Modifier": 13}],
        "Senses": ["blindsight 60 ft.", "darkvision 120 ft.", "passive Perception 23"],
        "Languages": ["Common", "Draconic"], "Challenge": "17", "Description": "A wyrm of our own devising.",
        "Traits": [{"Name": "Legendary Resistance (3/Day)",
                    "Content": "When the wyrm fails a saving throw, it can choose to succeed instead."}],
        "Actions": [
            {"Name": "Multiattack", "Content": "The wyrm can use its Frightful Presence. It then makes three "
             "attacks: one with its bite and two with its claws."},
            {"Name": "Bite", "Content": "Melee Weapon Attack: +14 to hit, reach 10 ft., one target. Hit: 19 "
             "(2d10 + 8) piercing damage plus 7 (2d6) fire damage."},
            {"Name": "Claw", "Content": "Melee Weapon Attack: +14 to hit, reach 5 ft., one target. Hit: 15 "
             "(2d6 + 8) slashing damage."},
            {"Name": "Frightful Presence", "Content": "Each creature of the wyrm's choice within 120 feet that can "
             "see it must succeed on a DC 19 Wisdom saving throw or become frightened for 1 minute."},
            {"Name": "Fire Breath (Recharge 5\u20136)", "Content": "The wyrm breathes fire in a 60-foot cone. Each "
             "creature in that area must make a DC 21 Dexterity saving throw, taking 63 (18d6) fire damage on "
             "a failed save, or half as much damage on a successful one."},
        ],
        "Reactions": [],
        "LegendaryActions": [
            {"Name": "Legendary Actions", "Content": "The wyrm can take 3 legendary actions, choosing from the "
             "options below. It regains spent legendary actions at the start of its turn."},
            {"Name": "Detect", "Content": "The wyrm makes a Wisdom (Perception) check."},
            {"Name": "Wing Attack (Costs 2 Actions)", "Content": "The wyrm beats its wings. Each creature within "
             "10 feet must succeed on a DC 22 Dexterity saving throw or take 15 (2d6 + 8) bludgeoning damage "
             "and be knocked prone."},
        ],
        "Player": "", "Version": "2.0.0", "ImageURL": "",
    }
    b.update(over)
    return b


def ii_one(**over: Any) -> tuple[Any, str]:
    return II.convert_block(ii(**over))


# --- Improved Initiative -------------------------------------------------------------------------


def test_ii_breath_weapon_legendary_actions_and_resistance():
    sb, line = ii_one()
    by = {a.name: a for a in sb.actions}
    breath = by["Fire Breath"]
    assert (breath.save, breath.dc, breath.on_save, breath.recharge) == ("dex", 21, "half", 5)
    assert [(d.dice, d.type) for d in breath.damage] == [("18d6", "fire")]
    assert (breath.area, breath.targets) == ("60-foot cone", 0) and breath.text.startswith("The wyrm breathes")
    assert by["Multiattack"].attacks == ("Frightful Presence", "Bite", "Claw", "Claw")
    assert (by["Frightful Presence"].save, by["Frightful Presence"].condition) == ("wis", "Frightened")
    wing = by["Wing Attack"]
    assert (wing.act, wing.cost, wing.save, wing.dc, wing.on_save, wing.condition) == (
        "legendary", 2, "dex", 22, "none", "Prone")
    assert by["Detect"].act == "legendary" and "Legendary Actions" not in by
    assert (sb.legendary, sb.legendary_resistance) == (3, 3)
    assert spend_of(wing) == ((LEGENDARY, 2),) and spend_of(breath) == (("Fire Breath", 1),)
    cmd = L.to_add(sb)[0]
    pools = {p.key: p for p in cmd.resources}
    assert pools["Fire Breath"].recharge == 5 and pools[LEGENDARY].max == 3 and pools[LEGENDARY].refresh
    assert pools[LEGENDARY_RESISTANCE].max == 3 and cmd.immune == ("fire",)
    # the fire-immune creature joins a fight immune to fire
    f, _ = apply(new_fight("d20", "t", 1), cmd)
    assert f.combatants[0].immune == ("fire",)
    assert "abilities Multiattack, Bite" not in line and "Fire Breath (recharge 5, DC 21 dex)" in line
    assert "3 legendary actions a round" in line and "Legendary Resistance 3/day" in line
    assert line.endswith("fields not taken: Id, Source, Description, Version")


def test_ii_speeds_skills_senses_and_a_swimmer_keeps_its_speed():
    sb, line = ii_one()
    assert sb.speed == 40 and [(s.kind, s.feet) for s in sb.speeds] == [("climb", 40), ("fly", 80)]
    assert sb.skills[0].name == "Perception" and sb.skills[0].bonus == 13
    assert sb.senses.startswith("blindsight 60 ft.") and sb.languages == "Common, Draconic" and sb.challenge == "17"
    shark, _ = ii_one(Name="Reef Hunter", Speed=["swim 40 ft."], LegendaryActions=[], Traits=[])
    assert shark.speed == 0 and [(s.kind, s.feet) for s in shark.speeds] == [("swim", 40)]
    bat, _ = ii_one(Name="Dusk Flapper", Speed=["5 ft., fly 30 ft. (hover)"], LegendaryActions=[], Traits=[])
    assert bat.speed == 5 and bat.speeds[0].hover
    assert ii_one(Name="Stone", Speed=[], LegendaryActions=[], Traits=[])[0].speed == 30


def test_ii_a_weapon_attack_without_melee_is_an_attack():
    tusk = {"Name": "Tusk", "Content": "Weapon Attack: +3 to hit, reach 5 ft., one target. Hit: 4 (1d6 + 1) "
            "slashing damage."}
    sling = {"Name": "Spit Stone", "Content": "Weapon Attack: +4 to hit, range 20/60 ft., one target. Hit: 3 "
             "(1d4 + 1) bludgeoning damage."}
    sb, line = ii_one(Name="Bristle Hog", Actions=[tusk, sling], LegendaryActions=[], Traits=[])
    assert [(a.name, a.bonus, a.kind) for a in sb.attacks] == [("Tusk", 3, "melee"), ("Spit Stone", 4, "ranged")]
    assert "no attack roll" not in line


def test_ii_condition_immunity_is_kept_and_refuses_the_condition():
    sb, line = ii_one(Name="Brass Sentinel", ConditionImmunities=["charmed", "paralyzed", "petrified", "poisoned"],
                      LegendaryActions=[], Traits=[])
    assert sb.condition_immune == ("Charmed", "Paralyzed", "Petrified", "Poisoned")
    assert "condition immunities Charmed, Paralyzed, Petrified, Poisoned" in line
    f, _ = apply(new_fight("d20", "t", 1), L.to_add(sb)[0])
    with pytest.raises(RuleError) as exc:
        apply(f, C.AddCondition(f.combatants[0].id, "Petrified"))
    assert "\n" not in str(exc.value)


def test_ii_a_paralysis_rider_is_kept_whole_with_its_save():
    bite = {"Name": "Bite", "Content": "Melee Weapon Attack: +5 to hit, reach 5 ft., one creature. Hit: 7 (1d8 + 3) "
            "piercing damage, and the target must make a DC 11 Constitution saving throw, taking 9 (2d8) poison "
            "damage on a failed save, or half as much on a success. If this poison drops the target to 0 hit "
            "points, it is stable but poisoned for 1 hour, even after it regains hit points, and it is "
            "paralyzed while it stays poisoned this way."}
    sb, _ = ii_one(Name="Web Lurker", Actions=[bite], LegendaryActions=[], Traits=[])
    a = sb.attacks[0]
    assert a.rider.endswith("and it is paralyzed while it stays poisoned this way")
    # poisoned only when the poison drops it to 0: no condition a failed save gives outright
    assert len(a.rider) > 200 and (a.save, a.dc, a.condition) == ("con", 11, "")
    assert [(d.dice, d.type) for d in a.rider_damage] == [("2d8", "poison")] and a.rider_half


def test_ii_reactions_traits_and_spellcasting():
    caster = ii(
        Name="Hedge Warlock", LegendaryActions=[], DamageImmunities=[],
        Traits=[{"Name": "Spellcasting", "Content": "The warlock is a 5th-level spellcaster. Its spellcasting "
                 "ability is Intelligence (spell save DC 13, +5 to hit with spell attacks). It has these spells "
                 "prepared:\nCantrips (at will): spark, mend\n1st level (4 slots): veil, sleep\n3rd level "
                 "(2 slots): fireball"},
                {"Name": "Sly Step", "Content": "It moves without a sound."}],
        Actions=[{"Name": "Staff", "Content": "Melee Weapon Attack: +2 to hit, reach 5 ft., one target. Hit: 3 "
                  "(1d6) bludgeoning damage."}],
        Reactions=[{"Name": "Parry", "Content": "The warlock adds 2 to its AC against one melee attack."}],
    )
    sb, line = II.convert_block(caster)
    sc = sb.spellcasting
    assert (sc.ability, sc.dc, sc.bonus, sc.slots) == ("int", 13, 5, (4, 0, 2))
    assert [(s.name, s.level) for s in sc.spells] == [("spark", 0), ("mend", 0), ("veil", 1), ("sleep", 1),
                                                       ("fireball", 3)]
    assert [t.name for t in sb.traits] == ["Spellcasting", "Sly Step"] and sb.traits[1].text
    assert sb.actions[0].name == "Parry" and sb.actions[0].act == "reaction"
    pools = {p.key: p.max for p in L.to_add(sb)[0].resources}
    assert pools == {"Spell slots 1": 4, "Spell slots 3": 2}
    assert "spellcasting (DC 13, +5, 5 spells, slots 4/0/2)" in line and "Parry (reaction)" in line


# --- 5e SRD API ----------------------------------------------------------------------------------


def srd(**over: Any) -> dict[str, Any]:
    m: dict[str, Any] = {
        "index": "cinder-wyrm", "name": "Cinder Wyrm", "size": "Huge", "type": "dragon", "alignment": "chaotic evil",
        "armor_class": [{"type": "natural", "value": 19}], "hit_points": 200, "hit_dice": "16d12",
        "hit_points_roll": "16d12+96", "speed": {"walk": "40 ft.", "climb": "40 ft.", "fly": "80 ft."},
        "strength": 26, "dexterity": 10, "constitution": 22, "intelligence": 16, "wisdom": 13, "charisma": 20,
        "proficiencies": [{"value": 6, "proficiency": {"index": "saving-throw-dex", "name": "Saving Throw: DEX"}},
                          {"value": 13, "proficiency": {"index": "skill-perception", "name": "Skill: Perception"}}],
        "damage_vulnerabilities": [], "damage_resistances": [], "damage_immunities": ["fire"],
        "condition_immunities": [], "senses": {"darkvision": "120 ft.", "passive_perception": 23},
        "languages": "Common, Draconic", "challenge_rating": 17, "proficiency_bonus": 6, "xp": 18000,
        "special_abilities": [{"name": "Legendary Resistance", "desc": "When it fails a save, it can succeed "
                               "instead.", "usage": {"type": "per day", "times": 3}}],
        "actions": [
            {"name": "Multiattack", "multiattack_type": "actions", "desc": "The wyrm makes three attacks: one with "
             "its bite and two with its claws.", "actions": [{"action_name": "Bite", "count": 1, "type": "melee"},
                                                             {"action_name": "Claw", "count": 2, "type": "melee"}]},
            {"name": "Bite", "desc": "Melee Weapon Attack: +14 to hit, reach 10 ft., one target. Hit: 19 (2d10 + 8) "
             "piercing damage plus 7 (2d6) fire damage.", "attack_bonus": 14,
             "damage": [{"damage_type": {"index": "piercing", "name": "Piercing"}, "damage_dice": "2d10+8"},
                        {"damage_type": {"index": "fire", "name": "Fire"}, "damage_dice": "2d6"}]},
            {"name": "Claw", "desc": "Melee Weapon Attack: +14 to hit, reach 5 ft., one target. Hit: 15 (2d6 + 8) "
             "slashing damage.", "attack_bonus": 14,
             "damage": [{"damage_type": {"index": "slashing", "name": "Slashing"}, "damage_dice": "2d6+8"}]},
            {"name": "Fire Breath", "desc": "The wyrm breathes fire in a 60-foot cone. Each creature in that area "
             "must make a DC 21 Dexterity saving throw, taking 63 (18d6) fire damage on a failed save, or half "
             "as much damage on a successful one.",
             "usage": {"type": "recharge on roll", "dice": "1d6", "min_value": 5},
             "dc": {"dc_type": {"index": "dex", "name": "DEX"}, "dc_value": 21, "success_type": "half"},
             "damage": [{"damage_type": {"index": "fire", "name": "Fire"}, "damage_dice": "18d6"}]},
        ],
        "legendary_actions": [
            {"name": "Detect", "desc": "The wyrm makes a Wisdom (Perception) check."},
            {"name": "Wing Attack (Costs 2 Actions)", "desc": "Each creature within 10 feet must succeed on a DC 22 "
             "Dexterity saving throw or take 15 (2d6 + 8) bludgeoning damage and be knocked prone.",
             "dc": {"dc_type": {"index": "dex", "name": "DEX"}, "dc_value": 22, "success_type": "none"},
             "damage": [{"damage_type": {"index": "bludgeoning", "name": "Bludgeoning"}, "damage_dice": "2d6+8"}]},
        ],
        "image": "/api/images/monsters/cinder-wyrm.png", "url": "/api/monsters/cinder-wyrm",
    }
    m.update(over)
    return m


def test_srd_breath_legendary_actions_multiattack_and_the_report():
    sb, line = SRD.convert_monster(srd())
    by = {a.name: a for a in sb.actions}
    breath = by["Fire Breath"]
    assert (breath.save, breath.dc, breath.on_save, breath.recharge, breath.area) == ("dex", 21, "half", 5,
                                                                                      "60-foot cone")
    assert [(d.dice, d.type) for d in breath.damage] == [("18d6", "fire")]
    assert by["Multiattack"].attacks == ("Bite", "Claw", "Claw")
    assert (by["Wing Attack"].act, by["Wing Attack"].cost, by["Wing Attack"].on_save) == ("legendary", 2, "none")
    assert (sb.legendary, sb.legendary_resistance) == (3, 3)
    assert "legendary actions a round (not said: 3 taken)" in line
    assert sb.skills[0].name == "Perception" and sb.challenge == "17 (18,000 XP)" and sb.immune == ("fire",)
    assert sb.senses == "darkvision 120 ft., passive perception 23"
    assert line.endswith("fields not taken: index, size, alignment, image, url")


def test_srd_a_hit_part_only_the_text_gives_is_read_from_the_text():
    mace = {"name": "Mace", "desc": "Melee Weapon Attack: +14 to hit, reach 10 ft., one target. Hit: 15 (2d6 + 8) "
            "bludgeoning damage plus 21 (6d6) fire damage.", "attack_bonus": 14,
            "damage": [{"damage_type": {"index": "bludgeoning", "name": "Bludgeoning"}, "damage_dice": "2d6+8"}]}
    sb, line = SRD.convert_monster(srd(name="Brimstone Lord", actions=[mace], legendary_actions=[]))
    assert [(d.dice, d.type) for d in sb.attacks[0].damage] == [("2d6+8", "bludgeoning"), ("6d6", "fire")]
    assert "; Mace's 6d6 fire read from its text (the damage list omits it)" in line
    assert "skipped" not in line  # taken, so not said among what was skipped


def test_srd_condition_immunities_swimmer_and_spellcasting_object():
    sb, line = SRD.convert_monster(srd(
        name="Tide Sage", speed={"swim": "40 ft."}, legendary_actions=[], actions=[],
        condition_immunities=[{"index": "petrified", "name": "Petrified", "url": "/api/conditions/petrified"}],
        special_abilities=[{"name": "Spellcasting", "desc": "The sage casts spells (spell save DC 14).",
                            "spellcasting": {"level": 7, "ability": {"index": "wis", "name": "WIS"}, "dc": 14,
                                             "modifier": 6, "slots": {"1": 4, "2": 3},
                                             "spells": [{"name": "Spray", "level": 0},
                                                        {"name": "Tide Lash", "level": 2},
                                                        {"name": "Calm Water", "level": 1,
                                                         "usage": {"type": "per day", "times": 1}}]}}],
    ))
    assert sb.speed == 0 and [(s.kind, s.feet) for s in sb.speeds] == [("swim", 40)]
    assert sb.condition_immune == ("Petrified",)
    sc = sb.spellcasting
    assert (sc.ability, sc.dc, sc.bonus, sc.slots) == ("wis", 14, 6, (4, 3))
    assert [(s.name, s.level, s.uses) for s in sc.spells] == [("Spray", 0, 0), ("Tide Lash", 2, 0),
                                                              ("Calm Water", 1, 1)]
    assert "spellcasting (DC 14, +6, 3 spells, slots 4/3)" in line


# --- Foundry --------------------------------------------------------------------------------------


def cosmere_actor() -> dict[str, Any]:
    return {
        "_id": "aB3dE5", "name": "Quarry Thug", "type": "adversary", "img": "icons/thug.webp",
        "system": {
            "attributes": {k: {"value": v} for k, v in (("str", 3), ("spd", 2), ("int", 0), ("wil", 1),
                                                         ("awa", 1), ("pre", 0))},
            "defenses": {"phy": {"value": 15}, "cog": {"value": 11}, "spi": {"value": 11}},
            "resources": {"hea": {"value": 24, "max": {"value": 24}}, "foc": {"value": 3, "max": {"value": 3}},
                          "inv": {"value": 0, "max": {"value": 0}}},
            "skills": {"hwp": {"rank": 2, "mod": {"value": 5}}, "lwp": {"rank": 1, "mod": {"value": 3}}},
            "biography": {"value": "<p>Hired muscle.</p>"},
        },
        "items": [
            {"name": "Strike: Maul", "type": "action", "system": {
                "description": {"value": "<p><strong>Attack +5</strong>, reach 5 ft., one target.</p>"},
                "activation": {"type": "skill_test", "cost": {"value": 1, "type": "act"}, "skill": "hwp"},
                "damage": {"formula": "1d10", "type": "impact"}}},
            {"name": "Strike: Sling", "type": "action", "system": {
                "description": {"value": "<p>Attack +3, range 30/120 ft., one target.</p>"},
                "activation": {"type": "skill_test", "cost": {"value": 1, "type": "act"}, "skill": "lwp"},
                "damage": {"formula": "1d4", "type": "impact"}}},
            {"name": "Shove Off", "type": "action", "system": {
                "description": {"value": "<p>When an enemy moves next to it, it pushes them back 5 feet.</p>"},
                "activation": {"type": "utility", "cost": {"value": 1, "type": "rea"},
                               "consume": [{"type": "resource", "resource": "foc", "value": {"min": 1, "max": 1}}]}}},
            {"name": "Crushing Swing", "type": "action", "system": {
                "description": {"value": "<p>Two actions: a blow that staggers.</p>"},
                "activation": {"type": "utility", "cost": {"value": 2, "type": "act"},
                               "consume": [{"type": "resource", "resource": "foc", "value": {"min": 2, "max": 2}}],
                               "uses": {"type": "use", "value": 1, "max": 1, "recharge": "scene"}}}},
            {"name": "Tough Hide", "type": "talent", "system": {}},
        ],
        "_stats": {"systemId": "cosmere-rpg", "systemVersion": "1.0.0"},
    }


def test_foundry_cosmere_strike_action_items_are_attacks_and_others_abilities():
    result = run([cosmere_actor()])
    sb = result.creatures[0]
    maul, sling = sb.attacks
    assert (maul.name, maul.bonus, maul.kind, maul.range, maul.damage, maul.type) == (
        "Strike: Maul", 5, "melee", "5", "1d10", "impact")
    assert (sling.bonus, sling.kind, sling.range) == (3, "ranged", "30/120")
    shove, swing = sb.actions
    assert (shove.act, shove.focus, shove.text) == ("reaction", 1, "When an enemy moves next to it, it pushes them "
                                                    "back 5 feet.")
    assert (swing.act, swing.cost, swing.focus, swing.uses, swing.per) == ("action", 2, 2, 1, "fight")
    assert spend_of(swing) == (("Crushing Swing", 1), ("focus", 2))
    line = result.report[0]
    assert "attacks from action items Strike: Maul, Strike: Sling" in line
    assert "abilities Shove Off (reaction, 1 focus), Crushing Swing (2 actions, 2 focus)" in line
    assert "fields not taken: _id, img" in line and "system fields not taken: biography" in line
    assert "items not taken: Tough Hide (talent)" in line


def wfrp_actor() -> dict[str, Any]:
    return {
        "name": "Marsh Troll", "type": "creature", "img": "troll.webp",
        "system": {
            "characteristics": {k: {"initial": v, "advances": 0, "modifier": 0} for k, v in
                                (("ws", 33), ("bs", 10), ("s", 55), ("t", 50), ("i", 15), ("ag", 20), ("dex", 15),
                                 ("int", 12), ("wp", 20), ("fel", 5))},
            "status": {"wounds": {"value": 30, "max": 30}},
            "details": {"species": {"value": "Troll"}},
        },
        "items": [
            {"name": "Weapon", "type": "trait", "system": {
                "specification": {"value": "7"}, "description": {"value": "<p>It strikes with its fists.</p>"},
                "rollable": {"value": True, "rollCharacteristic": "ws", "bonusCharacteristic": "s", "damage": True}}},
            {"name": "Armour", "type": "trait", "system": {"specification": {"value": "2"}}},
            {"name": "Regenerate", "type": "trait", "system": {
                "description": {"value": "<p>At the end of each round it heals d10 Wounds.</p><p>Fire stops it.</p>"}}},
            {"name": "Fear", "type": "trait",
             "system": {"specification": {"value": "2"}, "description": {"value": ""}}},
            {"name": "Melee (Brawling)", "type": "skill", "system": {"advances": {"value": 10}}},
        ],
        "effects": [{"name": "Lurking"}],
        "_stats": {"systemId": "wfrp4e"},
    }


def test_foundry_wfrp4e_traits_weapons_and_armour():
    result = run([wfrp_actor()])
    sb = result.creatures[0]
    assert [(w.name, w.damage, w.sb, w.skill) for w in sb.weapons] == [("Weapon", 7, True, "ws")]
    assert (sb.armour.head, sb.armour.body, sb.armour.lleg) == (2, 2, 2)
    assert [t.name for t in sb.traits] == ["Regenerate", "Fear (2)"]
    assert sb.traits[0].text == "At the end of each round it heals d10 Wounds.\nFire stops it."
    line = result.report[0]
    assert "traits Regenerate, Fear (2)" in line and "items not taken: Melee (Brawling) (skill)" in line
    assert "fields not taken: img, effects" in line and "system fields not taken: details" in line


# --- every field not taken, for every entry -------------------------------------------------------


@pytest.mark.parametrize("fmt", ["ii", "srd"])
def test_an_unknown_key_is_named_for_every_entry(fmt):
    make = ii if fmt == "ii" else srd
    key = "Lair" if fmt == "ii" else "lair"
    entries = [make(**{key: "A cave full of bones."}), make(Name="Second", name="Second", **{key: ["x"]})]
    result = run(entries)
    assert len(result.report) == 2
    for line in result.report:
        assert f"fields not taken: {'Id, Source, Description, Version' if fmt == 'ii' else 'index, size'}" in line
        assert line.rstrip().endswith(key) or f", {key}" in line


def test_big_real_shape_lists_import_with_their_abilities(capsys):
    ii_many = [ii(Name=f"Wyrm {i}", Id=str(i)) for i in range(300)]
    srd_many = [srd(name=f"Wyrm {i}", index=str(i)) for i in range(300)]
    figures = []
    for what, data in (("Improved Initiative", ii_many), ("5e SRD API", srd_many)):
        t = time.perf_counter()
        result = run(copy.deepcopy(data))
        figures.append(f"{what}: 300 legendary dragons in {time.perf_counter() - t:.3f} s")
        assert len(result.creatures) == 300 and all(len(sb.actions) >= 4 for sb in result.creatures)
    actors = [dict(cosmere_actor(), name=f"Thug {i}") for i in range(100)]
    t = time.perf_counter()
    assert len(foundry.convert(actors).creatures) == 100
    figures.append(f"Foundry cosmere-rpg: 100 actors in {time.perf_counter() - t:.3f} s")
    with capsys.disabled():
        print("\n" + "\n".join(figures))


HOSTILE = ("9" * 60_000, "DC " + "9" * 60_000, "1st level (" + "9" * 60_000, "9 (1d6) " * 8_000, "<" * 60_000,
           "one with its " + "a" * 60_000, "(Recharge " + " " * 60_000, "Cantrips (at will): " + "a, " * 20_000)


@pytest.mark.parametrize("text", HOSTILE, ids=lambda t: repr(t[:12]))
def test_hostile_texts_are_read_once(text):
    # each of these took minutes while a pattern re-read a run from every position in it; under the
    # fuzz's alarm a hang fails loudly
    from tests.library.test_file_fuzz import alarm

    actor = cosmere_actor()
    actor["items"][2]["system"]["description"]["value"] = text
    with alarm():
        for data in ([ii(Actions=[{"Name": "Odd", "Content": text}],
                         Traits=[{"Name": "Spellcasting", "Content": text}])],
                     [srd(actions=[{"name": "Odd", "desc": text}])], [actor]):
            try:
                run(data)
            except RuleError as exc:
                assert "\n" not in str(exc)
