"""A statblock's immunities are the combatant's own fields now (the engine applies them), not a
line after its note."""

from __future__ import annotations

import engine.library as L
from engine.core import apply, new_fight


def test_d20_immunities_are_fields_not_note_lines() -> None:
    sb = L.decode_entry(
        "d20",
        {"name": "Ember Imp", "hp": 7, "immune": ["fire"], "condition_immune": ["Poisoned"], "note": "Flits."},
    )
    cmd, _ = L.to_add(sb)
    assert cmd.note == "Flits."
    assert cmd.immune == ("fire",) and cmd.condition_immune == ("Poisoned",)
    f, _ = apply(new_fight("d20"), cmd)
    imp = f.combatants[0]
    assert imp.immune == ("fire",) and imp.condition_immune == ("Poisoned",)
    plain = L.decode_entry("d20", {"name": "Rat", "hp": 2})
    assert L.to_add(plain)[0].note == ""
