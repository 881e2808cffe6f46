"""The committed golden saves (one per ruleset and format version, written by make_golden.py into
golden/v<format>/) must keep loading, and replaying their journal must give exactly the recorded history
and state, with the whole undo history.

Format 1 files are read through their upgrade (saves/format.py, UPGRADES): their facts were recorded
as format 1 states, so each state read back is written back in format 1's form (`as_v1`: the one
Economy of every ruleset's fields, the one int `phase` for the ruleset's clock) and compared with
them; a field the upgrade lost or misplaced changes that form and fails here.

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
from engine import commands as C
from engine.state import Fight, state_hook
from saves import format as fmt
from saves.session import Session

GOLDEN = Path(__file__).resolve().parent / "golden"
ROOT = Path(__file__).resolve().parents[2]
VERSIONS = tuple(range(1, fmt.FORMAT + 1))  # every format ever written has its golden set


def bundled() -> tuple[str, ...]:
    """The rulesets Fracas ships (registered by engine/rules/__init__.py from its own packages), not
    one a test or a plugin registered: a golden file is a fixed file of an earlier version, so only
    those have one."""
    return tuple(rid for rid, rs in REGISTRY.items() if type(rs).__module__.startswith("engine.rules."))


RULESETS = bundled()


def folder(version: int) -> Path:
    return GOLDEN / f"v{version}"


# every ruleset in the current format; an older format's folder holds the rulesets bundled then (a
# ruleset bundled later never had a file of it)
CASES = [(v, r) for v in VERSIONS for r in RULESETS if v == fmt.FORMAT or (folder(v) / f"{r}.fracas").is_file()]


def test_every_bundled_ruleset_has_a_golden_file_and_only_they() -> None:
    # engine/rules/<id>/ is one package per bundled ruleset (docs/engine-api.md)
    packages = {p.parent.name for p in (ROOT / "engine" / "rules").glob("*/__init__.py")}
    assert set(RULESETS) == packages, (RULESETS, packages)
    assert set(bundled()) == set(RULESETS), "a ruleset was bundled after collection"
    assert {p.name for p in GOLDEN.iterdir() if p.is_dir()} == {f"v{v}" for v in VERSIONS}
    for rules in RULESETS:
        now = folder(fmt.FORMAT)
        assert (now / f"{rules}.fracas").is_file(), f"{rules}: no golden save (tests/saves/make_golden.py)"
        assert (now / f"{rules}.json").is_file(), f"{rules}: no golden expectation"
    assert {p.stem for p in folder(fmt.FORMAT).glob("*.fracas")} == set(RULESETS)
    for version in VERSIONS:
        saves = {p.stem for p in folder(version).glob("*.fracas")}
        assert saves and saves <= set(RULESETS), (version, saves)
        assert saves == {p.stem for p in folder(version).glob("*.json")}, f"v{version}: a file without its facts"
    assert {p.stem for p in folder(1).glob("*.fracas")} == {"d20", "cosmere", "ninephase", "warhammer"}


# format 1's Economy: its fields in their order (its JSON form, which the digests of format 1 hash)
V1_ECONOMY = (
    "actions", "bonus", "move", "reactions", "parries", "defensive", "gambit", "master", "used", "phases",
    "speed", "done", "ready", "dodging", "disengaged", "attacks", "attack_option",
)  # fmt: skip


def as_v1(state: Fight) -> Any:
    """`state` as format 1 held it (plain JSON data): every ruleset's economy back in the one Economy,
    the ruleset's clock back in `phase`, where the clock is now (Fight's field order is the same)."""
    raw = msgspec.json.decode(msgspec.json.encode(state))
    assert type(state.clock) is REGISTRY[state.ruleset].clock_type, state.clock
    # format 1 wrote `phase` unless it was 0, its default; the int is what the clock stands for
    raw = {
        k: v
        for key, value in raw.items()
        for k, v in ((("phase", state.phase),) if key == "clock" else ((key, value),))
        if k != "phase" or v != 0
    }
    for c in raw.get("combatants", ()):
        e = c.get("economy")
        if e is None:
            continue
        assert set(e) - {"type"} <= set(V1_ECONOMY), f"{sorted(e)}: a field format 1 did not have"
        # the engine always gave a combatant an Economy of its own, which format 1 wrote even when all
        # its fields were defaults (msgspec leaves out only the default instance itself)
        c["economy"] = {"type": "economy", **{k: e[k] for k in V1_ECONOMY if k in e}}
    return raw


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
    start: Any  # plain data: a state of that format (see `same`)
    state: Any


def load_expected(version: int, rules: str) -> Expected:
    raw = msgspec.json.decode((folder(version) / f"{rules}.json").read_bytes(), type=Expected)
    commands = msgspec.json.Decoder(command_union() | None)  # type: ignore[operator]
    events = msgspec.json.Decoder(list[event_union()])  # type: ignore[misc]
    for node in raw.nodes:
        node.command = commands.decode(msgspec.json.encode(node.command))
        node.events = events.decode(msgspec.json.encode(node.events))
    return raw


def digest(state: Fight, version: int) -> str:
    data = msgspec.json.encode(as_v1(state) if version == 1 else state)
    return hashlib.sha256(data).hexdigest()[:16]


def same(state: Fight, want: Any, version: int) -> bool:
    """`state` (read now) is the recorded one: in format 1's form for a format 1 file, else decoded."""
    if version == 1:
        return as_v1(state) == want
    return state == msgspec.convert(want, Fight, dec_hook=state_hook)


