"""docs/adding-a-ruleset.md walked against Plain list (tests/plainlist_pkg): every file the page says a
ruleset brings is in the package (and its plugin names the ones a `Plugin` field names), the one
entry-point line is in its pyproject.toml, no file of Fracas's own names it, its slice's keys are no
other action's, and its engine-checked actions are offered under the same key by the engine."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from plainlist.plugin import PLUGIN
from plainlist.rules import ID

from engine import apply, new_fight
from engine import commands as C
from engine.plugins import get_plugin, resource

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "adding-a-ruleset.md"
PACKAGE = ROOT / "tests" / "plainlist_pkg"
ROW = re.compile(r"^\| `([^`]+)` \|([^|]*)\| [^|]+ \|$", re.M)
# Fracas's own code and configuration: a ruleset from elsewhere edits none of it
OWN = ("engine", "saves", "tui", "benchmarks", "themes", "pyproject.toml")


def _brings() -> list[tuple[str, list[str]]]:
    """(file, the Plugin fields that name it) of each row of the page's table of what a ruleset brings."""
    text = DOC.read_text(encoding="utf-8")
    section = text[text.index("## What a ruleset brings") : text.index("\n## 1.")]
    return [(path, re.findall(r"`(\w+)`", fields)) for path, fields in ROW.findall(section)]


def test_the_page_lists_the_files_and_the_entry_point_line() -> None:
    text = DOC.read_text(encoding="utf-8")
    block = re.search(r"```toml\n(.*?)```", text, re.S)
    assert block is not None
    lines = [line for line in block[1].splitlines() if line.strip()]
    assert lines == ['[project.entry-points."fracas.rulesets"]', 'plainlist = "plainlist.plugin:PLUGIN"']
    toml = (PACKAGE / "pyproject.toml").read_text(encoding="utf-8")
    assert "\n".join(lines) in toml
    assert len(_brings()) >= 9


@pytest.mark.parametrize("path,fields", _brings(), ids=lambda x: str(x))
def test_plain_list_has_each_file_the_page_lists(path: str, fields: list[str]) -> None:
    file = ROOT / path
    assert file.is_file(), f"the page lists {path}, which Plain list does not have"
    for name in fields:
        value = getattr(PLUGIN, name)
        assert value, f"Plain list's plugin does not set {name}"
        if name in ("demo", "docs", "examples", "snapshot", "golden", "bestiary"):
            assert resource(value) == file.read_bytes(), f"{name} = {value} is not {path}"
        elif name == "ui":
            assert file == PACKAGE / (value.replace(".", "/") + ".py")


def test_it_is_the_plugin_the_entry_point_names() -> None:
    assert get_plugin(ID) is PLUGIN


def test_no_file_of_fracas_own_names_it() -> None:
    listed = subprocess.run(["git", "ls-files", *OWN], cwd=ROOT, capture_output=True, text=True, check=True)
    pattern = re.compile(r"plain ?list|plain_shove|plain_shoved", re.I)
    found = [
        name
        for name in listed.stdout.split()
        if (ROOT / name).is_file() and pattern.search((ROOT / name).read_text(encoding="utf-8", errors="replace"))
    ]
    assert not found, f"Fracas's own files name Plain list: {found}"


def _keys(keys: str | None) -> set[str]:
    return {k.strip() for k in (keys or "").split(",") if k.strip()}


def test_its_keys_are_no_other_actions() -> None:
    from tui.actions import GENERIC
    from tui.rulesets import get_ui, registered

    mine = get_ui(ID)
    others = [a for a in GENERIC] + [a for ui in registered() if ui is not mine for a in ui.actions]
    taken = {k: a.id for a in others for k in _keys(a.keys)}
    for action in mine.actions:
        for key in _keys(action.keys):
            assert key not in taken, f"Plain list's {action.id} has key {key!r}, which {taken[key]} has"


def test_its_engine_checked_actions_are_offered_under_their_keys() -> None:
    from tui.rulesets import get_ui

    ui = get_ui(ID)
    f = new_fight(ID, seed=1)
    for cmd in (C.AddCombatant("Ann", stats=(("init", 15),)), C.AddCombatant("Bob"), C.StartFight()):
        f, _ = apply(f, cmd)
    offered = {a.key for a in PLUGIN.ruleset.actions(f)}
    checked = {a.offer_key for a in ui.actions if a.engine}
    assert checked == {"shove"}
    assert checked <= offered, f"no engine offer for {checked - offered}: the key would never work"


@pytest.mark.parametrize("module", ["plainlist.plugin", "plainlist.rules", "plainlist.slice", "plainlist.dialogs"])
def test_each_module_of_the_package_imports_first_in_a_fresh_interpreter(module: str) -> None:
    # its __init__ imports the engine first, which loads the plugin whole, whichever module came first
    code = f"import {module}, engine; assert engine.ruleset_ids()[-1] == {ID!r}; print('ok')"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr
