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
