"""`fracas list` at 80 columns (issue 25, item 11): long fight and file names are cut from the
middle, so no line wraps under the date column; piped, the names are whole."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from engine import new_fight
from saves.session import Session
from tui import cli

ROOT = Path(__file__).resolve().parents[2]
LONG = "The Long Siege of the Northern Watchtower at Dawn, Part {}"


def _saves(folder: Path) -> list[str]:
    names = []
    for i in (1, 2):
        name = LONG.format(i)
        file = name.lower().replace(",", "").replace(" ", "-") + ".fracas"
        Session.create(folder / file, new_fight("d20", name, 1)).close()
        names.append(file)
    Session.create(folder / "short.fracas", new_fight("d20", "Short", 1)).close()
    return names


def test_list_fits_80_columns(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("FRACAS_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("COLUMNS", "80")
    _saves(tmp_path)
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)  # as on an 80-column terminal
    assert cli.main(["list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert all(len(line) < 80 for line in lines), "\n".join(lines)
    rows = [line for line in lines if "Part" in line]
    assert len(rows) == 2 and all(line.rstrip().endswith(".fracas") for line in rows)
    assert "Part 1" in rows[0] + rows[1] and "Part 2" in rows[0] + rows[1]  # the ends that tell them apart
    assert any(line.rstrip().endswith("short.fracas") for line in lines)  # a short one whole


def test_list_piped_keeps_the_names_whole(tmp_path: Path) -> None:
    files = _saves(tmp_path)
    env = {"FRACAS_DATA_DIR": str(tmp_path), "FRACAS_CONFIG_DIR": str(tmp_path / "c"), "PATH": "/usr/bin:/bin"}
    env["COLUMNS"] = "80"  # (a pipe all the same: whole names)
    out = subprocess.run(
        [sys.executable, "-m", "tui.cli", "list"], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    ).stdout
    assert all(f in out for f in files) and LONG.format(1) in out
