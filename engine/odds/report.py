"""The result of a simulation: what each side's chance of winning is, how long the fight lasts, who
goes down, and how the GM reads it (`Odds.lines`, `Odds.headline`).

Runs are counted into a `Tally` (plain sums, so tallies from any number of workers merge in any order
into the same result); `odds` turns a tally into the frozen `Odds` the CLI and the app show. The
intervals are 95% Wilson score intervals (docs/odds.md says how to read them).
"""

import math
from fractions import Fraction

import msgspec

Z = 1.959963984540054  # the normal quantile of 97.5%: a two-sided 95% interval

# who is on which side: the PCs and their allies, against the foes
PARTY, FOES = "party", "enemy"
SIDE_LABELS = {PARTY: "The party", FOES: "The foes"}


class Side(msgspec.Struct, frozen=True, gc=False):
    """One side's wins: `p` the share of all runs, `low`-`high` its 95% interval."""

    key: str  # "party" or "enemy" (engine.state.Side)
    label: str
    wins: int
    p: float
    low: float
    high: float


class Fate(msgspec.Struct, frozen=True, gc=False):
    """One combatant's fate over the runs: the share in which it went down (or fled), with its 95%
    interval, and the health it had left at the end on average (0 for the runs it went down in)."""

    id: str
    name: str
    side: str
    p_down: float
    low: float
    high: float
    health_left_mean: float
    health_max: int


class Odds(msgspec.Struct, frozen=True, gc=False):
    """What `engine.odds.simulate` found. `runs` played, `finished` of them ended by one side being
    down or fled (or both at once: the wins do not add up to `finished` then), `unfinished` cut by the
    round cap. Rounds count from the fight's current round (1 = it ends in this round), over the
    finished runs."""

    runs: int
    finished: int
    sides: tuple[Side, ...]
    unfinished: int
    rounds_median: float
    rounds_p90: float
    fates: tuple[Fate, ...]
    started: bool = True  # simulated from a fight under way (False: before the first roll)
    cap: int = 50  # the round cap
    health_label: str = "HP"

    @property
    def draws(self) -> int:
        """Runs in which both sides went down together (nine-phase: in the same phase)."""
        return self.finished - sum(s.wins for s in self.sides)

    def side(self, key: str) -> Side | None:
        return next((s for s in self.sides if s.key == key), None)

    def headline(self) -> str:
        """One line: "From here the party wins 71% (68-74%)"; before the fight starts, the
        encounter's difficulty: "The party loses 1 fight in 4"."""
        party, foes = self.side(PARTY), self.side(FOES)
        if not self.runs or party is None or foes is None:
            return "No runs finished yet"
        if self.started:
            return f"From here the party wins {pct(party.p)} ({span(party.low, party.high)})"
        return "The party " + _losses(foes.wins, party.wins, self.runs)

    def lines(self) -> list[str]:
        """The report, plain text (names as they are: the caller makes them safe to show)."""
        if not self.runs:
            return ["No runs finished yet."]
        out = [self.headline(), ""]
        width = max(len(s.label) for s in self.sides)
        for s in self.sides:
            verb = "wins" if s.key == PARTY else "win "  # the party wins, the foes win
            out.append(f"{s.label.ljust(width)}  {verb} {pct(s.p):>4}  (95% interval {span(s.low, s.high)})")
        if self.draws:
            out.append(f"Both sides down together in {pct(self.draws / self.runs)} of the runs")
        if self.unfinished:
            share = pct(self.unfinished / self.runs)
            out.append(f"Unfinished after {self.cap} rounds: {self.unfinished:,} runs ({share})")
        if self.finished:
            out.append(f"Rounds left: median {_num(self.rounds_median)}, 90% of fights over within "
                       f"{_num(self.rounds_p90)}")
        out += ["", f"Going down (share of runs, 95% interval), {self.health_label} left on average:"]
        width = max((len(x.name) for x in self.fates), default=0)
        for x in self.fates:
            out.append(
                f"  {x.name.ljust(width)}  {pct(x.p_down):>4} ({span(x.low, x.high)})  "
                f"{self.health_label} {x.health_left_mean:.1f} of {x.health_max}"
            )
        out.append("")
        out.append(f"{self.runs:,} runs{'' if self.started else ' from the start'}; docs/odds.md says how the "
                   "sides play and how to read the intervals.")
        return out


def _num(x: float) -> str:
    return f"{x:g}"


def pct(p: float) -> str:
    """A share as a whole percent, never rounded to 0% or 100% when it is not exactly that."""
    if 0 < p < 0.005:
        return "<1%"
    if 0.995 < p < 1:
        return ">99%"
    return f"{round(p * 100)}%"


def span(low: float, high: float) -> str:
    """An interval as "68-74%" (an end within half a percent of 0% or 100%, not on it: "<1", ">99")."""
    return f"{pct(low)[:-1]}-{pct(high)}"


