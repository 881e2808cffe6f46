"""`fracas library show`: a set of scores is shown whole, those at their default too (a GM read a
missing "wis 10" as no Wisdom)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from tui import cli


def show(name: str, rules: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("FRACAS_DATA_DIR", str(tmp_path / "data"))
    out = io.StringIO()
    monkeypatch.setattr("sys.stdout", out)
    assert cli.main(["library", "show", name, "--rules", rules]) == 0
    return out.getvalue()


def test_every_ability_is_shown(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text = show("Goblin", "d20", tmp_path, monkeypatch)
    line = next(x for x in text.splitlines() if x.strip().startswith("abilities:"))
    for key in ("str", "dex", "con", "int", "wis", "cha"):
        assert f"{key} " in line
    assert "int 10" in line  # the Goblin's Intelligence is the default 10: shown, not left out


def test_every_characteristic_is_shown(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text = show("Beastkin Raider", "warhammer", tmp_path, monkeypatch)
    line = next(x for x in text.splitlines() if "ws " in x and "bs " in x)
    assert all(f"{k} " in line for k in ("ws", "bs", "s", "t", "ag", "dex", "int", "wp", "fel"))
