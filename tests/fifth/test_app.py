"""Plain list in the app, by keys only, on a fight saved to a file: add combatants, start, damage one,
next turn, Shove through its own dialog (key `b`), undo, quit; then the file reopened in a new app has
the same fight, and undo there still goes back."""

from __future__ import annotations

from pathlib import Path

from textual.pilot import Pilot

from engine import commands as C
from engine import new_fight
from saves.session import Session
from tests.fifth.dialogs import ShoveDialog
from tests.fifth.plainlist import ID, Shove
from tests.tui.support import app_on, cid, dialog_error, main_screen, of, pane_text, select, sync, type_text
from tui.main import MainScreen
from tui.rulesets import get_ui

SIZE = (130, 40)


async def fill(pilot: Pilot, wid: str, text: str) -> None:
    pilot.app.screen.query_one(f"#{wid}").value = text  # type: ignore[attr-defined]
    await pilot.pause()


async def add(pilot: Pilot, name: str, hp: int, init: int, count: int = 1) -> None:
    await pilot.press("a")
    await type_text(pilot, name)
    await fill(pilot, "count", str(count))
    await fill(pilot, "stat-hp", str(hp))
    await fill(pilot, "stat-init", str(init))
    await pilot.press("enter")
    assert isinstance(pilot.app.screen, MainScreen), dialog_error(pilot)


def tracker_lines(pilot: Pilot) -> list[str]:
    return [r.text.plain for r in main_screen(pilot).query_one("#tracker")._rows]  # type: ignore[attr-defined]


def test_its_app_slice_is_registered() -> None:
    ui = get_ui(ID)
    assert ui.dialog("shove") is ShoveDialog and ui.has("shove") and ui.has("use") and not ui.has("attack")


@sync
async def test_play_quit_and_reopen(tmp_path: Path) -> None:
    path = tmp_path / "plain.fracas"
    s = Session.create(path, new_fight(ID, "Plain fight", seed=4))
    app = app_on(s, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await add(pilot, "Ann", 14, 15)
        await add(pilot, "Goblin", 7, 12, count=2)
        assert [c.name for c in s.state.combatants] == ["Ann", "Goblin 1", "Goblin 2"]
        header = tracker_lines(pilot)[0]
        assert "Init" in header and "HP" in header and "Acts" in header  # its own tracker row
        main = main_screen(pilot)
        assert not main.check_action("shove", ())  # not before the fight
        await pilot.press("s")
        await pilot.press("enter")  # the start dialog: no dice to ask, the Initiative stats decide
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        assert s.state.started and of(s, "Ann").id == s.state.current
        assert [s.state.get(x).name for x in s.state.order] == ["Ann", "Goblin 1", "Goblin 2"]
        # damage Goblin 1
        await select(pilot, "Goblin 1")
        await pilot.press("d")
        await type_text(pilot, "5")
        await pilot.press("enter")
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        assert of(s, "Goblin 1").hp == 2
        assert any("Goblin 1" in line and "2/7" in line for line in tracker_lines(pilot)), tracker_lines(pilot)
        # next turn: Goblin 1 acts, and shoves Ann through its own dialog
        await pilot.press("n")
        assert s.state.current == cid(s, "Goblin 1")
        assert "Plain list turn: A1 R1" in await pane_text(pilot, "sheet")
        await select(pilot, "Ann")
        assert main.check_action("shove", ())
        await pilot.press("S")
        dlg = app.screen
        assert isinstance(dlg, ShoveDialog) and dlg.choice("target") == cid(s, "Ann")
        await pilot.press("enter")
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        node = s.history.nodes[s.history.cursor]
        assert node.command == Shove(cid(s, "Goblin 1"), cid(s, "Ann"))
        assert of(s, "Ann").has("Prone") and of(s, "Goblin 1").economy.actions == 0
        assert not main.check_action("shove", ())  # its action is spent
        # undo takes the shove back
        await pilot.press("ctrl+z")
        assert not of(s, "Ann").has("Prone") and of(s, "Goblin 1").economy.actions == 1
        assert s.history.can_redo
        played = s.state
        nodes = len(s.history.nodes)
        await pilot.press("ctrl+q")
    assert not app.is_running
    s.close()

    back = Session.open(path)
    try:
        assert back.notices == [] and back.state == played and len(back.history.nodes) == nodes
        app = app_on(back, tmp_path)
        async with app.run_test(size=SIZE) as pilot:
            assert any("Goblin 1" in line and "2/7" in line for line in tracker_lines(pilot))
            await pilot.press("ctrl+y")  # redo brings the shove back, from the file's history
            assert of(back, "Ann").has("Prone")
            await pilot.press("ctrl+z", "ctrl+z")  # and undo goes on back: the next turn
            assert back.state.current == cid(back, "Ann")
            await pilot.press("ctrl+z")  # the damage
            assert of(back, "Goblin 1").hp == 7
            await pilot.press("ctrl+q")
        assert isinstance(back.history.nodes[1].command, C.AddCombatant)
    finally:
        back.close()


@sync
async def test_the_start_screen_offers_it_a_new_fight_but_no_demo_it_does_not_have(tmp_path: Path) -> None:
    from saves.demo import has_demo
    from tui.app import make_app
    from tui.start import StartScreen

    assert not has_demo(ID) and all(has_demo(r) for r in ("d20", "cosmere", "ninephase", "warhammer"))
    app = make_app(start_screen=True, config_path=tmp_path / "config.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert isinstance(app.screen, StartScreen)
        rules = app.screen.query_one("#rules")
        demos = app.screen.query_one("#demos")
        assert ID in [rules.get_option_at_index(i).id for i in range(rules.option_count)]  # type: ignore[attr-defined]
        assert ID not in [demos.get_option_at_index(i).id for i in range(demos.option_count)]  # type: ignore[attr-defined]
