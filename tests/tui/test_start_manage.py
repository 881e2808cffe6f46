"""The start screen's saved fights (issue 14, item 10): `r` renames the highlighted one, `delete` moves
it to the trash after a confirmation, the demo copies are listed apart below the GM's fights and a
demo started again replaces its copy; a fight open in another Fracas is refused in one line, and the
one this window has open is let go of first."""

from __future__ import annotations

import os
from pathlib import Path

from textual.widgets import OptionList

from engine import commands as C
from engine import new_fight
from saves.demo import start_demo
from saves.session import Session
from saves.store import DEMO_DIR, TRASH_DIR
from tests.tui.support import dialog_error, notifications, sync, type_text
from tui.app import FracasApp, make_app
from tui.main import MainScreen
from tui.start import RenameSaveDialog, StartScreen, TrashSaveDialog


def folder() -> Path:
    path = Path(os.environ["FRACAS_DATA_DIR"])
    path.mkdir(parents=True, exist_ok=True)
    return path


def save(name: str, file: str, when: int) -> Path:
    path = folder() / file
    with Session.create(path, new_fight("d20", name, 1)) as s:
        s.apply(C.AddCombatant(name="Bandit", count=2, stats=(("hp", 11),)))
    os.utime(path, (when, when))  # the list is newest first: the order is the test's
    return path


def prompts(app: FracasApp) -> list[str]:
    ol = app.screen.query_one("#saves", OptionList)
    return [str(ol.get_option_at_index(i).prompt) for i in range(ol.option_count)]


async def settle(app: FracasApp, pilot) -> None:  # type: ignore[no-untyped-def]
    await app.workers.wait_for_complete()
    await pilot.pause()


async def on_start(tmp_path: Path, pilot, app: FracasApp) -> None:  # type: ignore[no-untyped-def]
    await settle(app, pilot)
    assert isinstance(app.screen, StartScreen)


