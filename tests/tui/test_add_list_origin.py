"""The add dialog's list says where each entry comes from (issue 25, item 15): the starter bestiary,
the GM's own library, or the import it came in by; an imported entry that takes the place of the
starter one of its name says so. "gob" lists the goblins, not Gelatinous Cube or Ogre Zombie."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest

import engine.library as L
from engine import commands as C
from engine import new_fight
from saves import library as S
from saves.session import Session
from tests.tui.support import app_on, sync, type_text
from tui.dialogs import AddDialog


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "data"
    monkeypatch.setenv("FRACAS_DATA_DIR", str(folder))
    return folder


def _listed(app) -> list[str]:  # type: ignore[no-untyped-def]
    ol = app.screen.query_one("#library")
    return [str(ol.get_option_at_index(i).prompt) for i in range(ol.option_count)]


@sync
async def test_the_list_names_each_entry_s_origin(tmp_path: Path) -> None:
    starter = {sb.name: sb for sb in L.starter("d20")}
    imported = msgspec.structs.replace(starter["Goblin"], hp=9, source="Improved Initiative")
    cube = msgspec.structs.replace(starter["Goblin"], name="Gelatinous Cube", type="ooze", source="5e SRD API")
    zombie = msgspec.structs.replace(starter["Goblin"], name="Ogre Zombie", type="undead", source="5e SRD API")
    mine = msgspec.structs.replace(starter["Goblin"], name="Goblin Sapper", source="")
    S.save_statblocks("d20", [imported, cube, zombie, mine])
    s = Session.memory(new_fight("d20", seed=2))
    s.apply(C.AddCombatant("Ayla", kind="pc", side="party", stats=(("hp", 24),)))
    app = app_on(s, tmp_path)
    async with app.run_test(size=(120, 30)) as pilot:
        await pilot.press("a")
        assert isinstance(app.screen, AddDialog)
        await type_text(pilot, "gob")
        rows = _listed(app)
        goblin = next(r for r in rows if r.startswith("Goblin "))
        assert "imported (Improved Initiative), in place of the starter one" in goblin
        assert any(r.startswith("Goblin Hexer") and r.endswith("starter") for r in rows)
        assert any(r.startswith("Goblin Sapper") and r.endswith("your library") for r in rows)
        assert not any("Gelatinous Cube" in r or "Ogre Zombie" in r for r in rows), rows
    assert [e.name for e in L.search(S.load("d20"), "gc")][:1] == ["Gelatinous Cube"]  # abbreviations still work
    assert [e.name for e in L.search(S.load("d20"), "ogre")][:1] == ["Ogre Zombie"]  # a name that starts with it first
