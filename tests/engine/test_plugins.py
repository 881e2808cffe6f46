"""The rulesets are plugins found through the entry-point group `fracas.rulesets` (engine/plugins.py)."""

from __future__ import annotations

import importlib.metadata

import engine
from engine.plugins import GROUP, default_id, get_plugin, plugins, resource

BUNDLED = ("cosmere", "d20", "ninephase", "warhammer")


def test_the_four_bundled_rulesets_are_entry_points_of_fracas() -> None:
    points = {p.name: p for p in importlib.metadata.entry_points(group=GROUP)}
    for rid in BUNDLED:
        assert points[rid].value == f"engine.rules.{rid}.plugin:PLUGIN"
        assert points[rid].dist is not None and points[rid].dist.name == "fracas"


def test_they_are_listed_first_in_order_and_registered() -> None:
    ids = tuple(p.id for p in plugins())
    assert ids[:4] == BUNDLED
    assert engine.ruleset_ids() == ids
    assert all(engine.get_ruleset(p.id) is p.ruleset for p in plugins())


def test_one_default_the_d20_plugins_flag() -> None:
    assert [p.id for p in plugins() if p.default] == [default_id()] == ["d20"]


def test_read_once_per_process() -> None:
    assert plugins() is plugins()
    assert get_plugin("no such ruleset") is None


def test_every_file_a_plugin_names_is_there() -> None:
    for p in plugins():
        for field in ("bestiary", "demo", "docs", "examples", "golden", "snapshot"):
            spec = getattr(p, field)
            assert not spec or resource(spec), f"{p.id}: {field} = {spec} is not there"
        assert bool(p.demo) == bool(p.demo_name), p.id
    for rid in BUNDLED:
        p = get_plugin(rid)
        assert p is not None and all((p.ui, p.kind, p.bestiary, p.demo, p.docs, p.examples, p.golden, p.snapshot))


def test_a_missing_resource_is_none() -> None:
    assert resource("engine:no/such/file.md") is None
    assert resource("") is None


def test_the_quick_entry_point_read_finds_what_importlib_metadata_finds() -> None:
    """engine.entry_points reads the metadata without importing importlib.metadata (start-up): it must
    find exactly the same entry points, and say it is unsure (None) rather than read a file otherwise."""
    import importlib.metadata

    from engine import entry_points

    quick = entry_points.read("fracas.rulesets")
    assert quick is not None
    assert sorted(quick) == sorted((p.name, p.value) for p in importlib.metadata.entry_points(group="fracas.rulesets"))
    assert entry_points._parse("[fracas.rulesets]\nnot an entry point\n", "fracas.rulesets") is None
    assert entry_points._dist_name("My.Pkg-1.0.dist-info") == "my_pkg"


def test_start_up_does_not_import_importlib_metadata() -> None:
    import subprocess
    import sys

    code = "import sys, engine, tui.cli; print('importlib.metadata' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    assert out.stdout.strip() == "False", out.stderr
