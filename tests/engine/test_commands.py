"""The generic commands every ruleset shares (issue 2, item 3): combatants, health, conditions,
resources, rolls, notes, settings and the end of the fight."""

from __future__ import annotations

import msgspec
import pytest

from engine import RuleError, apply, command_union, new_fight
from engine import commands as C
from engine import events as E
from engine.dice import Rng
from engine.rules.cosmere.commands import ChooseSpeed
from engine.rules.warhammer.commands import Fortune
from engine.state import Duration, Fight
from tests.engine.support import add, frozen_copy, log, of, play, setup


def refused(f: Fight, cmd: C.Command, match: str = "") -> str:
    """Apply a command that must be refused; prove the state is untouched; return the message."""
    before = frozen_copy(f)
    with pytest.raises(RuleError, match=match or None) as err:
        apply(f, cmd)
    assert frozen_copy(f) == before
    message = str(err.value)
    assert message and "\n" not in message
    return message


# --- combatants -------------------------------------------------------------------------------


def test_add_with_count_names_them_goblin_1_to_3():
    f = new_fight("d20", seed=3)
    f, ev = play(f, C.AddCombatant("Goblin", count=3, stats=(("hp", 7),)))
    assert [c.name for c in f.combatants] == ["Goblin 1", "Goblin 2", "Goblin 3"]
    assert [c.id for c in f.combatants] == ["c1", "c2", "c3"]
    assert [c.hp for c in f.combatants] == [7, 7, 7]
    assert log(ev) == ["Goblin 1 joins the fight", "Goblin 2 joins the fight", "Goblin 3 joins the fight"]
    # a second batch carries on the numbering; ids are never reused
    f, _ = play(f, C.RemoveCombatant("c3"), C.AddCombatant("Goblin", count=2))
    assert [c.name for c in f.combatants] == ["Goblin 1", "Goblin 2", "Goblin 3", "Goblin 4"]
    assert [c.id for c in f.combatants][-2:] == ["c4", "c5"]
    # one at a time keeps the name as typed
    f, _ = play(f, C.AddCombatant("Goblin Boss"))
    assert f.combatants[-1].name == "Goblin Boss"


def test_add_fills_in_the_rulesets_stats_and_pools():
    f = setup("d20", add("Bran", "pc", "party", hp=30, dex=14))
    c = f.combatants[0]
    assert (c.kind, c.side, c.hp, c.stat("dex"), c.stat("ac")) == ("pc", "party", 30, 14, 12)
    g = setup("ninephase", add("Orc", hp=12, grit=4))
    assert [(p.key, p.current) for p in g.combatants[0].health] == [("hp", 12), ("grit", 4)]
    h = setup("cosmere", add("Kal", focus=5))
    assert h.combatants[0].pool("focus").current == 5
    w = setup("warhammer", add("Ulf", wounds=14, fortune=2))
    assert w.combatants[0].hp == 14 and w.combatants[0].pool("fortune").max == 2


@pytest.mark.parametrize(
    "cmd, match",
    [
        (C.AddCombatant(""), "cannot be empty"),
        (C.AddCombatant("   "), "cannot be empty"),
        (C.AddCombatant("x" * 81), "at most 80"),
        (C.AddCombatant("Two\nlines"), "single line"),
        (C.AddCombatant("Goblin", count=0), "between 1 and 50"),
        (C.AddCombatant("Goblin", count=51), "between 1 and 50"),
        (C.AddCombatant("x" * 79, count=12), "at most 80"),
        (C.AddCombatant("Goblin", stats=(("dex", 0),)), "Dexterity score must be between"),
        (C.AddCombatant("Goblin", stats=(("hp", -5),)), "Hit points must be between"),
        (C.AddCombatant("Goblin", stats=(("luck", 10**12),)), "A stat must be between"),
        (C.AddCombatant("Goblin", stats=(("", 1),)), "stat needs a short"),
        (C.AddCombatant("Goblin", owner="c99"), "No combatant with id 'c99'"),
        (C.AddCombatant("Goblin", note="n" * 2001), "at most 2000"),
        (C.AddCombatant("Goblin", flags=("",)), "at most 40"),
        (C.AddCombatant("Goblin", resist=("fire\n",)), "at most 40"),
    ],
)
def test_add_refuses_bad_input_with_a_message(cmd, match):
    refused(new_fight("d20"), cmd, match)


def test_a_fight_holds_at_most_500_combatants():
    f = new_fight("d20")
    for _ in range(10):
        f, _ = play(f, C.AddCombatant("Rat", count=50))
    refused(f, C.AddCombatant("Rat"), "at most 500")


