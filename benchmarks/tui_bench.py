"""The app's figures for `make bench`.

tui.startup_ratio   whole process, launch to first painted screen of a demo fight (`fracas demo d20`,
                    file-backed, as a GM starts it), divided by the same for a bare Textual app showing
                    a 20-row DataTable. Both run as subprocesses on a real pseudo-terminal, interleaved;
                    the paint is when text of the first screen reaches the terminal. Each then exits
                    (tui.startup_to_exit_ratio compares launch-to-exit, shutdown included). Medians.
                    tui.startup_memory_demo_ratio: the same demo in memory, no save file written.
tui.keypress_ms     95th percentile, over next-turn and apply-damage key presses in a fight of 100
                    combatants, from the key event entering the app to the end of the repaint that
                    shows its result (Textual's own frame timer included, terminal output built).
"""

from __future__ import annotations

import asyncio
import fcntl
import os
import pty
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RUNS = 15  # this machine varies by +-100 ms from one start to the next: medians of many

# text that is on each first screen: its arrival in the terminal output is the first paint
BARE_SENTINEL = b"Goblin 20"
FRACAS_SENTINEL = b"Bandit Captain"

BARE_CHILD = """
from textual.app import App
from textual.widgets import DataTable

class Bare(App):
    def compose(self):
        yield DataTable()

    def on_mount(self):
        t = self.query_one(DataTable)
        t.add_columns("Name", "HP", "AC", "Init", "Conditions")
        for i in range(20):
            t.add_row(f"Goblin {i + 1}", "7/7", "13", str(20 - i), "")
        self.call_after_refresh(self.exit)

Bare().run()
"""

FRACAS_CHILD = """
import sys
sys.path.insert(0, {root!r})
from tui.app import FracasApp
from tui.main import MainScreen

# exit right after the main screen's first paint; everything else is the real `fracas demo d20`
_mount = MainScreen.on_mount
def on_mount(self):
    _mount(self)
    self.app.call_after_refresh(self.app.exit)
MainScreen.on_mount = on_mount
from tui.cli import main
sys.exit(main(["demo", "d20", "--dir", {folder!r}]))
"""

# the same demo fight in a memory session, no save file: what the app itself costs at start-up
MEMORY_CHILD = """
import sys
sys.path.insert(0, {root!r})
from tui.app import make_app
from tui.main import MainScreen

_mount = MainScreen.on_mount
def on_mount(self):
    _mount(self)
    self.app.call_after_refresh(self.app.exit)
MainScreen.on_mount = on_mount
from saves.demo import demo_history
from saves.session import Session
h = demo_history("d20", 11)
s = Session.memory(h.nodes[0].state)
for node in h.nodes[1:]:
    s.apply(node.command)
make_app(s).run()
"""


