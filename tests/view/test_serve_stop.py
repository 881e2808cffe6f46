"""`fracas serve` stopped leaves no view process behind (play-test: after Ctrl+C a browser's view
process, now a child of PID 1, kept running with the save open, and SIGTERM did not stop the server).
The real server, a viewer connected over its websocket, then the server signalled alone (not its
process group, as a terminal's Ctrl+C would): every view it started must end with it."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.view.test_serve_cap import ROOT, WAIT, _fight, _free_port, _viewer, _wait_listening

aiohttp = pytest.importorskip("aiohttp")
pytest.importorskip("textual_serve")
pytestmark = pytest.mark.skipif(not Path("/proc/self/cmdline").exists(), reason="finds the views in /proc")


def views_of(path: Path) -> list[int]:
    """The processes viewing `path` (each browser's `python -m tui.cli view PATH`)."""
    out = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            args = Path(f"/proc/{entry}/cmdline").read_bytes().split(b"\0")
            state = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue  # ended meanwhile
        if b"view" in args and str(path).encode() in args and state != "Z":
            out.append(int(entry))
    return out


def gone(path: Path) -> list[int]:
    """Wait for every view of `path` to end (the limit only ends a test that would hang); what is left."""
    until = time.monotonic() + WAIT
    while (left := views_of(path)) and time.monotonic() < until:
        time.sleep(0.1)
    return left


async def _read_to_the_end(ws: aiohttp.ClientWebSocketResponse) -> None:
    async for _ in ws:  # the view's output, until the server closes the socket or goes
        pass


def start(tmp_path: Path) -> tuple[subprocess.Popen[bytes], Path, int, Path]:
    path = _fight(tmp_path)
    port = _free_port()
    log = tmp_path / "serve.log"
    env = dict(os.environ)
    env.pop("TEXTUAL", None)
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "tui.cli", "serve", str(path), "--port", str(port)],
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            cwd=ROOT,
            env=env,
            start_new_session=True,  # cleaned up as a group if the test fails
        )
    return proc, path, port, log


def cleanup(proc: subprocess.Popen[bytes], path: Path) -> None:
    for pid in views_of(path):
        os.kill(pid, signal.SIGKILL)
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()


@pytest.mark.parametrize(
    "signals",
    [(signal.SIGTERM,), (signal.SIGINT,), (signal.SIGINT, signal.SIGINT), (signal.SIGKILL,)],
    ids=["term", "int", "int-twice", "kill"],
)
def test_every_view_ends_with_the_server(signals: tuple[signal.Signals, ...], tmp_path: Path) -> None:
    """SIGTERM, Ctrl+C (pressed again while the server stops), and a server killed outright."""
    proc, path, port, log = start(tmp_path)
    try:
        _wait_listening(port, proc, log)

        async def scenario() -> None:
            async with aiohttp.ClientSession() as http:
                sockets = [await _viewer(http, f"http://127.0.0.1:{port}") for _ in range(2)]
                assert len(views_of(path)) == 2
                # each browser reads its socket, as a page does: it answers the server's closing
                # handshake at once (unread, the server waits 10 s for the answer on each)
                reading = [asyncio.create_task(_read_to_the_end(ws)) for ws in sockets]
                for sig in signals:
                    os.kill(proc.pid, sig)  # the server alone
                    await asyncio.sleep(0.2)  # (not a measure: the second press comes while it stops)
                await asyncio.to_thread(proc.wait, WAIT)
                await asyncio.wait(reading, timeout=WAIT)
                for ws in sockets:
                    await ws.close()

        asyncio.run(scenario())
        assert proc.poll() is not None
        assert gone(path) == []
        served = log.read_text(errors="replace")
        assert "Traceback" not in served, served
    finally:
        cleanup(proc, path)
