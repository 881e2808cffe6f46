"""The odds panel: the rest of the fight played many times over (engine.odds), shown under the panes
while the runs come in. It never takes the focus, so every key still goes to the tracker; the runs go
on in worker processes, watched from a thread, so a key press never waits on them. A command that
changes the fight stops the runs (their answer would be for a fight that is gone); `O` asks again.

Loaded when the GM first asks for the odds: start-up does not pay for the simulation or this panel.
"""

from __future__ import annotations

import os
import sys
import threading
from multiprocessing import resource_tracker

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widget import Widget
from textual.widgets import ProgressBar, Static

from engine import RuleError
from engine.odds import Odds, simulate
from engine.odds.report import PARTY, pct, span
from engine.state import Fight
from tui.text import clean, literal

RUNS = 1000
NICE = 10  # the worker processes give way to the screen: a key press never waits on them
FATES = 8  # the combatants named in the panel, most likely to go down first (the CLI lists all)


def workers() -> int:
    """Worker processes for the app's runs: at least two (a pool of one would run in the app's own
    process, where it would share the interpreter with the screen), one core left to the screen."""
    return max(2, (os.cpu_count() or 2) - 1)


def tracker_ready() -> None:
    """Start multiprocessing's resource tracker with a real file as its error output. Every spawned
    worker needs the tracker, which is handed the app's `sys.stderr`, and inside the app that is
    Textual's capture, with no file behind it ("bad value(s) in fds_to_keep"); the tracker's own
    messages would only garble the screen, so they go nowhere."""
    with open(os.devnull, "w") as null:
        saved = sys.stderr
        sys.stderr = null
        try:
            resource_tracker.ensure_running()
        finally:
            sys.stderr = saved


def seed_of(f: Fight) -> int:
    """The same fight gives the same odds: the seed follows the fight's own dice."""
    return (f.rng.seed * 1_000_003 + f.rng.counter) & ((1 << 63) - 1)


def odds_text(o: Odds, total: int) -> Text:
    """The panel's lines: the headline, each side's chance, how long, and who goes down."""
    t = Text(o.headline(), style="bold", end="")
    if o.runs < total:
        t.append(f"   ({o.runs:,} of {total:,} runs so far)", style="dim")
    if not o.runs:
        return t
    t.append("\n")
    parts = []
    for s in o.sides:
        parts.append(f"{s.label} {'wins' if s.key == PARTY else 'win'} {pct(s.p)} ({span(s.low, s.high)})")
    if o.draws:
        parts.append(f"both down together {pct(o.draws / o.runs)}")
    if o.unfinished:
        parts.append(f"unfinished after {o.cap} rounds {pct(o.unfinished / o.runs)}")
    t.append(" · ".join(parts))
    if o.finished:
        t.append(f"\nRounds left: median {o.rounds_median:g}, 90% of fights over within {o.rounds_p90:g}")
    fates = sorted(o.fates, key=lambda x: (x.side != PARTY, -x.p_down))
    if fates:
        t.append("\nGoing down: ", style="dim")
        for i, x in enumerate(fates[:FATES]):
            if i:
                t.append(" · ", style="dim")
            t.append_text(literal(x.name, "bold" if x.side == PARTY else ""))
            t.append(f" {pct(x.p_down)}")
        if len(fates) > FATES:
            t.append(f" · {len(fates) - FATES} more (fracas odds lists all)", style="dim")
    return t


class Runs:
    """What the panel and the start dialog's line share: runs from one fight in worker processes,
    watched from a thread, each chunk's odds handed to `shown` on the screen's thread; a new start or
    `stop` makes a run still going say nothing more."""

    total = RUNS

    def runs_init(self) -> None:
        self._stop = threading.Event()
        self._last: Odds | None = None

    def start_runs(self, widget: Widget, f: Fight) -> bool:
        """Start the runs from `f` (stopping any still going); False, with the reason shown, when they
        cannot start."""
        self._stop.set()
        self._stop = threading.Event()
        self._last = None
        try:
            tracker_ready()
        except OSError as exc:
            self.say(Text(f"The odds could not be worked out: {clean(str(exc))}"))
            return False
        stop = self._stop
        widget.run_worker(lambda: self._simulate(widget, f, stop), thread=True, exclusive=True, group="odds")
        return True

    def _simulate(self, widget: Widget, f: Fight, stop: threading.Event) -> None:
        """In a worker thread: the runs go on in processes; each chunk's odds come back to the screen."""
        app = widget.app

        def progress(o: Odds) -> None:
            if not stop.is_set():
                app.call_from_thread(self._shown, o, stop)

        try:
            o = simulate(
                f, self.total, seed_of(f), workers=workers(), on_progress=progress, cancelled=stop.is_set,
                initializer=os.nice, initargs=(NICE,)
            )
        except RuleError as exc:
            if not stop.is_set():
                app.call_from_thread(self.say, Text(f"No odds: {clean(str(exc))}", style="bold"))
            return
        except Exception as exc:  # a worker process that could not start: one line, the fight untouched
            if not stop.is_set():
                app.call_from_thread(self.say, Text(f"The odds could not be worked out: {clean(str(exc))}"))
            return
        if not stop.is_set():
            app.call_from_thread(self._shown, o, stop)
            if o.runs == self.total:
                remember(f, o)

    def _shown(self, o: Odds, stop: threading.Event) -> None:
        if stop is not self._stop or stop.is_set():
            return  # a run stopped since: its late chunks say nothing
        self._last = o
        self.shown(o)

    def shown(self, o: Odds) -> None:
        raise NotImplementedError  # each widget shows the odds its own way

    def say(self, text: Text) -> None:
        raise NotImplementedError

    @property
    def running(self) -> bool:
        return not self._stop.is_set() and (self._last is None or self._last.runs < self.total)

    def stop(self) -> None:
        self._stop.set()


