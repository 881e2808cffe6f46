"""`fracas list`, `check` and `export` as saves/cli.py implements them: output, exit codes, and one
line on stderr for every problem (never a traceback)."""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path

import msgspec
import pytest

from engine import commands as C
from engine import new_fight
from engine.state import Fight, state_hook
from saves import cli
from saves import format as fmt
from saves.session import Session


def fight(path: Path, name: str = "Ambush at the Ford") -> Session:
    s = Session.create(path, new_fight("d20", name, 9))
    s.apply(C.AddCombatant(name="Brannoc", kind="pc", side="party", stats=(("hp", 30), ("dex", 14))))
    s.apply(C.AddCombatant(name="Bandit", count=2, stats=(("hp", 11), ("dex", 12))))
    s.apply(C.StartFight())
    s.apply(C.Damage(who="c2", dice="2d6+2", type="slashing"))
    s.apply(C.AddCondition(who="c3", name="Prone"))
    s.apply(C.NextTurn())
    s.apply(C.Damage(who="c1", amount=4))
    s.apply(C.NextTurn())
    s.apply(C.Note(text="A wagon burns."))
    s.undo()
    s.apply(C.Roll(dice="1d20+5", who="c1", label="attack"))
    return s


def ns(**kw: object) -> argparse.Namespace:
    return argparse.Namespace(**kw)


def errors(capsys: pytest.CaptureFixture[str]) -> list[str]:
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return [line for line in err.splitlines() if line]


