"""The round's fast and slow choices at once (`speeds`), and nobody going slow unseen."""

from __future__ import annotations

import pytest

from engine import RuleError, get_ruleset
from engine import commands as C
from engine import events as E
from engine.rules.cosmere.commands import ChooseSpeeds
from tests.engine.support import by_name, cid, log, of, play, setup


def add(name, kind="npc", side="enemy", flags=(), **stats):
    return C.AddCombatant(name, kind, side, stats=tuple(stats.items()), flags=tuple(flags))


def fight():
    f = setup(
        "cosmere",
        add("Kaladin", "pc", "party", speed=30),
        add("Shallan", "pc", "party"),
        add("Warrior"),
        add("Scout", speed=40),
        add("Chasmfiend", flags=("boss",)),
    )
    f, _ = play(f, C.StartFight())
    return f


def test_cosmere_speeds_sets_every_choice_in_one_command_and_names_them():
    f = fight()
    k, s, w, sc = (cid(f, n) for n in ("Kaladin", "Shallan", "Warrior", "Scout"))
    f, ev = play(f, ChooseSpeeds(fast=(k, sc), slow=(s, w)))
    assert [by_name(f, n).economy.speed for n in ("Kaladin", "Shallan", "Warrior", "Scout")] == [
        "fast", "slow", "slow", "fast"
    ]
    assert log(ev) == ["This round, fast: Kaladin, Scout", "This round, slow: Shallan, Warrior"]
    f, ev = play(f, C.NextTurn())
    assert f.current == k and by_name(f, "Kaladin").economy.actions == 2


def test_cosmere_speeds_refuses_all_or_nothing():
    f = fight()
    k, s, boss = cid(f, "Kaladin"), cid(f, "Shallan"), cid(f, "Chasmfiend")
    with pytest.raises(RuleError, match="boss"):
        play(f, ChooseSpeeds(fast=(k,), slow=(boss,)))
    with pytest.raises(RuleError, match="named twice"):
        play(f, ChooseSpeeds(fast=(k,), slow=(k,)))
    with pytest.raises(RuleError, match="at least one"):
        play(f, ChooseSpeeds())
    f, _ = play(f, ChooseSpeeds(fast=(k,), slow=(s,)), C.NextTurn())
    with pytest.raises(RuleError, match="taking its turn now"):
        play(f, ChooseSpeeds(slow=(k,)))
    assert by_name(f, "Kaladin").economy.speed == "fast"


def test_cosmere_next_waits_at_the_round_start_while_an_npc_is_undecided():
    f = setup("cosmere", add("Warrior"), add("Scout"))
    f, _ = play(f, C.StartFight(), ChooseSpeeds(slow=(cid(f, "Warrior"), cid(f, "Scout"))))
    f, _ = play(f, C.NextTurn(), C.NextTurn())
    assert f.current == cid(f, "Scout")
    # no PC at all, but the NPCs are undecided at the new round's start: next waits there for the GM
    f, ev = play(f, C.NextTurn())
    assert (f.round, f.phase, f.current) == (2, 0, "") and not of(ev, E.TurnStarted)
    # pressed again, they go slow, named
    f, ev = play(f, C.NextTurn())
    assert "Undecided, so slow this round: Warrior, Scout" in log(ev) and f.current == cid(f, "Warrior")


def test_cosmere_the_undecided_go_slow_named_in_the_log_when_their_fast_turns_end():
    f = setup("cosmere", add("Kaladin", "pc", "party"), add("Shallan", "pc", "party"), add("Warrior"))
    f, _ = play(f, C.StartFight())
    f, ev = play(f, C.NextTurn())  # nobody chose: next moves on, and says who goes slow
    said = log(ev)
    assert "Undecided, so slow this round: Kaladin, Shallan" in said
    assert "Undecided, so slow this round: Warrior" in said
    assert [by_name(f, n).economy.speed for n in ("Kaladin", "Shallan")] == ["slow", "slow"]
    assert f.current == cid(f, "Kaladin") and by_name(f, "Kaladin").economy.actions == 3


def test_cosmere_attack_is_offered_only_while_a_turn_is_under_way():
    f = fight()
    rs = get_ruleset("cosmere")
    attack = next(a for a in rs.actions(f) if a.key == "attack")
    assert not attack.available and "Nobody is taking a turn" in attack.reason
    f, _ = play(f, ChooseSpeeds(fast=(cid(f, "Kaladin"),)), C.NextTurn())
    attack = next(a for a in rs.actions(f) if a.key == "attack")
    assert attack.available
