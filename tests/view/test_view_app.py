"""The players' view app (tui/view.py) on a file the GM's session writes: every ruleset, at 80x24 and
larger; each command shows within half a second; hidden combatants never appear; the GM's controls."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from plainlist.rules import COMMANDS, EVENTS, ID, PlainList

from engine import REGISTRY, get_ruleset, register_ruleset, ruleset_ids
from engine import commands as C
from engine.state import Fight
from saves.demo import demo_history, has_demo
from saves.session import Session
from tests.tui.support import app_on, select, sync
from tui.view import ViewApp, band, public_log, screen_text, view_part
from tui.views import tracker_rows

RULESETS = ruleset_ids()  # every plugin's ruleset (each brings a demo fight)


async def _caught_up(pilot, app: ViewApp, s: Session, limit: float = 0.5) -> float:  # type: ignore[no-untyped-def]
    """Seconds until the view shows the session's cursor; fails past `limit`."""
    t0 = time.monotonic()
    while app.shown_cursor != s.history.cursor:
        if time.monotonic() - t0 > limit:
            raise AssertionError(f"the view is at node {app.shown_cursor}, the GM at {s.history.cursor}")
        await pilot.pause(0.02)
    return time.monotonic() - t0


def _hide(s: Session, name: str) -> str:
    c = next(c for c in s.state.combatants if c.name == name)
    s.apply(C.EditCombatant(c.id, flags=(*c.flags, "hidden")))
    return c.name


def _enemy(f: Fight) -> str:
    return next(c.name for c in f.combatants if c.side == "enemy" and c.kind == "npc")


@pytest.mark.parametrize("size", [(80, 24), (160, 48)])
@pytest.mark.parametrize("rules", RULESETS)
@sync
async def test_follows_each_command_within_half_a_second(tmp_path: Path, rules: str, size: tuple[int, int]) -> None:
    assert has_demo(rules)
    s = Session.create(tmp_path / "f.fracas", demo_history(rules).state)
    hidden = _hide(s, _enemy(s.state))
    app = ViewApp(tmp_path / "f.fracas")
    async with app.run_test(size=size) as pilot:
        await _caught_up(pilot, app, s)
        s.apply(C.StartFight())
        worst = await _caught_up(pilot, app, s)
        for step in [s.apply] * 10 + [None] * 3:
            if step is None:
                s.undo()
            else:
                s.apply(C.NextTurn())
            worst = max(worst, await _caught_up(pilot, app, s))
            text = screen_text(app)
            assert hidden not in text
            for c in s.state.combatants:
                if c.name != hidden:
                    assert c.name in text or size == (80, 24)  # a long list may run off a small screen
        assert worst < 0.5
        f = s.state
        text = screen_text(app)
        assert f"{f.round}" in text
        if f.current and f.find(f.current) is not None and getattr(view_part(rules), "TURNS", True):
            assert f"Now: {f.get(f.current).name}" in text
        assert not app.follower.problem  # type: ignore[union-attr]
    s.close()


