"""A black-box check of the `warhammer` ruleset through `fracas script`, as an outside tester would
drive it: only the commands and fields docs/commands.md documents, reading the log (`--log`) and the
final state (`--summary`). One test per rule of the combat text (shared/rules/warhammer.txt), named
after the rule; the readings where the text is silent are those of docs/rules/warhammer.md.

Every die is typed in (`given...`), so each case is exact whatever the seed.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from tui.cli import main

Cmd = dict[str, Any]
LOG_LINE = re.compile(r"^\s*(\d+)  (.*)$")
NEXT: Cmd = {"cmd": "next"}


class Script:
    """Runs JSON Lines through the script runner and keeps what it printed."""

    def __init__(self, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
        self.tmp_path = tmp_path
        self.capsys = capsys
        self.count = 0

    def run(self, cmds: list[Cmd], flag: str = "--log") -> tuple[int, str, str]:
        self.count += 1
        path = self.tmp_path / f"case{self.count}.jsonl"
        path.write_text("".join(json.dumps(c) + "\n" for c in cmds))
        code = main(["script", str(path), "--rules", "warhammer", "--seed", "1", flag])
        out = self.capsys.readouterr()
        return code, out.out, out.err

    def log(self, cmds: list[Cmd], since: int = 0) -> list[str]:
        """The log lines produced by script lines after `since` (line numbers start at 1)."""
        code, out, err = self.run(cmds)
        assert code == 0, err
        lines = []
        for raw in out.splitlines():
            if raw.startswith("{"):
                break
            m = LOG_LINE.match(raw)
            if m and int(m.group(1)) > since:
                lines.append(m.group(2))
        return lines

    def state(self, cmds: list[Cmd]) -> dict[str, Any]:
        code, out, err = self.run(cmds, "--summary")
        assert code == 0, err
        return dict(json.loads(out))

    def refused(self, cmds: list[Cmd]) -> str:
        """The one-line message of a refused last command (exit code 1)."""
        code, out, err = self.run(cmds)
        assert code == 1, out
        assert err.count("\n") == 1 and "Traceback" not in err, err
        assert f"line {len(cmds)}: " in err, err
        return err.strip()


@pytest.fixture
def s(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Script:
    return Script(tmp_path, capsys)


def add(name: str, pc: bool = False, flags: tuple[str, ...] = (), **stats: int) -> Cmd:
    c: Cmd = {"cmd": "add", "name": name, "stats": [[k, v] for k, v in stats.items()]}
    if pc:
        c.update(kind="pc", side="party")
    if flags:
        c["flags"] = list(flags)
    return c


def start(*rolls: int, surprised: tuple[str, ...] = ()) -> Cmd:
    c: Cmd = {"cmd": "start", "initiative": [[f"c{i + 1}", [r]] for i, r in enumerate(rolls)]}
    if surprised:
        c["surprised"] = list(surprised)
    return c


def attack(who: str = "c1", target: str = "c2", **kw: Any) -> Cmd:
    return {"cmd": "wh_attack", "who": who, "target": target, **kw}


def use(who: str, what: str, **kw: Any) -> Cmd:
    return {"cmd": "use", "who": who, "what": what, **kw}


def duel(**foe: Any) -> list[Cmd]:
    """Ann (PC, WS 50, BS 40, Ag 40, T 30) acts first; the Orc (WS 40, Ag 30, T 30, 12 Wounds)."""
    flags = tuple(foe.pop("flags", ()))
    stats = {"wounds": 12, "ws": 40, "ag": 30, "i": 30, "t": 30, **foe}
    return [
        add("Ann", pc=True, wounds=12, ws=50, bs=40, ag=40, i=40, t=30),
        add("Orc", flags=flags, **stats),
        start(15, 85),
    ]


def order(st: dict[str, Any]) -> list[str]:
    return [st["combatants"][c]["name"] for c in st["order"]]


def line_with(lines: list[str], needle: str) -> str:
    found = [x for x in lines if needle in x]
    assert found, (needle, lines)
    return found[0]


# --- initiative -----------------------------------------------------------------------------------


def test_initiative_test_orders_combatants_by_success_levels(s: Script) -> None:
    # SL = tens of the Initiative skill minus tens of the roll; a roll equal to the skill succeeds
    cmds = [add("Ann", i=40), add("Bob", i=40), add("Cat", i=65), start(40, 85, 21)]
    lines = s.log(cmds)
    assert "Ann initiative 0 (1d100 = [40] = 40 (entered)) SL vs Initiative 40, success" in lines
    assert "Bob initiative -4 (1d100 = [85] = 85 (entered)) SL vs Initiative 40, failure" in lines
    assert "Cat initiative 4 (1d100 = [21] = 21 (entered)) SL vs Initiative 65, success" in lines
    st = s.state(cmds)
    assert order(st) == ["Cat", "Ann", "Bob"]
    assert st["current"] == "c3"


def test_initiative_tie_in_sl_goes_to_the_higher_agility(s: Script) -> None:
    cmds = [add("Ann", ag=30, i=40), add("Bob", ag=45, i=40), add("Cat", ag=50, i=40), start(21, 25, 29)]
    assert order(s.state(cmds)) == ["Cat", "Bob", "Ann"]
    # a success at SL 0 and a failure at SL 0 are tied in SL: Agility decides
    cmds = [add("Sue", ag=40, i=40), add("Fay", ag=45, i=45), start(40, 46)]
    assert order(s.state(cmds)) == ["Fay", "Sue"]


def test_initiative_tie_in_sl_and_agility_keeps_the_gm_order(s: Script) -> None:
    cmds = [add("Ann", ag=35, i=38), add("Gob", ag=35, i=30), start(17, 12)]
    assert order(s.state(cmds)) == ["Ann", "Gob"]
    cmds += [{"cmd": "reorder", "who": "c2", "position": 0}]
    assert order(s.state(cmds)) == ["Gob", "Ann"]


def test_initiative_is_an_agility_based_skill(s: Script) -> None:
    # left out, the Initiative skill is the Agility itself
    lines = s.log([add("Gob", ag=45), start(30)])
    assert "Gob initiative 1 (1d100 = [30] = 30 (entered)) SL vs Initiative 45, success" in lines


# --- Fortune --------------------------------------------------------------------------------------


def test_fortune_at_the_start_of_a_round_picks_the_slot_for_that_round_only(s: Script) -> None:
    cmds = [add("Ann", pc=True, i=40, fortune=2), add("Bob", i=40), add("Orc", i=40), start(39, 25, 11)]
    st = s.state(cmds)
    assert st["where"] == "Round 1 · start (Fortune)" and st["current"] == ""
    cmds += [{"cmd": "fortune", "who": "c1", "position": 0}]
    lines = s.log(cmds, since=4)
    assert lines == ["Ann spends 1 fortune (1 left)", "Order: Ann, Orc, Bob"]
    st = s.state(cmds + [NEXT])
    assert st["current"] == "c1" and st["combatants"]["c1"]["fortune"] == "1/2"
    # the next round goes back to the SL order
    st = s.state(cmds + [NEXT, NEXT, NEXT, NEXT, NEXT])
    assert st["round"] == 2 and order(st) == ["Orc", "Bob", "Ann"] and st["current"] == "c3"


def test_fortune_is_spent_only_at_the_start_of_the_round(s: Script) -> None:
    base = [add("Ann", pc=True, i=40, fortune=2), add("Bob", i=40, fortune=1), add("Orc", i=40), start(39, 25, 11)]
    err = s.refused(base + [NEXT, {"cmd": "fortune", "who": "c1", "position": 0}])
    assert "Fortune is spent at the start of a round, before anyone acts" in err
    err = s.refused(base + [{"cmd": "fortune", "who": "c3", "position": 0}])
    assert "Orc has no Fortune left" in err
    # the first to act leaving the fight mid-turn does not reopen the start of the round
    mid = base + [{"cmd": "fortune", "who": "c2", "position": 0}, NEXT, {"cmd": "remove", "who": "c2"}]
    assert s.state(mid)["where"] == "Round 1"
    err = s.refused(mid + [{"cmd": "fortune", "who": "c1", "position": 0}])
    assert "Fortune is spent at the start of a round, before anyone acts" in err
    assert s.state(mid + [NEXT])["current"] == "c3"


def test_fortune_ignores_surprise_in_the_first_round(s: Script) -> None:
    cmds = [add("Ann", pc=True, i=40, fortune=1), add("Orc", i=40), start(39, 11, surprised=("c1",))]
    cmds += [{"cmd": "fortune", "who": "c1", "position": 0}, NEXT]
    lines = s.log(cmds, since=3)
    assert "Ann is no longer Surprised (spent Fortune to act)" in lines
    assert lines[-1] == "Ann's turn"


# --- awareness and surprise -----------------------------------------------------------------------


def test_surprised_characters_cannot_act_on_their_turn(s: Script) -> None:
    cmds = [add("Ann", pc=True, i=40), add("Orc", i=30), start(15, 5, surprised=("c2",))]
    lines = s.log(cmds + [NEXT])
    assert "Orc loses the turn: Surprised, it cannot act" in lines
    assert s.state(cmds + [NEXT])["round"] == 2


def test_surprised_characters_cannot_make_reactions(s: Script) -> None:
    cmds = [add("Ann", pc=True, ws=50, i=40), add("Orc", i=30), start(15, 5, surprised=("c2",))]
    err = s.refused(cmds + [attack(given_attack=[30], defence="parry", given_defence=[10])])
    assert "Orc is Surprised and cannot react" in err
    err = s.refused(cmds + [use("c2", "dodge")])
    assert "Orc is Surprised and cannot react" in err


def test_attacker_gains_20_against_a_surprised_defender(s: Script) -> None:
    cmds = [add("Ann", pc=True, ws=40, i=40), add("Orc", i=30), start(15, 5, surprised=("c2",))]
    lines = s.log(cmds + [attack(given_attack=[60], given_damage=[1])])
    assert "Ann attacks Orc: WS 40 +20 (defender Surprised) = 60; 1d100 = [60] = 60 (entered): hit, SL +0" in lines


def test_surprise_is_lost_at_the_end_of_the_first_round(s: Script) -> None:
    cmds = [add("Ann", pc=True, i=40), add("Orc", i=30), add("Gob", i=30), start(15, 5, 25, surprised=("c3",))]
    lines = s.log(cmds + [NEXT, NEXT])
    assert lines[-3:] == ["Gob is no longer Surprised (end of round 1)", "Round 2", "Ann's turn"]
    assert "conditions" not in s.state(cmds + [NEXT, NEXT])["combatants"]["c3"]


def test_surprise_is_lost_when_first_attacked(s: Script) -> None:
    # Ann attacks the surprised Orc before its turn: it then acts in round 1, and a second attack
    # in the same turn gets no +20 and may be defended
    cmds = [
        add("Ann", pc=True, flags=("swift_attack",), ws=40, i=50),
        add("Orc", ws=40, ag=40, i=40),
        start(10, 40, surprised=("c2",)),
        attack(option="swift_lead", given_attack=[70]),
        attack(option="swift_lead", given_attack=[15], defence="dodge", given_defence=[5]),
        NEXT,
    ]
    lines = s.log(cmds, since=3)
    assert lines[1].startswith(
        "Ann attacks Orc (attack 1 of 2, Swift Attack 0/-20): WS 40 +20 (defender Surprised) = 60"
    )
    assert "Orc is no longer Surprised (was attacked)" in lines
    second = line_with(lines, "attack 2 of 2")
    assert "Surprised" not in second and "WS 40 -20 (Swift Attack 0/-20) = 20" in second
    assert "Orc dodges: AG 40; 1d100 = [5] = 5 (entered): success, SL +4; the hit is cancelled" in lines
    assert lines[-1] == "Orc's turn"


# --- the attack step ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "roll,result", [(50, "hit, SL +0"), (51, "miss, SL +0"), (1, "hit, SL +5"), (60, "miss, SL -1")]
)
def test_attack_success_is_a_hit_and_failure_a_miss(s: Script, roll: int, result: str) -> None:
    lines = s.log(duel() + [attack(given_attack=[roll], given_damage=[1])], since=3)
    assert f"Ann attacks Orc: WS 50; 1d100 = [{roll}] = {roll} (entered): {result}" in lines


def test_attack_modifiers_change_the_target(s: Script) -> None:
    lines = s.log(duel() + [attack(modifier=-30, given_attack=[25])], since=3)
    assert "Ann attacks Orc: WS 50 -30 (modifier) = 20; 1d100 = [25] = 25 (entered): miss, SL +0" in lines


def test_there_is_no_automatic_success(s: Script) -> None:
    lines = s.log(duel() + [attack(modifier=-50, given_attack=[1])], since=3)
    assert "Ann attacks Orc: WS 50 -50 (modifier) = 0; 1d100 = [1] = 1 (entered): miss, SL +0" in lines


@pytest.mark.parametrize("roll,result", [(95, "hit, SL +3"), (96, "miss (96 or more always misses)"), (97, "miss (96")])
def test_a_roll_of_96_or_more_always_misses(s: Script, roll: int, result: str) -> None:
    lines = s.log(duel() + [attack(modifier=70, given_attack=[roll], given_damage=[1])], since=3)
    assert line_with(lines, "Ann attacks Orc").split(": ", 2)[2].startswith(result)


def test_a_hit_that_is_a_double_is_a_critical_hit(s: Script) -> None:
    lines = s.log(duel() + [attack(given_attack=[44], given_damage=[3], given_critical=[30])], since=3)
    assert "Ann attacks Orc: WS 50; 1d100 = [44] = 44 (entered): critical hit, SL +1" in lines
    # even with nothing getting through armour and Toughness, the critical injury is rolled
    assert "No damage gets through: Orc is not injured." in lines
    assert (
        "Orc: critical roll for a critical injury to the Head (critical hit): 1d100 = [30] = 30 (entered); "
        "the GM reads the Head critical table" in lines
    )
    # a double above the skill is no critical hit
    lines = s.log(duel() + [attack(given_attack=[10], given_damage=[3])], since=3)
    assert "hit, SL +4" in lines[1] and not any("critical" in x for x in lines)


@pytest.mark.parametrize(
    "roll,crit", [(10, True), (40, True), (5, True), (1, True), (33, True), (45, False), (60, False)]
)
def test_impale_weapons_also_crit_on_a_single_zero(s: Script, roll: int, crit: bool) -> None:
    lines = s.log(duel() + [attack(impale=True, given_attack=[roll], given_damage=[1], given_critical=[30])], since=3)
    text = line_with(lines, "Ann attacks Orc")
    assert ("critical hit" in text) == crit, text
    # without Impale a single 0 is an ordinary hit
    lines = s.log(duel() + [attack(given_attack=[10], given_damage=[1])], since=3)
    assert "critical" not in line_with(lines, "Ann attacks Orc")


@pytest.mark.parametrize("roll,fumble", [(55, True), (100, True), (99, True), (97, False), (51, False)])
def test_a_miss_that_is_a_double_is_a_fumble(s: Script, roll: int, fumble: bool) -> None:
    cmd = attack(given_attack=[roll], given_fumble=[40]) if fumble else attack(given_attack=[roll])
    lines = s.log(duel() + [cmd], since=3)
    text = line_with(lines, "Ann attacks Orc")
    assert ("fumble" in text) == fumble, text
    if fumble:
        assert "Ann fumbles: 1d100 = [40] = 40 (entered); the GM reads the Fumble table" in lines


def test_a_fumble_result_typed_in_is_kept_on_the_attacker(s: Script) -> None:
    cmds = duel() + [attack(given_attack=[77], given_fumble=[12], fumble_result="Drops weapon")]
    st = s.state(cmds)
    assert st["combatants"]["c1"]["conditions"] == ["Drops weapon"]


# --- multiple attacks -----------------------------------------------------------------------------


def test_only_one_attack_or_action_a_turn(s: Script) -> None:
    err = s.refused(duel() + [attack(given_attack=[70]), attack(given_attack=[70])])
    assert "Ann has made its attack this turn" in err
    err = s.refused(duel() + [use("c1", "action", name="Shout"), attack(given_attack=[70])])
    assert "Ann has already taken its one action this turn" in err
    err = s.refused(duel() + [attack("c2", "c1", given_attack=[70])])
    assert "It is not Orc's turn" in err
    # the action comes back on its own next turn only
    st = s.state(duel() + [attack(given_attack=[70]), NEXT, NEXT])
    assert st["round"] == 2 and st["current"] == "c1"
    assert st["combatants"]["c1"]["economy"] == "A1 R1" and st["combatants"]["c2"]["economy"] == "A0 R1"


def _multi(flags: tuple[str, ...], option: str, n: int) -> list[Cmd]:
    return [
        add("Thes", pc=True, flags=flags, ws=60, ag=40, i=40),
        add("Orc", wounds=30, i=30),
        add("Gob", wounds=30, i=30),
        start(15, 85, 85),
    ] + [attack(target="c2" if k % 2 == 0 else "c3", option=option, given_attack=[70]) for k in range(n)]


def _targets(lines: list[str]) -> list[str]:
    return [re.sub(r"; 1d100.*", "", x.split(": ", 1)[1]) for x in lines if re.match(r"Thes attacks (Orc|Gob) ", x)]


def test_dual_wielding_attacks_at_minus_20_then_minus_40_instead_of_the_offhand_parry(s: Script) -> None:
    lines = s.log(_multi(("offhand",), "dual", 2), since=4)
    assert _targets(lines) == ["WS 60 -20 (Dual wielding, main hand) = 40", "WS 60 -40 (Dual wielding, off hand) = 20"]
    assert "Thes attacks with the off-hand weapon instead of parrying with it this round." in lines
    assert "Thes has made all 2 attacks this turn" in s.refused(_multi(("offhand",), "dual", 3))
    # the off-hand parry is gone this round: one reaction left
    assert "no parries or reactions left" in s.refused(_multi(("offhand",), "dual", 2) + [use("c1", "parry")] * 2)
    # an off-hand weapon already used to parry cannot attack
    cmds = _multi(("offhand",), "dual", 0) + [use("c1", "parry"), attack(option="dual", given_attack=[70])]
    assert "already parried with its off-hand weapon" in s.refused(cmds)
    assert "'offhand' flag" in s.refused(_multi((), "dual", 1))


@pytest.mark.parametrize(
    "option,mods",
    [
        ("swift_even", ["WS 60 -10 (Swift Attack -10/-10) = 50"] * 2),
        ("swift_lead", ["WS 60", "WS 60 -20 (Swift Attack 0/-20) = 40"]),
    ],
)
def test_swift_attack_adds_one_attack_with_its_penalties(s: Script, option: str, mods: list[str]) -> None:
    assert _targets(s.log(_multi(("swift_attack",), option, 2), since=4)) == mods
    assert "all 2 attacks" in s.refused(_multi(("swift_attack",), option, 3))
    assert "'swift_attack' flag" in s.refused(_multi((), option, 1))


@pytest.mark.parametrize(
    "option,mods",
    [
        ("lightning_even", ["WS 60 -20 (Lightning Attack -20/-20/-20) = 40"] * 3),
        (
            "lightning_lead",
            ["WS 60", "WS 60 -20 (Lightning Attack 0/-20/-40) = 40", "WS 60 -40 (Lightning Attack 0/-20/-40) = 20"],
        ),
    ],
)
def test_lightning_attack_adds_two_attacks_with_its_penalties(s: Script, option: str, mods: list[str]) -> None:
    assert _targets(s.log(_multi(("lightning_attack",), option, 3), since=4)) == mods
    assert "all 3 attacks" in s.refused(_multi(("lightning_attack",), option, 4))


# --- the defence step -----------------------------------------------------------------------------


def test_a_missed_attack_needs_no_defence(s: Script) -> None:
    cmds = duel() + [attack(given_attack=[70], defence="parry")]
    lines = s.log(cmds, since=3)
    assert "The attack missed: Orc needs no parry, and keeps the reaction." in lines
    assert s.state(cmds)["combatants"]["c2"]["economy"].endswith("R1")


def test_defender_winning_the_opposed_test_cancels_the_hit(s: Script) -> None:
    # Ann hits with SL +1 (45 vs 50); the Orc parries with SL +2 (25 vs 40)
    cmds = duel() + [attack(given_attack=[45], defence="parry", given_defence=[25])]
    lines = s.log(cmds, since=3)
    assert "Orc parries: WS 40; 1d100 = [25] = 25 (entered): success, SL +2; the hit is cancelled" in lines
    assert not any("takes" in x for x in lines)
    # a dodge tests Agility
    lines = s.log(duel() + [attack(given_attack=[45], defence="dodge", given_defence=[15])], since=3)
    assert "Orc dodges: AG 30; 1d100 = [15] = 15 (entered): success, SL +2; the hit is cancelled" in lines


@pytest.mark.parametrize(
    "attack_roll,defence_roll,outcome",
    [
        (30, 20, "success, SL +2; the hit stands, attacker's SL +2 -> +0"),  # equal SL: the hit stands
        (10, 20, "success, SL +2; the hit stands, attacker's SL +4 -> +2"),
        (30, 60, "failure, SL -2; the hit stands"),
        (45, 40, "success, SL +0; the hit stands"),
    ],
)
def test_attacker_winning_the_opposed_test_keeps_the_hit_with_reduced_sl(
    s: Script, attack_roll: int, defence_roll: int, outcome: str
) -> None:
    cmds = duel() + [
        attack(given_attack=[attack_roll], defence="parry", given_defence=[defence_roll], given_damage=[1])
    ]
    lines = s.log(cmds, since=3)
    assert f"Orc parries: WS 40; 1d100 = [{defence_roll}] = {defence_roll} (entered): {outcome}" in lines
    assert any(x.startswith("Orc takes") for x in lines)


def test_a_critical_hit_is_only_stopped_by_a_critical_success(s: Script) -> None:
    # 33 is a critical hit at SL +2; a plain success with more SL does not cancel it
    lines = s.log(
        duel() + [attack(given_attack=[33], defence="parry", given_defence=[5], given_damage=[1], given_critical=[20])],
        since=3,
    )
    assert (
        "success, SL +4; only a critical success stops a critical hit; the hit stands, attacker's SL +2 -> +0"
        in line_with(lines, "Orc parries")
    )
    assert any("critical roll" in x for x in lines)
    # a critical success (a double) with more SL does
    lines = s.log(duel() + [attack(given_attack=[33], defence="parry", given_defence=[11])], since=3)
    assert "critical success, SL +3; the hit is cancelled" in line_with(lines, "Orc parries")
    # a critical success with less SL does not
    lines = s.log(
        duel()
        + [attack(given_attack=[11], defence="parry", given_defence=[22], given_damage=[1], given_critical=[20])],
        since=3,
    )
    assert "critical success, SL +2; the hit stands, attacker's SL +4 -> +2" in line_with(lines, "Orc parries")


def _party() -> list[Cmd]:
    return [
        add("Ulf", pc=True, flags=("twohanded",), wounds=14, ws=48, ag=35, i=38, t=45),
        add("Thes", pc=True, flags=("offhand",), wounds=11, ws=42, ag=50, i=46, t=33),
        add("Gob", wounds=6, ws=30, ag=35, i=30, t=25),
        add("Troll", wounds=30, ws=40, ag=20, i=15, t=60),
        start(17, 41, 12, 55),
    ]


def test_one_reaction_a_round_without_bonus_reactions(s: Script) -> None:
    assert "Gob has no reactions left this round" in s.refused(_party() + [use("c3", "parry"), use("c3", "dodge")])
    # it comes back with the next round
    lines = s.log(_party() + [use("c3", "parry"), NEXT, NEXT, NEXT, NEXT, use("c3", "parry")], since=10)
    assert lines == ["Gob uses parry; A0 R0"]


def test_a_shield_or_offhand_weapon_gives_a_bonus_parry_each_round(s: Script) -> None:
    lines = s.log(_party() + [use("c2", "parry"), use("c2", "parry")], since=5)
    assert lines == ["Thes uses parry; A0 R1", "Thes uses parry; A0 R0"]
    # the bonus is a parry only: a dodge takes the reaction
    assert "no reactions left" in s.refused(_party() + [use("c2", "dodge"), use("c2", "dodge")])
    cmds = [add("Bob", flags=("shield",), i=40), start(30), use("c1", "parry"), use("c1", "parry")]
    assert s.log(cmds, since=2) == ["Bob uses parry; A1 R1", "Bob uses parry; A1 R0"]


def test_a_two_handed_weapon_gives_a_bonus_parry(s: Script) -> None:
    # Ulfberth and Wigmar: parry twice, or one parry and one dodge
    assert s.log(_party() + [use("c1", "parry"), use("c1", "parry")], since=5)[-1] == "Ulf uses parry; A1 R0"
    assert s.log(_party() + [use("c1", "dodge"), use("c1", "parry")], since=5)[-1] == "Ulf uses parry; A1 R0"
    assert "no reactions left" in s.refused(_party() + [use("c1", "dodge"), use("c1", "dodge")])
    assert "no parries or reactions left" in s.refused(_party() + [use("c1", "parry")] * 3)


def test_fighting_defensively_gives_a_parry_or_dodge_until_its_next_turn(s: Script) -> None:
    # Ulfberth forgoes attacking: with his two-handed weapon he has two bonus parries, or a bonus
    # parry and a bonus dodge, besides his reaction
    lines = s.log(
        _party() + [use("c1", "defensive"), use("c1", "parry"), use("c1", "parry"), use("c1", "parry")], since=5
    )
    assert lines[0] == "Ulf uses Fighting defensively (defensive); A0 R1+P1+D1"
    assert lines[-1] == "Ulf uses parry; A0 R0"
    lines = s.log(
        _party() + [use("c1", "defensive"), use("c1", "dodge"), use("c1", "dodge"), use("c1", "parry")], since=5
    )
    assert lines[-1] == "Ulf uses parry; A0 R0"
    # the Troll (last) keeps it over the round change, until its own next turn
    cmds = _party() + [NEXT, NEXT, NEXT, use("c4", "defensive"), NEXT, use("c4", "parry"), use("c4", "dodge")]
    assert s.log(cmds, since=10) == ["Troll uses parry; A0 R0+D1", "Troll uses dodge; A0 R0"]
    cmds = _party() + [NEXT, NEXT, NEXT, use("c4", "defensive"), NEXT, NEXT, NEXT, NEXT]
    assert s.state(cmds)["combatants"]["c4"]["economy"] == "A1 R1"


def test_fighting_defensively_forgoes_the_attack(s: Script) -> None:
    err = s.refused(_party() + [use("c1", "defensive"), attack(target="c3", given_attack=[70])])
    assert "Ulf has already taken its one action this turn" in err
    err = s.refused(_party() + [attack(target="c3", given_attack=[70]), use("c1", "defensive")])
    assert "Ulf has already taken its one action this turn" in err


def test_only_one_reaction_per_attack(s: Script) -> None:
    # Ulf has a reaction and a bonus parry; one attack spends one of them
    cmds = _party() + [attack(target="c1", who="c1", given_attack=[1])]
    assert "cannot attack itself" in s.refused(cmds)
    cmds = _party() + [
        NEXT,
        attack("c3", "c1", given_attack=[20], defence="parry", given_defence=[60], given_damage=[1]),
    ]
    assert s.state(cmds)["combatants"]["c1"]["economy"] == "A0 R1"


def test_parrying_needs_a_ready_weapon(s: Script) -> None:
    cmds = duel(flags=("unarmed",)) + [attack(given_attack=[30], defence="parry", given_defence=[10])]
    assert "Orc has no melee weapon or object ready to parry with: only a dodge" in s.refused(cmds)
    lines = s.log(duel(flags=("unarmed",)) + [attack(given_attack=[30], defence="dodge", given_defence=[5])], since=3)
    assert "the hit is cancelled" in line_with(lines, "Orc dodges")


def test_a_defender_unaware_of_the_attack_cannot_defend(s: Script) -> None:
    cmds = duel() + [attack(aware=False, given_attack=[30], defence="dodge", given_defence=[10])]
    assert "Orc is not aware of the attack and cannot defend" in s.refused(cmds)
    # the GM may rule a Surprised defender aware of this attack: it defends, the +20 still applies
    cmds = [add("Ann", pc=True, ws=40, i=50), add("Orc", ag=40, i=40), start(10, 40, surprised=("c2",))]
    cmds += [attack(aware=True, defence="dodge", given_attack=[50], given_defence=[5])]
    lines = s.log(cmds, since=3)
    assert "WS 40 +20 (defender Surprised) = 60" in lines[1]
    assert "the hit is cancelled" in line_with(lines, "Orc dodges")


@pytest.mark.parametrize(
    "kind,in_melee,defence,need",
    [
        ("thrown", False, "parry", "WS 40 -20 (parrying a thrown weapon) = 20"),
        ("thrown", False, "dodge", "AG 30; "),
        ("missile", False, "dodge", "AG 30 -20 (dodging a missile) = 10"),
        ("missile", True, "parry", "WS 40; "),
        ("thrown", True, "parry", "WS 40; "),
    ],
)
def test_defending_against_thrown_and_missile_weapons(
    s: Script, kind: str, in_melee: bool, defence: str, need: str
) -> None:
    cmd = attack(kind=kind, in_melee=in_melee, defence=defence, given_attack=[30], given_defence=[15], given_damage=[1])
    lines = s.log(duel() + [cmd], since=3)
    assert "BS 40; " in line_with(lines, "Ann attacks Orc")
    assert need in line_with(lines, "Orc parries" if defence == "parry" else "Orc dodges")


def test_arrows_bolts_and_bullets_can_only_be_dodged(s: Script) -> None:
    err = s.refused(duel() + [attack(kind="missile", defence="parry", given_attack=[30])])
    assert "Arrows, bolts and bullets cannot be parried, only dodged (at -20)" in err


def test_a_shield_adds_its_ap_against_missile_attacks(s: Script) -> None:
    gear = {"cmd": "edit", "who": "c2", "stats": [["ap_shield", 2], ["ap_body", 1]]}
    # die 8 + 3 = 11, less body AP 1, shield AP 2 and TB 3: 5
    lines = s.log(duel() + [gear, attack(kind="missile", damage=3, given_attack=[30], given_damage=[8])], since=4)
    assert "Orc takes 5 damage (Body (reversed 03), die 8, damage +3, AP 1, shield AP 2, TB 3)" in lines[2]
    # not in melee, not from a quarter the shield does not cover, not for an unaware defender
    for cmd in (
        attack(damage=3, given_attack=[30], given_damage=[8]),
        attack(kind="missile", shield=False, damage=3, given_attack=[30], given_damage=[8]),
        attack(kind="missile", aware=False, damage=3, given_attack=[30], given_damage=[8]),
    ):
        assert "Orc takes 7 damage" in line_with(s.log(duel() + [gear, cmd], since=4), "Orc takes")


# --- damage, hit location, armour -----------------------------------------------------------------


@pytest.mark.parametrize(
    "roll,die,dealt,how",
    [
        (20, 3, 4, "die 3"),  # SL +3 equal to the die: the die stands
        (20, 2, 4, "SL 3 instead of the die"),  # SL +3 higher than the die: SL replaces it
        (45, 9, 10, "die 9"),
    ],
)
def test_damage_is_a_d10_plus_the_weapon_or_the_sl_if_higher(
    s: Script, roll: int, die: int, dealt: int, how: str
) -> None:
    lines = s.log(duel() + [attack(damage=4, given_attack=[roll], given_damage=[die])], since=3)
    assert f"Orc takes {dealt} damage (" in lines[2] and f"), {how}, damage +4, AP 0, TB 3)" in lines[2]


def test_sl_replaces_the_die_even_above_10(s: Script) -> None:
    lines = s.log(duel(wounds=40) + [attack(modifier=150, damage=4, given_attack=[5], given_damage=[9])], since=3)
    assert "SL +20" in lines[1]
    assert "Orc takes 21 damage (Right (main) arm (reversed 50), SL 20 instead of the die, damage +4" in lines[2]


@pytest.mark.parametrize(
    "roll,where",
    [
        (1, "Body (reversed 10)"),
        (93, "Body (reversed 39)"),
        (4, "Head (reversed 40)"),
        (94, "Head (reversed 49)"),
        (5, "Right (main) arm (reversed 50)"),
        (46, "Right (main) arm (reversed 64)"),
        (56, "Right (main) leg (reversed 65)"),
        (37, "Right (main) leg (reversed 73)"),
        (8, "Left arm (reversed 80)"),
        (88, "Left arm (reversed 88)"),
        (9, "Left leg (reversed 90)"),
        (19, "Left leg (reversed 91)"),
    ],
)
def test_hit_location_reverses_the_attack_roll(s: Script, roll: int, where: str) -> None:
    cmd = attack(modifier=50, given_attack=[roll], given_damage=[1], given_critical=[1])
    assert f" damage ({where}, " in line_with(s.log(duel(wounds=40) + [cmd], since=3), "Orc takes")


def test_the_gm_may_name_the_hit_location(s: Script) -> None:
    lines = s.log(duel() + [attack(location="lleg", given_attack=[30], given_damage=[1])], since=3)
    assert "Orc takes 0 damage (Left leg (the GM's call), " in lines[2]
    assert "No hit location 'nose'" in s.refused(duel() + [attack(location="nose", given_attack=[30])])


def test_armour_then_toughness_bonus_reduce_the_damage(s: Script) -> None:
    # d10 7 + 5 = 12, less head AP 2 and TB 4 (T 45): 6 off 12 Wounds
    cmds = duel(ap_head=2, t=45) + [attack(damage=5, given_attack=[4], given_damage=[7])]
    lines = s.log(cmds, since=3)
    assert (
        "Orc takes 6 damage (Head (reversed 40), die 7, damage +5, AP 2, TB 4) [1d10 = [7] = 7 (entered)], 6 left"
        in lines
    )
    assert s.state(cmds)["combatants"]["c2"]["wounds"] == "6/12"


def test_no_damage_left_means_not_injured(s: Script) -> None:
    cmds = duel(ap_body=3) + [attack(damage=-5, given_attack=[30], given_damage=[4])]
    lines = s.log(cmds, since=3)
    assert "No damage gets through: Orc is not injured." in lines
    assert s.state(cmds)["combatants"]["c2"]["wounds"] == "12/12"


# --- zero Wounds ----------------------------------------------------------------------------------


def _to_zero(flags: tuple[str, ...] = (), pc: bool = False, **stats: int) -> list[Cmd]:
    # SL +2 < die 3; 3 + 5 - TB 3 = 5: exactly the Foe's 5 Wounds
    foe = add("Foe", pc=pc, flags=flags, **{"wounds": 5, "ws": 40, "ag": 40, "i": 40, "t": 30, "wp": 40, **stats})
    return [
        add("Ann", pc=True, ws=50, ag=45, i=50),
        foe,
        start(10, 40),
        attack(damage=5, given_attack=[30], given_damage=[3]),
    ]


def test_zero_wounds_collapses_the_lesser_folk(s: Script) -> None:
    for flags in ((), ("minion",)):
        cmds = _to_zero(flags)
        lines = s.log(cmds + [NEXT], since=3)
        assert "Foe is at 0 Wounds and collapses, helpless" in lines
        # exactly 0 leaves nothing beyond: no critical by itself
        assert not any("critical" in x for x in lines)
        assert lines[-3:-1] == ["Foe loses the turn: collapsed at 0 Wounds", "Round 2"]
    err = s.refused(_to_zero() + [NEXT, NEXT, attack(given_attack=[30], defence="dodge")])
    assert "Foe is collapsed at 0 Wounds and cannot defend" in err


def test_a_champion_at_zero_wounds_tests_willpower_to_keep_fighting(s: Script) -> None:
    cmds = _to_zero(("champion",))
    cmds[-1]["given_willpower"] = [40]  # WP 40: equal is a success
    lines = s.log(cmds + [NEXT], since=3)
    assert "Foe tests Willpower to keep fighting: WP 40; 1d100 = [40] = 40 (entered): keeps on fighting" in lines
    assert lines[-1] == "Foe's turn"
    cmds[-1]["given_willpower"] = [41]
    lines = s.log(cmds + [NEXT], since=3)
    assert "1d100 = [41] = 41 (entered): stops fighting: bruised, battered, unwilling or unable" in line_with(
        lines, "tests Willpower"
    )
    assert lines[-3:-1] == ["Foe loses the turn: collapsed at 0 Wounds", "Round 2"]
    # the GM may ask again
    lines = s.log(cmds + [{"cmd": "wh_willpower", "who": "c2", "given": [12]}, NEXT], since=4)
    assert lines[:3] == [
        "Foe tests Willpower to keep fighting: WP 40; 1d100 = [12] = 12 (entered): keeps on fighting",
        "Foe is no longer Stopped fighting (passed a new Willpower test)",
        "Foe is Fighting on",
    ]
    assert lines[-1] == "Foe's turn"
    assert "Only champion-tier" in s.refused(_to_zero() + [{"cmd": "wh_willpower", "who": "c2", "given": [12]}])


@pytest.mark.parametrize(
    "pc,flags,stats",
    [
        (True, (), {}),
        (False, ("companion",), {}),
        (False, ("master",), {}),
        (False, ("champion",), {"resolve": 1}),
        (False, (), {"resolve": 1}),
    ],
)
def test_resolve_keeps_a_character_fighting_at_zero_wounds(
    s: Script, pc: bool, flags: tuple[str, ...], stats: dict[str, int]
) -> None:
    lines = s.log(_to_zero(flags, pc, **stats) + [NEXT], since=3)
    assert "Foe is at 0 Wounds and fights on (Resolve)" in lines
    assert not any("Willpower" in x for x in lines)
    assert lines[-1] == "Foe's turn"


def test_a_pc_whose_resolve_was_spent_collapses(s: Script) -> None:
    cmds = _to_zero((), True, resolve=1)
    cmds.insert(3, {"cmd": "spend", "who": "c2", "key": "resolve"})
    assert "Foe is at 0 Wounds and collapses, helpless" in s.log(cmds, since=4)


def test_healing_above_zero_ends_the_collapse(s: Script) -> None:
    lines = s.log(_to_zero() + [{"cmd": "heal", "who": "c2", "amount": 2}, NEXT], since=4)
    assert lines == ["Foe heals 2, 2 now", "Foe is back up", "Ann ends the turn", "Foe's turn"]


# --- critical injuries ----------------------------------------------------------------------------


def test_any_hit_on_a_defender_at_zero_wounds_is_a_critical_injury(s: Script) -> None:
    base = [add("Ann", pc=True, wounds=10, ws=40, i=40, t=40, ap_body=3), add("Orc", ws=50, i=30), start(85, 25)]
    base.append({"cmd": "damage", "who": "c1", "amount": 10})
    # nothing gets through armour and Toughness: still a critical, nothing added
    lines = s.log(base + [attack("c2", "c1", given_attack=[30], given_damage=[2], given_critical=[40])], since=4)
    assert (
        "Ann: critical roll for a critical injury to the Body (hit at 0 Wounds):"
        " 1d100 = [40] = 40 (entered); the GM reads the Body critical table" in lines
    )
    # a wounding hit at 0: +5 a point
    lines = s.log(
        base + [attack("c2", "c1", damage=9, given_attack=[30], given_damage=[2], given_critical=[40])], since=4
    )
    assert "(wounding hit at 0 Wounds): 1d100 = [40] = 40 (entered) +20 (4 beyond 0 Wounds) = 60" in line_with(
        lines, "critical roll"
    )
    # a miss or a parried hit is no hit
    lines = s.log(base + [attack("c2", "c1", given_attack=[45], defence="parry", given_defence=[12])], since=4)
    assert not any("critical" in x for x in lines)


def _anna(ap_head: int = 0) -> list[Cmd]:
    return [
        add("Anna", pc=True, wounds=10, ws=30, i=40, t=30, ap_head=ap_head),
        add("Goblin", bs=40, i=30),
        start(85, 15),
        {"cmd": "damage", "who": "c1", "amount": 9},
    ]


def test_critical_roll_adds_5_per_point_of_damage_beyond_zero_wounds(s: Script) -> None:
    # Anna at 1 Wound takes 6 after Toughness from a goblin arrow in the face: +25, 48 makes 73
    cmd = attack(
        "c2",
        "c1",
        kind="missile",
        damage=4,
        given_attack=[4],
        given_damage=[5],
        given_critical=[48],
        injury="Broken jaw",
    )
    lines = s.log(_anna() + [cmd], since=4)
    assert (
        "Anna takes 6 damage (Head (reversed 40), die 5, damage +4, AP 0, TB 3) [1d10 = [5] = 5 (entered)], 0 left"
        in lines
    )
    assert (
        "Anna: critical roll for a critical injury to the Head (taken past 0 Wounds): 1d100 = [48] = 48 (entered) "
        "+25 (5 beyond 0 Wounds) = 73: Broken jaw" in lines
    )
    assert s.state(_anna() + [cmd])["combatants"]["c1"]["conditions"] == ["Broken jaw"]


def test_armour_deflection_takes_20_off_the_critical_and_2_ap(s: Script) -> None:
    # Anna with a helmet (AP 2): 73 becomes 53, the helmet goes to AP 0
    cmd = attack(
        "c2", "c1", kind="missile", damage=6, given_attack=[4], given_damage=[5], given_critical=[48], deflect=True
    )
    lines = s.log(_anna(2) + [cmd], since=4)
    assert "Anna's armour deflects the blow: critical -20; Head AP 2 -> 0 until repaired" in lines
    assert "1d100 = [48] = 48 (entered) +25 (5 beyond 0 Wounds) -20 (armour deflection) = 53" in line_with(
        lines, "critical roll"
    )
    # AP 1: -10 only, and the AP goes to 0; with no armour left there is nothing to deflect
    base = [add("Boss", flags=("champion",), i=40, ap_body=3), start(20)]
    crit: Cmd = {"cmd": "wh_critical", "who": "c1", "given": [50], "deflect": True}
    lines = s.log(base + [crit, crit], since=2)
    assert lines == [
        "Boss's armour deflects the blow: critical -20; Body AP 3 -> 1 until repaired",
        "Boss: critical roll for a critical injury to the Body (critical injury):"
        " 1d100 = [50] = 50 (entered) -20 (armour deflection) = 30; the GM reads the Body critical table",
        "Boss's armour deflects the blow: critical -10; Body AP 1 -> 0 until repaired",
        "Boss: critical roll for a critical injury to the Body (critical injury):"
        " 1d100 = [50] = 50 (entered) -10 (armour deflection) = 40; the GM reads the Body critical table",
    ]
    assert "Boss has no armour on the Body to deflect the blow" in s.refused(base + [crit, crit, crit])


@pytest.mark.parametrize(
    "flags,stats,allowed",
    [
        ((), {}, False),
        (("minion",), {}, False),
        ((), {"resilience": 1}, True),
        (("champion",), {}, True),
        (("master",), {}, True),
    ],
)
def test_only_champions_masters_and_the_resilient_deflect(
    s: Script, flags: tuple[str, ...], stats: dict[str, int], allowed: bool
) -> None:
    cmds = [
        add("X", flags=flags, i=40, ap_body=3, **stats),
        start(20),
        {"cmd": "wh_critical", "who": "c1", "given": [50], "deflect": True},
    ]
    if allowed:
        assert "Body AP 3 -> 1" in s.log(cmds, since=2)[0]
    else:
        assert (
            "Only champions, masters and those with Resilience can have armour deflect a blow; X cannot"
            in s.refused(cmds)
        )


# --- sudden death ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "roll,band,conditions",
    [
        (1, "Grazing blow: no effect", None),
        (20, "Grazing blow: no effect", None),
        (21, "Grazing blow: no effect (the sudden-death table skips 21-30", None),
        (30, "Grazing blow: no effect (the sudden-death table skips 21-30", None),
        (31, "Seriously injured: fights at -20; a Cool test or it flees at once", ["Seriously injured"]),
        (40, "Seriously injured", ["Seriously injured"]),
        (41, "Critically wounded: prone and stunned indefinitely", ["Critically wounded", "Prone", "Stunned"]),
        (65, "Critically wounded", ["Critically wounded", "Prone", "Stunned"]),
        (66, "Dead", ["Dead"]),
        (100, "Dead", ["Dead"]),
    ],
)
def test_sudden_death_table_for_minions(s: Script, roll: int, band: str, conditions: list[str] | None) -> None:
    cmds = [
        add("Ann", pc=True, i=40),
        add("Gob", flags=("minion",), i=30),
        start(15, 25),
        {"cmd": "wh_critical", "who": "c2", "given": [roll]},
    ]
    lines = s.log(cmds, since=3)
    assert (
        f"Gob: sudden-death roll for a critical injury to the Body (critical injury):"
        f" 1d100 = [{roll}] = {roll} (entered): {band}" in lines[0]
    )
    st = s.state(cmds + [NEXT])
    assert st["combatants"]["c2"].get("conditions") == conditions
    # the critically wounded and the dead lose their turns
    assert (st["round"] == 2) == (roll >= 41)


def test_sudden_death_adds_the_critical_modifiers(s: Script) -> None:
    cmds = [add("Ann", pc=True, ws=50, i=50), add("Gob", flags=("minion",), wounds=5, t=30, i=40), start(10, 40)]
    lines = s.log(cmds + [attack(damage=7, given_attack=[30], given_damage=[3], given_critical=[50])], since=3)
    assert (
        "Gob: sudden-death roll for a critical injury to the Body (taken past 0 Wounds):"
        " 1d100 = [50] = 50 (entered) +10 (2 beyond 0 Wounds) = 60: Critically wounded"
        in line_with(lines, "sudden-death")
    )
    # a critical hit on a minion goes to the same table
    lines = s.log(cmds + [attack(given_attack=[33], given_damage=[1], given_critical=[70])], since=3)
    assert "(critical hit): 1d100 = [70] = 70 (entered): Dead" in line_with(lines, "sudden-death")
    assert "for minions; Ann is not one" in s.refused(
        cmds + [{"cmd": "wh_critical", "who": "c1", "sudden_death": True, "given": [5]}]
    )


def test_seriously_injured_fights_at_minus_20(s: Script) -> None:
    cmds = [add("Ann", pc=True, ws=40, ag=40, i=40, t=40), add("Gob", flags=("minion",), ws=50, i=30), start(85, 25)]
    cmds += [{"cmd": "wh_critical", "who": "c2", "given": [35]}]
    cmds += [attack("c2", "c1", given_attack=[30], given_damage=[2]), NEXT]
    cmds += [attack("c1", "c2", given_attack=[30], given_damage=[2], defence="parry", given_defence=[25])]
    lines = s.log(cmds, since=4)
    assert "WS 50 -20 (Seriously injured) = 30" in line_with(lines, "Gob attacks Ann")
    assert "WS 50 -20 (Seriously injured) = 30" in line_with(lines, "Gob parries")


# --- the script itself ----------------------------------------------------------------------------


def test_removing_the_acting_combatant_passes_the_turn_on(s: Script) -> None:
    cmds = _party() + [use("c1", "action", name="Attack", target="c3"), {"cmd": "remove", "who": "c1"}]
    st = s.state(cmds)
    assert st["current"] == "" and st["where"] == "Round 1" and order(st) == ["Gob", "Thes", "Troll"]
    lines = s.log(cmds + [NEXT, NEXT, NEXT, NEXT], since=7)
    assert lines == [
        "Gob's turn",
        "Gob ends the turn (action lost)",
        "Thes's turn",
        "Thes ends the turn (action lost)",
        "Troll's turn",
        "Troll ends the turn (action lost)",
        "Round 2",
        "Gob's turn",
    ]
    # someone later in the order simply drops out of it
    lines = s.log(_party() + [{"cmd": "remove", "who": "c3"}, NEXT], since=5)
    assert lines == ["Gob leaves the fight", "Ulf ends the turn (action lost)", "Thes's turn"]


def test_table_dice_are_checked_and_marked_entered(s: Script) -> None:
    assert "Attack roll: 101 is not a possible result on a d100" in s.refused(duel() + [attack(given_attack=[101])])
    assert "Damage die: 11 is not a possible result on a d10" in s.refused(
        duel() + [attack(given_attack=[30], given_damage=[11])]
    )
    assert "needs 1 die result, got 2" in s.refused(duel() + [attack(given_attack=[30, 4])])
    assert "Warhammer rolls nothing at the start of a turn" in s.refused(
        duel() + [{"cmd": "next", "rolls": [{"who": "c1", "what": "Bleeding", "dice": [3]}]}]
    )
    lines = s.log(duel() + [attack(given_attack=[70], given_damage=[3])], since=3)
    assert lines[-1] == "Entered but not needed: damage die."


def test_a_refused_command_changes_nothing_and_names_the_rule(s: Script) -> None:
    code, out, err = s.run(
        duel() + [attack(given_attack=[30], given_damage=[3]), attack(given_attack=[20])], "--summary"
    )
    assert code == 1 and out == ""
    assert err.strip().endswith("line 5: Ann has made its attack this turn.")
