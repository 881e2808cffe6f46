"""The players' view on a big screen (a TV, a browser): the round and who acts in big letters, the
order across the width, a PC at 0 as the tracker reads it, conditions never cut (tui/view.py,
tui/bigtype.py)."""

from __future__ import annotations

from pathlib import Path

from engine import commands as C
from engine import get_ruleset, new_fight
from saves.demo import demo_history
from saves.session import Session
from tests.tui.support import sync
from tui import bigtype
from tui.view import ViewApp, order_text, screen_text

CONDITIONS = ("Prone", "Frightened", "Poisoned", "Restrained", "Blinded", "Deafened", "Grappled", "Stunned")


async def _shown(pilot, app: ViewApp, s: Session) -> None:  # type: ignore[no-untyped-def]
    for _ in range(100):
        if app.shown_cursor == s.history.cursor:
            await pilot.pause()
            return
        await pilot.pause(0.02)
    raise AssertionError("the view never caught up")


def _pc_at_zero(s: Session, conditions: tuple[str, ...] = ()) -> str:
    pc = next(c for c in s.state.combatants if c.kind == "pc" and not c.owner)
    s.apply(C.Damage(pc.id, amount=pc.hp))
    for name in conditions:
        s.apply(C.AddCondition(pc.id, name))
    return pc.name


def test_the_font_spells_names_and_refuses_what_it_lacks() -> None:
    assert bigtype.spellable("Élodie O'Neil") == "ELODIE O'NEIL"
    assert bigtype.spellable("龍") is None
    drawn = bigtype.draw("HI", 2)
    assert len(drawn) == bigtype.rows(2) == 7 and max(len(line) for line in drawn) <= bigtype.width("HI", 2)
    assert bigtype.fit("Brannoc", 200, 11) == 3 and bigtype.fit("Brannoc", 60, 11) == 1
    assert bigtype.fit("Brannoc", 30, 11) == 0 and bigtype.fit("龍", 200, 11) == 0


@sync
async def test_at_160x48_the_round_and_who_acts_are_big(tmp_path: Path) -> None:
    s = Session.create(tmp_path / "f.fracas", demo_history("d20").state)
    s.apply(C.StartFight())
    now = s.state.get(s.state.current)
    dying = _pc_at_zero(s, CONDITIONS)
    app = ViewApp(tmp_path / "f.fracas")
    async with app.run_test(size=(160, 48)) as pilot:
        await _shown(pilot, app, s)
        assert app.big and app.screen.has_class("big")
        turn = app.texts["turn"].splitlines()
        assert turn[0].startswith("NOW")
        assert any(line.count("█") > 20 for line in turn)  # the name, drawn
        assert f"Now: {now.name}" in app.words["turn"]  # what the letters spell
        assert app.query_one("#round-big").region.height >= bigtype.rows(1) + 1
        # the top is no taller than a third of the screen: the order keeps its room
        assert app.query_one("#top").region.height <= 48 // 3
        order = app.texts["order"]
        line = next(line for line in order.splitlines() if dying in line)
        assert f"{dying} " in line and "/" in line and " dying " in line + " "
        for name in CONDITIONS:
            assert name in order
        text = screen_text(app)
        assert all(c.name in text for c in s.state.combatants)
        # back to a small screen: the round in digits, "Now: NAME" in plain words
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert not app.big and f"Now: {now.name}" in app.texts["turn"]
    s.close()


@sync
async def test_at_80x24_a_dying_pc_says_so_and_its_conditions_wrap(tmp_path: Path) -> None:
    s = Session.create(tmp_path / "f.fracas", demo_history("d20").state)
    s.apply(C.StartFight())
    dying = _pc_at_zero(s, CONDITIONS)
    app = ViewApp(tmp_path / "f.fracas")
    async with app.run_test(size=(80, 24)) as pilot:
        await _shown(pilot, app, s)
        assert not app.big
        order = app.texts["order"]
        assert all(len(line) <= 78 for line in order.splitlines())
        for name in CONDITIONS:
            assert name in order, f"{name} cut off:\n{order}"
        pc = next(c for c in s.state.combatants if c.name == dying)
        assert f"0/{pc.health[0].max} dying" in order
    s.close()


def test_warhammer_a_pc_at_0_wounds_fights_on() -> None:
    s = Session.memory(demo_history("warhammer").state)
    s.apply(C.StartFight())
    name = _pc_at_zero(s)
    f = s.state
    text = order_text(f, get_ruleset(f.ruleset), 100).plain
    line = next(line for line in text.splitlines() if name in line)
    assert "fights" in line and "dying" not in line


def test_a_long_order_on_a_wide_screen_goes_in_two_columns() -> None:
    s = Session.memory(new_fight("d20", "Horde", 3))
    s.apply(C.AddCombatant(name="Orc", count=30, stats=(("hp", 10),)))
    s.apply(C.StartFight())
    f = s.state
    rs = get_ruleset("d20")
    lines = order_text(f, rs, 158, 20, spacious=True).plain.splitlines()
    assert len(lines) <= 20 and "more line" not in "\n".join(lines)
    assert all("│" in line for line in lines[:10])
    shown = "\n".join(lines)
    assert all(f"Orc {i} " in shown + " " or f"Orc {i}\n" in shown for i in range(1, 31))
    narrow = order_text(f, rs, 78, 20).plain
    assert "more line" in narrow  # too narrow for two: the window around the current one
