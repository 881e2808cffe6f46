"""Nine-phase, audited against the rule text sentence by sentence: the cases the first tests
(test_ninephase_rules.py) left open, one test per rule, with the text's worked numbers."""

from __future__ import annotations

import pytest

from engine import RuleError, apply, describe, get_ruleset, new_fight
from engine import commands as C
from engine.rules.ninephase import board as B
from engine.rules.ninephase import catalog as K
from engine.rules.ninephase.commands import Activity
from engine.state import ActivitySpec, Fight

FIREBALL = ActivitySpec("Fireball", cost=3, phase=3, channel=True)  # cost 3, Phase Lock 3: resolves in 6


def play(f: Fight, *cmds: C.Command) -> tuple[Fight, list[str]]:
    log: list[str] = []
    for cmd in cmds:
        f, ev = apply(f, cmd)
        log.extend(describe(e) for e in ev)
    return f, log


def fight(*names: str, hp: int = 10, grit: int = 5, extra: tuple[tuple[str, int], ...] = ()) -> Fight:
    f = new_fight("ninephase", seed=5)
    for n in names:
        f, _ = apply(f, C.AddCombatant(n, stats=(("hp", hp), ("grit", grit)) + extra))
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


def with_fireball(f: Fight) -> Fight:
    f, _ = play(f, K.DefineActivity(FIREBALL))
    return f


# --- rounds and phases -------------------------------------------------------------------------


def test_a_round_is_nine_phases_in_order_then_the_next_round_starts_at_phase_1():
    f = fight("Aldric")
    assert (f.round, f.phase) == (1, 1)
    seen = []
    for _ in range(9):
        f, log = play(f, C.NextTurn())
        seen.append((f.round, f.phase))
        assert log[-1] == f"Phase {f.phase}"
    assert seen == [(1, p) for p in range(2, 10)] + [(2, 1)]


# --- a listed phase, no phase, Phase Lock ------------------------------------------------------


@pytest.mark.parametrize("phase", [1, 2])
def test_move_listed_at_phase_3_is_refused_in_phases_1_and_2(phase):
    refused(to_phase(fight("Aldric"), phase), K.DoActivity("c1", "Move"), "cannot start before phase 3")


@pytest.mark.parametrize("phase", [3, 4, 5, 6, 7, 8, 9])
def test_move_listed_at_phase_3_is_allowed_in_phase_3_and_every_later_phase(phase):
    f, _ = play(to_phase(fight("Aldric"), phase), K.DoActivity("c1", "Move"))
    assert f.get("c1").economy.actions == 2


@pytest.mark.parametrize("phase", [1, 5, 9])
def test_an_activity_with_no_phase_listed_can_be_done_in_any_phase(phase):
    f, _ = play(to_phase(fight("Aldric"), phase), Activity("c1", "Rally", master=True))
    assert f.get("c1").economy.master


@pytest.mark.parametrize(("phase", "ok"), [(2, False), (3, True), (4, False), (9, False)])
def test_phase_lock_3_only_in_phase_3_neither_earlier_nor_later(phase, ok):
    f = to_phase(fight("Aldric"), phase)
    cmd = Activity("c1", "Brace", earliest=3, lock=True)
    if ok:
        f, _ = play(f, cmd)
        assert f.get("c1").economy.actions == 2
    else:
        refused(f, cmd, "Phase Locked to phase 3")


def test_two_weapon_fighting_uses_the_speed_factor_of_the_weapon_attacking():
    # a dagger of Speed Factor 2 in one hand, an axe of 5 in the other: attacking with the dagger in
    # phase 2 is fine, with the axe it is not
    f = to_phase(fight("Aldric"), 2)
    refused(f, K.DoActivity("c1", "Weapon attack", speed=5), "cannot start before phase 5")
    f, _ = play(f, K.DoActivity("c1", "Weapon attack", speed=2))
    assert f.get("c1").economy.phases[0].phase == 2


# --- taking turns ------------------------------------------------------------------------------


def test_a_two_action_activity_is_still_one_act_in_its_phase():
    f = to_phase(fight("Aldric"), 4)
    f, log = play(f, Activity("c1", "Charge", cost=2))
    assert log[0] == "Aldric uses Charge (2 actions); A1 R1 M"
    # paying two actions does not buy a second act in the same phase, nor a reaction
    refused(f, Activity("c1", "Step"), "one turn a phase")
    refused(f, K.DoActivity("c1", "Shield Block"), "one turn a phase")
    f = to_phase(f, 5)
    f, _ = play(f, Activity("c1", "Step"))
    assert f.get("c1").economy.actions == 0


