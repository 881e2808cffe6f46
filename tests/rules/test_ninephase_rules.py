"""Nine-phase rules (issue 6, ninephase 1-5): one test (or a few) per numbered rule, named after it,
including the worked examples of the rule text."""

from __future__ import annotations

import msgspec
import pytest

from engine import RuleError, apply, describe, get_ruleset, new_fight
from engine import commands as C
from engine.history import History
from engine.rules.ninephase import board as B
from engine.rules.ninephase import catalog as K
from engine.rules.ninephase.commands import Activity
from engine.state import ActivitySpec, Fight, state_hook


def play(f: Fight, *cmds: C.Command) -> tuple[Fight, list[str]]:
    log: list[str] = []
    for cmd in cmds:
        f, ev = apply(f, cmd)
        log.extend(describe(e) for e in ev)
    return f, log


def fight(*names: str, hp: int = 10, grit: int = 5) -> Fight:
    f = new_fight("ninephase", seed=3)
    for n in names:
        f, _ = apply(f, C.AddCombatant(n, stats=(("hp", hp), ("grit", grit))))
    f, _ = apply(f, C.StartFight())
    return f


def to_phase(f: Fight, phase: int) -> Fight:
    while f.phase != phase:
        f, _ = apply(f, C.NextTurn())
    return f


def refused(f: Fight, cmd: C.Command, words: str) -> None:
    with pytest.raises(RuleError) as err:
        apply(f, cmd)
    assert words.lower() in str(err.value).lower(), str(err.value)


FIREBALL = ActivitySpec("Fireball", cost=3, phase=3, lock=True, master=True, channel=True)


# --- rule 1: activities ----------------------------------------------------------------------


def test_rule1_catalog_starts_with_the_texts_activities_and_the_gm_extends_it():
    f = new_fight("ninephase")
    names = [a.name for a in K.catalog(f)]
    assert names[:2] == ["Move", "Weapon attack"] and "Shield Block" in names
    f, log = play(f, K.DefineActivity(FIREBALL))
    assert K.find(f, "fireball") == FIREBALL
    assert log == ["Activity Fireball added: 3 actions · Master · Phase Lock 3 · Channel"]
    changed = msgspec.structs.replace(FIREBALL, cost=2)
    f, log = play(f, K.DefineActivity(changed))
    assert K.find(f, "Fireball").cost == 2 and "changed" in log[0]
    f, log = play(f, K.ForgetActivity("Move"))
    assert K.find(f, "Move") is None and log == ["Activity Move removed"]
    refused(f, K.ForgetActivity("Move"), "no activity called Move")
    # the catalog is part of the fight: it survives a save round trip
    raw = msgspec.json.encode(f)
    assert msgspec.json.decode(raw, type=Fight, dec_hook=state_hook) == f


def test_rule1_channels_in_the_catalog_are_phase_locked_master_actions():
    f = new_fight("ninephase")
    f, _ = play(f, K.DefineActivity(ActivitySpec("Ward", cost=2, phase=4, channel=True)))
    ward = K.find(f, "Ward")
    assert ward.lock and ward.master and ward.channel


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        (ActivitySpec("Big", cost=4), "0 to 3 actions"),
        (ActivitySpec("Late", phase=10), "1 to 9"),
        (ActivitySpec("Both", phase=3, weapon=True), "not both"),
        (ActivitySpec("Locked", lock=True), "give the phase"),
        (ActivitySpec("Odd", reaction=True, channel=True, phase=3), "reaction cannot be channeled"),
        (ActivitySpec("Slow", cost=3, phase=7, channel=True), "after the round ends"),
        (ActivitySpec("  "), "needs a name"),
    ],
)
def test_rule1_catalog_refuses_entries_the_rules_cannot_allow(spec, words):
    refused(new_fight("ninephase"), K.DefineActivity(spec), words)


