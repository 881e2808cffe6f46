"""The tests that loop over the registry cover a fifth ruleset with no edit: a separate pytest, with
Plain list registered before collection (`-p tests.fifth.plugin`, as a ruleset living outside Fracas
registers on import), runs the engine's conformance and offers tests and the saves' round trip for it,
and the golden check still asks a golden file of the bundled rulesets only."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TESTS = [
    "tests/engine/test_conformance.py",
    "tests/engine/test_actions_economy.py",
    "tests/saves/test_roundtrip.py",
    "tests/saves/test_golden.py",
]


def test_the_registry_driven_tests_cover_plain_list() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "tests.fifth.plugin", *TESTS,
         "-k", "plainlist or bundled", "-rA"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-2000:]
    ran = [line for line in out.stdout.splitlines() if line.startswith("PASSED ")]
    for name in (
        "tests/engine/test_conformance.py::test_conformance_random_command_sequences[plainlist]",
        "tests/engine/test_actions_economy.py::test_actions_and_economy_agree_with_apply_over_random_fights[plainlist]",
        "tests/saves/test_roundtrip.py::test_save_load_equal[plainlist]",
        "tests/saves/test_golden.py::test_every_bundled_ruleset_has_a_golden_file_and_only_they",
    ):
        assert f"PASSED {name}" in ran, (name, out.stdout[-3000:])
    assert not any("golden" in line and "plainlist" in line for line in ran)  # no golden file asked of it
    assert "FAILED" not in out.stdout and "ERROR" not in out.stdout
