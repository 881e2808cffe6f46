"""d20 use dialog at 80x24: a move's distance, Help with the ally helped, the named uses with their
cost; the sheet's feet of movement left and the tracker's M. Asserts on the engine state produced."""

from __future__ import annotations

from pathlib import Path

from rich.style import Style

from engine import commands as C
from engine.rules.d20.combat import movement_left
from saves.session import Session
from tests.tui.support import app_on, cid, demo_session, dialog_error, main_screen, pane_text, select, sync, type_text
from tui.dialogs import Choice, UseDialog
from tui.views import PLAIN, ROLES, economy_cell

WHAT = {
    "move": 2,
    "help": 5,
    "dash": 6,
    "stand": 9,
    "pick_move": 10,
    "pick_action": 11,
    "put_out": 12,
}


def _fight(*conditions: str) -> tuple[Session, str]:
    """A d20 fight under way, the combatant whose turn it is with the given conditions (and its id)."""
    s = demo_session("d20", start=True)
    who = s.state.current
    for name in conditions:
        s.apply(C.AddCondition(who, name))
    return s, who


async def _use(pilot, who: str, what: str = "") -> None:  # type: ignore[no-untyped-def]
    main_screen(pilot).select(who)
    await pilot.pause()
    await pilot.press("u")
    assert isinstance(pilot.app.screen, UseDialog)
    if what:
        await pilot.press(*["right"] * WHAT[what])


def _speed(s: Session, who: str) -> int:
    return s.state.get(who).stat("speed", 30)


@sync
async def test_a_move_takes_a_distance_then_the_rest(tmp_path: Path) -> None:
    s, who = _fight()
    speed = _speed(s, who)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await _use(pilot, who)
        screen = app.screen
        # the distance is asked for the move only
        assert screen.query_one("#row-distance").has_class("hidden")
        await pilot.press("right", "right")
        assert not screen.query_one("#row-distance").has_class("hidden")
        assert f"({speed} ft left)" in str(screen.query_one("#distance").placeholder)
        await pilot.press("tab")  # the distance comes right after What
        assert screen.focused is not None and screen.focused.id == "distance"
        await type_text(pilot, "10")
        await pilot.press("enter")
        c = s.state.get(who)
        assert movement_left(c) == speed - 10
        assert c.economy.used[-1] == "Move 10 ft"
        assert f"Move {speed - 10} of {speed} ft" in (await pane_text(pilot, "sheet"))
        # more than is left is refused in the dialog, and nothing moves
        await _use(pilot, who, "move")
        await pilot.press("tab")
        await type_text(pilot, str(speed))
        await pilot.press("enter")
        assert f"only {speed - 10} ft of movement left, not {speed}" in dialog_error(pilot)
        assert movement_left(s.state.get(who)) == speed - 10
        # 1 ft would read as "all of it": refused with what to type
        await pilot.press(*["backspace"] * 4, "1", "enter")
        assert "Distance: give the feet moved" in dialog_error(pilot)
        # empty: all that is left
        await pilot.press("backspace", "enter")
        assert not isinstance(app.screen, UseDialog)
        assert movement_left(s.state.get(who)) == 0
        assert f"Move 0 of {speed} ft" in (await pane_text(pilot, "sheet"))


def test_the_tracker_m_is_dim_only_when_no_movement_is_left() -> None:
    s, who = _fight()
    st = {r: Style() for r in ROLES} | {"pip": Style(bold=True), "dim": Style(dim=True)}

    def m_style() -> Style:
        t = economy_cell(s.state, s.state.get(who), st)
        at = t.plain.index("M")
        return next(sp.style for sp in t.spans if sp.start <= at < sp.end)  # type: ignore[return-value]

    assert m_style() == st["pip"]
    s.apply(C.AddCondition(who, "Grappled"))
    assert m_style() == st["dim"]  # speed 0: the move is there, no feet of it
    s.apply(C.RemoveCondition(who, "Grappled"))
    s.apply(C.UseAction(who, "move", cost=10))
    assert m_style() == st["pip"]  # part of the move taken: feet are left
    s.apply(C.UseAction(who, "move"))
    assert m_style() == st["dim"]
    assert economy_cell(s.state, s.state.get(who), PLAIN).plain == "A B M R"