def test_rule1_no_starting_before_the_earliest_phase():
    f = to_phase(fight("Aldric"), 2)
    refused(f, K.DoActivity("c1", "Move"), "cannot start before phase 3")
    f = to_phase(f, 5)  # a listed phase allows that phase or any later one
    f, log = play(f, K.DoActivity("c1", "Move"))
    assert log[0].startswith("Aldric uses Move (1 action)")


def test_rule1_weapon_phase_is_the_speed_factor_of_the_weapon_used():
    f = to_phase(fight("Aldric"), 4)
    refused(f, K.DoActivity("c1", "Weapon attack"), "Speed Factor")
    refused(f, K.DoActivity("c1", "Weapon attack", speed=5), "before phase 5")
    refused(f, K.DoActivity("c1", "Weapon attack", speed=10), "1 to 9")
    refused(f, K.DoActivity("c1", "Move", speed=3), "does not depend")
    f, _ = play(f, K.DoActivity("c1", "Weapon attack", speed=4))
    assert f.get("c1").economy.master


def test_rule1_a_phase_locked_activity_only_in_its_phase():
    f = fight("Mirelle")
    f, _ = play(f, K.DefineActivity(ActivitySpec("Riposte stance", phase=3, lock=True)))
    f = to_phase(f, 4)
    refused(f, K.DoActivity("c1", "Riposte stance"), "Phase Locked to phase 3")
    refused(f, Activity("c1", "Lunge", lock=True, earliest=3), "Phase Locked to phase 3")
    refused(f, Activity("c1", "Lunge", lock=True), "give the phase")


def test_rule1_not_enough_actions_left():
    f = to_phase(fight("Aldric"), 2)
    f, _ = play(f, Activity("c1", "Dash", cost=2))
    f = to_phase(f, 3)
    refused(f, Activity("c1", "Heave", cost=2), "costs 2 actions and Aldric has 1 left")
    f, _ = play(f, Activity("c1", "Step", cost=1))
    assert f.get("c1").economy.actions == 0


def test_rule1_one_act_or_one_reaction_per_phase_never_both():
    f = to_phase(fight("Aldric"), 3)
    f, _ = play(f, K.DoActivity("c1", "Move"))
    refused(f, Activity("c1", "Shout"), "already acted in phase 3")
    refused(f, K.DoActivity("c1", "Shield Block"), "already acted in phase 3")
    f = to_phase(f, 4)
    f, _ = play(f, K.DoActivity("c1", "Shield Block"))
    refused(f, Activity("c1", "Shout"), "already reacted in phase 4")
    f = to_phase(f, 5)
    refused(f, K.DoActivity("c1", "Opportunity Attack"), "already used its reaction")


def test_rule1_one_master_action_a_round_and_a_master_reaction_counts():
    f = to_phase(fight("Aldric", "Mirelle"), 2)
    f, _ = play(f, K.DefineActivity(ActivitySpec("Counterspell", cost=0, reaction=True, master=True)))
    # a Master Action first: no Master Reaction later
    f, _ = play(f, Activity("c1", "Axe", master=True))
    f = to_phase(f, 3)
    refused(f, Activity("c1", "Bash", master=True), "Master Action this round")
    refused(f, K.DoActivity("c1", "Counterspell"), "Master Action this round")
    # a Master Reaction first: no Master Action later, but the 3 actions are untouched
    f, log = play(f, K.DoActivity("c2", "Counterspell"))
    assert "Master Reaction" in log[0]
    assert f.get("c2").economy.actions == 3
    f = to_phase(f, 4)
    refused(f, Activity("c2", "Zap", master=True), "Master Action this round")
    f, _ = play(f, Activity("c2", "Walk"))  # ordinary actions are still fine
    # the next round gives both a new Master Action
    f = to_phase(to_phase(f, 9), 1)
    f, _ = play(f, Activity("c2", "Zap", master=True))