@sync
async def test_the_demo_copies_are_listed_apart_below_the_fights(tmp_path: Path) -> None:
    save("Goblin Cave", "cave.fracas", 1_700_000_000)
    start_demo("warhammer", 1)[0].close()  # newer than the fight, still listed below it
    app = make_app(start_screen=True, config_path=tmp_path / "config.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await on_start(tmp_path, pilot, app)
        shown = prompts(app)
        assert shown[0].startswith("Goblin Cave")
        assert shown[1].startswith("Demo copies (one per ruleset")
        assert shown[2].strip().startswith("Troll Bridge")
        ol = app.screen.query_one("#saves", OptionList)
        assert ol.get_option_at_index(1).disabled  # the heading is not a fight
        await pilot.press("down")
        assert ol.highlighted == 2  # the arrow goes past the heading to the copy


@sync
async def test_rename_from_the_start_screen(tmp_path: Path) -> None:
    cave = save("Goblin Cave", "cave.fracas", 1_700_000_100)
    ford = save("The Orc Ford", "ford.fracas", 1_700_000_000)
    app = make_app(start_screen=True, config_path=tmp_path / "config.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await on_start(tmp_path, pilot, app)
        await pilot.press("r")
        assert isinstance(app.screen, RenameSaveDialog)
        assert app.screen.value("new-name") == "Goblin Cave"
        # the other fight's name (any case): refused in the dialog, nothing touched
        app.screen.query_one("#new-name").value = ""
        await type_text(pilot, "the orc FORD")
        await pilot.press("enter")
        assert "already the name of ford.fracas" in dialog_error(pilot)
        assert isinstance(app.screen, RenameSaveDialog) and cave.exists()
        app.screen.query_one("#new-name").value = ""
        await type_text(pilot, "Goblin Warren")
        await pilot.press("enter")
        await settle(app, pilot)
        assert isinstance(app.screen, StartScreen)
        assert not cave.exists() and ford.exists()
        renamed = folder() / "Goblin-Warren.fracas"
        assert Session.open(renamed, readonly=True).state.name == "Goblin Warren"
        assert any("Renamed Goblin Cave to Goblin Warren" in n for n in notifications(pilot))
        assert prompts(app)[0].startswith("Goblin Warren")  # the list is read again
        # escape in the dialog changes nothing
        await pilot.press("r", "escape")
        assert isinstance(app.screen, StartScreen) and renamed.exists()


@sync
async def test_delete_asks_then_moves_the_fight_to_the_trash(tmp_path: Path) -> None:
    cave = save("Goblin Cave", "cave.fracas", 1_700_000_000)
    app = make_app(start_screen=True, config_path=tmp_path / "config.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await on_start(tmp_path, pilot, app)
        await pilot.press("delete")
        assert isinstance(app.screen, TrashSaveDialog)
        await pilot.press("escape")  # kept
        assert isinstance(app.screen, StartScreen) and cave.exists()
        await pilot.press("delete")
        assert isinstance(app.screen, TrashSaveDialog)
        assert str(folder() / TRASH_DIR) in str(app.screen.query_one(".wide-label").render())
        await pilot.press("enter")
        await settle(app, pilot)
        assert not cave.exists() and (folder() / TRASH_DIR / "cave.fracas").exists()
        assert any("Moved Goblin Cave to the trash" in n for n in notifications(pilot))
        assert prompts(app)[0].startswith("No saved fights yet")
        # nothing to rename or delete: the keys do nothing
        await pilot.press("r", "delete")
        assert isinstance(app.screen, StartScreen)


@sync
async def test_the_keys_act_only_on_the_list_of_fights(tmp_path: Path) -> None:
    cave = save("Goblin Cave", "cave.fracas", 1_700_000_000)
    app = make_app(start_screen=True, config_path=tmp_path / "config.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await on_start(tmp_path, pilot, app)
        await pilot.press("tab", "tab")  # the new fight's name field: r is a letter of the name
        assert app.screen.focused is app.screen.query_one("#fight-name")
        await pilot.press("r", "delete")  # and delete the field's own key (the letter after the cursor)
        assert isinstance(app.screen, StartScreen) and cave.exists()
        assert app.screen.query_one("#fight-name").value == "r"
        await pilot.press("tab", "tab", "tab", "r")  # on the rulesets', or the demos' list: nothing
        assert isinstance(app.screen, StartScreen)


@sync
async def test_a_fight_open_in_another_fracas_is_refused_in_one_line(tmp_path: Path) -> None:
    cave = save("Goblin Cave", "cave.fracas", 1_700_000_000)
    was = cave.read_bytes()
    app = make_app(start_screen=True, config_path=tmp_path / "config.toml")
    with Session.open(cave):  # another Fracas has it
        async with app.run_test(size=(80, 24)) as pilot:
            await on_start(tmp_path, pilot, app)
            await pilot.press("delete", "enter")
            await settle(app, pilot)
            await pilot.press("r")
            app.screen.query_one("#new-name").value = ""
            await type_text(pilot, "Elsewhere")
            await pilot.press("enter")
            await settle(app, pilot)
            shown = [n for n in notifications(pilot) if "open in another running Fracas" in n]
            assert len(shown) == 2 and all("\n" not in n for n in shown)
            assert shown[0].endswith("close it there to move it to the trash.")
            assert shown[1].endswith("close it there to rename it.")
    assert cave.read_bytes() == was and not (folder() / TRASH_DIR / "cave.fracas").exists()


@sync
async def test_the_fight_open_here_is_let_go_of_then_trashed(tmp_path: Path) -> None:
    cave = save("Goblin Cave", "cave.fracas", 1_700_000_000)
    app = make_app(start_screen=True, config_path=tmp_path / "config.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await on_start(tmp_path, pilot, app)
        await pilot.press("enter")  # open it: this app holds its lock
        await settle(app, pilot)
        assert isinstance(app.screen, MainScreen)
        app.action_start_screen()
        await settle(app, pilot)
        await pilot.press("delete")
        assert isinstance(app.screen, TrashSaveDialog)
        assert "It is the fight open in this window" in str(app.screen.query_one(".wide-label").render())
        await pilot.press("enter")
        await settle(app, pilot)
        assert app.session is None and not cave.exists()
        assert (folder() / TRASH_DIR / "cave.fracas").exists()
        assert not app.screen.check_action("back", ())  # no fight to go back to


@sync
async def test_a_demo_started_again_replaces_its_copy(tmp_path: Path) -> None:
    app = make_app(start_screen=True, config_path=tmp_path / "config.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(2):
            await on_start(tmp_path, pilot, app)
            app.screen.query_one("#demos").focus()
            await pilot.press("down", "enter")  # d20, the second demo
            await settle(app, pilot)
            assert isinstance(app.screen, MainScreen)
            assert app.session is not None and app.session.path == folder() / DEMO_DIR / "demo-d20.fracas"
            app.session.apply(C.StartFight())
            app.action_start_screen()
        await settle(app, pilot)
        assert [p.name for p in (folder() / DEMO_DIR).iterdir()] == ["demo-d20.fracas"]
        assert sum("Ambush on the Old Road" in p for p in prompts(app)) == 1
