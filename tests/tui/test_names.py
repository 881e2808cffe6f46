"""Long names stay apart (issue 14, item 5): cut from the middle, the copy's number kept."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from rich.text import Text

from tui.text import shorten_middle


def test_copies_keep_their_number_and_last_word() -> None:
    assert shorten_middle(Text("Hobgoblin Devastator Archer 2"), 22).plain == "Hobgoblin Dev…Archer 2"
    assert shorten_middle(Text("Hobgoblin Devastator Archer 12"), 16).plain == "Hobgob…Archer 12"
    assert shorten_middle(Text("Hobgoblin Devastator Archer 2"), 8).plain.endswith(" 2")
    assert shorten_middle(Text("Goblin 3"), 20).plain == "Goblin 3"  # fits: as it is


def test_styles_survive_the_cut() -> None:
    t = Text("Hobgoblin Devastator Archer 2", style="bold red")
    out = shorten_middle(t, 22)
    assert all(span.style == "bold red" for span in out.spans) and out.spans


@given(
    st.lists(st.text("abcdefghij", min_size=1, max_size=12), min_size=1, max_size=5),
    st.integers(1, 999),
    st.integers(3, 40),
)
def test_never_wider_than_asked_and_copies_differ(words: list[str], n: int, width: int) -> None:
    base = " ".join(words)
    a = shorten_middle(Text(f"{base} {n}"), width).plain
    b = shorten_middle(Text(f"{base} {n + 1}"), width).plain
    assert len(a) <= width and len(b) <= width
    if width >= len(str(n + 1)) + 4:  # room for "x… N": two copies never read the same
        assert a != b, (a, b)


def test_the_tracker_keeps_long_copies_apart() -> None:
    from engine import apply, new_fight
    from engine import commands as C
    from tui.views import PLAIN, name_text

    f = new_fight("d20", seed=1)
    f, _ = apply(f, C.AddCombatant("Hobgoblin Devastator Archer", count=2, stats=(("hp", 9),)))
    a, b = (name_text(c, PLAIN, 16).plain for c in f.combatants)
    assert a != b and a.endswith(" 1") and b.endswith(" 2") and len(a) <= 16
    f, _ = apply(f, C.EditCombatant(f.combatants[0].id, flags=("hidden",)))
    hidden = name_text(f.combatants[0], PLAIN, 24).plain
    assert hidden.endswith(" 1 (hidden)") and len(hidden) <= 24
    assert name_text(f.combatants[0], PLAIN).plain == "Hobgoblin Devastator Archer 1 (hidden)"  # no width: whole


def test_a_narrow_conditions_column_names_the_first_condition_before_the_count() -> None:
    from engine import apply, new_fight
    from engine import commands as C
    from tui.views import PLAIN, badges

    f = new_fight("d20", seed=1)
    f, _ = apply(f, C.AddCombatant("Ogre", stats=(("hp", 30),)))
    for name in ("Frightened", "Poisoned", "Prone"):
        f, _ = apply(f, C.AddCondition("c1", name))
    for width in (9, 10, 12, 16):
        text = badges(f.combatants[0], PLAIN, width).plain.strip()
        assert text.startswith("Fr") and text.endswith("+2") and len(text) <= width, (width, text)
