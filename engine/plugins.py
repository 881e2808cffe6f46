"""Rulesets are plugins: each is found through an entry point of the group `fracas.rulesets`, naming
one `Plugin` that carries everything about it. The bundled four are registered in Fracas's own
pyproject.toml; a ruleset living in a package of its own names its `Plugin` the same way:

    [project.entry-points."fracas.rulesets"]
    mysystem = "fracas_mysystem.plugin:PLUGIN"

`plugins()` reads the entry points once per process, in the order they are listed (`order`, then
id). The engine registers each plugin's ruleset (engine/rules/__init__.py), the library imports its
statblock kind, the app imports its slice when it first needs one (tui/rulesets/__init__.py), the
saves take its demo, the odds (engine/odds) import its auto-play when a simulation first runs; the
tests take its docs page, worked examples, golden-save script and snapshot fight from it
(docs/adding-a-ruleset.md).

The engine reads no files of its own: the entry points are read from the installed distributions'
metadata (engine.entry_points, as importlib.metadata finds them, without its import cost; it is
asked when unsure), once per process when engine.rules is imported, and the files a
plugin names are package resources, `"package:path/in/it"`, read with pkgutil by `resource()` when
asked for.
"""

from __future__ import annotations

import importlib
import pkgutil

import msgspec

from engine import entry_points
from engine.commands import Command
from engine.events import Event
from engine.ruleset import Ruleset

GROUP = "fracas.rulesets"


class Plugin(msgspec.Struct, frozen=True, kw_only=True):
    """Everything about one ruleset. A file is named as a resource, `"package:path"` relative to the
    package's folder (`resource` reads it); a ruleset may leave out what it does not bring (a demo,
    a bestiary), and the tests ask of it what they ask of the bundled ones where it brings it."""

    id: str
    ruleset: Ruleset  # the engine ruleset, registered under `id`
    commands: tuple[type[Command], ...] = ()  # its own command types, if not registered on import
    events: tuple[type[Event], ...] = ()  # its own event types, likewise
    ui: str = ""  # the module of its app slice, imported when the app first needs a slice
    order: int = 100  # listing order (start screen, `fracas`), then id; the bundled ones are 0
    default: bool = False  # the ruleset `fracas demo` and a new fight fall back on (one plugin)
    kind: str = ""  # the module that registers its statblock kind (engine.library imports it)
    bestiary: str = ""  # its starter bestiary (TOML)
    demo: str = ""  # its demo fight: JSON Lines of script commands (saves/demo.py)
    demo_name: str = ""  # the demo fight's name (the saves list tells demo copies by it)
    docs: str = ""  # its rules page: how Fracas reads each rule (docs/rules/<id>.md)
    examples: str = ""  # the Markdown file holding its worked examples and command tables
    # the test tables: its golden-save script (JSON Lines: commands, "undo", "redo" and one "save-as";
    # tests/saves/make_golden.py) and the commands that make its snapshot fight of the started demo
    # (JSON Lines; tests/tui/test_snapshots.py)
    golden: str = ""
    snapshot: str = ""
    # its auto-play for `fracas odds` (engine/odds): "module:object", a `engine.odds.Tactics`, imported
    # only when a simulation runs (start-up never loads it); "" = the ruleset has no auto-play
    tactics: str = ""


def bundled(rid: str, ruleset: Ruleset, demo_name: str, *, default: bool = False) -> Plugin:
    """A ruleset shipped with Fracas, its files where this repository keeps them: the slice in
    tui/rulesets/<id>, the kind and bestiary in engine/library, the demo in saves/demos; its docs
    page, worked examples and test tables in the source tree only (docs/, tests/)."""
    return Plugin(
        id=rid,
        ruleset=ruleset,
        ui=f"tui.rulesets.{rid}",
        order=0,
        default=default,
        kind=f"engine.library.{rid}",
        bestiary=f"engine.library:bestiary/{rid}.toml",
        demo=f"saves:demos/{rid}.jsonl",
        demo_name=demo_name,
        docs=f"engine:../docs/rules/{rid}.md",
        examples="engine:../docs/commands.md",
        golden=f"engine:../tests/saves/scripts/{rid}.jsonl",
        snapshot=f"engine:../tests/tui/fights/{rid}.jsonl",
        tactics=f"engine.rules.{rid}.tactics:TACTICS",
    )


def resource(spec: str) -> bytes | None:
    """The bytes of a resource `"package:path"` a plugin names (None when it names none, or the file
    is missing)."""
    package, _, path = spec.partition(":")
    if not package or not path:
        return None
    try:
        return pkgutil.get_data(package, path)
    except OSError:
        return None


_cache: tuple[Plugin, ...] | None = None


def plugins() -> tuple[Plugin, ...]:
    """Every ruleset plugin, loaded once per process, in listing order."""
    global _cache
    if _cache is None:
        loaded: list[Plugin] = []
        for name, value in _points():
            plugin = _load(name, value)
            if any(p.id == plugin.id for p in loaded):  # (one distribution installed twice is listed once)
                raise ValueError(f"ruleset id {plugin.id!r} is named by two entry points ({value})")
            loaded.append(plugin)
        _cache = tuple(sorted(loaded, key=lambda p: (p.order, p.id)))
    return _cache


def _points() -> list[tuple[str, str]]:
    """(name, value) of the group's entry points: engine.entry_points' quick read, else (when it is
    unsure) importlib.metadata's, which costs start-up its import."""
    found = entry_points.read(GROUP)
    if found is not None:
        return found
    import importlib.metadata  # lazy: only when the quick read is unsure (start-up)

    return [(p.name, p.value) for p in importlib.metadata.entry_points(group=GROUP)]


def _load(name: str, value: str) -> Plugin:
    module, _, attr = value.partition(":")
    try:
        plugin = getattr(importlib.import_module(module.strip()), attr.strip()) if attr else None
    except (ImportError, AttributeError) as exc:
        # most often a module of the plugin's package imported before the engine: the package's
        # __init__ imports engine first (docs/adding-a-ruleset.md)
        raise ImportError(f"ruleset plugin {name} = {value} could not be loaded: {exc}") from exc
    if not isinstance(plugin, Plugin) or plugin.id != name:
        raise TypeError(f"entry point {name} = {value} does not name the Plugin of {name!r}")
    return plugin


def get_plugin(rid: str) -> Plugin | None:
    return next((p for p in plugins() if p.id == rid), None)


def default_id() -> str:
    """The id of the default ruleset: the plugin flagged `default`, else the first listed."""
    found = plugins()
    return next((p.id for p in found if p.default), found[0].id if found else "")