def test_an_activity_costs_one_action_unless_it_says_otherwise():
    f = to_phase(fight("Aldric"), 2)
    f, log = play(f, Activity("c1", "Shove"))
    assert f.get("c1").economy.actions == 2 and "(1 action)" in log[0]


def test_three_actions_a_round_and_no_fourth():
    f = to_phase(fight("Aldric"), 2)
    f, _ = play(f, Activity("c1", "A"))
    f = to_phase(f, 3)
    f, _ = play(f, Activity("c1", "B"))
    f = to_phase(f, 4)
    f, _ = play(f, Activity("c1", "C"))
    f = to_phase(f, 5)
    refused(f, Activity("c1", "D"), "costs 1 action and Aldric has 0 left")
    # a 0-cost activity can still be done: it only uses the turn
    f, _ = play(f, Activity("c1", "Glare", cost=0))


def test_a_reaction_spends_no_action_but_is_the_turn_of_its_phase():
    f = to_phase(fight("Aldric"), 4)
    f, log = play(f, K.DoActivity("c1", "Opportunity Attack"))
    e = f.get("c1").economy
    assert (e.actions, e.reactions, e.master) == (3, 0, False)
    assert log[0] == "Aldric uses Opportunity Attack (reaction); A3 R0 M"
    refused(f, Activity("c1", "Step"), "already reacted in phase 4")


def test_a_master_action_leaves_the_reaction_for_a_later_phase():
    f = to_phase(fight("Aldric", "Orc"), 2)
    f, _ = play(f, K.DoActivity("c1", "Weapon attack", speed=2))
    refused(f, K.DoActivity("c1", "Opportunity Attack"), "one turn a phase")
    f = to_phase(f, 3)
    f, _ = play(f, K.DoActivity("c1", "Opportunity Attack"))
    e = f.get("c1").economy
    assert (e.actions, e.reactions, e.master) == (2, 0, True)


def test_a_master_action_costs_its_listed_actions_and_leaves_the_rest():
    f = to_phase(fight("Aldric"), 5)
    f, log = play(f, Activity("c1", "Cleave", cost=2, master=True))
    assert log[0] == "Aldric uses Cleave (Master Action, 2 actions); A1 R1 m"
    f = to_phase(f, 6)
    refused(f, Activity("c1", "Smite", master=True), "Master Action this round")
    f, _ = play(f, Activity("c1", "Step"))
    assert f.get("c1").economy.actions == 0


def test_a_master_reaction_can_spend_actions_when_its_rules_say_so():
    f = to_phase(fight("Aldric"), 4)
    f, log = play(f, Activity("c1", "Riposte", cost=1, reaction=True, master=True))
    assert log[0] == "Aldric uses Riposte (Master Reaction, 1 action); A2 R0 m"
    f = to_phase(f, 5)
    refused(f, Activity("c1", "Lunge", master=True), "Master Action this round")


def test_the_round_gives_back_three_actions_one_reaction_and_the_master_action():
    f = to_phase(fight("Aldric"), 9)
    f, _ = play(f, Activity("c1", "Heave", cost=3, master=True))
    f, log = play(f, C.NextTurn())
    # nothing left to lose but the reaction
    assert "End of round 1, unused and lost: Aldric the reaction" in log
    e = f.get("c1").economy
    assert (e.actions, e.reactions, e.master, e.phases) == (3, 1, False, ())


# --- adjudicating at the same time -------------------------------------------------------------


def test_the_charging_orc_killed_in_phase_2_cannot_act_in_phase_3_or_later():
    f = fight("Aldric", "Orc", hp=6, grit=0)
    f = to_phase(f, 2)
    f, _ = play(f, K.DoActivity("c1", "Weapon attack", speed=2), C.Damage("c2", amount=6))
    # both fire in phase 2: the orc's own shot that phase still happens
    f, _ = play(f, K.DoActivity("c2", "Weapon attack", speed=2))
    for phase in (3, 9):
        f = to_phase(f, phase)
        refused(f, K.DoActivity("c2", "Move"), "dropped in an earlier phase")
        refused(f, K.DoActivity("c2", "Shield Block"), "dropped in an earlier phase")
    assert get_ruleset("ninephase").actors(f) == ("c1",)


# --- channels ----------------------------------------------------------------------------------