def test_list(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.cmd_list(ns(dir=tmp_path)) == 0
    assert "No saved fights" in capsys.readouterr().out
    fight(tmp_path / "a.fracas").close()
    fight(tmp_path / "b.fracas", "Troll Bridge").close()
    # a hostile file: the engine refuses such a name, the reader too, and the list shows it harmlessly
    hostile = fmt.new_header(Fight(ruleset="d20", name="Troll \x1b[31mBridge"))
    (tmp_path / "c.fracas").write_bytes(fmt.MAGIC + fmt.frame(fmt.HEADER, msgspec.msgpack.encode(hostile)))
    os.utime(tmp_path / "c.fracas", (1_500_000, 1_500_000))
    os.utime(tmp_path / "a.fracas", (1_000_000, 1_000_000))
    (tmp_path / "broken.fracas").write_bytes(b"garbage")
    os.utime(tmp_path / "broken.fracas", (2_000_000, 2_000_000))
    assert cli.cmd_list(ns(dir=tmp_path)) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert "Last played" in lines[0]
    assert lines[1].endswith("b.fracas") and lines[-3].endswith("a.fracas")
    assert "\x1b" not in out, "a name's escape codes reached the terminal"
    assert "unreadable" in out and "4 in" in out
    assert cli.cmd_list(ns(dir=tmp_path / "nope")) == 2
    assert len(errors(capsys)) == 1


def test_list_uses_the_data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("FRACAS_DATA_DIR", str(tmp_path))
    fight(tmp_path / "mine.fracas").close()
    assert cli.cmd_list(ns(dir=None)) == 0
    assert "mine.fracas" in capsys.readouterr().out


def test_check_ok_damaged_and_missing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "f.fracas"
    fight(path).close()
    assert cli.cmd_check(ns(file=path, repair=False)) == 0
    assert capsys.readouterr().out.startswith("ok: ")
    data = bytearray(path.read_bytes())
    data[40] ^= 1
    path.write_bytes(bytes(data))
    assert cli.cmd_check(ns(file=path, repair=True)) == 1
    lines = errors(capsys)
    assert len(lines) == 1 and "offset" in lines[0] and str(path) in lines[0]
    assert path.read_bytes() == bytes(data), "check changed a damaged file"
    assert cli.cmd_check(ns(file=tmp_path / "missing.fracas", repair=False)) == 1
    assert len(errors(capsys)) == 1


def test_check_repair_drops_a_torn_tail(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "f.fracas"
    s = fight(path)
    s.close()
    good = path.read_bytes()
    path.write_bytes(good[:-5])
    assert cli.cmd_check(ns(file=path, repair=False)) == 1
    assert "torn last record" in capsys.readouterr().err
    assert path.read_bytes() == good[:-5]
    assert cli.cmd_check(ns(file=path, repair=True)) == 0
    out = capsys.readouterr().out
    assert "repaired" in out and "ok: " in out
    backups = list(tmp_path.glob("*.bak"))
    assert len(backups) == 1 and backups[0].read_bytes() == good[:-5]
    back = Session.open(path, readonly=True)
    assert back.notices == [] and len(back.history.nodes) == len(s.history.nodes) - 1
    assert cli.cmd_check(ns(file=path, repair=False)) == 0


def test_check_repair_refuses_a_file_in_use(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "f.fracas"
    app = fight(path)  # a running app holds the file...
    with open(path, "ab") as fh:
        fh.write(b"\x20\x00\x00")  # ...and is in the middle of writing a record
    seen = path.read_bytes()
    assert cli.cmd_check(ns(file=path, repair=True)) == 1
    lines = errors(capsys)
    assert len(lines) == 1 and "another running Fracas" in lines[0] and "Close it there" in lines[0]
    assert path.read_bytes() == seen and not list(tmp_path.glob("*.bak"))
    app.close()


def test_export_markdown(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "f.fracas"
    fight(path, "The *Ford* [of] <Doom>").close()
    assert cli.cmd_export(ns(file=path, json=False, markdown=True, output=None)) == 0
    md = capsys.readouterr().out
    assert md.startswith("# The \\*Ford\\* \\[of\\] \\<Doom\\>")
    assert "## Round 1" in md and "## Setting up" in md
    assert "Bandit 1 takes" in md and "slashing damage" in md and "2d6+2 = " in md  # damage with its dice
    assert "is Prone" in md
    assert "'s turn**" in md
    assert "A wagon burns" not in md, "an undone command was in the log"
    assert "1 undone (not shown)" in md
    assert "| Brannoc | party | 26/30 | 4 | - |" in md


def test_export_json_round_trips(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "f.fracas"
    s = fight(path)
    s.close()
    out = tmp_path / "out.json"
    assert cli.cmd_export(ns(file=path, json=True, markdown=False, output=out)) == 0
    doc = json.loads(out.read_text())
    assert doc["cursor"] == s.history.cursor and len(doc["history"]) == len(s.history.nodes)
    assert msgspec.convert(doc["state"], Fight, dec_hook=state_hook) == s.state
    assert msgspec.convert(doc["start"], Fight, dec_hook=state_hook) == s.history.nodes[0].state
    undone = [n for n in doc["history"] if not n["current_line"]]
    assert len(undone) == 1 and undone[0]["command"] == {"cmd": "note", "text": "A wagon burns."}
    assert doc["history"][4]["events"][0]["text"].startswith("Bandit 1 takes")
    assert cli.cmd_export(ns(file=path, json=True, markdown=False, output=path)) == 2
    assert "save file itself" in errors(capsys)[0]


def test_export_errors_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.fracas"
    bad.write_bytes(b"\x89FRACAS\n" + b"\xff" * 40)
    assert cli.cmd_export(ns(file=bad, json=True, markdown=False, output=None)) == 1
    assert len(errors(capsys)) == 1
    assert cli.cmd_export(ns(file=bad, json=True, markdown=True, output=None)) == 2
    assert len(errors(capsys)) == 1
    good = tmp_path / "g.fracas"
    fight(good).close()
    assert cli.cmd_export(ns(file=good, json=False, markdown=True, output=tmp_path / "no" / "x.md")) == 1
    assert len(errors(capsys)) == 1


@pytest.mark.parametrize("version", [1, 2])  # a format 1 file through its upgrade, and one of format 2
def test_export_markdown_phases(version: int, capsys: pytest.CaptureFixture[str]) -> None:
    golden = Path(__file__).resolve().parent / "golden" / f"v{version}" / "ninephase.fracas"
    assert cli.cmd_export(ns(file=golden, json=False, markdown=True, output=None)) == 0
    md = capsys.readouterr().out
    assert "### Phase 1" in md and "### Phase 4" in md
    assert "### Phase 5" not in md, "a phase where nothing happened got a heading"
    assert md.index("## Round 1") < md.index("### Phase 1") < md.index("## Round 2")
