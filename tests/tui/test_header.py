"""The header line: round and whose turn come first (issue 14, item 9); on a narrow screen the
fight's name gives way first, then the ruleset's title; the round and whose turn it is stay, and
nothing runs past the width."""

from __future__ import annotations

from engine import commands as C
from engine import get_ruleset
from saves.demo import demo_history
from tui.panes import header_text


def _cosmere_in_a_turn():  # type: ignore[no-untyped-def]
    f = demo_history("cosmere", 3).state
    from engine import apply

    f, _ = apply(f, C.StartFight())
    while not f.current:
        f, _ = apply(f, C.NextTurn())
    return f


def test_a_long_name_is_shortened_first_and_the_turn_is_kept() -> None:
    f = _cosmere_in_a_turn()
    rs = get_ruleset(f.ruleset)
    who = f.get(f.current).name
    wide = header_text(f, rs, width=200).plain
    assert wide.startswith(f"Round {f.round}") and wide.index(who) < wide.index(f.name) < wide.index("Cosmere")
    for width in (64, 60):
        t = header_text(f, rs, width=width).plain
        assert len(t) <= width, (width, t)
        assert who in t, (width, t)  # whose turn it is survives
    # with room for the turn and a short name, the ruleset's title goes before the turn is cut
    t = header_text(f, rs, width=64).plain
    assert "Cosmere" not in t and t.split("  ")[1].endswith("…") and t.startswith(f"Round {f.round}")


def test_nothing_runs_past_even_a_tiny_width() -> None:
    f = _cosmere_in_a_turn()
    t = header_text(f, get_ruleset(f.ruleset), width=20).plain
    assert len(t) <= 20 and t.endswith("…")


def test_a_channel_over_the_round_change_reads_in_phases_of_each_round() -> None:
    from engine import apply, new_fight
    from engine.rules.ninephase import catalog as K
    from engine.rules.ninephase.clock import PHASES
    from engine.state import ActivitySpec
    from tui.rulesets.ninephase import channel_lines
    from tui.views import PLAIN, phase_word

    f = new_fight("ninephase", seed=1)
    f, _ = apply(f, C.AddCombatant("Mirelle", stats=(("hp", 10), ("grit", 5))))
    f, _ = apply(f, K.DefineActivity(ActivitySpec("Rite", cost=3, phase=8, channel=True, across_rounds=True)))
    f, _ = apply(f, C.StartFight())
    while f.phase != 8:
        f, _ = apply(f, C.NextTurn())
    f, _ = apply(f, K.DoActivity("c1", "Rite"))
    lines = [r.text.plain.strip() for r in channel_lines(f, 100, PLAIN)]
    assert "8→2(next) Rite (Mirelle): resolves in phase 2 of the next round" in lines
    f, _ = apply(f, C.NextTurn())
    f, _ = apply(f, C.NextTurn())  # round 2, phase 1
    lines = [r.text.plain.strip() for r in channel_lines(f, 100, PLAIN)]
    assert "8(last)→2 Rite (Mirelle): resolves in phase 2" in lines
    words = (phase_word(11, PHASES), phase_word(-1, PHASES), phase_word(5, PHASES))
    assert words == ("2 of the next round", "8 of the last round", "5")
