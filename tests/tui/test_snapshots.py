"""How each ruleset's main screen looks, at 80x24 and at 160x48: a fight under way, fixed seed.

Regenerate with `pytest tests/tui/test_snapshots.py --snapshot-update` and look at the SVGs (the
report pytest-textual-snapshot writes on a mismatch shows both) before committing them.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import commands as C
from engine.rules.ninephase.catalog import DoActivity
from engine.state import Duration
from saves.session import Session
from tests.tui.support import app_on, cid, demo_session


def _d20() -> Session:
    s = demo_session("d20", start=True)
    s.apply(C.Damage(cid(s, "Bandit 1"), 7, type="slashing"))
    s.apply(C.AddCondition(cid(s, "Ysolde"), "Prone", Duration("turn_end", cid(s, "Ysolde"), 1)))
    s.apply(C.UseAction(s.state.current, "action", "Attack"))
    s.apply(C.NextTurn())
    return s


def _cosmere() -> Session:
    s = demo_session("cosmere", start=True)
    s.apply(C.ChooseSpeed(cid(s, "Kaladin"), "fast"))
    s.apply(C.ChooseSpeed(cid(s, "Parshendi Warrior 1"), "fast"))
    s.apply(C.ChooseSpeed(cid(s, "Shallan"), "slow"))
    s.apply(C.NextTurn())
    s.apply(C.UseAction(cid(s, "Kaladin"), "action", "Strike"))
    s.apply(C.Damage(cid(s, "Parshendi Warrior 1"), 5))
    return s


def _ninephase() -> Session:
    s = demo_session("ninephase", start=True)
    s.apply(C.NextTurn())
    s.apply(C.NextTurn())
    s.apply(DoActivity(cid(s, "Aldric"), "Move"))
    s.apply(DoActivity(cid(s, "Orc Raider 1"), "Weapon attack", speed=3))
    s.apply(C.Damage(cid(s, "Mirelle"), 4))
    s.apply(C.AddCondition(cid(s, "Orc Shaman"), "Hexed", Duration("round_end", round=2)))
    return s


def _warhammer() -> Session:
    s = demo_session("warhammer", start=True)
    s.apply(C.Fortune(cid(s, "Ulfberth"), 0))
    s.apply(C.NextTurn())
    s.apply(C.UseAction(cid(s, "Ulfberth"), "action", "Great axe"))
    s.apply(C.Damage(cid(s, "Goblin 1"), 3))
    return s


FIGHTS = {"d20": _d20, "cosmere": _cosmere, "ninephase": _ninephase, "warhammer": _warhammer}


@pytest.mark.parametrize("size", [(80, 24), (160, 48)], ids=["80x24", "160x48"])
@pytest.mark.parametrize("rules", sorted(FIGHTS))
def test_main_screen(rules: str, size: tuple[int, int], snap_compare, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    app = app_on(FIGHTS[rules](), tmp_path)
    assert snap_compare(app, terminal_size=size)


def test_start_screen_with_no_saves(snap_compare, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    import engine
    from tui.app import make_app

    # the start screen as Fracas ships it: a ruleset installed beside it (tests/plainlist_pkg) adds a row
    for rid, rs in list(engine.REGISTRY.items()):
        if not type(rs).__module__.startswith("engine.rules."):
            monkeypatch.delitem(engine.REGISTRY, rid)

    app = make_app(start_screen=True, config_path=tmp_path / "config.toml")
    assert snap_compare(app, terminal_size=(80, 24), run_before=_wait_for_list)


async def _wait_for_list(pilot) -> None:  # type: ignore[no-untyped-def]
    # the saves folder is listed in a worker: wait for it before the picture is taken
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


def test_every_bundled_ruleset_has_its_snapshots() -> None:
    # a ruleset bundled in engine/rules/<id>/ must show its main screen here at both sizes
    from engine import REGISTRY

    bundled = {rid for rid, rs in REGISTRY.items() if type(rs).__module__.startswith("engine.rules.")}
    assert set(FIGHTS) == bundled
