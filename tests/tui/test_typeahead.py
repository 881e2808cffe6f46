"""Keys typed right after a dialog's enter (or escape) go to what is on screen next, in order: a
dialog applies what its fields held at enter, and a refusal keeps the following keys in the dialog."""

from __future__ import annotations

from pathlib import Path

from engine import commands as C
from engine.rules.cosmere.commands import StartTurn
from tests.tui.support import app_on, burst, demo_session, dialog_error, of, select, sync
from tui.dialogs import HealthDialog
from tui.main import MainScreen


def commands(s):  # type: ignore[no-untyped-def]
    h = s.history
    out = []
    i = h.cursor
    while i >= 0 and h.nodes[i].command is not None:
        out.append(h.nodes[i].command)
        i = h.nodes[i].parent
    return out[::-1]


@sync
async def test_note_then_next_turn(tmp_path: Path) -> None:
    s = demo_session("d20", start=True)
    first = s.state.current
    app = app_on(s, tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await burst(pilot, "m", *"hello", "enter", "n")
        assert isinstance(app.screen, MainScreen)
        notes = [c for c in commands(s) if isinstance(c, C.Note)]
        assert [n.text for n in notes] == ["hello"]  # not "hellon"
        assert s.state.current != first  # and the n moved the turn on
        assert isinstance(commands(s)[-1], C.NextTurn)


@sync
async def test_damage_then_next_turn(tmp_path: Path) -> None:
    s = demo_session("d20", start=True)
    first = s.state.current
    app = app_on(s, tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await burst(pilot, "d", "7", "enter", "n")
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)  # not refused as dice "7n"
        damage = [c for c in commands(s) if isinstance(c, C.Damage)]
        assert [(d.amount, d.dice) for d in damage] == [(7, "")]
        assert s.state.current != first


@sync
async def test_a_refusal_keeps_the_keys_in_the_dialog(tmp_path: Path) -> None:
    s = demo_session("d20", start=True)
    first = s.state.current
    app = app_on(s, tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        # "x" is no dice: refused and left open, so the key after enter is typed into the dialog
        await burst(pilot, "d", "x", "enter", "n")
        assert isinstance(app.screen, HealthDialog)
        assert app.screen.value("amount") == "xn"
        assert s.state.current == first and not [c for c in commands(s) if isinstance(c, C.Damage)]
        await pilot.press("backspace", "backspace", "5")
        await burst(pilot, "enter", "n")
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        assert [d.amount for d in commands(s) if isinstance(d, C.Damage)] == [5]
        assert s.state.current != first


@sync
async def test_escape_then_keys(tmp_path: Path) -> None:
    s = demo_session("d20", start=True)
    first = s.state.current
    app = app_on(s, tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await burst(pilot, "m", *"oops", "escape", "n")
        assert isinstance(app.screen, MainScreen)
        assert not [c for c in commands(s) if isinstance(c, C.Note)]
        assert s.state.current != first


@sync
async def test_cosmere_speed_choices_in_one_go(tmp_path: Path) -> None:
    s = demo_session("cosmere", start=True)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await select(pilot, "Kaladin")
        await burst(pilot, "f", "enter")
        await select(pilot, "Parshendi Warrior 1")
        await burst(pilot, "f", "down", "enter", "n")  # slow, then the first turn of the round
        assert of(s, "Kaladin").economy.speed == "fast"
        assert of(s, "Parshendi Warrior 1").economy.speed == "slow"
        assert s.state.current == of(s, "Kaladin").id


@sync
async def test_ninephase_activity_then_next_phase(tmp_path: Path) -> None:
    s = demo_session("ninephase", start=True, then=(C.NextTurn(), C.NextTurn()))
    app = app_on(s, tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        assert s.state.phase == 3
        await select(pilot, "Aldric")
        await burst(pilot, "u", "enter", "n")  # Move (phase 3), then on to phase 4
        assert [u.activity for u in of(s, "Aldric").economy.phases] == ["Move"]
        assert s.state.phase == 4


@sync
async def test_warhammer_start_fortune_and_next(tmp_path: Path) -> None:
    s = demo_session("warhammer")
    app = app_on(s, tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await burst(pilot, "s", "enter")
        assert s.state.started
        await select(pilot, "Ulfberth")
        await burst(pilot, "o", "enter", "n", "u", "enter")  # Fortune for place 1, its turn, its action
        assert s.state.order[0] == of(s, "Ulfberth").id
        assert s.state.current == of(s, "Ulfberth").id
        assert of(s, "Ulfberth").economy.actions == 0


@sync
async def test_keys_after_enter_go_to_the_dialog_that_follows(tmp_path: Path) -> None:
    """Cosmere's attack rolls on enter and opens the outcome dialog: the next enter applies it, and
    the key after that reaches the main screen."""
    from engine.rules.cosmere.combat import CosmereAttack

    s = demo_session("cosmere", start=True)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        app.commit(StartTurn(of(s, "Kaladin").id))
        await pilot.pause()
        # the first standing foe is ticked; 15 on the d20 (+0 against Physical 14: a hit), 3 damage
        await burst(pilot, "w")
        screen = app.screen
        screen.query_one("#damage").value = "1d6"  # type: ignore[attr-defined]
        screen.query_one("#given").value = "15"  # type: ignore[attr-defined]
        screen.query_one("#damage_given").value = "3"  # type: ignore[attr-defined]
        await pilot.pause()
        await burst(pilot, "ctrl+s", "enter", "m", *"hit", "enter")
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        done = commands(s)
        assert isinstance(done[-2], CosmereAttack) and isinstance(done[-1], C.Note) and done[-1].text == "hit"
