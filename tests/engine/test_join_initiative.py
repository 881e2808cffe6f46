"""Initiative at the table (issue 14, items 3 and 4): a total called out at the start, and a creature
added to a fight under way placed in the order by its own initiative, in the same one command."""

from __future__ import annotations

import pytest

from engine import RuleError
from engine import commands as C
from engine import events as E
from engine.history import History
from tests.engine.support import add, by_name, cid, play, setup


def names(f) -> list[str]:  # type: ignore[no-untyped-def]
    """The turn order, by name."""
    return [f.get(x).name for x in f.order]


def d20_fight():
    f = setup("d20", add("Ana", "pc", "party", dex=14), add("Cy", dex=10), add("Di", dex=10))
    init = ((cid(f, "Cy"), (5,)), (cid(f, "Di"), (9,)))
    f, _ = play(f, C.StartFight(initiative=init, totals=((cid(f, "Ana"), 17),)))
    return f


def test_a_total_called_out_at_the_start_is_kept_as_it_is():
    f = d20_fight()
    assert by_name(f, "Ana").initiative == 17  # not 17 + Dex +2
    assert names(f) == ["Ana", "Di", "Cy"]


def test_the_start_refuses_a_die_and_a_total_for_one_combatant():
    f = setup("d20", add("Ana", "pc", "party"))
    with pytest.raises(RuleError, match="not both"):
        play(f, C.StartFight(initiative=((cid(f, "Ana"), (5,)),), totals=((cid(f, "Ana"), 12),)))


def test_a_ruleset_without_initiative_refuses_a_total():
    f = setup("cosmere", add("Kal", "pc", "party"))
    with pytest.raises(RuleError, match="no initiative total"):
        play(f, C.StartFight(totals=((cid(f, "Kal"), 12),)))


def test_a_newcomer_with_a_die_is_placed_by_it_in_one_command():
    f = d20_fight()
    # Dex 10: the die is the total; 12 sits between Ana's 17 and Di's 9
    f2, ev = play(f, C.AddCombatant("Orc", stats=(("dex", 10),), initiative=(C.Initiative(dice=(12,)),)))
    assert by_name(f2, "Orc").initiative == 12
    assert names(f2) == ["Ana", "Orc", "Di", "Cy"]
    rolled = [e for e in ev if isinstance(e, E.InitiativeRolled)]
    assert len(rolled) == 1 and rolled[0].roll is not None and rolled[0].roll.entered
    # one command: one undo step takes the newcomer and its place back
    h = History.start(f)
    h.apply(C.AddCombatant("Orc", initiative=(C.Initiative(total=30),)))
    assert names(h.state)[0] == "Orc"
    h.undo()
    assert "Orc" not in [c.name for c in h.state.combatants]


def test_copies_roll_one_each_or_share_a_typed_one():
    f = d20_fight()
    f2, ev = play(f, C.AddCombatant("Gob", count=3, initiative=(C.Initiative(),)))
    rolled = [e for e in ev if isinstance(e, E.InitiativeRolled)]
    assert [e.name for e in rolled] == ["Gob 1", "Gob 2", "Gob 3"]
    assert all(e.roll is not None and not e.roll.entered for e in rolled)
    assert f2.rng != f.rng  # the fight's dice were spent, one roll per copy
    f3, _ = play(f, C.AddCombatant("Gob", count=3, initiative=(C.Initiative(total=11),)))
    assert {by_name(f3, f"Gob {i}").initiative for i in (1, 2, 3)} == {11}
    f4, _ = play(
        f, C.AddCombatant("Gob", count=2, initiative=(C.Initiative(total=20), C.Initiative(total=1)))
    )
    assert names(f4)[0] == "Gob 1" and names(f4)[-1] == "Gob 2"


def test_without_an_initiative_the_newcomer_joins_last_as_before():
    f = d20_fight()
    f2, _ = play(f, C.AddCombatant("Orc"))
    assert by_name(f2, "Orc").initiative is None and names(f2)[-1] == "Orc"


@pytest.mark.parametrize(
    ("cmd", "message"),
    [
        (C.AddCombatant("Gob", count=3, initiative=(C.Initiative(), C.Initiative())), "one for each"),
        (C.AddCombatant("Gob", initiative=(C.Initiative(dice=(3,), total=4),)), "not both"),
        (C.AddCombatant("Gob", initiative=(C.Initiative(dice=(21,)),)), "initiative"),
        (C.AddCombatant("Gob", initiative=(C.Initiative(total=99_999),)), "believable"),
    ],
)
def test_a_bad_initiative_is_refused_and_nothing_is_added(cmd: C.AddCombatant, message: str) -> None:
    f = d20_fight()
    with pytest.raises(RuleError, match=message):
        play(f, cmd)


