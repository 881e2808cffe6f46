"""Nine-phase from the keyboard: the phase board, activities from the catalog or ad hoc, durations."""

from __future__ import annotations

from pathlib import Path

import engine.library as L
from saves.session import Session
from tests.tui.support import app_on, demo_session, dialog_error, main_screen, of, pane_text, select, sync, type_text
from tui.rulesets.ninephase.dialogs import ActivityDialog


def own(s: Session, name: str) -> int:
    """How many activities of its own (from its statblock) the combatant has: the activity dialog
    lists them before the fight's catalog."""
    sb = L.statblock_of(s.state.ruleset, of(s, name))
    return len(L.attacks(sb)) if sb is not None else 0


@sync
async def test_phases_activities_and_the_board(tmp_path: Path) -> None:
    s = demo_session("ninephase")
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s", "enter")
        assert s.state.started and s.state.phase == 1
        await select(pilot, "Aldric")
        await pilot.press("u")
        assert isinstance(app.screen, ActivityDialog)
        await pilot.press("enter")  # Move, listed for phase 3: refused in phase 1
        assert "phase 3" in dialog_error(pilot)
        await pilot.press("escape")
        await pilot.press("n", "n")
        assert s.state.phase == 3
        await pilot.press("u", "enter")
        uses = of(s, "Aldric").economy.phases
        assert [(u.phase, u.kind, u.activity) for u in uses] == [(3, "act", "Move")]
        assert of(s, "Aldric").economy.actions == 2
        # once a phase: a second activity in phase 3 is refused
        await pilot.press("u", "down", "enter", "4", "enter")
        assert "one turn a phase" in dialog_error(pilot)
        await pilot.press("escape")
        # the board shows the act in column 3
        tracker = main_screen(pilot).query_one("#tracker")
        row = next(r.text.plain for r in tracker._rows if r.cid == of(s, "Aldric").id)
        header = tracker._rows[0].text.plain
        col = header.index(" 3 ") + 1
        assert row[col] == "A"
        # a weapon attack needs the weapon's Speed Factor: enter asks for it (the catalog's Weapon
        # attack, its second entry, after the raider's own Cleaver Hack and Bull Rush)
        await select(pilot, "Orc Raider 1")
        assert own(s, "Orc Raider 1") == 2
        await pilot.press("u", *["down"] * (own(s, "Orc Raider 1") + 1), "enter")
        assert app.screen.focused is not None and app.screen.focused.id == "speed"
        await type_text(pilot, "3")
        await pilot.press("enter")
        assert of(s, "Orc Raider 1").economy.master


@sync
async def test_ad_hoc_activity_kept_in_the_catalog_and_round_durations(tmp_path: Path) -> None:
    s = demo_session("ninephase", start=True)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await select(pilot, "Orc Shaman")
        from engine.rules.ninephase.catalog import catalog as _catalog

        # "Another activity", below the shaman's own activities and the catalog's entries: to its name
        await pilot.press("u", *["down"] * (own(s, "Orc Shaman") + len(_catalog(s.state))), "enter")
        await type_text(pilot, "Hex")
        await pilot.press("tab", "tab", "tab", "tab", "tab")  # cost, phase, reaction, master, lock
        await pilot.press("tab", "tab", "tab", "tab", "tab", "space")  # channel, uninterruptible, repeatable,
        # may finish next round, keep
        await pilot.press("ctrl+s")
        from engine.rules.ninephase.catalog import catalog

        assert "Hex" in [a.name for a in catalog(s.state)]
        assert [u.activity for u in of(s, "Orc Shaman").economy.phases] == ["Hex"]
        # a condition for two rounds, counted from this phase
        await select(pilot, "Mirelle")
        await pilot.press("c")
        await type_text(pilot, "Slowed")
        await pilot.press("tab", "right", "tab")
        await pilot.press("backspace")
        await type_text(pilot, "2")
        await pilot.press("enter")  # not a name of the text's: asked once, made on the second enter
        assert dialog_error(pilot) == "New condition 'Slowed'? enter again to make it"
        await pilot.press("enter")
        cond = of(s, "Mirelle").condition("Slowed")
        assert cond is not None and cond.duration.kind == "phase_end"
        assert (cond.duration.round, cond.duration.phase) == (3, 1)
        assert "until the end of phase 1, round 3 (18 more phases)" in (await pane_text(pilot, "conditions"))
        # the Grit-first default, or HP first for this hit
        await pilot.press("d")
        await type_text(pilot, "3")
        await pilot.press("tab", "tab", "tab", "right", "enter")  # amount, dice, type, track: hp first
        assert of(s, "Mirelle").pool("hp").current == 13 and of(s, "Mirelle").pool("grit").current == 6
