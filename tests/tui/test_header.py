"""The header line on a narrow screen: the fight's name gives way first, then the ruleset's title; the
round and whose turn it is stay, and nothing runs past the width."""

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
    assert wide.startswith(f.name) and "Cosmere" in wide and who in wide
    for width in (64, 60):
        t = header_text(f, rs, width=width).plain
        assert len(t) <= width, (width, t)
        assert who in t, (width, t)  # whose turn it is survives
    # with room for the turn and a short name, the ruleset's title goes before the turn is cut
    t = header_text(f, rs, width=64).plain
    assert "Cosmere" not in t and t.split("  ")[0].endswith("…")


def test_nothing_runs_past_even_a_tiny_width() -> None:
    f = _cosmere_in_a_turn()
    t = header_text(f, get_ruleset(f.ruleset), width=20).plain
    assert len(t) <= 20 and t.endswith("…")