# the last odds worked out to the end, and the fight they are of: the start dialog shows them at once
# when the GM asked on the main screen first (states are immutable: the same object, the same fight)
_known: tuple[Fight, Odds] | None = None


def remember(f: Fight, o: Odds) -> None:
    global _known
    _known = (f, o)


def known(f: Fight) -> Odds | None:
    return _known[1] if _known is not None and _known[0] is f else None


class OddsPanel(Runs, Vertical, can_focus=False):
    """Below the panes: a progress bar and the odds so far; `O` again closes it. A changed fight
    stops the runs and says so."""

    DEFAULT_CSS = """
    OddsPanel { height: auto; max-height: 45%; border-top: solid $primary; padding: 0 1; }
    OddsPanel > ProgressBar { height: 1; }
    OddsPanel > ProgressBar Bar { width: 1fr; }
    OddsPanel > #odds-text { height: auto; }
    """

    def __init__(self) -> None:
        super().__init__(id="odds")
        self.fight: Fight | None = None  # the fight the odds shown are of (None: it changed since)
        self.runs_init()

    def compose(self) -> ComposeResult:
        yield ProgressBar(total=self.total, show_eta=False, id="odds-bar")
        yield Static(id="odds-text")

    def run(self, f: Fight) -> None:
        """Start the runs from `f` (stopping any still going)."""
        self.fight = f
        self.query_one(ProgressBar).update(total=self.total, progress=0)
        self.say(Text("Working out the odds from here…" if f.started else "Working out the encounter's odds…"))
        self.start_runs(self, f)

    def shown(self, o: Odds) -> None:
        self.query_one(ProgressBar).update(progress=o.runs)
        self.say(odds_text(o, self.total))

    def say(self, text: Text) -> None:
        self.query_one("#odds-text", Static).update(text)

    def fight_changed(self, f: Fight) -> None:
        """The fight moved on: runs from the old one stop, and the panel says what it shows."""
        if f is self.fight or self.fight is None:
            return  # the same fight, or one already told about
        running = self.running
        self.stop()
        self.fight = None  # what the panel shows is of no fight on screen any more
        note = Text("The fight changed" + (" before the runs finished" if running else ""), style="bold")
        note.append(": O works out the odds from here.")
        if self._last is not None and self._last.runs:
            note.append(f"\nBefore the change ({self._last.runs:,} runs): {self._last.headline()}", style="dim")
        self.say(note)

    def on_unmount(self) -> None:
        self.stop()  # the worker processes finish their chunk and the thread returns


class Difficulty(Runs, Static):
    """The start dialog's line: the encounter's difficulty when it is known (the panel worked it out
    for this very fight), else the key that works it out (ctrl+o), filling in as the runs come back."""

    DEFAULT_CSS = "Difficulty { height: auto; color: $text-muted; margin-top: 1; }"
    KEY = "ctrl+o"

    def __init__(self, f: Fight) -> None:
        super().__init__(id="difficulty")
        self.fight = f
        self.runs_init()

    def on_mount(self) -> None:
        o = known(self.fight)
        if o is not None:
            self.shown(o)
        else:
            self.say(Text("ctrl+o: the encounter's difficulty (1,000 runs, in the background)"))

    def run(self) -> None:
        self.say(Text("Working out the encounter's difficulty…"))
        self.start_runs(self, self.fight)

    def shown(self, o: Odds) -> None:
        t = Text("Difficulty: ", style="bold")
        t.append(o.headline())
        t.append(f"  ({o.runs:,} runs" + (" so far)" if o.runs < self.total else ")"), style="dim")
        self.update(t)

    def say(self, text: Text) -> None:
        self.update(text)

    def on_unmount(self) -> None:
        self.stop()
