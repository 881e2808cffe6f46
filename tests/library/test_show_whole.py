"""`fracas library show NAME` prints the whole statblock (issue 24): speeds, skills, immunities,
traits with their text, abilities and spells with their labels and text, spellcasting."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from tui import cli


def show(name: str, rules: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    monkeypatch.setenv("FRACAS_DATA_DIR", str(tmp_path / "data"))
    out = io.StringIO()
    monkeypatch.setattr("sys.stdout", out)
    assert cli.main(["library", "show", name, "--rules", rules]) == 0
    return out.getvalue().splitlines()


def test_a_legendary_creature_whole(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    lines = show("Thornback Wyrm", "d20", tmp_path, monkeypatch)
    assert "  speed: 40 ft., climb 40 ft., fly 80 ft." in lines
    assert "  skills: Perception +9, Stealth +4" in lines and "  immune to conditions: Poisoned" in lines
    assert "  legendary: 3" in lines and "  legendary_resistance: 2" in lines
    assert "  ability: Thorn Shake (legendary, costs 2): DC 17 Dex, 2d6+6 piercing, none on a save, Prone" in lines
    assert "  ability: Multiattack: Bite, Thorn Claw, Thorn Claw" in lines
    i = lines.index("  trait: Thorn Hide")
    assert lines[i + 1].startswith("    A creature that touches the wyrm")
    assert any(x.startswith("  attack: Thorn Claw +10") and "DC 17 Constitution" in x for x in lines)


def test_a_caster_and_immunities(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    lines = show("Marsh Witch", "d20", tmp_path, monkeypatch)
    assert "  spellcasting: int, spell save DC 14, +6 to hit; slots level 1 x4, level 2 x3, level 3 x2" in lines
    assert "  spell: Swamp Gas (level 3): DC 14 Con, 8d6 poison, half on a save" in lines
    warden = show("Clockwork Warden", "d20", tmp_path, monkeypatch)
    assert "  immune to damage: poison, psychic" in warden and "  ability: Lockdown (reaction)" in warden


def test_cosmere_and_warhammer(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    lines = show("Stormwall Sentry", "cosmere", tmp_path, monkeypatch)
    assert "  ability: Hold the Line (reaction; 1 focus)" in lines
    assert "  ability: Crushing Sweep (2 actions; 2 focus): Phy save, 2d10+3 impact, none on a save, Prone" in lines
    troll = show("Fen Troll", "warhammer", tmp_path, monkeypatch)
    assert "  trait: Regenerate" in troll and "  immune to conditions: Stunned" in troll
    assert not any(x.startswith("  speed:") for x in troll)  # Warhammer's statblock has no speed
