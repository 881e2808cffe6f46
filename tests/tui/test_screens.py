"""The palette, help, pane switching on a small screen, and the start screen (files on disk)."""

from __future__ import annotations

import os
from pathlib import Path

from engine import new_fight
from saves.session import Session
from tests.tui.support import app_on, demo_session, main_screen, notifications, of, sync, type_text
from tui.app import make_app
from tui.dialogs import HealthDialog
from tui.help import HelpScreen
from tui.main import MainScreen
from tui.start import StartScreen


@sync
async def test_palette_runs_actions_and_jumps_to_a_combatant(tmp_path: Path) -> None:
    s = demo_session("d20", start=True)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("ctrl+p")
        await type_text(pilot, "Bandit Capt")
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        assert main_screen(pilot).selected == of(s, "Bandit Captain").id
        await pilot.press("ctrl+p")
        await type_text(pilot, "damage")
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, HealthDialog)
        await type_text(pilot, "5")
        await pilot.press("enter")
        assert of(s, "Bandit Captain").hp == 40
        # from the palette too (E is its key)
        await pilot.press("ctrl+p")
        await type_text(pilot, "end the fight")
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        assert s.state.ended


@sync
async def test_help_lists_keys_and_conditions(tmp_path: Path) -> None:
    app = app_on(demo_session("d20"), tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        text = str(app.screen.query_one("Static").render())
        assert "ctrl+z" in text and "damage (d)" in text and "Prone:" in text
        await pilot.press("escape")
        assert isinstance(app.screen, MainScreen)


@sync
async def test_small_screen_switches_panes(tmp_path: Path) -> None:
    app = app_on(demo_session("ninephase", start=True), tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        main = main_screen(pilot)
        shown = [p for p in ("sheet", "conditions", "log") if main.query_one(f"#{p}").display]
        assert shown == ["sheet"]
        await pilot.press("v")
        assert [p for p in ("sheet", "conditions", "log") if main.query_one(f"#{p}").display] == ["conditions"]
        await pilot.press("v")
        assert [p for p in ("sheet", "conditions", "log") if main.query_one(f"#{p}").display] == ["log"]
        await pilot.resize_terminal(160, 48)
        await pilot.pause()
        assert all(main.query_one(f"#{p}").display for p in ("sheet", "conditions", "log"))
        assert not main.check_action("pane", ())


@sync
async def test_start_screen_new_fight_demo_and_saved_fights(tmp_path: Path) -> None:
    folder = Path(os.environ["FRACAS_DATA_DIR"])
    folder.mkdir(parents=True, exist_ok=True)
    old = Session.create(folder / "old.fracas", new_fight("warhammer", "Old [b]fight[/b]", 1))
    old.close()
    os.utime(folder / "old.fracas", (1_000_000_000, 1_000_000_000))
    app = make_app(start_screen=True, config_path=tmp_path / "config.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert isinstance(app.screen, StartScreen)
        saves = app.screen.query_one("#saves")
        assert "Old [b]fight[/b]" in str(saves.get_option_at_index(0).prompt)
        # a new cosmere fight, named
        await pilot.press("tab")  # to the rulesets
        await pilot.press("enter")  # cosmere, the first -> the name field
        await type_text(pilot, "Bridge run")
        await pilot.press("enter")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert isinstance(app.screen, MainScreen)
        assert app.session is not None and app.session.state.ruleset == "cosmere"
        assert app.session.state.name == "Bridge run" and app.session.path is not None
        assert app.session.path.parent == folder
        assert "saved" in str(app.screen.query_one("#saved").render())
        # back to the start screen from the palette; the new fight is listed first, newest
        await pilot.press("ctrl+p")
        await type_text(pilot, "another fight")
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert isinstance(app.screen, StartScreen)
        saves = app.screen.query_one("#saves")
        assert "Bridge run" in str(saves.get_option_at_index(0).prompt)
        # open the old one: a file-backed session on it
        await pilot.press("down", "enter")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert isinstance(app.screen, MainScreen)
        assert app.session is not None and app.session.state.name == "Old [b]fight[/b]"
    # every session the app opened is closed: the files can be opened for writing again
    for path in folder.glob("*.fracas"):
        Session.open(path).close()


@sync
async def test_start_screen_demo_and_a_locked_file(tmp_path: Path) -> None:
    folder = Path(os.environ["FRACAS_DATA_DIR"])
    folder.mkdir(parents=True, exist_ok=True)
    held = Session.create(folder / "held.fracas", new_fight("d20", "Held", 1))
    try:
        app = make_app(start_screen=True, config_path=tmp_path / "config.toml")
        async with app.run_test(size=(80, 24)) as pilot:
            await app.workers.wait_for_complete()
            await pilot.pause()
            await pilot.press("enter")  # the held file: another session has it
            await app.workers.wait_for_complete()
            await pilot.pause()
            assert isinstance(app.screen, MainScreen)
            assert app.session is not None and app.session.readonly
            assert any("read-only" in n for n in notifications(pilot))
            assert "read-only" in str(app.screen.query_one("#saved").render())
            assert not app.screen.check_action("damage", ())
            # back, and a demo on a fresh copy
            await pilot.press("ctrl+p")
            await type_text(pilot, "another fight")
            await pilot.pause()
            await pilot.press("enter")
            await app.workers.wait_for_complete()
            await pilot.pause()
            app.screen.query_one("#demos").focus()
            await pilot.pause()
            await pilot.press("down", "down", "enter")  # the third demo in the list
            await app.workers.wait_for_complete()
            await pilot.pause()
            assert isinstance(app.screen, MainScreen)
            assert app.session is not None and app.session.path is not None
            assert app.session.path.name.startswith("demo-") and len(app.session.state.combatants) >= 4
    finally:
        held.close()


@sync
async def test_the_mouse_works_too(tmp_path: Path) -> None:
    s = demo_session("d20", start=True)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        main = main_screen(pilot)
        tracker = main.query_one("#tracker")
        row = next(i for i, r in enumerate(tracker._rows) if r.cid == of(s, "Bandit 3").id)
        await pilot.click("#tracker", offset=(10, row + 1))  # + the border line above the rows
        await pilot.pause()
        assert main.selected == of(s, "Bandit 3").id
        # a key in the footer is a button
        bar = main.query_one("KeyBar")
        start, _, _ = next(spot for spot in bar._spots if spot[2] == "d")
        await pilot.click("KeyBar", offset=(start + 1, 0))
        await pilot.pause()
        assert isinstance(app.screen, HealthDialog)
        await type_text(pilot, "2")
        await pilot.click("#ok")
        await pilot.pause()
        assert of(s, "Bandit 3").hp == 9


@sync
async def test_start_screen_with_no_saves_takes_the_arrows_at_once(tmp_path: Path) -> None:
    folder = Path(os.environ["FRACAS_DATA_DIR"])
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("*.fracas"):
        old.unlink()
    app = make_app(start_screen=True, config_path=tmp_path / "config.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert isinstance(app.screen, StartScreen)
        rules = app.screen.query_one("#rules")
        assert app.focused is rules
        await pilot.press("down", "enter")  # the second ruleset, then its name field
        await pilot.pause()
        picked = rules.get_option_at_index(1).id
        await type_text(pilot, "Quick one")
        await pilot.press("enter")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert isinstance(app.screen, MainScreen)
        assert app.session is not None and app.session.state.ruleset == picked
