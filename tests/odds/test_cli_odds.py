"""`fracas odds FILE [--runs N] [--seed S] [--json]` (issue 26): the report or its JSON, one line and
a non-zero exit for bad input, and the save only read: its bytes and its time stamp as they were."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from engine import apply, new_fight
from engine import commands as C
from saves.demo import demo_fight
from saves.session import Session
from tui import cli


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "data"
    folder.mkdir()
    monkeypatch.setenv("FRACAS_DATA_DIR", str(folder))
    monkeypatch.chdir(tmp_path)
    return folder


def saved(path: Path, rules: str = "warhammer", start: bool = False) -> Path:
    with Session.create(path, demo_fight(rules)) as s:
        if start:
            s.apply(C.StartFight())
    return path


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def one_line(err: str) -> str:
    assert err.count("\n") == 1 and err.startswith("fracas: ") and "Traceback" not in err, err
    return err


def test_the_report_and_the_save_untouched(data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = saved(data / "bridge.fracas", start=True)
    before, stamp = path.read_bytes(), os.stat(path).st_mtime_ns
    code, out, err = run(capsys, "odds", str(path), "--runs", "30", "--seed", "4")
    assert code == 0 and err == "", err
    lines = out.splitlines()
    assert lines[0].startswith("From here the party wins ")
    assert any(line.startswith("The party  wins") for line in lines)
    assert any("Troll" in line for line in lines)
    assert path.read_bytes() == before and os.stat(path).st_mtime_ns == stamp
    assert sorted(p.name for p in data.iterdir()) == ["bridge.fracas"]  # no backup, no copy, no lock file
    # the same seed, the same report; by the fight's name as fracas list prints it
    code, again, _ = run(capsys, "odds", "Troll Bridge", "--runs", "30", "--seed", "4")
    assert code == 0 and again == out


def test_before_the_start_it_is_the_encounters_difficulty(data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = saved(data / "bridge.fracas")
    code, out, _ = run(capsys, "odds", str(path), "--runs", "20")
    assert code == 0 and out.startswith("The party "), out


def test_json(data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = saved(data / "bridge.fracas", start=True)
    code, out, err = run(capsys, "odds", str(path), "--runs", "25", "--json")
    assert code == 0 and err == ""
    got = json.loads(out)
    assert got["runs"] == 25 and got["finished"] + got["unfinished"] == 25
    assert [s["key"] for s in got["sides"]] == ["party", "enemy"]
    assert {"wins", "p", "low", "high", "label"} <= set(got["sides"][0])
    assert got["headline"].startswith("From here the party wins ")
    assert [f["name"] for f in got["fates"]][:2] == ["Ulfberth", "Thesalva"]
    assert {"p_down", "low", "high", "health_left_mean", "health_max", "side", "id"} <= set(got["fates"][0])


def test_bad_input_is_one_line(data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "odds", str(data / "missing.fracas"))
    assert code == 1 and "missing.fracas" in one_line(err)
    bad = data / "bad.fracas"
    bad.write_bytes(b"not a save at all")
    code, _, err = run(capsys, "odds", str(bad))
    assert code == 1 and "bad.fracas" in one_line(err)
    assert bad.read_bytes() == b"not a save at all"
    code, _, err = run(capsys, "odds", "no such fight")
    assert code == 1 and one_line(err)
    path = saved(data / "bridge.fracas")
    for runs in ("0", "100001", "-5"):
        code, _, err = run(capsys, "odds", str(path), "--runs", runs)
        assert code == 2 and "--runs is between 1 and 100,000" in one_line(err)


def test_a_ruleset_without_auto_play(data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = new_fight("plainlist", "Plain")
    f, _ = apply(f, C.AddCombatant("A", side="party"))
    f, _ = apply(f, C.AddCombatant("B"))
    with Session.create(data / "plain.fracas", f):
        pass
    code, _, err = run(capsys, "odds", str(data / "plain.fracas"), "--runs", "5")
    assert code == 1 and one_line(err) == "fracas: Plain list has no auto-play: odds cannot be simulated\n"


def test_a_fight_that_is_over(data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with Session.create(data / "done.fracas", demo_fight("d20")) as s:
        s.apply(C.EndFight())
    code, _, err = run(capsys, "odds", str(data / "done.fracas"), "--runs", "5")
    assert code == 1 and "The fight is over" in one_line(err)
