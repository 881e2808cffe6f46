"""What-are-the-odds figures for `make bench` (engine/odds, `fracas odds`).

- sim.runs_per_s.<ruleset>: 1,000 runs of the ruleset's demo fight (saves/demos, from before its
  start: the encounter's difficulty) with `simulate` on every core, as `fracas odds` runs them, the
  worker processes' start included; runs per second of wall time.
- sim.command_us.<ruleset>: the cost of one simulated command on that demo, in this process: the
  wall time of 100 runs (the auto-play's choices and the loop included) divided by the commands they
  applied through the engine; the best of three timings.
- sim.engine_us.<ruleset>: the engine's own share of that: the same commands (recorded from the same
  runs, refusals included) applied again alone, per command (the best of three, taken in turn with
  the above). What sim.command_us adds to it is the
  auto-play's choices and the loop; the rest is what those commands cost the engine (attacks and turns
  that cross phases cost more than the table mix's median command).
- sim.per_command_ratio: the worst of sim.command_us over the demos, divided by `engine.apply_us`
  (benchmarks/engine_bench.py: the median of one `apply` over its 10,000-command d20 table mix)
  measured in the same run, just after each demo's timing. Target: at most 3.
"""

from __future__ import annotations

import statistics
import time
from typing import Any

import engine.odds.play as odds_play
from benchmarks import engine_bench
from engine import RuleError, apply
from engine.odds import simulate, tactics_for
from engine.odds.play import play, run_seed
from engine.odds.runs import members
from engine.plugins import plugins
from saves.demo import demo_fight, has_demo

RUNS = 1000
SAMPLE = 100  # runs in this process for the per-command cost
REPEAT = 3
SEED = 2024
TARGET = 3.0


def demos() -> list[str]:
    """The rulesets with a demo fight and an auto-play."""
    out = []
    for p in plugins():
        if p.tactics and has_demo(p.id):
            out.append(p.id)
    return out


def command_us(rid: str, runs: int = SAMPLE) -> tuple[float, float]:
    """Microseconds of one simulated command on the ruleset's demo fight, in this process; and of
    the engine alone applying the same commands again. Each the best of REPEAT timings, taken in
    turn (this machine is shared: the best is the one least disturbed)."""
    f = demo_fight(rid)
    tactics = tactics_for(rid)
    ids = tuple(m.id for m in members(f))
    memo: dict = {}
    play(f, tactics, run_seed(SEED, -1), ids, memo)  # warm: the statblocks decoded, the options worked out
    recorded = _recorded(f, tactics, ids, memo, runs)
    sims, alones = [], []
    for _ in range(REPEAT):
        commands = 0
        t0 = time.perf_counter()
        for i in range(runs):
            commands += play(f, tactics, run_seed(SEED, i), ids, memo).commands
        sims.append((time.perf_counter() - t0) / max(1, commands) * 1e6)
        t0 = time.perf_counter()
        for state, cmd in recorded:
            try:
                apply(state, cmd)
            except RuleError:
                pass
        alones.append((time.perf_counter() - t0) / max(1, len(recorded)) * 1e6)
    return min(sims), min(alones)


def _recorded(f: Any, tactics: Any, ids: tuple[str, ...], memo: dict, runs: int) -> list[tuple[Any, Any]]:
    """Every (state, command) the same runs hand to the engine."""
    seen: list[tuple[Any, Any]] = []
    real = odds_play.apply

    def recording(state: Any, cmd: Any) -> Any:
        seen.append((state, cmd))
        return real(state, cmd)

    odds_play.apply = recording  # type: ignore[assignment]
    try:
        for i in range(runs):
            play(f, tactics, run_seed(SEED, i), ids, memo)
    finally:
        odds_play.apply = real  # type: ignore[assignment]
    return seen


def runs_per_s(rid: str, runs: int = RUNS, workers: int = 0) -> float:
    f = demo_fight(rid)
    t0 = time.perf_counter()
    simulate(f, runs, SEED, workers=workers)
    return runs / (time.perf_counter() - t0)


def apply_us(start: object, cmds: list) -> float:
    return statistics.median(engine_bench.time_apply(start, cmds)) / 1000  # type: ignore[arg-type]


def run() -> list[tuple]:
    start, cmds = engine_bench.script()
    engine_bench.time_apply(start, cmds[:500])  # warm, as engine_bench does
    out: list[tuple] = []
    worst = 0.0
    for rid in demos():
        out.append((f"sim.runs_per_s.{rid}", runs_per_s(rid), "runs/s"))
        us, alone = command_us(rid)
        base = apply_us(start, cmds)
        out.append((f"sim.command_us.{rid}", us, "us"))
        out.append((f"sim.engine_us.{rid}", alone, "us"))
        worst = max(worst, us / base)
    out.append(("sim.per_command_ratio", worst, "x", TARGET))
    return out


if __name__ == "__main__":
    from benchmarks.__main__ import line

    for fig in run():
        print(line(*fig))
