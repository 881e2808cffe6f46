"""Issue 25, items 3 and 7: a list of several targets is one way everywhere (the area dialog, the
Cosmere attack): one tab stop, up/down between the targets, space ticks, the focused box marked
without colour; the Cosmere attack lists the foes, the attacker's allies only on `a`. Keys are sent
in bursts (all queued at once): each applies where the key before it left the focus."""

from __future__ import annotations

from pathlib import Path

from engine.rules.cosmere.commands import StartTurn
from tests.tui.support import app_on, burst, cid, demo_session, dialog_error, select, sync
from tui.area import AreaDialog
from tui.dialogs.fields import ListTick
from tui.rulesets.cosmere.dialogs import CosmereAttackDialog, CosmereOutcomeDialog


def list_stops(dialog: object) -> list[ListTick]:
    return [w for w in dialog.focus_chain if isinstance(w, ListTick)]  # type: ignore[attr-defined]


def plain(box: ListTick) -> str:
    return box.render().plain  # type: ignore[union-attr]


@sync
async def test_area_targets_are_one_tab_stop_and_down_space_in_a_burst_ticks_the_row_moved_to(tmp_path: Path) -> None:
    s = demo_session("d20", start=True)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await select(pilot, "Bandit 3")
        await pilot.press("D")
        dlg = app.screen
        assert isinstance(dlg, AreaDialog)
        assert len(list_stops(dlg)) == 1  # the whole list, one stop
        names = [c.name for c in dlg.targets]
        # from the amount: tab through the fields above the list until the list has the focus
        for _ in range(12):
            if isinstance(app.focused, ListTick):
                break
            await burst(pilot, "tab")
        assert app.focused is dlg.query_one("#hit-0")  # onto the list at its top
        await burst(pilot, "down", "down", "space", "down", "space", "up")
        ticked = sorted(c.name for n, c in enumerate(dlg.targets) if dlg.checked(f"hit-{n}"))
        assert names[6] == "Bandit 3"
        assert ticked == sorted(["Bandit 3", names[2], names[3]])  # the selected one, then the two rows moved to
        assert app.focused is dlg.query_one("#hit-2")
        focused = dlg.query_one("#hit-2", ListTick)
        assert plain(focused).startswith("▸X◂") and plain(dlg.query_one("#hit-1", ListTick)).startswith("▐ ▌")
        assert "▸" in str(focused.parent.query_one(".mark").render())  # type: ignore[union-attr]
        # tab leaves the list from any row; shift+tab comes back to the row it left, in one burst
        await burst(pilot, "tab", "shift+tab", "down", "space")
        assert app.focused is dlg.query_one("#hit-3")
        assert not dlg.checked("hit-3")  # the space after the down went to the row moved to
        assert len(list_stops(dlg)) == 1


@sync
async def test_area_right_goes_to_the_row_s_saved_box_and_down_keeps_the_column(tmp_path: Path) -> None:
    # Cosmere rolls no save here: each target's "saved" box is the GM's call, beside its target box
    s = demo_session("cosmere", start=True)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("D")
        dlg = app.screen
        assert isinstance(dlg, AreaDialog)
        for box in dlg.target_list.boxes:
            box.value = False
        dlg.query_one("#hit-0", ListTick).focus()
        await pilot.pause()
        await burst(pilot, "space", "down", "space", "right", "space", "up", "space", "left", "down", "down")
        assert dlg.checked("hit-0") and dlg.checked("hit-1")
        assert dlg.checked("saved-0") and dlg.checked("saved-1")  # right, then up stayed in the saved column
        assert app.focused is dlg.query_one("#hit-2")
        assert len(list_stops(dlg)) == 1


def shown_names(dlg: CosmereAttackDialog) -> list[str]:
    slot_of = {f"t-{i}": c for c, i in dlg._slots.items()}
    return [dlg.fight.get(slot_of[b.id or ""]).name for b in dlg.target_boxes("t")]


@sync
async def test_cosmere_attack_lists_the_foes_and_a_lists_the_allies_too(tmp_path: Path) -> None:
    s = demo_session("cosmere", start=True)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        app.commit(StartTurn(cid(s, "Kaladin")))
        await pilot.pause()
        await pilot.press("w")
        dlg = app.screen
        assert isinstance(dlg, CosmereAttackDialog)
        foes = ["Parshendi Warrior 1", "Parshendi Warrior 2", "Parshendi Stormsinger"]
        assert sorted(shown_names(dlg)) == sorted(foes)  # no ally, no cannot-sense box for one
        assert len(list_stops(dlg)) == 1
        note = str(dlg.query_one("#allies-note").render())
        assert "2 of the attacker's allies not listed" in note
        assert app.focused is dlg.target_boxes("t")[0]
        # a: the allies too (in the list's order); over to Shallan and tick her; a again hides them
        # and unticks her: a hidden box makes no one a target unseen
        await burst(pilot, "a")
        listed = shown_names(dlg)
        assert sorted(listed[:3]) == sorted(foes)  # the foes first, the allies after them
        assert sorted(listed[3:]) == ["Bridge Four Spearman", "Shallan"]
        shallan = dlg.box("t", cid(s, "Shallan"))
        assert shallan is not None
        rows = dlg.target_boxes("t")
        steps = rows.index(shallan) - rows.index(app.focused)  # type: ignore[arg-type]
        await burst(pilot, *(["down"] * steps if steps > 0 else ["up"] * -steps), "space")
        assert shallan.value and app.focused is shallan
        await burst(pilot, "a", "space")  # her row goes: the focus goes to the list's first box shown
        assert not shallan.value and not shallan.parent.display  # type: ignore[union-attr]
        assert app.focused in dlg.target_boxes("t")
        assert sorted(shown_names(dlg)) == sorted(foes)


@sync
async def test_cosmere_a_reaction_by_a_foe_lists_its_own_foes(tmp_path: Path) -> None:
    s = demo_session("cosmere", start=True)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        app.commit(StartTurn(cid(s, "Kaladin")))
        await pilot.pause()
        await pilot.press("w")
        dlg = app.screen
        assert isinstance(dlg, CosmereAttackDialog)
        dlg.query_one("#attacker").value = cid(s, "Parshendi Warrior 1")  # type: ignore[attr-defined]
        await pilot.pause()
        # its foes are the party; the warriors ticked for Kaladin are its allies now: unticked, hidden
        assert sorted(shown_names(dlg)) == sorted(["Kaladin", "Shallan", "Bridge Four Spearman"])
        ticked = [b for b in dlg.target_boxes("t") if b.value]
        assert len(ticked) == 1  # its first standing foe, so the attack still has a target
        build = dlg.build()
        assert all(s.state.get(t).side == "party" for t in build.targets)


@sync
async def test_cosmere_attack_down_space_tab_in_one_burst_rolls_at_both(tmp_path: Path) -> None:
    s = demo_session("cosmere", start=True)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        app.commit(StartTurn(cid(s, "Kaladin")))
        await pilot.pause()
        await pilot.press("w")
        dlg = app.screen
        assert isinstance(dlg, CosmereAttackDialog)
        first, second = dlg.target_boxes("t")[:2]
        assert app.focused is first and first.value
        await burst(pilot, "down", "space", "tab", "3", "enter", settle=0.6)
        assert isinstance(app.screen, CosmereOutcomeDialog), dialog_error(pilot)
        slot_of = {f"t-{i}": c for c, i in dlg._slots.items()}
        assert set(app.screen.cmd.targets) == {slot_of[first.id or ""], slot_of[second.id or ""]}
        assert app.screen.cmd.modifier == 3
