"""What the engine says may be done now (`Ruleset.actions`) and a combatant's economy as display items
(`Ruleset.economy_items`), per ruleset (issue 12): the app asks these instead of re-deriving the rules.

Random fights (the conformance test's openings and steps) check at every state that `actions()` never
raises, agrees with what `apply` accepts for the key commands, and that the economy items agree with
the Economy fields and with `describe_economy`.
"""

from __future__ import annotations

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import History, RuleError, apply, get_ruleset, new_fight, ruleset_ids
from engine import commands as C
from engine.rules.cosmere.commands import ChooseSpeed, StartTurn
from engine.rules.d20.combat import Ready, down_and_out, incapacitated, reactions_barred_by
from engine.rules.ninephase.commands import Activity
from engine.rules.warhammer.commands import Fortune
from engine.ruleset import ActionInfo, EconomyItem, join_economy
from engine.state import Fight
from tests.engine.support import add, cid, play, setup
from tests.engine.test_conformance import opening, step

STATES = ("available", "spent", "barred")


def accepts(f: Fight, cmd: C.Command) -> bool:
    try:
        apply(f, cmd)
    except RuleError:
        return False
    return True


def by_key(f: Fight, history: History | None = None) -> dict[str, ActionInfo]:
    acts = get_ruleset(f.ruleset).actions(f, history)
    keys = [a.key for a in acts]
    assert len(keys) == len(set(keys)), f"an action is offered twice: {keys}"
    return {a.key: a for a in acts}


def items_of(f: Fight, who: str) -> dict[str, EconomyItem]:
    items = get_ruleset(f.ruleset).economy_items(f, who)
    keys = [i.key for i in items]
    assert len(keys) == len(set(keys)), f"an economy item appears twice: {keys}"
    return {i.key: i for i in items}


# --- the checks, at any state -----------------------------------------------------------------------


def check_actions(f: Fight) -> None:
    acts = by_key(f)
    ids = {c.id for c in f.combatants}
    for a in acts.values():
        assert a.available == (not a.reason), f"{a.key}: a reason exactly when it is not available ({a})"
        assert a.reason == "" or (a.reason.strip() and "\n" not in a.reason), a
        assert set(a.who) <= ids, f"{a.key} names someone not in the fight: {a.who}"
        assert a.available or not a.who, f"{a.key}: nobody may do what is not available"
    # the key commands: what is offered is what apply accepts, and the other way round
    assert acts["next"].available == accepts(f, C.NextTurn()), acts["next"]
    assert acts["start"].available == accepts(f, C.StartFight()), acts["start"]
    assert acts["end_fight"].available == accepts(f, C.EndFight()), acts["end_fight"]
    for c in f.combatants:
        if "fast_slow" in acts:
            assert (c.id in acts["fast_slow"].who) == accepts(f, ChooseSpeed(c.id, "slow")), (c, acts["fast_slow"])
        if "take_turn" in acts:
            assert (c.id in acts["take_turn"].who) == accepts(f, StartTurn(c.id)), (c, acts["take_turn"])
        if "fortune" in acts:
            assert (c.id in acts["fortune"].who) == accepts(f, Fortune(c.id, 0)), (c, acts["fortune"])
        if "activity" in acts:
            free = Activity(c.id, "A free look", cost=0)  # costs nothing: only the phase rules decide
            assert (c.id in acts["activity"].who) == accepts(f, free), (c, acts["activity"])
        if "uncondition" in acts:
            assert (c.id in acts["uncondition"].who) == bool(c.conditions)
        if "initiative" in acts and c.id in acts["initiative"].who:
            assert accepts(f, C.Reorder(c.id, 0))


