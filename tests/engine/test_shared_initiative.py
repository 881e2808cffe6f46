"""Identical monsters share one initiative (issue 25 item 14): copies added `together` roll once, stand
side by side in the order with a turn each, and move together when one's initiative is set, unless the
GM splits one off (`alone`). d20 and Warhammer allow it; Cosmere and nine-phase have no initiative."""

from __future__ import annotations

import pytest

from engine import RuleError, apply
from engine import commands as C
from engine import events as E
from engine.events import together_label
from engine.history import History
from engine.state import Fight
from tests.engine.support import add, by_name, cid, log, of, play, setup


def names(f: Fight) -> list[str]:
    return [f.get(x).name for x in f.order]


def goblins(n: int = 4, **kw) -> C.AddCombatant:  # type: ignore[no-untyped-def]
    return C.AddCombatant("Goblin", stats=(("hp", 7), ("dex", 14)), count=n, together=True, **kw)


def test_copies_added_together_roll_once_and_say_so_in_one_line():
    f = setup("d20", add("Ayla", "pc", "party", dex=14), goblins())
    ids = [cid(f, f"Goblin {i}") for i in range(1, 5)]
    assert len({f.get(x).group for x in ids}) == 1 and f.get(ids[0]).group == ids[0]
    f, ev = play(f, C.StartFight(initiative=((cid(f, "Ayla"), (10,)), (ids[2], (12,)))))
    assert {by_name(f, f"Goblin {i}").initiative for i in range(1, 5)} == {14}
    rolled = of(ev, E.InitiativeRolled)
    assert len(rolled) == 2  # Ayla's and the goblins' one
    assert "Goblin 1-4 roll initiative together: 14 (1d20+2 = [12]+2 = 14 (entered))" in log(ev)
    # the die was typed for Goblin 3: the line is the group's, headed by the first of them
    assert rolled[1].who == ids[0] and rolled[1].names == ("Goblin 1", "Goblin 2", "Goblin 3", "Goblin 4")


def test_one_roll_moves_the_random_source_once():
    f = setup("d20", goblins(3))
    g, _ = play(f, C.StartFight())
    assert g.rng.counter == f.rng.counter + 1


def test_the_copies_stand_side_by_side_each_with_its_own_turn():
    # the copies differ in Dex (edited): a PC whose Dex falls between them would sort between them
    f = setup(
        "d20",
        C.AddCombatant("Goblin", count=2, together=True, copies=((("dex", 18),), (("dex", 8),))),
        add("Ayla", "pc", "party", dex=12),
    )
    totals = tuple((c.id, 14) for c in f.combatants)
    f, _ = play(f, C.StartFight(totals=totals[:1] + totals[2:]))
    assert names(f) == ["Goblin 1", "Goblin 2", "Ayla"]
    turns = []
    for _ in range(3):
        turns.append(f.get(f.current).name)
        f, _ = play(f, C.NextTurn())
    assert turns == ["Goblin 1", "Goblin 2", "Ayla"]


def test_two_dice_for_one_group_are_refused():
    f = setup("d20", goblins(2))
    init = tuple((c.id, (5,)) for c in f.combatants)
    with pytest.raises(RuleError, match="Goblin 1 and Goblin 2 share one initiative: give it for one of them only"):
        play(f, C.StartFight(initiative=init))


def started() -> Fight:
    f = setup("d20", add("Ayla", "pc", "party", dex=14), goblins(3), add("Orc", dex=10))
    ids = {c.name: c.id for c in f.combatants}
    init = ((ids["Ayla"], (10,)), (ids["Goblin 1"], (12,)), (ids["Orc"], (9,)))
    f, _ = play(f, C.StartFight(initiative=init))
    assert names(f) == ["Goblin 1", "Goblin 2", "Goblin 3", "Ayla", "Orc"]
    return f


def test_setting_one_moves_the_group_and_alone_splits_one_off():
    f = started()
    f, ev = play(f, C.SetInitiative(cid(f, "Goblin 2"), 5))
    assert log(ev) == ["Goblin 1-3 initiative 5 together (set by hand)"]
    assert names(f)[-3:] == ["Goblin 1", "Goblin 2", "Goblin 3"]
    f, ev = play(f, C.SetInitiative(cid(f, "Goblin 3"), 20, alone=True))
    assert log(ev) == ["Goblin 3 initiative 20 (set by hand, on its own now)"]
    assert names(f)[0] == "Goblin 3" and by_name(f, "Goblin 3").group == ""
    assert by_name(f, "Goblin 1").group == by_name(f, "Goblin 2").group != ""
    # now a change of Goblin 1 moves Goblin 2 along, not Goblin 3
    f, _ = play(f, C.SetInitiative(cid(f, "Goblin 1"), 11))
    assert (by_name(f, "Goblin 2").initiative, by_name(f, "Goblin 3").initiative) == (11, 20)
    # splitting one of the last two leaves both on their own
    f, _ = play(f, C.SetInitiative(cid(f, "Goblin 1"), 11, alone=True))
    assert by_name(f, "Goblin 1").group == by_name(f, "Goblin 2").group == ""
    with pytest.raises(RuleError, match="Goblin 2 shares its initiative with no one"):
        play(f, C.SetInitiative(cid(f, "Goblin 2"), 3, alone=True))


