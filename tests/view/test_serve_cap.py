"""`fracas serve` lets at most --max-viewers browsers watch at once (issue 22): each one is a view
process of about 40 MB, so the next is refused, in words the browser shows, and a browser that leaves
frees its seat. The real server on a free loopback port, driven by aiohttp's websocket client (the
protocol textual-serve's page speaks); each accepted view must draw the fight, which also shows that
the view runs without a terminal under textual-serve's web driver."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from saves.demo import demo_history
from saves.session import Session
from tui import cli

aiohttp = pytest.importorskip("aiohttp")
pytest.importorskip("textual_serve")

ROOT = Path(__file__).resolve().parents[2]
CAP = 2
FULL = f"Fracas: this view already has {CAP} viewers; ask the GM to raise --max-viewers"
WAIT = 90.0  # seconds: generous, for a slow machine starting view processes


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _fight(tmp_path: Path) -> Path:
    path = tmp_path / "fight.fracas"
    Session.create(path, demo_history("d20").state).close()
    return path


def _wait_listening(port: int, proc: subprocess.Popen[bytes], log: Path) -> None:
    until = time.monotonic() + WAIT
    while time.monotonic() < until:
        if proc.poll() is not None:
            raise AssertionError(f"fracas serve exited: {log.read_text(errors='replace')}")
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise AssertionError("fracas serve did not start listening")


async def _first_bytes(ws: aiohttp.ClientWebSocketResponse, wanted: str) -> str:
    """What the socket receives until `wanted` is in it (or it closes, or WAIT passes)."""
    seen = ""
    try:
        async with asyncio.timeout(WAIT):
            while wanted not in seen:
                msg = await ws.receive()
                if msg.type == aiohttp.WSMsgType.BINARY:
                    seen += msg.data.decode("utf-8", "replace")
                elif msg.type == aiohttp.WSMsgType.TEXT:
                    seen += msg.data
                else:  # closed, closing or an error
                    break
    except TimeoutError:
        pass
    return seen


async def _viewer(http: aiohttp.ClientSession, base: str) -> aiohttp.ClientWebSocketResponse:
    ws = await http.ws_connect(f"{base}/ws?width=100&height=30")
    seen = await _first_bytes(ws, "Brannoc")  # a combatant of the d20 demo: the view drew the fight
    assert "Brannoc" in seen and FULL not in seen, seen[-2000:]
    return ws


async def _page_status(http: aiohttp.ClientSession, base: str) -> tuple[int, str]:
    async with http.get(f"{base}/") as response:
        return response.status, await response.text()


async def _scenario(port: int) -> None:
    base = f"http://127.0.0.1:{port}"
    async with aiohttp.ClientSession() as http:
        assert (await _page_status(http, base))[0] == 200
        first = await _viewer(http, base)
        second = await _viewer(http, base)

        # full: the page says so, and so does a websocket opened anyway (no view process for it)
        status, page = await _page_status(http, base)
        assert status == 503 and FULL in page
        third = await http.ws_connect(f"{base}/ws?width=100&height=30")
        seen = await _first_bytes(third, FULL)
        assert FULL in seen and "Brannoc" not in seen, seen
        await third.close()

        # a browser leaves: once its view process has ended its seat is free again
        await first.close()
        async with asyncio.timeout(WAIT):
            while (await _page_status(http, base))[0] != 200:
                await asyncio.sleep(0.1)
        fourth = await _viewer(http, base)

        # and full again
        fifth = await http.ws_connect(f"{base}/ws?width=100&height=30")
        assert FULL in await _first_bytes(fifth, FULL)
        for ws in (fifth, fourth, second):
            await ws.close()


def test_serve_refuses_the_viewer_beyond_the_cap_and_frees_a_seat_when_one_leaves(tmp_path: Path) -> None:
    path = _fight(tmp_path)
    port = _free_port()
    log = tmp_path / "serve.log"
    env = dict(os.environ)
    env.pop("TEXTUAL", None)
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "tui.cli", "serve", str(path), "--port", str(port), "--max-viewers", str(CAP)],
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            cwd=ROOT,
            env=env,
            start_new_session=True,  # the server and the view processes it starts are stopped together
        )
    try:
        _wait_listening(port, proc, log)
        asyncio.run(_scenario(port))
        served = log.read_text(errors="replace")
        # (before it is stopped: textual-serve may leave a line about view processes it never reaped)
        assert proc.poll() is None and "Traceback" not in served, served
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


@pytest.mark.parametrize("bad", ["0", "65", "-1"])
def test_max_viewers_takes_1_to_64(bad: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["serve", str(_fight(tmp_path)), "--max-viewers", bad]) == 2
    err = capsys.readouterr().err
    assert err == f"fracas: --max-viewers takes 1 to 64, not {bad}\n"


def test_serve_help_names_the_cap(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        cli.main(["serve", "--help"])
    out = capsys.readouterr().out
    assert "--max-viewers N" in out and "default: 8" in out
