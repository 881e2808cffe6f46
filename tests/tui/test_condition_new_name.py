"""A condition's name the ruleset and the fight do not know is asked about once (issue 25, item
5d): nine-phase had no catalog, so `pro` + enter made a condition named "pro". Its catalog now has
the states its text names, and enter on an unknown name asks before making it."""

from __future__ import annotations

from pathlib import Path

from engine.ruleset import get_ruleset
from tests.tui.support import app_on, burst, demo_session, dialog_error, main_screen, of, select, sync, type_text
from tui.dialogs import ConditionDialog


def test_nine_phase_names_the_states_its_text_names() -> None:
    conditions = get_ruleset("ninephase").conditions
    assert set(conditions) == {"Quickened", "Debilitated"}
    assert all("phase" in text for text in conditions.values())


@sync
async def test_pro_and_enter_asks_before_making_a_new_condition(tmp_path: Path) -> None:
    s = demo_session("ninephase", start=True)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        who = s.state.combatants[0].name
        await select(pilot, who)
        await pilot.press("c")
        assert isinstance(app.screen, ConditionDialog)
        before = s.state
        await type_text(pilot, "pro")
        await pilot.press("enter")
        assert dialog_error(pilot) == "New condition 'pro'? enter again to make it"
        assert s.state is before and isinstance(app.screen, ConditionDialog)
        # another name is asked about again; the catalog's are not
        await pilot.press("backspace", "backspace", "backspace")
        await type_text(pilot, "deb")
        await pilot.press("enter")
        assert of(s, who).has("Debilitated") and app.screen is main_screen(pilot)


@sync
async def test_enter_again_in_a_burst_makes_it_and_the_fight_offers_it_after(tmp_path: Path) -> None:
    s = demo_session("ninephase", start=True)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        first, second = s.state.combatants[0].name, s.state.combatants[1].name
        await select(pilot, first)
        await burst(pilot, "c", "h", "e", "l", "d", "enter", "enter", settle=0.8)
        assert of(s, first).has("held") and app.screen is main_screen(pilot)
        # used in this fight: offered by name, made with one enter
        await select(pilot, second)
        await burst(pilot, "c", "h", "e", "enter", settle=0.8)
        assert of(s, second).has("held") and app.screen is main_screen(pilot)


@sync
async def test_down_onto_new_condition_chooses_it_without_asking(tmp_path: Path) -> None:
    s = demo_session("d20", start=True)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await select(pilot, "Ysolde")
        await burst(pilot, "c", "p", "r", "o", "down", "enter", settle=0.8)
        assert of(s, "Ysolde").has("pro") and app.screen is main_screen(pilot)
