"""The engine stays pure: importing it (and every ruleset) loads no textual and no rich."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import json, sys
import engine, engine.rules, engine.history, engine.dice
from engine import apply, new_fight, command_union, event_union
from engine import commands as C
command_union(); event_union()
f = new_fight("d20", seed=1)
f, _ = apply(f, C.AddCombatant("A"))
apply(f, C.StartFight())
print(json.dumps(sorted(m for m in sys.modules if m.split(".")[0] in ("textual", "rich"))))
"""


def test_importing_engine_loads_no_textual_or_rich():
    out = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(out.stdout.strip().splitlines()[-1]) == []


def test_engine_sources_do_not_import_textual_rich_or_do_file_io():
    banned = ("import textual", "from textual", "import rich", "from rich", "open(", "pathlib", "import os")
    for path in sorted((ROOT / "engine").rglob("*.py")):
        if path == ROOT / "engine" / "entry_points.py":
            continue  # the installed distributions' metadata, read as importlib.metadata would: no game data
        text = path.read_text(encoding="utf-8")
        for word in banned:
            assert word not in text, f"{path.relative_to(ROOT)} uses {word!r}"


# a function-local or conditional import of engine code is allowed only with a comment on its line
# saying why it is not a way round an import cycle (e.g. "typing only: ...", "lazy: ...")
ALLOW = ("typing only", "lazy:")


def _nested_engine_imports(tree: ast.Module) -> list[ast.stmt]:
    top = set(map(id, tree.body))
    out = []
    for node in ast.walk(tree):
        if id(node) in top:
            continue
        if isinstance(node, ast.Import) and any(a.name.split(".")[0] == "engine" for a in node.names):
            out.append(node)
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "engine":
            out.append(node)
    return out


def test_no_function_local_engine_imports_without_a_reason():
    bad = []
    for path in sorted((ROOT / "engine").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        lines = text.splitlines()
        for node in _nested_engine_imports(ast.parse(text)):
            line = lines[node.lineno - 1]
            if not any(word in line for word in ALLOW):
                bad.append(f"{path.relative_to(ROOT)}:{node.lineno}: {line.strip()}")
    assert bad == [], "engine imports inside functions or blocks (cycle dodges?):\n" + "\n".join(bad)


def _ruleset_packages() -> list[str]:
    rules = ROOT / "engine" / "rules"
    return sorted(p.parent.name for p in rules.glob("*/__init__.py"))


def _own(registry: dict) -> list[str]:  # type: ignore[type-arg]
    # the engine's own rulesets: one installed beside Fracas (tests/plainlist_pkg) lives in its package
    return sorted(rid for rid, rs in registry.items() if type(rs).__module__.startswith("engine.rules."))


def test_every_registered_ruleset_is_a_package_of_its_own():
    import engine

    assert _own(engine.REGISTRY) == _ruleset_packages()
    assert all(type(engine.REGISTRY[rid]).__module__.startswith(f"engine.rules.{rid}.") for rid in _ruleset_packages())


ORDER_PROBE = """
import importlib, sys
for name in sys.argv[1:]:
    importlib.import_module(name)
import engine
wanted = sorted(n.rsplit(".", 1)[-1] for n in sys.argv[1:] if n.count(".") == 2)
own = sorted(r for r, rs in engine.REGISTRY.items() if type(rs).__module__.startswith("engine.rules."))
assert own == wanted, engine.REGISTRY
print("ok")
"""


@pytest.mark.parametrize("rotation", range(4))
def test_each_ruleset_package_imports_first_in_a_fresh_interpreter(rotation: int):
    ids = _ruleset_packages()
    ids = ids[rotation:] + ids[:rotation]
    # the package first, then its modules in reverse, then the others: no order may meet a cycle
    names = [f"engine.rules.{i}" for i in ids]
    first = ids[0]
    subs = sorted(p.stem for p in (ROOT / "engine" / "rules" / first).glob("*.py") if p.stem != "__init__")
    modules = [f"engine.rules.{first}.{s}" for s in reversed(subs)] + names
    for order in (modules, list(reversed(modules))):
        out = subprocess.run(
            [sys.executable, "-c", ORDER_PROBE, *order],
            cwd=ROOT,
            env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
            capture_output=True,
            text=True,
        )
        assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr


def test_shared_mechanics_sit_below_core_and_the_rulesets():
    tree = ast.parse((ROOT / "engine" / "mechanics.py").read_text(encoding="utf-8"))
    imported = {n.module for n in tree.body if isinstance(n, ast.ImportFrom) and n.module}
    assert not {m for m in imported if m == "engine.core" or m.startswith("engine.rules")}
    assert "engine.ruleset" not in imported  # only under TYPE_CHECKING
