"""The dialog that damages or heals several with one roll (issue 14, item 7), at 80x24."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Input

from engine import commands as C
from engine import events as E
from engine import new_fight
from saves.session import Session
from tests.tui.support import (
    app_on,
    demo_session,
    dialog_error,
    main_screen,
    of,
    select,
    sync,
    type_text,
)
from tui.area import AreaDialog
from tui.dialogs import Tick
from tui.main import MainScreen


def tick_index(dialog: AreaDialog, name: str) -> int:
    return next(i for i, c in enumerate(dialog.targets) if c.name == name)


async def tick(pilot, dialog: AreaDialog, name: str) -> None:  # type: ignore[no-untyped-def]
    box = dialog.query_one(f"#hit-{tick_index(dialog, name)}", Tick)
    box.focus()
    await pilot.pause()
    if not box.value:
        await pilot.press("space")


async def fill(pilot, dialog: AreaDialog, wid: str, text: str) -> None:  # type: ignore[no-untyped-def]
    dialog.query_one(f"#{wid}", Input).focus()
    await pilot.pause()
    await type_text(pilot, text)


@sync
async def test_an_area_on_three_targets_with_saves_and_one_undo(tmp_path: Path) -> None:
    # the table rolls for the PCs: Ysolde's save is typed in, the bandits' are rolled by the app
    s = demo_session("d20", start=True, then=(C.Setting("roll_pc", "table"),))
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        before, nodes = s.state, len(s.history.nodes)
        await pilot.press("D")
        dialog = app.screen
        assert isinstance(dialog, AreaDialog)
        assert dialog.focused is dialog.query_one("#amount")  # the amount first
        await type_text(pilot, "24")
        await fill(pilot, dialog, "type", "fire")
        await fill(pilot, dialog, "label", "Fireball")
        await fill(pilot, dialog, "dc", "13")
        assert dialog.choice("save") == "dex"  # Dexterity, the save most areas call for
        assert dialog.choice("by") == s.state.current  # the one whose turn it is makes it
        for name in ("Ysolde", "Bandit 1", "Bandit 2"):
            await tick(pilot, dialog, name)
        # the table rolls for Ysolde: her save total is asked for, and refused while missing
        await pilot.press("enter")
        assert "type Ysolde's save total" in dialog_error(pilot)
        assert dialog.focused is dialog.query_one(f"#roll-{tick_index(dialog, 'Ysolde')}")
        assert s.state is before
        await type_text(pilot, "17")
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, MainScreen)
        node = s.history.nodes[-1]
        assert len(s.history.nodes) == nodes + 1  # one command
        hits = [e for e in node.events if isinstance(e, E.Damaged)]
        assert [h.name for h in hits] == ["Ysolde", "Bandit 1", "Bandit 2"]
        assert "17 (entered total) vs DC 13: saved, half of 24" in hits[0].detail
        assert of(s, "Ysolde").hp == 22 - 12
        for h in hits[1:]:
            assert h.detail.startswith("Dexterity save 1d20+1 = [")  # rolled by the app from Dex 12
            assert h.amount in (12, 24)
        # ctrl+z takes all of it back
        await pilot.press("ctrl+z")
        await pilot.pause()
        assert s.state == before


@sync
async def test_the_dialog_scrolls_at_80x24_and_marks_the_focused_target(tmp_path: Path) -> None:
    s = demo_session("d20", start=True)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await select(pilot, "Bandit 3")
        await pilot.press("D")
        dialog = app.screen
        assert isinstance(dialog, AreaDialog)
        # standing first, the selected one ticked (it is not the one making the effect)
        n = tick_index(dialog, "Bandit 3")
        assert dialog.query_one(f"#hit-{n}", Tick).value
        assert sum(dialog.query_one(f"#hit-{i}", Tick).value for i in range(len(dialog.targets))) == 1
        last = dialog.query_one(f"#hit-{len(dialog.targets) - 1}", Tick)
        # the list is one tab stop (the ticked one's box), and down walks it to the last target
        for _ in range(30):
            if (dialog.focused.id or "").startswith("hit-"):  # type: ignore[union-attr]
                break
            await pilot.press("tab")
        assert dialog.focused is dialog.query_one("#hit-0")  # the list's top
        for _ in dialog.targets:
            await pilot.press("down")
        assert dialog.focused is last
        await pilot.pause()
        assert 0 <= last.region.y < 24 and last.region.height == 1  # scrolled into view, one line
        mark = last.parent.query_one(".mark")  # type: ignore[union-attr]
        assert "▸" in str(mark.render())


@sync
async def test_heal_several_and_the_gms_half_in_cosmere(tmp_path: Path) -> None:
    s = demo_session("cosmere", start=True)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        names = [c.name for c in s.state.combatants[:2]]
        hp = [of(s, n).hp for n in names]
        await pilot.press("D")
        dialog = app.screen
        assert isinstance(dialog, AreaDialog)
        assert not dialog.query("#save")  # Cosmere rolls no save here: the GM ticks who takes half
        await type_text(pilot, "6")
        for name in names:
            await tick(pilot, dialog, name)
        half = dialog.query_one(f"#saved-{tick_index(dialog, names[0])}", Tick)
        half.focus()
        await pilot.press("space")
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, MainScreen)
        assert [of(s, n).hp for n in names] == [max(0, hp[0] - 3), max(0, hp[1] - 6)]
        # and a heal for both, in one command
        await pilot.press("D")
        dialog = app.screen
        assert isinstance(dialog, AreaDialog)
        dialog.query_one("#mode").focus()
        await pilot.press("right")  # heal
        assert dialog.query_one(f"#saved-{tick_index(dialog, names[0])}").has_class("hidden")
        await fill(pilot, dialog, "amount", "2")
        for name in names:
            await tick(pilot, dialog, name)
        await pilot.press("enter")
        await pilot.pause()
        assert [of(s, n).hp for n in names] == [min(of(s, n).health[0].max, max(0, h - d) + 2)
                                                for n, h, d in zip(names, hp, (3, 6), strict=True)]


@sync
async def test_refused_in_the_dialog_with_one_line(tmp_path: Path) -> None:
    s = demo_session("d20", start=True)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        before = s.state
        await pilot.press("D")
        dialog = app.screen
        assert isinstance(dialog, AreaDialog)
        await type_text(pilot, "3d")
        await pilot.press("enter")
        assert "Tick at least one target" in dialog_error(pilot)
        await tick(pilot, dialog, "Bandit 1")
        await pilot.press("enter")
        assert "Give the DC of the Dexterity save" in dialog_error(pilot)
        await fill(pilot, dialog, "dc", "12")
        await pilot.press("enter")
        assert "Cannot read the dice expression '3d'" in dialog_error(pilot)
        assert s.state is before
        await pilot.press("escape")
        assert isinstance(app.screen, MainScreen) and main_screen(pilot).fight is before


@sync
async def test_the_key_says_why_when_nobody_can_be_hit(tmp_path: Path) -> None:
    s = Session.memory(new_fight("d20", "Empty"))
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("D")
        await pilot.pause()
        assert isinstance(app.screen, MainScreen)
        # at 80x24 said in the shown pane's title, not in a toast over the sheet
        assert "Nobody in the fight has a health track" in main_screen(pilot)._told
