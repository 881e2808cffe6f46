"""Keys typed in one burst land in the fields they were typed for (play-test: "24", tab, tab, "fire"
typed fast into the damage dialog all went into the amount, "24fire"): in a dialog, tab moves the
focus before the next key is handed on."""

from __future__ import annotations

from pathlib import Path

from tests.tui.support import app_on, burst, demo_session, main_screen, of, select, sync, type_text


@sync
async def test_a_burst_with_tabs_fills_each_field(tmp_path: Path) -> None:
    s = demo_session("d20", start=True)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await select(pilot, "Bandit 1")
        before = of(s, "Bandit 1").health[0].current
        # d, amount 3, tab past the table dice, the type, enter: all queued at once
        await burst(pilot, "d", "3", "tab", "tab", "f", "i", "r", "e", "enter", settle=0.6)
        assert app.screen is main_screen(pilot)
        g = of(s, "Bandit 1")
        assert g.health[0].current == before - 3
        log = s.history.nodes[s.history.cursor].events
        assert any("fire" in str(getattr(e, "type", "")) for e in log), log


@sync
async def test_shift_tab_in_a_burst_goes_back_a_field(tmp_path: Path) -> None:
    s = demo_session("d20", start=True)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await select(pilot, "Bandit 1")
        before = of(s, "Bandit 1").health[0].current
        # into the type field, then back to the amount: the 2 is the amount, not part of the type
        await burst(pilot, "d", "tab", "tab", "shift+tab", "shift+tab", "2", "enter", settle=0.6)
        assert app.screen is main_screen(pilot)
        assert of(s, "Bandit 1").health[0].current == before - 2


@sync
async def test_the_table_s_initiative_dice_in_one_burst(tmp_path: Path) -> None:
    """The start dialog with the table rolling for the PCs: "15", tab, "12" gives the next PC its die
    (the surprised box between them took the 12 and lost it)."""
    from engine import commands as C

    s = demo_session("d20", then=(C.Setting("roll_pc", "table"),))
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await burst(pilot, "s", "1", "5", "tab", "1", "2", "enter", settle=0.8)
        assert app.screen is main_screen(pilot)
        assert s.state.started
        assert of(s, "Brannoc").initiative == 15 + 2  # Dex 14
        ysolde = of(s, "Ysolde")
        assert ysolde.initiative == 12 + (ysolde.stat("dex", 10) - 10) // 2


# --- backspace (and the other keys a field binds) in a burst: Textual runs a field's bindings only
# once the key has bubbled up to the app, and the keys typed after it were in the field by then
# ("12", backspace, "3" gave 12: the 3 was typed, then deleted)


def damage_done(s):  # type: ignore[no-untyped-def]
    from engine import commands as C

    cmd = s.history.nodes[s.history.cursor].command
    assert isinstance(cmd, C.Damage), cmd
    return cmd


@sync
async def test_backspace_then_a_digit_in_a_burst(tmp_path: Path) -> None:
    s = demo_session("d20", start=True)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await select(pilot, "Bandit Captain")
        await burst(pilot, "d", "1", "2", "backspace", "3", "enter", settle=0.6)
        assert app.screen is main_screen(pilot)
        assert damage_done(s).amount == 13


@sync
async def test_backspace_then_tab_then_letters_in_a_burst(tmp_path: Path) -> None:
    s = demo_session("d20", start=True)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await select(pilot, "Bandit Captain")
        keys = ("d", "2", "4", "backspace", "tab", "tab", "f", "i", "x", "backspace", "r", "e", "enter")
        await burst(pilot, *keys, settle=0.6)
        assert app.screen is main_screen(pilot)
        cmd = damage_done(s)
        assert (cmd.amount, cmd.type) == (2, "fire")


@sync
async def test_cursor_keys_in_a_burst_move_before_the_next_key(tmp_path: Path) -> None:
    s = demo_session("d20", start=True)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await select(pilot, "Bandit Captain")
        # "13", left, "2": 123; home, delete: 23
        await burst(pilot, "d", "1", "3", "left", "2", "home", "delete", "enter", settle=0.6)
        assert app.screen is main_screen(pilot)
        assert damage_done(s).amount == 23


@sync
async def test_backspace_in_a_burst_in_the_start_dialog(tmp_path: Path) -> None:
    from engine import commands as C

    s = demo_session("d20", then=(C.Setting("roll_pc", "table"),))
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await burst(pilot, "s", "1", "5", "backspace", "6", "tab", "1", "9", "backspace", "enter", settle=0.8)
        assert app.screen is main_screen(pilot)
        assert s.state.started
        assert of(s, "Brannoc").initiative == 16 + 2  # Dex 14
        ysolde = of(s, "Ysolde")
        assert ysolde.initiative == 1 + (ysolde.stat("dex", 10) - 10) // 2


@sync
async def test_backspace_in_a_burst_in_the_condition_dialog(tmp_path: Path) -> None:
    s = demo_session("d20", start=True)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await select(pilot, "Ysolde")
        # "prx", backspace, "o": Prone; past the duration to the level, its 1 deleted, 3
        keys = ("c", "p", "r", "x", "backspace", "o", "tab", "tab", "backspace", "3", "enter")
        await burst(pilot, *keys, settle=0.8)
        assert app.screen is main_screen(pilot)
        cond = of(s, "Ysolde").condition("Prone")
        assert cond is not None and cond.level == 3


