"""Data the app did not make itself (a file's names and ids, two entries of one name) never stops the
app: widget ids are positions or counters, and a dialog that fails to build is a one-line notice."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest

import engine.library as L
from engine import commands as C
from engine.rules.ninephase import catalog as K
from engine.rules.ninephase.commands import Activity
from engine.state import ActivitySpec, Fight, state_hook
from saves.session import Session
from tests.tui.support import app_on, cid, demo_session, dialog_error, main_screen, notifications, of, select, sync
from tui.dialogs import NoteDialog, RemoveConditionDialog
from tui.main import MainScreen
from tui.rulesets.ninephase.dialogs import ActivityDialog


def twice_channeled() -> Session:
    """Nine-phase: Hex runs on into round 2, and is begun again there: two channels called Hex."""
    s = demo_session("ninephase", start=True)
    who = cid(s, "Orc Shaman")
    while s.state.phase < 8:
        s.apply(C.NextTurn())
    s.apply(Activity(who, "Hex", cost=3, earliest=8, channel=True, across_rounds=True))
    while s.state.phase != 1:
        s.apply(C.NextTurn())
    s.apply(Activity(who, "Hex", cost=2, earliest=1, channel=True))
    live = [ch.activity for ch in s.state.get(who).channels if ch.status == ""]
    assert live == ["Hex", "Hex"]
    return s


@sync
async def test_two_channels_of_one_name(tmp_path: Path) -> None:
    s = twice_channeled()
    app = app_on(s, tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await select(pilot, "Orc Shaman")
        for _ in range(2):  # it crashed on every opening
            await pilot.press("u")
            assert isinstance(app.screen, ActivityDialog)
            labels = [str(o.prompt) for o in app.screen.query_one("#activities")._options]  # type: ignore[attr-defined]
            # each says the phase it began in, so the GM can tell them apart
            assert labels.count("Stop the channel: Hex (begun in phase 8)") == 1
            assert labels.count("Stop the channel: Hex (begun in phase 1)") == 1
            await pilot.press("escape")
            assert isinstance(app.screen, MainScreen)
        # stopping the second (begun again this round) leaves the one run on from last round; the
        # shaman's own statblock activities are listed before the catalog
        sb = L.statblock_of(s.state.ruleset, of(s, "Orc Shaman"))
        mine = len(L.attacks(sb)) if sb is not None else 0
        assert mine == 2
        await pilot.press("u", *["down"] * (mine + len(K.catalog(s.state)) + 1), "enter")
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        live = [ch.start for ch in of(s, "Orc Shaman").channels if ch.status == ""]
        assert live == [-1]  # phase 8 of last round


def with_catalog(s: Session, *specs: ActivitySpec) -> Session:
    """The fight with these catalog entries, as a file could hold them (past the engine's checks)."""
    f = msgspec.structs.replace(s.state, activities=K.catalog(s.state) + specs)
    return Session.memory(f)


@sync
async def test_catalog_with_two_activities_of_one_name(tmp_path: Path) -> None:
    two = (ActivitySpec("Bless", cost=1), ActivitySpec("Bless", cost=2))
    s = with_catalog(demo_session("ninephase", start=True), *two)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await select(pilot, "Mirelle")
        await pilot.press("u")
        assert isinstance(app.screen, ActivityDialog)
        # the first Bless is taken by name, as the engine finds it
        await pilot.press(*["down"] * (len(K.catalog(s.state)) - 2), "enter")
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        assert [u.activity for u in of(s, "Mirelle").economy.phases] == ["Bless"]


@sync
async def test_two_conditions_of_one_name(tmp_path: Path) -> None:
    s = demo_session("d20", start=True)
    who = cid(s, "Brannoc")
    s.apply(C.AddCondition(who, "Marked"))
    c = s.state.get(who)
    twice = msgspec.structs.replace(c, conditions=c.conditions + c.conditions[-1:])
    s = Session.memory(msgspec.structs.replace(s.state, combatants=tuple(
        twice if x.id == who else x for x in s.state.combatants
    )))
    app = app_on(s, tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await select(pilot, "Brannoc")
        await pilot.press("x")
        assert isinstance(app.screen, RemoveConditionDialog)
        await pilot.press("escape")
        assert isinstance(app.screen, MainScreen)


def renamed(f: Fight, old: str, new: str) -> Fight:
    """The fight with combatant id `old` changed to `new` everywhere it is referred to, as a file
    written by something else could have it (bypassing the engine, which makes ids like c1)."""
    raw = msgspec.json.encode(f).replace(msgspec.json.encode(old), msgspec.json.encode(new))
    return msgspec.json.decode(raw, type=Fight, dec_hook=state_hook)


async def back_to_main(pilot) -> None:  # type: ignore[no-untyped-def]
    for _ in range(5):
        if isinstance(pilot.app.screen, MainScreen):
            return
        await pilot.press("escape")
    assert isinstance(pilot.app.screen, MainScreen)


# every key that opens a dialog or a pane, and the palette's ruleset dialogs
KEYS = ("s", "d", "h", "t", "c", "x", "u", "w", "f", "g", "o", "i", "a", "e", "r", "p", "m", "question_mark", "v")
KEYS += ("v", "v", "ctrl+p")  # below 120 columns v brings up each pane in turn
PALETTE = ("fall", "terrain", "grant", "ready", "release", "wh_critical", "willpower", "dice_setting", "owed")


@pytest.mark.parametrize("rules", ["d20", "cosmere", "ninephase", "warhammer"])
@pytest.mark.parametrize("started", [False, True])
@sync
async def test_a_combatant_id_that_is_no_widget_id(rules: str, started: bool, tmp_path: Path) -> None:
    base = demo_session(rules, start=started)
    first = base.state.combatants[0].id
    f = renamed(base.state, first, "bad id")
    # its other combatants too: markup, a dot, a hash, a leading digit
    for c, new in zip(base.state.combatants[1:4], ("[b]x[/b]", "a.b#c", "9 lives"), strict=False):
        f = renamed(f, c.id, new)
    s = Session.memory(f)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(100, 40)) as pilot:
        main = main_screen(pilot)
        main.select("bad id")
        await pilot.pause()
        assert main.selected == "bad id"
        for key in KEYS:
            await pilot.press(key)
            await pilot.pause()
            assert app.is_running and app._exception is None, key
            assert not [n for n in notifications(pilot) if "Internal error" in n], (key, notifications(pilot))
            await back_to_main(pilot)
        for action in PALETTE:
            await main.run_action(action)
            await pilot.pause()
            assert app.is_running and app._exception is None, action
            await back_to_main(pilot)
        if rules == "cosmere" and started:
            # the attack's target boxes are positions: tick the bad-id combatant and roll (on
            # someone's turn: with nobody acting there is no attack)
            from engine.rules.cosmere.commands import StartTurn

            app.commit(StartTurn(next(c.id for c in app.session.state.combatants if c.id.isalnum())))
            await pilot.pause()
            await pilot.press("w")
            screen = app.screen
            box = screen.box("t", "bad id")  # type: ignore[attr-defined]
            assert box is not None
        assert app.is_running


@sync
async def test_a_dialog_that_fails_to_build_is_a_notice(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(self: NoteDialog):  # type: ignore[no-untyped-def]
        yield from ()
        raise ValueError("a bad entry")

    monkeypatch.setattr(NoteDialog, "fields", broken)
    s = demo_session("d20", start=True)
    first = s.state.current
    app = app_on(s, tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("m")
        await pilot.pause()
        assert isinstance(app.screen, MainScreen)
        assert any("Could not open the dialog" in n and "a bad entry" in n for n in notifications(pilot))
        await pilot.press("n")  # the app carries on
        assert s.state.current != first


@sync
async def test_a_bug_in_apply_is_a_line_in_the_dialog(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(self: NoteDialog) -> C.Note:
        raise KeyError("oops")

    monkeypatch.setattr(NoteDialog, "build", broken)
    s = demo_session("d20", start=True)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("m", "a", "enter")
        assert isinstance(app.screen, NoteDialog)
        assert "Internal error (KeyError)" in dialog_error(pilot)
        await pilot.press("escape")
        assert isinstance(app.screen, MainScreen)


@sync
async def test_a_row_or_pane_that_cannot_be_built_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import tui.main
    import tui.views

    real_row = tui.views.combatant_row

    def row(f, c, *args):  # type: ignore[no-untyped-def]
        if c.name == "Brannoc":
            raise ValueError("a bad entry")
        return real_row(f, c, *args)

    def sheet(*_: object) -> object:
        raise KeyError("hp")

    monkeypatch.setattr(tui.views, "combatant_row", row)
    monkeypatch.setattr(tui.main, "sheet", sheet)
    tui.views._ROWS.clear()
    s = demo_session("d20", start=True)
    first = s.state.current
    app = app_on(s, tmp_path)
    try:
        async with app.run_test(size=(130, 40)) as pilot:
            tracker = main_screen(pilot).query_one("#tracker")
            lines = [r.text.plain for r in tracker._rows]  # type: ignore[attr-defined]
            assert "Brannoc: cannot be shown (ValueError: a bad entry)" in lines
            assert any("Bandit 1" in line for line in lines)
            assert "This cannot be shown: KeyError" in main_screen(pilot).query_one("#sheet").plain  # type: ignore[attr-defined]
            await pilot.press("n")
            assert s.state.current != first and app.is_running
    finally:
        tui.views._ROWS.clear()
