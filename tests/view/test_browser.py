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
from typing import Any

import pytest

from engine.commands import AddCondition, Damage, EditCombatant, NextTurn, StartFight
from saves.demo import demo_history
from saves.session import Session

# wraps the page's WebSocket so every message it receives is kept, decoded, in window.__fracas
_RECORD = """
window.__fracas = [];
window.__fracasSize = null;
const Real = window.WebSocket;
function Recording(...args) {
  const ws = new Real(...args);
  // the terminal's size: in the address it opens with, then in each "resize" message it sends
  const q = new URL(String(args[0])).searchParams;
  window.__fracasSize = [Number(q.get("width")), Number(q.get("height"))];
  const send = ws.send.bind(ws);
  ws.send = (data) => {
    if (typeof data === "string" && data.startsWith('["resize"')) {
      const size = JSON.parse(data)[1];
      window.__fracasSize = [size.width, size.height];
    }
    send(data);
  };
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


class Served:
    """`fracas serve FILE` and a headless Chromium on its page, `width` x `height` pixels."""

    def __init__(self, path: Path, width: int, height: int) -> None:
        self.browser, self.driver_path = _chromium()
        self.path, self.width, self.height = path, width, height
        self.proc: subprocess.Popen[bytes] | None = None
        self.web: Any = None

    def __enter__(self) -> Served:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service

        port = _free_port()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tui.cli", "serve", str(self.path), "--port", str(port)],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # the server and the view processes it starts are stopped together
        )
        options = webdriver.ChromeOptions()
        options.binary_location = self.browser
        for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
            options.add_argument(arg)
        options.add_argument(f"--window-size={self.width},{self.height}")
        _wait_listening(port, self.proc)
        self.web = webdriver.Chrome(service=Service(self.driver_path), options=options)
        # xterm.js draws the terminal on a canvas, so the page has no text nodes to read: record what
        # the page's websocket receives (the view's terminal output) from before the page's own script
        self.web.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": _RECORD})
        self.web.get(f"http://127.0.0.1:{port}")
        return self

    def text(self, *wanted: str, seconds: float = 30) -> str:
        """What the view has written so far, once it holds every one of `wanted` (or time is up)."""
        text = ""
        until = time.monotonic() + seconds
        while time.monotonic() < until:
            text = _ANSI.sub("", str(self.web.execute_script("return (window.__fracas || []).join('')") or ""))
            if all(w in text for w in wanted):
                break
            time.sleep(0.25)
        return text

    def size(self) -> tuple[int, int]:
        cols, rows = self.web.execute_script("return window.__fracasSize") or (0, 0)
        return int(cols), int(rows)

    def screenshot(self, name: str) -> None:
        """Kept where FRACAS_VIEW_SCREENSHOT_DIR says, to be looked at (none otherwise)."""
        folder = os.environ.get("FRACAS_VIEW_SCREENSHOT_DIR")
        if folder:
            Path(folder).mkdir(parents=True, exist_ok=True)
            self.web.save_screenshot(str(Path(folder) / name))

    def __exit__(self, *exc: object) -> None:
        if self.web is not None:
            self.web.quit()
        if self.proc is not None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()


def test_serve_shows_the_order_in_chromium(tmp_path: Path) -> None:
    path = tmp_path / "fight.fracas"
    s = Session.create(path, demo_history("d20").state)
    ambusher = next(c for c in s.state.combatants if c.name == "Bandit Captain")
    s.apply(EditCombatant(ambusher.id, flags=("hidden",)))
    s.apply(StartFight())
    s.apply(NextTurn())
    current = s.state.get(s.state.current)
    assert current.id != ambusher.id
    s.close()
    with Served(path, 800, 600) as served:  # a small page: the view's small form, "Now: NAME"
        text = served.text("Brannoc", "Now:")
        served.screenshot("view-800x600.png")
        for c in s.state.combatants:
            if c.id == ambusher.id:
                assert c.name not in text, "a hidden combatant reached the browser"
            else:
                assert c.name in text, f"{c.name} is not on the page:\n{text}"
        assert f"Now: {current.name}" in text


@pytest.mark.parametrize("width,height", [(1280, 800), (1920, 1080)])
def test_the_view_fills_a_big_browser_window(tmp_path: Path, width: int, height: int) -> None:
    """On a TV-sized page the round and who acts are in big letters, a PC at 0 says "dying", and
    every condition is there in full."""
    path = tmp_path / "fight.fracas"
    s = Session.create(path, demo_history("d20").state)
    s.apply(StartFight())
    now = s.state.get(s.state.current)
    pc = next(c for c in s.state.combatants if c.kind == "pc" and c.id != now.id and not c.owner)
    s.apply(Damage(pc.id, amount=pc.hp))
    conditions = ("Prone", "Frightened", "Poisoned", "Restrained", "Blinded", "Deafened")
    for name in conditions:
        s.apply(AddCondition(pc.id, name))
    s.close()
    with Served(path, width, height) as served:
        text = served.text(pc.name, "dying", "NOW")
        served.screenshot(f"view-{width}x{height}.png")
        cols, rows = served.size()
        assert cols >= 100 and rows >= 32, f"the page's terminal is {cols}x{rows}"  # a big screen
        assert "ROUND" in text and "NOW" in text and "█" in text  # the big letters
        assert f"Now: {now.name}" not in text  # (the small form is the small screen's)
        assert "dying" in text
        for name in conditions:
            assert name in text, f"{name} is cut off:\n{text}"
