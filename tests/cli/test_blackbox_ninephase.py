"""Black-box checks of the nine-phase rules, driven only through `fracas script` as docs/commands.md
documents it (the commands, their fields, `--log` and the summary or the final state).

One test per rule of ninephase.txt (or per decision of docs/rules/ninephase.md where the text is
silent), named after it. Each script is built from the documented command vocabulary only, and each
test fails if the engine gets its rule wrong.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.cli.script_support import ScriptRun, refused, run_script
from tui.cli import main

Cmd = dict[str, Any]


# --- the documented vocabulary, as small builders ------------------------------------------------


def add(name: str, hp: int = 10, grit: int = 4, pc: bool = False, **extra: int) -> Cmd:
    stats = [["hp", hp], ["grit", grit]] + [[k, v] for k, v in extra.items()]
    if pc:
        return {"cmd": "add", "name": name, "kind": "pc", "side": "party", "stats": stats}
    return {"cmd": "add", "name": name, "stats": stats}


ALDRIC = add("Aldric", hp=24, grit=8, pc=True)  # c1
ORC = add("Orc", hp=10, grit=4)  # c2
START: Cmd = {"cmd": "start"}
NEXT: Cmd = {"cmd": "next"}


def nxt(n: int) -> list[Cmd]:
    return [NEXT] * n


def to_phase(p: int) -> list[Cmd]:
    """From phase 1 of a round (just after `start`) to phase p of the same round."""
    return nxt(p - 1)


def act(who: str, name: str, **fields: Any) -> Cmd:
    return {"cmd": "activity", "who": who, "name": name, **fields}


def do(who: str, name: str, **fields: Any) -> Cmd:
    return {"cmd": "do_activity", "who": who, "name": name, **fields}


def dmg(who: str, amount: int, **fields: Any) -> Cmd:
    return {"cmd": "damage", "who": who, "amount": amount, **fields}


def save(who: str, d20: int, dc: int = 10) -> Cmd:
    return {"cmd": "save", "who": who, "dc": dc, "given": [d20]}


def channel(who: str, name: str, cost: int, phase: int, **fields: Any) -> Cmd:
    return act(who, name, cost=cost, earliest=phase, lock=True, channel=True, **fields)


def define(**spec: Any) -> Cmd:
    return {"cmd": "define_activity", "activity": spec}


def condition(who: str, name: str, duration: dict[str, Any]) -> Cmd:
    return {"cmd": "condition", "who": who, "name": name, "duration": duration}


# --- running a script ---------------------------------------------------------------------------


class Run(ScriptRun):

    def eco(self, cid: str) -> str:
        return str(self.summary["combatants"][cid]["economy"])

    def track(self, cid: str, key: str) -> str:
        return str(self.summary["combatants"][cid][key])


def run(tmp_path: Path, capsys: pytest.CaptureFixture[str], cmds: list[Cmd], seed: int = 1) -> Run:
    return run_script(tmp_path, capsys, cmds, "ninephase", seed, Run)


def state(tmp_path: Path, capsys: pytest.CaptureFixture[str], cmds: list[Cmd]) -> dict[str, Any]:
    """The final state as JSON (no flag)."""
    path = tmp_path / "state.jsonl"
    path.write_text("".join(json.dumps(c) + "\n" for c in cmds))
    code = main(["script", str(path), "--rules", "ninephase", "--seed", "1"])
    out = capsys.readouterr()
    assert code == 0, out.err
    result: dict[str, Any] = json.loads(out.out)
    return result



def ok(r: Run) -> None:
    assert r.code == 0, r.err


def channels_of(st: dict[str, Any], cid: str) -> list[dict[str, Any]]:
    c = next(x for x in st["combatants"] if x["id"] == cid)
    return list(c.get("channels", []))


# --- Rounds and phases ----------------------------------------------------------------------------


def test_round_is_nine_phases_then_phase_1_of_the_next(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    r = run(tmp_path, capsys, [ALDRIC, ORC, START] + nxt(8))
    ok(r)
    assert r.summary["where"] == "Round 1 · Phase 9"
    assert [t for t in r.texts() if t.startswith("Phase ")] == [f"Phase {p}" for p in range(1, 10)]
    r = run(tmp_path, capsys, [ALDRIC, ORC, START] + nxt(9))
    ok(r)
    assert r.summary["round"] == 2
    assert r.summary["where"] == "Round 2 · Phase 1"
    assert r.at(12)[-2:] == ["Round 2", "Phase 1"]


def test_unused_actions_and_reaction_are_lost_at_the_end_of_the_round(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cmds = [ALDRIC, ORC, START] + to_phase(3) + [do("c1", "Move")] + nxt(6)
    r = run(tmp_path, capsys, cmds)
    ok(r)
    assert r.eco("c1") == "A2 R1 M"  # phase 9: what is left is still there
    r = run(tmp_path, capsys, cmds + [NEXT])
    ok(r)
    lost = [t for t in r.texts() if t.startswith("End of round 1")]
    assert lost and "Aldric 2 actions and the reaction" in lost[0] and "Orc 3 actions and the reaction" in lost[0]
    # the new round brings a fresh 3 actions, the reaction and the Master Action
    assert r.eco("c1") == "A3 R1 M"


# --- When an activity may start -------------------------------------------------------------------


def test_a_listed_phase_allows_that_phase_and_later_never_earlier(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # moving is listed as phase 3: not in phase 1 or 2; in 3 and any later phase, 9 included
    for p in (1, 2):
        r = run(tmp_path, capsys, [ALDRIC, ORC, START] + to_phase(p) + [do("c1", "Move")])
        refused(r, 3 + p, "Move cannot start before phase 3", f"it is phase {p}")
    for p in (3, 6, 9):
        r = run(tmp_path, capsys, [ALDRIC, ORC, START] + to_phase(p) + [do("c1", "Move")])
        ok(r)
        assert r.eco("c1") == "A2 R1 M"
    # the same through the ad-hoc command
    r = run(tmp_path, capsys, [ALDRIC, ORC, START] + to_phase(4) + [act("c1", "Hurl", earliest=5)])
    refused(r, 7, "Hurl cannot start before phase 5")


def test_no_phase_listed_means_any_phase(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    r = run(tmp_path, capsys, [ALDRIC, ORC, START, act("c1", "Shout")])
    ok(r)
    assert "Aldric uses Shout (1 action); A2 R1 M" in r.at(4)


def test_weapon_phase_is_the_speed_factor_of_the_weapon_used(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = [ALDRIC, ORC, START]
    refused(
        run(tmp_path, capsys, base + to_phase(4) + [do("c1", "Weapon attack", speed=5)]),
        7,
        "cannot start before phase 5",
    )
    r = run(tmp_path, capsys, base + to_phase(5) + [do("c1", "Weapon attack", speed=5)])
    ok(r)
    assert "Aldric uses Weapon attack (Master Action, 1 action); A2 R1 m" in r.texts()
    # two-weapon fighting: the Speed Factor of the weapon attacking (a dagger, SF 2) decides
    ok(run(tmp_path, capsys, base + to_phase(2) + [do("c1", "Weapon attack", speed=2)]))
    refused(run(tmp_path, capsys, base + to_phase(5) + [do("c1", "Weapon attack")]), 8, "Speed Factor")
    refused(
        run(tmp_path, capsys, base + to_phase(5) + [do("c1", "Weapon attack", speed=10)]),
        8,
        "Speed Factor is a phase from 1 to 9",
    )
    refused(
        run(tmp_path, capsys, base + to_phase(5) + [do("c1", "Move", speed=2)]),
        8,
        "does not depend on a weapon's Speed Factor",
    )


def test_phase_lock_only_in_the_listed_phase(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rite = {"earliest": 3, "lock": True}
    refused(
        run(tmp_path, capsys, [ALDRIC, ORC, START] + to_phase(2) + [act("c1", "Rite", **rite)]),
        5,
        "Phase Locked to phase 3",
        "it is phase 2",
    )
    refused(
        run(tmp_path, capsys, [ALDRIC, ORC, START] + to_phase(4) + [act("c1", "Rite", **rite)]),
        7,
        "Phase Locked to phase 3",
        "it is phase 4",
    )
    ok(run(tmp_path, capsys, [ALDRIC, ORC, START] + to_phase(3) + [act("c1", "Rite", **rite)]))


# --- Turns: one a phase ---------------------------------------------------------------------------


def test_one_turn_a_phase_act_once_whatever_it_costs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # paying 2 actions for one activity does not buy a second act in that phase
    r = run(tmp_path, capsys, [ALDRIC, ORC, START] + to_phase(3) + [act("c1", "Heave", cost=2), do("c1", "Move")])
    refused(r, 7, "Aldric has already acted in phase 3 (Heave)", "one turn a phase")


def test_no_act_and_react_in_the_same_phase(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    r = run(tmp_path, capsys, [ALDRIC, ORC, START] + to_phase(3) + [do("c1", "Move"), do("c1", "Shield Block")])
    refused(r, 7, "already acted in phase 3", "one turn a phase")
    r = run(tmp_path, capsys, [ALDRIC, ORC, START] + to_phase(3) + [do("c1", "Shield Block"), do("c1", "Move")])
    refused(r, 7, "already reacted in phase 3 (Shield Block)", "one turn a phase")
    # the next phase is a new turn
    r = run(tmp_path, capsys, [ALDRIC, ORC, START] + to_phase(3) + [do("c1", "Shield Block"), NEXT, do("c1", "Move")])
    ok(r)
    assert r.eco("c1") == "A2 R0 M"


def test_draw_and_fire_are_two_activities_unless_one_activity_says_both(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    r = run(tmp_path, capsys, [ALDRIC, ORC, START] + to_phase(2) + [act("c1", "Draw bow"), act("c1", "Fire bow")])
    refused(r, 6, "one turn a phase")
    ok(run(tmp_path, capsys, [ALDRIC, ORC, START] + to_phase(2) + [act("c1", "Draw and fire", master=True)]))


def test_a_character_may_act_again_in_a_later_phase(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    r = run(
        tmp_path, capsys, [ALDRIC, ORC, START, act("c1", "Shout"), NEXT, act("c1", "Step"), NEXT, act("c1", "Duck")]
    )
    ok(r)
    assert r.eco("c1") == "A0 R1 M"


# --- Actions ----------------------------------------------------------------------------------


def test_three_actions_a_round_and_enough_left_for_the_whole_cost(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # exactly enough is enough
    r = run(tmp_path, capsys, [ALDRIC, ORC, START, act("c1", "Heave", cost=3)])
    ok(r)
    assert r.eco("c1") == "A0 R1 M"
    # a multi-action activity resolves in its own phase: nothing is channeled
    assert not r.has("channeling")
    r = run(tmp_path, capsys, [ALDRIC, ORC, START, act("c1", "Heave", cost=2), NEXT, act("c1", "Lift", cost=2)])
    refused(r, 6, "Lift costs 2 actions and Aldric has 1 left")
    r = run(tmp_path, capsys, [ALDRIC, ORC, START, act("c1", "Heave", cost=3), NEXT, act("c1", "Step")])
    refused(r, 6, "Aldric has 0 left")
    refused(run(tmp_path, capsys, [ALDRIC, ORC, START, act("c1", "Heave", cost=4)]), 4, "0 to 3 actions")
    refused(run(tmp_path, capsys, [ALDRIC, ORC, START, act("c1", "Heave", cost=-1)]), 4, "0 to 3 actions")


def test_an_activity_costs_one_action_unless_stated(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    r = run(tmp_path, capsys, [ALDRIC, ORC, START, act("c1", "Shout")])
    ok(r)
    assert r.eco("c1") == "A2 R1 M"
    r = run(tmp_path, capsys, [ALDRIC, ORC, define(name="Kick"), START, do("c1", "Kick")])
    ok(r)
    assert r.eco("c1") == "A2 R1 M"


def test_a_zero_cost_activity_still_uses_the_turn(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    r = run(tmp_path, capsys, [ALDRIC, ORC, START, act("c1", "Wink", cost=0), act("c1", "Step")])
    refused(r, 5, "already acted in phase 1 (Wink)", "one turn a phase")
    r = run(tmp_path, capsys, [ALDRIC, ORC, START, act("c1", "Wink", cost=0), do("c1", "Shield Block")])
    refused(r, 5, "one turn a phase")


def test_each_activity_once_a_round_unless_it_says_otherwise(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = [ALDRIC, ORC, START] + to_phase(3)
    r = run(tmp_path, capsys, base + [do("c1", "Move"), NEXT, do("c1", "move")])
    refused(r, 8, "already attempted", "each activity once a round")
    # the ad-hoc command and the catalog name the same activity
    refused(
        run(tmp_path, capsys, base + [do("c1", "Move"), NEXT, act("c1", "MOVE", earliest=3)]),
        8,
        "each activity once a round",
    )
    # an activity that says so may be repeated
    r = run(
        tmp_path,
        capsys,
        base + [act("c1", "Step back", repeatable=True), NEXT, act("c1", "Step back", repeatable=True)],
    )
    ok(r)
    assert r.eco("c1") == "A1 R1 M"
    # and a new round allows it again
    r = run(tmp_path, capsys, base + [do("c1", "Move")] + nxt(9) + [do("c1", "Move")])
    ok(r)
    assert r.summary["where"] == "Round 2 · Phase 3"
    assert r.eco("c1") == "A2 R1 M"


# --- Master Actions ---------------------------------------------------------------------------


def test_one_master_action_a_round(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    r = run(
        tmp_path,
        capsys,
        [ALDRIC, ORC, START]
        + to_phase(2)
        + [act("c1", "Shortbow", earliest=2, master=True), NEXT, act("c1", "Cast", master=True)],
    )
    refused(r, 7, "Aldric has already used its Master Action this round")
    # the next round brings it back
    r = run(
        tmp_path,
        capsys,
        [ALDRIC, ORC, START]
        + to_phase(2)
        + [act("c1", "Shortbow", earliest=2, master=True)]
        + nxt(9)
        + [act("c1", "Shortbow", earliest=2, master=True)],
    )
    ok(r)
    assert r.eco("c1") == "A2 R1 m"


def test_master_action_costs_its_actions_and_leaves_the_rest_and_the_reaction(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # the warrior answers an arrow in phase 2 by throwing the axe in hand: 1 action and his Master
    # Action; he still moves later, blocks with his reaction, and spends his last action
    r = run(
        tmp_path,
        capsys,
        [ALDRIC, ORC, START]
        + to_phase(2)
        + [
            act("c2", "Shortbow", earliest=2, master=True),
            do("c1", "Throw weapon", speed=2),
            NEXT,
            do("c1", "Move"),
            NEXT,
            do("c1", "Shield Block"),
            NEXT,
            act("c1", "Step"),
        ],
    )
    ok(r)
    assert "Aldric uses Throw weapon (Master Action, 1 action); A2 R1 m" in r.texts()
    assert r.eco("c1") == "A0 R0 m"
    r = run(tmp_path, capsys, [ALDRIC, ORC, START, act("c1", "Charge", cost=2, master=True)])
    ok(r)
    assert r.eco("c1") == "A1 R1 m"


def test_a_failed_or_interrupted_master_action_still_counts(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    r = run(
        tmp_path,
        capsys,
        [ALDRIC, ORC, START]
        + to_phase(2)
        + [
            act("c1", "Shortbow", earliest=2, master=True),
            {"cmd": "note", "text": "misses"},
            NEXT,
            act("c1", "Cast", master=True),
        ],
    )
    refused(r, 8, "already used its Master Action")
    r = run(
        tmp_path,
        capsys,
        [ALDRIC, ORC, START]
        + to_phase(3)
        + [channel("c1", "Rot", 2, 3), NEXT, dmg("c1", 1), NEXT, act("c1", "Shortbow", master=True)],
    )
    refused(r, 10, "already used its Master Action")


def test_master_reaction_counts_as_the_master_action_both_ways(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    riposte = {"reaction": True, "master": True}
    r = run(
        tmp_path,
        capsys,
        [ALDRIC, ORC, START]
        + to_phase(2)
        + [act("c1", "Shortbow", earliest=2, master=True), NEXT, act("c1", "Riposte", **riposte)],
    )
    refused(r, 7, "already used its Master Action")
    r = run(
        tmp_path,
        capsys,
        [ALDRIC, ORC, START]
        + to_phase(2)
        + [act("c1", "Riposte", **riposte), NEXT, act("c1", "Shortbow", master=True)],
    )
    refused(r, 7, "already used its Master Action")
    # and it is the round's reaction too
    r = run(
        tmp_path,
        capsys,
        [ALDRIC, ORC, define(name="Riposte", **riposte), START, do("c1", "Riposte"), NEXT, do("c1", "Shield Block")],
    )
    refused(r, 7, "already used its reaction this round")


def test_master_reaction_spends_no_actions(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    r = run(
        tmp_path,
        capsys,
        [ALDRIC, ORC, START, act("c1", "Riposte", reaction=True, master=True), NEXT, act("c1", "Heave", cost=3)],
    )
    ok(r)
    assert "Aldric uses Riposte (Master Reaction); A3 R0 m" in r.texts()
    assert r.eco("c1") == "A0 R0 m"


# --- Reactions ---------------------------------------------------------------------------------


def test_one_reaction_a_round(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    r = run(
        tmp_path,
        capsys,
        [ALDRIC, ORC, START] + to_phase(3) + [do("c1", "Shield Block"), NEXT, do("c1", "Opportunity Attack")],
    )
    refused(r, 8, "Aldric has already used its reaction this round")
    r = run(
        tmp_path,
        capsys,
        [ALDRIC, ORC, START] + to_phase(3) + [do("c1", "Shield Block")] + nxt(9) + [do("c1", "Opportunity Attack")],
    )
    ok(r)
    assert r.eco("c1") == "A3 R0 M"


def test_a_reaction_spends_no_action_unless_it_says(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # no actions left, and still the catalog reaction
    r = run(tmp_path, capsys, [ALDRIC, ORC, START, act("c1", "Heave", cost=3), NEXT, do("c1", "Opportunity Attack")])
    ok(r)
    assert r.eco("c1") == "A0 R0 M"
    r = run(tmp_path, capsys, [ALDRIC, ORC, START, act("c1", "Brace", reaction=True)])
    ok(r)
    assert r.eco("c1") == "A3 R0 M"
    # one whose text says it costs an action spends it, and needs it
    r = run(tmp_path, capsys, [ALDRIC, ORC, START, act("c1", "Brace", reaction=True, cost=1)])
    ok(r)
    assert r.eco("c1") == "A2 R0 M"
    r = run(
        tmp_path,
        capsys,
        [ALDRIC, ORC, START, act("c1", "Heave", cost=3), NEXT, act("c1", "Brace", reaction=True, cost=1)],
    )
    refused(r, 6, "Brace costs 1")


def test_master_action_does_not_prevent_a_later_reaction(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    r = run(
        tmp_path,
        capsys,
        [ALDRIC, ORC, START]
        + to_phase(2)
        + [act("c1", "Shortbow", earliest=2, master=True), NEXT, do("c1", "Shield Block")],
    )
    ok(r)
    assert r.eco("c1") == "A2 R0 m"


# --- Channels ---------------------------------------------------------------------------------


def test_channel_resolves_as_many_phases_later_as_it_costs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # the text's table: 3 actions, Phase Lock 3, begins in 3 and resolves in 6
    r = run(tmp_path, capsys, [ALDRIC, ORC, START] + to_phase(3) + [channel("c1", "Rot", 3, 3)] + nxt(3))
    ok(r)
    assert r.at(6) == [
        "Aldric uses Rot (Master Action, 3 actions); A0 R1 m",
        "Aldric begins channeling Rot in phase 3, resolving in phase 6",
    ]
    assert "Aldric's channel Rot resolves in phase 6" in r.at(9)
    assert not any("resolves" in t for n, t in r.log if n in (7, 8))
    # cost 1 from phase 5 resolves in 6
    r = run(tmp_path, capsys, [ALDRIC, ORC, START] + to_phase(5) + [channel("c1", "Hex", 1, 5), NEXT])
    ok(r)
    assert "Aldric's channel Hex resolves in phase 6" in r.at(9)


def test_every_channel_is_a_phase_locked_master_action(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # not locked in the command, still locked: it cannot begin after its phase
    r = run(tmp_path, capsys, [ALDRIC, ORC, START] + to_phase(4) + [act("c1", "Rot", cost=1, earliest=3, channel=True)])
    refused(r, 7, "Phase Locked to phase 3")
    # not marked master, still the Master Action
    r = run(
        tmp_path,
        capsys,
        [ALDRIC, ORC, START]
        + to_phase(3)
        + [act("c1", "Rot", cost=1, earliest=3, channel=True), NEXT, act("c1", "Shortbow", master=True)],
    )
    refused(r, 8, "already used its Master Action")
    r = run(tmp_path, capsys, [ALDRIC, ORC, define(name="Fireball", cost=3, phase=4, channel=True)])
    ok(r)
    assert "Activity Fireball added: 3 actions · Master · Phase Lock 4 · Channel" in r.texts()


def test_beginning_a_channel_is_acting_in_its_phase(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    r = run(
        tmp_path, capsys, [ALDRIC, ORC, START] + to_phase(3) + [channel("c1", "Rot", 3, 3), do("c1", "Shield Block")]
    )
    refused(r, 7, "already acted in phase 3 (Rot)", "one turn a phase")


def test_channel_completion_is_automatic_and_not_a_turn(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # it resolves without a command, and the channeler still acts (or reacts) in that phase
    r = run(tmp_path, capsys, [ALDRIC, ORC, START] + to_phase(3) + [channel("c1", "Rot", 1, 3), NEXT, do("c1", "Move")])
    ok(r)
    assert r.at(7)[-1] == "Aldric's channel Rot resolves in phase 4"
    assert r.eco("c1") == "A1 R1 m"
    r = run(
        tmp_path,
        capsys,
        [ALDRIC, ORC, START] + to_phase(3) + [channel("c1", "Rot", 1, 3), NEXT, do("c1", "Shield Block")],
    )
    ok(r)
    assert r.eco("c1") == "A2 R0 m"


def test_channeling_leaves_the_other_actions_and_the_reaction(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # inside its window the channeler still spends what is left
    r = run(
        tmp_path,
        capsys,
        [ALDRIC, ORC, START]
        + to_phase(3)
        + [channel("c1", "Rot", 2, 3), NEXT, do("c1", "Shield Block"), NEXT, act("c1", "Step")],
    )
    ok(r)
    assert r.eco("c1") == "A0 R0 m"
    assert "Aldric's channel Rot resolves in phase 5" in r.texts()
    assert not r.has("interrupted")


def test_damage_inside_the_window_interrupts_a_channel(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    base = [ALDRIC, ORC, START] + to_phase(3) + [channel("c1", "Rot", 3, 3)]
    # phase 4, to Grit
    r = run(tmp_path, capsys, base + [NEXT, dmg("c1", 2)] + nxt(2))
    ok(r)
    assert "Aldric's channel Rot is interrupted (took damage in phase 4); its actions and resources are lost" in r.at(8)
    assert not r.has("resolves in phase 6")
    assert r.eco("c1") == "A0 R1 m"  # the actions stay spent
    # phase 5, to Hit Points
    r = run(tmp_path, capsys, base + [NEXT, NEXT, dmg("c1", 2, pool="hp")] + nxt(1))
    ok(r)
    assert any("interrupted (took damage in phase 5)" in t for t in r.at(9))
    assert not r.has("resolves in phase 6")


def test_damage_in_the_start_or_completion_phase_does_not_interrupt(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = [ALDRIC, ORC, START] + to_phase(3) + [channel("c1", "Rot", 3, 3)]
    r = run(tmp_path, capsys, base + [dmg("c1", 5)] + nxt(3))
    ok(r)
    assert not r.has("interrupted")
    assert "Aldric's channel Rot resolves in phase 6" in r.texts()
    r = run(tmp_path, capsys, base + nxt(3) + [dmg("c1", 5), NEXT])
    ok(r)
    assert not r.has("interrupted")
    st = state(tmp_path, capsys, base + nxt(3) + [dmg("c1", 5), NEXT])
    assert [(c["activity"], c["status"]) for c in channels_of(st, "c1")] == [("Rot", "resolved")]


def test_a_saving_throw_inside_the_window_interrupts_whatever_its_result(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = [ALDRIC, ORC, START] + to_phase(3) + [channel("c1", "Rot", 3, 3)]
    for d20 in (20, 1):
        r = run(tmp_path, capsys, base + [NEXT, save("c1", d20)])
        ok(r)
        assert (
            "Aldric's channel Rot is interrupted (made a saving throw in phase 4); its actions and resources are lost"
            in r.at(8)
        )
    # in the starting or completion phase it does not
    r = run(tmp_path, capsys, base + [save("c1", 2)] + nxt(3) + [save("c1", 2)])
    ok(r)
    assert not r.has("interrupted")
    assert "Aldric's channel Rot resolves in phase 6" in r.texts()
    # a plain roll is not a saving throw
    r = run(
        tmp_path, capsys, base + [NEXT, {"cmd": "roll", "dice": "d20", "who": "c1", "label": "Perception"}] + nxt(2)
    )
    ok(r)
    assert not r.has("interrupted")


def test_no_damage_no_interruption(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    r = run(
        tmp_path, capsys, [ALDRIC, ORC, START] + to_phase(3) + [channel("c1", "Rot", 3, 3), NEXT, dmg("c1", 0)] + nxt(2)
    )
    ok(r)
    assert not r.has("interrupted")
    assert r.has("resolves in phase 6")
    # healing is not damage either
    r = run(
        tmp_path,
        capsys,
        [ALDRIC, ORC, START, dmg("c1", 10)]
        + to_phase(3)
        + [channel("c1", "Rot", 3, 3), NEXT, {"cmd": "heal", "who": "c1", "amount": 2}]
        + nxt(2),
    )
    ok(r)
    assert not r.has("interrupted")


def test_an_interrupted_channel_loses_its_actions_and_the_resource_spent_to_begin_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    mirelle = add("Mirelle", hp=16, grit=6, pc=True, slot3=2)
    cmds = (
        [mirelle, ORC, define(name="Fireball", cost=3, phase=3, channel=True), START]
        + to_phase(3)
        + [do("c1", "Fireball", resource="slot3"), NEXT, dmg("c1", 3)]
    )
    r = run(tmp_path, capsys, cmds)
    ok(r)
    assert "Mirelle spends 1 slot3 (1 left)" in r.texts()
    assert (
        "Mirelle's channel Fireball is interrupted (took damage in phase 4); its actions and the 1 slot3 "
        "spent on it are lost"
    ) in r.texts()
    assert r.eco("c1") == "A0 R1 m"
    # nothing comes back at the round's end either
    r = run(tmp_path, capsys, cmds + nxt(8))
    ok(r)
    assert r.track("c1", "slot3") == "1/2"
    assert r.eco("c1") == "A3 R1 M"


def test_a_reaction_that_stops_an_activity_can_stop_a_channel_in_its_starting_phase(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cmds = (
        [ALDRIC, ORC, START]
        + to_phase(3)
        + [
            channel("c2", "Rot", 3, 3),
            do("c1", "Opportunity Attack"),
            {"cmd": "stop_channel", "who": "c2", "reason": "a counterspell stops it"},
        ]
        + nxt(3)
    )
    r = run(tmp_path, capsys, cmds)
    ok(r)
    assert "Orc's channel Rot is interrupted (a counterspell stops it); its actions and resources are lost" in r.at(8)
    assert not r.has("resolves in phase 6")
    assert r.eco("c2") == "A0 R1 m"
    # with nothing under way there is nothing to stop
    refused(
        run(tmp_path, capsys, [ALDRIC, ORC, START, {"cmd": "stop_channel", "who": "c1"}]), 4, "no channel under way"
    )


def test_a_channel_must_resolve_before_the_round_ends(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    r = run(tmp_path, capsys, [ALDRIC, ORC, START] + to_phase(7) + [channel("c1", "Rot", 3, 7)])
    refused(r, 10, "would resolve in phase 10, after the round ends")
    # resolving in phase 9 is within the round
    r = run(tmp_path, capsys, [ALDRIC, ORC, START] + to_phase(6) + [channel("c1", "Rot", 3, 6)] + nxt(3))
    ok(r)
    assert "Aldric's channel Rot resolves in phase 9" in r.at(12)
    refused(
        run(tmp_path, capsys, [ALDRIC, ORC, define(name="Rot", cost=2, phase=8, channel=True)]),
        3,
        "would resolve in phase 10",
    )


def test_a_channel_whose_text_says_so_finishes_in_the_next_round(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rite = define(name="Long Rite", cost=3, phase=8, channel=True, across_rounds=True)
    base = [ALDRIC, ORC, rite, START] + to_phase(8) + [do("c1", "Long Rite")]
    r = run(tmp_path, capsys, base + nxt(3))
    ok(r)
    assert "Aldric begins channeling Long Rite in phase 8, resolving in phase 2 of the next round" in r.texts()
    assert "Aldric's channel Long Rite resolves in phase 2" in r.at(15)
    assert r.eco("c1") == "A3 R1 M"  # the new round's actions are fresh
    # its window runs over the round change: phases 9 and 1
    r = run(tmp_path, capsys, base + nxt(2) + [dmg("c1", 1)] + nxt(1))
    ok(r)
    assert (
        "Aldric's channel Long Rite is interrupted (took damage in phase 1); its actions and resources are lost"
        in r.texts()
    )
    assert not r.has("resolves in phase 2")
    refused(run(tmp_path, capsys, [ALDRIC, ORC, define(name="Step", across_rounds=True)]), 3, "only a channel")


def test_uninterruptible_channel_ignores_damage_and_saves(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ward = act("c2", "Ward", cost=3, earliest=3, lock=True, uninterruptible=True)
    r = run(
        tmp_path,
        capsys,
        [ALDRIC, ORC, START]
        + to_phase(3)
        + [ward, NEXT, dmg("c2", 3), save("c2", 1), NEXT, dmg("c2", 2, pool="hp"), NEXT],
    )
    ok(r)
    assert not r.has("interrupted")
    assert "Orc's channel Ward resolves in phase 6" in r.texts()
    # it is a Master Action like every channel
    assert "Orc uses Ward (Master Action, 3 actions); A0 R1 m" in r.texts()


def test_a_rule_that_ends_even_an_uninterruptible_channel_still_can(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ward = act("c2", "Ward", cost=3, earliest=3, lock=True, uninterruptible=True)
    r = run(
        tmp_path,
        capsys,
        [ALDRIC, ORC, START]
        + to_phase(3)
        + [ward, NEXT, dmg("c2", 3), {"cmd": "stop_channel", "who": "c2", "reason": "an anti-magic field"}, NEXT, NEXT],
    )
    ok(r)
    assert "Orc's channel Ward is interrupted (an anti-magic field); its actions and resources are lost" in r.at(9)
    assert not r.has("resolves in phase 6")


def test_uninterruptible_channel_of_a_dropped_caster_still_completes_target_the_gms_call(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ward = act("c2", "Ward", cost=3, earliest=3, lock=True, uninterruptible=True)
    r = run(tmp_path, capsys, [ALDRIC, ORC, START] + to_phase(3) + [ward, NEXT, dmg("c2", 30)] + nxt(2))
    ok(r)
    assert "Orc's channel Ward resolves in phase 6" in r.texts()
    assert r.has("its target must still be valid")


# --- Adjudicating at the same time ----------------------------------------------------------------


def test_everything_in_a_phase_is_adjudicated_together_the_goblin_and_the_archer(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    archer = add("Archer", hp=12, grit=0, pc=True)
    goblin = add("Goblin", hp=5, grit=0)
    r = run(
        tmp_path,
        capsys,
        [archer, goblin, START]
        + to_phase(2)
        + [
            act("c1", "Shortbow", earliest=2, master=True),
            {"cmd": "damage", "who": "c2", "dice": "1d8", "given": [7]},  # the archer rolled first and kills it
            act("c2", "Shortbow", earliest=2, master=True),  # the goblin still shoots in phase 2
            dmg("c1", 3),
            NEXT,
        ],
    )
    ok(r)
    assert "Goblin drops in phase 2; it finishes this phase and cannot act after" in r.at(6)
    assert "Goblin uses Shortbow (Master Action, 1 action); A2 R1 m" in r.at(7)
    assert r.track("c2", "hp") == "0/5"
    assert r.track("c1", "hp") == "9/12"  # the archer took the goblin's 3
    # but in phase 3 the goblin is out: it neither acts nor reacts
    r2 = run(tmp_path, capsys, [archer, goblin, START] + to_phase(2) + [dmg("c2", 7), NEXT, do("c2", "Move")])
    refused(r2, 7, "Goblin dropped in an earlier phase and cannot act any more")
    r2 = run(tmp_path, capsys, [archer, goblin, START] + to_phase(2) + [dmg("c2", 7), NEXT, do("c2", "Shield Block")])
    refused(r2, 7, "cannot act any more")


def test_a_combatant_dropped_at_exactly_zero_is_out_from_the_next_phase(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    orc = add("Orc", hp=10, grit=4)
    r = run(
        tmp_path,
        capsys,
        [ALDRIC, orc, START] + to_phase(2) + [dmg("c2", 14), do("c2", "Opportunity Attack"), NEXT, act("c2", "Step")],
    )
    refused(r, 8, "Orc dropped in an earlier phase")
    # 13 leaves 1 Hit Point: still up
    ok(run(tmp_path, capsys, [ALDRIC, orc, START] + to_phase(2) + [dmg("c2", 13), NEXT, act("c2", "Step")]))
    # added at 0 Hit Points it never acts, and the message says why
    zed = add("Zed", hp=0, grit=0)
    refused(run(tmp_path, capsys, [zed, START, act("c1", "Step")]), 3, "Zed is at 0 Hit Points and cannot act")


def test_healed_above_zero_acts_again(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    r = run(
        tmp_path,
        capsys,
        [ALDRIC, ORC, START]
        + to_phase(2)
        + [dmg("c2", 20), NEXT, {"cmd": "heal", "who": "c2", "amount": 2}, do("c2", "Move")],
    )
    ok(r)
    assert "Orc is back up" in r.texts()
    assert r.eco("c2") == "A2 R1 M"


def test_the_dropped_are_left_out_of_the_round_end_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    r = run(tmp_path, capsys, [ALDRIC, ORC, START, NEXT, dmg("c2", 20)] + nxt(8))
    ok(r)
    lost = [t for t in r.texts() if t.startswith("End of round 1")]
    assert lost == ["End of round 1, unused and lost: Aldric 3 actions and the reaction"]


# --- Grit and Hit Points ----------------------------------------------------------------------


def test_damage_takes_grit_first_then_hit_points(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    r = run(tmp_path, capsys, [ALDRIC, ORC, START, dmg("c2", 4)])
    ok(r)
    assert (r.track("c2", "grit"), r.track("c2", "hp")) == ("0/4", "10/10")  # exactly the Grit
    r = run(tmp_path, capsys, [ALDRIC, ORC, START, dmg("c2", 6)])
    ok(r)
    assert "Orc takes 6 damage (4 to grit, 2 to hp), 8 left" in r.texts()
    assert (r.track("c2", "grit"), r.track("c2", "hp")) == ("0/4", "8/10")


def test_the_gm_can_send_a_hit_to_hit_points_first(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    r = run(tmp_path, capsys, [ALDRIC, ORC, START, dmg("c2", 6, pool="hp")])
    ok(r)
    assert (r.track("c2", "grit"), r.track("c2", "hp")) == ("4/4", "4/10")
    refused(run(tmp_path, capsys, [ALDRIC, ORC, START, dmg("c2", 6, pool="mana")]), 4, "no 'mana' track")
    refused(run(tmp_path, capsys, [ALDRIC, ORC, START, dmg("c2", -3)]), 4, "cannot be negative")


def test_temporary_points_guard_the_hit_points_after_grit(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # decision (docs/rules/ninephase.md): temporary points sit on the Hit Points track
    r = run(tmp_path, capsys, [ALDRIC, ORC, START, {"cmd": "temp", "who": "c2", "amount": 5}, dmg("c2", 7)])
    ok(r)
    assert "Orc takes 7 damage (4 to grit, 3 absorbed by temporary hp), 10 left" in r.texts()
    assert (r.track("c2", "grit"), r.track("c2", "hp")) == ("0/4", "10/10+2")


# --- Durations --------------------------------------------------------------------------------


def test_an_effect_for_rounds_ends_at_the_end_of_its_phase_that_many_rounds_later(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # taken in phase 4 of round 1 for 2 rounds: lasts through phase 4 of round 3
    slowed = condition("c2", "Slowed", {"kind": "phase_end", "round": 3, "phase": 4})
    cmds = [ALDRIC, ORC, START] + to_phase(4) + [slowed] + nxt(18)
    r = run(tmp_path, capsys, cmds)
    ok(r)
    assert r.summary["where"] == "Round 3 · Phase 4"
    assert r.summary["combatants"]["c2"]["conditions"] == ["Slowed"]
    r = run(tmp_path, capsys, cmds + [NEXT])
    ok(r)
    assert "Orc is no longer Slowed (expired at the end of phase 4)" in r.texts()
    assert "conditions" not in r.summary["combatants"]["c2"]
    assert r.summary["where"] == "Round 3 · Phase 5"


def test_for_the_remainder_of_the_round_ends_with_the_round(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for p in (2, 9):
        dazed = condition("c2", "Dazed", {"kind": "round_end", "round": 1})
        r = run(tmp_path, capsys, [ALDRIC, ORC, START] + to_phase(p) + [dazed] + nxt(9 - p))
        ok(r)
        assert r.summary["combatants"]["c2"]["conditions"] == ["Dazed"]
        r = run(tmp_path, capsys, [ALDRIC, ORC, START] + to_phase(p) + [dazed] + nxt(10 - p))
        ok(r)
        assert "Orc is no longer Dazed (expired at the end of the round)" in r.texts()
        assert "conditions" not in r.summary["combatants"]["c2"]


def test_effects_measured_in_time_run_to_the_end_of_their_round(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # 1 minute = 10 rounds: from phase 5 of round 1 it runs out in round 11 and ends as that round does
    blessed = condition("c1", "Blessed", {"kind": "round_end", "round": 11})
    cmds = [ALDRIC, ORC, START] + to_phase(5) + [blessed] + nxt(9 * 10 + 4)
    r = run(tmp_path, capsys, cmds)
    ok(r)
    assert r.summary["where"] == "Round 11 · Phase 9"
    assert r.summary["combatants"]["c1"]["conditions"] == ["Blessed"]
    r = run(tmp_path, capsys, cmds + [NEXT])
    ok(r)
    assert "conditions" not in r.summary["combatants"]["c1"]


def test_turn_based_durations_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    r = run(
        tmp_path,
        capsys,
        [ALDRIC, ORC, START, condition("c2", "Dazed", {"kind": "turn_start", "who": "c2", "count": 1})],
    )
    refused(r, 4, "end at the end of a phase or of a round")
    r = run(
        tmp_path,
        capsys,
        [ALDRIC, ORC, START] + to_phase(3) + [condition("c2", "Dazed", {"kind": "phase_end", "round": 1, "phase": 2})],
    )
    refused(r, 6, "already be over")


# --- What the text does not have, and the fight's housekeeping -----------------------------------


def test_there_is_no_surprise_rule(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    refused(run(tmp_path, capsys, [ALDRIC, ORC, {"cmd": "start", "surprised": ["c2"]}]), 3, "no Surprised rule")
    refused(run(tmp_path, capsys, [ALDRIC, ORC, START, {"cmd": "use", "who": "c1", "what": "action"}]), 4)
    refused(
        run(
            tmp_path,
            capsys,
            [ALDRIC, ORC, START, {"cmd": "next", "rolls": [{"who": "c1", "what": "Bleeding", "dice": [3]}]}],
        ),
        4,
        "rolls nothing",
    )


def test_removing_a_combatant_mid_phase(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # after it acted in this phase, and while it channels: the others carry on, its channel is gone
    r = run(
        tmp_path,
        capsys,
        [ALDRIC, ORC, START]
        + to_phase(3)
        + [channel("c2", "Rot", 3, 3), {"cmd": "remove", "who": "c2"}, do("c1", "Move")]
        + nxt(7),
    )
    ok(r)
    assert "Orc leaves the fight" in r.texts()
    assert not r.has("Rot resolves")
    assert list(r.summary["combatants"]) == ["c1"]
    assert [t for t in r.texts() if t.startswith("End of round 1")] == [
        "End of round 1, unused and lost: Aldric 2 actions and the reaction"
    ]
    refused(
        run(tmp_path, capsys, [ALDRIC, ORC, START, {"cmd": "remove", "who": "c2"}, act("c2", "Step")]),
        5,
        "No combatant with id 'c2'",
    )


def test_a_combatant_joining_mid_round_has_the_full_round_budget(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    r = run(tmp_path, capsys, [ALDRIC, START] + to_phase(5) + [ORC, act("c2", "Heave", cost=3)])
    ok(r)
    assert r.eco("c2") == "A0 R1 M"


def test_dice_given_by_the_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    r = run(
        tmp_path,
        capsys,
        [ALDRIC, ORC, START]
        + to_phase(3)
        + [channel("c2", "Rot", 3, 3), NEXT, {"cmd": "damage", "who": "c2", "dice": "1d6+1", "given": [1]}],
    )
    ok(r)
    assert "Orc takes 2 damage (2 to grit) [1d6+1 = [1]+1 = 2 (entered)], 10 left" in r.texts()
    assert r.has("Orc's channel Rot is interrupted (took damage in phase 4)")
    refused(
        run(tmp_path, capsys, [ALDRIC, ORC, START, {"cmd": "damage", "who": "c2", "dice": "1d6", "given": [7]}]),
        4,
        "7 is not a possible result on a d6",
    )
    refused(run(tmp_path, capsys, [ALDRIC, ORC, START, save("c2", 21)]), 4, "21 is not a possible result on a d20")


def test_the_catalog_refuses_entries_the_rules_never_allow(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cases: list[tuple[dict[str, Any], str]] = [
        ({"name": "X", "cost": 4}, "0 to 3 actions"),
        ({"name": "X", "phase": 10}, "a phase is a number from 1 to 9"),
        ({"name": "X", "phase": 3, "weapon": True}, "not both"),
        ({"name": "X", "lock": True}, "give the phase it is locked to"),
        ({"name": "X", "cost": 2, "channel": True}, "give the phase it is locked to"),
        ({"name": "X", "reaction": True, "channel": True, "phase": 3}, "a reaction cannot be channeled"),
        ({"name": "X", "cost": 2, "channel": True, "weapon": True}, "fixed phase"),
    ]
    for spec, needle in cases:
        refused(run(tmp_path, capsys, [ALDRIC, ORC, define(**spec)]), 3, needle)
    r = run(
        tmp_path,
        capsys,
        [ALDRIC, ORC, {"cmd": "forget_activity", "name": "MOVE"}, START] + to_phase(3) + [do("c1", "Move")],
    )
    refused(r, 7, "no activity called Move")


def test_a_resource_is_spent_to_begin_and_refused_when_too_little_is_left(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    mirelle = add("Mirelle", hp=16, grit=6, pc=True, slot3=1)
    fb = define(name="Fireball", cost=3, phase=3, channel=True)
    r = run(tmp_path, capsys, [mirelle, ORC, fb, START] + to_phase(3) + [do("c1", "Fireball", resource="slot3")])
    ok(r)
    assert r.track("c1", "slot3") == "0/1"  # exactly what was left
    refused(
        run(
            tmp_path,
            capsys,
            [mirelle, ORC, fb, START] + to_phase(3) + [do("c1", "Fireball", resource="slot3", amount=2)],
        ),
        7,
        "Fireball needs 2 slot3 and Mirelle has 1 left",
    )
    refused(
        run(tmp_path, capsys, [mirelle, ORC, fb, START] + to_phase(3) + [do("c1", "Fireball", resource="ki")]),
        7,
        "no 'ki'",
    )
