"""Acting on the right combatant with `u` (issue 14, item 2): the use dialog starts with whose turn
it is (Cosmere: the one acting), has a user picker, offers the selected row as the target where the
ruleset's use has one, and never opens for a combatant that is down (one line says why)."""

from __future__ import annotations

from pathlib import Path

from engine import commands as C
from engine.rules.cosmere.commands import StartTurn
from engine.rules.ninephase.catalog import ActivitySpec, DefineActivity
from tests.tui.support import app_on, cid, demo_session, dialog_error, notifications, of, select, sync
from tui.dialogs import Choice, UseDialog
from tui.main import MainScreen
from tui.rulesets.d20.dialogs import D20UseDialog
from tui.rulesets.ninephase.dialogs import ActivityDialog


def last_command(s):  # type: ignore[no-untyped-def]
    return s.history.nodes[s.history.cursor].command


@sync
async def test_d20_u_opens_on_whose_turn_it_is_and_helps_the_ally_selected(tmp_path: Path) -> None:
    s = demo_session("d20", start=True)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        me = s.state.get(s.state.current)
        ally = next(c for c in s.state.combatants if c.side == me.side and c.id != me.id)
        await select(pilot, ally.name)
        await pilot.press("u")
        dlg = app.screen
        assert isinstance(dlg, D20UseDialog)
        assert dlg.query_one("#user", Choice).value == me.id and me.name in str(dlg.query_one("#heading").render())
        assert app.focused is dlg.query_one("#what")
        dlg.query_one("#what", Choice).value = "action:Help"
        await pilot.pause()
        assert dlg.query_one("#target", Choice).value == ally.id  # the selected row is the one helped
        await pilot.press("enter")
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        cmd = last_command(s)
        assert isinstance(cmd, C.UseAction) and cmd.who == me.id and cmd.target == ally.id


@sync
async def test_d20_another_user_has_its_own_uses_and_is_not_its_own_ally(tmp_path: Path) -> None:
    s = demo_session("d20", start=True)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        me = s.state.current
        other = next(c.id for c in s.state.combatants if c.id != me and not c.owner)
        await pilot.press("u")
        dlg = app.screen
        assert isinstance(dlg, D20UseDialog)
        dlg.query_one("#user", Choice).value = other
        await pilot.pause()
        assert other not in [v for _, v in dlg.query_one("#target", Choice).options]
        assert me in [v for _, v in dlg.query_one("#target", Choice).options]
        assert s.state.get(other).name in str(dlg.query_one("#heading").render())
        dlg.query_one("#what", Choice).value = "reaction"
        await pilot.pause()
        await pilot.press("enter")
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        assert of(s, s.state.get(other).name).economy.reactions == 0


@sync
async def test_u_does_not_open_for_a_combatant_that_is_down(tmp_path: Path) -> None:
    s = demo_session("d20", start=True)
    me = s.state.get(s.state.current)
    s.apply(C.Damage(me.id, me.hp + 100))  # down on its own turn
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        before = len(s.history.nodes)
        await pilot.press("u")
        await pilot.pause()
        assert isinstance(app.screen, MainScreen)
        said = [n for n in notifications(pilot) if "is down and cannot act" in n]
        assert said and me.name in said[0] and "\n" not in said[0]
        assert len(s.history.nodes) == before
        # the next key still works: nothing is held by the dialog that never opened
        await pilot.press("n")
        await pilot.pause()
        assert s.state.current != me.id


@sync
async def test_warhammer_the_selected_row_is_the_target_and_the_picker_gives_a_reaction(tmp_path: Path) -> None:
    s = demo_session("warhammer", start=True)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        while not s.state.current:
            app.commit(C.NextTurn())
        me = s.state.current
        other = next(c for c in s.state.combatants if c.id != me)
        await select(pilot, other.name)
        await pilot.press("u")
        dlg = app.screen
        assert isinstance(dlg, UseDialog)
        assert dlg.query_one("#user", Choice).value == me
        assert dlg.query_one("#target", Choice).value == other.id
        await pilot.press("enter")
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        cmd = last_command(s)
        assert isinstance(cmd, C.UseAction) and cmd.who == me and cmd.target == other.id
    # no current turn before the round's first one: the selected combatant is the user; a downed
    # one is refused
    s = demo_session("warhammer", start=True)
    s.apply(C.Damage(cid(s, "Goblin 1"), 500))
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        assert not s.state.current
        await select(pilot, "Goblin 1")
        await pilot.press("u")
        await pilot.pause()
        assert isinstance(app.screen, MainScreen)
        assert any("Goblin 1 is down and cannot act" in n for n in notifications(pilot))
        await select(pilot, "Ulfberth")
        await pilot.press("u")
        dlg = app.screen
        assert isinstance(dlg, UseDialog) and dlg.query_one("#user", Choice).value == cid(s, "Ulfberth")


@sync
async def test_cosmere_starts_with_the_one_acting(tmp_path: Path) -> None:
    s = demo_session("cosmere", start=True)
    kaladin = cid(s, "Kaladin")
    s.apply(StartTurn(kaladin))
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await select(pilot, "Parshendi Warrior 1")
        await pilot.press("u")
        dlg = app.screen
        assert isinstance(dlg, UseDialog)
        assert dlg.query_one("#user", Choice).value == kaladin
        await pilot.press("enter")
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        assert last_command(s).who == kaladin  # type: ignore[union-attr]
    # between turns (nobody acting) the selected one is the user, and a downed one is refused
    s.apply(C.NextTurn())
    warrior = cid(s, "Parshendi Warrior 1")
    s.apply(C.Damage(warrior, 500))
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        assert not s.state.current
        await select(pilot, "Parshendi Warrior 1")
        await pilot.press("u")
        await pilot.pause()
        assert isinstance(app.screen, MainScreen)
        assert any("Parshendi Warrior 1 is down and cannot act" in n for n in notifications(pilot))


@sync
async def test_ninephase_the_activity_user_picker_rebuilds_the_choices(tmp_path: Path) -> None:
    s = demo_session("ninephase", start=True)
    s.apply(C.EditCombatant(cid(s, "Mirelle"), stats=(("slot3", 2), ("ki", 4))))
    s.apply(DefineActivity(ActivitySpec("Bless", cost=1)))
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await select(pilot, "Mirelle")
        await pilot.press("u")
        dlg = app.screen
        assert isinstance(dlg, ActivityDialog)
        assert dlg.query_one("#user", Choice).value == cid(s, "Mirelle")
        assert dlg.query("#resource")  # Mirelle has a spell slot to spend
        dlg.query_one("#user", Choice).value = cid(s, "Aldric")
        await pilot.pause()
        await pilot.pause()
        assert not dlg.query("#resource")  # Aldric has none: asked for none
        assert "Aldric" in str(dlg.query_one("#heading").render())
        ol = dlg.query_one("#activities")
        bless = next(i for i, o in enumerate(ol._options) if "Bless" in str(o.prompt))  # type: ignore[attr-defined]
        ol.highlighted = bless  # type: ignore[attr-defined]
        await pilot.pause()
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        assert [u.activity for u in of(s, "Aldric").economy.phases] == ["Bless"]
        assert not of(s, "Mirelle").economy.phases
