"""Pilot waits on the app itself, not on the clock.

Textual's pilot waits after every key (three times) and every pause with `wait_for_idle`: it sleeps
1/50 s at a time until a sleep passes with the process's CPU time nearly still. That is at least
60 ms of sleeping a key, whatever the app had to do, and on a busy machine (another process using
the core) the CPU reading says little. `until_quiet` waits for the work itself instead: every
message queued for the app and its screens handled (a callback queued behind them, as Textual's own
`Pilot._wait_for_screen` does), the screen laid out and painted (what `Pilot.pause` forces anyway),
the callbacks waiting for that paint run, and no animation or worker still going; twice in a row,
since what is handled may queue more. It sleeps only while an animation, a worker thread or (when
asked) keys held for a dialog are on their way, and then only a few milliseconds at a time.

`install` puts it in place of `wait_for_idle` in textual.pilot and textual.app (tests/conftest.py
does, for every test); outside a running app it falls back to Textual's own.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from typing import Any

import textual.app
import textual.pilot
from textual._context import active_app
from textual._wait import wait_for_idle as textual_wait_for_idle
from textual.message_pump import MessagePump
from textual.worker import WorkerState

STEP = 0.005  # seconds slept while only time moves things on (an animation, a thread, held keys)
SHORT = 0.05  # seconds: a one-shot timer this short is part of the work (Textual's resize is 1/120 s)
LIMIT = 30.0  # seconds of unbroken work after which a pilot's wait gives up (as Textual's did after 1 s)
_GOING = (WorkerState.PENDING, WorkerState.RUNNING)


def _pumps(app: Any) -> Iterator[MessagePump]:
    yield app
    for screen in app.screen_stack:
        yield from screen.walk_children(with_self=True)


def _has_work(pump: MessagePump) -> bool:
    return not pump._message_queue.empty() or bool(pump._next_callbacks)


def _needs_paint(screen: Any) -> bool:
    return bool(
        screen._layout_required
        or screen._scroll_required
        or screen._repaint_required
        or screen._dirty_widgets
        or screen._recompose_required
        or screen._callbacks
    )


def _held(app: Any) -> bool:
    """Keys the app holds until a dialog is ready for them (tui/app.py: type-ahead)."""
    return getattr(app, "_typeahead", None) is not None or getattr(app, "_pending_tab", None) is not None


def _soon(pump: MessagePump) -> bool:
    """A one-shot timer of `pump` due within SHORT: a step of the work put a frame or so later
    (the old pilot's sleeps of 20 ms and more let such a timer go off before the test looked)."""
    for timer in list(pump._timers):
        task = timer._task
        if timer._repeat == 0 and timer._interval <= SHORT and task is not None and not task.done():
            if timer._active.is_set():
                return True
    return False


def _moving(app: Any, pumps: list[MessagePump], keys_held: bool) -> bool:
    """Work that only the clock moves on: nothing to wait for but time."""
    animator = app.animator
    if animator._animations or animator._scheduled:
        return True
    if any(worker.state in _GOING for worker in app.workers):
        return True
    if any(_soon(pump) for pump in pumps):
        return True
    return keys_held and _held(app)


async def _handled(app: Any, pumps: list[MessagePump], timeout: float) -> None:
    """Every message queued so far for `pumps` handled: a callback queued behind them has run."""
    left = 0
    done = asyncio.Event()

    def one() -> None:
        nonlocal left
        left -= 1
        if left == 0:
            done.set()

    for pump in pumps:
        if pump.call_later(one):
            left += 1
    if not left:
        return
    waits = [asyncio.ensure_future(done.wait()), asyncio.ensure_future(app._exception_event.wait())]
    try:
        await asyncio.wait(waits, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for wait in waits:
            wait.cancel()


def _gone(app: Any) -> bool:
    return bool(app._closing or app._closed or app._exception_event.is_set() or not app.screen_stack)


async def until_quiet(app: Any, *, keys_held: bool = False, timeout: float = LIMIT) -> bool:
    """Wait until `app` has nothing left to do (see the module's text); with `keys_held`, until
    the keys it holds for a dialog have gone to it too. False if `timeout` passed first."""
    end = time.monotonic() + timeout
    quiet = 0
    while quiet < 2:
        await asyncio.sleep(0)  # what other tasks have ready (a key on its way from the driver)
        if _gone(app):
            return True
        pumps = list(_pumps(app))
        busy = [pump for pump in pumps if _has_work(pump)]
        screen = app.screen
        # the app and the screen always: a handler may be part way through, its queue empty
        await _handled(app, [app, screen, *(p for p in busy if p is not app and p is not screen)], timeout)
        if _gone(app):
            return True
        screen = app.screen
        painted = _needs_paint(screen)
        if painted:
            screen._on_timer_update()  # what the screen's refresh timer would do a frame later
        moving = _moving(app, pumps, keys_held)
        if moving:
            await asyncio.sleep(STEP)
        quiet = 0 if busy or painted or moving else quiet + 1
        if time.monotonic() > end:
            return False
    return True


async def wait_for_idle(min_sleep: float = 0.0, max_sleep: float = 1.0) -> None:
    """In place of textual._wait.wait_for_idle (same arguments, which a time-free wait has no use
    for): until the running app is quiet."""
    try:
        app = active_app.get()
    except LookupError:
        await textual_wait_for_idle(min_sleep, max_sleep)
        return
    if not app.is_running or app._driver is None:
        await textual_wait_for_idle(min_sleep, max_sleep)
        return
    await until_quiet(app)


def install() -> None:
    textual.pilot.wait_for_idle = wait_for_idle  # type: ignore[assignment]
    textual.app.wait_for_idle = wait_for_idle  # type: ignore[attr-defined]
