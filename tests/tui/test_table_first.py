"""The table's dice, fast (issue 14, item 3): when the table rolls for a side, the attack dialogs ask
for the die first (the attacker and target in sight at 80x24), show hit or miss from it, and ask for
damage dice only on a hit; initiative is typed as the die or as the total the player calls out."""

from __future__ import annotations

from pathlib import Path

from textual.widget import Widget
from textual.widgets import Input

from engine import commands as C
from engine.rules.cosmere.commands import StartTurn
from tests.tui.support import app_on, cid, demo_session, dialog_error, of, sync
from tui.dialogs import Choice, InitiativeDialog, StartDialog, TableRollsDialog
from tui.main import MainScreen
from tui.rulesets.cosmere.dialogs import CosmereAttackDialog, CosmereOutcomeDialog
from tui.rulesets.d20.dialogs import D20AttackDialog
from tui.rulesets.warhammer.dialogs import WarhammerAttackDialog, WarhammerOutcomeDialog


def odds_text(app) -> str:  # type: ignore[no-untyped-def]
    return str(app.screen.query_one("#odds").render())


async def fill(pilot, wid: str, text: str) -> None:  # type: ignore[no-untyped-def]
    pilot.app.screen.query_one(f"#{wid}", Input).value = text
    await pilot.pause()


def in_sight(dialog: Widget, wid: str) -> bool:
    """The widget is drawn inside the dialog's scrolling fields at this screen size."""
    w = dialog.query_one(f"#{wid}")
    fields = dialog.query_one("#fields")
    return w.region.height > 0 and fields.region.contains_region(w.region)


def first_field(dialog: Widget) -> str:
    return next(w.id or "" for w in dialog.query("#fields Input, #fields Choice, #fields Checkbox") if w.display)


def shown(dialog: Widget, rid: str) -> bool:
    r = dialog.query_one(f"#{rid}")
    return bool(r.display) and not r.has_class("hidden")


def hint(dialog: Widget, wid: str) -> str:
    return str(dialog.query_one(f"#{wid}", Input).placeholder)


def pc_table(rules: str, *then: C.Command):  # type: ignore[no-untyped-def]
    return demo_session(rules, start=True, then=(C.Setting("roll_pc", "table"), *then))


# --- d20 -------------------------------------------------------------------------------------------


@sync
async def test_d20_a_miss_from_the_table_die_goes_with_no_damage_asked(tmp_path: Path) -> None:
    s = pc_table("d20")
    bandit = cid(s, "Bandit 1")  # AC 12
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        assert s.state.current == cid(s, "Brannoc")
        before = s.state
        await pilot.press("w")
        dlg = app.screen
        assert isinstance(dlg, D20AttackDialog)
        assert first_field(dlg) == "given" and app.focused is dlg.query_one("#given")
        assert in_sight(dlg, "attacker") and in_sight(dlg, "target")
        assert dlg.query_one("#ok").region.bottom <= 24  # the buttons are on screen
        dlg.query_one("#target", Choice).value = bandit
        await fill(pilot, "damage", "1d8")
        # no die yet: the damage dice's field is there (the layout never moves) and says it is for a hit
        assert shown(dlg, "r-dgiven") and hint(dlg, "damage_given").startswith("on a hit")
        await pilot.press("3")  # 3 + 2 = 5 vs AC 12
        await pilot.pause()
        assert "MISS" in odds_text(app) and "no damage: enter sends it" in odds_text(app)
        assert shown(dlg, "r-dgiven") and hint(dlg, "damage_given") == dlg.MISS_HINT
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        assert of(s, "Bandit 1").health[0].current == 11
        assert s.history.nodes[s.history.nodes[s.history.cursor].parent].state == before  # one step
        await pilot.press("ctrl+z")
        assert s.state == before


