"""A ruleset's auto-play is part of its plugin (`Plugin.tactics`), imported only when a simulation
runs: start-up does not grow."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from engine.odds import Tactics, tactics_for
from engine.plugins import plugins

ROOT = Path(__file__).resolve().parents[2]


def test_each_bundled_plugin_names_its_auto_play() -> None:
    bundled = [p for p in plugins() if p.order == 0]
    assert len(bundled) == 4
    for p in bundled:
        assert p.tactics == f"engine.rules.{p.id}.tactics:TACTICS"
        assert isinstance(tactics_for(p.id), Tactics)


def test_start_up_imports_no_auto_play() -> None:
    code = (
        "import sys, engine, engine.library, tui.cli; "
        "print(sorted(m for m in sys.modules if m.startswith('engine.odds') or m.endswith('.tactics')))"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120,
                         check=True)
    assert out.stdout.strip() == "[]", out.stderr
