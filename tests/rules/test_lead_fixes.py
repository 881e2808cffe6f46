"""A Fortune-bought slot lasts one round, even between combatants tied on SL and Agility."""

from __future__ import annotations

from engine import commands as C
from engine.core import apply, new_fight
from engine.rules.warhammer.commands import Fortune


def _fight():
    f = new_fight("warhammer", "ties", 1)
    for name in ("Ada", "Bea", "Cid"):
        f, _ = apply(f, C.AddCombatant(name, kind="pc", side="party", stats=(("i", 30), ("ag", 30), ("fortune", 1))))
    # all three roll 15: SL 2, Agility 30: a three-way tie kept in the order they were added
    f, _ = apply(f, C.StartFight(initiative=(("c1", (15,)), ("c2", (15,)), ("c3", (15,)))))
    return f


def test_warhammer_fortune_slot_between_exact_ties_lasts_one_round() -> None:
    f = _fight()
    assert f.order == ("c1", "c2", "c3")
    f, _ = apply(f, Fortune("c3", 0))
    assert f.order == ("c3", "c1", "c2")
    for _ in range(4):  # three turns, then round 2 (which pauses for Fortune: Ada and Bea have some)
        f, _ = apply(f, C.NextTurn())
    assert f.round == 2
    assert f.order == ("c1", "c2", "c3")


def test_warhammer_gm_order_on_a_tie_lasts_beyond_the_round() -> None:
    f = _fight()
    f, _ = apply(f, C.Reorder("c2", 0))
    assert f.order == ("c2", "c1", "c3")
    for _ in range(4):
        f, _ = apply(f, C.NextTurn())
    assert f.round == 2
    assert f.order == ("c2", "c1", "c3")


def test_conditions_timed_on_a_removed_combatants_turns_end_when_it_leaves() -> None:
    from engine.state import Duration

    f = _fight()
    f, _ = apply(f, C.AddCondition("c1", "Rattled", Duration("turn_end", "c3", 2)))
    f, ev = apply(f, C.RemoveCombatant("c3"))
    assert not f.get("c1").conditions
    assert any("left the fight" in getattr(e, "reason", "") for e in ev)


def test_initiative_cannot_be_set_in_rulesets_without_one() -> None:
    import pytest

    from engine import RuleError

    for rules in ("cosmere", "ninephase"):
        f = new_fight(rules, "x", 1)
        f, _ = apply(f, C.AddCombatant("Ann"))
        with pytest.raises(RuleError, match="no initiative"):
            apply(f, C.SetInitiative("c1", 12))


def test_d20_dropped_by_its_own_bleeding_rolls_no_confused_d10() -> None:
    from engine.commands import GivenRoll

    f = new_fight("d20", "bleed", 1)
    f, _ = apply(f, C.AddCombatant("Ann", kind="pc", side="party", stats=(("hp", 2), ("dex", 18))))
    f, _ = apply(f, C.AddCombatant("Orc", stats=(("dex", 1),)))
    f, _ = apply(f, C.StartFight(initiative=(("c1", (1,)), ("c2", (20,)))))
    assert f.current == "c2"
    f, _ = apply(f, C.AddCondition("c1", "Bleeding"))
    f, _ = apply(f, C.AddCondition("c1", "Confused"))
    f, ev = apply(f, C.NextTurn(rolls=(GivenRoll("c1", "Bleeding", dice=(3,)),)))
    assert f.current == "c1" and f.get("c1").hp == 0
    texts = [getattr(e, "what", "") for e in ev]
    assert "Bleeding" in texts and "Confused" not in texts


def _duel():
    f = new_fight("d20", "duel", 1)
    f, _ = apply(f, C.AddCombatant("Ann", kind="pc", side="party", stats=(("dex", 18),)))
    f, _ = apply(f, C.AddCombatant("Orc", stats=(("dex", 1),)))
    f, _ = apply(f, C.StartFight(initiative=(("c1", (20,)), ("c2", (1,)))))
    assert f.current == "c1"
    return f


def test_d20_dash_before_moving_gives_two_moves() -> None:
    import pytest

    from engine import RuleError

    f = _duel()
    f, _ = apply(f, C.UseAction("c1", "action", "Dash"))
    f, _ = apply(f, C.UseAction("c1", "move"))
    f, _ = apply(f, C.UseAction("c1", "move"))
    with pytest.raises(RuleError, match="already moved"):
        apply(f, C.UseAction("c1", "move"))


def test_d20_dodge_ends_at_the_start_of_its_next_turn_even_a_lost_one() -> None:
    f = _duel()
    f, _ = apply(f, C.UseAction("c1", "action", "Dodge"))
    assert f.get("c1").economy.dodging
    f, _ = apply(f, C.NextTurn())
    f, _ = apply(f, C.AddCondition("c1", "Stunned"))
    f, ev = apply(f, C.NextTurn())  # Ann's round-2 turn is lost to Stunned
    assert not f.get("c1").economy.dodging
