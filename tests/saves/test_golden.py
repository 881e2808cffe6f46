"""The committed golden saves of format version 1 (one per ruleset, written by make_golden.py) must keep
loading, and replaying their journal must give exactly the recorded history and state.

If this fails after an engine change, old save files no longer read as they did: make the change
backwards compatible (new fields get defaults, tags and names never change) or add an upgrade step
in saves/format.py. Never regenerate the golden files to make it pass."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path
from typing import Any

import msgspec
import pytest

from engine import REGISTRY, command_union, event_union
from engine.state import Fight
from saves.session import Session

GOLDEN = Path(__file__).resolve().parent / "golden"
ROOT = Path(__file__).resolve().parents[2]


def bundled() -> tuple[str, ...]:
    """The rulesets Fracas ships (registered by engine/rules/__init__.py from its own packages), not
    one a test or a plugin registered: a golden file is a fixed file of an earlier version, so only
    those have one."""
    return tuple(rid for rid, rs in REGISTRY.items() if type(rs).__module__.startswith("engine.rules."))


RULESETS = bundled()


def test_every_bundled_ruleset_has_a_golden_file_and_only_they() -> None:
    # engine/rules/<id>/ is one package per bundled ruleset (docs/engine-api.md)
    packages = {p.parent.name for p in (ROOT / "engine" / "rules").glob("*/__init__.py")}
    assert set(RULESETS) == packages, (RULESETS, packages)
    assert set(bundled()) == set(RULESETS), "a ruleset was bundled after collection"
    for rules in RULESETS:
        assert (GOLDEN / f"{rules}.fracas").is_file(), f"{rules}: no golden save (tests/saves/make_golden.py)"
        assert (GOLDEN / f"{rules}.json").is_file(), f"{rules}: no golden expectation"
    assert {p.stem for p in GOLDEN.glob("*.fracas")} == set(RULESETS)


class ExpectedNode(msgspec.Struct):
    parent: int
    redo: int
    command: Any
    events: list[Any]
    state: str


class Expected(msgspec.Struct):
    format: int
    cursor: int
    nodes: list[ExpectedNode]
    start: Fight
    state: Fight


def load_expected(rules: str) -> Expected:
    raw = msgspec.json.decode((GOLDEN / f"{rules}.json").read_bytes(), type=Expected)
    commands = msgspec.json.Decoder(command_union() | None)  # type: ignore[operator]
    events = msgspec.json.Decoder(list[event_union()])  # type: ignore[misc]
    for node in raw.nodes:
        node.command = commands.decode(msgspec.json.encode(node.command))
        node.events = events.decode(msgspec.json.encode(node.events))
    return raw


def digest(state: Fight) -> str:
    return hashlib.sha256(msgspec.json.encode(state)).hexdigest()[:16]


@pytest.mark.parametrize("rules", RULESETS)
def test_golden_save_loads_and_replays(rules: str, tmp_path: Path) -> None:
    golden = GOLDEN / f"{rules}.fracas"
    before = golden.read_bytes()
    exp = load_expected(rules)
    s = Session.open(golden, readonly=True)
    assert golden.read_bytes() == before
    assert s.notices == []
    assert s.header is not None and s.header.format == exp.format == 1 and s.header.ruleset == rules
    h = s.history
    assert len(h.nodes) == len(exp.nodes) and h.cursor == exp.cursor
    for i, (node, want) in enumerate(zip(h.nodes, exp.nodes, strict=True)):
        assert node.parent == want.parent and node.redo == want.redo, f"node {i}: links"
        assert node.command == want.command, f"node {i}: command"
        assert node.events == tuple(want.events), f"node {i}: events"
        assert digest(node.state) == want.state, f"node {i}: state"
    assert h.nodes[0].state == exp.start
    assert s.state == exp.state
    assert len(h.nodes) > len(h.path()), "the golden file should hold an abandoned branch"


@pytest.mark.parametrize("rules", RULESETS)
def test_golden_save_plays_on(rules: str, tmp_path: Path) -> None:
    """A copy opened for writing: undo reaches the start of the fight, redo comes back, and new
    records append after the old ones."""
    copy = tmp_path / f"{rules}.fracas"
    shutil.copyfile(GOLDEN / f"{rules}.fracas", copy)
    exp = load_expected(rules)
    s = Session.open(copy)
    depth = len(s.history.path()) - 1
    while s.undo() is not None:
        pass
    assert s.state == exp.start
    for _ in range(depth):
        assert s.redo() is not None
    assert s.state == exp.state
    from engine import commands as C

    s.apply(C.Note(text="played on in a newer Fracas"))
    s.close()
    back = Session.open(copy, readonly=True)
    assert back.history.nodes[-1].command == C.Note(text="played on in a newer Fracas")
    assert len(back.history.nodes) == len(exp.nodes) + 1