@sync
async def test_d20_a_hit_shows_then_asks_the_damage_dice_in_one_command(tmp_path: Path) -> None:
    s = pc_table("d20")
    bandit = cid(s, "Bandit 1")
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        before = s.state
        await pilot.press("w")
        dlg = app.screen
        assert isinstance(dlg, D20AttackDialog)
        dlg.query_one("#target", Choice).value = bandit
        await fill(pilot, "damage", "1d8")
        await fill(pilot, "given", "15")  # 17 vs AC 12
        assert "HIT" in odds_text(app) and "type the damage dice" in odds_text(app)
        assert shown(dlg, "r-dgiven")
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, D20AttackDialog)
        assert "now type the damage dice rolled (1d8)" in dialog_error(pilot)
        assert app.focused is dlg.query_one("#damage_given")
        assert s.state == before
        await pilot.press("6", "enter")
        await pilot.pause()
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        assert of(s, "Bandit 1").health[0].current == 11 - 6  # Str +0
        assert s.history.nodes[s.history.nodes[s.history.cursor].parent].state == before
        await pilot.press("ctrl+z")
        assert s.state == before


@sync
async def test_d20_a_natural_20_says_critical_and_the_app_side_keeps_its_order(tmp_path: Path) -> None:
    s = pc_table("d20")
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("w")
        await fill(pilot, "damage", "1d8")
        await fill(pilot, "given", "20")
        assert "CRITICAL HIT" in odds_text(app) and "every die twice" in odds_text(app)
        await pilot.press("escape")
    # the app rolls for NPCs: the dialog keeps its usual order and asks nothing of the table
    s2 = demo_session("d20", start=True)
    app2 = app_on(s2, tmp_path)
    async with app2.run_test(size=(80, 24)) as pilot:
        await pilot.press("w")
        dlg = app2.screen
        assert isinstance(dlg, D20AttackDialog)
        assert first_field(dlg) != "given" and shown(dlg, "r-dgiven")


# --- Cosmere ---------------------------------------------------------------------------------------


@sync
async def test_cosmere_the_die_first_then_damage_only_when_it_hits(tmp_path: Path) -> None:
    s = pc_table("cosmere")
    w1 = cid(s, "Parshendi Warrior 1")  # Physical 14
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        app.commit(StartTurn(cid(s, "Kaladin")))
        await pilot.pause()
        before = s.state
        await pilot.press("w")
        dlg = app.screen
        assert isinstance(dlg, CosmereAttackDialog)
        assert first_field(dlg) == "given" and app.focused is dlg.query_one("#given")
        assert in_sight(dlg, "attacker") and in_sight(dlg, f"t-{dlg._slots[w1]}")
        for box in list(dlg.query("Tick")):
            if (box.id or "").startswith("t-"):
                box.value = (box.id or "") == f"t-{dlg._slots[w1]}"  # type: ignore[attr-defined]
        await fill(pilot, "modifier", "4")
        await fill(pilot, "damage", "1d8")
        await fill(pilot, "given", "12")  # 16 vs Physical 14: a hit
        assert "HIT" in odds_text(app) and shown(dlg, "r-dgiven")
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, CosmereAttackDialog)
        assert "now type the damage dice rolled (1d8)" in dialog_error(pilot)
        assert app.focused is dlg.query_one("#damage_given")
        await pilot.press("5", "enter")
        await pilot.pause()
        assert isinstance(app.screen, CosmereOutcomeDialog), dialog_error(pilot)
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        assert of(s, "Parshendi Warrior 1").hp < before.get(w1).hp
        await pilot.press("ctrl+z")
        assert s.state == before


# --- Warhammer -------------------------------------------------------------------------------------


@sync
async def test_warhammer_the_d100_first_a_miss_asks_for_nothing_more(tmp_path: Path) -> None:
    s = pc_table("warhammer")
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        while s.state.current != cid(s, "Ulfberth"):
            app.commit(C.NextTurn())
        await pilot.pause()
        before = s.state
        await pilot.press("w")
        dlg = app.screen
        assert isinstance(dlg, WarhammerAttackDialog)
        assert first_field(dlg) == "given_attack" and app.focused is dlg.query_one("#given_attack")
        assert in_sight(dlg, "attacker") and in_sight(dlg, "target")
        assert shown(dlg, "r-gdamage") and shown(dlg, "r-gcritical")  # always there: the layout never moves
        assert hint(dlg, "given_damage").startswith("on a hit")
        await pilot.press("9", "5")  # 95: a miss whatever the skill
        await pilot.pause()
        assert "MISS" in odds_text(app) and hint(dlg, "given_damage") == dlg.MISS_HINT
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, WarhammerOutcomeDialog), dialog_error(pilot)
        await pilot.press("escape")
        await pilot.pause()
        # a hit: the d10 is asked for before the roll goes on
        await pilot.press("w")
        dlg = app.screen
        assert isinstance(dlg, WarhammerAttackDialog)
        await fill(pilot, "given_attack", "14")
        assert "HIT" in odds_text(app) and shown(dlg, "r-gdamage")
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, WarhammerAttackDialog)
        assert "d10 damage die" in dialog_error(pilot) and app.focused is dlg.query_one("#given_damage")
        assert s.state == before


