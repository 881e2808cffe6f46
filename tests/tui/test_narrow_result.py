"""At 80x24 an attack's result is seen without switching panes (issue 25 item 4): the shown pane's
title tells what a command did, its dice's workings left to the log, and what the title has no room
for goes on the lines under it while the message shows. Each test reads the screen's text."""

from __future__ import annotations

from pathlib import Path

from engine import commands as C
from engine.events import ActionUsed, Damaged, ResourceChanged
from engine.rules.cosmere.commands import StartTurn
from tests.tui.statblocks import BOSS, fight_with
from tests.tui.support import app_on, burst, cid, demo_session, dialog_error, main_screen, screen_lines, select, sync
from tui.app import compact, summary
from tui.main import MainScreen, told_lines
from tui.rulesets.cosmere.dialogs import CosmereAttackDialog, CosmereOutcomeDialog
from tui.rulesets.d20.dialogs import D20AttackDialog
from tui.rulesets.warhammer.dialogs import WarhammerAttackDialog, WarhammerOutcomeDialog
from tui.text import wrap_message


def test_compact_keeps_totals_and_drops_the_workings() -> None:
    assert compact("Orc attacks Ayla with Axe: 1d20+5 = [16]+5 = 21 vs AC 15: hit") == (
        "Orc attacks Ayla with Axe: 21 vs AC 15: hit"
    )
    assert compact("Ayla takes 9 slashing damage [1d12+3 = [6]+3 = 9], 51 left") == (
        "Ayla takes 9 slashing damage, 51 left"
    )
    assert compact("Goblin 2 takes 7 damage, 0 left") == "Goblin 2 takes 7 damage, 0 left"
    assert compact("Troll takes 10 damage (Head) [1d10 = [7] = 7 (entered)], 20 left") == (
        "Troll takes 10 damage (Head), 20 left"
    )


def test_the_summary_tells_what_happened_before_what_it_cost() -> None:
    used = ActionUsed("c1", "Orc", "action", "Attack")
    spent = ResourceChanged("c1", "Orc", "focus", -1, 2)
    hit = Damaged("c2", "Ayla", 5, 5, "slashing", left=29)
    hurt = Damaged("c3", "Brannoc", 4, 4, "slashing", left=30)
    assert summary([used, spent, hit]) == "Ayla takes 5 slashing damage, 29 left; Orc uses Attack (action) (+1 more)"
    # up to three things that happened, and then no cost at all
    text = summary([used, hit, hurt, spent])
    assert text.startswith("Ayla takes 5") and "Brannoc takes 4" in text and "uses" not in text
    assert text.endswith("(+2 more)")


def test_a_long_message_goes_on_under_the_title_a_part_whole_where_it_fits() -> None:
    message = "Bandit Captain attacks Brannoc with Scimitar: 21 vs AC 17: hit; Brannoc takes 9 slashing damage, 25 left"
    first, second = told_lines(message, 80, len("Sheet  "))
    assert first == "Bandit Captain attacks Brannoc with Scimitar: 21 vs AC 17: hit;"
    assert second == "Brannoc takes 9 slashing damage, 25 left"
    # what the lines have no room for ends in an ellipsis, and no line is longer than its room
    lines = wrap_message("word " * 100, (20, 30, 30))
    assert [len(x) <= w for x, w in zip(lines, (20, 30, 30), strict=True)] == [True] * 3
    assert lines[-1].endswith("…") and len(lines) == 3
    assert wrap_message("short", (20, 30)) == ["short"]


def message_on_screen(app) -> str:  # type: ignore[no-untyped-def]
    """The pane title's line and the lines under it, as the screen shows them, joined."""
    lines = screen_lines(app)
    main = app.screen
    assert isinstance(main, MainScreen)
    top = main.query_one(f"#{main.detail}").region.y  # its border's line, the title on it
    assert lines[top].startswith("─" + main.detail.capitalize()), lines[top]
    return " ".join(line.strip(" ─") for line in lines[top : top + MainScreen.TOLD_LINES])


