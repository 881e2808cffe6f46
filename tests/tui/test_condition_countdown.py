"""A condition's countdown on the tracker row (issue 25, item 5b): "Prone 2t" as the sheet and the
players' view say it in words, from one function (tui.views.ends_in)."""

from __future__ import annotations

from pathlib import Path

from engine import apply, new_fight
from engine import commands as C
from engine.state import Condition, Duration
from tests.tui.support import app_on, burst, demo_session, main_screen, of, select, sync
from tui.views import PLAIN, badges, countdown, remaining, tracker_rows


def _fight(ruleset: str = "d20"):  # type: ignore[no-untyped-def]
    f = new_fight(ruleset, seed=1)
    f, _ = apply(f, C.AddCombatant("Ogre", stats=(("hp", 30),)))
    f, _ = apply(f, C.AddCombatant("Mage", stats=(("hp", 12),)))
    f, _ = apply(f, C.StartFight())
    return f


def test_countdown_counts_turns_rounds_and_phases_the_current_one_counted() -> None:
    f = _fight()
    other = next(c.id for c in f.combatants if c.id != f.current)
    assert countdown(f, Condition("Prone")) == ""
    assert countdown(f, Condition("Prone", duration=Duration("turn_end", other, 2))) == "2t"
    assert countdown(f, Condition("Prone", duration=Duration("turn_start", other, 1))) == "1t"
    assert countdown(f, Condition("Blessed", duration=Duration("round_end", round=f.round))) == "1r"
    assert countdown(f, Condition("Blessed", duration=Duration("round_end", round=f.round + 2))) == "3r"
    # the words say the same count
    assert remaining(f, Condition("Blessed", duration=Duration("round_end", round=f.round + 2))).endswith(
        "(2 more rounds)"
    )
    n = new_fight("ninephase", seed=1)
    n, _ = apply(n, C.AddCombatant("Orc", stats=(("hp", 10),)))
    n, _ = apply(n, C.StartFight())
    assert countdown(n, Condition("Dazed", duration=Duration("phase_end", round=n.round, phase=n.phase + 4))) == "5p"
    # a phase of a later round: the round it ends in, this one counted
    later = Condition("Dazed", duration=Duration("phase_end", round=n.round + 2, phase=n.phase))
    assert countdown(n, later) == "3r" and "(18 more phases)" in remaining(n, later)


def test_a_turn_end_counted_during_that_turn_is_the_current_turn() -> None:
    f = _fight()
    cond = Condition("Prone", duration=Duration("turn_end", f.current, 1))
    assert countdown(f, cond) == "1t"
    assert "current turn" in remaining(f, cond)


def test_the_badge_keeps_its_countdown_when_the_name_is_cut() -> None:
    f = _fight()
    ogre = next(c for c in f.combatants if c.name == "Ogre")
    f, _ = apply(f, C.AddCondition(ogre.id, "Frightened", Duration("turn_end", ogre.id, 3)))
    f, _ = apply(f, C.AddCondition(ogre.id, "Poisoned"))
    c = f.get(ogre.id)
    assert badges(c, PLAIN, 40, 0, f).plain.split() == ["Frightened", "3t", "Poisoned"]
    for width in (12, 14, 16):
        text = badges(c, PLAIN, width, 0, f).plain.strip()
        assert text.startswith("Fr") and "3t" in text and text.endswith("+1") and len(text) <= width, (width, text)
    row = next(r.text.plain for r in tracker_rows(f, get_rs(f), 100) if r.cid == ogre.id)
    assert "Frightened 3t" in row


def get_rs(f):  # type: ignore[no-untyped-def]
    from engine.ruleset import get_ruleset

    return get_ruleset(f.ruleset)


@sync
async def test_the_tracker_row_shows_the_countdown_of_a_condition_given_in_a_burst(tmp_path: Path) -> None:
    s = demo_session("d20", start=True)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await select(pilot, "Ysolde")
        await burst(pilot, "c", "p", "r", "o", "tab", "right", "right", "tab", "backspace", "2", "enter", settle=0.8)
        cond = of(s, "Ysolde").condition("Prone")
        assert cond is not None and cond.duration.count == 2
        tracker = main_screen(pilot).query_one("#tracker")
        row = next(r.text.plain for r in tracker._rows if r.cid == of(s, "Ysolde").id)  # type: ignore[attr-defined]
        assert "Prone 2t" in row, row
