"""The shapes of the 5e SRD API's real monsters (5e-SRD-Monsters.json in github.com/5e-bits/5e-database)
the importer got wrong before it was checked against that file, one regression test each. The inputs
are written for this test, in the file's shape (its field names and sentence patterns), with other
creatures, words and numbers: no statblock text of the SRD is copied here."""

from __future__ import annotations

from typing import Any

from engine.library.importers.srd import convert_monster
from engine.library.importers.text5e import failed_save_condition, spellcasting_from_text


def monster(**over: Any) -> dict[str, Any]:
    m: dict[str, Any] = {
        "index": "bog-hag", "name": "Bog Hag", "size": "Medium", "type": "fey", "alignment": "neutral evil",
        "armor_class": [{"type": "natural", "value": 15}], "hit_points": 60, "hit_dice": "8d8",
        "hit_points_roll": "8d8+24", "speed": {"walk": "30 ft."},
        "strength": 16, "dexterity": 12, "constitution": 16, "intelligence": 12, "wisdom": 14, "charisma": 14,
        "proficiencies": [], "damage_vulnerabilities": [], "damage_resistances": [], "damage_immunities": [],
        "condition_immunities": [], "senses": {"passive_perception": 12}, "languages": "Sylvan",
        "challenge_rating": 3, "proficiency_bonus": 2, "xp": 700, "special_abilities": [], "actions": [],
        "legendary_actions": [], "url": "/api/monsters/bog-hag",
    }
    m.update(over)
    return m


def _dc(kind: str, value: int, success: str) -> dict[str, Any]:
    return {"dc_type": {"index": kind, "name": kind.upper()}, "dc_value": value, "success_type": success}


def test_the_text_saying_half_on_a_save_wins_over_success_type_none_and_the_report_says_so():
    gust = {"name": "Bog Gust (Recharge 6)", "desc": "The hag breathes marsh gas in a 20-foot cone. Each creature "
            "there must make a DC 13 Constitution saving throw, taking 14 (4d6) poison damage on a failed save, "
            "or half as much damage on a successful one.", "usage": {"type": "recharge on roll", "min_value": 6},
            "dc": _dc("con", 13, "none"), "damage": [{"damage_type": {"name": "Poison"}, "damage_dice": "4d6"}]}
    shriek = {"name": "Shriek", "desc": "Each creature within 30 feet must succeed on a DC 13 Wisdom saving throw "
              "or become frightened until the end of its next turn.", "dc": _dc("wis", 13, "none")}
    sb, line = convert_monster(monster(actions=[gust, shriek]))
    by = {a.name: a for a in sb.actions}
    assert (by["Bog Gust"].on_save, by["Bog Gust"].recharge) == ("half", 6)
    assert (by["Shriek"].on_save, by["Shriek"].condition) == ("none", "Frightened")
    assert "Bog Gust half on a save (its text says half; the data's success_type says none)" in line
    assert "Shriek half" not in line


def test_a_rider_condition_under_a_further_if_is_not_taken_and_its_save_damage_is():
    fang = {"name": "Fang", "desc": "Melee Weapon Attack: +4 to hit, reach 5 ft., one creature. Hit: 5 (1d6 + 2) "
            "piercing damage, and the target must make a DC 12 Constitution saving throw, taking 7 (2d6) acid "
            "damage on a failed save, or half as much damage on a successful one. If the acid leaves the target "
            "at 0 hit points, it is stable but blinded for 1 hour and stunned while blinded this way.",
            "attack_bonus": 4, "damage": [{"damage_type": {"name": "Piercing"}, "damage_dice": "1d6+2"}]}
    sting = {"name": "Sting", "desc": "Melee Weapon Attack: +4 to hit, reach 5 ft., one creature. Hit: 4 (1d4 + 2) "
             "piercing damage, and the target must succeed on a DC 12 Constitution saving throw or be poisoned "
             "for 1 minute.", "attack_bonus": 4,
             "damage": [{"damage_type": {"name": "Piercing"}, "damage_dice": "1d4+2"}]}
    sb, line = convert_monster(monster(actions=[fang, sting]))
    fang_a, sting_a = sb.attacks
    assert (fang_a.save, fang_a.dc, fang_a.condition) == ("con", 12, "")
    assert fang_a.rider.endswith("stunned while blinded this way")  # the rider stays whole
    assert [(d.dice, d.type) for d in fang_a.rider_damage] == [("2d6", "acid")] and fang_a.rider_half
    assert (sting_a.condition, sting_a.rider_damage, sting_a.rider_half) == ("Poisoned", (), False)
    assert "Fang's rider damage 2d6 acid on a failed save, half on a success" in line


def test_only_a_condition_a_failed_save_gives_outright_is_taken():
    assert failed_save_condition("It must make a DC 12 Strength saving throw. It is restrained on a failed save.") \
        == "Restrained"
    assert failed_save_condition("A DC 14 Dexterity saving throw. On a failed save, the target is paralyzed.") \
        == "Paralyzed"
    assert failed_save_condition("A DC 14 Dexterity saving throw or take 5 (2d4) damage and be knocked prone.") \
        == "Prone"
    assert failed_save_condition("On a failed save, it takes 9 (2d8) damage, and if this drops it to 0 hit points "
                                 "it is petrified.") == ""
    assert failed_save_condition("A DC 12 Constitution saving throw. The target is poisoned if it drinks.") == ""


