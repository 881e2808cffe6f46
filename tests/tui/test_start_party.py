"""A new fight from the start screen brings the party (issue 13): with a roster for the ruleset, the
new-fight form has a tick naming its PCs, on by default, so a fight of the party plus a few foes is a
handful of keys: enter on the form, then `a gob x4 enter`, `a bugb enter` in the fight."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from textual.widgets import Checkbox, OptionList

import engine.library as L
from engine.rules.cosmere.commands import StartTurn
from saves import library as S
from tests.tui.support import main_screen, sync, type_text
from tui.app import make_app
from tui.main import MainScreen
from tui.start import StartScreen


def roster() -> None:
    Path(os.environ["FRACAS_DATA_DIR"]).mkdir(parents=True, exist_ok=True)
    S.add_to_party(
        "d20",
        [
            L.decode_entry("d20", {"name": "Ayla", "kind": "pc", "side": "party", "hp": 24}),
            L.decode_entry("d20", {"name": "Bren", "kind": "pc", "side": "party", "hp": 30}),
        ],
    )
    members = S.read_party("d20")
    S.write_party("d20", [members[0], S.Member(members[1].statblock, S.Now(health=(S.Track("hp", 21),)))])


async def start(app, pilot) -> None:  # type: ignore[no-untyped-def]
    await app.workers.wait_for_complete()
    await pilot.pause()
    assert isinstance(app.screen, StartScreen)


@sync
async def test_a_new_fight_brings_the_party_then_foes_from_the_library(tmp_path: Path) -> None:
    roster()
    app = make_app(start_screen=True, config_path=tmp_path / "config.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await start(app, pilot)
        rules = app.screen.query_one("#rules", OptionList)
        rules.focus()
        rules.highlighted = [o.id for o in rules._options].index("d20")
        await pilot.pause()
        tick = app.screen.query_one("#with-party", Checkbox)
        assert tick.display and tick.value and "Ayla, Bren" in str(tick.label)
        await pilot.press("enter")  # the rules chosen: on to the name
        await pilot.press("enter")  # the default name: created, with the party
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert isinstance(app.screen, MainScreen)
        s = app.session
        assert s is not None
        assert [c.name for c in s.state.combatants] == ["Ayla", "Bren"]
        assert s.state.combatants[1].health[0].current == 21  # where the last fight left Bren
        # 14 keys in the fight for the foes: a gob x4 enter (8), a bugb enter (6)
        await pilot.press("a")
        await type_text(pilot, "gob x4")
        await pilot.press("enter")
        await pilot.press("a")
        await type_text(pilot, "bugb")
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, MainScreen)
        names = [c.name for c in s.state.combatants]
        assert names == ["Ayla", "Bren", "Goblin 1", "Goblin 2", "Goblin 3", "Goblin 4", "Bugbear"]
        assert main_screen(pilot) is app.screen


@sync
async def test_untick_for_a_fight_without_the_party_and_no_roster_no_tick(tmp_path: Path) -> None:
    roster()
    app = make_app(start_screen=True, config_path=tmp_path / "config.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await start(app, pilot)
        rules = app.screen.query_one("#rules", OptionList)
        rules.highlighted = [o.id for o in rules._options].index("cosmere")
        await pilot.pause()
        assert not app.screen.query_one("#with-party", Checkbox).display  # no Cosmere roster
        rules.highlighted = [o.id for o in rules._options].index("d20")
        await pilot.pause()
        tick = app.screen.query_one("#with-party", Checkbox)
        assert tick.display
        tick.value = False
        app.screen.query_one("#fight-name").focus()
        await pilot.press("enter")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert isinstance(app.screen, MainScreen)
        assert app.session is not None and app.session.state.combatants == ()


@pytest.mark.parametrize(
    ("rid", "pc", "foes", "foe", "boss", "boss_name"),
    [
        (
            "warhammer",
            {"name": "Anke", "kind": "pc", "side": "party", "wounds": 12},
            "gob x4",
            "Goblin",
            "tro",
            "Troll",
        ),
        (
            "cosmere",
            {"name": "Anke", "kind": "pc", "side": "party", "hp": 20},
            "hig x4",
            "Highway Brigand",
            "war",
            "Warcamp Sergeant",
        ),
    ],
)
@sync
async def test_the_same_in_warhammer_and_cosmere(  # type: ignore[no-untyped-def]
    tmp_path: Path, rid, pc, foes, foe, boss, boss_name
) -> None:
    """Issue 13: the party plus four foes and their leader in a few keys, then the third foe's first
    attack is w, enter."""
    Path(os.environ["FRACAS_DATA_DIR"]).mkdir(parents=True, exist_ok=True)
    S.add_to_party(rid, [L.decode_entry(rid, pc)])
    app = make_app(start_screen=True, config_path=tmp_path / "config.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await start(app, pilot)
        rules = app.screen.query_one("#rules", OptionList)
        rules.focus()
        rules.highlighted = [o.id for o in rules._options].index(rid)
        await pilot.pause()
        await pilot.press("enter", "enter")
        await app.workers.wait_for_complete()
        await pilot.pause()
        s = app.session
        assert s is not None and [c.name for c in s.state.combatants] == ["Anke"]
        keys = 0
        for query in (foes, boss):
            await pilot.press("a")
            await type_text(pilot, query)
            await pilot.press("enter")
            keys += 2 + len(query)
        assert keys < 15
        names = [c.name for c in s.state.combatants]
        assert names == ["Anke", f"{foe} 1", f"{foe} 2", f"{foe} 3", f"{foe} 4", boss_name]
        # the third foe's first attack: w, enter (on its turn)
        from engine import commands as C

        third = next(c.id for c in s.state.combatants if c.name == f"{foe} 3")
        app.commit(C.StartFight())
        for _ in range(40):
            if s.state.current == third:
                break
            if rid == "cosmere":
                app.commit(StartTurn(third))
                break
            app.commit(C.NextTurn())
        await pilot.pause()
        before = len(s.history.nodes)
        await pilot.press("w")
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        # the attack was made (an outcome dialog may follow to apply it: its enter too)
        if not isinstance(app.screen, MainScreen):
            await pilot.press("enter")
            await pilot.pause()
        assert isinstance(app.screen, MainScreen)
        cmd = s.history.nodes[s.history.cursor].command
        assert len(s.history.nodes) > before and getattr(cmd, "who", "") == third
