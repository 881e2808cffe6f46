"""What a statblock says that the engine has no field for goes after its note (d20 immunities)."""

from __future__ import annotations

import engine.library as L


def test_d20_immunities_follow_the_note() -> None:
    sb = L.decode_entry("d20", {"name": "Ember Imp", "hp": 7, "immune": ["fire"], "note": "Flits."})
    cmd, _ = L.to_add(sb)
    assert cmd.note == "Flits.\nImmune: fire."
    plain = L.decode_entry("d20", {"name": "Rat", "hp": 2})
    assert L.to_add(plain)[0].note == ""