def test_names_are_kept_as_typed():
    f = setup("d20", add("[bold]Bob[/bold]"), add("  Padded  "))
    assert [c.name for c in f.combatants] == ["[bold]Bob[/bold]", "Padded"]


def test_remove_combatant():
    f = setup("d20", add("A"), add("B"))
    f, ev = play(f, C.RemoveCombatant("c1"))
    assert [c.name for c in f.combatants] == ["B"]
    assert log(ev) == ["A leaves the fight"]
    refused(f, C.RemoveCombatant("c1"), "No combatant with id 'c1'")


def test_edit_combatant():
    f = setup("d20", add("Orc", hp=15, dex=12))
    f, _ = play(f, C.Damage("c1", 5))
    f, ev = play(
        f,
        C.EditCombatant(
            "c1", name="Orc Chief", side="neutral", kind="npc", stats=(("hp", 25),), flags=("boss",), note="big"
        ),
    )
    c = f.combatants[0]
    assert (c.name, c.side, c.flags, c.note) == ("Orc Chief", "neutral", ("boss",), "big")
    # a new maximum keeps the damage already taken; other stats are untouched
    assert (c.health[0].current, c.health[0].max, c.stat("dex")) == (20, 25, 12)
    assert of(ev, E.Edited)[0].name == "Orc Chief"
    assert log(ev)[0].startswith("Orc Chief: renamed from Orc; ")  # the old name is in the line
    refused(f, C.EditCombatant("c1", name="Orc Chief"), "Nothing to change")
    refused(f, C.EditCombatant("c1"), "Nothing to change")
    refused(f, C.EditCombatant("c1", name=""), "cannot be empty")
    refused(f, C.EditCombatant("c1", stats=(("ac", 99),)), "Armor Class must be between")
    refused(f, C.EditCombatant("c9", name="X"), "No combatant")
    # lowering the maximum below the damage taken leaves it at what it had, never below 0
    f, _ = play(f, C.Damage("c1", 17), C.EditCombatant("c1", stats=(("hp", 4),)))
    assert f.combatants[0].health[0].current == 3 and f.combatants[0].health[0].max == 4


# --- start, turn order ------------------------------------------------------------------------


def test_start_fight_checks():
    refused(new_fight("d20"), C.StartFight(), "at least one combatant")
    f = setup("d20", add("A"))
    refused(f, C.StartFight(surprised=("c7",)), "No combatant with id 'c7'")
    refused(f, C.StartFight(initiative=(("c7", (3,)),)), "No combatant")
    refused(f, C.StartFight(initiative=(("c1", (21,)),)), "not a possible result on a d20")
    refused(f, C.StartFight(initiative=(("c1", (3, 4)),)), "needs 1 die result")
    refused(f, C.NextTurn(), "not started")
    refused(f, C.UseAction("c1"), "not started")
    f, ev = play(f, C.StartFight())
    assert f.started and f.round == 1 and log(ev)[0] == "The fight begins: Test"
    refused(f, C.StartFight(), "already started")


def test_set_initiative_and_reorder_refuse_nonsense():
    f = setup("d20", add("A"), add("B"))
    f, _ = play(f, C.StartFight())
    refused(f, C.SetInitiative("c1", 10**6), "not a believable initiative")
    assert refused(f, C.Reorder("c1", 5)) == "Position 5 is outside the order: 0 (first) to 1 (last)."
    refused(f, C.Reorder("c1", -1), "outside the order")
    g = setup("cosmere", add("A"))
    g, _ = play(g, C.StartFight())
    refused(g, C.Reorder("c1", 0), "no fixed turn order")


def test_a_command_the_ruleset_does_not_know_is_refused():
    f = setup("d20", add("A"))
    refused(f, Fortune("c1", 0), "d20 has no 'fortune' command")
    refused(f, ChooseSpeed("c1", "fast"), "no 'speed' command")
    with pytest.raises(RuleError, match="Unknown ruleset 'chess'"):
        new_fight("chess")


# --- health -----------------------------------------------------------------------------------


