"""What are the odds: the rest of a fight played many times over by each ruleset's auto-play.

The API the CLI (`fracas odds`) and the app use:

    simulate(f, runs=1000, seed=0, *, workers=0, on_progress=None, cancelled=None) -> Odds

- `f`: the fight as it stands (before its start too: then the encounter's difficulty). It is never
  changed (the engine is pure) and nothing is saved.
- `runs` (1 to 100,000) continuations, each from `f` with its own dice: run i's seed is mixed from
  `seed` and i, so the result is the same for a seed whatever the number of workers.
- `workers`: 0 = every core (fewer than 100 runs stay in this process: a pool's start costs more than
  they do), 1 = in this process (the tests), n = a pool of n processes (spawned: the fight goes to
  them as msgspec bytes). The runs go in chunks; after each, `on_progress` is called
  in the caller's thread with the Odds so far, and `cancelled()` is asked: true stops there and
  returns what was finished. `initializer(*initargs)` runs first in each worker process (the
  app's lowers their priority).
- A RuleError in one line: a ruleset without auto-play ("<its title> has no auto-play: odds cannot be
  simulated"), a fight that is over or has nobody left on one side, runs or workers out of range.

`Odds` (engine/odds/report.py) holds each side's wins with its 95% interval, the unfinished runs
(the round cap, 50 rounds from here), the rounds left (median, 90th percentile) and each combatant's
fate; `lines()` is the report, `headline()` its one line. A ruleset brings its auto-play as a
`Tactics` (engine/odds/play.py) named by its plugin's `tactics`; docs/odds.md says how each plays.
"""

import math
import multiprocessing
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool

from engine.errors import RuleError
from engine.odds.play import CAP, Game, Tactics
from engine.odds.report import Counter, Fate, Odds, Side, odds
from engine.odds.runs import chunk, count, decode_tally, encode_fight, members, tactics_for
from engine.ruleset import get_ruleset
from engine.state import Fight

__all__ = ["CAP", "MAX_RUNS", "Fate", "Odds", "Side", "Tactics", "simulate", "tactics_for"]

MAX_RUNS = 100_000
MAX_WORKERS = 256
PROGRESS_STEPS = 20  # in this process: about this many chunks, so the progress moves by 5%
SMALL = 100  # with workers 0, fewer runs than this stay in this process


def check(f: Fight) -> Tactics:
    """The ruleset's auto-play, after refusing a fight there is nothing to simulate in."""
    tactics = tactics_for(f.ruleset)
    if f.ended:
        raise RuleError("The fight is over: there is nothing left to simulate.")
    party, foes = Game(f, tactics, {}).standing()
    if not party or not foes:
        who = "the party's side" if not party else "the foes' side"
        raise RuleError(f"Nobody on {who} can fight: the odds need someone standing on each side.")
    return tactics


def simulate(
    f: Fight,
    runs: int = 1000,
    seed: int = 0,
    *,
    workers: int = 0,
    on_progress: Callable[[Odds], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
    initializer: Callable[..., object] | None = None,
    initargs: tuple[object, ...] = (),
) -> Odds:
    """Play the rest of `f` `runs` times; see the module's docstring."""
    if not isinstance(runs, int) or not 1 <= runs <= MAX_RUNS:
        raise RuleError(f"Runs: between 1 and {MAX_RUNS:,}, not {runs}.")
    if not isinstance(workers, int) or not 0 <= workers <= MAX_WORKERS:
        raise RuleError(f"Workers: 0 (every core) to {MAX_WORKERS}, not {workers}.")
    tactics = check(f)
    who = members(f)
    counter = Counter(len(who))
    label = get_ruleset(f.ruleset).health_label

    def report() -> Odds:
        return odds(counter, who, f.started, CAP, label)

    n = workers or (multiprocessing.cpu_count() if runs >= SMALL else 1)
    if n <= 1 or runs < 2:
        size = max(1, math.ceil(runs / PROGRESS_STEPS))
        for start in range(0, runs, size):
            if cancelled is not None and start and cancelled():
                break
            count(f, tactics, start, min(size, runs - start), seed, CAP, counter)
            if on_progress is not None:
                on_progress(report())
        return report()
    _pooled(f, runs, seed, min(n, runs), counter, report, on_progress, cancelled, (initializer, initargs))
    return report()


def _pooled(
    f: Fight,
    runs: int,
    seed: int,
    n: int,
    counter: Counter,
    report: Callable[[], Odds],
    on_progress: Callable[[Odds], None] | None,
    cancelled: Callable[[], bool] | None,
    setup: tuple[Callable[..., object] | None, tuple[object, ...]] = (None, ()),
) -> None:
    """The runs in `n` spawned processes, about four chunks each (so the progress moves and a slow
    chunk does not hold the others up), counted as they come back."""
    size = max(1, math.ceil(runs / (n * 4)))
    payload = encode_fight(f)
    spawn = multiprocessing.get_context("spawn")
    # `setup`: what each worker process runs first (the app lowers their priority: a key press never
    # waits on them)
    pool = ProcessPoolExecutor(max_workers=n, mp_context=spawn, initializer=setup[0], initargs=setup[1])
    stopped = False
    try:
        pending: set[Future[bytes]] = {
            pool.submit(chunk, payload, start, min(size, runs - start), seed, CAP) for start in range(0, runs, size)
        }
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for fut in done:
                counter.merge(decode_tally(fut.result()))
                if on_progress is not None:
                    on_progress(report())
            if pending and cancelled is not None and cancelled():
                stopped = True
                return
    except BrokenProcessPool as exc:
        raise RuleError(f"A simulation worker stopped unexpectedly ({exc}).") from None
    finally:
        # cancelled: the chunks not begun are dropped and nothing waits for the ones running
        pool.shutdown(wait=not stopped, cancel_futures=True)
