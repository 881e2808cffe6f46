"""Nothing cut off at 80x24 (issue 25 item 11), read off the screen: a chooser's long option is cut
with an ellipsis between both its arrows; a dialog taller than the screen says what is out of sight
and tab scrolls to each field; the Warhammer critical's words are whole; the header keeps the round
and whose turn it is, the fight's name cut after a word."""

from __future__ import annotations

from pathlib import Path

import engine.library as L
from engine import commands as C
from engine import new_fight
from engine.rules.cosmere.commands import StartTurn
from saves.session import Session
from tests.tui.statblocks import fight_with
from tests.tui.support import app_on, burst, cid, demo_session, dialog_error, screen_lines, select, sync
from tui.dialogs.base import Dialog
from tui.dialogs.fields import Choice
from tui.main import MainScreen
from tui.rulesets.cosmere.dialogs import CosmereAttackDialog
from tui.rulesets.d20.dialogs import D20AttackDialog
from tui.rulesets.ninephase.dialogs import ActivityDialog
from tui.rulesets.warhammer.dialogs import WarhammerAttackDialog, WarhammerCriticalDialog, WarhammerOutcomeDialog

BUGBEAR = next(sb for sb in L.starter("d20") if sb.name == "Bugbear")


def in_sight(dlg: Dialog, widget) -> bool:  # type: ignore[no-untyped-def]
    """Whether `widget` is drawn inside the dialog's fields as they are scrolled now."""
    box = dlg.query_one("#fields").region
    r = widget.region
    return r.height > 0 and box.y <= r.y and r.y + r.height <= box.y + box.height


def choice_rows(app) -> list[str]:  # type: ignore[no-untyped-def]
    """What each chooser in sight shows, as the screen has it."""
    dlg = app.screen
    lines = screen_lines(app)
    out = []
    for w in dlg.query(Choice):
        if w.display and in_sight(dlg, w):
            r = w.region
            out.append(lines[r.y][r.x : r.x + r.width])
    assert out, "no chooser in sight"
    return out


def assert_whole(rows: list[str]) -> None:
    for shown in rows:
        assert "◀ " in shown and " ▶" in shown, shown  # both arrows: there are other options either way


@sync
async def test_d20_a_long_weapon_is_cut_with_an_ellipsis_between_both_arrows(tmp_path: Path) -> None:
    s = fight_with(BUGBEAR, turn="Bugbear")
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await burst(pilot, "w")
        assert isinstance(app.screen, D20AttackDialog), dialog_error(pilot)
        rows = choice_rows(app)
        assert_whole(rows)
        club = next(r for r in rows if "◀ Spiked Club +5, 2d6+3 bludgeoning" in r)
        assert "(rea… ▶  1/3" in club, club  # its words cut, then the arrow and the count
        # typing to search the options keeps both arrows too
        app.screen.query_one("#weapon_pick").focus()
        await burst(pilot, "S", "p")
        assert "typed: Sp" in " ".join(choice_rows(app))
        assert_whole(choice_rows(app))


@sync
async def test_cosmere_warhammer_and_ninephase_choosers_show_both_arrows(tmp_path: Path) -> None:
    s = demo_session("cosmere", start=True)
    async with app_on(s, tmp_path).run_test(size=(80, 24)) as pilot:
        pilot.app.commit(StartTurn(cid(s, "Kaladin")))
        await pilot.pause()
        await burst(pilot, "w")
        assert isinstance(pilot.app.screen, CosmereAttackDialog)
        rows = choice_rows(pilot.app)
        assert_whole(rows)
        assert any("…" in r and "Spear +5 (Heavy Weapons)" in r for r in rows), rows
    s = demo_session("warhammer", start=True)
    async with app_on(s, tmp_path).run_test(size=(80, 24)) as pilot:
        while s.state.current != cid(s, "Ulfberth"):
            pilot.app.commit(C.NextTurn())
        await pilot.pause()
        await burst(pilot, "w")
        assert isinstance(pilot.app.screen, WarhammerAttackDialog)
        assert_whole(choice_rows(pilot.app))
    s = demo_session("ninephase", start=True)
    async with app_on(s, tmp_path).run_test(size=(80, 24)) as pilot:
        await burst(pilot, "u")
        assert isinstance(pilot.app.screen, ActivityDialog)
        assert_whole(choice_rows(pilot.app))


def chooser(width: int, options: list[tuple[str, str]]) -> str:
    """A chooser's text when it has `width` cells for it (its padding taken)."""
    from textual.app import App

    class One(App[None]):
        CSS = f"Choice {{ width: {width + 2}; }}"

        def compose(self):  # type: ignore[no-untyped-def]
            yield Choice(options, id="c")

    import asyncio

    async def run() -> str:
        app = One()
        async with app.run_test(size=(80, 5)) as pilot:
            await pilot.pause()
            return app.query_one(Choice).render().plain

    return asyncio.run(run())


