"""`make bench`: one line per figure, `<name> <value> <unit>`.

Each module below has `run() -> list[tuple[str, float, str]]`; a module that is missing or fails is
reported on stderr and the others still run.
"""

from __future__ import annotations

import importlib
import sys
import traceback

MODULES = ("benchmarks.engine_bench", "benchmarks.save_bench", "benchmarks.tui_bench")


def main() -> int:
    failed = 0
    only = sys.argv[1:]
    for name in MODULES:
        if only and not any(o in name for o in only):
            continue
        try:
            mod = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            print(f"# {name}: not available ({exc})", file=sys.stderr)
            continue
        try:
            for fig, value, unit in mod.run():
                print(f"{fig} {value:.3f} {unit}", flush=True)
        except Exception:
            failed += 1
            traceback.print_exc()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