def _losses(lost: int, won: int, runs: int) -> str:
    """How often the party loses, as a table says it: "loses 1 fight in 4", "loses 7 fights in 10",
    "wins only 1 fight in 30"."""
    if lost == 0:
        return f"never loses in {runs:,} runs"
    if lost == runs:
        return f"loses every fight ({runs:,} runs)"
    p = lost / runs
    if p < 0.1:
        return f"loses 1 fight in {max(2, round(1 / p)):,}"
    if p <= 0.9:
        near = Fraction(lost, runs).limit_denominator(10)
        k, n = near.numerator, near.denominator
        return f"loses {k} fight{'s' if k > 1 else ''} in {n}"
    if won == 0:
        return f"wins no fight in {runs:,} runs"
    return f"wins only 1 fight in {max(2, round(runs / won)):,}"


def wilson(k: int, n: int) -> tuple[float, float]:
    """The 95% Wilson score interval of k successes in n runs."""
    if n <= 0:
        return 0.0, 1.0
    p = k / n
    z2 = Z * Z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    # at either end the interval reaches it exactly (the sum leaves a speck of rounding)
    return (0.0 if k == 0 else max(0.0, centre - half)), (1.0 if k == n else min(1.0, centre + half))


# --- counting runs ----------------------------------------------------------------------------------

# a run's outcome, by index into Tally.outcomes
PARTY_WINS, FOES_WIN, DRAW, UNFINISHED = range(4)


class Tally(msgspec.Struct, frozen=True, gc=False):
    """Plain sums over some runs, in the order of the fight's members: what one chunk of runs sends
    back from its worker, and what merging chunks gives."""

    runs: int = 0
    outcomes: tuple[int, int, int, int] = (0, 0, 0, 0)
    rounds: tuple[tuple[int, int], ...] = ()  # (rounds left, runs) over the finished runs
    downs: tuple[int, ...] = ()
    health: tuple[int, ...] = ()


class Counter:
    """A tally being counted, run by run."""

    __slots__ = ("runs", "outcomes", "rounds", "downs", "health")

    def __init__(self, members: int) -> None:
        self.runs = 0
        self.outcomes = [0, 0, 0, 0]
        self.rounds: dict[int, int] = {}
        self.downs = [0] * members
        self.health = [0] * members

    def add(self, outcome: int, rounds: int, downs: list[bool], health: list[int]) -> None:
        self.runs += 1
        self.outcomes[outcome] += 1
        if outcome != UNFINISHED:
            self.rounds[rounds] = self.rounds.get(rounds, 0) + 1
        for i, d in enumerate(downs):
            if d:
                self.downs[i] += 1
        for i, h in enumerate(health):
            self.health[i] += h

    def merge(self, t: Tally) -> None:
        if not t.runs:
            return
        self.runs += t.runs
        for i, n in enumerate(t.outcomes):
            self.outcomes[i] += n
        for r, n in t.rounds:
            self.rounds[r] = self.rounds.get(r, 0) + n
        for i, n in enumerate(t.downs):
            self.downs[i] += n
        for i, n in enumerate(t.health):
            self.health[i] += n

    def tally(self) -> Tally:
        a, b, c, d = self.outcomes
        return Tally(self.runs, (a, b, c, d), tuple(sorted(self.rounds.items())), tuple(self.downs), tuple(self.health))


class Member(msgspec.Struct, frozen=True, gc=False):
    """A combatant the report follows (one on either side)."""

    id: str
    name: str
    side: str
    health_max: int


def _quantile(hist: dict[int, int], q: float) -> float:
    """The q-quantile of a histogram (the median as the mean of the two middle values for an even
    count; others by nearest rank)."""
    n = sum(hist.values())
    if not n:
        return 0.0
    values = sorted(hist)
    if q == 0.5 and n % 2 == 0:
        return (_nth(hist, values, n // 2) + _nth(hist, values, n // 2 + 1)) / 2
    return float(_nth(hist, values, max(1, math.ceil(q * n))))


def _nth(hist: dict[int, int], values: list[int], k: int) -> int:
    seen = 0
    for v in values:
        seen += hist[v]
        if seen >= k:
            return v
    return values[-1]


def odds(c: Counter, members: tuple[Member, ...], started: bool, cap: int, health_label: str) -> Odds:
    """The report of what was counted so far."""
    n = c.runs
    sides = []
    for key, wins in ((PARTY, c.outcomes[PARTY_WINS]), (FOES, c.outcomes[FOES_WIN])):
        low, high = wilson(wins, n)
        sides.append(Side(key, SIDE_LABELS[key], wins, wins / n if n else 0.0, low, high))
    fates = []
    for i, m in enumerate(members):
        down = c.downs[i]
        low, high = wilson(down, n)
        mean = c.health[i] / n if n else 0.0
        fates.append(Fate(m.id, m.name, m.side, down / n if n else 0.0, low, high, mean, m.health_max))
    unfinished = c.outcomes[UNFINISHED]
    return Odds(
        runs=n,
        finished=n - unfinished,
        sides=tuple(sides),
        unfinished=unfinished,
        rounds_median=_quantile(c.rounds, 0.5),
        rounds_p90=_quantile(c.rounds, 0.9),
        fates=tuple(fates),
        started=started,
        cap=cap,
        health_label=health_label,
    )
