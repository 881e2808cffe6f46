"""Shared by the app's tests: demo fights in memory sessions, and pilot helpers."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

from textual.pilot import Pilot
from textual.widgets import Static

from engine.commands import Command, StartFight
from saves.demo import demo_history
from saves.session import Session
from tui.app import FracasApp, make_app
from tui.main import MainScreen


def sync(fn: Callable[..., Coroutine[Any, Any, None]]) -> Callable[..., None]:
    """Run an async pilot test to completion (the suite needs no asyncio plugin)."""

    @functools.wraps(fn)
    def run(*args: Any, **kwargs: Any) -> None:
        asyncio.run(fn(*args, **kwargs))

    return run


def demo_session(rules: str, *, start: bool = False, seed: int = 7, then: tuple[Command, ...] = ()) -> Session:
    """The bundled demo of `rules` in a memory session, with the set-up as its history."""
    h = demo_history(rules, seed)
    s = Session.memory(h.nodes[0].state)
    for node in h.nodes[1:]:
        assert node.command is not None
        s.apply(node.command)
    if start:
        s.apply(StartFight())
    for cmd in then:
        s.apply(cmd)
    return s


def app_on(session: Session, tmp_path: Path) -> FracasApp:
    return make_app(session, config_path=tmp_path / "config.toml")


def cid(session: Session, name: str) -> str:
    """The id of the combatant called `name`."""
    for c in session.state.combatants:
        if c.name == name:
            return c.id
    raise AssertionError(f"no combatant {name!r}")


def of(session: Session, name: str):  # type: ignore[no-untyped-def]
    return session.state.get(cid(session, name))


async def type_text(pilot: Pilot, text: str) -> None:
    await pilot.press(*list(text))


def main_screen(pilot: Pilot) -> MainScreen:
    for screen in pilot.app.screen_stack:
        if isinstance(screen, MainScreen):
            return screen
    raise AssertionError("no main screen")


async def select(pilot: Pilot, name: str) -> None:
    app = pilot.app
    assert isinstance(app, FracasApp) and app.session is not None
    main_screen(pilot).select(cid(app.session, name))
    await pilot.pause()


async def pane_text(pilot: Pilot, name: str) -> str:
    """The text of a pane as laid out on screen; on a small screen, `v` brings it up first."""
    main = main_screen(pilot)
    for _ in range(3):
        if main.query_one(f"#{name}").display:
            break
        await pilot.press("v")
    await pilot.pause()
    return main.query_one(f"#{name}").plain  # type: ignore[attr-defined]


def notifications(pilot: Pilot) -> list[str]:
    return [str(n.message) for n in pilot.app._notifications]


def screen_lines(app: Any) -> list[str]:
    """The whole screen as the compositor renders it for the terminal, one string a line."""
    return [strip.text for strip in app.screen._compositor.render_strips()]


def dialog_error(pilot: Pilot) -> str:
    err = pilot.app.screen.query_one("#error", Static)
    return str(err.render()) if err.has_class("-shown") else ""


async def burst(pilot: Pilot, *keys: str, settle: float | None = None) -> None:
    """Keys as a fast typist (or a paste) delivers them: all queued at once, with no pause for the
    app to catch up between them (pilot.press waits for the app to go idle after every key); then
    the wait until they and all they started are handled (`settled`). `settle` (seconds) was a
    sleep before that wait, and is no longer slept: the wait is on the app itself."""
    from textual import events
    from textual.app import _character_to_key

    del settle
    app = pilot.app
    driver = app._driver
    assert driver is not None
    for key in keys:
        if len(key) == 1 and not key.isalnum():
            key = _character_to_key(key)
        char = key if len(key) == 1 else {"enter": "\r", "space": " ", "tab": "\t"}.get(key)
        event = events.Key(key, char)
        event.set_sender(app)
        driver.send_message(event)
    await settled(pilot)


async def until(pilot: Pilot, what: Callable[[], bool], timeout: float = 60.0) -> None:
    """Wait until `what()` holds, for what the app does on a clock of its own (the save file's
    watch): looked at after every 20 ms, the app quiet. The time limit only ends a test that would
    hang."""
    import time

    end = time.monotonic() + timeout
    await pilot.pause()
    while not what():
        assert time.monotonic() < end, "waited in vain"
        await pilot.pause(0.02)


async def settled(pilot: Pilot, timeout: float = 60.0) -> None:
    """Wait until the app has handled every key sent to it and all they started: every message of
    every screen, the keys a dialog held until it was ready (a tab waiting for a layout) given to
    it, the screen painted, however slow a busy machine is (tests/pilot_waits.py). The time limit
    only ends a test that would hang."""
    from tests.pilot_waits import until_quiet

    assert await until_quiet(pilot.app, keys_held=True, timeout=timeout), "the app never settled"
