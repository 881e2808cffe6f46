"""The settings file: keys remapped by binding id, the theme remembered, a damaged file left alone."""

from __future__ import annotations

from pathlib import Path

from tests.tui.support import demo_session, main_screen, notifications, of, select, sync, type_text
from tui import config
from tui.actions import ACTIONS, known_ids
from tui.app import make_app
from tui.dialogs import HealthDialog


def test_every_binding_has_an_id_and_the_table_round_trips(tmp_path: Path) -> None:
    import importlib
    import inspect
    import pkgutil

    from textual.binding import Binding

    import tui.app
    import tui.dialogs
    import tui.help
    import tui.main
    import tui.start
    import tui.widgets

    # the dialogs are a package: every module of it (a class is checked in the module it is defined in)
    dialogs = [importlib.import_module(f"tui.dialogs.{m.name}") for m in pkgutil.iter_modules(tui.dialogs.__path__)]
    assert len(dialogs) >= 10
    for module in (tui.app, *dialogs, tui.help, tui.main, tui.start, tui.widgets):
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ != module.__name__:
                continue
            for b in vars(cls).get("BINDINGS", []):
                assert isinstance(b, Binding) and b.id, f"{cls.__name__}: {b}"
                assert b.id in known_ids(), f"{b.id} cannot be remapped"
    ids = [b.id for b in tui.main.MainScreen.BINDINGS]  # type: ignore[union-attr]
    assert len(set(ids)) == len(ids)
    assert {a.id for a in ACTIONS if a.keys} <= known_ids()
    cfg = config.Config(tmp_path / "c.toml", theme='we"ird\\theme', keys={"damage": "x", "next": "n,space"})
    assert config.save(cfg) is None
    back = config.load(cfg.path, known_ids())
    assert back.theme == 'we"ird\\theme' and back.keys == cfg.keys and not back.problems


def test_bad_files_are_reported_and_never_overwritten(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text("theme = [unclosed\n")
    cfg = config.load(path, known_ids())
    assert not cfg.writable and "not valid TOML" in cfg.problems[0]
    assert config.save(cfg) is not None
    assert path.read_text() == "theme = [unclosed\n"
    path.write_text('[keys]\nnot_a_binding = "q"\ndamage = 3\n')
    cfg = config.load(path, known_ids())
    assert any("not_a_binding" in p for p in cfg.problems)
    assert any("keys.damage" in p for p in cfg.problems)


@sync
async def test_remapped_key_opens_the_dialog(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text('[keys]\ndamage = "z"\n')
    s = demo_session("d20", start=True)
    app = make_app(s, config_path=path)
    async with app.run_test(size=(80, 24)) as pilot:
        await select(pilot, "Bandit 1")
        await pilot.press("d")  # no longer damage
        assert not isinstance(app.screen, HealthDialog)
        await pilot.press("z")
        assert isinstance(app.screen, HealthDialog)
        await type_text(pilot, "3")
        await pilot.press("enter")
        assert of(s, "Bandit 1").hp == 8
        footer = main_screen(pilot).query_one("KeyBar").render().plain
        assert " z Damage " in footer and " d Damage" not in footer


@sync
async def test_the_theme_is_remembered(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    s = demo_session("warhammer")
    app = make_app(s, config_path=path)
    async with app.run_test(size=(80, 24)) as pilot:
        assert app.theme == "fracas-ember"
        assert {"fracas-ember", "fracas-parchment", "textual-dark"} <= set(app.available_themes)
        app.theme = "fracas-parchment"
        await pilot.pause()
    assert 'theme = "fracas-parchment"' in path.read_text()
    again = make_app(demo_session("warhammer"), config_path=path)
    async with again.run_test(size=(80, 24)) as pilot:
        assert again.theme == "fracas-parchment"
        # the panes take the new theme's colours
        tracker = main_screen(pilot).query_one("#tracker")
        rgb = tracker._styles.get(tracker)["enemy"].color.triplet
        assert max(abs(a - b) for a, b in zip(rgb, (0xB0, 0x28, 0x1E), strict=True)) <= 2  # parchment's error


@sync
async def test_a_damaged_settings_file_is_a_warning(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text("this is not toml = = =")
    app = make_app(demo_session("d20"), config_path=path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert any("not valid TOML" in n for n in notifications(pilot))
        app.theme = "textual-dark"
        await pilot.pause()
    assert path.read_text() == "this is not toml = = ="
