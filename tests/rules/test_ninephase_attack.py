"""Nine-phase weapon attacks (`nine_attack`, issue 25 item 8): the activity and its damage in one
command, the table's hit or miss, every rule of acting in a phase, same-phase simultaneity, one undo."""

from __future__ import annotations

import msgspec
import pytest

import engine.library as L
from engine import RuleError, apply, get_ruleset, new_fight
from engine import commands as C
from engine import events as E
from engine.history import History
from engine.library import ninephase as NL
from engine.rules.ninephase import catalog as K
from engine.rules.ninephase.attack import NineAttack, Struck
from engine.rules.ninephase.commands import Activity
from engine.rules.ninephase.events import ChannelInterrupted
from engine.state import ActivitySpec, Fight
from tests.engine.support import log, of, play


def fight(*, grit: int = 4, hp: int = 10) -> Fight:
    f = new_fight("ninephase", seed=1)
    f, _ = play(
        f,
        C.AddCombatant("Aldric", kind="pc", side="party", stats=(("hp", 24), ("grit", 8))),
        C.AddCombatant("Orc", stats=(("hp", hp), ("grit", grit))),
        C.StartFight(),
    )
    return f


def to_phase(f: Fight, phase: int) -> Fight:
    while f.phase != phase:
        f, _ = play(f, C.NextTurn())
    return f


def refused(f: Fight, cmd: C.Command, match: str) -> None:
    before = msgspec.json.encode(f)
    with pytest.raises(RuleError, match=match):
        apply(f, cmd)
    assert msgspec.json.encode(f) == before  # apply is pure: nothing of the attack was applied


def test_a_hit_takes_the_activity_and_deals_its_damage_grit_first():
    f = to_phase(fight(), 4)
    f, ev = play(f, NineAttack("c1", "c2", speed=3, dice="1d8+2", type="slashing", given=(5,)))
    aldric, orc = f.get("c1"), f.get("c2")
    assert [(u.phase, u.activity) for u in aldric.economy.phases] == [(4, "Weapon attack")]
    assert aldric.economy.master and aldric.economy.actions == 2
    assert (orc.pool("grit").current, orc.hp) == (0, 7)  # 7: 4 to Grit, 3 to Hit Points
    lines = log(ev)
    assert lines[0].startswith("Aldric uses Weapon attack (Master Action, 1 action)")
    assert lines[1] == "Aldric hits Orc with Weapon attack"
    assert "Orc takes 7 slashing damage (4 to grit, 3 to hp)" in lines[2] and "(entered)" in lines[2]
    assert of(ev, Struck)[0].public  # the players see the blow land, as they see the damage


def test_a_miss_still_spends_the_activity_and_the_master_action():
    f = to_phase(fight(), 4)
    f, ev = play(f, NineAttack("c1", "c2", speed=3, hit=False))
    assert log(ev)[-1] == "Aldric misses Orc with Weapon attack"
    assert not of(ev, E.Damaged)
    aldric = f.get("c1")
    assert aldric.economy.master and aldric.economy.actions == 2
    # the Master Action is spent: no second weapon attack this round, not even a thrown one
    f = to_phase(f, 5)
    refused(f, NineAttack("c1", "c2", activity="Throw weapon", speed=3, damage=4), "already used its Master Action")


def test_a_miss_takes_no_damage_and_a_hit_needs_it():
    f = to_phase(fight(), 4)
    refused(f, NineAttack("c1", "c2", speed=3, hit=False, damage=5), "A miss deals no damage")
    refused(f, NineAttack("c1", "c2", speed=3, hit=False, dice="1d8", given=(3,)), "A miss deals no damage")
    refused(f, NineAttack("c1", "c2", speed=3), "A hit needs its damage")


@pytest.mark.parametrize(
    ("cmd", "phase", "match"),
    [
        (NineAttack("c1", "c2", speed=5, damage=3), 4, "cannot start before phase 5; it is phase 4"),
        (NineAttack("c1", "c2", damage=3), 4, "starts at the weapon's Speed Factor"),
        (NineAttack("c1", "c2", speed=10, damage=3), 4, "A Speed Factor is a phase from 1 to 9"),
        (NineAttack("c1", "c2", activity="Move", speed=2, damage=3), 4, "does not depend on a weapon"),
        (NineAttack("c1", "c2", activity="Kick", damage=3), 4, "no activity called Kick"),
        (NineAttack("c1", "c1", speed=3, damage=3), 4, "Aldric cannot attack itself"),
        (NineAttack("c1", "c9", speed=3, damage=3), 4, "c9"),
        (NineAttack("c1", "c2", speed=3, damage=3, pool="luck"), 4, "no 'luck' track"),
        (NineAttack("c1", "c2", speed=3, dice="1d8", given=(9,)), 4, "not a possible result on a d8"),
        (NineAttack("c1", "c2", spec=ActivitySpec("Heave", cost=3), damage=3, resource="ki"), 4, "no 'ki'"),
    ],
)
def test_refusals_are_one_line_and_nothing_is_applied(cmd: NineAttack, phase: int, match: str):
    refused(to_phase(fight(), phase), cmd, match)


