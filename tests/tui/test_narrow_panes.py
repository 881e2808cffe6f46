"""On a small screen one detail pane shows at a time (v switches): a pane that was hidden while the
fight went on shows what happened meanwhile when it comes back, not what it showed before."""

from __future__ import annotations

from pathlib import Path

from engine import commands as C
from tests.tui.support import app_on, demo_session, select, sync
from tui.widgets import LogView, Pane


@sync
async def test_the_log_and_the_conditions_catch_up_when_shown_again(tmp_path: Path) -> None:
    s = demo_session("cosmere", start=True)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("v", "v")  # conditions, then the log
        await pilot.press("v")  # back to the sheet: log and conditions hidden
        await select(pilot, "Kaladin")  # the first row is the boss now (its fast turn comes unasked)
        cid = app.screen.selected
        app.commit(C.Damage(cid, 3))
        app.commit(C.AddCondition(cid, "Prone"))
        await pilot.pause()
        await pilot.press("v")  # the conditions
        await pilot.pause()
        assert "Prone" in app.screen.query_one("#conditions", Pane).plain
        await pilot.press("v")  # the log
        await pilot.pause()
        tail = app.screen.query_one(LogView).plain.splitlines()[-2:]
        assert tail[0].endswith("takes 3 damage, 25 left") and tail[1].endswith("is Prone"), tail


@sync
async def test_a_typo_in_a_number_field_is_refused_not_silently_dropped(tmp_path: Path) -> None:
    from tests.tui.support import dialog_error

    s = demo_session("d20")
    before = len(s.state.combatants)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("a")
        await pilot.pause()
        app.screen.query_one("#name").value = "Wolf"
        app.screen.query_one("#stat-hp").value = "1O"  # a letter O for a zero
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert "give a whole number, not '1O'" in dialog_error(pilot)
        assert len(s.state.combatants) == before


@sync
async def test_a_negative_damage_is_refused_in_the_dialog(tmp_path: Path) -> None:
    from tests.tui.support import dialog_error

    s = demo_session("d20", start=True)
    before = s.state
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("d")
        await pilot.pause()
        app.screen.query_one("#amount").value = "-5"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert "positive number or dice, not '-5'" in dialog_error(pilot)
        assert s.state is before


@sync
async def test_help_lists_only_this_rulesets_actions_and_errors_clear_on_change(tmp_path: Path) -> None:
    from tests.tui.support import dialog_error
    from tui.help import HelpScreen

    s = demo_session("d20", start=True)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        text = app.screen._text().plain
        assert "Attack" in text and "Spend Fortune for a slot" not in text and "Choose fast or slow" not in text
        await pilot.press("escape", "d")
        await pilot.pause()
        app.screen.query_one("#amount").value = "-5"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert dialog_error(pilot)
        app.screen.query_one("#amount").value = "5"
        await pilot.pause()
        assert not app.screen.query_one("#error").has_class("-shown")


@sync
async def test_the_attack_odds_and_log_say_what_exhaustion_takes_off(tmp_path: Path) -> None:
    from tests.tui.support import cid

    s = demo_session("d20", start=True)
    s.apply(C.AddCondition(s.state.current, "Exhaustion", level=2))
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("w")
        await pilot.pause()
        assert "Exhaustion -2" in str(app.screen.query_one("#odds").render())
        app.screen.query_one("#target").value = cid(s, "Bandit 1")
        await pilot.press("ctrl+s")
        await pilot.pause()
        from engine import describe

        node = s.history.nodes[s.history.cursor]
        assert any("Exhaustion -2" in describe(e) for e in node.events), [describe(e) for e in node.events]


@sync
async def test_damage_each_turn_is_offered_only_where_conditions_deal_it(tmp_path: Path) -> None:
    for rules, shown in (("d20", True), ("ninephase", False), ("warhammer", False)):
        s = demo_session(rules, start=True)
        app = app_on(s, tmp_path / rules)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("c")
            await pilot.pause()
            row = app.screen.query_one("#dice").parent
            assert row is not None and row.display is shown, rules


@sync
async def test_a_box_shows_an_x_only_when_ticked(tmp_path: Path) -> None:
    from tui.dialogs import Tick

    s = demo_session("cosmere")
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s")
        await pilot.pause()
        box = app.screen.query(Tick).first()
        assert str(box.render()).startswith("▐ ▌")
        box.focus()
        await pilot.press("space")
        await pilot.pause()
        assert box.value and str(box.render()).startswith("▸X◂")  # ticked, and the focused box
        box.blur()
        await pilot.pause()
        assert str(box.render()).startswith("▐X▌")


def test_a_surprised_cosmere_combatant_has_no_reaction_yet_not_a_used_one() -> None:
    from engine import apply, get_ruleset
    from saves.demo import demo_history
    from tui.panes import economy_text

    f = demo_history("cosmere", 2).state
    w1 = next(c.id for c in f.combatants if c.name == "Parshendi Warrior 1")
    f, _ = apply(f, C.StartFight(surprised=(w1,)))
    text = economy_text(f, get_ruleset("cosmere"), f.get(w1)).plain
    assert "Reaction none yet (Surprised)" in text and "Reaction used" not in text