def test_a_channel_can_react_in_its_completion_phase_since_completing_is_not_a_turn():
    f = with_fireball(fight("Mirelle"))
    f = to_phase(f, 3)
    f, _ = play(f, K.DoActivity("c1", "Fireball"))
    f, log = play(f, C.NextTurn(), C.NextTurn(), C.NextTurn())
    assert log[-1] == "Mirelle's channel Fireball resolves in phase 6"
    f, _ = play(f, K.DoActivity("c1", "Shield Block"))
    assert [(u.phase, u.kind) for u in f.get("c1").economy.phases] == [(3, "act"), (6, "react")]


def test_a_one_action_channel_from_phase_3_resolves_in_4_and_leaves_two_actions():
    f = to_phase(fight("Mirelle"), 3)
    f, log = play(f, Activity("c1", "Spark", cost=1, earliest=3, channel=True))
    assert log == [
        "Mirelle uses Spark (Master Action, 1 action); A2 R1 m",
        "Mirelle begins channeling Spark in phase 3, resolving in phase 4",
    ]
    f, log = play(f, C.NextTurn())
    assert log[-1] == "Mirelle's channel Spark resolves in phase 4"
    # nothing lies strictly between 3 and 4: damage in phase 4 does not break it
    assert B.window(3, 1) == ()
    f, log = play(f, C.Damage("c1", amount=2), Activity("c1", "Step"))
    assert not any("interrupted" in line for line in log)


@pytest.mark.parametrize("phase", [3, 6])
def test_a_saving_throw_in_the_start_or_completion_phase_does_not_interrupt(phase):
    f = with_fireball(fight("Mirelle"))
    f = to_phase(f, 3)
    f, _ = play(f, K.DoActivity("c1", "Fireball"))
    f = to_phase(f, phase)
    f, log = play(f, C.SavingThrow("c1", dc=15, given=(3,)))
    assert not any("interrupted" in line for line in log)
    assert f.get("c1").channels[0].status == ""


@pytest.mark.parametrize("phase", [4, 5])
def test_a_failed_saving_throw_inside_the_window_interrupts(phase):
    f = with_fireball(fight("Mirelle"))
    f = to_phase(f, 3)
    f, _ = play(f, K.DoActivity("c1", "Fireball"))
    f = to_phase(f, phase)
    f, log = play(f, C.SavingThrow("c1", dc=15, given=(3,)))
    assert log[-1].startswith("Mirelle's channel Fireball is interrupted (made a saving throw")


def test_damage_that_only_reaches_grit_still_interrupts():
    f = with_fireball(fight("Mirelle", hp=10, grit=5))
    f = to_phase(f, 3)
    f, _ = play(f, K.DoActivity("c1", "Fireball"))
    f = to_phase(f, 4)
    f, log = play(f, C.Damage("c1", amount=1))
    assert log[0] == "Mirelle takes 1 damage (1 to grit), 10 left"
    assert f.get("c1").channels[0].status == "interrupted"


def test_damage_sent_to_hit_points_interrupts_too():
    f = with_fireball(fight("Mirelle", hp=10, grit=5))
    f = to_phase(f, 3)
    f, _ = play(f, K.DoActivity("c1", "Fireball"))
    f = to_phase(f, 5)
    f, _ = play(f, C.Damage("c1", amount=1, pool="hp"))
    assert f.get("c1").channels[0].status == "interrupted"


def test_an_interrupted_channel_is_lost_and_cannot_be_begun_again_that_round():
    f = fight("Mirelle")
    f, _ = play(f, K.DefineActivity(ActivitySpec("Hex", cost=2, phase=3, channel=True)))
    f = to_phase(f, 3)
    f, _ = play(f, K.DoActivity("c1", "Hex"))
    f = to_phase(f, 4)
    f, _ = play(f, C.Damage("c1", amount=1))
    e = f.get("c1").economy
    assert (e.actions, e.master) == (1, True)
    f, log = play(f, C.NextTurn())
    assert log == ["Phase 5"]  # nothing resolves
    # next round, a fresh Master Action: the channel can be begun again in its locked phase
    f = to_phase(to_phase(f, 1), 3)
    f, log = play(f, K.DoActivity("c1", "Hex"))
    assert log[-1] == "Mirelle begins channeling Hex in phase 3, resolving in phase 5"


def test_every_channel_is_a_phase_locked_master_action_the_uninterruptible_one_too():
    f = new_fight("ninephase")
    f, log = play(f, K.DefineActivity(ActivitySpec("Storm", cost=3, phase=3, uninterruptible=True)))
    storm = K.find(f, "Storm")
    assert storm is not None and storm.lock and storm.master and storm.channel
    assert log == ["Activity Storm added: 3 actions · Master · Phase Lock 3 · Uninterruptible Channel"]
    # and a channel with no locked phase is not a channel the text allows
    refused(f, K.DefineActivity(ActivitySpec("Drift", cost=2, channel=True)), "give the phase")
    refused(fight("Aldric"), Activity("c1", "Drift", cost=2, channel=True), "give the phase")