@sync
async def test_health_bands_numbers_and_settings(tmp_path: Path) -> None:
    s = Session.create(tmp_path / "f.fracas", demo_history("d20").state)
    s.apply(C.StartFight())
    enemy = next(c for c in s.state.combatants if c.name == "Bandit Captain")
    pc = next(c for c in s.state.combatants if c.kind == "pc")
    s.apply(C.Damage(enemy.id, amount=enemy.hp // 2 + 1))
    s.apply(C.Damage(pc.id, amount=3))
    app = ViewApp(tmp_path / "f.fracas")
    async with app.run_test(size=(100, 30)) as pilot:
        await _caught_up(pilot, app, s)
        hurt = s.state.get(enemy.id)
        text = screen_text(app)
        assert f"Bandit Captain  {band(hurt)}" in text and band(hurt) == "bloodied"
        assert f"{hurt.hp}/{hurt.health[0].max}" not in text  # no enemy numbers
        assert f"{s.state.get(pc.id).hp}/{pc.health[0].max}" in text  # the party's own are shown
        assert "Bandit Captain is hit" in text and f"takes {enemy.hp // 2 + 1}" not in text
        s.apply(C.Setting("view_health", "numbers"))
        await _caught_up(pilot, app, s)
        assert f"{hurt.hp}/{hurt.health[0].max}" in screen_text(app)
        s.apply(C.Setting("view_health", "none"))
        await _caught_up(pilot, app, s)
        assert "Bandit Captain  " not in screen_text(app).replace("Bandit Captain  \n", "")
        s.undo()
        s.undo()
        await _caught_up(pilot, app, s)
        assert "bloodied" in screen_text(app)
    s.close()


def test_public_log_keeps_secrets(tmp_path: Path) -> None:
    s = Session.memory(demo_history("d20").state)
    captain = next(c for c in s.state.combatants if c.name == "Bandit Captain")
    s.apply(C.EditCombatant(captain.id, flags=("hidden",)))
    s.apply(C.StartFight())
    s.apply(C.Roll("1d20+5", who=captain.id, label="Stealth"))
    s.apply(C.Note(text="the captain waits in the trees"))
    lines = "\n".join(public_log(s.history, 50))
    assert "Bandit Captain" not in lines and "Stealth" not in lines and "trees" not in lines
    s.apply(C.Setting("view_rolls", "public"))
    s.apply(C.EditCombatant(captain.id, flags=()))  # revealed
    lines = "\n".join(public_log(s.history, 50))
    assert "Bandit Captain joins the fight" in lines
    assert "Stealth" not in lines  # what it did while hidden stays secret
    bandit = next(c for c in s.state.combatants if c.name == "Bandit 1")
    s.apply(C.Roll("1d20", who=bandit.id, label="Athletics"))
    assert "Bandit 1 Athletics" in "\n".join(public_log(s.history, 50))  # public rolls now
    s.apply(C.Setting("view_rolls", "private"))
    s.apply(C.Roll("1d20", who=bandit.id, label="Perception"))
    assert "Perception" not in "\n".join(public_log(s.history, 50))


@sync
async def test_gm_keys_hide_reveal_and_set_the_view(tmp_path: Path) -> None:
    """b in the GM's app hides the selected combatant from the view and reveals it again; V sets the
    enemies' health display; both are commands (saved and undone)."""
    path = tmp_path / "f.fracas"
    s = Session.create(path, demo_history("d20").state)
    view = ViewApp(path)
    gm = app_on(s, tmp_path)
    async with gm.run_test(size=(120, 40)) as pilot:
        await select(pilot, "Bandit 2")
        await pilot.press("b")
        await pilot.pause()
        c = next(c for c in s.state.combatants if c.name == "Bandit 2")
        assert "hidden" in c.flags
        rows = tracker_rows(s.state, get_ruleset(s.state.ruleset), 120)
        assert "Bandit 2 (hidden)" in "\n".join(r.text.plain for r in rows)  # the GM sees it is hidden
        await pilot.press("V")
        await pilot.pause()
        await pilot.press("right", "enter")  # band -> numbers
        await pilot.pause()
        assert s.state.setting("view_health", "band") == "numbers"
    hidden_state = s.state
    async with view.run_test(size=(80, 24)) as vp:
        await _caught_up(vp, view, s)
        assert "Bandit 2" not in screen_text(view)
        assert "unhurt" not in screen_text(view)  # numbers now, for enemies too
    s.undo()
    s.undo()  # the setting, then the hide
    assert s.state.setting("view_health", "band") == "band" and hidden_state is not s.state
    view2 = ViewApp(path)
    async with view2.run_test(size=(80, 24)) as vp:
        await _caught_up(vp, view2, s)
        assert "Bandit 2" in screen_text(view2)
    s.close()


@pytest.fixture
def plainlist() -> Iterator[None]:
    """The fifth, test-only ruleset, registered for one test (as tests/fifth does)."""
    was = REGISTRY.get(ID)
    register_ruleset(was or PlainList(), commands=COMMANDS, events=EVENTS)
    yield
    if was is None:
        REGISTRY.pop(ID, None)


@sync
async def test_a_ruleset_without_a_view_part_gets_the_plain_order(tmp_path: Path, plainlist: None) -> None:
    from engine import new_fight

    assert view_part(ID) is None
    s = Session.create(tmp_path / "f.fracas", new_fight(ID, "Plain", 3))
    for name in ("Ann", "Bob", "Cy"):
        s.apply(C.AddCombatant(name=name, kind="pc", side="party", stats=(("speed", 3),)))
    s.apply(C.StartFight())
    app = ViewApp(tmp_path / "f.fracas")
    async with app.run_test(size=(80, 24)) as pilot:
        await _caught_up(pilot, app, s)
        text = screen_text(app)
        assert all(n in text for n in ("Ann", "Bob", "Cy")) and "Now: " in text
    s.close()


@sync
async def test_a_long_order_on_a_small_screen_keeps_the_current_one_in_sight(tmp_path: Path) -> None:
    from engine import new_fight

    s = Session.create(tmp_path / "f.fracas", new_fight(RULESETS[0], "Big", 3))
    s.apply(C.AddCombatant(name="Orc", count=20, stats=(("hp", 10),)))
    s.apply(C.StartFight())
    app = ViewApp(tmp_path / "f.fracas")
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(15):
            s.apply(C.NextTurn())
            await _caught_up(pilot, app, s)
            await pilot.pause()
            order = app.texts["order"]
            assert f"▶ {s.state.get(s.state.current).name} " in order + " "
            assert "more line" in order
            assert len(order.splitlines()) <= app.query_one("#order").size.height
    s.close()
