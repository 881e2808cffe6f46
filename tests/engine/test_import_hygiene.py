"""The engine stays pure: importing it (and every ruleset) loads no textual and no rich."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import json, sys
import engine, engine.rules, engine.history, engine.dice
from engine import apply, new_fight, command_union, event_union
from engine import commands as C
command_union(); event_union()
f = new_fight("d20", seed=1)
f, _ = apply(f, C.AddCombatant("A"))
apply(f, C.StartFight())
print(json.dumps(sorted(m for m in sys.modules if m.split(".")[0] in ("textual", "rich"))))
"""


def test_importing_engine_loads_no_textual_or_rich():
    out = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(out.stdout.strip().splitlines()[-1]) == []


def test_engine_sources_do_not_import_textual_rich_or_do_file_io():
    banned = ("import textual", "from textual", "import rich", "from rich", "open(", "pathlib", "import os")
    for path in sorted((ROOT / "engine").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        for word in banned:
            assert word not in text, f"{path.relative_to(ROOT)} uses {word!r}"