def test_moving_one_in_the_order_moves_the_block_or_changes_places_within_it():
    f = started()
    # to the bottom: the whole block goes, Goblin 3 where it was put (last)
    f, _ = play(f, C.Reorder(cid(f, "Goblin 3"), 4))
    assert names(f) == ["Ayla", "Orc", "Goblin 1", "Goblin 2", "Goblin 3"]
    # within the block: it changes places among its fellows only
    f, _ = play(f, C.Reorder(cid(f, "Goblin 3"), 2))
    assert names(f) == ["Ayla", "Orc", "Goblin 3", "Goblin 1", "Goblin 2"]
    # to the top, moving the one in the middle: the block starts at the top
    f, _ = play(f, C.Reorder(cid(f, "Goblin 1"), 0))
    assert names(f) == ["Goblin 3", "Goblin 1", "Goblin 2", "Ayla", "Orc"]


def test_added_together_to_a_fight_under_way_one_roll_in_one_command():
    f = started()
    h = History.start(f)
    ev = h.apply(C.AddCombatant("Wolf", stats=(("dex", 14),), count=2, together=True, initiative=(C.Initiative(),)))
    wolves = [c for c in h.state.combatants if c.name.startswith("Wolf")]
    assert wolves[0].initiative == wolves[1].initiative is not None
    assert [e.names for e in of(ev, E.InitiativeRolled)] == [("Wolf 1", "Wolf 2")]
    assert log(ev)[-1].startswith("Wolf 1-2 roll initiative together: ")
    order = names(h.state)
    assert order.index("Wolf 2") == order.index("Wolf 1") + 1
    h.undo()
    assert h.state == f
    with pytest.raises(RuleError, match="one initiative for all \\(2 given\\)"):
        apply(f, C.AddCombatant("Wolf", count=2, together=True, initiative=(C.Initiative(total=3),) * 2))
    # a typed total serves them all
    g, _ = play(f, C.AddCombatant("Wolf", count=2, together=True, initiative=(C.Initiative(total=16),)))
    assert names(g)[:2] == ["Wolf 1", "Wolf 2"]


@pytest.mark.parametrize(
    ("rules", "cmd", "match"),
    [
        ("d20", C.AddCombatant("Goblin", together=True), "needs several copies"),
        ("cosmere", C.AddCombatant("Goblin", count=2, together=True), "Cosmere has no initiative for copies to share"),
        ("ninephase", C.AddCombatant("Goblin", count=2, together=True), "Nine-phase has no initiative"),
    ],
)
def test_refused_where_it_makes_no_sense(rules: str, cmd: C.AddCombatant, match: str):
    with pytest.raises(RuleError, match=match):
        play(setup(rules), cmd)


def test_a_companion_shares_its_owners_initiative_and_no_other():
    f = setup("d20", add("Ayla", "pc", "party"))
    with pytest.raises(RuleError, match="shares no other"):
        play(f, C.AddCombatant("Wolf", count=2, together=True, owner=cid(f, "Ayla")))


def test_warhammer_copies_take_one_initiative_test():
    # the copies' Agility differs (edited); the Troll ties on SL with them all and on Agility with one
    agility = ((("ag", 40),), (("ag", 30),), (("ag", 20),))
    f = setup(
        "warhammer",
        add("Ulf", "pc", "party", wounds=12, ag=35, i=40),
        add("Troll", ag=30, i=35),
        C.AddCombatant("Goblin", stats=(("wounds", 7), ("i", 35)), count=3, together=True, copies=agility),
    )
    f, ev = play(f, C.StartFight(initiative=((cid(f, "Goblin 2"), (21,)), (cid(f, "Troll"), (21,)))))
    line = "Goblin 1-3 roll initiative together: 1 (1d100 = [21] = 21 (entered)) SL vs Initiative 35, success"
    assert line in log(ev)
    # it never stands between them: they are where the first of them stands
    assert names(f)[:4] == ["Goblin 1", "Goblin 2", "Goblin 3", "Troll"]
    f, _ = play(f, C.SetInitiative(cid(f, "Goblin 1"), 4))
    assert names(f)[:3] == ["Goblin 1", "Goblin 2", "Goblin 3"]


def test_the_group_label():
    assert together_label(("Goblin 1", "Goblin 2", "Goblin 3", "Goblin 4")) == "Goblin 1-4"
    assert together_label(("Goblin 3", "Goblin 4")) == "Goblin 3-4"
    assert together_label(("Goblin 1", "Goblin 3")) == "Goblin 1 and Goblin 3"
    assert together_label(("Goblin 1", "Orc 2", "Wolf")) == "Goblin 1, Orc 2 and Wolf"
    assert together_label(("Goblin",)) == "Goblin"
