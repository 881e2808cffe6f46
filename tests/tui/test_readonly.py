"""A fight that cannot be written (no permission, a read-only disk, another Fracas has it) opens
read-only from the start screen, says so, and refuses every change with one line."""

from __future__ import annotations

import errno
import os
from pathlib import Path
from typing import Any

import pytest

from engine import commands as C
from engine import new_fight
from saves.session import Session
from tests.tui.support import notifications, sync
from tui.app import make_app
from tui.main import MainScreen


def saved_fight(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    s = Session.create(folder / "keep.fracas", new_fight("d20", "Keep", 1))
    s.apply(C.AddCombatant("Goblin"))
    s.apply(C.StartFight())
    s.close()
    return folder / "keep.fracas"


def refuse_writes(monkeypatch: pytest.MonkeyPatch, path: Path, err: int) -> None:
    """Opening `path` (or making a file next to it) for writing fails as on a read-only disk or
    without permission; reading works (root ignores file modes, so chmod would not do here)."""
    real = os.open

    def fake(p: Any, flags: int, *a: Any, **k: Any) -> int:
        writing = flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT)
        if writing and str(p).startswith(str(path.parent)):
            raise OSError(err, os.strerror(err), str(p))
        return real(p, flags, *a, **k)

    monkeypatch.setattr(os, "open", fake)


async def open_first_save(pilot) -> None:  # type: ignore[no-untyped-def]
    app = pilot.app
    await app.workers.wait_for_complete()
    await pilot.pause()
    await pilot.press("enter")
    await app.workers.wait_for_complete()
    await pilot.pause()


async def check_read_only(pilot, path: Path, before: bytes) -> None:  # type: ignore[no-untyped-def]
    app = pilot.app
    assert isinstance(app.screen, MainScreen)
    assert app.session is not None and app.session.readonly
    assert any("opened read-only" in n for n in notifications(pilot)), notifications(pilot)
    assert "read-only" in str(app.screen.query_one("#saved").render())
    # each key that would change the fight: one line, no dialog, no crash, the file untouched
    for key in ("d", "n", "m", "ctrl+z", "a"):
        await pilot.press(key)
        await pilot.pause()
        assert isinstance(app.screen, MainScreen), key
        assert "This fight is open read-only" in notifications(pilot)[-1], key
    assert app.is_running
    # a command sent another way is refused by the session: a warning line
    assert not app.try_commit(C.NextTurn())
    assert path.read_bytes() == before


@pytest.mark.parametrize("err", [errno.EACCES, errno.EROFS])
@sync
async def test_a_file_that_cannot_be_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, err: int) -> None:
    path = saved_fight(Path(os.environ["FRACAS_DATA_DIR"]))
    before = path.read_bytes()
    refuse_writes(monkeypatch, path, err)
    app = make_app(start_screen=True, config_path=tmp_path / "config.toml")
    async with app.run_test(size=(100, 30)) as pilot:
        await open_first_save(pilot)
        await check_read_only(pilot, path, before)
        assert any(os.strerror(err).lower() in n.lower() or "read-only" in n for n in notifications(pilot))


@sync
async def test_a_file_another_fracas_has(tmp_path: Path) -> None:
    path = saved_fight(Path(os.environ["FRACAS_DATA_DIR"]))
    held = Session.open(path)
    try:
        before = path.read_bytes()
        app = make_app(start_screen=True, config_path=tmp_path / "config.toml")
        async with app.run_test(size=(100, 30)) as pilot:
            await open_first_save(pilot)
            await check_read_only(pilot, path, before)
            assert any("another running Fracas" in n for n in notifications(pilot))
    finally:
        held.close()
