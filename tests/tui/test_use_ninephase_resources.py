"""Nine-phase activity dialog at 80x24: a resource (a spell slot, ki) and an amount spent to begin an
activity from the catalog or ad hoc; too few left is refused in the dialog. Asserts on engine state."""

from __future__ import annotations

from pathlib import Path

from engine import commands as C
from engine.rules.ninephase.catalog import DefineActivity, catalog
from engine.state import ActivitySpec
from saves.session import Session
from tests.tui.support import app_on, cid, demo_session, dialog_error, of, select, sync, type_text
from tui.dialogs import Choice
from tui.rulesets.ninephase.dialogs import ActivityDialog


def _fight() -> Session:
    s = demo_session("ninephase", start=True)
    s.apply(C.EditCombatant(cid(s, "Mirelle"), stats=(("slot3", 2), ("ki", 4))))
    s.apply(DefineActivity(ActivitySpec("Bless", cost=1)))
    s.apply(DefineActivity(ActivitySpec("Ward", cost=1)))
    return s


def _index(s: Session, name: str) -> int:
    return [a.name for a in catalog(s.state)].index(name)


def _labels(pilot) -> list[str]:  # type: ignore[no-untyped-def]
    return [str(label) for label, _ in pilot.app.screen.query_one("#resource", Choice).options]


@sync
async def test_a_catalog_activity_spends_a_resource(tmp_path: Path) -> None:
    s = _fight()
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await select(pilot, "Mirelle")
        await pilot.press("u", *["down"] * _index(s, "Bless"), "tab")
        screen = app.screen
        assert isinstance(screen, ActivityDialog)
        assert screen.focused is not None and screen.focused.id == "resource"
        assert _labels(pilot) == ["none", "slot3: 2 of 2 left", "ki: 4 of 4 left"]
        await pilot.press("right", "tab")
        await type_text(pilot, "2")
        await pilot.press("enter")
        m = of(s, "Mirelle")
        assert m.pool("slot3").current == 0 and m.pool("ki").current == 4
        assert [(u.phase, u.activity) for u in m.economy.phases] == [(1, "Bless")]
        assert m.economy.actions == 2
        # next phase: no slot left, refused in the dialog and nothing spent
        await pilot.press("n")
        assert s.state.phase == 2
        await select(pilot, "Mirelle")
        await pilot.press("u", *["down"] * _index(s, "Ward"), "tab")
        assert "slot3: 0 of 2 left" in _labels(pilot)
        await pilot.press("right", "enter")
        assert "Ward needs 1 slot3 and Mirelle has 0 left" in dialog_error(pilot)
        assert isinstance(app.screen, ActivityDialog)
        assert len(of(s, "Mirelle").economy.phases) == 1
        # an amount with no resource to take it from: refused, the cursor on the resource
        await pilot.press("left", "tab")
        await type_text(pilot, "2")
        await pilot.press("enter")
        assert "Amount: choose the resource" in dialog_error(pilot)
        assert app.screen.focused is not None and app.screen.focused.id == "resource"
        # the amount emptied: the default, nothing spent besides the action
        await pilot.press("tab", "backspace", "enter")
        m = of(s, "Mirelle")
        assert [(u.phase, u.activity) for u in m.economy.phases] == [(1, "Bless"), (2, "Ward")]
        assert m.pool("slot3").current == 0 and m.pool("ki").current == 4
        # a combatant with no pools is asked for none
        await select(pilot, "Aldric")
        await pilot.press("u", *["down"] * _index(s, "Bless"))
        assert not app.screen.query("#resource") and not app.screen.query("#amount")
        await pilot.press("enter")
        assert [u.activity for u in of(s, "Aldric").economy.phases] == ["Bless"]


@sync
async def test_an_ad_hoc_activity_spends_a_resource_and_is_kept(tmp_path: Path) -> None:
    s = _fight()
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await select(pilot, "Mirelle")
        await pilot.press("u", *["down"] * len(catalog(s.state)), "enter")  # "Another activity": its name
        await type_text(pilot, "Ki Strike")
        await pilot.press(*["tab"] * 10, "space")  # cost, phase, the seven ticks, keep
        await pilot.press("tab", "right", "right", "tab")  # Spends: ki, then its amount
        await type_text(pilot, "3")
        await pilot.press("ctrl+s")
        m = of(s, "Mirelle")
        assert m.pool("ki").current == 1 and m.pool("slot3").current == 2
        assert "Ki Strike" in [a.name for a in catalog(s.state)]
        assert [u.activity for u in m.economy.phases] == ["Ki Strike"]
        # ad hoc, not kept: more ki than is left is refused in the dialog
        await pilot.press("n")
        await select(pilot, "Mirelle")
        await pilot.press("u", *["down"] * len(catalog(s.state)), "enter")
        await type_text(pilot, "Flurry")
        await pilot.press(*["tab"] * 11, "right", "right", "tab")
        await type_text(pilot, "2")
        await pilot.press("enter")
        assert "Flurry needs 2 ki and Mirelle has 1 left" in dialog_error(pilot)
        assert of(s, "Mirelle").pool("ki").current == 1
        await pilot.press("backspace", "1", "enter")
        m = of(s, "Mirelle")
        assert m.pool("ki").current == 0
        assert [u.activity for u in m.economy.phases] == ["Ki Strike", "Flurry"]
        assert "Flurry" not in [a.name for a in catalog(s.state)]


@sync
async def test_an_ad_hoc_channel_may_finish_next_round_and_is_kept_with_that(tmp_path: Path) -> None:
    s = _fight()
    while s.state.phase != 8:
        s.apply(C.NextTurn())
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await select(pilot, "Mirelle")
        await pilot.press("u", *["down"] * len(catalog(s.state)), "enter")
        await type_text(pilot, "Call Storm")
        await pilot.press("tab", "right", "right", "tab")  # cost 3, then the earliest phase
        await type_text(pilot, "8")
        # Channel (4th tick), then "may finish next round" (7th), then keep
        await pilot.press("tab", "tab", "tab", "tab", "space", "tab", "tab", "tab", "space", "tab", "space")
        await pilot.press("ctrl+s")
        assert not isinstance(app.screen, ActivityDialog), dialog_error(pilot)
        spec = next(a for a in catalog(s.state) if a.name == "Call Storm")
        assert spec.channel and spec.across_rounds and spec.cost == 3
        (ch,) = of(s, "Mirelle").channels
        assert (ch.start, ch.end) == (8, 11)  # resolves in phase 2 of the next round
