"""When Python's garbage collector may run in the `fracas` process.

Start-up builds some 100,000 objects that all stay alive (the modules, Textual's classes, the
widgets, the fight) and is garbage-free; the collector's automatic passes over them cost 40-60 ms
before the first paint (a full pass alone 25 ms) and free nothing. So the passes are put off from
the first import of `tui.cli` (`defer`) until the app has painted (`settle`), after which young passes
run as Python would and full passes only while the GM pauses (`FracasApp._idle_gc`). A command that
opens no app (scripts, file tools, the server) gets Python's thresholds back at once (`restore`).
"""

from __future__ import annotations

import gc

NORMAL = gc.get_threshold()  # Python's own, read before anything here changes them
NO_FULL_PASS = 1_000_000  # as third threshold: no automatic full pass


def defer() -> None:
    gc.set_threshold(200_000, NORMAL[1], NO_FULL_PASS)


def settle() -> None:
    """The app is on screen: one full pass now, what survives it frozen out of later passes' way,
    young and middle passes as Python's defaults, full ones left to the app's idle moments."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(NORMAL[0], NORMAL[1], NO_FULL_PASS)


def restore() -> None:
    gc.set_threshold(*NORMAL)