def test_rule1_each_activity_once_a_round_unless_it_says_otherwise():
    f = to_phase(fight("Aldric"), 3)
    f, _ = play(f, K.DoActivity("c1", "Move"))
    f = to_phase(f, 4)
    refused(f, K.DoActivity("c1", "move"), "each activity once a round")
    f, _ = play(f, K.DefineActivity(ActivitySpec("Shuffle", repeatable=True)))
    f, _ = play(f, K.DoActivity("c1", "Shuffle"))
    f = to_phase(f, 5)
    f, _ = play(f, K.DoActivity("c1", "Shuffle"))
    assert f.get("c1").economy.actions == 0


def test_rule1_a_zero_cost_activity_still_uses_the_phase():
    f = to_phase(fight("Aldric"), 2)
    f, _ = play(f, Activity("c1", "Shout", cost=0))
    assert f.get("c1").economy.actions == 3
    refused(f, Activity("c1", "Step"), "one turn a phase")


def test_rule1_the_axe_throw_example_acting_in_the_phase_one_is_attacked():
    # a goblin archer shoots in phase 2; the warrior throws the axe already in hand in that phase,
    # spending 1 action and his Master Action, and still spends his other actions later
    f = to_phase(fight("Warrior", "Goblin"), 2)
    f, _ = play(
        f,
        K.DoActivity("c2", "Weapon attack", speed=2),
        K.DoActivity("c1", "Throw weapon", speed=2),
    )
    e = f.get("c1").economy
    assert (e.actions, e.master) == (2, True)
    refused(f, Activity("c1", "Draw bow"), "one turn a phase")
    f = to_phase(f, 3)
    f, _ = play(f, K.DoActivity("c1", "Move"))
    f = to_phase(f, 4)
    f, _ = play(f, Activity("c1", "Draw bow"))
    assert f.get("c1").economy.actions == 0


def test_rule1_unused_actions_and_reactions_are_lost_at_the_end_of_the_round():
    f = to_phase(fight("Aldric"), 3)
    f, _ = play(f, K.DoActivity("c1", "Move"))
    f = to_phase(f, 9)
    f, log = play(f, C.NextTurn())
    assert any("Aldric 2 actions and the reaction" in line for line in log), log
    e = f.get("c1").economy
    assert (f.round, f.phase, e.actions, e.reactions, e.master, e.used) == (2, 1, 3, 1, False, ())


def test_rule1_a_refused_activity_changes_nothing():
    f = to_phase(fight("Aldric"), 2)
    before = f
    refused(f, K.DoActivity("c1", "Move"), "before phase 3")
    assert f == before


# --- rule 2: channels --------------------------------------------------------------------------


def test_rule2_the_texts_example_cost_3_phase_lock_3_begins_in_3_and_resolves_in_6():
    f = fight("Mirelle", "Orc")
    f, _ = play(f, K.DefineActivity(FIREBALL))
    f = to_phase(f, 2)
    refused(f, K.DoActivity("c1", "Fireball"), "Phase Locked to phase 3")
    f = to_phase(f, 3)
    f, log = play(f, K.DoActivity("c1", "Fireball"))
    assert log == [
        "Mirelle uses Fireball (Master Action, 3 actions); A0 R1 m",
        "Mirelle begins channeling Fireball in phase 3, resolving in phase 6",
    ]
    e = f.get("c1").economy
    assert (e.actions, e.master) == (0, True)  # the whole cost and the Master Action up front
    f, log4 = play(f, C.NextTurn())
    f, log5 = play(f, C.NextTurn())
    assert log4 == ["Phase 4"] and log5 == ["Phase 5"]
    f, log6 = play(f, C.NextTurn())
    # completion is automatic: no action, no turn of its own
    assert log6 == ["Phase 6", "Mirelle's channel Fireball resolves in phase 6"]
    assert B.resolving(f) == (("c1", "Mirelle", "Fireball"),)
    assert all(u.phase == 3 for u in f.get("c1").economy.phases)
    f, _ = play(f, C.NextTurn())
    assert f.get("c1").channels[0].status == "resolved"


