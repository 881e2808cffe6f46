"""`fracas serve`: textual-serve's web server with a cap on the browsers watching at once
(each one costs a process).

Every browser that connects gets its own `python -m tui.cli view FILE` process (about 40 MB each), so
a page left reloading, or one client opening many sockets, could fill the machine's memory. The
server counts the live viewers: a websocket is a viewer from the moment it is accepted until its view
process has ended. Beyond the cap the page itself says so (a 503 page, when the cap is reached before
it loads) and so does the websocket (the message written on the page's terminal, when the last seat
went while the page loaded). A refused websocket starts no process; it is left open, so the message
stays on screen rather than textual-serve's "Session ended.", until the browser leaves or
REFUSED_HOLD seconds pass.

Imported only by `fracas serve` (it imports textual-serve and aiohttp); the cap's default and range
are tui/cli.py's MAX_VIEWERS and MAX_VIEWERS_LIMIT.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from aiohttp import web
from textual_serve.server import Server

log = logging.getLogger("textual-serve")  # textual-serve's own log: the lines the server prints

REFUSED_HOLD = 600.0  # seconds a refused browser keeps its message before the socket closes
STOP_WAIT = 15.0  # seconds a stopping server gives its views to quit before it goes anyway
WS_TRY_AGAIN_LATER = 1013  # the websocket close code for "the server is full for now"


def full_message(cap: int) -> str:
    viewers = "viewer" if cap == 1 else "viewers"
    return f"Fracas: this view already has {cap} {viewers}; ask the GM to raise --max-viewers"


def view_command(argv: list[str]) -> str:
    """The shell command textual-serve runs for each browser: on POSIX the shell execs the view, so
    the view is the server's child (a shell in between outlived the server with the view under it)."""
    import os
    import shlex

    command = shlex.join(argv)
    return f"exec {command}" if os.name == "posix" else command


def _full_page(cap: int) -> str:
    return (
        "<!DOCTYPE html><html><head><meta charset='utf-8'><title>Fracas</title>"
        "<meta name='viewport' content='width=device-width, initial-scale=1'></head>"
        "<body style='background:#0c181f;color:#eee;font:18px sans-serif;padding:2em'>"
        f"<p>{full_message(cap)}</p><p>Reload this page when another viewer has left.</p></body></html>"
    )


class CappedServer(Server):
    """textual-serve's Server, refusing a browser beyond `max_viewers` live views."""

    def __init__(self, command: str, *, max_viewers: int, **kwargs: Any) -> None:
        super().__init__(command, **kwargs)
        self.max_viewers = max_viewers
        self.viewers = 0  # live views: websockets accepted whose view process has not ended yet
        self._sockets: set[asyncio.Task[Any]] = set()  # the websockets' handlers still running

    def full(self) -> bool:
        return self.viewers >= self.max_viewers

    async def handle_index(self, request: web.Request) -> Any:
        if self.full():
            self._refused(request, "page")
            return web.Response(status=503, text=_full_page(self.max_viewers), content_type="text/html")
        return await super().handle_index(request)

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        task = asyncio.current_task()
        if task is not None:
            self._sockets.add(task)
        try:
            # no await between the test and the count: two browsers cannot both take the last seat
            if self.full():
                self._refused(request, "websocket")
                return await self._refuse(request)
            self.viewers += 1
            try:
                # returns once the browser has gone and its view process has ended
                return await super().handle_websocket(request)
            finally:
                self.viewers -= 1
        finally:
            self._sockets.discard(task)  # type: ignore[arg-type]

    async def on_shutdown(self, app: web.Application) -> None:
        """Stopped (Ctrl+C, SIGTERM): each browser's handler is cancelled, which is textual-serve's
        own way out: it tells its view process to quit and waits for it to end. Left alone, aiohttp
        waited a minute for the open websockets before it cancelled them, and a second Ctrl+C then
        left the views running without a server."""
        await super().on_shutdown(app)
        live = [task for task in self._sockets if not task.done()]
        for task in live:
            task.cancel()
        if live:
            log.info("stopping %d view(s)", len(live))
            await asyncio.wait(live, timeout=STOP_WAIT)

    def _refused(self, request: web.Request, what: str) -> None:
        log.info("%s from %s refused: %d viewers already (--max-viewers)", what, request.remote, self.viewers)

    async def _refuse(self, request: web.Request) -> web.WebSocketResponse:
        websocket = web.WebSocketResponse(heartbeat=15)
        await websocket.prepare(request)
        message = full_message(self.max_viewers)
        try:
            # the page writes binary messages on its terminal (more than 10 bytes: it is shown)
            text = f"\x1b[2J\x1b[H\r\n  {message}\r\n\r\n  Reload this page when another viewer has left.\r\n"
            await websocket.send_bytes(text.encode())
            await asyncio.wait_for(self._drain(websocket), REFUSED_HOLD)
        except (TimeoutError, ConnectionError):
            pass
        finally:
            await websocket.close(code=WS_TRY_AGAIN_LATER, message=message.encode()[:120])
        return websocket

    @staticmethod
    async def _drain(websocket: web.WebSocketResponse) -> None:
        async for _ in websocket:  # the page's pings and keys: nothing runs them
            pass