@sync
async def test_a_choice_s_arrows_in_a_burst_change_it_not_the_next_field(tmp_path: Path) -> None:
    s = demo_session("d20", start=True)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await select(pilot, "Bandit 1")
        await pilot.press("c")
        await type_text(pilot, "pro")
        await pilot.press("tab")
        # the duration one step right: tab moves on at once, the right still goes to the duration
        await burst(pilot, "right", "tab", "left", settle=0.5)
        assert app.screen.choice("kind") == "turn_start"  # type: ignore[attr-defined]


@sync
async def test_a_tick_then_tab_in_a_burst(tmp_path: Path) -> None:
    """Space ticks the box it was typed on, not the one down (or tab) moved to: the surprised boxes
    are one list, one tab stop."""
    s = demo_session("d20")
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s")
        dialog = app.screen
        ticks = [w for w in dialog.focus_chain if (w.id or "").startswith("surprised-")]
        assert len(ticks) == 1  # the list's one stop
        ticks[0].focus()
        await pilot.pause()
        await burst(pilot, "space", "down", "space", "tab", "enter", settle=0.8)
        assert app.screen is main_screen(pilot)
        from engine import commands as C

        start = s.history.nodes[s.history.cursor].command
        assert isinstance(start, C.StartFight)
        assert start.surprised == (s.state.combatants[0].id, s.state.combatants[1].id)


@sync
async def test_tab_after_a_choice_waits_for_the_fields_it_shows(tmp_path: Path) -> None:
    """The duration's "end of a turn" shows "how many turns" and "whose turn": tab right after it in
    a burst reaches the count (it went to "Damage each turn", the rows not shown yet)."""
    s = demo_session("d20", start=True)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await select(pilot, "Ysolde")
        keys = ("c", "p", "r", "o", "tab", "right", "right", "tab", "backspace", "2", "enter")
        await burst(pilot, *keys, settle=0.8)
        assert app.screen is main_screen(pilot)
        cond = of(s, "Ysolde").condition("Prone")
        assert cond is not None
        assert (cond.duration.kind, cond.duration.count, cond.dice) == ("turn_end", 2, "")
        assert cond.duration.who == of(s, "Ysolde").id  # counted on the turns of the one getting it


@sync
async def test_down_in_a_burst_after_typing_moves_in_the_list_of_what_was_typed(tmp_path: Path) -> None:
    """The condition list filtered after the down had moved in it, and put the mark back on the first
    line: "conc", down, enter took Concentrating, not the line below it."""
    for keys, wanted in (
        (("c", "o", "n", "c", "down"), "Concealed"),
        (("p", "r", "o", "n", "backspace", "down"), "pro"),  # Prone, then "New condition: pro"
        (("c", "o", "n", "c", "down", "up", "down"), "Concealed"),
    ):
        s = demo_session("d20", start=True)
        app = app_on(s, tmp_path)
        async with app.run_test(size=(80, 24)) as pilot:
            await select(pilot, "Ysolde")
            await burst(pilot, "c", *keys, "enter", settle=0.8)
            assert app.screen is main_screen(pilot)
            assert [c.name for c in of(s, "Ysolde").conditions] == [wanted], keys


@sync
async def test_down_in_a_burst_in_the_add_dialog_s_library(tmp_path: Path) -> None:
    """The same keys one at a time and in one burst add the same statblock."""
    added = []
    for fast in (False, True):
        s = demo_session("d20")
        app = app_on(s, tmp_path)
        async with app.run_test(size=(80, 24)) as pilot:
            keys = ("a", "g", "o", "b", "down", "enter")
            if fast:
                await burst(pilot, *keys, settle=0.8)
            else:
                await pilot.press(*keys)
            assert app.screen is main_screen(pilot)
            added.append(s.state.combatants[-1].name)
    assert added[0] == added[1] and added[0] != "Goblin", added


@sync
async def test_a_field_s_own_keys_follow_the_settings(tmp_path: Path) -> None:
    """The keys a box or a choice runs itself are the GM's, as set in the settings file."""
    (tmp_path / "config.toml").write_text('[keys]\ntick = "ctrl+y"\nchoice_next = "ctrl+l"\n', encoding="utf-8")
    s = demo_session("d20")
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s")
        dialog = app.screen
        tick = next(w for w in dialog.focus_chain if (w.id or "").startswith("surprised-"))
        tick.focus()
        await pilot.pause()
        await burst(pilot, "space", settle=0.3)
        assert tick.value is False  # type: ignore[attr-defined]
        await burst(pilot, "ctrl+y", settle=0.3)
        assert tick.value is True  # type: ignore[attr-defined]
        await pilot.press("escape")
        await select(pilot, "Ysolde")
        await pilot.press("c", "tab")
        await burst(pilot, "right", settle=0.3)
        assert app.screen.choice("kind") == "manual"  # type: ignore[attr-defined]
        await burst(pilot, "ctrl+l", "tab", settle=0.5)
        assert app.screen.choice("kind") != "manual"  # type: ignore[attr-defined]
