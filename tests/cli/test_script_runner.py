"""The `fracas script` runner and the worked examples: docs/commands.md's for the bundled rulesets, and
those of any other ruleset in the file its plugin names (`Plugin.examples`)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from engine import ruleset_ids
from engine.plugins import plugins, resource
from tui.cli import main

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "commands.md"
EXAMPLE = re.compile(r"<!-- example: rules=(\w+) seed=(\d+) -->.*?```jsonl\n(.*?)```\s*```json\n(.*?)```", re.S)


def _docs() -> list[str]:
    """The text of each file of worked examples the plugins name (docs/commands.md once)."""
    texts = [resource(spec) for spec in dict.fromkeys(p.examples for p in plugins() if p.examples)]
    assert all(t is not None for t in texts), "a plugin names an examples file that is not there"
    return [t.decode("utf-8") for t in texts if t is not None]


def _examples() -> list[tuple[str, int, str, str]]:
    return [(r, int(s), script, expected) for text in _docs() for r, s, script, expected in EXAMPLE.findall(text)]


def test_the_bundled_rulesets_name_docs_commands_md() -> None:
    assert DOC.read_text(encoding="utf-8") in _docs()


def test_every_ruleset_has_a_worked_example_of_three_rounds_and_four_combatants() -> None:
    examples = _examples()
    assert sorted(r for r, *_ in examples) == sorted(ruleset_ids())
    for _rules, _seed, script, expected in examples:
        adds = [json.loads(x) for x in script.splitlines() if '"cmd":"add"' in x]
        assert sum(a.get("count", 1) for a in adds) >= 4
        assert json.loads(expected)["round"] >= 3


@pytest.mark.parametrize("rules,seed,script,expected", _examples(), ids=lambda x: str(x)[:12])
def test_docs_example_gives_the_state_the_doc_says(
    rules: str, seed: int, script: str, expected: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / f"{rules}.jsonl"
    path.write_text(script)
    code = main(["script", str(path), "--rules", rules, "--seed", str(seed), "--summary"])
    out = capsys.readouterr()
    assert code == 0, out.err
    assert json.loads(out.out) == json.loads(expected)


def test_script_error_names_the_line_and_the_rule(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(
        '{"cmd":"add","name":"Ann","kind":"pc","side":"party"}\n'
        '{"cmd":"add","name":"Orc"}\n'
        '{"cmd":"start"}\n'
        '{"cmd":"use","who":"c2","what":"action"}\n'
        '{"cmd":"use","who":"c2","what":"action"}\n'
    )
    # whoever goes first, the second action in one turn (or an action off-turn) is refused
    code = main(["script", str(path), "--rules", "d20", "--seed", "1"])
    err = capsys.readouterr().err
    assert code == 1
    assert re.search(r"line [45]: ", err), err
    assert "Traceback" not in err


def test_script_rejects_malformed_lines_with_a_one_line_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for body, needle in [
        ('{"cmd":"add"}\n', "line 1: not a command"),
        ('{"cmd":"explode","who":"c1"}\n', "line 1: not a command"),
        ("not json at all\n", "line 1: not a command"),
        ('{"cmd":"damage","who":"c9","amount":3}\n', "line 1: No combatant with id 'c9'"),
        ('{"cmd":"roll","dice":"1d20","given":[23]}\n', "line 1: 23 is not a possible result on a d20"),
        ('{"cmd":"roll","dice":"2d6+"}\n', "line 1: Cannot read the dice expression"),
    ]:
        path = tmp_path / "bad.jsonl"
        path.write_text(body)
        code = main(["script", str(path), "--rules", "d20"])
        err = capsys.readouterr().err
        assert code == 1, body
        assert needle in err, (body, err)
        assert err.count("\n") == 1, err


def test_unknown_ruleset_and_missing_file_are_one_line_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "empty.jsonl"
    path.write_text("")
    assert main(["script", str(path), "--rules", "chess"]) == 2
    assert "Unknown ruleset 'chess'" in capsys.readouterr().err
    assert main(["script", str(tmp_path / "nope.jsonl"), "--rules", "d20"]) == 1
    assert "cannot read" in capsys.readouterr().err


def test_script_runner_as_a_process_prints_state_and_events(tmp_path: Path) -> None:
    path = tmp_path / "fight.jsonl"
    path.write_text(
        '{"cmd":"add","name":"[red]Bob[/]","kind":"pc","side":"party"}\n'
        '{"cmd":"add","name":"Orc","stats":[["hp",7]]}\n'
        '{"cmd":"start","initiative":[["c1",[20]],["c2",[1]]]}\n'
        '{"cmd":"damage","who":"c2","dice":"2d6","given":[3,4]}\n'
    )
    run = subprocess.run(
        [sys.executable, "-m", "tui.cli", "script", str(path), "--rules", "d20", "--events"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    assert out["state"]["combatants"][0]["name"] == "[red]Bob[/]"
    texts = [e["text"] for e in out["events"]]
    assert "Orc takes 7 damage [2d6 = [3, 4] = 7 (entered)], 0 left" in texts
    assert out["events"][-1]["line"] == 4


def test_undo_and_redo_lines_step_the_fight_as_the_app_does(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "undo.jsonl"
    lines = [
        '{"cmd":"add","name":"Orc","stats":[["hp",15]]}',
        '{"cmd":"start"}',
        '{"cmd":"damage","who":"c1","amount":5}',
        '{"cmd":"undo"}',
        '{"cmd":"redo"}',
        '{"cmd":"undo"}',
        '{"cmd":"damage","who":"c1","amount":2}',
    ]
    path.write_text("\n".join(lines) + "\n")
    assert main(["script", str(path), "--rules", "d20", "--seed", "1", "--log"]) == 0
    out = capsys.readouterr().out
    assert "   4  Undid: Orc takes 5 damage, 10 left" in out
    assert "   5  Redid: Orc takes 5 damage, 10 left" in out
    assert '"hp": "13/15"' in out  # the 5 taken back, the 2 on a new branch
    # after a new command there is nothing to redo; a field on undo is refused; both name the line
    path.write_text("\n".join(lines + ['{"cmd":"redo"}']) + "\n")
    assert main(["script", str(path), "--rules", "d20"]) == 1
    assert "line 8: Nothing to redo." in capsys.readouterr().err
    path.write_text('{"cmd":"undo","count":2}\n')
    assert main(["script", str(path), "--rules", "d20"]) == 1
    assert "line 1: undo takes no fields." in capsys.readouterr().err
