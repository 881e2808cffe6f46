"""Physical dice in the app (issue 7): every roll typed in from the table, the who-rolls setting, the
start-of-turn dice asked for before play moves on, and channels on the nine-phase board."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Input

from engine import commands as C
from engine import events as E
from engine.mechanics import EffectRolled
from engine.rules.ninephase.commands import Activity
from tests.tui.support import (
    app_on,
    demo_session,
    dialog_error,
    main_screen,
    of,
    pane_text,
    select,
    sync,
    type_text,
)
from tui.dialogs import DiceSettingDialog, HealthDialog, RollDialog, StartDialog, TableRollsDialog
from tui.rulesets.cosmere.round import RoundSpeedsDialog

# a start-of-turn effect that rolls, per ruleset (nine-phase and Warhammer have none)
TURN_EFFECT = {"d20": ("Bleeding", "1d4"), "cosmere": ("In dangerous terrain", "1d6")}
TARGET = {"d20": "Bandit 1", "cosmere": "Parshendi Warrior 1", "warhammer": "Goblin 1", "ninephase": "Orc Raider 1"}


def last_events(s) -> tuple[E.Event, ...]:  # type: ignore[no-untyped-def]
    return s.history.nodes[s.history.cursor].events


def focused_id(pilot) -> str:  # type: ignore[no-untyped-def]
    w = pilot.app.screen.focused
    return (w.id or "") if w is not None else ""


async def table_rolls_everything(pilot) -> None:  # type: ignore[no-untyped-def]
    """The who-rolls dialog from the palette: the table rolls for PCs and NPCs."""
    main_screen(pilot).action_dice_setting()
    await pilot.pause()
    assert isinstance(pilot.app.screen, DiceSettingDialog)
    await pilot.press("right", "tab", "right", "enter")
    await pilot.pause()


@pytest.mark.parametrize("rules", ["d20", "cosmere", "warhammer", "ninephase"])
@sync
async def test_a_round_of_typed_dice_undone_and_redone(rules: str, tmp_path: Path) -> None:
    s = demo_session(rules)
    effect = TURN_EFFECT.get(rules)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await table_rolls_everything(pilot)
        assert s.state.setting("roll_pc") == "table" and s.state.setting("roll_npc") == "table"
        # initiative for the whole party in one dialog, one die per line
        await pilot.press("s")
        await pilot.pause()
        assert isinstance(app.screen, StartDialog)
        inits = [w for w in app.screen.query(Input) if (w.id or "").startswith("init-")]
        if rules == "ninephase":
            assert not inits
        else:
            assert inits and focused_id(pilot) == inits[0].id  # the cursor waits on the first die
            await pilot.press("ctrl+s")  # blank: the app does not roll it
            assert "The table rolls for" in dialog_error(pilot)
            for i, w in enumerate(inits):
                w.value = str(5 + i)
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert s.state.started, dialog_error(pilot)
        if rules == "cosmere":
            # the round's prompt asks who goes fast: the GM leaves it for later (no step to undo)
            assert isinstance(app.screen, RoundSpeedsDialog)
            await pilot.press("escape")
        if rules != "ninephase":
            first = [e for e in last_events(s) if getattr(e, "roll", None) is not None]
            assert first and all(e.roll.entered for e in first)  # type: ignore[attr-defined]
        # damage: the dice expression alone is refused, the cursor goes to the dice field
        await select(pilot, TARGET[rules])
        await pilot.press("d")
        await type_text(pilot, "2d6")
        await pilot.press("enter")
        assert isinstance(app.screen, HealthDialog)
        assert "The table rolls for" in dialog_error(pilot) and focused_id(pilot) == "given"
        await type_text(pilot, "3 4")
        await pilot.press("enter")
        await pilot.pause()
        dmg = [e for e in last_events(s) if isinstance(e, E.Damaged)]
        assert dmg and dmg[0].roll is not None and dmg[0].roll.entered and dmg[0].rolled == 7
        # a roll: the cursor starts in the table's dice field
        await pilot.press("r")
        await pilot.pause()
        assert isinstance(app.screen, RollDialog) and focused_id(pilot) == "given"
        await type_text(pilot, "17")
        await pilot.press("enter")
        await pilot.pause()
        rolled = last_events(s)[0]
        assert isinstance(rolled, E.Rolled) and rolled.roll.entered and rolled.roll.total == 17
        steps = 2
        if effect is not None:
            # the next turn starts with a roll of its own: asked for before play moves on
            f = s.state
            nxt = f.order[(f.order.index(f.current) + 1) % len(f.order)] if rules == "d20" else None
            if rules == "cosmere":
                nxt = of(s, TARGET[rules]).id
            assert nxt is not None
            s.apply(C.AddCondition(nxt, effect[0], C.Duration(), dice=effect[1]))
            await pilot.pause()
            if rules == "cosmere":
                await select(pilot, TARGET[rules])
                await pilot.press("g")
            else:
                await pilot.press("n")
            await pilot.pause()
            assert isinstance(app.screen, TableRollsDialog)
            await type_text(pilot, "9")  # impossible on the die: the engine's message, in the dialog
            await pilot.press("enter")
            assert "9 is not a possible result" in dialog_error(pilot)
            await pilot.press("backspace")
            await type_text(pilot, "2")
            await pilot.press("enter")
            await pilot.pause()
            eff = [e for e in last_events(s) if isinstance(e, EffectRolled)]
            assert eff and eff[0].roll.entered and eff[0].roll.total == 2
            steps += 2
        log = " ".join((await pane_text(pilot, "log")).split())  # lines wrap at 80 columns
        assert "[3, 4] = 7 (entered)" in log and "= [17] = 17 (entered)" in log, log[-600:]
        before = s.state
        for _ in range(steps):
            await pilot.press("ctrl+z")
        await pilot.pause()
        for _ in range(steps):
            await pilot.press("ctrl+y")
        await pilot.pause()
        assert s.state == before  # redo replays the typed numbers, not new ones
        log = " ".join((await pane_text(pilot, "log")).split())  # lines wrap at 80 columns
        assert "[3, 4] = 7 (entered)" in log and "= [17] = 17 (entered)" in log
        if effect is not None:
            assert "[2] = 2 (entered)" in log


@sync
async def test_an_impossible_die_is_refused_in_the_dialog(tmp_path: Path) -> None:
    s = demo_session("d20")
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s")
        await pilot.pause()
        first = next(w for w in app.screen.query(Input) if (w.id or "").startswith("init-"))
        first.value = "23"
        await pilot.press("ctrl+s")
        assert "23 is not a possible result on a d20" in dialog_error(pilot)
        assert not s.state.started and isinstance(app.screen, StartDialog)
        await pilot.press("escape")
        s.apply(C.StartFight())
        await select(pilot, "Bandit 1")
        await pilot.press("r", "tab", "tab", "tab", "tab", "tab")  # to the table's dice
        await type_text(pilot, "23")
        await pilot.press("enter")
        assert "23 is not a possible result on a d20" in dialog_error(pilot)
        await pilot.press("escape", "d")
        await type_text(pilot, "2d6")
        await pilot.press("tab")
        await type_text(pilot, "3 7")
        await pilot.press("enter")
        assert "7 is not a possible result on a d6" in dialog_error(pilot)
        assert of(s, "Bandit 1").hp == of(s, "Bandit 1").pool("hp").max  # type: ignore[union-attr]


@sync
async def test_the_setting_per_side(tmp_path: Path) -> None:
    s = demo_session("d20", start=True)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        main_screen(pilot).action_dice_setting()
        await pilot.pause()
        await pilot.press("right", "enter")  # PCs: the table rolls; NPCs stay with the app
        await pilot.pause()
        assert s.state.setting("roll_pc") == "table" and s.state.setting("roll_npc", "app") == "app"
        # an NPC's roll: the app rolls it
        await select(pilot, "Bandit 1")
        await pilot.press("r", "enter")
        await pilot.pause()
        ev = last_events(s)[0]
        assert isinstance(ev, E.Rolled) and not ev.roll.entered
        # a PC's roll waits for the table's number and says so
        await select(pilot, "Brannoc")
        await pilot.press("r")
        await pilot.pause()
        assert "The table rolls for PCs" in str(app.screen.query_one("#heading").render())
        await pilot.press("tab", "tab", "tab", "tab", "tab", "enter")  # back to the table's dice, blank
        assert "The table rolls for PCs" in dialog_error(pilot) and focused_id(pilot) == "given"
        await pilot.press("escape")
        # a start-of-turn roll for an NPC is not asked for; for a PC it is
        f = s.state
        nxt = f.order[(f.order.index(f.current) + 1) % len(f.order)]
        s.apply(C.AddCondition(nxt, "Bleeding", C.Duration(), dice="1d4"))
        await pilot.pause()
        asks = s.state.get(nxt).kind == "pc"
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, TableRollsDialog) == asks
        # escape in the dice dialog: nothing moves on
        if asks:
            await pilot.press("escape")
            assert s.state.current == f.current
        # the undo takes the setting back too
        main_screen(pilot).action_dice_setting()
        await pilot.pause()
        await pilot.press("enter")
        assert "Nothing changed" in dialog_error(pilot)


@sync
async def test_the_board_shows_a_channel_and_where_it_resolves(tmp_path: Path) -> None:
    s = demo_session("ninephase", start=True)
    s.apply(C.NextTurn())
    s.apply(C.NextTurn())  # phase 3
    shaman = of(s, "Orc Shaman").id
    s.apply(Activity(shaman, "Hex", cost=3, earliest=3, lock=True, master=True, channel=True))
    assert of(s, "Orc Shaman").channels
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        tracker = main_screen(pilot).query_one("#tracker")
        rows = [r.text.plain for r in tracker._rows]
        header = rows[0]
        row = next(r.text.plain for r in tracker._rows if r.cid == shaman)
        for p, mark in ((3, "C"), (4, "~"), (5, "~"), (6, "»")):
            col = header.index(f" {p} ") + 1
            assert row[col] == mark, (p, row)
        assert any("Hex" in r and "resolves in phase 6" in r for r in rows)
        # damage in phase 4 interrupts it: the board marks where
        s.apply(C.NextTurn())
        s.apply(C.Damage(shaman, 1))
        await pilot.pause()
        main_screen(pilot).refresh_fight(force=True)
        await pilot.pause()
        row = next(r.text.plain for r in tracker._rows if r.cid == shaman)
        assert row[header.index(" 4 ") + 1] == "✗"
        assert any("Hex" in r.text.plain and "interrupted in phase 4" in r.text.plain for r in tracker._rows)
        # undone, the channel survives to phase 6 and resolves there: marked done
        s.undo()
        for _ in range(3):
            s.apply(C.NextTurn())
        main_screen(pilot).refresh_fight(force=True)
        await pilot.pause()
        assert s.state.phase == 7
        row = next(r.text.plain for r in tracker._rows if r.cid == shaman)
        assert row[header.index(" 6 ") + 1] == "✓"
        assert any("Hex" in r.text.plain and "resolved in phase 6" in r.text.plain for r in tracker._rows)


@sync
async def test_a_typed_roll_that_is_no_longer_due_is_left_out(tmp_path: Path) -> None:
    """What the table rolls can change what follows; a roll asked for that the command no longer
    reaches is left out rather than refused (the engine refuses rolls nothing asked for)."""
    from engine.core import RollDue

    s = demo_session("d20", start=True)
    f = s.state
    nxt = f.order[(f.order.index(f.current) + 1) % len(f.order)]
    s.apply(C.AddCondition(nxt, "Bleeding", C.Duration(), dice="1d4"))
    due = (RollDue(nxt, "Bleeding", "1d4"), RollDue(nxt, "Confused", "1d10"))  # not Confused: not due
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_screen(TableRollsDialog(C.NextTurn(), due))
        await pilot.pause()
        await type_text(pilot, "5")
        await pilot.press("tab")
        await type_text(pilot, "4")
        await pilot.press("enter")
        assert "5 is not a possible result" in dialog_error(pilot)  # a due roll's number is still checked
        await pilot.press("shift+tab", "backspace")
        await type_text(pilot, "3")
        await pilot.press("enter")
        await pilot.pause()
        assert not isinstance(app.screen, TableRollsDialog), dialog_error(pilot)
        eff = [e for e in last_events(s) if isinstance(e, EffectRolled)]
        assert [(e.what, e.roll.total, e.roll.entered) for e in eff] == [("Bleeding", 3, True)]