@pytest.mark.parametrize(("version", "rules"), CASES)
def test_golden_save_loads_and_replays(version: int, rules: str, tmp_path: Path) -> None:
    golden = folder(version) / f"{rules}.fracas"
    before = golden.read_bytes()
    exp = load_expected(version, rules)
    assert exp.format == version
    s = Session.open(golden, readonly=True)
    assert golden.read_bytes() == before
    if version == fmt.FORMAT:
        assert s.notices == []
    else:
        assert s.notices == [f"an older save (format {version}), read through its upgrade"]
    # the header read back says the format it is now in: an older one was upgraded record by record
    assert s.header is not None and s.header.format == fmt.FORMAT and s.header.ruleset == rules
    for node in s.history.nodes:
        assert all(type(c.economy) is REGISTRY[rules].economy_type for c in node.state.combatants)
        assert type(node.state.clock) is REGISTRY[rules].clock_type
    h = s.history
    assert len(h.nodes) == len(exp.nodes) and h.cursor == exp.cursor
    for i, (node, want) in enumerate(zip(h.nodes, exp.nodes, strict=True)):
        assert node.parent == want.parent and node.redo == want.redo, f"node {i}: links"
        assert node.command == want.command, f"node {i}: command"
        assert node.events == tuple(want.events), f"node {i}: events"
        assert digest(node.state, version) == want.state, f"node {i}: state"
    assert same(h.nodes[0].state, exp.start, version)
    assert same(s.state, exp.state, version)
    assert len(h.nodes) > len(h.path()), "the golden file should hold an abandoned branch"


@pytest.mark.parametrize(("version", "rules"), CASES)
def test_golden_save_plays_on(version: int, rules: str, tmp_path: Path) -> None:
    """A copy opened for writing: undo reaches the start of the fight, redo comes back, and new
    records append after the old ones (an older format's file is rewritten in the current format
    first, as the session does, and keeps its whole history)."""
    copy = tmp_path / f"{rules}.fracas"
    shutil.copyfile(folder(version) / f"{rules}.fracas", copy)
    exp = load_expected(version, rules)
    s = Session.open(copy)
    depth = len(s.history.path()) - 1
    while s.undo() is not None:
        pass
    assert same(s.state, exp.start, version)
    for _ in range(depth):
        assert s.redo() is not None
    assert same(s.state, exp.state, version)
    s.apply(C.Note(text="played on in a newer Fracas"))
    s.close()
    back = Session.open(copy, readonly=True)
    assert back.header is not None and back.header.format == fmt.FORMAT
    assert back.history.nodes[-1].command == C.Note(text="played on in a newer Fracas")
    assert len(back.history.nodes) == len(exp.nodes) + 1
