"""What a statblock's traits, abilities and spellcasting must be to be taken (issue 24): checked the
same way for a library file, an import and a combatant's kept statblock, in each ruleset's words."""

from __future__ import annotations

from typing import Any

import pytest

import engine.library as L
from engine.errors import RuleError


def d20(**over: Any) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "name": "Ash Drake",
        "hp": 60,
        "attacks": [{"name": "Bite", "bonus": 6, "damage": [{"dice": "2d6+3", "type": "piercing"}]},
                    {"name": "Claw", "bonus": 6, "damage": [{"dice": "1d8+3", "type": "slashing"}]}],
    }
    entry.update(over)
    return entry


def refused(rid: str, entry: dict[str, Any], words: str) -> None:
    with pytest.raises(RuleError) as exc:
        L.decode_entry(rid, entry)
    assert words in str(exc.value), str(exc.value)
    assert "\n" not in str(exc.value)


def test_a_whole_d20_entry_is_taken():
    sb = L.decode_entry("d20", d20(
        traits=[{"name": "Ash Cloud", "text": "Line one.\nLine two."}],
        actions=[
            {"name": "Multiattack", "attacks": ["Bite", "Claw", "Claw"]},
            {"name": "Cinder Breath", "save": "dex", "dc": 14, "damage": [{"dice": "6d6", "type": "fire"}],
             "recharge": 5, "area": "15-foot cone", "targets": 0},
            {"name": "Tail Sweep", "act": "legendary", "cost": 2},
        ],
        legendary=3,
        spellcasting={"ability": "cha", "dc": 13, "slots": [2], "spells": [
            {"name": "Ember Bolt", "level": 0, "hit": 5, "damage": [{"dice": "1d10", "type": "fire"}]},
            {"name": "Smoke Veil", "level": 1, "save": "con", "dc": 13, "condition": "Blinded"},
        ]},
    ))
    assert [a.name for a in L.get_kind("d20").abilities(sb)][-1] == "Smoke Veil"


@pytest.mark.parametrize(("over", "words"), [
    ({"traits": [{"name": "", "text": "x"}]}, "trait name cannot be empty"),
    ({"traits": [{"name": "Two\nlines"}]}, "single line"),
    ({"traits": [{"name": "Long", "text": "x" * 2001}]}, "at most 2000"),
    ({"actions": [{"name": "Gaze", "save": "luck", "dc": 12}]}, "a save is one of str, dex"),
    ({"actions": [{"name": "Gaze", "dc": 12}]}, "a DC needs the save"),
    ({"actions": [{"name": "Gaze", "act": "sometimes"}]}, "act is one of action, bonus"),
    ({"actions": [{"name": "Spit", "damage": [{"dice": "2q6"}]}]}, "Spit's damage"),
    ({"actions": [{"name": "Spit", "uses": 3}]}, "uses need what they are counted per"),
    ({"actions": [{"name": "Spit", "uses": 3, "per": "day", "recharge": 5}]}, "not both"),
    ({"actions": [{"name": "Multiattack", "attacks": ["Bite", "Horn"]}]}, "makes 'Horn'"),
    ({"actions": [{"name": "Spit"}, {"name": "spit"}]}, "two abilities called"),
    ({"actions": [{"name": "Sweep", "act": "legendary"}]}, "has none (legendary = 0)"),
    ({"legendary": 2, "actions": [{"name": "Sweep", "act": "legendary", "cost": 3}]}, "it has 2 a round"),
    ({"spellcasting": {"slots": [1] * 10}}, "at most 9"),
    ({"spellcasting": {"ability": "luck"}}, "spellcasting: the ability"),
    ({"spellcasting": {"slots": [2], "spells": [{"name": "Big Spell", "level": 3}]}}, "no level 3 slots"),
    ({"condition_immune": ["two\nlines"]}, "condition"),
])
def test_d20_refusals(over, words):
    refused("d20", d20(**over), words)


def test_an_innate_spell_with_uses_needs_no_slot():
    sb = L.decode_entry("d20", d20(spellcasting={"spells": [
        {"name": "Fog", "level": 1, "uses": 3, "per": "day"}, {"name": "Light", "level": -1}]}))
    assert sb.spellcasting is not None and len(sb.spellcasting.spells) == 2


def cosmere(**over: Any) -> dict[str, Any]:
    entry: dict[str, Any] = {"name": "Shard Guard", "hp": 20, "focus": 4,
                             "attacks": [{"name": "Spear", "bonus": 4, "damage": "1d8", "type": "keen"}]}
    entry.update(over)
    return entry


def test_cosmere_abilities_in_its_words():
    sb = L.decode_entry("cosmere", cosmere(actions=[
        {"name": "Brace", "act": "reaction", "focus": 1},
        {"name": "Crushing Will", "cost": 2, "focus": 2, "save": "spi", "dc": 14},
    ]))
    assert [a.act for a in sb.actions] == ["reaction", "action"]
    refused("cosmere", cosmere(actions=[{"name": "X", "save": "dex", "dc": 3}]), "a save is one of phy, cog, spi")
    refused("cosmere", cosmere(actions=[{"name": "X", "act": "bonus"}]), "act is one of action, free, reaction")
    refused("cosmere", cosmere(actions=[{"name": "X", "cost": 4}]), "at most 3 actions")


