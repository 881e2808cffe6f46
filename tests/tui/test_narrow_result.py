"""At 80x24 an attack's result is told in the shown pane's title (issue 25 item 4): the dice's
workings are left to the log and the pane hint gives way, so the hit or miss is seen (the damage line
after it may still be cut at 80 columns)."""

from __future__ import annotations

import re
from pathlib import Path

from tests.tui.statblocks import BOSS, fight_with
from tests.tui.support import app_on, burst, dialog_error, select, sync
from tui.app import compact
from tui.main import MainScreen
from tui.rulesets.d20.dialogs import D20AttackDialog


def test_compact_keeps_totals_and_drops_the_workings() -> None:
    assert compact("Orc attacks Ayla with Axe: 1d20+5 = [16]+5 = 21 vs AC 15: hit") == (
        "Orc attacks Ayla with Axe: 21 vs AC 15: hit"
    )
    assert compact("Ayla takes 9 slashing damage [1d12+3 = [6]+3 = 9], 51 left") == (
        "Ayla takes 9 slashing damage, 51 left"
    )
    assert compact("Goblin 2 takes 7 damage, 0 left") == "Goblin 2 takes 7 damage, 0 left"


@sync
async def test_an_attacks_hit_and_damage_show_in_the_pane_title_at_80x24(tmp_path: Path) -> None:
    s = fight_with(BOSS, turn="Bandit Chief")
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await select(pilot, "Ayla")
        await burst(pilot, "w")
        dlg = app.screen
        assert isinstance(dlg, D20AttackDialog) and dlg.value("label") == "Sabre", dialog_error(pilot)
        dlg.query_one("#given").value = "19"
        await burst(pilot, "enter")
        screen = app.screen
        assert isinstance(screen, MainScreen), dialog_error(pilot)
        pane = screen.query_one(f"#{screen.detail}")
        # the title as Textual keeps it (markup around the message's reverse span): its words only
        plain = re.sub(r"\[/?[^\]]*\]", "", str(pane.border_title))
        assert "Ayla takes 8 slashing damage" in plain or "slashing damage" in plain, plain
        # what the top border shows (its corners and a space each side taken): the hit is not cut off
        shown = plain[: pane.size.width - 4]
        assert shown.startswith("Sheet") and ": hit" in shown and "1d20" not in shown, shown