def test_damage_by_number_and_by_dice():
    f = setup("d20", add("Orc", hp=20))
    f, ev = play(f, C.Damage("c1", 5, type="slashing"))
    assert f.combatants[0].hp == 15
    assert log(ev) == ["Orc takes 5 slashing damage, 15 left"]
    f, ev = play(f, C.Damage("c1", dice="2d6+1", given=(3, 4)))
    assert f.combatants[0].hp == 7 and of(ev, E.Damaged)[0].roll.entered
    rng_before = f.rng
    f, ev = play(f, C.Damage("c1", dice="1d4"))
    assert f.rng != rng_before and of(ev, E.Damaged)[0].roll.total in (1, 2, 3, 4)
    # a roll below zero deals nothing, never heals
    f2, ev = play(f, C.Damage("c1", dice="1d4-10"))
    assert f2.combatants[0].hp == f.combatants[0].hp
    refused(f, C.Damage("c1"), "Give a number or a dice expression")
    refused(f, C.Damage("c1", 3, dice="1d6"), "not both")
    refused(f, C.Damage("c1", -3), "cannot be negative")
    refused(f, C.Damage("c1", 3, given=(3,)), "need a dice expression")
    refused(f, C.Damage("c1", dice="1d6", given=(7,)), "not a possible result on a d6")
    refused(f, C.Damage("c1", dice="fireball"), "Cannot read")
    refused(f, C.Damage("c1", 10**9), "too much")
    refused(f, C.Damage("c1", 3, pool="grit"), "no 'grit' track")


def test_damage_to_zero_drops_and_never_goes_below():
    f = setup("d20", add("Orc", hp=8))
    f, ev = play(f, C.Damage("c1", 50))
    c = f.combatants[0]
    assert c.hp == 0 and c.down
    assert log(ev)[-1] == "Orc is down at 0 hit points"
    f, ev = play(f, C.Damage("c1", 5))
    assert not of(ev, E.Dropped)  # already down
    f, ev = play(f, C.Heal("c1", 3))
    assert f.combatants[0].hp == 3 and of(ev, E.Revived) and f.combatants[0].dropped is None


def test_damage_takes_temporary_health_first_and_resistance_halves():
    f = setup("d20", C.AddCombatant("Golem", stats=(("hp", 30),), resist=("fire",), vulnerable=("cold",)))
    f, ev = play(f, C.TempHealth("c1", 5))
    f, ev = play(f, C.Damage("c1", 8))
    p = f.combatants[0].health[0]
    assert (p.current, p.temp) == (27, 0)
    assert "5 absorbed by temporary hp" in log(ev)[0]
    f, ev = play(f, C.Damage("c1", 9, type="Fire"))
    assert f.combatants[0].hp == 23 and "resisted" in log(ev)[0]
    f, ev = play(f, C.Damage("c1", 4, type="cold"))
    assert f.combatants[0].hp == 15 and "vulnerable" in log(ev)[0]


def test_damage_to_two_tracks_grit_first_or_the_one_chosen():
    f = setup("ninephase", add("Orc", hp=10, grit=4))
    f, ev = play(f, C.Damage("c1", 6))
    hp, grit = f.combatants[0].health
    assert (hp.current, grit.current) == (8, 0)
    assert "4 to grit, 2 to hp" in log(ev)[0]
    f, _ = play(f, C.Heal("c1", 3, pool="grit"), C.Damage("c1", 2, pool="hp"))
    hp, grit = f.combatants[0].health
    assert (hp.current, grit.current) == (6, 3)
    f, ev = play(f, C.Damage("c1", 100))
    hp, grit = f.combatants[0].health
    assert (hp.current, grit.current) == (0, 0) and of(ev, E.Dropped)


def test_heal_up_to_the_maximum_by_number_or_dice():
    f = setup("d20", add("Orc", hp=20))
    f, _ = play(f, C.Damage("c1", 10))
    f, ev = play(f, C.Heal("c1", dice="1d4", given=(4,)))
    assert f.combatants[0].hp == 14
    f, ev = play(f, C.Heal("c1", 100))
    assert f.combatants[0].hp == 20 and of(ev, E.Healed)[0].amount == 6
    refused(f, C.Heal("c1", 5, pool="focus"), "no 'focus' track to heal")
    refused(f, C.Heal("c1"), "How much healing")
    g = setup("cosmere", add("Kal"))
    refused(g, C.Heal("c1", 1, pool="focus"), "no 'focus' track to heal")


def test_temporary_health_does_not_stack_the_higher_is_kept():
    f = setup("d20", add("Orc", hp=20))
    f, _ = play(f, C.TempHealth("c1", 5), C.TempHealth("c1", 3))
    assert f.combatants[0].health[0].temp == 5
    f, ev = play(f, C.TempHealth("c1", dice="2d4", given=(4, 4)))
    assert f.combatants[0].health[0].temp == 8
    assert log(ev)[0].startswith("Orc has 8 temporary health")
    refused(f, C.TempHealth("c1", -1), "cannot be negative")


# --- conditions -------------------------------------------------------------------------------