def check_economy(f: Fight) -> None:
    rs = get_ruleset(f.ruleset)
    for c in f.combatants:
        items = items_of(f, c.id)
        e = c.economy
        for i in items.values():
            assert i.state in STATES, i
            assert i.state != "barred" or i.why, f"barred without a why: {i}"
            assert i.label.strip() or i.key == "turn", i
        # the compact line is the items' texts, and whose turn it is does not change it
        assert rs.describe_economy(c) == join_economy(tuple(items.values()))
        if f.ruleset not in ("d20", "cosmere", "ninephase", "warhammer"):
            continue  # another ruleset's items: only the general rules above
        r = items["reaction"]
        assert r.state != "available" or e.reactions > 0, (r, e)
        assert (r.state == "spent") == (e.reactions <= 0 and r.state != "barred"), (r, e)
        a = items["action"]
        assert a.state != "available" or e.actions > 0, (a, e)
        assert (a.count, r.count) == (e.actions, e.reactions), (a, r, e)
        if f.ruleset == "d20":
            barred = reactions_barred_by(c)
            gone = down_and_out(c)
            assert (r.state == "barred") == bool(e.reactions > 0 and (barred or gone)), (r, c.conditions)
            assert r.state != "barred" or r.why == (f"{barred} bars reactions" if barred else r.why)
            mine = f.current == c.id and e.actions > 0 and not incapacitated(c) and not gone
            assert (a.state == "available") == mine, (a, e)
            if f.started and not f.ended:
                assert (r.state == "available") == accepts(f, C.UseAction(c.id, "reaction")), (r, c)
        if f.ruleset == "cosmere":
            if f.started and not f.ended:
                assert (r.state == "available") == accepts(f, C.UseAction(c.id, "reaction")), (r, c)
            if a.state == "available":
                assert accepts(f, C.UseAction(c.id, "action", cost=1)), (a, c)
        if f.ruleset == "ninephase":
            assert a.count == e.actions and a.total == 3
        if f.ruleset == "ninephase" and f.started and not f.ended:
            if r.state == "available":
                assert accepts(f, Activity(c.id, "A quick duck", cost=0, reaction=True)), (r, c)
            if a.state == "available":
                assert accepts(f, Activity(c.id, "A quick step", cost=1)), (a, c)
            if r.state == "barred":
                assert not accepts(f, Activity(c.id, "A quick duck", cost=0, reaction=True)), (r, c)
        if f.ruleset == "warhammer":
            assert ("parries" in items) == (e.parries > 0) and ("defensive" in items) == (e.defensive > 0)
            assert r.value == str(e.reactions)


@pytest.mark.parametrize("rules", ruleset_ids())
@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
)
@given(data=st.data())
def test_actions_and_economy_agree_with_apply_over_random_fights(rules, data):
    f = new_fight(rules, "Offers", data.draw(st.integers(0, 2**63 - 1)))
    first = opening(data.draw, rules)
    for i in range(len(first) + 30):
        check_actions(f)
        check_economy(f)
        cmd = first[i] if i < len(first) else step(data.draw, f)
        try:
            f, _ = apply(f, cmd)
        except RuleError:
            continue


# --- scripted: one situation per ruleset -------------------------------------------------------------


def test_generic_actions_before_the_fight_and_undo_from_the_history():
    f = new_fight("d20", "Empty")
    acts = by_key(f)
    assert not acts["start"].available
    assert acts["start"].reason == "Add at least one combatant before starting the fight."
    assert acts["damage"].reason == "There is nobody in the fight yet."
    assert acts["add"].available and acts["roll"].available
    assert "undo" not in acts
    h = History.start(f)
    h.apply(C.AddCombatant("Orc"))
    acts = by_key(h.state, h)
    assert acts["undo"].available and not acts["redo"].available and acts["redo"].reason == "Nothing to redo."
    assert acts["start"].available and acts["damage"].who == (cid(h.state, "Orc"),)
    assert not acts["next"].available and acts["next"].reason == "The fight has not started yet: start it first."


def test_each_ruleset_offers_its_own_actions():
    offered = {rid: set(by_key(new_fight(rid)).keys()) for rid in ("d20", "cosmere", "ninephase", "warhammer")}
    assert {"use", "attack", "owed", "ready", "release", "initiative"} <= offered["d20"]
    assert {"use", "attack", "fast_slow", "take_turn", "fall", "terrain", "grant"} <= offered["cosmere"]
    assert {"activity"} <= offered["ninephase"] and "use" not in offered["ninephase"]
    assert {"use", "attack", "fortune", "wh_critical", "willpower", "initiative"} <= offered["warhammer"]
    assert "fast_slow" not in offered["d20"] and "fortune" not in offered["cosmere"]


