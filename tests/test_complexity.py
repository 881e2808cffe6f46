"""No function of the app's own code too tangled or too long to hold in the head: radon's cyclomatic
complexity at most 20 (grade C; `radon cc -n D engine saves tui` lists nothing) and at most 80 lines,
in engine/, saves/ and tui/ (the rulesets' packages included)."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MAX_COMPLEXITY = 20
MAX_LINES = 80


def _blocks() -> list[tuple[str, str, int, int]]:
    """(file, function, complexity, lines) of every function and method."""
    from radon import complexity as cc  # a test extra: never skipped
    from radon.visitors import Class

    out = []
    for folder in ("engine", "saves", "tui"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            for block in cc.cc_visit(path.read_text(encoding="utf-8")):
                if isinstance(block, Class):
                    continue  # a class's number is its methods' (each checked on its own)
                name = f"{block.classname}.{block.name}" if getattr(block, "classname", None) else block.name
                out.append((str(path.relative_to(ROOT)), name, block.complexity, block.endline - block.lineno + 1))
    return out


def test_no_function_is_over_complexity_20() -> None:
    over = [f"{f}: {n} ({c})" for f, n, c, _ in _blocks() if c > MAX_COMPLEXITY]
    assert not over, "\n".join(over)


def test_no_function_is_over_80_lines() -> None:
    over = [f"{f}: {n} ({lines} lines)" for f, n, _, lines in _blocks() if lines > MAX_LINES]
    assert not over, "\n".join(over)
