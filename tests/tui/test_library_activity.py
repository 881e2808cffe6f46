"""Nine-phase: a creature added from the library offers its statblock activities first in the
activity dialog (`u`); the first is `u`, `enter`, with the weapon's Speed Factor already known."""

from __future__ import annotations

from pathlib import Path

import engine.library as L
from engine import commands as C
from engine import new_fight
from saves.session import Session
from tests.tui.support import app_on, dialog_error, of, select, sync
from tui.main import MainScreen
from tui.rulesets.ninephase.dialogs import ActivityDialog


def fight_with(name: str) -> Session:
    s = Session.memory(new_fight("ninephase", seed=3))
    s.apply(C.AddCombatant("Aldric", kind="pc", side="party", stats=(("hp", 30),)))
    s.apply(L.to_add(next(x for x in L.starter("ninephase") if x.name == name))[0])
    s.apply(C.StartFight())
    return s


@sync
async def test_statblock_activities_are_offered_first(tmp_path: Path) -> None:
    s = fight_with("Goblin Skulker")
    while s.state.phase < 2:
        s.apply(C.NextTurn())
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await select(pilot, "Goblin Skulker")
        await pilot.press("u")
        dlg = app.screen
        assert isinstance(dlg, ActivityDialog)
        first = dlg.query_one("#activities").get_option_at_index(0)
        assert str(first.prompt).startswith("Knife Jab")
        await pilot.press("enter")  # the weapon's Speed Factor (2) is the statblock's: nothing asked
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        uses = of(s, "Goblin Skulker").economy.phases
        assert [(u.phase, u.activity) for u in uses] == [(2, "Knife Jab")]


@sync
async def test_a_statblock_activity_spends_its_resource(tmp_path: Path) -> None:
    s = fight_with("Ember Adept")
    while s.state.phase < 3:
        s.apply(C.NextTurn())
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await select(pilot, "Ember Adept")
        await pilot.press("u", "down", "enter")  # Cinder Burst: a channel from phase 3, spends an ember
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        adept = of(s, "Ember Adept")
        assert adept.pool("embers").current == 2 and adept.channels[0].activity == "Cinder Burst"
