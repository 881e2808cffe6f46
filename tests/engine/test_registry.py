"""A ruleset living outside the engine (Plain list's package, tests/plainlist_pkg, installed beside
Fracas) is found through its entry point, with its own command and event types, and is then
playable, decodable and listed like the engine's own."""

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

assert engine.ruleset_ids()[-1] == "plainlist", engine.ruleset_ids()
f = new_fight("plainlist", seed=3)
f, _ = apply(f, C.AddCombatant("Ann", kind="pc", side="party", stats=(("init", 15),)))
f, _ = apply(f, C.AddCombatant("Bob"))
f, _ = apply(f, C.StartFight())
cmd = msgspec.json.decode(b'{"cmd":"plain_shove","who":"c1","target":"c2"}', type=command_union())
f, ev = apply(f, cmd)
line = msgspec.json.encode(ev[0])
assert msgspec.json.decode(line, type=event_union()) == ev[0]
print(describe(ev[0]))
f, _ = apply(f, C.NextTurn())
print(f.current, [a.key for a in engine.get_ruleset("plainlist").actions(f) if a.available][:3])
"""


def test_a_fifth_ruleset_is_found_through_its_entry_point_without_editing_the_engine():
    out = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, out.stderr
    lines = out.stdout.strip().splitlines()
    assert lines[0] == "Ann shoves Bob to the ground"
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
