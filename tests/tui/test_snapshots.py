"""How each ruleset's main screen looks, at 80x24 and at 160x48: a fight under way, fixed seed.

Regenerate with `pytest tests/tui/test_snapshots.py --snapshot-update` and look at the SVGs (the
report pytest-textual-snapshot writes on a mismatch shows both) before committing them.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import msgspec
import pytest

from engine import command_union
from engine.plugins import plugins, resource
from saves.session import Session
from tests.tui.support import app_on, demo_session


def _fight(rules: str, spec: str) -> Callable[[], Session]:
    """The snapshot fight a plugin names: its demo, started, then these commands (JSON Lines)."""

    def build() -> Session:
        data = resource(spec)
        assert data is not None, f"no snapshot fight at {spec}"
        dec = msgspec.json.Decoder(command_union())
        return demo_session(rules, start=True, then=tuple(dec.decode(x) for x in data.splitlines() if x.strip()))

    return build


# ruleset id -> its main screen's fight: each plugin names its own
FIGHTS = {p.id: _fight(p.id, p.snapshot) for p in plugins() if p.snapshot}


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
    assert bundled <= set(FIGHTS)
