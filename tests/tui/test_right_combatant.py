"""Acting on the right combatant (issue 14, item 2): the attack dialog never offers the attacker as
its own target, lists the standing before the downed, follows a change of attacker, and opens on the
target even when one was picked in the tracker."""

from __future__ import annotations

from pathlib import Path

from engine import commands as C
from tests.tui.support import app_on, demo_session, of, select, sync
from tui.attack import AttackBase
from tui.dialogs import Choice


def target_ids(dialog: AttackBase) -> list[str]:
    return [v for _, v in dialog.query_one("#target", Choice).options]


@sync
async def test_d20_targets_leave_out_the_attacker_and_list_the_downed_last(tmp_path: Path) -> None:
    s = demo_session("d20", start=True)
    f = s.state
    me = f.get(f.current)
    downed = next(c for c in f.combatants if c.id != me.id and c.side != me.side)
    s.apply(C.Damage(downed.id, downed.hp + 50))
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("w")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, AttackBase)
        ids = target_ids(dialog)
        assert me.id not in ids and sorted(ids) == sorted(c.id for c in s.state.combatants if c.id != me.id)
        assert ids[-1] == downed.id  # the downed come after everyone standing
        assert dialog.query_one("#target", Choice).value != downed.id  # never a downed default
        assert app.focused is dialog.query_one("#target")
        # another attacker (a reaction): the list leaves it out instead, and the target moves off it
        other = dialog.query_one("#target", Choice).value
        dialog.query_one("#attacker", Choice).value = other
        await pilot.pause()
        ids = target_ids(dialog)
        assert other not in ids and me.id in ids
        assert dialog.query_one("#target", Choice).value != other


@sync
async def test_a_target_picked_in_the_tracker_still_opens_on_the_target(tmp_path: Path) -> None:
    s = demo_session("d20", start=True)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        assert s.state.current
        foe = next(c for c in s.state.combatants if c.id != s.state.current)
        await select(pilot, foe.name)
        await pilot.press("w")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, AttackBase)
        assert dialog.query_one("#target", Choice).value == foe.id
        assert app.focused is dialog.query_one("#target")  # not a modifier field


@sync
async def test_cosmere_does_not_offer_the_attacker_as_its_own_target(tmp_path: Path) -> None:
    s = demo_session("cosmere", start=True)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        kaladin = of(s, "Kaladin")
        await select(pilot, "Kaladin")
        await pilot.press("g", "w")  # his turn first: with nobody acting there is no attack
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, AttackBase)
        me = dialog.attacker
        box = dialog.box("t", me)  # type: ignore[attr-defined]
        assert box is not None and not box.parent.display
        shown = [c.id for c in s.state.combatants if c.id != me and dialog.box("t", c.id).parent.display]  # type: ignore[attr-defined]
        # its foes are listed (its allies only on `a`: tests/tui/test_target_lists.py)
        assert shown == [c.id for c in s.state.combatants if c.side != kaladin.side]
        # a new attacker (a foe's reaction): its row goes, the old attacker's comes back
        other = next(c.id for c in s.state.combatants if c.side != kaladin.side)
        dialog.query_one("#attacker", Choice).value = other
        await pilot.pause()
        assert not dialog.box("t", other).parent.display  # type: ignore[attr-defined]
        assert dialog.box("t", me).parent.display  # type: ignore[attr-defined]
