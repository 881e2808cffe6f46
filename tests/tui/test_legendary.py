"""Legendary actions (issue 24): at the end of another combatant's turn, next offers the legendary
creature's legendary abilities (a digit takes one, escape skips), once per turn's end and never when
its pool is empty; the area dialog offers Legendary Resistance per target that has it."""

from __future__ import annotations

from pathlib import Path

from engine import commands as C
from engine.area import AreaEffect
from tests.tui.statblocks import WYRM, fight_with
from tests.tui.support import app_on, burst, cid, dialog_error, of, sync
from tui.area import AreaDialog
from tui.legendary import LegendaryDialog
from tui.main import MainScreen


def last(s):  # type: ignore[no-untyped-def]
    return s.history.nodes[s.history.cursor].command


@sync
async def test_a_legendary_action_at_the_end_of_a_pcs_turn_then_the_turn_moves_on(tmp_path: Path) -> None:
    s = fight_with(WYRM, turn="Ayla")
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await burst(pilot, "n")
        dlg = app.screen
        assert isinstance(dlg, LegendaryDialog)
        text = " ".join(str(w.render()) for w in dlg.query(".wide-label"))
        assert "1  Ember Wyrm (3/3 left): Tail Sweep (legendary)" in text
        assert "2  Ember Wyrm (3/3 left): Wing Gust (legendary, costs 2)" in text
        await burst(pilot, "1")
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        use = next(n.command for n in s.history.nodes if isinstance(n.command, C.UseAbility))
        assert (use.name, use.act, use.spend) == ("Tail Sweep", "legendary", (("Legendary actions", 1),))
        assert of(s, "Ember Wyrm").pool("Legendary actions").current == 2
        assert s.state.current != cid(s, "Ayla")  # the turn moved on
        # the next turn's end: escape skips, and the turn moves on
        before = s.state.current
        await burst(pilot, "n")
        assert isinstance(app.screen, LegendaryDialog)
        await burst(pilot, "escape")
        assert isinstance(app.screen, MainScreen) and s.state.current != before


@sync
async def test_a_legendary_save_ability_opens_its_dialog_and_next_then_moves_on(tmp_path: Path) -> None:
    s = fight_with(WYRM, turn="Ayla")
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await burst(pilot, "n", "2")
        dlg = app.screen
        assert isinstance(dlg, AreaDialog), dialog_error(pilot)
        assert (dlg.value("label"), dlg.value("dc"), dlg.choice("none")) == ("Wing Gust", "22", True)
        await burst(pilot, "enter")
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        cmd = last(s)
        assert isinstance(cmd, AreaEffect) and cmd.ability == "Wing Gust" and cmd.spend == (("Legendary actions", 2),)
        assert cmd.act == "legendary" and cmd.cost == 2  # paid as a legendary action, off the wyrm's turn
        assert of(s, "Ember Wyrm").pool("Legendary actions").current == 1
        assert s.state.current == cid(s, "Ayla")
        await burst(pilot, "n")  # asked once at this turn's end: next now moves on
        assert isinstance(app.screen, MainScreen) and s.state.current != cid(s, "Ayla")


@sync
async def test_nothing_is_offered_when_the_pool_is_empty(tmp_path: Path) -> None:
    s = fight_with(WYRM, turn="Ayla")
    s.apply(C.UseAbility(cid(s, "Ember Wyrm"), "Wing Gust", spend=(("Legendary actions", 3),), act="legendary"))
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await burst(pilot, "n")
        assert isinstance(app.screen, MainScreen) and s.state.current != cid(s, "Ayla")


@sync
async def test_legendary_resistance_per_target_in_the_area_dialog(tmp_path: Path) -> None:
    s = fight_with(WYRM, pcs=("Ayla",), turn="Ayla")
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await burst(pilot, "D")
        dlg = app.screen
        assert isinstance(dlg, AreaDialog)
        n = next(i for i, c in enumerate(dlg.targets) if c.name == "Ember Wyrm")
        assert not dlg.query(f"#lr-{1 - n}")  # only the one that has it
        dlg.query_one(f"#hit-{n}").value = True
        dlg.query_one(f"#lr-{n}").value = True
        dlg.query_one("#amount").value = "10"
        dlg.query_one("#dc").value = "30"
        await burst(pilot, "enter")
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        cmd = last(s)
        assert isinstance(cmd, AreaEffect)
        assert [t.legendary for t in cmd.targets] == [True]
        assert of(s, "Ember Wyrm").pool("Legendary Resistance").current == 2