def test_a_channel_needs_its_master_action_free():
    f = to_phase(fight("Mirelle"), 2)
    f, _ = play(f, Activity("c1", "Shoot", master=True))
    f = to_phase(f, 3)
    # two actions left would pay for it, but the round's Master Action is gone
    refused(f, Activity("c1", "Hex", cost=2, earliest=3, channel=True), "Master Action this round")


@pytest.mark.parametrize(("cost", "last"), [(1, 8), (2, 7), (3, 6)])
def test_a_channel_locked_to_the_last_phase_that_lets_it_resolve_by_phase_9(cost, last):
    f = to_phase(fight("Mirelle"), last)
    f, log = play(f, Activity("c1", "Chant", cost=cost, earliest=last, channel=True))
    assert log[-1].endswith("resolving in phase 9")
    f = to_phase(fight("Mirelle"), last + 1)
    refused(
        f, Activity("c1", "Chant", cost=cost, earliest=last + 1, channel=True), "after the round ends"
    )


def test_an_uninterruptible_channel_still_resolves_when_its_caster_is_down():
    f = fight("Shaman", hp=3, grit=0)
    f, _ = play(f, K.DefineActivity(ActivitySpec("Storm", cost=2, phase=3, uninterruptible=True)))
    f = to_phase(f, 3)
    f, _ = play(f, K.DoActivity("c1", "Storm"))
    f = to_phase(f, 4)
    f, log = play(f, C.Damage("c1", amount=5))
    assert not any("interrupted" in line for line in log)
    f, log = play(f, C.NextTurn())
    assert log[1] == "Shaman's channel Storm resolves in phase 5"
    assert "target must still be valid" in log[2]


def test_a_reaction_can_stop_a_channel_in_its_starting_phase():
    f = with_fireball(fight("Mirelle", "Orc"))
    f = to_phase(f, 3)
    f, _ = play(f, K.DoActivity("c1", "Fireball"), K.DoActivity("c2", "Shield Block"))
    f, log = play(f, K.StopChannel("c1", "Fireball", "Counterspell"))
    assert log == ["Mirelle's channel Fireball is interrupted (Counterspell); its actions and resources are lost"]
    row = next(r for r in B.board(f) if r.who == "c1")
    assert [i.kind for i in row.cells[2]] == ["act", "begin", "interrupted"]
    assert all(cell == () for cell in row.cells[3:])
    f = to_phase(f, 6)
    assert B.resolving(f) == ()


# --- resources spent to begin an activity (a spell slot) ----------------------------------------


def test_numbers_besides_hit_points_and_grit_are_resources_to_spend():
    f = fight("Mirelle", extra=(("Slot3", 2), ("luck", 0)))
    c = f.get("c1")
    assert [(p.key, p.current, p.max) for p in c.resources] == [("slot3", 2, 2)]
    assert [p.key for p in c.health] == ["hp", "grit"]
    f, log = play(f, C.SpendResource("c1", "slot3"))
    assert log == ["Mirelle spends 1 slot3 (1 left)"]
    # editing the number keeps what was spent
    f, _ = play(f, C.EditCombatant("c1", stats=(("slot3", 4),)))
    p = f.get("c1").pool("slot3")
    assert p is not None and (p.current, p.max) == (3, 4)


def test_a_spell_slot_spent_to_begin_a_channel_is_lost_when_the_channel_breaks():
    f = with_fireball(fight("Mirelle", "Orc", extra=(("slot3", 2),)))
    f = to_phase(f, 3)
    f, log = play(f, K.DoActivity("c1", "Fireball", resource="slot3"))
    assert log == [
        "Mirelle uses Fireball (Master Action, 3 actions); A0 R1 m",
        "Mirelle spends 1 slot3 (1 left)",
        "Mirelle begins channeling Fireball in phase 3, resolving in phase 6",
    ]
    f = to_phase(f, 4)
    f, log = play(f, C.Damage("c1", amount=2))
    # the line names what was spent to begin it
    assert log[-1].endswith("interrupted (took damage in phase 4); its actions and the 1 slot3 spent on it are lost")
    p = f.get("c1").pool("slot3")
    assert p is not None and p.current == 1  # the slot stays spent
    # and a new round does not give it back
    f = to_phase(to_phase(f, 1), 2)
    p = f.get("c1").pool("slot3")
    assert p is not None and p.current == 1