@sync
async def test_slowed_dash_and_grappled_on_the_sheet(tmp_path: Path) -> None:
    s, who = _fight("Slowed")
    half = _speed(s, who) // 2
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await _use(pilot, who, "dash")
        await pilot.press("enter")
        assert "Dash" in s.state.get(who).economy.used
        assert movement_left(s.state.get(who)) == 2 * half
        assert f"Move {2 * half} of {2 * half} ft (Slowed)" in (await pane_text(pilot, "sheet"))
        s.apply(C.AddCondition(who, "Grappled"))
        main_screen(pilot).select(who)  # the pane follows the new state
        await pilot.pause()
        assert "Move 0 ft (Grappled)" in (await pane_text(pilot, "sheet"))


@sync
async def test_help_names_the_ally_helped(tmp_path: Path) -> None:
    s, who = _fight()
    me = s.state.get(who)
    allies = [c.id for c in s.state.combatants if c.id != who and c.side == me.side]
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await _use(pilot, who)
        screen = app.screen
        assert screen.query_one("#row-target").has_class("hidden")
        await pilot.press(*["right"] * WHAT["help"])
        assert not screen.query_one("#row-target").has_class("hidden")
        assert screen.query_one("#row-name").has_class("hidden")  # the name is Help
        target = screen.query_one("#target", Choice)
        assert target.value == allies[0]  # the helper's own side first
        await pilot.press("tab")
        assert screen.focused is target
        await pilot.press("right")
        helped = target.value
        assert helped == (allies[1] if len(allies) > 1 else target.options[1][1])
        await pilot.press("enter")
        ally = s.state.get(helped)
        cond = ally.condition("Helped")
        assert cond is not None and cond.source == who
        assert s.state.get(who).economy.actions == 0 and "Help" in s.state.get(who).economy.used
        # a second Help this turn: its action is spent, refused in the dialog
        await _use(pilot, who, "help")
        await pilot.press("enter")
        assert "already taken its action" in dialog_error(pilot)
        assert isinstance(app.screen, UseDialog)


@sync
async def test_the_named_uses_are_listed_with_their_cost(tmp_path: Path) -> None:
    s, who = _fight("Prone", "Disarmed", "Burning")
    speed = _speed(s, who)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await _use(pilot, who)
        labels = [str(label) for label, _ in app.screen.query_one("#what", Choice).options]
        assert f"Stand up: {speed // 2} ft of the move (half)" in labels
        assert "Pick up weapon: the move" in labels and "Pick up weapon: an action" in labels
        assert "Put out fire: an action" in labels
        assert "Help: an action (ally gets advantage)" in labels
        await pilot.press("escape")
        # Stand up: half the speed, Prone ends
        await _use(pilot, who, "stand")
        await pilot.press("enter")
        c = s.state.get(who)
        assert not c.has("Prone") and movement_left(c) == speed - speed // 2
        # Pick up weapon with the move: the rest of it, Disarmed ends
        await _use(pilot, who, "pick_move")
        await pilot.press("enter")
        c = s.state.get(who)
        assert not c.has("Disarmed") and movement_left(c) == 0
        # Put out fire with the action
        await _use(pilot, who, "put_out")
        await pilot.press("enter")
        c = s.state.get(who)
        assert not c.has("Burning") and c.economy.actions == 0


@sync
async def test_a_named_use_the_rules_refuse_stays_in_the_dialog(tmp_path: Path) -> None:
    s, who = _fight()
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await _use(pilot, who, "put_out")
        await pilot.press("enter")
        assert "is not Burning" in dialog_error(pilot)
        await pilot.press("escape")
        await _use(pilot, who, "pick_action")
        await pilot.press("enter")
        assert "is not Disarmed" in dialog_error(pilot)
        assert s.state.get(who).economy.actions == 1


@sync
async def test_a_reaction_barred_by_a_condition_is_shown_as_barred_not_available(tmp_path: Path) -> None:
    s = demo_session("d20", start=True)
    s.apply(C.AddCondition(cid(s, "Brannoc"), "Stunned"))
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await select(pilot, "Brannoc")
        text = await pane_text(pilot, "sheet")
        assert "Reaction barred (Stunned)" in text
        # once the condition ends the reaction is there again (it was never spent)
        s.apply(C.RemoveCondition(cid(s, "Brannoc"), "Stunned"))
        app.refresh_fight()
        await pilot.pause()
        text = await pane_text(pilot, "sheet")
        assert "Reaction available" in text