def test_d20_economy_items_confused_bars_reactions():
    f = setup("d20", add("Kal", "pc", "party", dex=18), add("Orc", dex=1))
    f, _ = play(f, C.StartFight(initiative=((cid(f, "Kal"), (15,)), (cid(f, "Orc"), (2,)))))
    kal, orc = cid(f, "Kal"), cid(f, "Orc")
    f, _ = play(f, C.AddCondition(orc, "Confused"))
    items = items_of(f, orc)
    assert items["reaction"] == EconomyItem(
        "reaction", "R", "1", "barred", "Confused bars reactions", "Reaction", "barred (Confused)", "R1(barred)", "R", 1
    )
    assert items["action"].state == "barred" and items["action"].why == "Not its turn"
    assert not items["action"].sheet and items["turn"].detail == "Not its turn"
    mine = items_of(f, kal)
    assert [(i.key, i.state) for i in mine.values() if i.row] == [
        ("action", "available"), ("bonus", "available"), ("move", "available"), ("reaction", "available")
    ]
    assert mine["move"].detail == "30 of 30 ft" and mine["move"].value == "30 ft"
    assert mine["gambit"].row is False
    f, _ = play(f, C.UseAction(kal, "move", cost=10))
    assert items_of(f, kal)["move"].text == "M20ft"
    assert get_ruleset("d20").describe_economy(f.get(kal)) == "A1 B1 M20ft R1"
    assert get_ruleset("d20").describe_economy(f.get(orc)) == "A0 B0 m R1(barred)"  # its turn comes later
    acts = by_key(f)
    assert acts["use"].who == (kal,)  # the Orc's reaction is barred
    assert acts["attack"].who == (kal,)


def test_cosmere_economy_items_fast_turn_and_offers():
    f = setup("cosmere", add("Kal", "pc", "party"), add("Brute"))
    f, _ = play(f, C.StartFight())
    kal, brute = cid(f, "Kal"), cid(f, "Brute")
    acts = by_key(f)
    assert set(acts["take_turn"].who) == {kal, brute} or kal in acts["take_turn"].who
    f, _ = play(f, StartTurn(kal, "fast"))
    items = items_of(f, kal)
    assert items["speed"].value == "fast" and items["speed"].detail == "Fast turn" and items["speed"].text == "F"
    assert (items["action"].count, items["action"].total, items["action"].detail) == (2, 2, "2 of 2 left")
    other = items_of(f, brute)
    assert other["action"].mark == "···" and other["action"].state == "barred"
    assert kal not in by_key(f)["fast_slow"].who and kal not in by_key(f)["take_turn"].who
    assert get_ruleset("cosmere").describe_economy(f.get(kal)) == "F A2 R1"


def test_ninephase_economy_items_one_turn_a_phase():
    f = setup("ninephase", add("Ann", "pc", "party"), add("Bob"))
    f, _ = play(f, C.StartFight())
    ann = cid(f, "Ann")
    assert ann in by_key(f)["activity"].who
    f, _ = play(f, Activity(ann, "Strike", cost=1))
    items = items_of(f, ann)
    assert items["action"].state == "barred" and "one turn a phase" in items["action"].why
    assert items["action"].detail == "2 of 3 left this round" and items["master"].text == "M"
    assert ann not in by_key(f)["activity"].who
    assert get_ruleset("ninephase").describe_economy(f.get(ann)) == "A2 R1 M"


def test_warhammer_fortune_only_at_the_start_of_a_round():
    f = setup("warhammer", add("Ann", "pc", "party", fortune=2), add("Orc"))
    f, _ = play(f, C.StartFight())
    ann = cid(f, "Ann")
    acts = by_key(f)
    if f.phase == -1 and not f.current:
        assert acts["fortune"].who == (ann,)
    f, _ = play(f, C.NextTurn())
    acts = by_key(f)
    assert not acts["fortune"].available
    assert acts["fortune"].reason == "Fortune is spent at the start of a round, before anyone acts."
    items = items_of(f, f.current)
    assert items["action"].mark == "A" and items["reaction"].mark == "R1"