def _run_on_pty(code: str, env: dict[str, str], sentinel: bytes) -> tuple[float, float]:
    """Seconds from launch until `sentinel` (text of the first screen) reaches the terminal, and
    until the process has exited."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    seen: list[float] = []
    start = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-c", code], stdin=slave, stdout=slave, stderr=slave, env=env, close_fds=True
    )
    os.close(slave)

    def drain() -> None:  # the terminal must be read or the child blocks on a full buffer
        data = b""
        try:
            while chunk := os.read(master, 65536):
                if not seen:
                    data += chunk
                    if sentinel in data:
                        seen.append(time.perf_counter())
        except OSError:
            pass

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    try:
        code_ = proc.wait(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        raise RuntimeError("a startup child did not exit within 60 s") from None
    ended = time.perf_counter()
    reader.join(timeout=5)
    os.close(master)
    if code_ != 0:
        raise RuntimeError(f"a startup child exited with {code_}")
    if not seen:
        raise RuntimeError(f"{sentinel!r} never reached the terminal")
    return seen[0] - start, ended - start


def startup_ratio() -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, FRACAS_CONFIG_DIR=str(Path(tmp) / "config"), TERM="xterm-256color")
        env.pop("TEXTUAL", None)
        fracas_code = FRACAS_CHILD.format(root=str(ROOT), folder=str(Path(tmp) / "saves"))
        memory_code = MEMORY_CHILD.format(root=str(ROOT))
        bare: list[tuple[float, float]] = []
        ours: list[tuple[float, float]] = []
        memory: list[tuple[float, float]] = []
        _run_on_pty(BARE_CHILD, env, BARE_SENTINEL)  # warm the file cache for both before timing
        _run_on_pty(fracas_code, env, FRACAS_SENTINEL)
        for _ in range(RUNS):
            bare.append(_run_on_pty(BARE_CHILD, env, BARE_SENTINEL))
            ours.append(_run_on_pty(fracas_code, env, FRACAS_SENTINEL))
            memory.append(_run_on_pty(memory_code, env, FRACAS_SENTINEL))
    paint_b = statistics.median(x[0] for x in bare)
    paint_o = statistics.median(x[0] for x in ours)
    exit_b = statistics.median(x[1] for x in bare)
    exit_o = statistics.median(x[1] for x in ours)
    paint_m = statistics.median(x[0] for x in memory)
    return {
        "memory_ratio": paint_m / paint_b,
        "ratio": paint_o / paint_b,
        "ours_ms": paint_o * 1000,
        "bare_ms": paint_b * 1000,
        "exit_ratio": exit_o / exit_b,
    }


# --- key press to repaint ---------------------------------------------------------------------


async def _keypress(samples: int) -> tuple[list[float], list[float]]:
    from textual import events

    from engine import commands as C
    from engine import new_fight
    from saves.session import Session
    from tui.app import make_app
    from tui.main import MainScreen

    s = Session.memory(new_fight("d20", "Benchmark", 1))
    for i in range(2):
        s.apply(C.AddCombatant(f"Orc{i}", count=50, stats=(("hp", 500), ("dex", 10 + i))))
    s.apply(C.StartFight())
    with tempfile.TemporaryDirectory() as tmp:
        app = make_app(s, config_path=Path(tmp) / "config.toml")
        frames: list[float] = []
        last_frame = [0.0]  # when any frame was last painted
        before = [s.state]  # the state before the timed key: a frame only counts once it has changed
        async with app.run_test(size=(160, 48)) as pilot:
            display = app._display

            def spy(screen, renderable):  # type: ignore[no-untyped-def]
                if renderable is not None and hasattr(renderable, "render_segments"):
                    renderable.render_segments(app.console)  # build the terminal output as a tty would
                display(screen, renderable)
                last_frame[0] = time.perf_counter()
                # a frame counts once the change is in the state and it is the main screen's (not
                # the closing dialog's)
                if s.state is not before[0] and isinstance(screen, MainScreen):
                    frames.append(time.perf_counter())

            app._display = spy  # type: ignore[method-assign]
            await pilot.pause()
            await asyncio.sleep(1.0)  # as a GM would: the app settles (and tidies its memory) first

            async def timed(key: str, char: str | None) -> float:
                # a key pressed on a quiet app: the previous key's after-work (a toast, the dialog's
                # teardown) has painted its last frame 0.1 s ago
                await asyncio.sleep(0.05)
                quiet = time.perf_counter() + 2
                while time.perf_counter() - last_frame[0] < 0.1 and time.perf_counter() < quiet:
                    await asyncio.sleep(0.01)
                before[0] = s.state
                frames.clear()
                event = events.Key(key, char)
                event.set_sender(app)
                t0 = time.perf_counter()
                app._driver.send_message(event)  # type: ignore[union-attr]
                deadline = t0 + 5
                while time.perf_counter() < deadline:
                    await asyncio.sleep(0.0005)
                    if frames:
                        # the first frame painted once the change is in the state
                        return (frames[0] - t0) * 1000
                raise RuntimeError(f"no repaint after {key!r}")

            nxt: list[float] = []
            dmg: list[float] = []
            for _ in range(samples):
                nxt.append(await timed("n", "n"))
                await pilot.press("d", "1")
                dmg.append(await timed("enter", "\r"))
        return nxt, dmg


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]


def run() -> list[tuple[str, float, str]]:
    nxt, dmg = asyncio.run(_keypress(30))
    start = startup_ratio()
    return [
        ("tui.startup_ratio", start["ratio"], "x"),
        ("tui.startup_fracas_ms", start["ours_ms"], "ms"),
        ("tui.startup_bare_ms", start["bare_ms"], "ms"),
        ("tui.startup_to_exit_ratio", start["exit_ratio"], "x"),
        ("tui.startup_memory_demo_ratio", start["memory_ratio"], "x"),
        ("tui.keypress_ms", _p95(nxt + dmg), "ms"),
        ("tui.keypress_next_p95_ms", _p95(nxt), "ms"),
        ("tui.keypress_damage_p95_ms", _p95(dmg), "ms"),
    ]


if __name__ == "__main__":
    for name, value, unit in run():
        print(f"{name} {value:.3f} {unit}")