def test_add_and_remove_conditions():
    f = setup("d20", add("Orc"), add("Mage"))
    f, ev = play(f, C.AddCondition("c1", "prone"))
    assert f.combatants[0].conditions[0].name == "Prone"  # the ruleset's spelling
    assert log(ev) == ["Orc is Prone"]
    f, ev = play(f, C.AddCondition("c1", "Frightened", source="c2", level=2, note="of the mage"))
    # adding one it already has replaces it rather than stacking a second copy
    f, ev = play(f, C.AddCondition("c1", "frightened", level=3, source="c2"))
    assert log(ev) == ["Orc has Frightened (level 3)"]  # a condition with levels is had, not been
    assert [(x.name, x.level) for x in f.combatants[0].conditions] == [("Prone", 1), ("Frightened", 3)]
    # a condition the ruleset does not name is kept as typed
    f, _ = play(f, C.AddCondition("c1", "Covered in Jam"))
    assert f.combatants[0].has("covered in jam")
    f, ev = play(f, C.RemoveCondition("c1", "PRONE"))
    assert log(ev) == ["Orc is no longer Prone (removed)"]
    assert not f.combatants[0].has("Prone")
    refused(f, C.RemoveCondition("c1", "Prone"), "Orc is not Prone")
    refused(f, C.AddCondition("c1", ""), "cannot be empty")
    refused(f, C.AddCondition("c1", "Bleeding", level=0), "between 1 and 20")
    refused(f, C.AddCondition("c1", "Burning", dice="1d"), "Cannot read")
    refused(f, C.AddCondition("c1", "Charmed", source="c9"), "No combatant")
    refused(f, C.AddCondition("c9", "Charmed"), "No combatant")
    refused(f, C.AddCondition("c1", "Dazed", duration=Duration("turn_end", "c9")), "No combatant")
    refused(f, C.AddCondition("c1", "Dazed", duration=Duration("turn_end", "c1", 0)), "between 1 and 1000")


# --- resources --------------------------------------------------------------------------------


def test_spend_and_restore_resources_within_their_bounds():
    f = setup("cosmere", add("Kal", focus=3))
    f, ev = play(f, C.SpendResource("c1", "focus", 2))
    assert f.combatants[0].pool("focus").current == 1
    assert log(ev) == ["Kal spends 2 focus (1 left)"]
    refused(f, C.SpendResource("c1", "focus", 2), "only 1 focus left")
    refused(f, C.SpendResource("c1", "focus", 0), "at least 1")
    refused(f, C.SpendResource("c1", "stormlight"), "no 'stormlight'.*focus, investiture")
    f, ev = play(f, C.RestoreResource("c1", "Focus", 5))
    assert f.combatants[0].pool("focus").current == 3 and of(ev, E.ResourceChanged)[0].delta == 2
    refused(f, C.RestoreResource("c1", "focus"), "already full")
    refused(f, C.RestoreResource("c1", "focus", -2), "at least 1")
    g = setup("d20", add("Orc"))
    refused(g, C.SpendResource("c1", "focus"), r"it has: none")


# --- rolls, notes, settings, the end ----------------------------------------------------------


def test_roll_a_dice_expression():
    f = setup("d20", add("Orc"))
    f, ev = play(f, C.Roll("1d20+2", who="c1", label="Perception"))
    (r,) = of(ev, E.Rolled)
    assert 3 <= r.roll.total <= 22 and r.name == "Orc"
    assert log(ev)[0].startswith("Orc Perception: 1d20+2 = [")
    assert f.rng.counter > 0
    g, ev = play(f, C.Roll("1d6", given=(6,)))
    assert g.rng == f.rng and of(ev, E.Rolled)[0].roll.total == 6
    refused(f, C.Roll("1d6", given=(7,)), "not a possible result")
    refused(f, C.Roll("nonsense"), "Cannot read")
    refused(f, C.Roll("1d6", who="c9"), "No combatant")


def test_the_same_seed_rolls_the_same_dice():
    a, _ = play(new_fight("d20", seed=99), C.Roll("10d20"))
    b, _ = play(new_fight("d20", seed=99), C.Roll("10d20"))
    c, _ = play(new_fight("d20", seed=100), C.Roll("10d20"))
    assert a == b and a.rng == Rng(99, a.rng.counter)
    assert a != c


def test_saving_throw_against_a_dc():
    f = setup("d20", add("Orc"))
    f, ev = play(f, C.SavingThrow("c1", "1d20+3", dc=15, given=(12,), label="Con save"))
    (s,) = of(ev, E.SaveRolled)
    assert s.success is True and s.roll.total == 15
    f, ev = play(f, C.SavingThrow("c1", "1d20+3", dc=16, given=(12,)))
    assert of(ev, E.SaveRolled)[0].success is False
    refused(f, C.SavingThrow("c1", "1d20", given=(0,)), "not a possible result")


