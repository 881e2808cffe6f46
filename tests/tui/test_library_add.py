"""The add dialog searches the library as the GM types; "Goblin x4" adds four copies from it in one
command (one undo step), health fixed or rolled (a choice the fight remembers), each copy keeping its
statblock. A new combatant is still typed as before. The e dialog saves a combatant to the library."""

from __future__ import annotations

from pathlib import Path

import pytest

import engine.library as L
from engine import commands as C
from engine import new_fight
from saves import library as S
from saves.session import Session
from tests.tui.support import app_on, dialog_error, of, select, sync, type_text
from tui.dialogs import AddDialog, EditDialog, split_count
from tui.main import MainScreen


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "data"
    monkeypatch.setenv("FRACAS_DATA_DIR", str(folder))
    return folder


def fresh(rid: str = "d20") -> Session:
    s = Session.memory(new_fight(rid, seed=2))
    s.apply(C.AddCombatant("Ayla", kind="pc", side="party", stats=(("hp", 24),) if rid == "d20" else ()))
    return s


def test_split_count() -> None:
    assert split_count("Goblin x4") == ("Goblin", 4)
    assert split_count("goblin ×2") == ("goblin", 2)
    assert split_count("Hill Giant X 3") == ("Hill Giant", 3)
    assert split_count("Rex 2") == ("Rex 2", None) and split_count("Max") == ("Max", None)
    assert split_count("x4") == ("x4", None)


@sync
async def test_goblin_x4_and_a_bugbear_from_the_library(tmp_path: Path) -> None:
    s = fresh()
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("a")
        assert isinstance(app.screen, AddDialog)
        await type_text(pilot, "gob x4")
        note = str(app.screen.query_one("#library-note").render())
        assert "enter adds Goblin x4 from the library" in note
        steps = len(s.history.nodes)
        await pilot.press("enter")
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        assert len(s.history.nodes) == steps + 1  # one command, one undo step
        names = [c.name for c in s.state.combatants]
        assert names == ["Ayla", "Goblin 1", "Goblin 2", "Goblin 3", "Goblin 4"]
        goblin = next(e.statblock for e in S.load("d20") if e.statblock.name == "Goblin")
        assert all(L.statblock_of("d20", of(s, f"Goblin {i}")) == goblin for i in range(1, 5))
        assert of(s, "Goblin 3").hp == goblin.hp  # fixed: the statblock's number
        await pilot.press("a")
        await type_text(pilot, "bugb")
        await pilot.press("enter")
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        assert s.state.combatants[-1].name == "Bugbear" and of(s, "Bugbear").statblock
        app.undo()
        await pilot.pause()
        assert "Bugbear" not in [c.name for c in s.state.combatants]


@sync
async def test_rolled_health_is_remembered_by_the_fight(tmp_path: Path) -> None:
    s = fresh()
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("a")
        await type_text(pilot, "Goblin x3")
        assert app.screen.query_one("#r-health").display
        await pilot.press("ctrl+r", "enter")
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        assert s.state.setting("add_health") == "rolled"
        add = next(n.command for n in s.history.nodes if isinstance(n.command, C.AddCombatant) and n.command.copies)
        hps = [of(s, f"Goblin {i}").health[0].max for i in (1, 2, 3)]
        assert hps == [dict(c)["hp"] for c in add.copies] and all(4 <= hp <= 14 for hp in hps)  # 2d6+2
        await pilot.press("a")
        assert app.screen.query_one("#health").value == "rolled"  # the fight's choice
        await pilot.press("escape")


@sync
async def test_a_custom_combatant_is_typed_as_before(tmp_path: Path) -> None:
    s = fresh()
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("a")
        await type_text(pilot, "Goblin")
        await pilot.press("tab", "backspace")
        await type_text(pilot, "2")
        await pilot.press("tab", "tab", "tab", *["backspace"] * 3)
        await type_text(pilot, "7")  # a stat changed: the GM's own Goblin, not the library's
        assert "a new combatant" in str(app.screen.query_one("#library-note").render())
        await pilot.press("enter")
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        assert of(s, "Goblin 2").hp == 7 and not of(s, "Goblin 2").statblock
        # a name the library only loosely matches stays a new combatant; down/up pick from the list
        await pilot.press("a")
        await type_text(pilot, "Zorblax")
        await pilot.press("enter")
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        assert not of(s, "Zorblax").statblock
        await pilot.press("a")
        await type_text(pilot, "wolf")
        ol = app.screen.query_one("#library")
        assert ol.highlighted == 0  # Ridge Wolf: "wolf" starts one of its words
        await pilot.press("down")  # ... the next match or "New combatant: wolf"
        await pilot.press("escape")


@sync
async def test_a_broken_user_library_still_offers_the_starter_bestiary(tmp_path: Path, data_dir: Path) -> None:
    (data_dir / "library").mkdir(parents=True)
    (data_dir / "library" / "d20.toml").write_text('[[creature]]\nname = "Bad"\nhp = "seven"\n')
    s = fresh()
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("a")
        await type_text(pilot, "bugbear")
        note = str(app.screen.query_one("#library-note").render())
        assert "d20.toml" in note and "'Bad'" in note and "enter adds Bugbear" in note
        await pilot.press("enter")
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        assert of(s, "Bugbear").statblock


@sync
async def test_save_to_library_from_the_edit_dialog(tmp_path: Path) -> None:
    s = fresh()
    sb = next(x for x in L.starter("d20") if x.name == "Goblin")
    s.apply(L.to_add(sb, 2)[0])
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await select(pilot, "Goblin 2")
        await pilot.press("e")
        dlg = app.screen
        assert isinstance(dlg, EditDialog)
        assert dlg.value("library_name") == "Goblin"  # the statblock's own name, not "Goblin 2"
        dlg.query_one("#library_name").value = "Goblin Veteran"
        dlg.query_one("#stat-ac").value = "15"
        dlg.query_one("#save_library").value = True
        await pilot.pause()
        await pilot.press("ctrl+s")
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        saved = S.find("d20", "goblin veteran").statblock
        assert saved.ac == 15 and saved.attacks == sb.attacks and saved.hp_dice == sb.hp_dice
        assert of(s, "Goblin 2").stat("ac") == 15
        # nothing changed in the fight: only the save, said in one line
        await pilot.press("e")
        app.screen.query_one("#save_library").value = True
        await pilot.pause()
        await pilot.press("ctrl+s")
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)


@sync
async def test_a_library_companion_keeps_its_owner_and_statblock(tmp_path: Path) -> None:
    s = fresh()
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("a")
        await type_text(pilot, "ridge wolf")
        app.screen.query_one("#owner").value = of(s, "Ayla").id
        await pilot.pause()
        assert "enter adds Ridge Wolf from the library" in str(app.screen.query_one("#library-note").render())
        await pilot.press("enter")
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        wolf = of(s, "Ridge Wolf")
        assert wolf.owner == of(s, "Ayla").id and L.statblock_of("d20", wolf) is not None
