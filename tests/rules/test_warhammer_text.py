"""Warhammer, audited sentence by sentence against the rule text: one test (or more) per rule the
other warhammer test files left uncovered, and the readings changed by the audit (Impale's single 0,
any hit at 0 Wounds, who has Resolve, who may deflect, awareness, parrying empty-handed)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from engine import RuleError, apply, describe, new_fight
from engine import commands as C
from engine import events as E
from engine.rules.warhammer import combat as W
from engine.rules.warhammer.commands import Fortune
from engine.state import Fight

Attack = W.Attack


def stats(**kw: int) -> tuple[tuple[str, int], ...]:
    base = {"wounds": 12, "ws": 40, "bs": 40, "ag": 30, "i": 90, "t": 30, "wp": 30}
    base.update(kw)
    return tuple(base.items())


def wh(*people: tuple[str, dict, tuple[str, ...], str, str], surprised: tuple[str, ...] = ()) -> Fight:
    """A started fight; combatants act in the order given (c1 first)."""
    f = new_fight("warhammer", seed=5)
    for name, st, flags, kind, side in people:
        f, _ = apply(f, C.AddCombatant(name, kind=kind, side=side, stats=stats(**st), flags=flags))  # type: ignore[arg-type]
    # Initiative 90 for all: rolls 5, 15, 25, ... give SL 9, 8, 7, ...
    init = tuple((f"c{i + 1}", (5 + 10 * i,)) for i in range(len(people)))
    f, _ = apply(f, C.StartFight(initiative=init, surprised=surprised))
    if f.phase == -1:  # someone has Fortune: the round waits at its start
        f, _ = apply(f, C.NextTurn())
    return f


def p(
    name: str, flags: tuple[str, ...] = (), kind: str = "npc", side: str = "enemy", **st: int
) -> tuple[str, dict, tuple[str, ...], str, str]:
    return (name, st, flags, kind, side)


def pc(name: str, flags: tuple[str, ...] = (), **st: int) -> tuple[str, dict, tuple[str, ...], str, str]:
    return p(name, flags, "pc", "party", **st)


def turn(f: Fight, cid: str) -> Fight:
    for _ in range(50):
        if f.current == cid:
            return f
        f, _ = apply(f, C.NextTurn())
    raise AssertionError(f"{cid} never got a turn")


def hit(f: Fight, cmd: C.Command) -> tuple[Fight, list[E.Event], list[str]]:
    f2, ev = apply(f, cmd)
    return f2, list(ev), [describe(e) for e in ev]


def refused(f: Fight, cmd: C.Command, words: str) -> None:
    with pytest.raises(RuleError) as err:
        apply(f, cmd)
    assert words.lower() in str(err.value).lower(), str(err.value)


def only(ev: list[E.Event], kind: type):
    found = [e for e in ev if isinstance(e, kind)]
    assert len(found) == 1, found
    return found[0]


def none_of(ev: list[E.Event], kind: type) -> bool:
    return not [e for e in ev if isinstance(e, kind)]


# --- initiative ---------------------------------------------------------------------------------


def test_initiative_is_an_agility_based_skill_agility_when_not_given():
    f = new_fight("warhammer", seed=1)
    f, _ = apply(f, C.AddCombatant("Quick", stats=(("ag", 47),)))
    f, _ = apply(f, C.AddCombatant("Trained", stats=(("ag", 47), ("i", 62))))
    assert f.get("c1").stat("i") == 47 and f.get("c2").stat("i") == 62
    f, ev = apply(f, C.StartFight(initiative=(("c1", (23,)), ("c2", (23,)))))
    sl = {e.name: e.value for e in ev if isinstance(e, E.InitiativeRolled)}
    assert sl == {"Quick": 4 - 2, "Trained": 6 - 2}
    assert f.order == ("c2", "c1")


def test_a_tie_in_sl_goes_to_the_higher_agility_whoever_was_added_first():
    f = new_fight("warhammer", seed=1)
    f, _ = apply(f, C.AddCombatant("Slow", stats=(("ag", 31), ("i", 40))))
    f, _ = apply(f, C.AddCombatant("Nimble", stats=(("ag", 52), ("i", 40))))
    f, _ = apply(f, C.StartFight(initiative=(("c1", (12,)), ("c2", (18,)))))  # SL 3 each
    assert f.order == ("c2", "c1") and f.current == "c2"


def test_fortune_lets_a_surprised_combatant_act_in_round_1():
    f = new_fight("warhammer", seed=1)
    f, _ = apply(f, C.AddCombatant("Goblin", stats=(("i", 50),)))
    f, _ = apply(f, C.AddCombatant("Anna", kind="pc", side="party", stats=(("i", 30), ("fortune", 1))))
    f, _ = apply(f, C.StartFight(initiative=(("c1", (10,)), ("c2", (10,))), surprised=("c2",)))
    assert f.phase == -1 and f.get("c2").has("Surprised")
    f, ev = apply(f, Fortune("c2", 0))
    assert not f.get("c2").has("Surprised") and f.order == ("c2", "c1")
    f, ev = apply(f, C.NextTurn())
    assert f.current == "c2" and none_of(list(ev), E.TurnSkipped)


# --- surprise -----------------------------------------------------------------------------------


def test_surprise_plus_20_and_no_defence_for_the_first_attack_only():
    # Swift Attack 0/-20 on a Surprised goblin: the first attack has +20 and cannot be dodged; the
    # goblin is no longer Surprised after it, so the second has no +20 and may be dodged
    f = wh(p("Ulf", ("swift_attack",), ws=40), p("Gob", ag=50, wounds=30), surprised=("c2",))
    refused(f, Attack("c1", "c2", option="swift_lead", defence="dodge"), "Surprised and cannot react")
    f, ev, _ = hit(f, Attack("c1", "c2", option="swift_lead", given_attack=(57,), given_damage=(1,)))
    a = only(ev, W.AttackTested)
    assert (a.need, a.result) == (60, "hit") and a.mods == (("defender Surprised", 20),)
    assert not f.get("c2").has("Surprised")
    f, ev, _ = hit(f, Attack("c1", "c2", option="swift_lead", defence="dodge", given_attack=(15,), given_defence=(5,)))
    assert only(ev, W.AttackTested).need == 20
    assert only(ev, W.DefenceTested).outcome == "the hit is cancelled"


def test_surprised_ends_at_the_end_of_round_1_even_if_never_attacked():
    f = wh(p("Ulf"), p("Gob"), surprised=("c2",))
    f, ev = apply(f, C.NextTurn())
    assert [e.name for e in ev if isinstance(e, E.TurnSkipped)] == ["Gob"]
    assert f.round == 2 and not f.get("c2").has("Surprised")
    assert any(isinstance(e, E.ConditionEnded) and e.reason == "end of round 1" for e in ev)


def test_a_surprise_given_later_lasts_to_the_end_of_that_round():
    f = wh(p("Ulf"), p("Gob"))
    f, _ = apply(f, C.NextTurn())
    f, _ = apply(f, C.NextTurn())
    assert f.round == 2 and f.current == "c1"
    f, _ = apply(f, C.AddCombatant("Ambusher", stats=(("i", 40),)))
    f, _ = apply(f, C.AddCondition("c3", "Surprised"))
    f, ev = apply(f, C.NextTurn())
    f, ev = apply(f, C.NextTurn())  # the Ambusher's turn in round 2 is lost; round 3 begins
    assert f.round == 3 and not f.get("c3").has("Surprised")
    assert [e.name for e in ev if isinstance(e, E.TurnSkipped)] == ["Ambusher"]
    assert any(isinstance(e, E.ConditionEnded) and e.reason == "end of round 2" for e in ev)


def test_the_gm_may_rule_a_defender_unaware_or_a_surprised_one_aware():
    f = wh(p("Ulf", ws=40), p("Gob", ws=50, wounds=30))
    refused(f, Attack("c1", "c2", defence="parry", aware=False), "not aware of the attack")
    assert "not aware" in dict((w, why) for w, _, why in W.defence_choices(f, Attack("c1", "c2", aware=False)))["dodge"]
    f2 = wh(p("Ulf", ws=40), p("Gob", ws=50, wounds=30), surprised=("c2",))
    _, ev, _ = hit(f2, Attack("c1", "c2", defence="parry", aware=True, given_attack=(35,), given_defence=(12,)))
    assert only(ev, W.AttackTested).need == 60  # still Surprised when attacked: the +20 stands
    assert only(ev, W.DefenceTested).outcome == "the hit is cancelled"


# --- the attack test ----------------------------------------------------------------------------


@pytest.mark.parametrize(("ws", "modifier", "rolled"), [(0, 0, 1), (30, -40, 1), (5, 0, 7)])
def test_there_is_no_automatic_success(ws, modifier, rolled):
    f = wh(p("Ulf", ws=ws), p("Gob"))
    _, ev, _ = hit(f, Attack("c1", "c2", modifier=modifier, given_attack=(rolled,)))
    assert only(ev, W.AttackTested).result == "miss"
    assert none_of(ev, E.Damaged)
    assert W.hit_chance(-10) == 0


@pytest.mark.parametrize(("rolled", "result"), [(95, "hit"), (96, "miss"), (99, "fumble"), (100, "fumble")])
def test_96_or_more_misses_whatever_the_skill(rolled, result):
    f = wh(p("Ulf", ws=150), p("Gob", wounds=40))
    _, ev, _ = hit(f, Attack("c1", "c2", given_attack=(rolled,), given_damage=(1,), given_fumble=(50,)))
    assert only(ev, W.AttackTested).result.startswith(result)


@pytest.mark.parametrize(
    ("rolled", "ws", "result"),
    [(88, 90, "critical hit"), (88, 50, "fumble"), (44, 44, "critical hit"), (45, 44, "miss"), (11, 10, "fumble")],
)
def test_doubles_crit_on_a_hit_and_fumble_on_a_miss(rolled, ws, result):
    f = wh(p("Ulf", ws=ws), p("Gob", wounds=40))
    _, ev, _ = hit(f, Attack("c1", "c2", given_attack=(rolled,), given_damage=(1,), given_critical=(5,)))
    assert only(ev, W.AttackTested).result == result
    assert (len([e for e in ev if isinstance(e, W.FumbleRolled)]) == 1) == (result == "fumble")


@pytest.mark.parametrize(
    ("rolled", "crit"),
    [(30, True), (10, True), (90, True), (5, True), (1, True), (9, True), (35, False), (53, False), (100, False)],
)
def test_impale_crits_on_a_single_0_on_either_die(rolled, crit):
    # a single 0: 10, 20 ... 90 (units die) and 01-09 (tens die); 00 has two and always misses
    f = wh(p("Ulf", ws=95), p("Gob", ("champion",), wounds=40))
    cmd = Attack("c1", "c2", impale=True, given_attack=(rolled,), given_damage=(1,), given_critical=(5,))
    _, ev, _ = hit(f, cmd)
    assert (only(ev, W.AttackTested).result == "critical hit") is crit
    # without Impale only doubles crit
    _, ev, _ = hit(f, Attack("c1", "c2", given_attack=(rolled,), given_damage=(1,), given_fumble=(5,)))
    assert only(ev, W.AttackTested).result != "critical hit"


def test_impale_odds_count_both_zeros():
    f = wh(p("Ulf", ws=48), p("Gob"))
    odds = W.attack_odds(f, Attack("c1", "c2", impale=True))
    # doubles 11 22 33 44; 01-09; 10 20 30 40
    assert odds.critical == Fraction(4 + 9 + 4, 100)


# --- multiple attacks ---------------------------------------------------------------------------


def test_dual_wielding_is_refused_once_the_off_hand_has_parried_this_round():
    f = wh(p("Gob", ws=90), p("Thesalva", ("offhand",), ws=50))
    f, _, _ = hit(f, Attack("c1", "c2", defence="parry", given_attack=(12,), given_defence=(99,), given_damage=(1,)))
    assert f.get("c2").economy.parries == 0  # the off-hand weapon parried
    f = turn(f, "c2")
    refused(f, Attack("c2", "c1", option="dual"), "already parried with its off-hand weapon")
    f, _, _ = hit(f, Attack("c2", "c1", given_attack=(99,)))  # a single attack is still fine


# --- defence ------------------------------------------------------------------------------------


def test_a_parry_needs_something_to_parry_with():
    f = wh(p("Ulf", ws=40), p("Brawler", ("unarmed",), ws=50, ag=40, wounds=30))
    refused(f, Attack("c1", "c2", defence="parry"), "ready to parry with")
    refused(f, C.UseAction("c2", "parry"), "no melee weapon or object ready to parry")
    _, ev, _ = hit(f, Attack("c1", "c2", defence="dodge", given_attack=(35,), given_defence=(5,)))
    assert only(ev, W.DefenceTested).outcome == "the hit is cancelled"
    choices = {w: why for w, _, why in W.defence_choices(f, Attack("c1", "c2"))}
    assert "parry" in choices["parry"] and choices["dodge"] == ""


def test_a_thrown_weapon_used_in_melee_is_parried_normally():
    f = wh(p("Gob", bs=40), p("Ulf", ws=50, ag=50, wounds=30))
    _, ev, _ = hit(
        f,
        Attack(
            "c1",
            "c2",
            kind="thrown",
            in_melee=True,
            defence="parry",
            given_attack=(12,),
            given_defence=(99,),
            given_damage=(1,),
        ),
    )
    assert only(ev, W.DefenceTested).need == 50


def test_seriously_injured_fights_at_minus_20_on_parries_and_dodges_too():
    f = wh(p("Ulf", ws=40), p("Gob", ("minion",), ws=50, ag=45, wounds=30))
    f, _ = apply(f, C.AddCondition("c2", "Seriously injured"))
    for what, need in (("parry", 30), ("dodge", 25)):
        _, ev, _ = hit(f, Attack("c1", "c2", defence=what, given_attack=(35,), given_defence=(99,), given_damage=(1,)))
        d = only(ev, W.DefenceTested)
        assert d.need == need and ("Seriously injured", -20) in d.mods


def test_a_critically_wounded_or_dead_minion_cannot_defend():
    for cond in ("Critically wounded", "Dead"):
        f = wh(p("Ulf", ws=40), p("Gob", ("minion",), wounds=30))
        f, _ = apply(f, C.AddCondition("c2", cond))
        refused(f, Attack("c1", "c2", defence="dodge"), "cannot defend")


def test_the_opposed_test_winner_by_sl():
    # attacker WS 60 rolls 21: SL 4. Defender WS 60: 15 (SL 5) wins; 25 (SL 4) ties: the hit
    # stands at SL 0; 35 (SL 3): the hit stands at SL 1; 75 fails: the hit keeps SL 4
    f = wh(p("Ulf", ws=60), p("Gob", ws=60, t=0, wounds=40))
    for d, outcome, sl in (
        (15, "the hit is cancelled", 4),
        (25, "+4 -> +0", 0),
        (35, "+4 -> +1", 1),
        (75, "stands", 4),
    ):
        _, ev, _ = hit(
            f, Attack("c1", "c2", defence="parry", given_attack=(21,), given_defence=(d,), given_damage=(1,))
        )
        dt = only(ev, W.DefenceTested)
        assert dt.outcome.endswith(outcome), dt.outcome
        if "cancelled" not in outcome:
            assert only(ev, E.Damaged).rolled == max(sl, 1)  # the die 1, or the SL when higher


# --- damage, location, armour ---------------------------------------------------------------------


def test_sl_replaces_the_die_only_when_higher_and_may_exceed_10():
    f = wh(p("Ulf", ws=150), p("Gob", wounds=40, t=0))
    _, ev, _ = hit(f, Attack("c1", "c2", damage=2, given_attack=(5,), given_damage=(9,)))  # SL 15 - 0
    assert only(ev, E.Damaged).amount == 15 + 2
    f = wh(p("Ulf", ws=48), p("Gob", wounds=40, t=0))
    _, ev, _ = hit(f, Attack("c1", "c2", damage=2, given_attack=(12,), given_damage=(3,)))  # SL 3 = die 3
    dmg = only(ev, E.Damaged)
    assert dmg.amount == 5 and "die 3" in dmg.detail


@pytest.mark.parametrize(
    ("rolled", "where"),
    [
        (10, "body"),  # reversed 01
        (93, "body"),  # 39
        (4, "head"),  # 40
        (94, "head"),  # 49
        (5, "rarm"),  # 50
        (46, "rarm"),  # 64
        (56, "rleg"),  # 65
        (97, "rleg"),  # 79
        (8, "larm"),  # 80
        (98, "larm"),  # 89
        (9, "lleg"),  # 90
        (99, "lleg"),  # 99
    ],
)
def test_hit_location_band_edges(rolled, where):
    assert W.location(rolled) == where


def test_armour_is_that_of_the_hit_location_then_toughness_bonus():
    # roll 37, reversed 73: the right leg, AP 3; other locations' armour does not count
    f = wh(p("Ulf", ws=48), p("Gob", wounds=20, t=42, ap_rleg=3, ap_body=5, ap_head=5))
    _, ev, _ = hit(f, Attack("c1", "c2", damage=5, given_attack=(37,), given_damage=(8,)))
    dmg = only(ev, E.Damaged)
    assert (dmg.amount, dmg.left) == (13 - 3 - 4, 20 - 6)


def test_a_shield_does_not_cover_a_surprised_defender_by_default():
    f = wh(p("Gob", bs=48), p("Ulf", wounds=20, t=0, ap_shield=2), surprised=("c2",))
    _, ev, _ = hit(f, Attack("c1", "c2", kind="missile", damage=3, given_attack=(21,), given_damage=(5,)))
    assert only(ev, E.Damaged).amount == 8
    _, ev, _ = hit(f, Attack("c1", "c2", kind="missile", damage=3, shield=True, given_attack=(21,), given_damage=(5,)))
    assert only(ev, E.Damaged).amount == 6
    f = wh(p("Gob", bs=48), p("Ulf", wounds=20, t=0, ap_shield=2))
    _, ev, _ = hit(f, Attack("c1", "c2", kind="thrown", damage=3, given_attack=(21,), given_damage=(5,)))
    assert only(ev, E.Damaged).amount == 6  # thrown weapons are missiles too
    _, ev, _ = hit(f, Attack("c1", "c2", kind="missile", damage=3, aware=False, given_attack=(21,), given_damage=(5,)))
    assert only(ev, E.Damaged).amount == 8


def test_a_critical_hit_causes_a_critical_injury_even_when_armour_stops_the_damage():
    f = wh(p("Ulf", ws=48), p("Knight", ("champion",), wounds=20, t=40, ap_body=6))
    _, ev, log = hit(f, Attack("c1", "c2", given_attack=(22,), given_damage=(3,), given_critical=(17,)))
    assert only(ev, E.Damaged).amount == 0
    assert "No damage gets through: Knight is not injured." in log
    crit = only(ev, W.CriticalRolled)
    assert (crit.cause, crit.total, crit.location) == ("critical hit", 17, "body")


# --- zero Wounds --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("who", "fights"),
    [
        (pc("Anna"), True),  # a PC: the text gives PCs Resolve
        (p("Hireling", side="party"), True),  # a companion: an NPC on the party's side
        (p("Squire", ("companion",), side="neutral"), True),
        (p("Warlord", ("master",)), True),  # master tier
        (p("Thug"), False),
        (p("Gob", ("minion",)), False),
        (p("Sergeant", ("minion",), resolve=1), True),  # a point of Resolve of its own
    ],
)
def test_those_with_resolve_pcs_companions_masters_fight_on_at_0_wounds(who, fights):
    f = wh(p("Ulf", ws=48, side="neutral"), who, p("Orc", side="neutral"))
    # die 3 (SL 2 is lower) + 12 - TB 3: exactly its 12 Wounds, so no critical to muddle the test
    f, _, log = hit(f, Attack("c1", "c2", damage=12, given_attack=(21,), given_damage=(3,)))
    assert f.get("c2").hp == 0
    state = "fights on (Resolve)" if fights else "collapses, helpless"
    assert f"{f.get('c2').name} is at 0 Wounds and {state}" in log
    assert W.collapsed(f.get("c2")) is not fights
    f, _ = apply(f, C.NextTurn())
    assert (f.current == "c2") is fights  # its turn comes, or is skipped


def test_a_pc_whose_resolve_was_spent_collapses():
    f = wh(p("Ulf", ws=48), pc("Anna", wounds=3, t=0, resolve=1))
    f, _ = apply(f, C.SpendResource("c2", "resolve"))
    f, _, log = hit(f, Attack("c1", "c2", given_attack=(21,), given_damage=(3,)))
    assert "Anna is at 0 Wounds and collapses, helpless" in log


def test_a_champion_failing_willpower_stops_fighting_a_champion_pc_side_is_a_companion():
    f = wh(p("Ulf", ws=48, side="party"), p("Boss", ("champion",), wounds=3, t=0, wp=35))
    f, ev, log = hit(f, Attack("c1", "c2", given_attack=(21,), given_damage=(3,), given_willpower=(36,)))
    w = only(ev, W.WillpowerTested)
    assert (w.need, w.success) == (35, False) and W.collapsed(f.get("c2"))


def test_a_hit_that_leaves_exactly_0_wounds_is_no_critical_by_itself():
    f = wh(p("Ulf", ws=48), pc("Anna", wounds=3, t=0))
    _, ev, _ = hit(f, Attack("c1", "c2", given_attack=(21,), given_damage=(3,)))
    assert none_of(ev, W.CriticalRolled)


def test_any_hit_on_a_defender_already_at_0_wounds_is_a_critical():
    f = wh(p("Ulf", ws=48), pc("Anna", wounds=3, t=30, ap_body=4))
    f, _ = apply(f, C.Damage("c2", amount=3))
    # 21 reversed 12: the body. d10 2 + 1 = 3, less AP 4 and TB 3: nothing gets through
    _, ev, log = hit(f, Attack("c1", "c2", damage=1, given_attack=(21,), given_damage=(2,), given_critical=(61,)))
    assert only(ev, E.Damaged).amount == 0
    crit = only(ev, W.CriticalRolled)
    assert (crit.cause, crit.total, crit.mods) == ("hit at 0 Wounds", 61, ())
    # 4 damage through at 0 Wounds: +20
    _, ev, _ = hit(f, Attack("c1", "c2", damage=8, given_attack=(21,), given_damage=(2,), given_critical=(61,)))
    crit = only(ev, W.CriticalRolled)
    assert (crit.cause, crit.total) == ("wounding hit at 0 Wounds", 61 + 5 * 3)


# --- the worked example, Anna as the PC she is -----------------------------------------------------


def test_anna_a_pc_at_1_wound_takes_6_and_a_helmet_would_make_73_into_53():
    def fight(helmet: int) -> Fight:
        f = wh(p("Goblin", ("minion",), bs=40), pc("Anna", wounds=11, t=30, ap_head=helmet))
        f, _ = apply(f, C.Damage("c2", amount=10))
        return f

    # the arrow: 24 reversed is 42, the head; 5 + 4 = 9 less TB 3 is 6 after Toughness, 5 beyond her
    # 1 Wound: 5 x 5 = +25, and 48 + 25 = 73
    f, ev, _ = hit(
        fight(0),
        Attack("c1", "c2", kind="missile", damage=4, given_attack=(24,), given_damage=(5,), given_critical=(48,)),
    )
    crit = only(ev, W.CriticalRolled)
    assert (crit.total, crit.location) == (73, "head")
    assert not W.collapsed(f.get("c2"))  # a PC fights on at 0 Wounds
    # with a helmet (AP 2, so 2 more damage for the same 6 through): Anna, a PC, may deflect: 53
    f, ev, _ = hit(
        fight(2),
        Attack(
            "c1",
            "c2",
            kind="missile",
            damage=6,
            given_attack=(24,),
            given_damage=(5,),
            given_critical=(48,),
            deflect=True,
        ),
    )
    assert only(ev, W.CriticalRolled).total == 53 and f.get("c2").stat("ap_head") == 0


@pytest.mark.parametrize(("ap", "cut", "after"), [(5, 20, 3), (2, 20, 0), (1, 10, 0)])
def test_deflection_takes_20_and_2_ap_or_10_and_the_last_ap(ap, cut, after):
    f = wh(p("Ulf", ws=48), p("Boss", ("master",), wounds=40, t=0, ap_body=ap))
    f, ev, _ = hit(f, Attack("c1", "c2", given_attack=(11,), given_damage=(1,), given_critical=(50,), deflect=True))
    assert only(ev, W.CriticalRolled).total == 50 - cut
    assert f.get("c2").stat("ap_body") == after


def test_the_lesser_folk_may_not_deflect():
    for who in (p("Thug", ap_body=3), p("Gob", ("minion",), ap_body=3)):
        f = wh(p("Ulf", ws=48), who)
        refused(f, Attack("c1", "c2", given_attack=(11,), given_damage=(1,), deflect=True), "Only champions")
    f = wh(p("Ulf", ws=48), p("Veteran", ap_body=3, resilience=1))
    _, ev, _ = hit(f, Attack("c1", "c2", given_attack=(11,), given_damage=(1,), given_critical=(50,), deflect=True))
    assert only(ev, W.CriticalRolled).total == 30


# --- sudden death -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("total", "band"),
    [
        (-5, "Grazing blow"),
        (1, "Grazing blow"),
        (20, "Grazing blow"),
        (21, "Grazing blow"),
        (30, "Grazing blow"),
        (31, "Seriously injured"),
        (40, "Seriously injured"),
        (41, "Critically wounded"),
        (65, "Critically wounded"),
        (66, "Dead"),
        (100, "Dead"),
        (135, "Dead"),
    ],
)
def test_sudden_death_band_edges(total, band):
    result, _ = W.sudden_death(total)
    assert result.startswith(band)
    assert ("21-30" in result) is (21 <= total <= 30)  # the gap is named in the log each time


def test_a_minion_past_0_wounds_adds_5_a_point_to_its_sudden_death_roll():
    # die 2 (SL 2 is not higher) + 6 = 8 against 3 Wounds: 5 beyond, +25: 20 becomes 45, critically wounded
    f = wh(p("Ulf", ws=48), p("Gob", ("minion",), wounds=3, t=0), p("Orc"))
    f, ev, _ = hit(f, Attack("c1", "c2", damage=6, given_attack=(21,), given_damage=(2,), given_critical=(20,)))
    crit = only(ev, W.CriticalRolled)
    assert crit.sudden and crit.total == 45 and crit.result.startswith("Critically wounded")
    assert {c.name for c in f.get("c2").conditions} == {"Critically wounded", "Prone", "Stunned"}


# --- the order during a round -------------------------------------------------------------------


def three(fortune: int = 0) -> Fight:
    f = new_fight("warhammer", seed=1)
    for name, ag in (("Ada", 40), ("Bea", 35), ("Cid", 30)):
        f, _ = apply(f, C.AddCombatant(name, stats=(("i", 50), ("ag", ag), ("fortune", fortune))))
    f, _ = apply(f, C.StartFight(initiative=(("c1", (5,)), ("c2", (15,)), ("c3", (25,)))))  # SL 5, 4, 3
    return f


def turns(f: Fight, n: int) -> tuple[Fight, list[str]]:
    seen = []
    for _ in range(n):
        f, ev = apply(f, C.NextTurn())
        seen += [e.name for e in ev if isinstance(e, E.TurnStarted)]
    return f, seen


def test_a_fortune_slot_survives_a_stat_edit_in_the_same_round():
    f = three(fortune=1)
    f, _ = apply(f, Fortune("c1", 2))  # Ada acts last this round
    f, seen = turns(f, 2)
    assert seen == ["Bea", "Cid"]
    f, _ = apply(f, C.EditCombatant("c2", stats=(("wounds", 8),)))
    f, _ = apply(f, C.SetInitiative("c2", 1))
    assert f.order == ("c2", "c3", "c1")
    f, seen = turns(f, 1)
    assert seen == ["Ada"]  # her bought slot still comes
    f, seen = turns(f, 2)  # round 2: by SL again, with Bea's new SL 1
    assert f.round == 2 and f.order == ("c1", "c3", "c2")


def test_a_new_sl_mid_round_never_costs_or_gives_a_turn():
    f = three()
    assert f.current == "c1"
    # Cid, still to act, gets a higher SL: he moves ahead of Bea, not ahead of Ada, who is acting
    f, _ = apply(f, C.SetInitiative("c3", 9))
    assert f.order == ("c1", "c3", "c2") and f.current == "c1"
    f, seen = turns(f, 3)
    assert seen == ["Cid", "Bea", "Cid"]  # round 2 starts with Cid's SL 9
    # a newcomer given a high SL mid-round acts after whoever is acting, this round
    f, _ = apply(f, C.AddCombatant("Dag", stats=(("i", 50),)))
    f, _ = apply(f, C.SetInitiative("c4", 12))
    assert f.order == ("c3", "c4", "c1", "c2")
    f, seen = turns(f, 3)
    assert seen == ["Dag", "Ada", "Bea"]


def test_a_champion_back_at_0_wounds_tests_willpower_again():
    f = wh(p("Ulf", ws=48), p("Boss", ("champion",), wounds=5, t=0, wp=40))
    f, _ = apply(f, C.Damage("c2", amount=5))
    f, _ = apply(f, W.KeepFighting("c2", given=(12,)))
    assert not W.collapsed(f.get("c2"))
    f, _ = apply(f, C.Heal("c2", amount=3))
    f, ev = apply(f, C.Damage("c2", amount=4))
    assert any(isinstance(e, E.ConditionEnded) and e.condition == "Fighting on" for e in ev)
    assert W.collapsed(f.get("c2"))  # until a new test
    f, _ = apply(f, W.KeepFighting("c2", given=(30,)))
    assert not W.collapsed(f.get("c2"))
    # through an attack the new test is rolled at once
    f, _ = apply(f, C.Heal("c2", amount=2))
    f, ev = apply(f, Attack("c1", "c2", given_attack=(21,), given_damage=(4,), given_willpower=(77,)))
    assert not only(list(ev), W.WillpowerTested).success and W.collapsed(f.get("c2"))


def test_extra_reactions_from_talents_but_one_reaction_per_attack():
    f = wh(p("Gob", ws=90), p("Orc", ws=90), p("Duellist", ws=50, ag=50, wounds=40, extra_reactions=1))
    assert f.get("c3").economy.reactions == 2
    swing = dict(given_attack=(12,), given_defence=(99,), given_damage=(1,))
    f, _, _ = hit(f, Attack("c1", "c3", defence="dodge", **swing))
    f = turn(f, "c2")
    f, _, _ = hit(f, Attack("c2", "c3", defence="dodge", **swing))
    assert f.get("c3").economy.reactions == 0
    f = turn(f, "c1")  # a new round: both back
    assert f.get("c3").economy.reactions == 2