def test_before_the_start_and_in_rulesets_without_initiative_it_is_refused():
    f = setup("d20", add("Ana", "pc", "party"))
    with pytest.raises(RuleError, match="when the fight starts"):
        play(f, C.AddCombatant("Orc", initiative=(C.Initiative(),)))
    g = setup("cosmere", add("Kal", "pc", "party"))
    g, _ = play(g, C.StartFight())
    with pytest.raises(RuleError, match="no initiative"):
        play(g, C.AddCombatant("Orc", initiative=(C.Initiative(),)))


def test_a_companion_is_not_given_one():
    f = d20_fight()
    with pytest.raises(RuleError, match="owner's initiative"):
        play(f, C.AddCombatant("Wolf", owner=cid(f, "Ana"), initiative=(C.Initiative(),)))


def test_warhammer_places_a_newcomer_by_its_initiative_test():
    f = setup("warhammer", add("Ana", "pc", "party", i=40), add("Gob", i=30))
    f, _ = play(f, C.StartFight(initiative=((cid(f, "Ana"), (35,)), (cid(f, "Gob"), (25,)))))
    # d100 05 against Initiative 60: SL +6 (tens 6 - 0), ahead of everyone still to act
    f2, ev = play(f, C.AddCombatant("Orc", stats=(("i", 60),), initiative=(C.Initiative(dice=(5,)),)))
    orc = by_name(f2, "Orc")
    assert orc.initiative == 6 and f2.order.index(orc.id) < f2.order.index(cid(f2, "Gob"))
    # an SL called out is kept as it is
    f3, _ = play(f, C.AddCombatant("Orc", initiative=(C.Initiative(total=-3),)))
    assert by_name(f3, "Orc").initiative == -3


def test_the_script_encoding_round_trips_the_new_fields():
    import msgspec

    cmd = C.AddCombatant("Orc", initiative=(C.Initiative(total=12), C.Initiative(dice=(4,))), count=2)
    back = msgspec.json.decode(msgspec.json.encode(cmd), type=C.command_union())
    assert back == cmd
    start = C.StartFight(totals=(("c1", 12),))
    assert msgspec.json.decode(msgspec.json.encode(start), type=C.command_union()) == start


def test_only_a_ruleset_with_its_own_roll_takes_a_total_or_a_newcomers_initiative():
    from plainlist.rules import PlainList

    from engine import get_ruleset

    assert get_ruleset("d20").rolls_initiative() and get_ruleset("warhammer").rolls_initiative()
    assert not get_ruleset("cosmere").rolls_initiative() and not get_ruleset("ninephase").rolls_initiative()
    # an initiative number but no roll of its own (the fifth, test-only ruleset): the dialogs do not
    # offer a total or a newcomer's initiative, which it could not read
    assert PlainList.has_initiative and not PlainList().rolls_initiative()


def test_d20_a_companion_still_acts_right_after_its_owner_when_a_newcomer_joins_above() -> None:
    """Play-test: goblins joining above Brannoc during his turn took the turn before his Grey Wolf.
    The newcomer above still acts this round (docs/rules/d20.md), but after the companion."""
    import msgspec

    import engine.library as L
    from engine import apply
    from saves.demo import demo_history

    f = demo_history("d20").state
    f, _ = apply(f, C.StartFight())
    while f.get(f.current).name != "Brannoc":
        f, _ = apply(f, C.NextTurn())
    sb = next(x for x in L.starter("d20") if x.name == "Goblin")
    add = msgspec.structs.replace(L.to_add(sb, 2)[0], initiative=(C.Initiative(total=25), C.Initiative(total=1)))
    f, _ = apply(f, add)
    seen = []
    this_round = f.round
    while True:
        f, _ = apply(f, C.NextTurn())
        if f.round != this_round:
            break
        seen.append(f.get(f.current).name)
    assert seen[:2] == ["Grey Wolf", "Goblin 1"]
    assert seen.count("Goblin 1") == 1 and seen[-1] == "Goblin 2"  # everyone once, nobody skipped