def test_one_turn_a_phase_actions_left_and_once_a_round():
    f = to_phase(fight(), 3)
    f, _ = play(f, K.DoActivity("c1", "Move"))
    refused(f, NineAttack("c1", "c2", speed=3, damage=3), "already acted in phase 3 \\(Move\\): one turn a phase")
    f = to_phase(f, 4)
    f, _ = play(f, Activity("c1", "Sprint", cost=2))
    f = to_phase(f, 5)
    refused(f, NineAttack("c1", "c2", speed=3, damage=3), "costs 1 action and Aldric has 0 left")
    # each activity once a round: a repeatable attack of its own is not; a second Bite is refused
    g = to_phase(fight(), 2)
    bite = ActivitySpec("Bite", cost=1)
    g, _ = play(g, NineAttack("c2", "c1", spec=bite, damage=1))
    g = to_phase(g, 3)
    refused(g, NineAttack("c2", "c1", spec=bite, damage=1), "already attempted Bite this round")


def test_not_before_the_start_nor_after_the_end():
    f = new_fight("ninephase", seed=1)
    f, _ = play(f, C.AddCombatant("A"), C.AddCombatant("B"))
    refused(f, NineAttack("c1", "c2", speed=1, damage=1), "not under way")


def test_a_target_dropped_by_the_attack_still_acts_in_this_phase():
    # the text's goblin and archer, through the attack: both blows land in phase 2
    f = to_phase(fight(grit=0, hp=4), 2)
    f, ev = play(f, NineAttack("c1", "c2", speed=2, damage=6))
    assert f.get("c2").down and "Orc drops in phase 2" in log(ev)[-1]
    assert "c2" in get_ruleset("ninephase").actors(f)
    f, _ = play(f, NineAttack("c2", "c1", speed=2, damage=3))
    assert f.get("c1").pool("grit").current == 5
    f = to_phase(f, 3)
    refused(f, NineAttack("c2", "c1", activity="Throw weapon", speed=2, damage=3), "dropped in an earlier phase")


def test_the_track_and_the_tables_dice():
    f = to_phase(fight(), 4)
    f, ev = play(f, NineAttack("c1", "c2", speed=3, dice="2d6", given=(6, 5), type="fire", pool="hp"))
    orc = f.get("c2")
    assert (orc.hp, orc.pool("grit").current) == (0, 3)  # 11 to Hit Points first, 1 spilling to Grit
    assert "(entered)" in " ".join(log(ev))
    # entered dice never move the fight's random source
    assert f.rng == fight().rng


def test_a_hit_interrupts_a_channel_inside_its_window():
    f = to_phase(fight(), 2)
    f, _ = play(f, Activity("c2", "Hex", cost=3, earliest=2, lock=True, channel=True))
    f = to_phase(f, 3)
    f, ev = play(f, NineAttack("c1", "c2", speed=3, damage=2))
    assert of(ev, ChannelInterrupted) and f.get("c2").channels[0].status == "interrupted"


def test_a_statblock_attack_fills_the_command_and_spends_its_resource():
    sniper = next(sb for sb in L.starter("ninephase") if sb.name == "Crossbow Sniper")
    f = new_fight("ninephase", seed=4)
    f, _ = play(f, C.AddCombatant("Aldric", kind="pc", side="party", stats=(("hp", 24),)), L.to_add(sniper)[0])
    f, _ = play(f, C.StartFight())
    f = to_phase(f, 6)
    (shot,) = NL.strikes(sniper)
    assert shot.name == "Snap Shot"
    fields = NL.strike_fields(shot)
    assert (fields["speed"], fields["dice"], fields["type"], fields["resource"]) == (6, "1d8+1", "piercing", "bolts")
    f, ev = play(f, NineAttack("c2", "c1", **fields))
    me = f.get("c2")
    assert me.pool("bolts").current == 11 and me.economy.master
    assert "Crossbow Sniper hits Aldric with Snap Shot" in log(ev)


def test_one_undo_takes_the_whole_attack_back():
    f = to_phase(fight(), 4)
    h = History.start(f)
    h.apply(NineAttack("c1", "c2", speed=3, dice="1d8+2", type="slashing"))
    assert h.state.get("c2").pool("grit").current < 4
    h.undo()
    assert h.state == f
