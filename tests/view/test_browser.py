"""`fracas serve` in a real headless Chromium: the page shows the order and whose turn it is, and no
hidden combatant. Uses the system's chromium and chromedriver only (nothing downloads a browser);
skipped, with the reason, where they are missing. `.ci/run` installs them, so CI runs this."""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine.commands import EditCombatant, NextTurn, StartFight
from saves.demo import demo_history
from saves.session import Session

# wraps the page's WebSocket so every message it receives is kept, decoded, in window.__fracas
_RECORD = """
window.__fracas = [];
const Real = window.WebSocket;
function Recording(...args) {
  const ws = new Real(...args);
  ws.addEventListener("message", (ev) => {
    if (typeof ev.data === "string") window.__fracas.push(ev.data);
    else if (ev.data instanceof ArrayBuffer) window.__fracas.push(new TextDecoder().decode(ev.data));
    else if (ev.data instanceof Blob) ev.data.text().then((t) => window.__fracas.push(t));
  });
  return ws;
}
Recording.prototype = Real.prototype;
for (const k of ["CONNECTING", "OPEN", "CLOSING", "CLOSED"]) Recording[k] = Real[k];
window.WebSocket = Recording;
"""
_ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-_]")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _chromium() -> tuple[str, str]:
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    if not browser or not driver:
        pytest.skip("no system Chromium and chromedriver (apt-get install chromium chromium-driver)")
    try:
        import selenium  # noqa: F401
    except ImportError:
        pytest.skip("selenium is not installed (pip install -e '.[test]')")
    return browser, driver


def _wait_listening(port: int, proc: subprocess.Popen[bytes], seconds: float = 20) -> None:
    until = time.monotonic() + seconds
    while time.monotonic() < until:
        if proc.poll() is not None:
            raise AssertionError(f"fracas serve exited: {proc.stdout.read().decode() if proc.stdout else ''}")
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise AssertionError("fracas serve did not start listening")


def test_serve_shows_the_order_in_chromium(tmp_path: Path) -> None:
    browser, driver_path = _chromium()
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    path = tmp_path / "fight.fracas"
    s = Session.create(path, demo_history("d20").state)
    ambusher = next(c for c in s.state.combatants if c.name == "Bandit Captain")
    s.apply(EditCombatant(ambusher.id, flags=("hidden",)))
    s.apply(StartFight())
    s.apply(NextTurn())
    current = s.state.get(s.state.current)
    assert current.id != ambusher.id
    s.close()

    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "tui.cli", "serve", str(path), "--port", str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,  # the server and the view processes it starts are stopped together
    )
    options = webdriver.ChromeOptions()
    options.binary_location = browser
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,900"):
        options.add_argument(arg)
    web = None
    try:
        _wait_listening(port, proc)
        web = webdriver.Chrome(service=Service(driver_path), options=options)
        # xterm.js draws the terminal on a canvas, so the page has no text nodes to read: record what
        # the page's websocket receives (the view's terminal output) from before the page's own script
        web.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": _RECORD})
        web.get(f"http://127.0.0.1:{port}")
        text = ""
        until = time.monotonic() + 30
        while time.monotonic() < until:
            text = _ANSI.sub("", str(web.execute_script("return (window.__fracas || []).join('')") or ""))
            if "Brannoc" in text and "Now:" in text:
                break
            time.sleep(0.25)
        if os.environ.get("FRACAS_VIEW_SCREENSHOT"):
            web.save_screenshot(os.environ["FRACAS_VIEW_SCREENSHOT"])
        for c in s.state.combatants:
            if c.id == ambusher.id:
                assert c.name not in text, "a hidden combatant reached the browser"
            else:
                assert c.name in text, f"{c.name} is not on the page:\n{text}"
        assert f"Now: {current.name}" in text
    finally:
        if web is not None:
            web.quit()
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
