"""Black-box checks of the d20 rules, driven only through `fracas script` as docs/commands.md
documents it (the commands, their fields, `--log` and the summary or the final state).

One test per rule of d20.txt (or per decision of docs/rules/d20.md where the text is silent), named
after it. Each script uses the documented command vocabulary only, and each test fails if the engine
gets its rule wrong.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.cli.script_support import ScriptRun, refused, run_script

Cmd = dict[str, Any]


# --- the documented vocabulary, as small builders ------------------------------------------------


def pc(name: str, **stats: int) -> Cmd:
    return {"cmd": "add", "name": name, "kind": "pc", "side": "party", "stats": [[k, v] for k, v in stats.items()]}


def npc(name: str, **stats: Any) -> Cmd:
    return {"cmd": "add", "name": name, "stats": [[k, v] for k, v in stats.items()]}


def start(*dice: tuple[str, int], surprised: tuple[str, ...] = (), **extra: Any) -> Cmd:
    return {"cmd": "start", "initiative": [[c, [d]] for c, d in dice], "surprised": list(surprised), **extra}


NEXT: Cmd = {"cmd": "next"}


def nxt(n: int = 1, rolls: list[Cmd] | None = None) -> list[Cmd]:
    cmds = [dict(NEXT) for _ in range(n)]
    if rolls:
        cmds[-1]["rolls"] = rolls
    return cmds


def use(who: str, what: str, name: str = "", **fields: Any) -> Cmd:
    return {"cmd": "use", "who": who, "what": what, "name": name, **fields}


def cond(who: str, name: str, **fields: Any) -> Cmd:
    return {"cmd": "condition", "who": who, "name": name, **fields}


def uncond(who: str, name: str) -> Cmd:
    return {"cmd": "uncondition", "who": who, "name": name}


def attack(who: str, target: str, d20: list[int], bonus: int = 5, **fields: Any) -> Cmd:
    return {"cmd": "d20_attack", "who": who, "target": target, "bonus": bonus, "given": d20, **fields}


def dtest(who: str, d20: list[int] | None = None, **fields: Any) -> Cmd:
    cmd: Cmd = {"cmd": "d20_test", "who": who, **fields}
    if d20 is not None:
        cmd["given"] = d20
    return cmd


def dmg(who: str, amount: int, **fields: Any) -> Cmd:
    return {"cmd": "damage", "who": who, "amount": amount, **fields}


def rolled(who: str, what: str, *dice: int) -> Cmd:
    return {"who": who, "what": what, "dice": list(dice)}


# the usual opening: a PC (c1, first) against two NPCs (c2, c3)
HERO = pc("Brannoc", hp=30, ac=15, str=16, dex=14)  # c1: Str +3, Dex +2, prof 2
ORC = npc("Orc", hp=40, ac=15)  # c2
GOB = npc("Goblin", hp=40, ac=15)  # c3
OPEN = [HERO, ORC, GOB, start(("c1", 15), ("c2", 12), ("c3", 5))]
ORC_TURN = OPEN + nxt(1)  # the Orc is acting


# --- running a script ---------------------------------------------------------------------------


class Run(ScriptRun):

    def eco(self, cid: str) -> str:
        return str(self.summary["combatants"][cid]["economy"])

    def hp(self, cid: str) -> str:
        return str(self.summary["combatants"][cid]["hp"])

    def turns(self) -> list[str]:
        """Whose turns started, in order (lost turns included, marked)."""
        out = []
        for t in self.texts():
            m = re.match(r"^(.+)'s turn$", t)
            if m:
                out.append(m.group(1))
            m = re.match(r"^(.+) loses the turn", t)
            if m:
                out.append(m.group(1) + " (lost)")
        return out


def run(tmp_path: Path, capsys: pytest.CaptureFixture[str], cmds: list[Cmd], seed: int = 1) -> Run:
    return run_script(tmp_path, capsys, cmds, "d20", seed, Run)



def ok(r: Run) -> None:
    assert r.code == 0, r.err


@pytest.fixture
def go(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Any:
    def _go(cmds: list[Cmd], seed: int = 1) -> Run:
        return run(tmp_path, capsys, cmds, seed)

    return _go


# --- Initiative and the round ---------------------------------------------------------------------


def test_initiative_is_d20_plus_dexterity_modifier_and_highest_goes_first(go: Any) -> None:
    r = go(
        [
            pc("Low", dex=9),  # -1 (rounded down)
            npc("Mid", dex=12),  # +1
            npc("Quick", dex=14, init=1),  # +2, and +1 from an extra initiative bonus
            start(("c1", 20), ("c2", 11), ("c3", 9)),
        ]
    )
    ok(r)
    assert "Low initiative 19 (1d20-1 = [20]-1 = 19 (entered))" in r.texts()
    assert "Mid initiative 12 (1d20+1 = [11]+1 = 12 (entered))" in r.texts()
    assert "Quick initiative 12 (1d20+3 = [9]+3 = 12 (entered))" in r.texts()
    # 19 first; Mid and Quick tie on 12: the higher Dexterity (Quick) goes first
    assert r.summary["order"] == ["c1", "c3", "c2"]
    assert r.summary["current"] == "c1"


def test_initiative_ties_go_to_higher_dexterity_then_the_gm_decides(go: Any) -> None:
    r = go(
        [
            npc("A", dex=16),
            npc("B", dex=16),
            npc("C", dex=17),
            start(("c1", 10), ("c2", 10), ("c3", 10)),  # all 13
        ]
    )
    ok(r)
    # C has the higher Dexterity score; A and B tie on Dex too: the order they were added
    assert r.summary["order"] == ["c3", "c1", "c2"]
    # the GM decides the last tie: B before A (before anyone has acted but C)
    r = go(
        [npc("A", dex=16), npc("B", dex=16), npc("C", dex=17), start(("c1", 10), ("c2", 10), ("c3", 10))]
        + [{"cmd": "reorder", "who": "c2", "position": 1}]
        + nxt(3)
    )
    ok(r)
    assert r.turns() == ["C", "B", "A", "C"]


def test_initiative_with_another_ability_orok_wisdom_ties_still_on_dexterity(go: Any) -> None:
    r = go(
        [
            {"cmd": "add", "name": "Orok", "stats": [["dex", 8], ["wis", 16]], "flags": ["init_wis"]},
            npc("Elf", dex=18),  # +4
            start(("c1", 11), ("c2", 10)),
        ]
    )
    ok(r)
    assert "Orok initiative 14 (1d20+3 = [11]+3 = 14 (entered))" in r.texts()
    assert "Elf initiative 14 (1d20+4 = [10]+4 = 14 (entered))" in r.texts()
    assert r.summary["order"] == ["c2", "c1"]  # the tie goes to the higher Dexterity, not Wisdom


def test_initiative_dice_the_table_rolled_must_be_possible(go: Any) -> None:
    r = go([pc("A"), start(("c1", 21))])
    refused(r, 2, "A's initiative", "21 is not a possible result on a d20")


def test_exhaustion_lowers_initiative_too(go: Any) -> None:
    r = go([pc("A", dex=14), cond("c1", "Exhaustion", level=2), start(("c1", 10))])
    ok(r)
    assert "A initiative 10 (1d20 = [10] = 10 (entered))" in r.texts()  # +2 Dex, -2 exhaustion


def test_everyone_acts_once_per_round_even_when_moved_in_the_order(go: Any) -> None:
    # the one acting is moved to the end: the others still act this round, it does not act again
    r = go(OPEN + [{"cmd": "reorder", "who": "c1", "position": 2}] + nxt(4))
    ok(r)
    assert r.turns() == ["Brannoc", "Orc", "Goblin", "Orc", "Goblin"]
    assert r.summary["round"] == 2
    # one who has not acted is moved above the one acting: it still gets its turn this round, next
    r = go(ORC_TURN + [{"cmd": "initiative", "who": "c3", "value": 30}] + nxt(3))
    ok(r)
    assert r.turns() == ["Brannoc", "Orc", "Goblin", "Goblin", "Brannoc"]
    assert r.summary["round"] == 2


def test_surprised_creature_loses_its_first_turn_only(go: Any) -> None:
    r = go([HERO, ORC, GOB, start(("c1", 15), ("c2", 12), ("c3", 5), surprised=("c2",))] + nxt(3))
    ok(r)
    assert r.turns() == ["Brannoc", "Orc (lost)", "Goblin", "Brannoc", "Orc"]
    assert r.has("Orc is no longer Surprised (after its lost first turn)")
    # it cannot act in the lost turn: the turn has passed
    r = go([HERO, ORC, start(("c1", 15), ("c2", 12), surprised=("c2",)), use("c2", "action", "Attack")])
    refused(r, 4, "It is not Orc's turn")


# --- Your turn ------------------------------------------------------------------------------------


def test_one_action_a_turn(go: Any) -> None:
    r = go(OPEN + [use("c1", "action", "Attack"), use("c1", "action", "Dash")])
    refused(r, 6, "Brannoc has already taken its action this turn.")


def test_one_bonus_action_a_turn(go: Any) -> None:
    r = go(OPEN + [use("c1", "bonus", "Healing Word"), use("c1", "bonus", "Healing Word")])
    refused(r, 6, "Brannoc has already taken its bonus action this turn.")


def test_actions_only_on_ones_own_turn(go: Any) -> None:
    for what in ("action", "bonus", "move", "gambit"):
        r = go(OPEN + [use("c2", what, "Attack" if what == "action" else "")])
        refused(r, 5, "It is not Orc's turn: only a reaction can be used now.")


def test_gambit_only_at_the_very_start_of_the_turn(go: Any) -> None:
    r = go(OPEN + [use("c1", "gambit", "Press the Attack"), use("c1", "move", cost=10), use("c1", "action", "Attack")])
    ok(r)
    assert r.eco("c1") == "A0 B1 M20ft R1"
    for first in (use("c1", "move", cost=5), use("c1", "action", "Attack"), use("c1", "bonus", "x")):
        r = go(OPEN + [first, use("c1", "gambit", "Press the Attack")])
        refused(r, 6, "only declare a Gambit at the very start of its turn")
    r = go(OPEN + [use("c1", "gambit", "A"), use("c1", "gambit", "B")])
    refused(r, 6, "Gambit")


def test_move_up_to_speed_split_around_the_action(go: Any) -> None:
    r = go(OPEN + [use("c1", "move", cost=10), use("c1", "action", "Attack"), use("c1", "move", cost=20)])
    ok(r)
    assert r.eco("c1") == "A0 B1 m R1"
    # exactly the speed is allowed, one step more is not
    r = go(OPEN + [use("c1", "move", cost=25), use("c1", "move", cost=10)])
    refused(r, 6, "Brannoc has only 5 ft of movement left, not 10.")
    r = go(OPEN + [use("c1", "move", cost=30), use("c1", "move", cost=5)])
    refused(r, 6, "no movement left")


def test_a_move_of_zero_or_negative_feet_is_refused(go: Any) -> None:
    for feet in (0, -5):
        r = go(OPEN + [use("c1", "move", cost=feet)])
        refused(r, 5, f"not {feet}")


def test_one_reaction_a_round_returns_at_the_start_of_ones_own_turn(go: Any) -> None:
    # Brannoc reacts on the Orc's turn, after his own: none left on the Goblin's turn
    r = go(ORC_TURN + [use("c1", "reaction", "Opportunity attack")] + nxt(1) + [use("c1", "reaction", "x")])
    refused(r, 8, "Brannoc has already used its reaction")
    # ... and it is back at the start of his next turn
    r = go(ORC_TURN + [use("c1", "reaction", "Opportunity attack")] + nxt(2) + [use("c1", "reaction", "x")])
    ok(r)
    assert r.eco("c1") == "A1 B1 M R0"
    # the Orc reacts on the Goblin's turn (after its own): still spent at the top of round 2
    r = go(ORC_TURN + nxt(1) + [use("c2", "reaction", "x")] + nxt(1) + [use("c2", "reaction", "y")])
    refused(r, 9, "Orc has already used its reaction")


def test_dash_gains_extra_movement_equal_to_speed(go: Any) -> None:
    r = go(OPEN + [use("c1", "move", cost=20), use("c1", "action", "Dash"), use("c1", "move", cost=40)])
    ok(r)
    assert r.eco("c1") == "A0 B1 m R1"
    r = go(OPEN + [use("c1", "action", "Dash"), use("c1", "move", cost=65)])
    refused(r, 6, "only 60 ft of movement left")


def test_slowed_halves_the_speed(go: Any) -> None:
    r = go(OPEN + [cond("c1", "Slowed"), use("c1", "move", cost=20)])
    refused(r, 6, "only 15 ft of movement left")
    r = go(OPEN + [cond("c1", "Slowed"), use("c1", "action", "Dash"), use("c1", "move", cost=30)])
    ok(r)
    assert r.eco("c1") == "A0 B1 m R1"


def test_grappled_and_restrained_have_speed_zero(go: Any) -> None:
    for name in ("Grappled", "Restrained"):
        r = go(OPEN + [cond("c1", name), use("c1", "move", cost=5)])
        refused(r, 6, f"Brannoc is {name}: its speed is 0.")


def test_prone_standing_up_costs_half_the_speed(go: Any) -> None:
    r = go(OPEN + [cond("c1", "Prone"), use("c1", "move", "Stand up"), use("c1", "move", cost=15)])
    ok(r)
    assert "Brannoc uses Stand up 15 ft (move); A1 B1 M15ft R1" in r.at(6)
    assert "Brannoc is no longer Prone (stood up)" in r.at(6)
    assert r.eco("c1") == "A1 B1 m R1"
    r = go(OPEN + [use("c1", "move", cost=20), cond("c1", "Prone"), use("c1", "move", "Stand up")])
    refused(r, 7, "needs 15 ft of movement to stand up and has 10 ft left")


# --- Attacks ----------------------------------------------------------------------------------------


def test_attack_meeting_the_armor_class_hits_one_below_misses(go: Any) -> None:
    r = go(OPEN + [attack("c1", "c2", [10], damage="1d8", mod=3, damage_given=[4])])
    ok(r)
    assert "Brannoc attacks Orc: 1d20+5 = [10]+5 = 15 (entered) vs AC 15: hit" in r.at(5)
    assert "Orc takes 7 damage [1d8+3 = [4]+3 = 7 (entered)], 33 left" in r.at(5)
    r = go(OPEN + [attack("c1", "c2", [9], damage="1d8", mod=3)])
    ok(r)
    assert "Brannoc attacks Orc: 1d20+5 = [9]+5 = 14 (entered) vs AC 15: miss" in r.at(5)
    assert r.hp("c2") == "40/40"


def test_damage_dice_for_an_attack_that_missed_are_refused(go: Any) -> None:
    r = go(OPEN + [attack("c1", "c2", [9], damage="1d8", mod=3, damage_given=[4])])
    refused(r, 5, "No damage to enter: the attack missed.")


def test_natural_20_always_hits_and_rolls_the_damage_dice_twice(go: Any) -> None:
    r = go(OPEN + [attack("c1", "c2", [20], bonus=-10, damage="2d6+1", mod=3, damage_given=[1, 2, 3, 4])])
    ok(r)
    assert "Brannoc attacks Orc: 1d20-10 = [20]-10 = 10 (entered) vs AC 15 (natural 20): critical hit" in r.at(5)
    # four d6, the flat +1 and the modifier once
    assert r.has("Orc takes 14 damage (critical: damage dice rolled twice) [4d6+4 = [1, 2, 3, 4]+4 = 14 (entered)]")
    # the critical needs every doubled die
    r = go(OPEN + [attack("c1", "c2", [20], damage="2d6+1", mod=3, damage_given=[1, 2])])
    refused(r, 5, "needs 4 die results, got 2")


def test_natural_1_always_misses(go: Any) -> None:
    r = go(OPEN + [attack("c1", "c2", [1], bonus=30, damage="1d8")])
    ok(r)
    assert "Brannoc attacks Orc: 1d20+30 = [1]+30 = 31 (entered) vs AC 15 (natural 1): miss" in r.at(5)
    assert r.hp("c2") == "40/40"


def test_weapon_attacks_add_strength_and_proficiency_or_dexterity_for_ranged(go: Any) -> None:
    r = go(OPEN + [attack("c1", "c2", [10], bonus=0, ability="str", damage="1d8", damage_given=[4])])
    ok(r)
    assert "1d20+5 = [10]+5 = 15 (entered) vs AC 15: hit" in r.at(5)[1]  # Str 16: +3, prof +2
    assert r.has("Orc takes 7 damage [1d8+3 = [4]+3 = 7 (entered)]")
    # without proficiency in the weapon the bonus is left off
    r = go(OPEN + [attack("c1", "c2", [12], bonus=0, ability="str", proficient=False)])
    ok(r)
    assert "1d20+3 = [12]+3 = 15 (entered)" in r.at(5)[1]
    # ranged: Dexterity (14: +2), to hit and to damage
    r = go(OPEN + [attack("c1", "c2", [11], bonus=0, ability="dex", kind="ranged", damage="1d6", damage_given=[4])])
    ok(r)
    assert "1d20+4 = [11]+4 = 15 (entered)" in r.at(5)[1]
    assert r.has("Orc takes 6 damage [1d6+2 = [4]+2 = 6 (entered)]")
    r = go(OPEN + [attack("c1", "c2", [11], bonus=0, ability="str", kind="ranged")])
    refused(r, 5, "ranged weapon attack adds the Dexterity modifier")


def test_power_attacks_add_the_casting_modifier_and_proficiency(go: Any) -> None:
    seer = pc("Seer", wis=17)  # +3
    r = go(
        [seer, ORC, start(("c1", 15), ("c2", 5))]
        + [
            attack(
                "c1",
                "c2",
                [10],
                bonus=0,
                ability="wis",
                use="power",
                label="Spirit Lance",
                damage="1d10",
                type="force",
                damage_given=[6],
            )
        ]
    )
    ok(r)
    assert "Seer uses Spirit Lance (action); A0 B1 M R1" in r.at(4)
    assert "Seer attacks Orc with Spirit Lance: 1d20+5 = [10]+5 = 15 (entered) vs AC 15: hit" in r.at(4)
    assert "Orc takes 6 force damage [1d10 = [6] = 6 (entered)], 34 left" in r.at(4)


def test_cover_adds_to_armor_class_and_full_cover_cannot_be_targeted(go: Any) -> None:
    r = go(OPEN + [attack("c1", "c2", [12], cover="half")])
    ok(r)
    assert "Brannoc attacks Orc: 1d20+5 = [12]+5 = 17 (entered) vs AC 17, half cover: hit" in r.at(5)
    r = go(OPEN + [attack("c1", "c2", [14], cover="three-quarters")])
    ok(r)
    assert "vs AC 20, three-quarters cover: miss" in r.at(5)[1]
    r = go(OPEN + [attack("c1", "c2", [15], cover="full")])
    refused(r, 5, "Orc has full cover and cannot be targeted directly.")
    r = go(OPEN + [attack("c1", "c2", [15], cover="total")])
    refused(r, 5, "'full'")


def test_cover_adds_to_dexterity_saves_only(go: Any) -> None:
    r = go(OPEN + [dtest("c1", [10], ability="dex", dc=14, cover="half")])
    ok(r)
    assert "Brannoc Dexterity save vs DC 14, half cover: 1d20+4 = [10]+4 = 14 (entered): success" in r.at(5)
    r = go(OPEN + [dtest("c1", [10], ability="str", dc=14, cover="half")])
    refused(r, 5, "Cover adds to AC and Dexterity saves only.")


@pytest.mark.parametrize("name", ["Blinded", "Marked", "Restrained", "Stunned", "Unconscious"])
def test_attacks_against_a_creature_in_this_condition_have_advantage(go: Any, name: str) -> None:
    r = go(OPEN + [cond("c2", name), attack("c1", "c2", [3, 12])])
    ok(r)
    line = next(t for t in r.at(6) if "attacks" in t)
    assert "1d20+5 adv = [~3, 12]+5 = 17 (entered) vs AC 15: hit" in line
    assert f"Orc is {name}" in line


@pytest.mark.parametrize("name", ["Blinded", "Frightened", "Poisoned"])
def test_attacks_by_a_creature_in_this_condition_have_disadvantage(go: Any, name: str) -> None:
    r = go(OPEN + [cond("c1", name), attack("c1", "c2", [12, 3])])
    ok(r)
    assert f"1d20+5 dis = [~12, 3]+5 = 8 (entered) vs AC 15: miss; disadvantage: Brannoc is {name}" in r.at(6)[1]


def test_concealed_target_gives_disadvantage(go: Any) -> None:
    r = go(OPEN + [cond("c2", "Concealed"), attack("c1", "c2", [12, 3])])
    ok(r)
    assert r.at(6)[1].endswith("miss; disadvantage: Orc is Concealed")


def test_prone_target_melee_advantage_ranged_disadvantage(go: Any) -> None:
    r = go(OPEN + [cond("c2", "Prone"), attack("c1", "c2", [3, 12])])
    ok(r)
    assert r.at(6)[1].endswith("hit; advantage: Orc is Prone (melee)")
    r = go(OPEN + [cond("c2", "Prone"), attack("c1", "c2", [12, 3], kind="ranged")])
    ok(r)
    assert r.at(6)[1].endswith("miss; disadvantage: Orc is Prone (ranged)")


def test_advantage_and_disadvantage_cancel_to_one_d20(go: Any) -> None:
    # Unconscious (advantage) and Prone at range (disadvantage): one die
    r = go(OPEN + [cond("c2", "Unconscious"), attack("c1", "c2", [12], kind="ranged")])
    ok(r)
    assert "1d20+5 = [12]+5 = 17 (entered)" in r.at(6)[1]
    assert "cancel out" in r.at(6)[1]
    r = go(OPEN + [cond("c1", "Poisoned"), attack("c1", "c2", [12, 3], high_ground=True)])
    refused(r, 6, "needs 1 die result, got 2")


def test_high_ground_gives_advantage_and_flanking_only_in_melee(go: Any) -> None:
    r = go(OPEN + [attack("c1", "c2", [1, 10], kind="ranged", high_ground=True)])
    ok(r)
    assert "1d20+5 adv = [~1, 10]+5 = 15 (entered) vs AC 15: hit; advantage: high ground" in r.at(5)[1]
    r = go(OPEN + [attack("c1", "c2", [1, 10], flanking=True)])
    ok(r)
    assert r.at(5)[1].endswith("hit; advantage: flanking")
    r = go(OPEN + [attack("c1", "c2", [10], kind="ranged", flanking=True)])
    refused(r, 5, "Flanking gives advantage on melee attacks only.")


def test_natural_20_with_disadvantage_counts_the_lower_die(go: Any) -> None:
    r = go(OPEN + [cond("c1", "Poisoned"), attack("c1", "c2", [20, 5], damage="1d8")])
    ok(r)
    assert "[~20, 5]+5 = 10 (entered) vs AC 15: miss" in r.at(6)[1]


def test_hidden_attacker_has_advantage_and_attacking_ends_hidden(go: Any) -> None:
    r = go(OPEN + [cond("c1", "Hidden"), attack("c1", "c2", [3, 12]), attack("c1", "c2", [12], use="none")])
    ok(r)
    assert r.at(6)[1].endswith("advantage: Brannoc is Hidden")
    assert "Brannoc is no longer Hidden (it attacked)" in r.at(6)
    assert "1d20+5 = [12]+5 = 17 (entered)" in r.at(7)[0]


def test_exhaustion_is_minus_one_per_level_on_d20_rolls(go: Any) -> None:
    r = go(
        OPEN + [cond("c1", "Exhaustion", level=3), attack("c1", "c2", [13]), dtest("c1", [10], ability="str", dc=10)]
    )
    ok(r)
    assert "1d20+2 = [13]+2 = 15 (entered) vs AC 15: hit" in r.at(6)[1]
    assert "Brannoc Strength save vs DC 10: 1d20 = [10] = 10 (entered): success" in r.at(7)  # +3 Str, -3


def test_charmed_cannot_attack_the_charmer(go: Any) -> None:
    r = go(OPEN + [cond("c1", "Charmed", source="c2"), attack("c1", "c2", [15])])
    refused(r, 6, "Brannoc is Charmed by Orc and cannot attack it.")
    r = go(OPEN + [cond("c1", "Charmed", source="c2"), attack("c1", "c3", [15])])
    ok(r)


def test_an_attack_on_oneself_is_refused(go: Any) -> None:
    r = go(OPEN + [attack("c1", "c1", [15])])
    refused(r, 5, "cannot attack itself")


# --- Damage -----------------------------------------------------------------------------------------


def test_resistance_halves_rounded_down_and_vulnerability_doubles(go: Any) -> None:
    r = go(
        [
            pc("A"),
            {"cmd": "add", "name": "Imp", "stats": [["hp", 40]], "resist": ["fire"], "vulnerable": ["radiant"]},
            start(("c1", 15), ("c2", 5)),
            dmg("c2", 7, type="fire"),
            dmg("c2", 5, type="radiant"),
            dmg("c2", 1, type="fire"),
            dmg("c2", 4, type="cold"),
        ]
    )
    ok(r)
    assert "Imp takes 3 fire damage (resisted, halved), 37 left" in r.at(4)
    assert "Imp takes 10 radiant damage (vulnerable, doubled), 27 left" in r.at(5)
    assert "Imp takes 0 fire damage (resisted, halved), 27 left" in r.at(6)
    assert "Imp takes 4 cold damage, 23 left" in r.at(7)


def test_pc_at_zero_is_at_deaths_door_and_keeps_its_turns_npc_is_down_and_skipped(go: Any) -> None:
    r = go(OPEN + [dmg("c1", 30), dmg("c2", 45)] + nxt(3))
    ok(r)
    assert "Brannoc is at Death's Door" in r.at(5)
    assert "Orc is down at 0 hit points" in r.at(6)
    assert r.turns() == ["Brannoc", "Orc (lost)", "Goblin", "Brannoc", "Orc (lost)", "Goblin"]
    r = go(OPEN + [dmg("c2", 45), use("c2", "reaction", "x")])
    refused(r, 6, "Orc is down at 0 hit points and can do nothing.")


def test_companion_acts_on_its_owners_initiative_and_drops_at_zero(go: Any) -> None:
    wolf = {"cmd": "add", "name": "Wolf", "side": "party", "owner": "c1", "stats": [["hp", 11], ["dex", 18]]}
    r = go([pc("Ranger", dex=10), npc("Orc"), wolf, start(("c1", 5), ("c2", 10))] + nxt(2) + [dmg("c3", 11)] + nxt(3))
    ok(r)
    assert r.summary["order"] == ["c2", "c1", "c3"]
    assert "Wolf drops at 0 hit points" in r.at(7)
    assert "Wolf is at Death's Door" not in r.texts()
    assert r.turns() == ["Orc", "Ranger", "Wolf", "Orc", "Ranger", "Wolf (lost)", "Orc"]
    r = go([pc("Ranger"), npc("Orc"), wolf, start(("c1", 5), ("c2", 10), ("c3", 12))])
    refused(r, 4, "Wolf is a companion: it acts on its owner's initiative, no roll.")


# --- Two weapons and Shield Bash ----------------------------------------------------------------------


def test_off_hand_attack_is_a_bonus_action_after_attacking_without_a_positive_modifier(go: Any) -> None:
    r = go(OPEN + [attack("c1", "c2", [10], use="offhand", damage="1d4", mod=3)])
    refused(r, 5, "only after taking the Attack action")
    r = go(
        OPEN
        + [
            attack("c1", "c2", [10], damage="1d8", mod=3, damage_given=[5]),
            attack("c1", "c2", [10], use="offhand", damage="1d4", mod=3, damage_given=[2]),
        ]
    )
    ok(r)
    assert "Brannoc uses Off-hand attack (bonus); A0 B0 M R1" in r.at(6)
    assert "Orc takes 2 damage [1d4 = [2] = 2 (entered)], 30 left" in r.at(6)
    # a negative modifier does count
    r = go(
        OPEN
        + [attack("c1", "c2", [3]), attack("c1", "c2", [10], use="offhand", damage="1d4", mod=-1, damage_given=[2])]
    )
    ok(r)
    assert "Orc takes 1 damage [1d4-1 = [2]-1 = 1 (entered)], 39 left" in r.at(6)


def test_shield_bash_bonus_action_strength_save_against_8_plus_prof_plus_str(go: Any) -> None:
    knight = {
        "cmd": "add",
        "name": "Knight",
        "kind": "pc",
        "side": "party",
        "stats": [["str", 16], ["prof", 3]],
        "flags": ["shield"],
    }
    bash = {"cmd": "d20_shield_bash", "who": "c1", "target": "c2", "given": [9], "damage_given": [4]}
    opening = [knight, npc("Orc", hp=40, ac=15, str=12), start(("c1", 15), ("c2", 5))]
    # DC 8 + 3 + 3 = 14; the Orc's save +1: 13 fails, 14 (equal) holds
    r = go(opening + [{**bash, "save_given": [12]}])
    ok(r)
    assert "Knight uses Shield Bash (bonus); A1 B0 M R1" in r.at(4)
    assert "Knight attacks Orc with Shield Bash: 1d20+6 = [9]+6 = 15 (entered) vs AC 15: hit" in r.at(4)
    assert "Orc takes 4 bludgeoning damage [1d4 = [4] = 4 (entered)], 36 left" in r.at(4)
    assert "Orc Strength save (against the Shield Bash) vs DC 14: 1d20+1 = [12]+1 = 13 (entered): failure" in r.at(4)
    assert "Orc is shoved 5 ft by Knight's shield" in r.at(4)
    r = go(opening + [{**bash, "save_given": [13]}])
    ok(r)
    assert r.at(4)[-1].endswith("= 14 (entered): success")
    assert not r.has("shoved")
    # a critical doubles the d4
    r = go(opening + [{**bash, "given": [20], "damage_given": [4, 4], "save_given": [13]}])
    ok(r)
    assert r.has("Orc takes 8 bludgeoning damage (critical: damage dice rolled twice)")


def test_shield_bash_needs_a_shield_and_training(go: Any) -> None:
    r = go(OPEN + [{"cmd": "d20_shield_bash", "who": "c1", "target": "c2", "given": [9]}])
    refused(r, 5, "needs a shield in hand and training in Shields")


# --- Opportunity attacks ------------------------------------------------------------------------------


def test_opportunity_attack_spends_the_reaction_and_is_a_melee_attack(go: Any) -> None:
    r = go(ORC_TURN + [attack("c1", "c2", [10], use="opportunity")])
    ok(r)
    assert "Brannoc uses Opportunity attack (reaction); A1 B1 M R0" in r.at(6)
    assert "Brannoc attacks Orc (opportunity attack): 1d20+5 = [10]+5 = 15 (entered) vs AC 15: hit" in r.at(6)
    r = go(ORC_TURN + [attack("c1", "c2", [10], use="opportunity", kind="ranged")])
    refused(r, 6, "An opportunity attack is a melee attack.")
    r = go(ORC_TURN + [attack("c1", "c2", [10], use="opportunity"), attack("c1", "c2", [10], use="opportunity")])
    refused(r, 7, "already used its reaction")


def test_disengage_means_the_movement_does_not_provoke_that_turn(go: Any) -> None:
    r = go(ORC_TURN + [use("c2", "action", "Disengage"), attack("c1", "c2", [10], use="opportunity")])
    refused(r, 7, "Orc took the Disengage action: its movement does not provoke.")
    r = go(ORC_TURN + [use("c2", "action", "Disengage")] + nxt(1) + [attack("c1", "c2", [10], use="opportunity")])
    ok(r)


def test_opportunity_attack_needs_a_creature_it_can_see(go: Any) -> None:
    r = go(ORC_TURN + [cond("c1", "Blinded"), attack("c1", "c2", [10], use="opportunity")])
    refused(r, 7, "Brannoc is Blinded: an opportunity attack needs to see its target.")
    r = go(ORC_TURN + [cond("c2", "Hidden"), attack("c1", "c2", [10], use="opportunity")])
    refused(r, 7, "Orc is Hidden")


# --- The actions --------------------------------------------------------------------------------------


def test_dodge_disadvantage_against_it_and_dexterity_save_advantage_until_its_next_turn(go: Any) -> None:
    r = go(
        OPEN
        + [use("c1", "action", "Dodge"), dtest("c1", [3, 12], ability="dex", dc=14)]
        + nxt(1)
        + [attack("c2", "c1", [12, 3])]
        + nxt(2)
        + [dtest("c1", [12], ability="dex", dc=14)]
    )
    ok(r)
    dodged = "Brannoc Dexterity save vs DC 14: 1d20+2 adv = [~3, 12]+2 = 14 (entered): success"
    assert f"{dodged}; advantage: Brannoc is Dodging" in r.at(6)
    assert r.at(8)[1].endswith("miss; disadvantage: Brannoc is Dodging")
    # his next turn has started: no longer dodging, one die
    assert "Brannoc Dexterity save vs DC 14: 1d20+2 = [12]+2 = 14 (entered): success" in r.at(11)


def test_help_gives_an_ally_advantage_on_its_next_attack_or_check_once(go: Any) -> None:
    party = [pc("Ana"), pc("Bo"), npc("Orc", ac=15), start(("c1", 15), ("c2", 12), ("c3", 5))]
    r = go(
        party
        + [use("c1", "action", "Help", target="c2")]
        + nxt(1)
        + [attack("c2", "c3", [3, 12]), attack("c2", "c3", [12], use="none")]
    )
    ok(r)
    assert "Bo is Helped (by Ana: advantage on its next check or attack, until Ana's next turn)" in r.at(5)
    assert r.at(7)[1].endswith("advantage: Bo is Helped")
    assert "Bo is no longer Helped (used on its attack)" in r.at(7)
    assert "1d20+5 = [12]+5 = 17 (entered)" in r.at(8)[0]
    # a check uses it too, a save does not
    r = go(
        party
        + [
            use("c1", "action", "Help", target="c2"),
            dtest("c2", [12], ability="dex", dc=10),
            dtest("c2", [3, 12], kind="check", ability="dex", dc=10),
        ]
    )
    ok(r)
    assert "Bo Dexterity check vs DC 10: 1d20 adv = [~3, 12] = 12 (entered): success; advantage: Bo is Helped" in r.at(
        7
    )
    # not oneself, not a foe
    r = go(party + [use("c1", "action", "Help", target="c1")])
    refused(r, 5, "Ana cannot Help itself.")
    r = go(party + [use("c1", "action", "Help", target="c3")])
    refused(r, 5, "Help gives advantage to an ally")


def test_ready_holds_an_action_for_a_trigger_taken_as_the_reaction_before_its_next_turn(go: Any) -> None:
    ready = {"cmd": "d20_ready", "who": "c1", "action": "Attack", "trigger": "the orc comes through the door"}
    r = go(OPEN + [ready] + nxt(1) + [attack("c1", "c2", [10], use="readied")])
    ok(r)
    assert "Brannoc uses Ready (action); A0 B1 M R1" in r.at(5)
    assert "Brannoc uses Readied: Attack when the orc comes through the door (reaction); A0 B1 M R0" in r.at(7)
    # not taken before its next turn: it lapses
    r = go(OPEN + [ready] + nxt(3) + [{"cmd": "d20_release", "who": "c1"}])
    refused(r, 9, "Brannoc has no readied action.")
    r = go(OPEN + [ready] + nxt(3))
    ok(r)
    assert "Brannoc's readied action lapses unused (Attack when the orc comes through the door)" in r.at(8)


def test_a_readied_dodge_taken_as_the_reaction_works_as_a_dodge(go: Any) -> None:
    ready = {"cmd": "d20_ready", "who": "c1", "action": "Dodge", "trigger": "the orc swings"}
    r = go(OPEN + [ready] + nxt(1) + [{"cmd": "d20_release", "who": "c1"}, attack("c2", "c1", [12, 3])])
    ok(r)
    assert r.at(8)[1].endswith("disadvantage: Brannoc is Dodging")
    # a readied Dodge is not an attack
    r = go(OPEN + [ready] + nxt(1) + [attack("c1", "c2", [10], use="readied")])
    refused(r, 7, "Brannoc readied Dodge, not an attack")


def test_grapple_is_a_contest_the_higher_total_wins_a_tie_changes_nothing(go: Any) -> None:
    grab = {"cmd": "d20_grapple", "who": "c1", "target": "c2", "bonus": 5, "target_bonus": 2, "given": [10]}
    r = go(OPEN + [{**grab, "target_given": [13]}] + nxt(1) + [use("c2", "move", cost=5)])  # 15 vs 15
    ok(r)
    assert "Orc resists Brannoc's grapple" in r.at(5)
    r = go(OPEN + [{**grab, "target_given": [12]}] + nxt(1) + [use("c2", "move", cost=5)])  # 15 vs 14
    refused(r, 7, "Orc is Grappled: its speed is 0.")
    r = go(OPEN + [{**grab, "target_given": [12], "shove": "prone"}])
    ok(r)
    assert "Orc is Prone (by Brannoc)" in r.at(5)
    r = go(OPEN + [{**grab, "target_given": [12], "shove": "push"}])
    ok(r)
    assert "Brannoc pushes Orc 5 ft" in r.at(5)


def test_grapple_ends_when_the_grappler_is_incapacitated(go: Any) -> None:
    grab = {"cmd": "d20_grapple", "who": "c1", "target": "c2", "bonus": 5, "given": [10], "target_given": [1]}
    r = go(OPEN + [grab, cond("c1", "Incapacitated")])
    ok(r)
    assert "Orc is no longer Grappled (Brannoc is Incapacitated)" in r.at(6)


# --- Conditions that act on their own -------------------------------------------------------------------


def test_bleeding_1d4_piercing_at_the_start_of_each_turn_until_it_ends(go: Any) -> None:
    r = go(
        OPEN
        + [cond("c2", "Bleeding", duration={"kind": "turn_end", "who": "c2", "count": 2})]
        + nxt(1, [rolled("c2", "Bleeding", 4)])
        + nxt(3, [rolled("c2", "Bleeding", 1)])
        + nxt(3)
    )
    ok(r)
    assert "Orc takes 4 piercing damage (Bleeding), 36 left" in r.at(6)
    assert "Orc takes 1 piercing damage (Bleeding), 35 left" in r.at(9)
    assert "Orc is no longer Bleeding (expired at the end of its turn)" in r.at(10)
    assert r.hp("c2") == "35/40"  # round 3: it has stopped


def test_burning_1d4_fire_or_the_sources_dice_and_an_action_puts_it_out(go: Any) -> None:
    r = go(
        OPEN
        + [cond("c2", "Burning"), cond("c3", "Burning", dice="2d6")]
        + nxt(1, [rolled("c2", "Burning", 4)])
        + [use("c2", "action", "Put out fire")]
        + nxt(1, [rolled("c3", "Burning", 6, 6)])
        + nxt(2)
    )
    ok(r)
    assert "Orc takes 4 fire damage (Burning), 36 left" in r.at(7)
    assert "Orc is no longer Burning (put out)" in r.at(8)
    assert "Goblin takes 12 fire damage (Burning), 28 left" in r.at(9)
    assert r.hp("c2") == "36/40"
    r = go(OPEN + [cond("c2", "Burning")] + nxt(1, [rolled("c2", "Burning", 4)]) + [use("c2", "bonus", "Put out fire")])
    refused(r, 7, "Putting the fire out takes an action.")
    r = go(OPEN + [cond("c2", "Burning")] + nxt(1, [rolled("c2", "Burning", 5)]))
    refused(r, 6, "5 is not a possible result on a d4")


# the economy says R1(barred): Confused bars the reaction while it lasts without spending it
@pytest.mark.parametrize(
    "d10,what,eco",
    [
        (1, "moves its full speed in a random direction and takes no action", "A0 B0 m R1(barred)"),
        (2, "does not move or act this turn", "A0 B0 m R1(barred)"),
        (6, "does not move or act this turn", "A0 B0 m R1(barred)"),
        (7, "makes a melee attack against a random creature within its reach", "A1 B0 m R1(barred)"),
        (8, "makes a melee attack against a random creature within its reach", "A1 B0 m R1(barred)"),
        (9, "acts normally", "A1 B1 M R1(barred)"),
        (10, "acts normally", "A1 B1 M R1(barred)"),
    ],
)
def test_confused_rolls_a_d10_at_the_start_of_each_turn(go: Any, d10: int, what: str, eco: str) -> None:
    r = go(OPEN + [cond("c2", "Confused", dc=12)] + nxt(1, [rolled("c2", "Confused", d10)]))
    ok(r)
    assert f"Orc, Confused: 1d10 = [{d10}] = {d10} (entered): {what}" in " ".join(r.at(6))
    assert r.eco("c2") == eco


def test_confused_on_7_or_8_can_only_make_a_melee_attack(go: Any) -> None:
    base = OPEN + [cond("c2", "Confused", dc=12)] + nxt(1, [rolled("c2", "Confused", 7)])
    r = go(base + [attack("c2", "c3", [10])])
    ok(r)
    r = go(base + [attack("c2", "c1", [10], kind="ranged")])
    refused(r, 7, "Orc is Confused: its action this turn can only be a melee attack.")
    r = go(base + [use("c2", "action", "Dash")])
    refused(r, 7, "only be a melee attack")


def test_confused_cannot_react_and_repeats_its_save_at_the_end_of_each_turn(go: Any) -> None:
    base = OPEN + [cond("c2", "Confused", dc=13)]
    r = go(base + [use("c2", "reaction", "x")])
    refused(r, 6, "Orc is Confused and cannot take reactions.")
    r = go(
        base
        + nxt(1, [rolled("c2", "Confused", 9)])
        + nxt(1)
        + [dtest("c2", [11], ability="wis", resolves="Confused")]  # 11 < 13
        + nxt(1)
        + nxt(1, [rolled("c2", "Confused", 9)])
        + nxt(1)
        + [dtest("c2", [13], ability="wis", resolves="Confused"), use("c2", "reaction", "x")]  # 13 = 13
    )
    ok(r)
    assert "Orc repeats its save against Confused (DC 13) at the end of its turn" in r.at(7)
    assert "Orc Wisdom save (Confused) vs DC 13: 1d20 = [11] = 11 (entered): failure" in r.at(8)
    assert "Orc repeats its save against Confused (DC 13) at the end of its turn" in r.at(11)
    assert "Orc Wisdom save (Confused) vs DC 13: 1d20 = [13] = 13 (entered): success" in r.at(12)
    assert "Orc is no longer Confused (saved)" in r.at(12)
    assert "Orc uses x (reaction)" in r.at(13)[0]  # reactions are back once it ends


def test_stunned_loses_its_turn_cannot_react_and_is_easier_to_hit(go: Any) -> None:
    stun = cond("c2", "Stunned", duration={"kind": "turn_end", "who": "c2", "count": 1})
    r = go(OPEN + [stun, use("c2", "reaction", "x")])
    refused(r, 6, "Orc is Stunned: no actions or reactions.")
    r = go(OPEN + [stun, attack("c1", "c2", [3, 12])] + nxt(2) + [use("c2", "reaction", "x")])
    ok(r)
    assert r.at(6)[1].endswith("advantage: Orc is Stunned")
    assert r.turns() == ["Brannoc", "Orc (lost)", "Goblin", "Brannoc"]
    assert "Orc is no longer Stunned (expired at the end of its turn)" in r.at(7)


def test_an_incapacitated_creature_cannot_attack_even_with_an_attack_already_paid_for(go: Any) -> None:
    for name in ("Incapacitated", "Stunned", "Unconscious"):
        r = go(OPEN + [use("c1", "action", "Attack"), cond("c1", name), attack("c1", "c2", [12], use="none")])
        refused(r, 7, f"Brannoc is {name}: no actions or reactions")


def test_incapacitated_takes_no_actions_or_reactions(go: Any) -> None:
    r = go(OPEN + [cond("c1", "Incapacitated"), use("c1", "action", "Attack")])
    refused(r, 6, "Brannoc is Incapacitated: no actions or reactions.")
    r = go(OPEN + [cond("c1", "Incapacitated"), use("c1", "bonus", "x")])
    refused(r, 6, "Incapacitated")
    r = go(ORC_TURN + [cond("c1", "Incapacitated"), use("c1", "reaction", "x")])
    refused(r, 7, "Incapacitated")
    # the condition ends mid-round: the reaction is there again
    r = go(ORC_TURN + [cond("c1", "Incapacitated"), uncond("c1", "Incapacitated"), use("c1", "reaction", "x")])
    ok(r)


def test_unconscious_is_incapacitated_and_prone_and_drops_what_it_holds(go: Any) -> None:
    r = go(OPEN + [cond("c2", "Concentrating"), cond("c2", "Unconscious"), uncond("c2", "Unconscious")])
    ok(r)
    assert "Orc is no longer Concentrating (unconscious)" in r.at(6)
    assert "Orc is Prone (falls unconscious)" in r.at(6)
    assert "Orc drops whatever it was holding" in r.at(6)
    assert r.summary["combatants"]["c2"]["conditions"] == ["Prone"]  # it wakes up on the ground


def test_disarmed_picking_the_weapon_up_costs_the_move_or_an_action(go: Any) -> None:
    r = go(OPEN + [cond("c1", "Disarmed"), use("c1", "move", "Pick up weapon"), use("c1", "action", "Attack")])
    ok(r)
    assert "Brannoc is no longer Disarmed (picked its weapon up)" in r.at(6)
    assert r.eco("c1") == "A0 B1 m R1"
    r = go(OPEN + [cond("c1", "Disarmed"), use("c1", "action", "Pick up weapon"), use("c1", "move", cost=30)])
    ok(r)
    r = go(OPEN + [cond("c1", "Disarmed"), use("c1", "bonus", "Pick up weapon")])
    refused(r, 6, "Picking up a weapon costs the move or an action.")


def test_poisoned_has_disadvantage_on_checks_not_saves_and_cannot_recover_gambit_points(go: Any) -> None:
    r = go(
        [pc("A", gambit=2), npc("B"), start(("c1", 15), ("c2", 5))]
        + [
            cond("c1", "Poisoned"),
            dtest("c1", [12, 3], kind="check", ability="dex", dc=10),
            dtest("c1", [12], ability="con", dc=10),
        ]
    )
    ok(r)
    assert r.at(5)[0].endswith("failure; disadvantage: A is Poisoned")
    assert "A Constitution save vs DC 10: 1d20 = [12] = 12 (entered): success" in r.at(6)
    r = go(
        [pc("A", gambit=2), npc("B"), start(("c1", 15), ("c2", 5))]
        + [
            {"cmd": "spend", "who": "c1", "key": "gambit"},
            cond("c1", "Poisoned"),
            {"cmd": "restore", "who": "c1", "key": "gambit"},
        ]
    )
    refused(r, 6, "A is Poisoned and cannot recover Gambit Points.")


def test_frightened_has_disadvantage_on_checks(go: Any) -> None:
    r = go(OPEN + [cond("c1", "Frightened"), dtest("c1", [12, 3], kind="check", ability="str", dc=5)])
    ok(r)
    assert r.at(6)[0].endswith("success; disadvantage: Brannoc is Frightened")


def test_restrained_has_disadvantage_on_dexterity_saves(go: Any) -> None:
    r = go(
        OPEN
        + [cond("c1", "Restrained"), dtest("c1", [3, 12], ability="dex", dc=5), dtest("c1", [3], ability="str", dc=5)]
    )
    ok(r)
    assert "1d20+2 dis = [3, ~12]+2 = 5 (entered): success; disadvantage: Brannoc is Restrained" in r.at(6)[0]
    assert "Brannoc Strength save vs DC 5: 1d20+3 = [3]+3 = 6 (entered): success" in r.at(7)


def test_a_condition_that_ends_mid_round_stops_counting_at_once(go: Any) -> None:
    poisoned = cond("c2", "Poisoned", duration={"kind": "turn_end", "who": "c2", "count": 1})
    r = go(OPEN + [poisoned] + nxt(2) + [attack("c2", "c1", [12], use="none")])
    ok(r)
    assert "Orc is no longer Poisoned (expired at the end of its turn)" in r.at(7)
    assert "1d20+5 = [12]+5 = 17 (entered) vs AC 15: hit" in r.at(8)[0]  # one die: no longer poisoned


# --- Concentration --------------------------------------------------------------------------------------


def test_concentration_save_dc_is_10_or_half_the_damage_whichever_is_higher(go: Any) -> None:
    caster = pc("Ysolde", hp=60, con_save=3)
    base = [caster, npc("Orc"), start(("c1", 15), ("c2", 5)), cond("c1", "Concentrating", note="Bless")]
    r = go(
        base
        + [
            dmg("c1", 21),
            dtest("c1", [7], resolves="concentration"),
            dmg("c1", 22),
            dtest("c1", [7], resolves="concentration"),
        ]
    )
    ok(r)
    assert "Ysolde must make a Constitution save (DC 10) to keep concentrating (took 21 damage)" in r.at(5)
    assert "Ysolde Constitution save (concentration) vs DC 10: 1d20+3 = [7]+3 = 10 (entered): success" in r.at(6)
    assert "Ysolde must make a Constitution save (DC 11) to keep concentrating (took 22 damage)" in r.at(7)
    assert "Ysolde is no longer Concentrating (failed the Constitution save)" in r.at(8)


def test_concentration_each_damage_owes_its_own_save_from_the_damage_that_got_through(go: Any) -> None:
    caster = {"cmd": "add", "name": "Ysolde", "kind": "pc", "side": "party", "stats": [["hp", 60]], "resist": ["fire"]}
    base = [caster, npc("Orc"), start(("c1", 15), ("c2", 5)), cond("c1", "Concentrating")]
    r = go(base + [dmg("c1", 30, type="fire"), dmg("c1", 1, type="fire"), dmg("c1", 3)])
    ok(r)
    assert "Ysolde must make a Constitution save (DC 10) to keep concentrating (took 15 damage)" in r.at(5)
    assert not any("must make" in t for t in r.at(6))  # 1 fire halved to 0: nothing got through
    assert "Ysolde must make a Constitution save (DC 10) to keep concentrating (took 3 damage)" in r.at(7)
    r = go(
        base + [dmg("c1", 3), dtest("c1", [15], resolves="concentration"), dtest("c1", [15], resolves="concentration")]
    )
    refused(r, 7, "Ysolde has no concentration save due.")


@pytest.mark.parametrize("name", ["Incapacitated", "Stunned", "Unconscious"])
def test_being_incapacitated_ends_concentration(go: Any, name: str) -> None:
    r = go(OPEN + [cond("c1", "Concentrating"), cond("c1", name)])
    ok(r)
    assert f"Brannoc is no longer Concentrating ({name.lower()})" in r.at(6)


# --- The script itself: the table's dice, removing a combatant ----------------------------------------


def test_start_of_turn_rolls_are_taken_from_the_table_only_where_due(go: Any) -> None:
    r = go(OPEN + [cond("c2", "Bleeding")] + nxt(1, [rolled("c2", "Burning", 3)]))
    refused(r, 6, "No Burning roll was due for Orc here")
    r = go(
        [
            HERO,
            ORC,
            cond("c2", "Burning", dice="2d4"),
            start(("c1", 8), ("c2", 15), rolls=[{"who": "c2", "what": "Burning", "total": 6}]),
        ]
    )
    ok(r)
    assert "Orc, Burning: 2d4 = 6 (entered total)" in r.at(4)
    assert "Orc takes 6 fire damage (Burning), 34 left" in r.at(4)


def test_removing_the_acting_combatant_passes_the_turn_to_the_next(go: Any) -> None:
    r = go(OPEN + [use("c1", "action", "Attack"), {"cmd": "remove", "who": "c1"}] + nxt(3))
    ok(r)
    assert r.turns() == ["Brannoc", "Orc", "Goblin", "Orc"]
    assert r.summary["order"] == ["c2", "c3"]
    # removing the grappler frees the grappled
    grab = {"cmd": "d20_grapple", "who": "c1", "target": "c2", "bonus": 5, "given": [10], "target_given": [1]}
    r = go(OPEN + [grab, {"cmd": "remove", "who": "c1"}])
    ok(r)
    assert "Orc is no longer Grappled (the grappler left the fight)" in r.at(6)


# --- Decisions of docs/rules/d20.md where the text is silent ---------------------------------------------


def test_a_save_with_no_save_bonus_uses_the_ability_modifier(go: Any) -> None:
    r = go(
        [pc("A", con=16), npc("B"), start(("c1", 15), ("c2", 5))]
        + [cond("c1", "Concentrating"), dmg("c1", 5), dtest("c1", [7], resolves="concentration")]
    )
    ok(r)
    assert "A Constitution save (concentration) vs DC 10: 1d20+3 = [7]+3 = 10 (entered): success" in r.at(6)
    # a save bonus given on the sheet wins
    r = go(
        [pc("A", con=16, con_save=5), npc("B"), start(("c1", 15), ("c2", 5)), dtest("c1", [5], ability="con", dc=10)]
    )
    ok(r)
    assert "A Constitution save vs DC 10: 1d20+5 = [5]+5 = 10 (entered): success" in r.at(4)


def test_a_readied_help_names_its_ally_and_a_readied_disengage_covers_that_turn(go: Any) -> None:
    party = [pc("Ana"), pc("Bo"), npc("Orc", ac=15), start(("c1", 15), ("c2", 12), ("c3", 5))]
    ready_help = {"cmd": "d20_ready", "who": "c1", "action": "Help", "trigger": "Bo swings"}
    r = go(party + [ready_help] + nxt(1) + [{"cmd": "d20_release", "who": "c1", "target": "c2"}])
    ok(r)
    assert "Ana uses Readied: Help when Bo swings (reaction); A0 B1 M R0" in r.at(7)
    assert "Bo is Helped (by Ana: advantage on its next check or attack, until Ana's next turn)" in r.at(7)
    r = go(party + [ready_help] + nxt(1) + [{"cmd": "d20_release", "who": "c1", "target": "c3"}])
    refused(r, 7, "Help gives advantage to an ally")
    # the Orc readies Disengage and takes it on Ana's turn: that turn, its movement does not provoke
    ready_dis = {"cmd": "d20_ready", "who": "c3", "action": "Disengage", "trigger": "it is cornered"}
    opp = attack("c1", "c3", [10], use="opportunity")
    r = go(party + nxt(2) + [ready_dis] + nxt(1) + [{"cmd": "d20_release", "who": "c3"}, opp])
    refused(r, 10, "Orc took the Disengage action")
    r = go(party + nxt(2) + [ready_dis] + nxt(1) + [{"cmd": "d20_release", "who": "c3"}] + nxt(1) + [opp])
    ok(r)


def test_picking_up_a_weapon_with_the_move_after_moving_part_of_it_takes_the_rest(go: Any) -> None:
    r = go(OPEN + [cond("c1", "Disarmed"), use("c1", "move", cost=10), use("c1", "move", "Pick up weapon")])
    ok(r)
    assert "Brannoc is no longer Disarmed (picked its weapon up)" in r.at(7)
    assert r.eco("c1") == "A1 B1 m R1"


def test_exhaustion_added_again_takes_the_level_given(go: Any) -> None:
    r = go(OPEN + [cond("c1", "Exhaustion", level=1), cond("c1", "Exhaustion", level=2), attack("c1", "c2", [12])])
    ok(r)
    assert "1d20+3 = [12]+3 = 15 (entered)" in r.at(7)[1]


# --- Undo through the script ---------------------------------------------------------------------------------


def test_undo_takes_back_a_whole_attack_and_redo_brings_it_back(go: Any) -> None:
    hit = attack("c1", "c2", [20], damage="1d8", mod=3, damage_given=[4, 4])
    r = go(OPEN + [hit, {"cmd": "undo"}, use("c1", "action", "Dash")])
    ok(r)
    assert r.at(6)[0].startswith("Undid: Brannoc uses Attack (action)")
    assert r.hp("c2") == "40/40"  # the damage is gone, and so is the action it cost
    r = go(OPEN + [hit, {"cmd": "undo"}, {"cmd": "redo"}])
    ok(r)
    assert r.hp("c2") == "29/40"
    assert r.eco("c1") == "A0 B1 M R1"


def test_undo_of_damage_takes_back_the_concentration_save_it_made_due(go: Any) -> None:
    r = go(OPEN + [cond("c2", "Concentrating"), dmg("c2", 22), {"cmd": "undo"}])
    ok(r)
    r = go(
        OPEN + [cond("c2", "Concentrating"), dmg("c2", 22), {"cmd": "undo"}, dtest("c2", [5], resolves="concentration")]
    )
    refused(r, 8, "Orc has no concentration save due.")


def test_undo_of_next_takes_back_the_bleeding_it_set_off(go: Any) -> None:
    r = go(OPEN + [cond("c2", "Bleeding")] + nxt(1, [rolled("c2", "Bleeding", 3)]) + [{"cmd": "undo"}])
    ok(r)
    assert r.hp("c2") == "40/40"
    assert r.summary["current"] == "c1"
