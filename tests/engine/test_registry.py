"""A ruleset living outside the engine registers itself, with its own command and event types, and
is then playable, decodable and listed like the engine's own (issue 12)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import engine
from engine import RuleError
from engine.rules.d20 import D20

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import msgspec
import engine
from engine import apply, command_union, describe, event_union, new_fight
from engine import commands as C
import tests.engine.fifth_ruleset as toy

assert engine.ruleset_ids()[-1] == "toy", engine.ruleset_ids()
f = new_fight("toy", seed=3)
f, _ = apply(f, C.AddCombatant("Ann", kind="pc", side="party"))
f, _ = apply(f, C.AddCombatant("Bob"))
f, _ = apply(f, C.StartFight())
cmd = msgspec.json.decode(b'{"cmd":"toy_shout","who":"c1"}', type=command_union())
f, ev = apply(f, cmd)
line = msgspec.json.encode(ev[0])
assert msgspec.json.decode(line, type=event_union()) == ev[0]
print(describe(ev[0]))
f, _ = apply(f, C.NextTurn())
print(f.current, [a.key for a in engine.get_ruleset("toy").actions(f) if a.available][:3])
"""


def test_a_fifth_ruleset_registers_itself_without_editing_the_engine():
    out = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, out.stderr
    lines = out.stdout.strip().splitlines()
    assert lines[0] == "Ann shouts"
    assert lines[1].startswith("c2 ")


def test_an_id_cannot_be_taken_twice():
    class Other(D20):
        pass

    with pytest.raises(ValueError, match="taken"):
        engine.register_ruleset(Other())
    assert type(engine.REGISTRY["d20"]) is D20


def test_unknown_ruleset_names_the_known_ones():
    with pytest.raises(RuleError, match="Known: cosmere, d20"):
        engine.get_ruleset("chess")


def test_the_registry_driven_tests_cover_a_fifth_ruleset():
    """Loaded before collection (`-p`), the toy ruleset is in the conformance and offers tests."""
    tests = ["tests/engine/test_conformance.py", "tests/engine/test_actions_economy.py"]
    out = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "tests.engine.fifth_ruleset",
         *tests, "-k", "toy", "-rA"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, out.stdout[-3000:]
    assert "test_conformance.py::test_conformance_random_command_sequences[toy]" in out.stdout
    assert "test_actions_economy.py::test_actions_and_economy_agree_with_apply_over_random_fights[toy]" in out.stdout
    assert "FAILED" not in out.stdout