def test_note():
    f = setup("d20", add("Orc"))
    f, ev = play(f, C.Note("The bridge is burning"), C.Note("flees", who="c1"))
    assert log(ev) == ["The bridge is burning", "Orc: flees"]
    refused(f, C.Note("   "), "cannot be empty")
    refused(f, C.Note("x" * 2001), "at most 2000")
    refused(f, C.Note("hi", who="c9"), "No combatant")


def test_settings():
    f = new_fight("d20")
    f, ev = play(f, C.Setting("roll_npc", "table"), C.Setting("roll_pc", "app"), C.Setting("roll_npc", "app"))
    assert f.setting("roll_npc") == "app" and f.setting("roll_pc") == "app"
    assert f.settings == (("roll_pc", "app"), ("roll_npc", "app"))
    refused(f, C.Setting("volume", "11"), "Unknown setting 'volume'")
    refused(f, C.Setting("roll_pc", "dm"), "takes app or table")


def test_end_fight():
    f = setup("d20", add("A"), add("B"))
    f, _ = play(f, C.StartFight(), C.NextTurn())
    f, ev = play(f, C.EndFight())
    assert f.ended and f.current == "" and log(ev) == [f"The fight ends in round {f.round}"]
    refused(f, C.EndFight(), "already over")
    refused(f, C.NextTurn(), "over")
    refused(f, C.UseAction("c1"), "over")


# --- the command vocabulary on the wire -------------------------------------------------------


def test_every_command_decodes_from_json_lines():
    dec = msgspec.json.Decoder(command_union())
    cmd = dec.decode(b'{"cmd":"damage","who":"c1","dice":"2d6","given":[3,4]}')
    assert cmd == C.Damage("c1", dice="2d6", given=(3, 4))
    for bad in (b'{"cmd":"damage"}', b'{"cmd":"explode","who":"c1"}', b'{"cmd":"note","text":"x","extra":1}'):
        with pytest.raises(msgspec.ValidationError):
            dec.decode(bad)
    tags = {t.__struct_config__.tag for t in C.COMMAND_TYPES}
    assert len(tags) == len(C.COMMAND_TYPES)  # no two commands share a tag


def test_a_refusal_that_quotes_typed_text_stays_on_one_line():
    f = setup("d20", add("Orc"))
    message = refused(f, C.Setting("Two\nlines", "app"), "Unknown setting")
    assert "Two\\nlines" in message
    refused(f, C.SpendResource("c1", "ga\tmbit"), "no 'ga\\\\tmbit'")
    refused(f, C.RemoveCombatant("c\r1"), "No combatant")


def test_durations_are_stored_with_only_what_they_mean():
    f = setup("d20", add("Orc"))
    f, _ = play(f, C.AddCondition("c1", "Prone", duration=Duration("manual", who="c1", count=-1, round=7)))
    assert f.combatants[0].conditions[0].duration == Duration()
    f, _ = play(f, C.AddCondition("c1", "Blinded", duration=Duration("turn_end", "c1", 2, round=9, phase=3)))
    assert f.combatants[0].conditions[1].duration == Duration("turn_end", "c1", 2)


def test_view_settings_take_only_their_values() -> None:
    f = new_fight("d20")
    f, _ = play(f, C.Setting("view_health", "numbers"), C.Setting("view_rolls", "public"))
    assert f.setting("view_health") == "numbers" and f.setting("view_rolls") == "public"
    with pytest.raises(RuleError, match="view_health takes band or numbers or none"):
        apply(f, C.Setting("view_health", "exact"))


def test_add_keeps_a_statblock_on_every_copy_and_takes_stats_per_copy() -> None:
    f = new_fight("d20")
    block = '{"type":"d20","name":"Goblin"}'
    f, _ = play(
        f,
        C.AddCombatant("Goblin", count=3, stats=(("hp", 7),), statblock=block, copies=((("hp", 5),), (("hp", 9),), ())),
    )
    gobs = [c for c in f.combatants if c.name.startswith("Goblin")]
    assert [c.name for c in gobs] == ["Goblin 1", "Goblin 2", "Goblin 3"]
    assert [c.hp for c in gobs] == [5, 9, 7] and all(c.statblock == block for c in gobs)
    with pytest.raises(RuleError, match="for each of the 2 copies"):
        apply(f, C.AddCombatant("Orc", count=2, stats=(("hp", 7),), copies=((("hp", 5),),)))
    with pytest.raises(RuleError):
        apply(f, C.AddCombatant("Orc", statblock="x" * 40000))
