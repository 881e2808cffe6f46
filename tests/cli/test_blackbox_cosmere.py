"""Black-box checks of the Cosmere rules, driven only through `fracas script` as docs/commands.md
documents it (the commands and their fields, `--log` and the summary).

One test per rule of cosmere.txt (or per decision of docs/rules/cosmere.md where the text is silent),
named after it. Each script uses the documented vocabulary only, and each test fails if the engine
gets its rule wrong: the log lines, the summary or the refusal are compared exactly where it matters.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.cli.script_support import ScriptRun, refused, run_script

Cmd = dict[str, Any]
Cap = pytest.CaptureFixture[str]


# --- the documented vocabulary, as small builders ------------------------------------------------


def add(name: str, pc: bool = False, side: str = "", **stats: int) -> Cmd:
    cmd: Cmd = {"cmd": "add", "name": name, "stats": [[k, v] for k, v in stats.items()]}
    if pc:
        cmd |= {"kind": "pc", "side": "party"}
    if side:
        cmd["side"] = side
    return cmd


def start(surprised: tuple[str, ...] = (), **d20: int) -> Cmd:
    """`start`, with the d20 for ties of Speed entered per id (c1=..)."""
    cmd: Cmd = {"cmd": "start"}
    if d20:
        cmd["initiative"] = [[k, [v]] for k, v in d20.items()]
    if surprised:
        cmd["surprised"] = list(surprised)
    return cmd


NEXT: Cmd = {"cmd": "next"}


def nxt(n: int) -> list[Cmd]:
    return [NEXT] * n


def speed(who: str, s: str) -> Cmd:
    return {"cmd": "speed", "who": who, "speed": s}


def take(who: str, s: str = "", **fields: Any) -> Cmd:
    return {"cmd": "take_turn", "who": who, "speed": s, **fields}


def use(who: str, what: str, name: str, cost: int = 1) -> Cmd:
    return {"cmd": "use", "who": who, "what": what, "name": name, "cost": cost}


def attack(who: str, targets: list[str], **fields: Any) -> Cmd:
    return {"cmd": "cosmere_attack", "who": who, "targets": targets, **fields}


def grant(who: str, actions: int = 0, reactions: int = 0) -> Cmd:
    return {"cmd": "cosmere_grant", "who": who, "actions": actions, "reactions": reactions}


def condition(who: str, name: str, **fields: Any) -> Cmd:
    return {"cmd": "condition", "who": who, "name": name, **fields}


# the usual table: Kaladin (a PC, Speed 30, 3 focus) against a Parshendi (Speed 25, Physical 14)
KAL = add("Kaladin", pc=True, hp=28, speed=30, focus=3)  # c1
PAR = add("Parshendi", hp=30, speed=25, phy=14, cog=10, spi=18)  # c2


# --- running a script ---------------------------------------------------------------------------


class Run(ScriptRun):

    def turns(self) -> list[str]:
        """Each turn started, as "Name fast" / "Name slow", in order."""
        out = []
        for t in self.texts():
            m = re.fullmatch(r"(.+)'s turn: (fast|slow) turn, \d actions", t)
            if m:
                out.append(f"{m.group(1)} {m.group(2)}")
        return out

    def eco(self, cid: str) -> str:
        return str(self.summary["combatants"][cid]["economy"])

    def hp(self, cid: str) -> str:
        return str(self.summary["combatants"][cid]["hp"])

    def focus(self, cid: str) -> str:
        return str(self.summary["combatants"][cid]["focus"])


def run(tmp_path: Path, capsys: pytest.CaptureFixture[str], cmds: list[Cmd], seed: int = 1) -> Run:
    return run_script(tmp_path, capsys, cmds, "cosmere", seed, Run)


def ok(r: Run) -> Run:
    assert r.code == 0, r.err
    return r



def on_turn(*extra: Cmd, who: str = "c1", s: str = "fast") -> list[Cmd]:
    """Kaladin and the Parshendi, the fight started, `who` on its turn (script lines 1-4)."""
    return [KAL, PAR, start(), take(who, s), *extra]


# --- Rounds and turns: fast and slow --------------------------------------------------------------


def test_fast_turn_gives_two_actions_and_slow_turn_three(tmp_path: Path, capsys: Cap) -> None:
    r = ok(run(tmp_path, capsys, [KAL, PAR, start(), take("c1", "fast")]))
    assert r.at(4) == ["Kaladin's turn: fast turn, 2 actions"] and r.eco("c1") == "F A2 R1"
    r = ok(run(tmp_path, capsys, [KAL, PAR, start(), take("c1", "slow")]))
    assert r.at(4)[-1] == "Kaladin's turn: slow turn, 3 actions" and r.eco("c1") == "S A3 R1"


def test_round_runs_fast_pcs_fast_npcs_slow_pcs_slow_npcs(tmp_path: Path, capsys: Cap) -> None:
    # Speeds chosen so that Speed alone would put them the other way round
    cmds = [
        add("Kaladin", pc=True, speed=10),  # c1, slow
        add("Shallan", pc=True, speed=5),  # c2, fast
        add("Scout", speed=60),  # c3, slow
        add("Warrior", speed=40),  # c4, fast
        start(),
        speed("c2", "fast"),
        speed("c4", "fast"),
        *nxt(5),
    ]
    r = ok(run(tmp_path, capsys, cmds))
    assert r.turns() == ["Shallan fast", "Warrior fast", "Kaladin slow", "Scout slow"]
    phases = [t for t in r.texts() if t.endswith(" turns")]
    assert phases[:4] == ["Fast PC turns", "Fast NPC turns", "Slow PC turns", "Slow NPC turns"]


def test_fast_pc_acts_before_any_enemy_goes(tmp_path: Path, capsys: Cap) -> None:
    cmds = [add("Kaladin", pc=True, speed=5), add("Warrior", speed=60), start(), speed("c1", "fast")]
    cmds += [speed("c2", "fast"), NEXT]
    r = ok(run(tmp_path, capsys, cmds))
    assert r.turns() == ["Kaladin fast"] and r.summary["where"] == "Round 1 · Fast PC turns"


def test_slow_pc_acts_after_any_fast_enemy(tmp_path: Path, capsys: Cap) -> None:
    cmds = [add("Kaladin", pc=True, speed=60), add("Warrior", speed=5), start(), speed("c1", "slow")]
    cmds += [speed("c2", "fast"), *nxt(2)]
    r = ok(run(tmp_path, capsys, cmds))
    assert r.turns() == ["Warrior fast", "Kaladin slow"]


def test_the_choice_of_fast_or_slow_is_made_again_each_round(tmp_path: Path, capsys: Cap) -> None:
    cmds = [KAL, PAR, start(), take("c1", "fast"), *nxt(2)]
    r = ok(run(tmp_path, capsys, cmds))
    assert r.summary["round"] == 2 and r.eco("c1") == "? A0 R1"  # undecided again
    r = ok(run(tmp_path, capsys, cmds + [take("c1", "slow")]))
    assert r.turns() == ["Kaladin fast", "Parshendi slow", "Kaladin slow"]


def test_a_pc_may_decide_to_go_fast_in_the_moment_after_other_fast_pcs(tmp_path: Path, capsys: Cap) -> None:
    shallan = add("Shallan", pc=True, speed=25)  # c3
    cmds = [KAL, PAR, shallan, start(), speed("c1", "fast"), NEXT, NEXT]
    r = ok(run(tmp_path, capsys, cmds))
    # Kaladin's fast turn is over; the fast PC phase waits, as Shallan has not decided
    assert r.summary["where"] == "Round 1 · Fast PC turns" and r.summary["current"] == ""
    r = ok(run(tmp_path, capsys, cmds + [take("c3", "fast")]))
    assert r.at(8) == ["Shallan's turn: fast turn, 2 actions"]
    # pressing next instead moves on: she goes slow, after the (slow) Parshendi has no fast turn
    r = ok(run(tmp_path, capsys, cmds + [NEXT]))
    assert r.turns() == ["Kaladin fast", "Shallan slow"]


def test_a_fast_turn_is_refused_once_the_fast_turns_are_over(tmp_path: Path, capsys: Cap) -> None:
    shallan = add("Shallan", pc=True, speed=25)  # c3
    cmds = [KAL, PAR, shallan, start(), take("c1", "slow")]
    r = run(tmp_path, capsys, cmds + [take("c3", "fast")])
    refused(r, 6, "fast turns for Shallan are over")
    r = run(tmp_path, capsys, cmds + [speed("c3", "fast")])
    refused(r, 6, "fast turns for Shallan are over")


def test_ties_of_speed_go_to_the_higher_d20(tmp_path: Path, capsys: Cap) -> None:
    cmds = [
        add("A", pc=True, speed=30),
        add("B", pc=True, speed=30),
        add("C", pc=True, speed=35),
        add("D", pc=True, speed=30),
        start(c1=5, c2=12, c3=1, c4=13),
        *nxt(4),
    ]
    r = ok(run(tmp_path, capsys, cmds))
    # the highest Speed first whatever its d20; among the 30s the higher d20
    assert r.turns() == ["C slow", "D slow", "B slow", "A slow"]
    assert "A initiative 5 (1d20 = [5] = 5 (entered)) (d20 for ties of Speed)" in r.at(5)


def test_allied_npcs_take_their_turns_in_the_npc_phases(tmp_path: Path, capsys: Cap) -> None:
    teft = add("Teft", side="party", speed=60)  # c3, an allied NPC faster than everyone
    cmds = [KAL, PAR, teft, start(), speed("c3", "fast"), *nxt(3)]
    r = ok(run(tmp_path, capsys, cmds))
    assert r.turns() == ["Teft fast", "Kaladin slow", "Parshendi slow"]
    # taking its turn now from the fast PC phase puts it in the fast NPC phase, never a PC one
    r = ok(run(tmp_path, capsys, [KAL, PAR, teft, start(), take("c3", "fast")]))
    assert r.summary["where"] == "Round 1 · Fast NPC turns" and r.summary["current"] == "c3"


def test_the_gm_decides_the_order_of_the_fast_npcs(tmp_path: Path, capsys: Cap) -> None:
    cmds = [KAL, PAR, add("Scout", speed=50), start(), speed("c2", "fast"), speed("c3", "fast")]
    cmds += [take("c2"), NEXT]
    r = ok(run(tmp_path, capsys, cmds))
    # the slower Parshendi first, because the GM said so; then the Scout, still fast
    assert r.turns() == ["Parshendi fast", "Scout fast"]


def test_the_round_ends_once_every_character_has_taken_one_turn(tmp_path: Path, capsys: Cap) -> None:
    cmds = [KAL, PAR, start(), take("c1", "fast"), NEXT]
    r = ok(run(tmp_path, capsys, cmds))
    assert r.summary["round"] == 1 and r.summary["current"] == "c2"
    r = ok(run(tmp_path, capsys, cmds + [NEXT]))
    assert r.at(6)[-3:] == ["Parshendi ends the turn (3 actions lost)", "Round 2", "Fast PC turns"]
    r = run(tmp_path, capsys, cmds + [take("c1", "slow")])
    refused(r, 6, "Kaladin has already taken its turn this round")


def test_every_character_keeps_its_turn_when_the_gm_starts_a_slow_npc_early(tmp_path: Path, capsys: Cap) -> None:
    shallan = add("Shallan", pc=True, speed=20)  # c3
    cmds = [KAL, PAR, shallan, add("Scout", speed=10), start(), speed("c1", "fast"), take("c4", "slow")]
    cmds += nxt(3)
    r = ok(run(tmp_path, capsys, cmds))
    # the PCs passed over still take their turns, before the NPCs left, and the log says so
    assert r.turns() == ["Scout slow", "Kaladin slow", "Shallan slow", "Parshendi slow"]
    assert "Kaladin chose a fast turn, but the fast PC turns are over: it goes slow" in r.at(7)
    assert "Shallan has not taken its turn yet: it goes in the slow NPC phase" in r.at(7)
    assert r.summary["round"] == 1
    # and a passed-over PC may also be started by hand in that phase
    r = ok(run(tmp_path, capsys, cmds[:-3] + [take("c3")]))
    assert r.turns() == ["Scout slow", "Shallan slow"]


# --- Reactions ----------------------------------------------------------------------------------


def test_the_reaction_from_the_start_of_combat_is_usable_before_the_first_turn(tmp_path: Path, capsys: Cap) -> None:
    r = ok(run(tmp_path, capsys, [KAL, PAR, start(), use("c2", "reaction", "Dodge")]))
    assert r.at(4) == ["Parshendi uses Dodge (reaction); ? A0 R0"]
    r = run(tmp_path, capsys, [KAL, PAR, start(), use("c2", "reaction", "Dodge"), use("c2", "reaction", "Dodge")])
    refused(r, 5, "Parshendi has no reaction left")


def test_surprised_gets_no_reaction_at_the_start_of_combat(tmp_path: Path, capsys: Cap) -> None:
    r = ok(run(tmp_path, capsys, [KAL, PAR, start(surprised=("c2",))]))
    assert "Parshendi is Surprised (no reaction at the start of combat)" in r.at(3)
    assert r.eco("c2") == "? A0 R0" and r.eco("c1") == "? A0 R1"
    r = run(tmp_path, capsys, [KAL, PAR, start(surprised=("c2",)), use("c2", "reaction", "Dodge")])
    refused(r, 4, "Parshendi is Surprised")


def test_surprised_gets_its_turns_reaction_and_is_no_longer_surprised_after_its_first_turn(
    tmp_path: Path, capsys: Cap
) -> None:
    cmds = [KAL, PAR, start(surprised=("c2",)), take("c2", "slow")]
    r = ok(run(tmp_path, capsys, cmds + [use("c2", "reaction", "Dodge")]))
    assert r.at(5) == ["Parshendi uses Dodge (reaction); S A3 R0"]  # a reaction came with its turn
    r = ok(run(tmp_path, capsys, cmds + [NEXT]))
    assert "Parshendi is no longer Surprised (after its first turn)" in r.at(5)


def test_a_new_reaction_each_turn_fast_or_slow_and_unused_ones_do_not_stack(tmp_path: Path, capsys: Cap) -> None:
    cmds = [KAL, PAR, start(), take("c1", "fast"), use("c1", "reaction", "Dodge"), *nxt(2)]
    r = ok(run(tmp_path, capsys, cmds + [take("c1", "slow")]))
    assert r.eco("c1") == "S A3 R1"  # used in round 1, back at the start of its turn
    cmds = [KAL, PAR, start(), take("c1", "fast"), *nxt(2), take("c1", "fast")]
    r = ok(run(tmp_path, capsys, cmds))
    assert r.eco("c1") == "F A2 R1"  # unused: replaced, not added to


def test_a_reaction_is_used_off_ones_turn_and_lasts_until_the_start_of_the_next(tmp_path: Path, capsys: Cap) -> None:
    cmds = [KAL, PAR, start(), grant("c1", reactions=2), take("c1", "fast"), NEXT]
    r = ok(run(tmp_path, capsys, cmds[:4]))
    assert r.eco("c1") == "? A0 R3"
    r = ok(run(tmp_path, capsys, cmds + [use("c1", "reaction", "Dodge")]))
    # the extra reactions ended at the start of its turn; one is left, used on the Parshendi's turn
    assert r.summary["current"] == "c2" and r.eco("c1") == "F A0 R0"


# --- Actions ------------------------------------------------------------------------------------


def test_actions_are_taken_only_on_ones_own_turn(tmp_path: Path, capsys: Cap) -> None:
    r = run(tmp_path, capsys, [KAL, PAR, start(), use("c1", "action", "Strike")])
    refused(r, 4, "Actions are taken on one's own turn", "not Kaladin's turn")
    r = run(tmp_path, capsys, [KAL, PAR, start(), take("c2", "fast"), use("c1", "action", "Strike")])
    refused(r, 5, "not Kaladin's turn")


def test_unused_actions_are_lost_at_the_end_of_the_turn(tmp_path: Path, capsys: Cap) -> None:
    r = ok(run(tmp_path, capsys, on_turn(use("c1", "action", "Move"), NEXT)))
    assert r.at(6)[0] == "Kaladin ends the turn (1 action lost)" and r.eco("c1") == "F A0 R1"
    r = ok(run(tmp_path, capsys, on_turn(NEXT, s="slow")))
    assert r.at(5)[0] == "Kaladin ends the turn (3 actions lost)"


def test_each_named_action_once_per_turn(tmp_path: Path, capsys: Cap) -> None:
    r = run(tmp_path, capsys, on_turn(use("c1", "action", "Strike"), use("c1", "action", "strike"), s="slow"))
    refused(r, 6, "Kaladin has already used strike this turn", "once per turn")
    # a talent's action too, whatever it costs the second time
    r = run(tmp_path, capsys, on_turn(use("c1", "action", "Lashing", 2), use("c1", "action", "Lashing", 1), s="slow"))
    refused(r, 6, "already used Lashing")
    # and again next round
    cmds = on_turn(use("c1", "action", "Strike"), *nxt(2), take("c1", "fast"), use("c1", "action", "Strike"))
    ok(run(tmp_path, capsys, cmds))


def test_free_actions_cost_nothing_and_each_is_used_once_per_turn(tmp_path: Path, capsys: Cap) -> None:
    cmds = on_turn(use("c1", "action", "Strike", 2), use("c1", "free", "Banter"), use("c1", "free", "Drop"))
    r = ok(run(tmp_path, capsys, cmds))
    assert r.at(6) == ["Kaladin uses Banter (free action); F A0 R1"] and r.eco("c1") == "F A0 R1"
    r = run(tmp_path, capsys, cmds + [use("c1", "free", "Banter")])
    refused(r, 8, "already used Banter this turn")


def test_an_action_costs_one_to_three_and_must_fit_in_what_is_left(tmp_path: Path, capsys: Cap) -> None:
    r = run(tmp_path, capsys, on_turn(use("c1", "action", "Big", 3)))
    refused(r, 5, "Big costs 3 actions and Kaladin has 2 left")
    r = run(tmp_path, capsys, on_turn(use("c1", "action", "Big", 3), use("c1", "action", "Step"), s="slow"))
    refused(r, 6, "Step costs 1 action and Kaladin has 0 left")
    for bad in (0, 4, -1):
        r = run(tmp_path, capsys, on_turn(use("c1", "action", "Odd", bad), s="slow"))
        refused(r, 5, "costs 1, 2 or 3")
    r = ok(run(tmp_path, capsys, on_turn(use("c1", "action", "Big", 3), s="slow")))
    assert r.at(5) == ["Kaladin uses Big (3 actions); S A0 R1"]


def test_talents_grant_actions_on_ones_turn_and_reactions_at_any_time(tmp_path: Path, capsys: Cap) -> None:
    r = run(tmp_path, capsys, [KAL, PAR, start(), grant("c1", actions=1)])
    refused(r, 4, "on one's own turn")
    r = ok(run(tmp_path, capsys, on_turn(grant("c1", actions=1), use("c1", "action", "Big", 3))))
    assert r.eco("c1") == "F A0 R1"
    r = ok(run(tmp_path, capsys, on_turn(grant("c1", actions=2), NEXT)))
    assert r.at(6)[0] == "Kaladin ends the turn (4 actions lost)"
    r = ok(run(tmp_path, capsys, [KAL, PAR, start(), grant("c2", reactions=1)]))
    assert r.eco("c2") == "? A0 R2"


def test_dropping_on_someone_elses_turn_needs_ready(tmp_path: Path, capsys: Cap) -> None:
    r = run(tmp_path, capsys, [KAL, PAR, start(), take("c2", "fast"), use("c1", "free", "Drop")])
    refused(r, 5, "not Kaladin's turn")
    cmds = on_turn(use("c1", "action", "Ready: Drop", 1), NEXT, use("c1", "free", "Drop"))
    r = ok(run(tmp_path, capsys, cmds))
    assert r.at(7) == ["Kaladin uses Drop (readied); F A0 R1"]


def test_ready_costs_one_action_plus_the_readied_ones_and_goes_off_once(tmp_path: Path, capsys: Cap) -> None:
    hit = attack("c1", ["c2"], modifier=2, damage="1d6", given=[15], damage_given=[3])
    cmds = on_turn(use("c1", "action", "Ready: Strike", 2), NEXT, hit)
    r = ok(run(tmp_path, capsys, cmds))
    assert r.at(5) == [
        "Kaladin uses Ready: Strike (2 actions); F A0 R1",
        "Kaladin readies Strike: it may take it off its turn, already paid for",
    ]
    assert r.at(7)[0] == "Kaladin uses Strike (readied); F A0 R1" and r.hp("c2") == "25/30"
    r = run(tmp_path, capsys, cmds + [hit])
    refused(r, 8, "not Kaladin's turn")  # once only
    r = run(tmp_path, capsys, on_turn(use("c1", "action", "Ready: Strike", 2), NEXT, use("c1", "action", "Move")))
    refused(r, 7, "Kaladin readied Strike, not Move")
    # unused, it lapses at the start of its next turn
    r = ok(run(tmp_path, capsys, on_turn(use("c1", "action", "Ready: Strike", 2), *nxt(3))))
    assert "Kaladin's readied action lapses unused (Strike)" in r.at(8)


def test_ready_for_a_three_action_ability_costs_four(tmp_path: Path, capsys: Cap) -> None:
    cmds = on_turn(grant("c1", actions=1), use("c1", "action", "Ready: Stormlight Surge", 4), s="slow")
    r = ok(run(tmp_path, capsys, cmds))
    assert r.at(6)[0] == "Kaladin uses Ready: Stormlight Surge (4 actions); S A0 R1"
    r = run(tmp_path, capsys, on_turn(use("c1", "action", "Ready: Big", 5), s="slow"))
    refused(r, 5, "Ready costs 1 action plus what the readied action needs")
    r = run(tmp_path, capsys, on_turn(use("c1", "free", "Ready: Drop")))
    refused(r, 5, "Ready is an action")


# --- Reactive Strike ----------------------------------------------------------------------------


def test_reactive_strike_spends_the_reaction_and_one_focus(tmp_path: Path, capsys: Cap) -> None:
    strike = attack("c1", ["c2"], use="reaction", modifier=4, damage="1d8", given=[10], damage_given=[5])
    r = ok(run(tmp_path, capsys, [KAL, PAR, start(), take("c2", "fast"), strike]))
    # the Parshendi's fast turn ends the fast PC turns: Kaladin, undecided, goes slow (said so)
    assert r.at(4)[0] == "Undecided, so slow this round: Kaladin"
    assert r.at(5)[:3] == [
        "Kaladin spends 1 focus (2 left)",
        "Kaladin uses Reactive Strike (reaction); S A0 R0",
        "Kaladin attacks (Reactive Strike) against Physical defense: "
        "test d20 10 (entered), +4; damage 1d8 = [5] = 5 (entered)",
    ]
    assert r.focus("c1") == "2/3" and r.hp("c2") == "21/30"
    # the generic `use` of the reaction by that name spends the same
    r = ok(run(tmp_path, capsys, [KAL, PAR, start(), use("c1", "reaction", "Reactive Strike")]))
    assert r.focus("c1") == "2/3" and r.eco("c1") == "? A0 R0"


def test_reactive_strike_is_a_melee_attack_on_one_enemys_physical_defense(tmp_path: Path, capsys: Cap) -> None:
    base = {"use": "reaction", "modifier": 4, "damage": "1d8", "given": [10], "damage_given": [5]}
    teft = add("Teft", side="party")  # c3
    for fields in ({"defense": "cog"}, {"kind": "ranged"}):
        r = run(tmp_path, capsys, [KAL, PAR, teft, start(), attack("c1", ["c2"], **base, **fields)])
        refused(r, 5, "Reactive Strike is one melee attack against one enemy's Physical defense")
    r = run(tmp_path, capsys, [KAL, PAR, teft, start(), attack("c1", ["c3"], **base)])
    refused(r, 5, "Reactive Strike is made against an enemy")


def test_reactive_strike_without_focus_is_refused(tmp_path: Path, capsys: Cap) -> None:
    spend = {"cmd": "spend", "who": "c1", "key": "focus", "amount": 3}
    r = run(tmp_path, capsys, [KAL, PAR, start(), spend, use("c1", "reaction", "Reactive Strike")])
    refused(r, 5, "Reactive Strike costs 1 focus and Kaladin has none left")
    strike = attack("c1", ["c2"], use="reaction", modifier=4, damage="1d8", given=[10], damage_given=[5])
    r = run(tmp_path, capsys, [KAL, PAR, start(), spend, strike])
    refused(r, 5, "Reactive Strike costs 1 focus")


# --- Attacks: the test and its outcomes ---------------------------------------------------------


def test_an_attack_test_equal_to_the_defense_hits(tmp_path: Path, capsys: Cap) -> None:
    r = ok(run(tmp_path, capsys, on_turn(attack("c1", ["c2"], modifier=4, damage="1d8", given=[10], damage_given=[5]))))
    assert r.at(5)[2:] == [
        "Parshendi: 14 vs 14: hit, 9 damage",
        "Parshendi takes 9 damage (Kaladin's hit: 5 + 4), 21 left",
    ]


def test_a_failed_attack_test_misses_and_deals_no_damage(tmp_path: Path, capsys: Cap) -> None:
    r = ok(run(tmp_path, capsys, on_turn(attack("c1", ["c2"], modifier=4, damage="1d8", given=[9], damage_given=[5]))))
    assert r.at(5)[2:] == ["Parshendi: 13 vs 14: miss"] and r.hp("c2") == "30/30"
    # a natural 20 or 1 is nothing special: only the total against the defense counts
    r = ok(
        run(
            tmp_path,
            capsys,
            on_turn(attack("c1", ["c2"], defense="spi", modifier=-3, damage="1d8", given=[20], damage_given=[5])),
        )
    )
    assert r.at(5)[2:] == ["Parshendi: 17 vs 18: miss"]
    r = ok(
        run(
            tmp_path,
            capsys,
            on_turn(attack("c1", ["c2"], defense="cog", modifier=9, damage="1d8", given=[1], damage_given=[5])),
        )
    )
    assert r.at(5)[2] == "Parshendi: 10 vs 10: hit, 14 damage"


def test_a_graze_spends_one_focus_and_deals_the_damage_dice_alone(tmp_path: Path, capsys: Cap) -> None:
    cmd = attack("c1", ["c2"], modifier=4, damage="1d8", given=[9], damage_given=[5], graze=["c2"])
    r = ok(run(tmp_path, capsys, on_turn(cmd)))
    assert r.at(5)[2:] == [
        "Kaladin spends 1 focus (2 left)",
        "Parshendi: 13 vs 14: graze, 5 damage",
        "Parshendi takes 5 damage (Kaladin's graze: 5), 25 left",
    ]
    # a constant in the damage is part of the roll: it is dealt with the dice (decision)
    cmd = attack("c1", ["c2"], modifier=4, damage="1d8+2", given=[9], damage_given=[5], graze=["c2"])
    assert ok(run(tmp_path, capsys, on_turn(cmd))).at(5)[-1] == "Parshendi takes 7 damage (Kaladin's graze: 7), 23 left"
    # a hit target has nothing to graze
    cmd = attack("c1", ["c2"], modifier=4, damage="1d8", given=[10], damage_given=[5], graze=["c2"])
    refused(run(tmp_path, capsys, on_turn(cmd)), 5, "Parshendi was hit: there is nothing to graze")


def test_grazing_without_the_focus_is_refused_and_nothing_changes(tmp_path: Path, capsys: Cap) -> None:
    spend = {"cmd": "spend", "who": "c1", "key": "focus", "amount": 3}
    cmd = attack("c1", ["c2"], modifier=4, damage="1d8", given=[9], damage_given=[5], graze=["c2"])
    r = run(tmp_path, capsys, on_turn(spend, cmd))
    refused(r, 6, "Grazing 1 target costs 1 focus and Kaladin has 0")
    # refused, the action was not spent either: the same Strike goes through after
    r = ok(
        run(
            tmp_path,
            capsys,
            on_turn(spend, attack("c1", ["c2"], modifier=4, damage="1d8", given=[9], damage_given=[5])),
        )
    )
    assert r.eco("c1") == "F A1 R1"


def test_a_hit_deals_the_damage_dice_plus_the_skill_modifier(tmp_path: Path, capsys: Cap) -> None:
    r = ok(
        run(tmp_path, capsys, on_turn(attack("c1", ["c2"], modifier=3, damage="2d6", given=[15], damage_given=[2, 6])))
    )
    assert r.at(5)[-1] == "Parshendi takes 11 damage (Kaladin's hit: 8 + 3), 19 left"
    # a negative modifier lowers it, never below 0 (decision)
    r = ok(
        run(tmp_path, capsys, on_turn(attack("c1", ["c2"], modifier=-2, damage="1d4", given=[16], damage_given=[1])))
    )
    assert r.at(5)[-2:] == [
        "Parshendi: 14 vs 14: hit, 0 damage",
        "Parshendi takes 0 damage (Kaladin's hit: 1 - 2), 30 left",
    ]


def test_a_critical_hit_maximises_the_damage_dice_against_every_target(tmp_path: Path, capsys: Cap) -> None:
    scout = add("Scout", hp=30, phy=16)  # c3
    cmd = attack(
        "c1", ["c2", "c3"], modifier=4, damage="2d6", given=[11], damage_given=[3, 4], critical=True, graze=["c3"]
    )
    r = ok(run(tmp_path, capsys, [KAL, PAR, scout, start(), take("c1", "fast"), cmd]))
    assert r.at(6)[-4:] == [
        "Parshendi: 15 vs 14: critical, 16 damage",
        "Parshendi takes 16 damage (Kaladin's critical: 12 + 4), 14 left",
        "Scout: 15 vs 16: critical graze, 12 damage",
        "Scout takes 12 damage (Kaladin's critical graze: 12), 18 left",
    ]
    # only the dice are maximised, not a constant in the damage
    cmd = attack("c1", ["c2"], modifier=3, damage="1d8+2", critical=True, given=[12], damage_given=[1])
    r = ok(run(tmp_path, capsys, on_turn(cmd)))
    assert r.at(5)[-1] == "Parshendi takes 13 damage (Kaladin's critical: 10 + 3), 17 left"


def test_a_critical_needs_a_hit(tmp_path: Path, capsys: Cap) -> None:
    cmd = attack("c1", ["c2"], modifier=4, damage="1d8", given=[5], damage_given=[5], critical=True)
    refused(run(tmp_path, capsys, on_turn(cmd)), 5, "A critical needs a hit")


def test_several_targets_one_roll_each_against_its_own_defense(tmp_path: Path, capsys: Cap) -> None:
    scout = add("Scout", hp=30, spi=13)  # c3
    cmd = attack("c1", ["c2", "c3"], defense="spi", modifier=2, damage="1d6", given=[12], damage_given=[4])
    r = ok(run(tmp_path, capsys, [KAL, PAR, scout, start(), take("c1", "fast"), cmd]))
    assert (
        r.at(6)[1]
        == "Kaladin attacks against Spiritual defense: test d20 12 (entered), +2; damage 1d6 = [4] = 4 (entered)"
    )
    assert r.at(6)[2:] == [
        "Parshendi: 14 vs 18: miss",
        "Scout: 14 vs 13: hit, 6 damage",
        "Scout takes 6 damage (Kaladin's hit: 4 + 2), 24 left",
    ]


def test_grazing_several_missed_targets_costs_one_focus_each(tmp_path: Path, capsys: Cap) -> None:
    scout = add("Scout", hp=30, phy=16)  # c3
    cmd = attack("c1", ["c2", "c3"], modifier=1, damage="1d6", given=[5], damage_given=[4], graze=["c2", "c3"])
    r = ok(run(tmp_path, capsys, [KAL, PAR, scout, start(), take("c1", "fast"), cmd]))
    assert "Kaladin spends 2 focus (1 left)" in r.at(6) and r.hp("c2") == "26/30" and r.hp("c3") == "26/30"
    poor = add("Kaladin", pc=True, hp=28, speed=30, focus=1)
    r = run(tmp_path, capsys, [poor, PAR, scout, start(), take("c1", "fast"), cmd])
    refused(r, 6, "Grazing 2 targets costs 2 focus and Kaladin has 1")


def test_the_damage_dice_are_rolled_with_the_test_even_on_a_miss(tmp_path: Path, capsys: Cap) -> None:
    # the same seed: the roll after an attack is the same whether the attack hit or missed
    roll: Cmd = {"cmd": "roll", "dice": "1d20", "label": "after"}
    seen = []
    for modifier in (-10, 20):  # a miss, then a hit, on the very same dice
        r = ok(run(tmp_path, capsys, on_turn(attack("c1", ["c2"], modifier=modifier, damage="1d8"), roll)))
        seen.append((r.at(5)[1].split("; damage ")[1], r.at(6)))
    assert seen[0] == seen[1]


# --- Advantage and disadvantage, range and reach --------------------------------------------------


def test_a_ranged_attack_within_an_enemys_reach_has_a_disadvantage(tmp_path: Path, capsys: Cap) -> None:
    cmd = attack("c1", ["c2"], kind="ranged", in_reach=True, modifier=4, damage="1d8", given=[18, 6], damage_given=[5])
    r = ok(run(tmp_path, capsys, on_turn(cmd)))
    assert r.at(5)[2] == "Parshendi: 10 vs 14: miss (disadvantage: ranged attack within an enemy's reach; kept 6)"
    cmd = attack("c1", ["c2"], in_reach=True, modifier=4, damage="1d8", given=[18], damage_given=[5])
    refused(run(tmp_path, capsys, on_turn(cmd)), 5, "Only a ranged attack")


def test_a_ranged_attack_near_an_ally_raises_the_stakes_and_a_complication_grazes_the_ally(
    tmp_path: Path, capsys: Cap
) -> None:
    teft = add("Teft", side="party", hp=15)  # c3
    base = {"kind": "ranged", "modifier": 3, "damage": "1d6", "ally": "c3", "damage_given": [4]}
    cmd = attack("c1", ["c2"], **base, ally_graze=True, given=[2])
    r = ok(run(tmp_path, capsys, [KAL, PAR, teft, start(), take("c1", "fast"), cmd]))
    assert r.at(6)[1].endswith(
        "the target is within 5 ft of Teft: the stakes are raised (plot die); "
        "the GM spends the Complication: Teft is grazed"
    )
    assert r.at(6)[2:] == ["Parshendi: 5 vs 14: miss", "Teft takes 4 damage (Kaladin's miss grazes its ally), 11 left"]
    assert r.focus("c1") == "3/3"  # no focus for the ally's graze
    # a hit leaves nothing for the Complication; a melee attack raises no stakes
    r = run(
        tmp_path,
        capsys,
        [KAL, PAR, teft, start(), take("c1", "fast"), attack("c1", ["c2"], **base, ally_graze=True, given=[15])],
    )
    refused(r, 6, "only when the attack misses")
    melee = {**base, "kind": "melee"}
    r = run(tmp_path, capsys, [KAL, PAR, teft, start(), take("c1", "fast"), attack("c1", ["c2"], **melee, given=[2])])
    refused(r, 6, "Only a ranged attack raises the stakes")


def test_unstable_footing_gives_a_ranged_attack_a_disadvantage(tmp_path: Path, capsys: Cap) -> None:
    cmd = attack("c1", ["c2"], kind="ranged", unstable=True, modifier=4, damage="1d8", given=[6, 18], damage_given=[5])
    r = ok(run(tmp_path, capsys, on_turn(cmd)))
    assert r.at(5)[2] == "Parshendi: 10 vs 14: miss (disadvantage: unstable footing; kept 6)"
    cmd = attack("c1", ["c2"], unstable=True, modifier=4, damage="1d8", given=[6], damage_given=[5])
    refused(run(tmp_path, capsys, on_turn(cmd)), 5, "Only a ranged attack suffers for being on unstable footing")


def test_a_target_it_cannot_sense_gives_a_disadvantage_and_cannot_be_grazed(tmp_path: Path, capsys: Cap) -> None:
    scout = add("Scout", hp=30, phy=12)  # c3
    cmd = attack(
        "c1", ["c2", "c3"], kind="ranged", unsensed=["c3"], modifier=4, damage="1d8", given=[12, 7], damage_given=[5]
    )
    r = ok(run(tmp_path, capsys, [KAL, PAR, scout, start(), take("c1", "fast"), cmd]))
    assert r.at(6)[2] == "Parshendi: 16 vs 14: hit, 9 damage"  # sensed: the first d20
    assert r.at(6)[4] == "Scout: 11 vs 12: miss (disadvantage: cannot sense Scout; kept 7)"
    r = run(tmp_path, capsys, [KAL, PAR, scout, start(), take("c1", "fast"), {**cmd, "graze": ["c3"]}])
    refused(r, 6, "Scout cannot be grazed: Kaladin cannot sense it")


def test_long_range_20_60_normal_to_20_disadvantage_beyond_refused_past_60(tmp_path: Path, capsys: Cap) -> None:
    def javelin(feet: int, given: list[int]) -> Cmd:
        return attack(
            "c1",
            ["c2"],
            kind="ranged",
            range="20/60",
            distance=[feet],
            modifier=4,
            damage="1d6",
            given=given,
            damage_given=[3],
        )

    r = ok(run(tmp_path, capsys, on_turn(javelin(20, [6]))))
    assert r.at(5)[2] == "Parshendi: 10 vs 14: miss"
    r = ok(run(tmp_path, capsys, on_turn(javelin(21, [6, 18]))))
    assert r.at(5)[2] == "Parshendi: 10 vs 14: miss (disadvantage: long range (21 ft, beyond 20 ft); kept 6)"
    r = ok(run(tmp_path, capsys, on_turn(javelin(60, [18, 6]))))
    assert r.at(5)[2].endswith("(disadvantage: long range (60 ft, beyond 20 ft); kept 6)")
    refused(run(tmp_path, capsys, on_turn(javelin(61, [18, 6]))), 5, "61 ft away, beyond the long range of 60 ft")


def test_a_melee_attack_needs_the_target_within_reach(tmp_path: Path, capsys: Cap) -> None:
    def strike(feet: int, reach: str = "") -> Cmd:
        return attack(
            "c1", ["c2"], range=reach, distance=[feet], modifier=4, damage="1d6", given=[10], damage_given=[3]
        )

    ok(run(tmp_path, capsys, on_turn(strike(5))))
    refused(run(tmp_path, capsys, on_turn(strike(10))), 5, "10 ft away, beyond the reach of 5 ft")
    ok(run(tmp_path, capsys, on_turn(strike(10, "10"))))  # a weapon with a longer reach


def test_each_advantage_cancels_one_disadvantage(tmp_path: Path, capsys: Cap) -> None:
    both = {
        "kind": "ranged",
        "in_reach": True,
        "advantage": ["high ground"],
        "modifier": 4,
        "damage": "1d8",
        "damage_given": [5],
    }
    r = ok(run(tmp_path, capsys, on_turn(attack("c1", ["c2"], **both, given=[18]))))
    assert r.at(5)[2].endswith(
        "(advantage: high ground; disadvantage: ranged attack within an enemy's reach; net normal)"
    )
    r = ok(run(tmp_path, capsys, on_turn(attack("c1", ["c2"], **both, long_range=True, given=[18, 6]))))
    assert r.at(5)[2].endswith("net disadvantage; kept 6)")


def test_squeezing_is_slowed_and_attacks_against_it_gain_an_advantage(tmp_path: Path, capsys: Cap) -> None:
    cmds = [KAL, PAR, start(), condition("c2", "Squeezing"), take("c1", "fast")]
    cmd = attack("c1", ["c2"], modifier=4, damage="1d8", given=[12, 3], damage_given=[5])
    r = ok(run(tmp_path, capsys, cmds + [cmd, {"cmd": "uncondition", "who": "c2", "name": "Squeezing"}]))
    assert r.at(4) == ["Parshendi is Squeezing", "Parshendi is Slowed (while squeezing)"]
    assert (
        r.at(6)[2]
        == "Parshendi: 16 vs 14: hit, 9 damage (advantage: Parshendi is squeezing through a small space; kept 12)"
    )
    assert r.at(7) == [
        "Parshendi is no longer Squeezing (removed)",
        "Parshendi is no longer Slowed (no longer squeezing)",
    ]


def test_brace_gives_attacks_against_it_a_disadvantage_until_its_next_turn(tmp_path: Path, capsys: Cap) -> None:
    cmds = [KAL, PAR, start(), take("c2", "fast"), use("c2", "action", "Brace"), NEXT]
    cmd = attack("c1", ["c2"], modifier=4, damage="1d8", given=[12, 8], damage_given=[5])
    r = ok(run(tmp_path, capsys, cmds + [cmd]))
    assert r.at(5)[1] == "Parshendi is Braced (until the start of its next turn)"
    assert r.at(7)[2] == "Parshendi: 12 vs 14: miss (disadvantage: Parshendi is Braced behind cover; kept 8)"
    r = ok(run(tmp_path, capsys, cmds + [*nxt(3)]))
    assert "Parshendi is no longer Braced (expired at the start of its turn)" in r.at(9)


# --- Falling and dangerous terrain --------------------------------------------------------------


def fall(who: str, feet: int, **fields: Any) -> Cmd:
    return {"cmd": "cosmere_fall", "who": who, "feet": feet, **fields}


def test_a_fall_deals_1d6_per_10_feet_from_10_feet_up_and_leaves_it_prone(tmp_path: Path, capsys: Cap) -> None:
    r = ok(run(tmp_path, capsys, [KAL, PAR, start(), fall("c1", 9)]))
    assert r.at(4) == ["Kaladin falls 9 ft: under 10 ft, no damage"]
    r = ok(run(tmp_path, capsys, [KAL, PAR, start(), fall("c1", 10, given=[1])]))
    assert r.at(4) == [
        "Kaladin takes 1 impact damage (fell 10 ft) [1d6 = [1] = 1 (entered)], 27 left",
        "Kaladin is Prone (landed hurt)",
    ]
    r = ok(run(tmp_path, capsys, [KAL, PAR, start(), fall("c1", 19, given=[6])]))
    assert r.hp("c1") == "22/28"
    r = ok(run(tmp_path, capsys, [KAL, PAR, start(), fall("c1", 35, total=18)]))
    assert r.at(4)[0] == "Kaladin takes 18 impact damage (fell 35 ft) [3d6 = 18 (entered total)], 10 left"
    refused(run(tmp_path, capsys, [KAL, PAR, start(), fall("c1", 20, given=[6])]), 4, "needs 2 die results")
    refused(
        run(tmp_path, capsys, [KAL, PAR, start(), fall("c1", 30, total=19)]), 4, "19 is not a possible total for 3d6"
    )
    refused(run(tmp_path, capsys, [KAL, PAR, start(), fall("c1", -10)]), 4, "A fall is between 0 and 10,000 ft")


def test_dangerous_terrain_hurts_on_moving_in_and_at_the_start_of_each_turn_there(tmp_path: Path, capsys: Cap) -> None:
    enter: Cmd = {"cmd": "cosmere_terrain", "who": "c2", "damage": "2d4", "label": "spikes", "given": [1, 1]}
    rolls = [{"who": "c2", "what": "In dangerous terrain", "total": 8}]
    cmds = [KAL, PAR, start(), enter, speed("c2", "fast"), {"cmd": "next", "rolls": rolls}]
    r = ok(run(tmp_path, capsys, cmds))
    assert r.at(4) == [
        "Parshendi is In dangerous terrain (spikes, 2d4 on entering and each turn start)",
        "Parshendi takes 2 damage (moved into spikes) [2d4 = [1, 1] = 2 (entered)], 28 left",
    ]
    assert r.at(6)[-2:] == [
        "Parshendi, In dangerous terrain: 2d4 = 8 (entered total): spikes",
        "Parshendi takes 8 damage (starts its turn in spikes), 20 left",
    ]
    # a roll that cannot be, or one nothing asks for, is refused
    bad = [{"who": "c2", "what": "In dangerous terrain", "total": 9}]
    refused(run(tmp_path, capsys, cmds[:-1] + [{"cmd": "next", "rolls": bad}]), 6, "9 is not a possible total for 2d4")
    stray = [{"who": "c1", "what": "In dangerous terrain", "total": 3}]
    refused(run(tmp_path, capsys, cmds[:-1] + [{"cmd": "next", "rolls": stray}]), 6, "not needed")
    # out of it (removed), nothing more
    leave: Cmd = {"cmd": "uncondition", "who": "c2", "name": "In dangerous terrain"}
    r = ok(run(tmp_path, capsys, [KAL, PAR, start(), enter, leave, speed("c2", "fast"), NEXT]))
    assert r.hp("c2") == "28/30"


# --- Conditions, removal, down, the table's dice, bosses -----------------------------------------


def test_a_condition_ends_mid_round_at_the_turn_it_names(tmp_path: Path, capsys: Cap) -> None:
    slowed = condition("c2", "Slowed", duration={"kind": "turn_end", "who": "c1", "count": 1})
    prone = condition("c3", "Prone", duration={"kind": "turn_start", "who": "c3", "count": 1})
    scout = add("Scout", speed=10)  # c3
    r = ok(run(tmp_path, capsys, [KAL, PAR, scout, start(), slowed, prone, take("c1", "fast"), *nxt(2)]))
    assert r.at(8)[:2] == [
        "Kaladin ends the turn (2 actions lost)",
        "Parshendi is no longer Slowed (expired at the end of Kaladin's turn)",
    ]
    assert r.at(9)[-1] == "Scout is no longer Prone (expired at the start of its turn)"
    assert r.summary["round"] == 1


def test_removing_the_combatant_whose_turn_it_is_moves_on_cleanly(tmp_path: Path, capsys: Cap) -> None:
    scout = add("Scout", speed=10)  # c3
    cmds = [KAL, PAR, scout, start(), take("c2", "slow"), {"cmd": "remove", "who": "c2"}, NEXT, NEXT]
    r = ok(run(tmp_path, capsys, cmds))
    assert r.at(6) == ["Parshendi leaves the fight"]
    # the round goes on without it: Kaladin, passed over by the early slow NPC turn, then the Scout
    assert r.turns() == ["Parshendi slow", "Kaladin slow", "Scout slow"] and "c2" not in r.summary["combatants"]
    assert r.summary["round"] == 1


def test_a_combatant_down_at_0_health_is_not_offered_a_turn(tmp_path: Path, capsys: Cap) -> None:
    down = {"cmd": "damage", "who": "c2", "amount": 30}
    r = ok(run(tmp_path, capsys, [KAL, PAR, start(), down, take("c1", "fast"), *nxt(2)]))
    assert "Parshendi loses the turn: down at 0 health: no turn this round" in r.at(6)
    assert r.summary["round"] == 2
    # healed before its phase, it has its turn
    heal = {"cmd": "heal", "who": "c2", "amount": 3}
    r = ok(run(tmp_path, capsys, [KAL, PAR, start(), down, take("c1", "fast"), heal, NEXT]))
    assert r.turns() == ["Kaladin fast", "Parshendi slow"]


def test_the_tables_dice_are_checked_before_anything_changes(tmp_path: Path, capsys: Cap) -> None:
    cases = [
        ({"given": [21], "damage_given": [5]}, "The attack test: 21 is not a possible result on a d20"),
        ({"given": [10, 12], "damage_given": [5]}, "The attack test rolls 1 d20: enter 1"),
        ({"total": 25, "damage_given": [5]}, "The attack test: 25 is not possible with +4 (5 to 24)"),
        ({"given": [10], "damage_total": 9}, "Damage: 9 is not a possible total for 1d8 (1 to 8)"),
    ]
    for fields, needle in cases:
        r = run(tmp_path, capsys, on_turn(attack("c1", ["c2"], modifier=4, damage="1d8", **fields)))
        refused(r, 5, needle)
    r = ok(run(tmp_path, capsys, on_turn(attack("c1", ["c2"], modifier=4, damage="1d8", total=14, damage_total=5))))
    assert r.at(5)[2] == "Parshendi: 14 vs 14: hit, 9 damage"
    r = run(tmp_path, capsys, [KAL, PAR, start(c1=21)])
    refused(r, 3, "21 is not a possible result on a d20")


def test_a_boss_takes_a_fast_and_a_slow_turn_each_round(tmp_path: Path, capsys: Cap) -> None:
    boss: Cmd = {"cmd": "add", "name": "Stormsinger", "flags": ["boss"], "stats": [["speed", 20]]}
    r = ok(run(tmp_path, capsys, [KAL, boss, start(), take("c1", "fast"), *nxt(3)]))
    assert r.turns() == ["Kaladin fast", "Stormsinger fast", "Stormsinger slow"]
    assert "Stormsinger (boss) takes a slow turn too this round" in r.at(6)
    r = run(tmp_path, capsys, [KAL, boss, start(), speed("c2", "fast")])
    refused(r, 4, "Stormsinger is a boss")


def test_one_undo_takes_back_the_whole_attack_and_redo_brings_it_again(tmp_path: Path, capsys: Cap) -> None:
    graze = attack("c1", ["c2"], modifier=4, damage="1d8", given=[9], damage_given=[5], graze=["c2"])
    undo: Cmd = {"cmd": "undo"}
    r = ok(run(tmp_path, capsys, on_turn(graze, undo)))
    assert r.at(6)[0].startswith("Undid: Kaladin uses Strike (1 action)")
    # the action, the focus of the graze and the damage all come back
    assert (r.eco("c1"), r.focus("c1"), r.hp("c2")) == ("F A2 R1", "3/3", "30/30")
    ok(run(tmp_path, capsys, on_turn(graze, undo, graze)))  # Strike is not used up any more
    r = ok(run(tmp_path, capsys, on_turn(graze, undo, {"cmd": "redo"})))
    assert (r.eco("c1"), r.focus("c1"), r.hp("c2")) == ("F A1 R1", "2/3", "25/30")
    # undoing a turn started early puts the round back in its phase
    r = ok(run(tmp_path, capsys, [KAL, PAR, start(), take("c2", "slow"), undo]))
    assert r.summary["where"] == "Round 1 · Fast PC turns" and r.summary["current"] == ""


def test_fast_or_slow_cannot_change_once_the_turn_has_begun(tmp_path: Path, capsys: Cap) -> None:
    r = run(tmp_path, capsys, on_turn(speed("c1", "slow")))
    refused(r, 5, "Kaladin is taking its turn now")
    r = ok(run(tmp_path, capsys, on_turn()))
    assert r.eco("c1") == "F A2 R1"