def test_warhammer_and_ninephase_words():
    wh = {"name": "Bog Thing", "wounds": 14, "weapons": [{"name": "Claws", "damage": 4}]}
    sb = L.decode_entry("warhammer", {**wh, "traits": [{"name": "Regenerate", "text": "Heals."}],
                                      "actions": [{"name": "Stench", "save": "t", "dc": 0}]})
    assert sb.traits[0].name == "Regenerate"
    refused("warhammer", {**wh, "actions": [{"name": "Stench", "save": "con"}]}, "a save is one of ws, bs")
    nine = {"name": "Mire Wisp", "hp": 8, "activities": [{"name": "Flicker"}]}
    sb = L.decode_entry("ninephase", {**nine, "traits": [{"name": "Glow", "text": "Sheds light."}]})
    assert sb.traits[0].text == "Sheds light."


def test_a_hostile_count_is_refused_before_anything_is_encoded():
    many = [{"name": f"T{i}"} for i in range(50_000)]
    refused("d20", d20(traits=many), "traits: 50000, at most 100")
    refused("d20", d20(actions=many), "abilities and spells: 50000, at most 100")
    refused("d20", d20(actions=[{"name": "Multiattack", "attacks": ["Bite"] * 5000}]), "5000 attacks, at most 20")
    refused("d20", d20(spellcasting={"spells": many}), "abilities and spells: 50000")


def test_a_rider_is_whole_several_lines_and_read_for_its_save():
    rider = "the target must succeed on a DC 11 Constitution saving throw or be poisoned.\nWhile poisoned, it is still."
    sb = L.decode_entry("d20", d20(attacks=[{"name": "Sting", "bonus": 4, "rider": rider, "save": "con", "dc": 11,
                                            "condition": "Poisoned"}]))
    assert sb.attacks[0].rider == rider and "\n" not in L.attack_label(sb, sb.attacks[0])
    refused("d20", d20(attacks=[{"name": "Sting", "rider": "x" * 2001}]), "at most 2000")
    refused("d20", d20(attacks=[{"name": "Sting", "save": "luck"}]), "save")
    refused("d20", d20(attacks=[{"name": "Sting", "dc": 12}]), "a DC needs the save")


def test_other_speeds_skills_senses_languages_challenge():
    sb = L.decode_entry("d20", d20(speed=0, speeds=[{"kind": "swim", "feet": 40}, {"kind": "fly", "feet": 60,
                                                                                       "hover": True}],
                                   skills=[{"name": "Perception", "bonus": 5}], senses="darkvision 60 ft.",
                                   languages="Common, Draconic", challenge="5 (1,800 XP)"))
    cmd = L.to_add(sb)[0]
    assert dict(cmd.stats)["speed"] == 0 and sb.speeds[1].hover
    refused("d20", d20(speeds=[{"kind": "swim", "feet": 40}, {"kind": "swim", "feet": 20}]), "at most once")
    refused("d20", d20(speeds=[{"kind": "teleport", "feet": 40}]), "kind")
    refused("d20", d20(skills=[{"name": "", "bonus": 1}]), "skill name cannot be empty")
    refused("d20", d20(senses="a\nb"), "single line")


def test_each_ruleset_joins_with_its_limited_abilities_as_pools():
    from engine.library.abilities import spend_of

    sb = L.decode_entry("cosmere", cosmere(actions=[
        {"name": "Brace", "act": "reaction", "focus": 1},
        {"name": "Rally", "uses": 1, "per": "fight"},
    ]))
    cmd = L.to_add(sb)[0]
    assert [(p.key, p.max) for p in cmd.resources] == [("Rally", 1)]
    assert spend_of(sb.actions[0]) == (("focus", 1),)
    wh = L.decode_entry("warhammer", {"name": "Bog Thing", "wounds": 14, "weapons": [{"name": "Claws"}],
                                      "condition_immune": ["Fatigued"], "immune": ["poison"],
                                      "actions": [{"name": "Spew", "recharge": 6, "save": "ag"}]})
    cmd = L.to_add(wh)[0]
    assert [(p.key, p.recharge) for p in cmd.resources] == [("Spew", 6)]
    assert cmd.condition_immune == ("Fatigued",) and cmd.immune == ("poison",)
    nine = L.decode_entry("ninephase", {"name": "Mire Wisp", "hp": 8, "activities": [{"name": "Flicker"}],
                                        "actions": [{"name": "Glare", "uses": 2, "per": "day"}]})
    assert [(p.key, p.max) for p in L.to_add(nine)[0].resources] == [("Glare", 2)]
