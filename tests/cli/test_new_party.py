"""`fracas new RULES NAME --party`: the roster's PCs join the new fight, where the roster says each
stands; no roster is one line and no file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import engine.library as L
from saves import library as S
from tui import cli


@pytest.fixture(autouse=True)
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "data"
    folder.mkdir()
    monkeypatch.setenv("FRACAS_DATA_DIR", str(folder))
    return folder


def test_new_with_the_party(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    S.add_to_party("d20", [L.decode_entry("d20", {"name": "Ayla", "kind": "pc", "side": "party", "hp": 24})])
    (m,) = S.read_party("d20")
    S.write_party("d20", [S.Member(m.statblock, S.Now(health=(S.Track("hp", 20),)))])
    seen: list[Any] = []
    monkeypatch.setattr(cli, "_run_app", lambda session: seen.append(session) or 0)
    monkeypatch.setattr(cli, "_no_terminal", lambda what: False)  # a stand-in app needs no terminal
    assert cli.main(["new", "d20", "Ford", "--party", "--dir", str(tmp_path)]) == 0
    (session,) = seen
    (ayla,) = session.state.combatants
    assert ayla.name == "Ayla" and ayla.health[0].current == 20
    session.close()


def test_new_with_no_party_is_one_line_and_no_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    out.mkdir()
    assert cli.main(["new", "d20", "Ford", "--party", "--dir", str(out)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "No d20 party yet" in err[0]
    assert list(out.iterdir()) == []
