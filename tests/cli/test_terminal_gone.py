"""When the terminal goes away (the window closed, the ssh link dropped) the app closes: it must not
live on reading end-of-file, holding the fight's lock and a whole core."""

from __future__ import annotations

import fcntl
import os
import pty
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX terminals only")
def test_the_app_exits_when_its_terminal_hangs_up(tmp_path: Path) -> None:
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    env = dict(os.environ, FRACAS_CONFIG_DIR=str(tmp_path / "cfg"), TERM="xterm-256color")
    env.pop("TEXTUAL", None)
    proc = subprocess.Popen(
        [sys.executable, "-m", "tui.cli", "demo", "d20", "--dir", str(tmp_path / "saves")],
        stdin=slave, stdout=slave, stderr=slave, env=env, cwd=ROOT, close_fds=True,
        start_new_session=True,  # its own session: SIGHUP does not reach it, only the dead terminal does
    )
    os.close(slave)
    try:
        seen = b""
        deadline = time.monotonic() + 60
        while b"Bandit Captain" not in seen and time.monotonic() < deadline:
            try:
                seen += os.read(master, 65536)
            except OSError:
                break
        assert b"Bandit Captain" in seen, "the app never painted its first screen"
    finally:
        os.close(master)  # the terminal is gone
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        pytest.fail("the app lived on after its terminal went away")
    saved = list((tmp_path / "saves").glob("*.fracas"))
    assert len(saved) == 1
    check = subprocess.run(
        [sys.executable, "-m", "tui.cli", "check", str(saved[0])], cwd=ROOT, capture_output=True, text=True
    )
    assert check.returncode == 0, check.stdout + check.stderr