def test_unreported_losses_are_named_and_a_short_or_long_rest_is_kept():
    web = {"name": "Snare", "desc": "Ranged Weapon Attack: +4 to hit, range 20/40 ft., one creature. Hit: The "
           "target is restrained by sticky reeds.", "usage": {"type": "recharge on roll", "dice": "1d6",
                                                               "min_value": 5}, "attack_bonus": 4}
    traits = [
        {"name": "Rush", "desc": "If the hag moves 20 feet straight at a target and hits it with a claw on the same "
         "turn, the target takes an extra 4 (1d8) bludgeoning damage.",
         "damage": [{"damage_type": {"name": "Bludgeoning"}, "damage_dice": "1d8"}]},
        {"name": "Stubborn", "desc": "When the hag drops to 0 hit points, it drops to 1 instead.",
         "usage": {"type": "recharge after rest", "rest_types": ["short", "long"]}},
    ]
    ac = [{"type": "dex", "value": 11}, {"type": "spell", "value": 14, "spell": {"name": "Bark Skin"}}]
    sb, line = convert_monster(monster(actions=[web], special_abilities=traits, armor_class=ac))
    assert sb.ac == 11 and [a.name for a in sb.attacks] == ["Snare"]
    assert "Snare's recharge 5-6 (an attack has no recharge or uses: the GM keeps track)" in line
    assert "other armor classes (the first, AC 11, taken): AC 14 (spell Bark Skin)" in line
    assert "Rush's damage 1d8 bludgeoning (a trait's: in its text, for the GM to deal)" in line
    assert [t.name for t in sb.traits] == ["Rush", "Stubborn (Recharges after a Short or Long Rest)"]
    assert "Long Rest)" in line and "after a Long Rest" not in line


def test_spells_from_the_data_list_at_will_levels_and_no_misleading_lines():
    innate = {"name": "Innate Spellcasting", "desc": "The hag's innate spellcasting ability is Charisma (spell save "
              "DC 12). It can cast:\nAt will: glimmer, mist walk\n1/day: bog curse",
              "spellcasting": {"ability": {"index": "cha"}, "dc": 12, "components_required": ["V"],
                               "spells": [{"name": "Glimmer", "level": 1, "usage": {"type": "at will"}},
                                          {"name": "Mist Walk", "level": 2, "usage": {"type": "at will"}},
                                          {"name": "Bog Curse", "level": 4,
                                           "usage": {"type": "per day", "times": 1}}]}}
    sb, line = convert_monster(monster(special_abilities=[innate]))
    spells = [(s.name, s.level, s.uses) for s in sb.spellcasting.spells]
    assert spells == [("Glimmer", -1, 0), ("Mist Walk", -1, 0), ("Bog Curse", 4, 1)]  # at will: no slot spent
    assert "spellcasting (DC 12, 3 spells)" in line and "+0" not in line
    assert "Innate Spellcasting's spell levels of Glimmer 1, Mist Walk 2" in line
    assert "Innate Spellcasting's fields not taken: components_required (in its text)" in line
    assert "no spell list read" not in line


def test_a_spell_list_written_as_bullets_is_read_from_the_text():
    sc = spellcasting_from_text("It casts spells (spell save DC 13, +5 to hit with spell attacks):\n\n"
                                "- Cantrips (at will): spark, hum\n- 1st level (2 slots): veil")
    assert sc is not None and [(s.name, s.level) for s in sc.spells] == [("spark", 0), ("hum", 0), ("veil", 1)]
    assert sc.slots == (2,)


def test_a_multiattack_of_options_takes_the_first_and_names_the_others():
    multi = {"name": "Multiattack", "multiattack_type": "action_options", "desc": "The hag makes two attacks.",
             "action_options": {"choose": 1, "type": "action", "from": {"option_set_type": "options_array",
                                "options": [
                                    {"option_type": "action", "action_name": "Claw", "count": 2, "type": "melee"},
                                    {"option_type": "action", "action_name": "Staff", "count": 2, "type": "melee"},
                                    {"option_type": "multiple", "items": [
                                        {"option_type": "action", "action_name": "Claw", "count": 1},
                                        {"option_type": "action", "action_name": "Staff", "count": 1}]}]}}}
    claw = {"name": "Claw", "desc": "Melee Weapon Attack: +5 to hit, reach 5 ft., one target. Hit: 6 (1d6 + 3) "
            "slashing damage.", "attack_bonus": 5, "damage": [{"damage_type": {"name": "Slashing"},
                                                              "damage_dice": "1d6+3"}]}
    staff = {"name": "Staff", "desc": "Melee Weapon Attack: +5 to hit, reach 5 ft., one target. Hit: 7 (1d8 + 3) "
             "bludgeoning damage.", "attack_bonus": 5, "damage": [{"damage_type": {"name": "Bludgeoning"},
                                                                  "damage_dice": "1d8+3"}]}
    sb, line = convert_monster(monster(actions=[multi, claw, staff]))
    assert sb.actions[0].attacks == ("Claw", "Claw") and sb.actions[0].text == "The hag makes two attacks."
    assert "Multiattack's other options: Staff x2; Claw x1 and Staff x1 (a choice: the first, Claw x2, taken)" in line
    assert "action_options" not in line and "not read from its text" not in line