def test_the_count_gives_way_before_the_option_is_cut_short() -> None:
    many = [(f"option {i} with a long description", str(i)) for i in range(5)]
    assert chooser(60, many) == "◀ option 0 with a long description ▶  1/5"
    cut = chooser(30, many)
    assert cut.startswith("◀ option 0 with") and cut.endswith("… ▶  1/5") and len(cut) <= 30
    tiny = chooser(18, many)
    assert tiny.startswith("◀ option") and tiny.endswith("… ▶") and "1/5" not in tiny and len(tiny) <= 18


@sync
async def test_a_dialog_taller_than_the_screen_says_so_and_tab_scrolls_to_each_field(tmp_path: Path) -> None:
    s = fight_with(BUGBEAR, turn="Bugbear")
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await burst(pilot, "w")
        dlg = app.screen
        assert isinstance(dlg, D20AttackDialog)
        lines = screen_lines(app)
        # the dialog fills the screen with no blank rows under its hint, and says there is more
        assert lines[-2].startswith("│ enter or ctrl+s: roll"), lines[-2]
        more = [ln for ln in lines if "more lines below (tab goes down to them)" in ln]
        assert more and more[0].startswith("│ ▼ "), lines
        fields = [w for w in dlg.focus_chain if dlg.query_one("#fields") in w.ancestors]
        assert len(fields) > 10
        seen = {id(app.focused)}
        for _ in range(len(fields) + 2):
            await burst(pilot, "tab")
            w = app.focused
            assert w is not None
            if w in fields:
                assert in_sight(dlg, w), (w, w.region, dlg.query_one("#fields").region)
                seen.add(id(w))
            if w is fields[-1]:  # at the bottom: what is above is said
                assert any("lines above (shift+tab goes back up)" in ln for ln in screen_lines(app))
        assert {id(w) for w in fields} <= seen  # every field came into sight in turn
        # shift+tab in a burst brings the fields back
        while app.focused is not fields[-1]:
            await burst(pilot, "tab")
        await burst(pilot, *["shift+tab"] * 6)
        assert app.focused in fields and in_sight(dlg, app.focused)


@sync
async def test_warhammer_critical_dialogs_words_are_whole_at_80x24(tmp_path: Path) -> None:
    s = demo_session("warhammer", start=True)
    app = app_on(s, tmp_path)
    ulf = cid(s, "Ulfberth")
    s.apply(C.EditCombatant(ulf, stats=(("ap_body", 3),)))  # armour to deflect with
    s.apply(C.Damage(ulf, 13))
    async with app.run_test(size=(80, 24)) as pilot:
        while s.state.current != cid(s, "Troll"):
            app.commit(C.NextTurn())
        await pilot.pause()
        await burst(pilot, "w")
        dlg = app.screen
        assert isinstance(dlg, WarhammerAttackDialog)
        dlg.query_one("#target").value = ulf  # type: ignore[attr-defined]
        await pilot.pause()
        for wid, value in (("given_attack", "13"), ("given_damage", "9"), ("given_critical", "50")):
            dlg.query_one(f"#{wid}").value = value  # type: ignore[attr-defined]
        await burst(pilot, "enter")
        assert isinstance(app.screen, WarhammerOutcomeDialog), dialog_error(pilot)
        shown = "\n".join(screen_lines(app))
        assert "Armour" in shown and "deflects it (-20 severity, the armour damaged)" in shown, shown
        assert "critical roll for a critical injury" in shown
        await burst(pilot, "escape")
        # the critical outside an attack (the palette's), every line of it whole
        await select(pilot, "Ulfberth")
        app.push_screen(WarhammerCriticalDialog(ulf))
        await pilot.pause()
        shown = "\n".join(screen_lines(app))
        assert "A critical injury outside an attack (damage past 0 Wounds, a fall, a trap)" in shown
        assert "deflects it (-20 severity, the armour damaged)" in shown
        assert "◀ sudden death for minions, else injury ▶" in shown


@sync
async def test_the_header_keeps_the_turn_and_cuts_a_long_name_after_a_word(tmp_path: Path) -> None:
    s = demo_session("cosmere", start=True)
    async with app_on(s, tmp_path).run_test(size=(80, 24)) as pilot:
        pilot.app.commit(StartTurn(cid(s, "Kaladin")))
        await pilot.pause()
        header = screen_lines(pilot.app)[0]
        assert "Round 1 · Fast PC turns · Kaladin's turn  Skirmish on the…" in header, header
        assert header.rstrip().endswith("memory only"), header  # a test's fight is in memory
    s = Session.memory(new_fight("d20", "The Long Ambush at the Broken Bridge over the Greywater", 3))
    s.apply(C.AddCombatant("Ayla", kind="pc", side="party"))
    s.apply(C.AddCombatant("Orc"))
    s.apply(C.StartFight())
    async with app_on(s, tmp_path).run_test(size=(80, 24)) as pilot:
        assert isinstance(pilot.app.screen, MainScreen)
        header = screen_lines(pilot.app)[0]
        who = s.state.get(s.state.current).name
        assert f"Round 1 · {who}'s turn  The Long Ambush at the Broken Bridge…" in header, header