@pytest.mark.parametrize("phase", [4, 5])
def test_rule2_damage_strictly_inside_the_window_interrupts_the_channel(phase):
    f = fight("Mirelle", "Orc")
    f, _ = play(f, K.DefineActivity(FIREBALL))
    f = to_phase(f, 3)
    f, _ = play(f, K.DoActivity("c1", "Fireball"))
    f = to_phase(f, phase)
    f, log = play(f, C.Damage("c1", amount=1))
    assert log[-1] == (
        f"Mirelle's channel Fireball is interrupted (took damage in phase {phase}); its actions and resources are lost"
    )
    e = f.get("c1").economy
    assert (e.actions, e.master) == (0, True)  # actions stay spent, the Master Action used
    f = to_phase(f, 6)
    assert B.resolving(f) == ()
    f, log = play(f, C.NextTurn())
    assert not any("resolves" in line for line in log)


@pytest.mark.parametrize("phase", [3, 6])
def test_rule2_damage_in_the_start_or_completion_phase_does_not_interrupt(phase):
    f = fight("Mirelle", "Orc")
    f, _ = play(f, K.DefineActivity(FIREBALL))
    f = to_phase(f, 3)
    f, _ = play(f, K.DoActivity("c1", "Fireball"))
    f = to_phase(f, phase)
    f, log = play(f, C.Damage("c1", amount=2))
    assert not any("interrupted" in line for line in log)
    assert f.get("c1").channels[0].status == ""


def test_rule2_a_saving_throw_inside_the_window_interrupts_even_when_it_succeeds():
    f = fight("Mirelle")
    f = to_phase(f, 2)
    f, _ = play(f, Activity("c1", "Bless", cost=2, earliest=2, channel=True))
    f = to_phase(f, 3)
    f, log = play(f, C.SavingThrow("c1", "d20", dc=2, given=(20,)))
    assert "success" in log[0] and "interrupted (made a saving throw in phase 3)" in log[1]


def test_rule2_zero_damage_is_no_damage_and_does_not_interrupt():
    f = to_phase(fight("Mirelle"), 2)
    f, _ = play(f, Activity("c1", "Bless", cost=2, earliest=2, channel=True))
    f = to_phase(f, 3)
    f, log = play(f, C.Damage("c1", amount=0))
    assert not any("interrupted" in line for line in log)


def test_rule2_an_uninterruptible_channel_is_not_interrupted():
    f = fight("Mirelle")
    f, _ = play(f, K.DefineActivity(ActivitySpec("Storm", cost=3, phase=3, uninterruptible=True)))
    f = to_phase(f, 3)
    f, _ = play(f, K.DoActivity("c1", "Storm"))
    f = to_phase(f, 4)
    f, log = play(f, C.Damage("c1", amount=3), C.SavingThrow("c1", given=(5,)))
    assert not any("interrupted" in line for line in log)
    f, log = play(f, C.NextTurn(), C.NextTurn())
    assert log[-1] == "Mirelle's channel Storm resolves in phase 6"


def test_rule2_a_channel_that_cannot_finish_before_the_round_ends_is_refused():
    f = to_phase(fight("Mirelle"), 7)
    refused(
        f,
        Activity("c1", "Meteor", cost=3, earliest=7, channel=True),
        "would resolve in phase 10, after the round ends",
    )
    f, log = play(f, Activity("c1", "Spark", cost=2, earliest=7, channel=True))
    assert log[-1].endswith("resolving in phase 9")


def test_rule2_a_rule_that_explicitly_stops_a_channel_can_stop_any_channel():
    f = fight("Mirelle", "Orc")
    f, _ = play(f, K.DefineActivity(ActivitySpec("Storm", cost=3, phase=3, uninterruptible=True)))
    f = to_phase(f, 3)
    f, _ = play(f, K.DoActivity("c1", "Storm"))
    refused(f, K.StopChannel("c2"), "Orc has no channel under way")
    refused(f, K.StopChannel("c1", "Gust"), "Mirelle has no channel called Gust under way")
    f = to_phase(f, 6)  # even in its completion phase, a reaction that says so stops it
    f, log = play(f, K.StopChannel("c1", "storm", "Dispel reaction"))
    assert log == ["Mirelle's channel Storm is interrupted (Dispel reaction); its actions and resources are lost"]
    refused(f, K.StopChannel("c1"), "Mirelle has no channel under way")


