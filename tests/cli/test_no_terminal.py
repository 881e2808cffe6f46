"""The commands that open the app refuse to start without a terminal (issue 22): `fracas demo d20
</dev/null >log` used to run the whole app blind, reading end-of-file with a core busy until killed.
They now exit at once with one line pointing to script, export (and serve), having written nothing."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine import new_fight
from saves.session import Session

ROOT = Path(__file__).resolve().parents[2]


def _env(tmp_path: Path) -> dict[str, str]:
    env = dict(os.environ, FRACAS_DATA_DIR=str(tmp_path / "data"), FRACAS_CONFIG_DIR=str(tmp_path / "config"))
    for name in ("TEXTUAL", "TEXTUAL_DRIVER"):
        env.pop(name, None)
    return env


def _run(tmp_path: Path, *argv: str, **streams: object) -> subprocess.CompletedProcess[str]:
    kwargs: dict[str, object] = {"stdin": subprocess.DEVNULL, "stdout": subprocess.PIPE, "stderr": subprocess.PIPE}
    kwargs.update(streams)
    return subprocess.run(  # type: ignore[call-overload, no-any-return]
        [sys.executable, "-m", "tui.cli", *argv], cwd=ROOT, env=_env(tmp_path), text=True, timeout=60, **kwargs
    )


def _files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.is_file()) if folder.exists() else []


def _refused(proc: subprocess.CompletedProcess[str], what: str) -> str:
    assert proc.returncode == 1, (proc.returncode, proc.stderr)
    assert proc.stderr.count("\n") == 1 and proc.stderr.startswith("fracas: "), proc.stderr
    line = proc.stderr.strip()
    assert f"{what} needs a terminal" in line and "`fracas export`" in line and "`fracas script`" in line, line
    assert "Traceback" not in line and not proc.stdout
    return line


def test_demo_without_a_terminal_exits_at_once_and_writes_nothing(tmp_path: Path) -> None:
    proc = _run(tmp_path, "demo", "d20")
    line = _refused(proc, "demo")
    assert "`fracas serve`" in line
    assert _files(tmp_path / "data") == []  # no demo copy made (or replaced)
    assert _files(tmp_path / "config") == []


def test_an_existing_demo_copy_is_not_replaced(tmp_path: Path) -> None:
    _run(tmp_path, "demo", "d20", "--dir", str(tmp_path / "demos"))
    assert _files(tmp_path / "demos") == []
    (tmp_path / "demos").mkdir()
    kept = tmp_path / "demos" / "demo-d20.fracas"
    kept.write_bytes(b"the GM's copy, mid-fight")
    _refused(_run(tmp_path, "demo", "d20", "--dir", str(tmp_path / "demos")), "demo")
    assert kept.read_bytes() == b"the GM's copy, mid-fight"


def test_new_plain_fracas_and_a_file_refuse_too(tmp_path: Path) -> None:
    _refused(_run(tmp_path, "new", "d20", "Ford", "--dir", str(tmp_path / "new")), "new")
    assert _files(tmp_path / "new") == []
    _refused(_run(tmp_path), "the app")
    path = tmp_path / "fight.fracas"
    Session.create(path, new_fight("d20", "Saved")).close()
    before = path.read_bytes()
    _refused(_run(tmp_path, str(path)), "the app")
    _refused(_run(tmp_path, str(path), "--read-only"), "the app")
    assert path.read_bytes() == before
    # the players' view needs a terminal too: it points to export and script, not to itself
    line = _refused(_run(tmp_path, "view", str(path)), "view")
    assert "`fracas serve`" not in line
    assert sorted(p.name for p in _files(tmp_path)) == ["fight.fracas"]  # no lock left behind


def test_the_tools_still_run_without_a_terminal(tmp_path: Path) -> None:
    path = tmp_path / "fight.fracas"
    Session.create(path, new_fight("d20", "Saved")).close()
    proc = _run(tmp_path, "export", str(path), "--markdown")
    assert proc.returncode == 0 and "Saved" in proc.stdout, proc.stderr
    proc = _run(tmp_path, "script", "-", "--rules", "d20", "--summary", stdin=None, input="# nothing to do\n")
    assert proc.returncode == 0 and '"round": 0' in proc.stdout, proc.stderr


def test_bad_arguments_are_still_reported_first(tmp_path: Path) -> None:
    proc = _run(tmp_path, "view", "no such fight")
    assert proc.returncode == 1 and "no saved fight or file of this name" in proc.stderr, proc.stderr
    proc = _run(tmp_path, "demo", "d20", "--seed", "many")
    assert proc.returncode == 2 and "invalid int value" in proc.stderr


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX terminals only")
def test_a_terminal_for_the_keys_but_not_for_the_screen_is_refused(tmp_path: Path) -> None:
    """Textual draws on standard error: with that redirected the app would run unseen."""
    import pty

    master, slave = pty.openpty()
    try:
        proc = _run(tmp_path, "demo", "d20", stdin=slave, stdout=slave)
    finally:
        os.close(slave)
        os.close(master)
    _refused(proc, "demo")
    assert _files(tmp_path / "data") == []
