"""A spent breath owes its recharge d6 at the start of its owner's turn: the app asks "Fire Breath
recharges on 5-6: enter rolls, or type the table's d6" (in every ruleset), and the roll settles it."""

from __future__ import annotations

from pathlib import Path

from engine import commands as C
from tests.tui.statblocks import WYRM, fight_with
from tests.tui.support import app_on, burst, cid, dialog_error, of, sync
from tui.main import MainScreen
from tui.recharge import RechargeDialog


def breathed(table: bool = False):  # type: ignore[no-untyped-def]
    """The wyrm's turn, its breath spent; the turn before its next."""
    s = fight_with(WYRM, turn="Ember Wyrm")
    wyrm = cid(s, "Ember Wyrm")
    s.apply(C.UseAbility(wyrm, "Fire Breath", spend=(("Fire Breath", 1),)))
    if table:
        s.apply(C.Setting("roll_npc", "table"))
    while True:
        s.apply(C.NextTurn())
        order = s.state.order
        if order[(order.index(s.state.current) + 1) % len(order)] == wyrm:
            return s


@sync
async def test_the_recharge_is_asked_at_its_turn_and_the_typed_d6_brings_it_back(tmp_path: Path) -> None:
    s = breathed()
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await burst(pilot, "n", "escape")  # the wyrm's legendary action at the turn's end: skipped
        dlg = app.screen
        assert isinstance(dlg, RechargeDialog), dialog_error(pilot)
        heading = str(dlg.query_one("#heading").render())
        assert "Fire Breath recharges on 5-6: enter rolls, or type the table's d6" in heading
        await burst(pilot, "5", "enter")
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        wyrm = of(s, "Ember Wyrm")
        assert wyrm.pool("Fire Breath").current == 1 and not wyrm.due
        cmd = s.history.nodes[s.history.cursor].command
        assert isinstance(cmd, C.Recharge) and cmd.given == 5


@sync
async def test_enter_rolls_it_and_the_table_must_type_it_when_it_rolls_for_npcs(tmp_path: Path) -> None:
    s = breathed(table=True)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await burst(pilot, "n", "escape")
        assert isinstance(app.screen, RechargeDialog)
        await burst(pilot, "enter")
        assert "The table rolls for NPCs" in dialog_error(pilot)
        await burst(pilot, "7", "enter")
        assert "The d6" in dialog_error(pilot)
        await burst(pilot, "backspace", "2", "enter")
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        wyrm = of(s, "Ember Wyrm")
        assert wyrm.pool("Fire Breath").current == 0 and not wyrm.due
    s = breathed()
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await burst(pilot, "n", "escape")
        assert isinstance(app.screen, RechargeDialog)
        await burst(pilot, "enter")
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        cmd = s.history.nodes[s.history.cursor].command
        assert isinstance(cmd, C.Recharge) and cmd.given is None and not of(s, "Ember Wyrm").due
