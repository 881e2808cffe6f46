"""`make bench`: one line per figure, `<name> <value> <unit>`.

Each module below has `run()`, a list of `(name, value, unit)` or `(name, value, unit, target)`; a
figure with a target (an upper bound: all of them are ratios against a floor measured in the same run)
has it appended to its line, with whether it is met: `tui.keypress_ratio 2.412 x  target <= 3: met`.
The first three fields stay `<name> <value> <unit>`. A module that is missing or fails is reported on
stderr and the others still run.
"""

from __future__ import annotations

import importlib
import sys
import traceback

MODULES = ("benchmarks.engine_bench", "benchmarks.save_bench", "benchmarks.tui_bench", "benchmarks.sim_bench")


def line(fig: str, value: float, unit: str, target: float | None = None) -> str:
    text = f"{fig} {value:.3f} {unit}"
    if target is not None:
        text += f"  target <= {target:g}: {'met' if value <= target else 'MISSED'}"
    return text


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
            for fig in mod.run():
                print(line(*fig), flush=True)
        except Exception:
            failed += 1
            traceback.print_exc()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