def test_rule2_channeling_leaves_the_other_actions_and_the_reaction_free():
    f = fight("Mirelle", "Orc")
    f, _ = play(f, K.DefineActivity(ActivitySpec("Bolt", cost=1, phase=3, channel=True)))
    f = to_phase(f, 3)
    f, _ = play(f, K.DoActivity("c1", "Bolt"))
    f = to_phase(f, 4)
    f, log = play(f, K.DoActivity("c1", "Shield Block"))
    f = to_phase(f, 5)
    f, _ = play(f, K.DoActivity("c1", "Move"))
    e = f.get("c1").economy
    assert (e.actions, e.reactions) == (1, 0)


def test_rule2_a_zero_cost_channel_resolves_in_its_own_phase():
    f = to_phase(fight("Mirelle"), 4)
    f, log = play(f, Activity("c1", "Flash", cost=0, earliest=4, channel=True))
    assert log[-1] == "Mirelle's channel Flash resolves in phase 4"


def test_rule2_one_undo_takes_back_the_channel_and_another_the_interruption():
    f = fight("Mirelle", "Orc")
    h = History.start(f)
    h.apply(K.DefineActivity(FIREBALL))
    while h.state.phase != 3:
        h.apply(C.NextTurn())
    at3 = h.state
    h.apply(K.DoActivity("c1", "Fireball"))
    h.apply(C.NextTurn())
    before_hit = h.state
    h.apply(C.Damage("c1", amount=2))
    assert h.state.get("c1").channels[0].status == "interrupted"
    h.undo()
    assert h.state == before_hit
    h.undo()
    h.undo()
    assert h.state == at3


# --- rule 3: adjudication within a phase --------------------------------------------------------


def test_rule3_the_goblin_and_archer_example_both_shots_land_in_phase_2():
    f = new_fight("ninephase", seed=1)
    f, _ = play(
        f,
        C.AddCombatant("Archer", kind="pc", side="party", stats=(("hp", 12), ("grit", 0))),
        C.AddCombatant("Goblin", stats=(("hp", 4), ("grit", 0))),
        C.StartFight(),
    )
    f = to_phase(f, 2)
    # the player rolls first: the archer's arrow kills the goblin
    f, log = play(f, K.DoActivity("c1", "Weapon attack", speed=2), C.Damage("c2", amount=6))
    assert f.get("c2").down and "Goblin drops in phase 2" in log[-1]
    # the goblin acts in the same phase all the same, and its arrow deals 3
    f, _ = play(f, K.DoActivity("c2", "Weapon attack", speed=2), C.Damage("c1", amount=3))
    assert f.get("c1").hp == 9
    f = to_phase(f, 3)
    # its death stops it from acting in phase 3 or later
    refused(f, K.DoActivity("c2", "Move"), "dropped in an earlier phase")
    assert get_ruleset("ninephase").actors(f) == ("c1",)


def test_rule3_a_combatant_dropped_in_a_phase_may_still_react_in_that_phase():
    f = to_phase(fight("Aldric", "Orc", hp=3, grit=0), 4)
    f, _ = play(f, C.Damage("c2", amount=5))
    f, _ = play(f, K.DoActivity("c2", "Opportunity Attack"))
    assert f.get("c2").economy.reactions == 0


# --- rule 4: durations, Grit and Hit Points ------------------------------------------------------


