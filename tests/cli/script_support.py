"""Shared by the black-box tests: run a list of commands through `fracas script --log` as an outside
tester would, and read back the log (by script line) and the final summary."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import pytest

from tui.cli import main

Cmd = dict[str, Any]
LOG_LINE = re.compile(r"^\s*(\d+)  (.*)$")


@dataclass
class ScriptRun:
    code: int
    err: str
    log: list[tuple[int, str]]  # (script line, text)
    summary: dict[str, Any]

    def texts(self) -> list[str]:
        return [t for _, t in self.log]

    def at(self, line: int) -> list[str]:
        return [t for n, t in self.log if n == line]

    def has(self, needle: str) -> bool:
        return any(needle in t for t in self.texts())


R = TypeVar("R", bound=ScriptRun)


def run_script(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], cmds: list[Cmd], rules: str, seed: int, cls: type[R]
) -> R:
    path = tmp_path / "case.jsonl"
    path.write_text("".join(json.dumps(c) + "\n" for c in cmds))
    code = main(["script", str(path), "--rules", rules, "--seed", str(seed), "--log"])
    out = capsys.readouterr()
    log: list[tuple[int, str]] = []
    summary: dict[str, Any] = {}
    if code == 0:
        head, brace, rest = out.out.partition("\n{")
        for line in head.splitlines():
            m = LOG_LINE.match(line)
            assert m, line
            log.append((int(m.group(1)), m.group(2).strip()))
        summary = json.loads(brace.strip() + rest)
    else:
        # a refusal: exit 1 and exactly one line, naming the script line, never a traceback
        assert code == 1, out.err
        assert out.err.count("\n") == 1, out.err
        assert "Traceback" not in out.err
    return cls(code, out.err, log, summary)


def refused(r: ScriptRun, line: int, *needles: str) -> None:
    assert r.code == 1, r.log
    assert f"line {line}: " in r.err, r.err
    for n in needles:
        assert n in r.err, (n, r.err)