def test_items_are_plain_frozen_data():
    f = setup("warhammer", add("Orc"))
    for item in get_ruleset("warhammer").economy_items(f, cid(f, "Orc")):
        assert msgspec.json.decode(msgspec.json.encode(item), type=EconomyItem) == item
        with pytest.raises(AttributeError):
            item.value = "x"  # type: ignore[misc]


def test_d20_barred_items_say_why_on_the_sheet():
    """Incapacitated on its own turn: the action, bonus action and move are barred, and their sheet
    text says so; down and out, the reaction is barred (down)."""
    f = setup("d20", add("Kal", "pc", "party", dex=18), add("Orc", dex=1))
    f, _ = play(f, C.StartFight(initiative=((cid(f, "Kal"), (15,)), (cid(f, "Orc"), (2,)))))
    kal, orc = cid(f, "Kal"), cid(f, "Orc")
    f, _ = play(f, C.AddCondition(kal, "Stunned"))
    items = items_of(f, kal)
    for key in ("action", "bonus", "move", "reaction"):
        assert (items[key].state, items[key].detail) == ("barred", "barred (Stunned)"), items[key]
    assert items["move"].why == "Stunned: cannot move" and items["action"].why == "Stunned: no actions"
    f, _ = play(f, C.Damage(orc, 1000))
    r = items_of(f, orc)["reaction"]
    assert (r.state, r.detail, r.why) == ("barred", "barred (down)", "Down at 0 hit points: does nothing")


def test_d20_readied_action_is_shown_as_typed():
    f = setup("d20", add("Kal", "pc", "party", dex=18), add("Orc", dex=1))
    f, _ = play(f, C.StartFight(initiative=((cid(f, "Kal"), (15,)), (cid(f, "Orc"), (2,)))))
    kal = cid(f, "Kal")
    f, _ = play(f, Ready(kal, "Attack", "when the orc comes"))
    ready = items_of(f, kal)["ready"]
    assert f.get(kal).economy.ready and "the orc comes" in ready.detail
    assert (ready.name, ready.detail, ready.plain, ready.row) == ("Readied:", f.get(kal).economy.ready, True, False)


def test_ninephase_barred_items_say_one_turn_a_phase_on_the_sheet():
    f = setup("ninephase", add("Ann", "pc", "party"), add("Bob"))
    f, _ = play(f, C.StartFight())
    ann, bob = cid(f, "Ann"), cid(f, "Bob")
    items = items_of(f, ann)
    assert (items["reaction"].detail, items["master"].detail) == ("available", "available")
    assert items["action"].plain and not items["reaction"].plain
    f, _ = play(f, Activity(ann, "Strike", cost=1))
    items = items_of(f, ann)
    assert items["reaction"].detail == items["master"].detail == "barred (one turn a phase)"
    assert items["action"].plain and items["action"].detail == "2 of 3 left this round"
    f, _ = play(f, C.Damage(bob, 1000), C.NextTurn())
    items = items_of(f, bob)
    assert items["reaction"].state == "barred" and items["reaction"].detail == "barred (down)"


def test_warhammer_bonus_parries_and_cosmere_counts_are_plain_counts():
    f = setup("warhammer", C.AddCombatant("Ann", kind="pc", side="party", flags=("shield",)), add("Orc"))
    f, _ = play(f, C.StartFight())
    p = items_of(f, cid(f, "Ann"))["parries"]
    assert (p.name, p.detail, p.plain, p.text, p.mark) == ("", "Bonus parries 1", True, "+P1", "P1")
    assert items_of(f, cid(f, "Ann"))["reaction"].plain
    f = setup("cosmere", add("Kal", "pc", "party"), add("Brute"))
    f, _ = play(f, C.StartFight())
    f, _ = play(f, StartTurn(cid(f, "Kal"), "fast"))
    assert items_of(f, cid(f, "Kal"))["action"].plain