# --- initiative: the die or the total ----------------------------------------------------------------


@sync
async def test_the_start_takes_a_called_out_total_and_shows_what_each_gives(tmp_path: Path) -> None:
    s = demo_session("d20", then=(C.Setting("roll_pc", "table"),))
    app = app_on(s, tmp_path)
    brannoc = s.state.combatants.index(of(s, "Brannoc"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s")
        dlg = app.screen
        assert isinstance(dlg, StartDialog)
        assert app.focused is dlg.query_one(f"#init-{brannoc}")
        await pilot.press("1", "4")
        await pilot.pause()
        shown_text = str(dlg.query_one(f"#shown-{brannoc}").render())
        bonus = (of(s, "Brannoc").stat("dex", 10) - 10) // 2 + of(s, "Brannoc").stat("init")
        assert shown_text == f"= {14 + bonus}"
        dlg.query_one("#init_typed", Choice).value = "total"
        await pilot.pause()
        assert str(dlg.query_one(f"#shown-{brannoc}").render()) == "= 14"
        for i, c in enumerate(s.state.combatants):
            if c.kind == "pc" and dlg.query(f"#init-{i}") and i != brannoc:
                dlg.query_one(f"#init-{i}", Input).value = "9"
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        assert of(s, "Brannoc").initiative == 14  # the total as called out
        assert s.state.setting("init_typed") == "total"  # the next dialog opens the same way
        await pilot.press("i")
        dlg = app.screen
        assert isinstance(dlg, InitiativeDialog)
        assert dlg.query_one("#init_typed", Choice).value == "total"


@sync
async def test_the_initiative_dialog_reads_a_die_by_the_rulesets_path(tmp_path: Path) -> None:
    s = demo_session("warhammer", start=True)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        troll = of(s, "Troll")
        from tests.tui.support import select

        await select(pilot, "Troll")
        await pilot.press("i")
        dlg = app.screen
        assert isinstance(dlg, InitiativeDialog)
        assert app.focused is dlg.query_one("#initiative")
        dlg.query_one("#init_typed", Choice).value = "die"
        await fill(pilot, "initiative", "05")
        target = troll.stat("i")
        sl = target // 10 - 0
        assert str(dlg.query_one("#shown-initiative").render()) == f"= SL {sl:+d}"
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        assert of(s, "Troll").initiative == sl


@sync
async def test_start_of_turn_rolls_take_the_total_too(tmp_path: Path) -> None:
    s = demo_session("d20", start=True, then=(C.Setting("roll_pc", "table"), C.Setting("roll_npc", "table")))
    nxt = s.state.order[(s.state.order.index(s.state.current) + 1) % len(s.state.order)]
    s.apply(C.AddCondition(nxt, "Bleeding", dice="1d4"))
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        hp = s.state.get(nxt).hp
        await pilot.press("n")
        await pilot.pause()
        dlg = app.screen
        assert isinstance(dlg, TableRollsDialog)
        assert app.focused is dlg.query_one("#roll-0")
        await pilot.press("3")
        await pilot.pause()
        assert str(dlg.query_one("#shown-0").render()) == "= 3"
        dlg.query_one("#typed", Choice).value = "total"
        await fill(pilot, "roll-0", "9")  # more than a d4 shows: the engine says so in the dialog
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, TableRollsDialog) and dialog_error(pilot)
        await fill(pilot, "roll-0", "4")
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        assert s.state.get(nxt).hp == hp - 4
