"""Plain list through the engine's tests for every ruleset: the conformance test's random command
sequences (tests/engine/test_conformance.py) and the offers-and-economy checks
(tests/engine/test_actions_economy.py), run with their own machinery; then its rules, scripted."""

from __future__ import annotations

import importlib.metadata

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from plainlist.rules import ID, Shove, Shoved

import tests.engine.test_conformance as conformance
from engine import RuleError, apply, command_union, describe, event_union, get_ruleset, new_fight, ruleset_ids
from engine import commands as C
from engine.state import Fight
from tests.engine.test_actions_economy import by_key, check_actions, check_economy, items_of

SUPPRESS = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much]


def test_it_is_found_through_its_entry_point() -> None:
    points = {p.name: p.value for p in importlib.metadata.entry_points(group="fracas.rulesets")}
    assert points[ID] == "plainlist.plugin:PLUGIN"
    assert ruleset_ids()[-1] == ID and get_ruleset(ID).title == "Plain list"  # listed after the bundled
    assert Shove in get_ruleset(ID).handlers()
    assert type(get_ruleset(ID)).__module__ == "plainlist.rules"  # the installed package's, not a copy


@settings(max_examples=conformance.EXAMPLES, deadline=None, suppress_health_check=SUPPRESS)
@given(data=st.data())
def test_conformance_random_command_sequences(data: st.DataObject) -> None:
    conformance.run_sequence(data, ID, conformance.STEPS)


@settings(max_examples=12, deadline=None, suppress_health_check=SUPPRESS)
@given(data=st.data())
def test_actions_and_economy_agree_with_apply_over_random_fights(data: st.DataObject) -> None:
    """tests/engine/test_actions_economy.py's random fights, plus this ruleset's own agreements."""
    f = new_fight(ID, "Offers", data.draw(st.integers(0, 2**63 - 1)))
    first = conformance.opening(data.draw, ID)
    for i in range(len(first) + 30):
        check_actions(f)
        check_economy(f)
        check_plain(f)
        cmd = first[i] if i < len(first) else conformance.step(data.draw, f)
        try:
            f, _ = apply(f, cmd)
        except RuleError:
            continue


def accepts(f: Fight, cmd: C.Command) -> bool:
    try:
        apply(f, cmd)
    except RuleError:
        return False
    return True


def check_plain(f: Fight) -> None:
    """The offers and the economy items say what apply accepts: use, the reaction, Shove."""
    acts = by_key(f)
    live = f.started and not f.ended
    for c in f.combatants:
        items = items_of(f, c.id)
        a, r = items["action"], items["reaction"]
        assert (a.count, r.count) == (c.economy.actions, c.economy.reactions)
        if live:
            assert (a.state == "available") == accepts(f, C.UseAction(c.id, "action")), (a, c)
            assert (r.state == "available") == accepts(f, C.UseAction(c.id, "reaction")), (r, c)
        others = [o.id for o in f.combatants if o.id != c.id]
        if others:
            assert (c.id in acts["shove"].who) == accepts(f, Shove(c.id, others[0])), (c, acts["shove"])
    assert acts["use"].available == bool(acts["use"].who)


def fight(*adds: tuple[str, int]) -> Fight:
    f = new_fight(ID, "Plain", seed=5)
    for name, init in adds:
        f, _ = apply(f, C.AddCombatant(name, stats=(("hp", 12), ("init", init))))
    return f


def test_initiative_order_highest_first_ties_in_the_order_added() -> None:
    f = fight(("Ann", 5), ("Bob", 12), ("Cid", 5))
    f, ev = apply(f, C.StartFight())
    assert [f.get(x).name for x in f.order] == ["Bob", "Ann", "Cid"]
    assert f.get(f.current).name == "Bob" and f.round == 1
    f, _ = apply(f, C.NextTurn())
    f, _ = apply(f, C.NextTurn())
    f, ev = apply(f, C.NextTurn())
    assert f.round == 2 and f.get(f.current).name == "Bob"
    # typed-in initiative wins over the stat; set by hand, the order is sorted again
    g, _ = apply(fight(("Ann", 5), ("Bob", 12)), C.StartFight(initiative=(("c1", (20,)),)))
    assert [g.get(x).name for x in g.order] == ["Ann", "Bob"]
    g, _ = apply(g, C.SetInitiative("c1", 1))
    assert [g.get(x).name for x in g.order] == ["Bob", "Ann"] and g.get(g.current).name == "Ann"
    with pytest.raises(RuleError, match="no surprise"):
        apply(fight(("Ann", 5)), C.StartFight(surprised=("c1",)))


def test_one_action_and_one_reaction_a_turn() -> None:
    f, _ = apply(fight(("Ann", 12), ("Bob", 5)), C.StartFight())
    f, _ = apply(f, C.UseAction("c1", "action", "Strike"))
    with pytest.raises(RuleError, match="one action"):
        apply(f, C.UseAction("c1", "action"))
    with pytest.raises(RuleError, match="not Bob's turn"):
        apply(f, C.UseAction("c2", "action"))
    f, _ = apply(f, C.UseAction("c2", "reaction"))  # off its turn
    with pytest.raises(RuleError, match="already used its reaction"):
        apply(f, C.UseAction("c2", "reaction"))
    assert get_ruleset(ID).describe_economy(f.get("c2")) == "A0 R0"
    f, _ = apply(f, C.NextTurn())  # Bob's turn: both back
    assert (f.get("c2").economy.actions, f.get("c2").economy.reactions) == (1, 1)
    with pytest.raises(RuleError, match="not 'bonus'"):
        apply(f, C.UseAction("c2", "bonus"))


def test_shove_costs_the_action_and_knocks_the_target_prone() -> None:
    f, _ = apply(fight(("Ann", 12), ("Bob", 5)), C.StartFight())
    assert by_key(f)["shove"].who == ("c1",)
    f, ev = apply(f, Shove("c1", "c2"))
    assert isinstance(ev[0], Shoved) and describe(ev[0]) == "Ann shoves Bob to the ground"
    assert f.get("c2").has("Prone") and f.get("c1").economy.actions == 0
    assert not by_key(f)["shove"].available
    with pytest.raises(RuleError, match="one action"):
        apply(f, Shove("c1", "c2"))
    with pytest.raises(RuleError, match="itself"):
        apply(f, Shove("c1", "c1"))
    line = msgspec.json.encode(ev[0])
    assert msgspec.json.decode(line, type=event_union()) == ev[0]
    cmd = msgspec.json.decode(b'{"cmd":"plain_shove","who":"c1","target":"c2"}', type=command_union())
    assert cmd == Shove("c1", "c2")


def test_hit_points_and_the_turn_passing_when_the_acting_one_leaves() -> None:
    f, _ = apply(fight(("Ann", 12), ("Bob", 5), ("Cid", 1)), C.StartFight())
    f, _ = apply(f, C.Damage("c2", 20))
    assert f.get("c2").hp == 0 and f.get("c2").down
    f, _ = apply(f, C.RemoveCombatant("c1"))
    assert f.get(f.current).name == "Bob" and f.order == ("c2", "c3")
    f, _ = apply(f, C.AddCombatant("Dan", stats=(("init", 50),)))
    assert f.order[0] == "c4" and f.get(f.current).name == "Bob"