def test_an_activity_cannot_begin_without_the_resource_it_spends():
    f = with_fireball(fight("Mirelle", extra=(("slot3", 1),)))
    f = to_phase(f, 3)
    before = f
    refused(f, K.DoActivity("c1", "Fireball", resource="slot3", amount=2), "needs 2 slot3 and Mirelle has 1 left")
    refused(f, K.DoActivity("c1", "Fireball", resource="slot9"), "has no 'slot9' to spend")
    refused(f, K.DoActivity("c1", "Fireball", resource="slot3", amount=0), "at least 1")
    refused(f, K.DoActivity("c1", "Fireball", amount=2), "needs the resource")
    # the ad-hoc activity (one not in the catalog) spends a resource the same way
    g, log = play(f, Activity("c1", "Flame Lance", cost=1, earliest=3, channel=True, resource="slot3"))
    assert "Mirelle spends 1 slot3 (0 left)" in log
    refused(f, Activity("c1", "Flame Lance", resource="slot3", amount=2), "needs 2 slot3")
    assert f == before
    # a rule broken refuses the whole activity: nothing is spent
    f = to_phase(f, 4)
    refused(f, K.DoActivity("c1", "Fireball", resource="slot3"), "Phase Locked to phase 3")
    p = f.get("c1").pool("slot3")
    assert p is not None and p.current == 1


def test_a_resource_spent_on_an_ordinary_activity_stays_spent_when_it_fails():
    f = fight("Mirelle", extra=(("ki", 3),))
    f, _ = play(f, K.DefineActivity(ActivitySpec("Flurry", cost=2, master=True)))
    f = to_phase(f, 4)
    f, log = play(f, K.DoActivity("c1", "flurry", resource="KI", amount=2))
    assert log == ["Mirelle uses Flurry (Master Action, 2 actions); A1 R1 m", "Mirelle spends 2 ki (1 left)"]


def test_damage_soaked_by_temporary_points_is_still_damage_taken_and_interrupts():
    f = with_fireball(fight("Mirelle", hp=10, grit=0))
    f = to_phase(f, 3)
    f, _ = play(f, K.DoActivity("c1", "Fireball"), C.TempHealth("c1", 5))
    f = to_phase(f, 5)
    f, log = play(f, C.Damage("c1", amount=2))
    c = f.get("c1")
    assert c.hp == 10 and c.health[0].temp == 3
    assert c.channels[0].status == "interrupted"


def test_an_ordinary_channel_whose_caster_dropped_in_its_start_phase_resolves_with_a_warning():
    # same-phase damage is outside the window: the channel is not interrupted by it
    f = with_fireball(fight("Mirelle", hp=4, grit=0))
    f = to_phase(f, 3)
    f, _ = play(f, K.DoActivity("c1", "Fireball"), C.Damage("c1", amount=9))
    assert f.get("c1").down and f.get("c1").channels[0].status == ""
    f, log = play(f, C.NextTurn(), C.NextTurn(), C.NextTurn())
    assert log[-2] == "Mirelle's channel Fireball resolves in phase 6"
    assert "Mirelle is down" in log[-1]
    # the GM can rule it ends with its caster
    f, log = play(f, K.StopChannel("c1", reason="its caster fell"))
    assert f.get("c1").channels[0].status == "interrupted"


def test_healing_grit_says_grit_and_its_new_value():
    f = fight("Orc", hp=10, grit=5)
    f, _ = play(f, C.Damage("c1", amount=4))  # grit first: 5 -> 1
    f, log = play(f, C.Heal("c1", amount=2, pool="grit"))
    assert log == ["Orc heals 2 grit, 3 now"]
    f, log = play(f, C.Heal("c1", amount=2))
    assert log == ["Orc heals 0, 10 now"]  # hit points were full


def test_the_sheet_names_the_phase_a_combatant_dropped_in_not_the_current_one():
    f = fight("Orc", "Elf", hp=5, grit=1)
    f = to_phase(f, 3)
    f, log = play(f, C.Damage("c1", amount=6))
    rs = get_ruleset("ninephase")
    assert rs.dropped_state(f, f.get("c1")) == "drops in phase 3; it finishes this phase and cannot act after"
    f = to_phase(f, 5)
    assert rs.dropped_state(f, f.get("c1")) == "dropped in phase 3; it acts no more"
    f = to_phase(to_phase(f, 9), 2)
    assert rs.dropped_state(f, f.get("c1")) == "dropped in phase 3 of round 1; it acts no more"