@sync
async def test_d20_a_monster_s_w_enter_shows_the_hit_and_the_damage_at_80x24(tmp_path: Path) -> None:
    s = fight_with(BOSS, turn="Bandit Chief")
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await select(pilot, "Ayla")
        await burst(pilot, "w")
        dlg = app.screen
        assert isinstance(dlg, D20AttackDialog) and dlg.value("label") == "Sabre", dialog_error(pilot)
        dlg.query_one("#given").value = "19"
        await burst(pilot, "enter")
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        shown = message_on_screen(app)
        assert "Bandit Chief attacks Ayla with Sabre: 24 (entered) vs AC 15: hit;" in shown, shown
        assert "Ayla takes 8 slashing damage" in shown and "1d20" not in shown, shown
        # the sheet is back once the message is gone
        main_screen(pilot)._untell()
        await pilot.pause()
        assert "takes 8" not in " ".join(screen_lines(app)[12:])


@sync
async def test_cosmere_an_attack_s_result_and_damage_come_before_its_test_at_80x24(tmp_path: Path) -> None:
    s = demo_session("cosmere", start=True)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        app.commit(StartTurn(cid(s, "Kaladin")))
        await pilot.pause()
        await burst(pilot, "w")
        dlg = app.screen
        assert isinstance(dlg, CosmereAttackDialog)
        dlg.query_one("#given").value = "18"  # 18 + 5 against Physical 14: a hit
        dlg.query_one("#damage_given").value = "6"
        await burst(pilot, "enter")
        assert isinstance(app.screen, CosmereOutcomeDialog), dialog_error(pilot)
        await burst(pilot, "enter")
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        shown = message_on_screen(app)
        assert "Parshendi Warrior 1: 23 vs 14: hit" in shown, shown
        assert "Parshendi Warrior 1 takes" in shown and "keen damage" in shown, shown


@sync
async def test_warhammer_the_attack_its_parry_and_the_hit_location_at_80x24(tmp_path: Path) -> None:
    s = demo_session("warhammer", start=True)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(len(s.state.combatants) + 1):
            if s.state.current == cid(s, "Ulfberth"):
                break
            app.commit(C.NextTurn())
        await pilot.pause()
        await burst(pilot, "w")
        dlg = app.screen
        assert isinstance(dlg, WarhammerAttackDialog)
        dlg.query_one("#target").value = cid(s, "Troll")  # type: ignore[attr-defined]
        dlg.query_one("#defence").value = "parry"  # type: ignore[attr-defined]
        await pilot.pause()
        dlg.query_one("#given_attack").value = "34"  # WS 48: a hit, SL +1 (reversed: 43, the head)
        dlg.query_one("#given_defence").value = "88"  # the Troll's WS 40: a failure, the hit stands
        dlg.query_one("#given_damage").value = "7"
        await burst(pilot, "enter")
        assert isinstance(app.screen, WarhammerOutcomeDialog), dialog_error(pilot)
        await burst(pilot, "enter")
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        shown = message_on_screen(app)
        assert "Ulfberth attacks Troll" in shown and ": hit, SL +1" in shown, shown
        assert "Troll parries" in shown and "the hit stands" in shown, shown
        assert "Troll takes 10 damage (Head (reversed 43)" in shown, shown  # the damage, and where it landed
        assert "20 left" in shown, shown


@sync
async def test_ninephase_damage_to_the_selected_foe_at_80x24(tmp_path: Path) -> None:
    s = demo_session("ninephase", start=True)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await select(pilot, "Orc Raider 1")
        await burst(pilot, "d", "7", "enter")
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        shown = message_on_screen(app)
        assert "Orc Raider 1 takes 7 damage (4 to grit, 3 to hp), 11 left" in shown, shown