def test_rule4_a_duration_in_rounds_ends_at_the_end_of_the_same_phase_that_many_rounds_later():
    f = to_phase(fight("Aldric"), 4)
    d = B.for_rounds(f, 2)
    assert (d.kind, d.round, d.phase) == ("phase_end", 3, 4)
    f, log = play(f, C.AddCondition("c1", "Blessed", duration=d))
    assert log == ["Aldric is Blessed (until the end of phase 4 of round 3)"]
    f = to_phase(to_phase(f, 1), 4)  # round 2, phase 4: still on
    f = to_phase(to_phase(f, 1), 4)  # round 3, phase 4
    assert f.round == 3 and f.get("c1").has("Blessed")
    f, log = play(f, C.NextTurn())
    assert not f.get("c1").has("Blessed")
    assert log[0] == "Aldric is no longer Blessed (expired at the end of phase 4)"


def test_rule4_a_duration_in_time_ends_at_the_end_of_the_round_it_runs_out_in():
    f = to_phase(fight("Aldric"), 5)
    assert B.for_time(f, 60).round == 11  # 10 rounds on: tracked to the end of round 11
    assert B.for_time(f, 9).round == 2  # 13.5 phases from phase 5 of round 1 ends in round 2
    d = B.for_time(f, 6)
    f, _ = play(f, C.AddCondition("c1", "Hasted", duration=d))
    f = to_phase(to_phase(f, 1), 9)
    assert f.round == 2 and f.get("c1").has("Hasted")
    f, log = play(f, C.NextTurn())
    assert "Aldric is no longer Hasted (expired at the end of the round)" in log
    with pytest.raises(RuleError):
        B.for_time(f, 0)


def test_rule4_for_the_remainder_of_the_round_ends_when_the_round_does():
    f = to_phase(fight("Aldric"), 8)
    f, _ = play(f, C.AddCondition("c1", "Braced", duration=B.rest_of_round(f)))
    f, _ = play(f, C.NextTurn())
    assert f.get("c1").has("Braced")
    f, log = play(f, C.NextTurn())
    assert not f.get("c1").has("Braced") and f.round == 2


def test_rule4_damage_takes_grit_first_by_default_then_hit_points():
    f = fight("Aldric", hp=10, grit=4)
    f, log = play(f, C.Damage("c1", amount=6))
    c = f.get("c1")
    assert (c.pool("grit").current, c.pool("hp").current) == (0, 8)
    assert log[0] == "Aldric takes 6 damage (4 to grit, 2 to hp), 8 left"


def test_rule4_the_gm_can_send_a_hit_to_hit_points_first():
    f = fight("Aldric", hp=10, grit=4)
    f, log = play(f, C.Damage("c1", amount=3, pool="hp"))
    c = f.get("c1")
    assert (c.pool("grit").current, c.pool("hp").current) == (4, 7)
    refused(f, C.Damage("c1", amount=1, pool="luck"), "no 'luck' track")


# --- rule 5: the board -------------------------------------------------------------------------


def test_rule5_the_board_shows_channels_across_their_phases_and_what_resolves_where():
    f = fight("Mirelle", "Orc", "Shaman")
    f, _ = play(
        f,
        K.DefineActivity(FIREBALL),
        K.DefineActivity(ActivitySpec("Hex", cost=2, phase=3, channel=True)),
    )
    f = to_phase(f, 3)
    f, _ = play(f, K.DoActivity("c1", "Fireball"), K.DoActivity("c3", "Hex"))
    f = to_phase(f, 4)
    f, _ = play(f, C.Damage("c3", amount=1), K.DoActivity("c2", "Shield Block"))
    rows = {r.who: r for r in B.board(f)}
    kinds = [tuple(i.kind for i in cell) for cell in rows["c1"].cells]
    assert kinds == [(), (), ("act", "begin"), ("channeling",), ("channeling",), ("resolves",), (), (), ()]
    assert rows["c3"].cells[3] == (B.BoardItem("interrupted", "Hex interrupted"),)
    assert rows["c2"].cells[3] == (B.BoardItem("react", "Shield Block"),)
    assert B.resolving(f, 6) == (("c1", "Mirelle", "Fireball"),)
    assert B.resolving(f, 5) == ()
    assert B.window(3, 3) == (4, 5)
    assert B.phase_name(1) == "Phase 1 (system)" and B.phase_name(5) == "Phase 5"
