"""A d20 statblock attack's rider on a hit (issue 24): the log gets it whole with the attack (one
undo), and one key acts on it: gives the condition, or rolls the save and gives it on a failure."""

from __future__ import annotations

from pathlib import Path

from engine import commands as C
from engine.area import AreaEffect
from engine.rules.d20.combat import D20Test
from tests.tui.statblocks import BOSS, SPIDER, WYRM, fight_with
from tests.tui.support import app_on, burst, dialog_error, of, select, sync
from tui.main import MainScreen
from tui.rulesets.d20.dialogs import D20AttackDialog
from tui.rulesets.d20.rider import RiderDialog


def notes(s):  # type: ignore[no-untyped-def]
    return [n.command.text for n in s.history.nodes if isinstance(n.command, C.Note)]


@sync
async def test_a_hit_with_a_condition_rider_gives_it_with_one_key(tmp_path: Path) -> None:
    s = fight_with(BOSS, turn="Bandit Chief")
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await select(pilot, "Ayla")
        # the Net Hook (the second attack) with a natural 19: a hit
        await burst(pilot, "w", "shift+tab", "shift+tab", "n", "e", "t", "tab", "tab")
        dlg = app.screen
        assert isinstance(dlg, D20AttackDialog) and dlg.value("label") == "Net Hook"
        dlg.query_one("#given").value = "19"
        await burst(pilot, "enter")
        rider = app.screen
        assert isinstance(rider, RiderDialog), dialog_error(pilot)
        assert "Bandit Chief's Net Hook hit Ayla: The target is Grappled." in str(rider.query_one("#heading").render())
        assert notes(s) == ["Bandit Chief's Net Hook hit Ayla: The target is Grappled."]
        await burst(pilot, "enter")
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        assert [c.name for c in of(s, "Ayla").conditions] == ["Grappled"]


@sync
async def test_a_save_rider_typed_by_the_table_and_failed_gives_the_condition(tmp_path: Path) -> None:
    s = fight_with(WYRM, turn="Ember Wyrm")
    s.apply(C.Setting("roll_pc", "table"))
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await select(pilot, "Bram")
        await burst(pilot, "w", "shift+tab", "shift+tab", "t", "a", "i", "tab", "tab")
        dlg = app.screen
        assert isinstance(dlg, D20AttackDialog) and dlg.value("label") == "Tail"
        dlg.query_one("#given").value = "18"
        await burst(pilot, "enter")
        rider = app.screen
        assert isinstance(rider, RiderDialog), dialog_error(pilot)
        assert "DC 22 Strength save or Prone" in str(rider.query_one("#heading").render())
        await burst(pilot, "enter")
        assert "type its save total" in dialog_error(pilot)
        await burst(pilot, "9", "enter")
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        tests = [n.command for n in s.history.nodes if isinstance(n.command, D20Test)]
        assert tests and tests[-1].total == 9 and tests[-1].dc == 22
        assert [c.name for c in of(s, "Bram").conditions] == ["Prone"]


@sync
async def test_a_miss_has_no_rider(tmp_path: Path) -> None:
    s = fight_with(BOSS, turn="Bandit Chief")
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await select(pilot, "Ayla")
        await burst(pilot, "w", "shift+tab", "shift+tab", "n", "e", "t", "tab", "tab")
        app.screen.query_one("#given").value = "1"
        await burst(pilot, "enter")
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        assert notes(s) == [] and not of(s, "Ayla").conditions


@sync
async def test_a_rider_that_hurts_deals_its_damage_on_a_failed_save_in_one_step(tmp_path: Path) -> None:
    s = fight_with(SPIDER, turn="Cave Spider")
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await select(pilot, "Ayla")
        await burst(pilot, "w")
        dlg = app.screen
        assert isinstance(dlg, D20AttackDialog) and dlg.value("label") == "Bite"
        dlg.query_one("#given").value = "19"
        await burst(pilot, "enter")
        rider = app.screen
        assert isinstance(rider, RiderDialog), dialog_error(pilot)
        assert "DC 11 Constitution save: 2d8 poison, half on a success" in str(rider.query_one("#heading").render())
        before = of(s, "Ayla").hp
        rider.query_one("#given").value = "2"  # the table's d20: a failed save
        await burst(pilot, "enter")
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        cmd = s.history.nodes[s.history.cursor].command
        assert isinstance(cmd, AreaEffect) and (cmd.dice, cmd.type, cmd.none_on_save) == ("2d8", "poison", False)
        assert 2 <= before - of(s, "Ayla").hp <= 16  # the whole 2d8, after the bite
        await burst(pilot, "ctrl+z")
        assert of(s, "Ayla").hp == before  # one undo takes the rider's damage back
