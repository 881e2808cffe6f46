"""The settings file never stops or hangs the start: only a regular file is read, at most MAX_BYTES of
it, any parse failure falls back to the defaults with one line, and a key that is no key or that
another binding already has is refused, naming the key and both bindings, while the rest applies."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest

from tests.tui.support import demo_session, notifications, sync
from tui import config
from tui.actions import default_keys, known_ids
from tui.app import make_app


def load(path: Path) -> config.Config:
    return config.load(path, known_ids(), default_keys())


class Deadline:
    """Fail, rather than hang the suite, if loading takes more than a few seconds."""

    def __enter__(self) -> None:
        def boom(*_: object) -> None:
            raise TimeoutError("config.load hung")

        self._old = signal.signal(signal.SIGALRM, boom)
        signal.alarm(5)

    def __exit__(self, *_: object) -> None:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, self._old)


def test_a_fifo_is_not_waited_on(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    os.mkfifo(path)
    with Deadline():
        cfg = load(path)
    assert not cfg.writable and cfg.keys == {} and cfg.theme is None
    assert cfg.problems == [f"{path}: not a regular file (a pipe); using the defaults."]


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_a_link_to_a_device_is_not_read(tmp_path: Path, device: str) -> None:
    if not os.path.exists(device):
        pytest.skip(f"no {device} here")
    path = tmp_path / "config.toml"
    path.symlink_to(device)
    with Deadline():
        cfg = load(path)
    assert not cfg.writable and len(cfg.problems) == 1 and "not a regular file" in cfg.problems[0]


def test_a_big_file_is_refused_without_reading_it_whole(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_bytes(b"#" * (config.MAX_BYTES + 1))
    cfg = load(path)
    assert not cfg.writable and "larger than" in cfg.problems[0]


def test_deep_nesting_is_a_notice(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text("x = " + "[" * 10_000 + "]" * 10_000 + "\n")
    cfg = load(path)
    assert not cfg.writable and cfg.keys == {}
    assert len(cfg.problems) == 1 and "using the defaults" in cfg.problems[0]
    path.write_text("x = " + "{a = " * 10_000 + "1" + "}" * 10_000 + "\n")
    assert "using the defaults" in load(path).problems[0]


def test_a_parser_failure_of_any_kind_is_a_notice(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import tomllib

    def broken(_: str) -> dict[str, object]:
        raise MemoryError("no room")

    monkeypatch.setattr(tomllib, "loads", broken)
    path = tmp_path / "config.toml"
    path.write_text('theme = "x"\n')
    cfg = load(path)
    assert cfg.problems == [f"{path} cannot be read (MemoryError); using the defaults."]


def write(tmp_path: Path, keys: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text('theme = "fracas-parchment"\n[keys]\n' + keys)
    return path


def test_a_key_that_is_no_key(tmp_path: Path) -> None:
    cfg = load(write(tmp_path, 'damage = "dmg"\nheal = "ctrl+shift+h"\nnote = "comma"\n'))
    assert cfg.keys == {"heal": "ctrl+shift+h", "note": "comma"}  # the rest applies
    assert cfg.problems == [f"{cfg.path}: keys.damage: 'dmg' is not a key name; damage keeps its keys."]
    assert cfg.theme == "fracas-parchment"


def test_a_key_another_binding_has(tmp_path: Path) -> None:
    cfg = load(write(tmp_path, 'damage = "h"\nroll = "ctrl+q"\nnote = "ctrl+p"\nadd = "tab"\nundo = "u,ctrl+z"\n'))
    p = cfg.path
    assert cfg.problems == [
        f"{p}: keys.add: 'tab' is Textual's own key (focus the next field); add keeps its keys.",
        f"{p}: keys.damage: 'h' is already the key of heal; damage keeps its keys.",
        f"{p}: keys.note: 'ctrl+p' is already the key of palette; note keeps its keys.",
        f"{p}: keys.roll: 'ctrl+q' is already the key of quit; roll keeps its keys.",
        f"{p}: keys.undo: 'u' is already the key of activity; undo keeps its keys.",
    ]
    assert cfg.keys == {}


def test_one_key_for_two_bindings_and_keys_moved_out_of_the_way(tmp_path: Path) -> None:
    cfg = load(write(tmp_path, 'damage = "z"\nheal = "z"\nnote = "n"\nnext = "space"\nup = "w"\n'))
    assert cfg.problems == [
        f"{cfg.path}: 'z' is given to both damage and heal; both keep their own keys.",
        # the main screen's keys shadow the tracker's: w is the attack's
        f"{cfg.path}: keys.up: 'w' is already the key of attack; up keeps its keys.",
    ]
    # n is free once next has only space
    assert cfg.keys == {"note": "n", "next": "space"}


def test_keys_in_places_that_never_meet_are_fine(tmp_path: Path) -> None:
    # the tracker's and a pane's keys are the same by design; a dialog's escape is not the start screen's
    cfg = load(write(tmp_path, 'scroll_up = "u"\ndialog_cancel = "q"\n'))
    assert cfg.keys == {"dialog_cancel": "q"}
    taken = "'u' is already the key of activity"
    assert cfg.problems == [f"{cfg.path}: keys.scroll_up: {taken}; scroll_up keeps its keys."]


def test_the_default_keys_are_the_bindings_keys() -> None:
    """The table the settings are checked against agrees with the bindings themselves."""
    import tui.dialogs
    import tui.help
    import tui.start
    import tui.widgets
    from tui.app import FracasApp
    from tui.main import MainScreen

    table = default_keys()
    classes = [FracasApp, MainScreen, tui.widgets.Tracker, tui.widgets.Lines, tui.dialogs.Dialog]
    classes += [tui.dialogs.Choice, tui.dialogs.Tick, tui.dialogs.ConditionDialog, tui.help.HelpScreen]
    classes += [tui.start.StartScreen]
    for cls in classes:
        for b in vars(cls)["BINDINGS"]:
            assert table[b.id][1] == b.key, (cls.__name__, b.id)


@sync
async def test_the_app_starts_on_a_fifo_and_says_why(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    os.mkfifo(path)
    s = demo_session("d20")
    with Deadline():
        app = make_app(s, config_path=path)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert any("not a regular file" in n for n in notifications(pilot))
        assert app.theme == "fracas-ember"


@sync
async def test_the_rest_of_the_settings_apply_in_the_app(tmp_path: Path) -> None:
    path = write(tmp_path, 'damage = "h"\nnote = "z"\n')
    s = demo_session("d20", start=True)
    app = make_app(s, config_path=path)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert app.theme == "fracas-parchment"
        assert any("'h' is already the key of heal" in n for n in notifications(pilot))
        await pilot.press("z")
        assert type(app.screen).__name__ == "NoteDialog"
        await pilot.press("escape", "h")
        assert type(app.screen).__name__ == "HealthDialog" and app.screen.mode == "heal"  # type: ignore[attr-defined]


def test_a_refused_key_is_kept_in_the_file_when_settings_are_saved(tmp_path: Path) -> None:
    cfg = load(write(tmp_path, 'damage = "h"\nnote = "z"\nheal = "dmg"\n'))
    assert cfg.keys == {"note": "z"}
    cfg.theme = "textual-dark"
    assert config.save(cfg) is None
    back = load(cfg.path)
    assert back.theme == "textual-dark" and back.keys == {"note": "z"}
    assert back.refused == {"damage": "h", "heal": "dmg"}  # still there, still refused, for the GM to fix
