"""The app layer's shape: no tui module too long to hold in the head, the dialogs depend on an
interface rather than on the app, and the action table's rows are whole (each row carries what
check_action and the main screen need)."""

from __future__ import annotations

import ast
from pathlib import Path

from tui.actions import ACTIONS
from tui.rows import GENERIC

TUI = Path(__file__).resolve().parents[2] / "tui"
MAX_LINES = 800


def test_no_tui_module_is_over_800_lines() -> None:
    long = {str(p.relative_to(TUI)): n for p in TUI.rglob("*.py") if (n := len(p.read_text().splitlines())) > MAX_LINES}
    assert not long, long


def _runtime_imports(path: Path) -> set[str]:
    """The modules a file imports when it runs (not those under `if TYPE_CHECKING:`)."""
    tree = ast.parse(path.read_text())
    typing_only = {
        id(n)
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING"
        for n in ast.walk(node)
    }
    out: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.ImportFrom) and node.module:
            out.add(node.module)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
    return out


def test_the_dialogs_do_not_import_the_app() -> None:
    for path in [*(TUI / "dialogs").glob("*.py"), *(TUI / "rulesets").rglob("dialogs.py")]:
        assert "tui.app" not in _runtime_imports(path), path


def test_the_app_does_not_import_the_screen_it_refreshes() -> None:
    tree = ast.parse((TUI / "app.py").read_text())
    fn = next(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == "refresh_fight")
    assert not any(isinstance(n, (ast.Import, ast.ImportFrom)) for n in ast.walk(fn))


def test_every_row_that_opens_a_dialog_names_one_that_exists() -> None:
    import importlib

    for a in ACTIONS:
        if a.dialog:
            module, _, name = a.dialog.partition(":")
            assert callable(getattr(importlib.import_module(module), name)), a.id


def test_the_generic_rows_are_each_one_action() -> None:
    ids = [a.id for a in GENERIC]
    assert len(ids) == len(set(ids))
    # the rows that change the fight are refused in a read-only one; these only look at it
    assert {a.id for a in GENERIC if not a.changes} == {
        "party_back",
        "pane",
        "help",
        "export_md",
        "export_json",
        "saves",
        "odds",  # plays copies of the fight, never the fight itself: open in a read-only one too
    }


PROJECT = ("engine", "saves", "tui", "themes")
MAX_LOCAL_IMPORTS = 40


def test_function_local_imports_of_the_project_are_few_and_say_why() -> None:
    """The project's own modules are imported at the top, so the import graph is plain to see; a
    module is imported inside a function only where start-up needs it (each such line says why)."""
    found: list[str] = []
    silent: list[str] = []
    for path in sorted(TUI.rglob("*.py")):
        lines = path.read_text().splitlines()
        for fn in ast.walk(ast.parse("\n".join(lines))):
            if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for node in ast.walk(fn):
                if isinstance(node, ast.Import):
                    mods = [a.name for a in node.names]
                elif isinstance(node, ast.ImportFrom):
                    mods = [node.module or ""]
                else:
                    continue
                if any(m.split(".")[0] in PROJECT for m in mods):
                    where = f"{path.relative_to(TUI)}:{node.lineno}"
                    found.append(where)
                    if "#" not in lines[node.end_lineno - 1]:
                        silent.append(where)
    assert len(set(found)) <= MAX_LOCAL_IMPORTS, sorted(set(found))
    assert not silent, silent
