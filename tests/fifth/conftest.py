"""Plain list, the fifth ruleset, registered from the test setup with the public functions only.

- The app slice is registered once, when this file is loaded, and stays: tui/main.py builds the main
  screen's key bindings and action methods from the registered slices when it is first imported, so a
  slice registered later would have no key. pytest loads this file before collecting when tests/fifth
  (or a file in it) is named on the command line, and in a whole-suite run while collecting tests/fifth,
  before any test runs: only tests/cli and tests/engine are collected before it, and neither imports
  tui.main (checked below: if that changes, collection stops with the reason rather than a pilot test
  failing without its key). The
  slice only adds its own row to the action table; no other ruleset offers it, and the start screen
  lists only rulesets the engine knows.
- The engine ruleset is registered for each test here, and taken out again after it, so tests
  elsewhere that loop over the engine's registry (docs/commands.md's examples, the script runner's,
  the start screen's list) see the same four rulesets whether tests/fifth ran in the same process or
  not. Its command and event types stay in `command_union()` / `event_union()` (there is no way to
  take them out, and a command no ruleset of the fight handles is refused like any other's).
  tests/fifth/test_registry_loops.py runs the registry-driven tests of tests/engine and tests/saves in
  a separate pytest with Plain list registered before collection (`-p tests.fifth.plugin`), the way a
  ruleset living outside the engine is loaded.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator

import pytest

from engine import REGISTRY, register_ruleset
from tests.fifth.plainlist import COMMANDS, EVENTS, ID, PlainList
from tests.fifth.slice import PlainListUI
from tui.rulesets import register

RULESET = PlainList()
UI = register(PlainListUI())

_main = sys.modules.get("tui.main")
if _main is not None and not {a.action for a in UI.actions} <= _main.OWN:
    raise RuntimeError(
        "tui.main was imported before tests/fifth/conftest.py registered Plain list's app slice, so the "
        "main screen has no key for its actions: register it before the app is imported"
    )


@pytest.fixture(autouse=True)
def _isolated(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Never read or write the real settings file or saves folder."""
    monkeypatch.setenv("FRACAS_CONFIG_DIR", str(tmp_path_factory.mktemp("config")))
    monkeypatch.setenv("FRACAS_DATA_DIR", str(tmp_path_factory.mktemp("saves")))


@pytest.fixture(autouse=True)
def plainlist() -> Iterator[PlainList]:
    """The engine knows Plain list during each test here (and, unless it was registered before, only then)."""
    was = REGISTRY.get(ID)
    register_ruleset(RULESET, commands=COMMANDS, events=EVENTS)
    yield RULESET
    if was is None:
        REGISTRY.pop(ID, None)
