"""The attack dialogs at the table (issue 14's leftovers): with the table's dice the fields never move
(the damage dice's field is always there and says what the die asks of it), so the same keys land in
the same fields whatever the die shows; a weapon typed by hand is the target, then bonus, tab,
damage; Cosmere's target boxes are one stop for tab and carry the focus mark, as does its `f` dialog.
Driven at 80x24, keys typed in one burst as a GM types them."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Input, Static

from engine import commands as C
from engine.rules.cosmere.commands import StartTurn
from tests.tui.support import app_on, burst, cid, demo_session, dialog_error, of, select, sync
from tests.tui.test_dialog_focus import marked
from tui.dialogs import Dialog
from tui.main import MainScreen
from tui.rulesets.cosmere.dialogs import TARGETS_LABEL, CosmereAttackDialog, CosmereOutcomeDialog, SpeedDialog
from tui.rulesets.d20.dialogs import D20AttackDialog
from tui.rulesets.warhammer.dialogs import WarhammerAttackDialog, WarhammerOutcomeDialog


def chain(dialog: Dialog) -> list[str]:
    """The ids of the dialog's fields in tab order (what tab walks, the buttons left out)."""
    fields = dialog.query_one("#fields")
    return [w.id or "" for w in dialog.focus_chain if fields in w.ancestors]


def hint(dialog: Dialog, wid: str) -> str:
    return str(dialog.query_one(f"#{wid}", Input).placeholder)


async def type_die(pilot, wid: str, text: str) -> None:  # type: ignore[no-untyped-def]
    pilot.app.screen.query_one(f"#{wid}", Input).value = text
    await pilot.pause()


def last(s):  # type: ignore[no-untyped-def]
    return s.history.nodes[s.history.cursor].command


def pc_table(rules: str):  # type: ignore[no-untyped-def]
    return demo_session(rules, start=True, then=(C.Setting("roll_pc", "table"),))


# --- 1. the table's dice: a layout that does not move ------------------------------------------------


@sync
async def test_d20_table_dice_the_fields_stay_put_before_the_die_on_a_miss_and_on_a_hit(tmp_path: Path) -> None:
    s = pc_table("d20")
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await select(pilot, "Bandit 1")  # AC 12; Brannoc's turn: d20 +2
        await pilot.press("w")
        dlg = app.screen
        assert isinstance(dlg, D20AttackDialog)
        await type_die(pilot, "damage", "1d8")
        opened = chain(dlg)
        assert opened[:2] == ["given", "damage_given"]  # the die, then the damage dice just below
        assert hint(dlg, "damage_given") == "on a hit: each die, 6 or 3 5"
        await type_die(pilot, "given", "3")  # 5: a miss
        assert chain(dlg) == opened and hint(dlg, "damage_given") == dlg.MISS_HINT
        await type_die(pilot, "given", "15")  # 17: a hit
        assert chain(dlg) == opened and hint(dlg, "damage_given").startswith("a hit: each damage die")
        await type_die(pilot, "given", "20")
        assert chain(dlg) == opened and hint(dlg, "damage_given").startswith("critical:")
        await type_die(pilot, "damage", "")  # no damage dice: nothing to type on a hit either
        await type_die(pilot, "given", "15")
        assert chain(dlg) == opened and "none needed" in hint(dlg, "damage_given")


async def d20_table_attack(tmp_path: Path, die: str):  # type: ignore[no-untyped-def]
    """One attack by Brannoc on Bandit 1, the table's dice typed as a GM does, in one burst: the die,
    tab, the damage die, four tabs (attacker, target, bonus) to the damage dice, 1d8, enter."""
    s = pc_table("d20")
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await select(pilot, "Bandit 1")
        before = s.state
        await burst(pilot, "w", *die, "tab", "6", "tab", "tab", "tab", "tab", "1", "d", "8", "enter", settle=0.8)
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        assert s.history.nodes[s.history.nodes[s.history.cursor].parent].state == before  # one step
        return s, last(s)


@sync
async def test_d20_the_same_keys_on_a_miss_send_the_miss_without_damage(tmp_path: Path) -> None:
    s, cmd = await d20_table_attack(tmp_path, "3")  # 5 vs AC 12
    assert cmd.damage == "1d8" and cmd.given == (3,)
    assert cmd.damage_given is None  # the 6 typed for a hit that did not come is not sent
    assert of(s, "Bandit 1").health[0].current == 11


@sync
async def test_d20_the_same_keys_on_a_hit_deal_the_damage_die_typed(tmp_path: Path) -> None:
    s, cmd = await d20_table_attack(tmp_path, "15")  # 17 vs AC 12
    assert cmd.damage == "1d8" and cmd.given == (15,) and cmd.damage_given == (6,)
    assert of(s, "Bandit 1").health[0].current == 11 - 6  # Str +0


@sync
async def test_cosmere_table_dice_the_fields_stay_put_before_and_after_the_die(tmp_path: Path) -> None:
    s = pc_table("cosmere")
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        app.commit(StartTurn(cid(s, "Kaladin")))
        await pilot.pause()
        await pilot.press("w")
        dlg = app.screen
        assert isinstance(dlg, CosmereAttackDialog)
        opened = chain(dlg)
        assert opened[:2] == ["given", "damage_given"] and hint(dlg, "damage_given").startswith("on a hit")
        await type_die(pilot, "given", "1")  # a miss (it may still graze: the damage dice are needed)
        assert chain(dlg) == opened
        await type_die(pilot, "given", "18")
        assert chain(dlg) == opened and hint(dlg, "damage_given").startswith("a hit or a graze")


@sync
async def test_warhammer_table_dice_the_fields_stay_put_on_a_miss_a_hit_and_a_critical(tmp_path: Path) -> None:
    s = pc_table("warhammer")
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        while s.state.current != cid(s, "Ulfberth"):  # WS 48
            app.commit(C.NextTurn())
        await pilot.pause()
        await select(pilot, "Troll")  # 30 Wounds: a low d10 leaves it standing, a goblin's 6 may not
        await pilot.press("w")
        dlg = app.screen
        assert isinstance(dlg, WarhammerAttackDialog)
        opened = chain(dlg)
        assert opened[:3] == ["given_attack", "given_damage", "given_critical"]
        await type_die(pilot, "given_attack", "95")
        assert chain(dlg) == opened and hint(dlg, "given_damage") == dlg.MISS_HINT
        await type_die(pilot, "given_attack", "14")
        assert chain(dlg) == opened and hint(dlg, "given_damage").startswith("a hit")
        # whether the critical's d100 is needed comes with the d10 (past 0 Wounds, or not)
        assert hint(dlg, "given_critical") == "if the d10 takes it past 0 Wounds: the d100"
        await type_die(pilot, "given_damage", "1")
        assert chain(dlg) == opened and hint(dlg, "given_critical") == "a hit, no critical: not needed"
        dlg.query_one("#target").value = cid(s, "Goblin 1")  # type: ignore[attr-defined]
        await type_die(pilot, "given_damage", "10")  # 6 Wounds: past 0, a critical
        assert chain(dlg) == opened and hint(dlg, "given_critical").startswith("a critical")
        dlg.query_one("#target").value = cid(s, "Troll")  # type: ignore[attr-defined]
        await type_die(pilot, "given_damage", "")
        await type_die(pilot, "given_attack", "11")  # a double under the skill: a critical
        assert chain(dlg) == opened and hint(dlg, "given_critical").startswith("a critical")
        # a hit: the d10 in the field just below the die, then enter
        await type_die(pilot, "given_attack", "14")
        await burst(pilot, "tab", "7", "enter", settle=0.6)
        assert isinstance(app.screen, WarhammerOutcomeDialog), dialog_error(pilot)
        assert app.screen.cmd.given_damage == (7,)


# --- 2. a weapon typed by hand: target, bonus, tab, damage -------------------------------------------


@sync
async def test_d20_a_weapon_typed_by_hand_is_w_tab_bonus_tab_damage_enter(tmp_path: Path) -> None:
    s = demo_session("d20", start=True)
    app = app_on(s, tmp_path)
    assert s.state.current == cid(s, "Brannoc")  # a PC: no statblock, the "Attack" row is hidden
    async with app.run_test(size=(80, 24)) as pilot:
        await select(pilot, "Bandit 1")
        await pilot.press("w")
        dlg = app.screen
        assert isinstance(dlg, D20AttackDialog)
        order = chain(dlg)
        at = order.index("target")
        assert app.focused is dlg.query_one("#target")
        # what is typed for an attack by hand right after the target; the modifiers after it
        assert order[at : at + 5] == ["target", "bonus", "damage", "type", "label"]
        assert order.index("mod") > order.index("what") > order.index("label")
        await pilot.press("escape")
        await pilot.pause()
        before = s.state
        keys = ["w", "tab", "5", "tab", "1", "d", "8", "tab", "f", "i", "r", "e", "enter"]
        control = [k for k in keys if len(k) > 1 or k == "w"]
        assert control == ["w", "tab", "tab", "tab", "enter"]  # 5 keys besides what is typed, type included
        await burst(pilot, *keys, settle=0.8)
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        cmd = last(s)
        assert (cmd.target, cmd.bonus, cmd.ability, cmd.damage, cmd.type) == (cid(s, "Bandit 1"), 5, "", "1d8", "fire")
        assert s.history.nodes[s.history.nodes[s.history.cursor].parent].state == before


@sync
async def test_warhammer_a_weapon_typed_by_hand_has_its_damage_right_after_the_target(tmp_path: Path) -> None:
    s = demo_session("warhammer", start=True)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        while s.state.current != cid(s, "Ulfberth"):
            app.commit(C.NextTurn())
        await pilot.pause()
        await select(pilot, "Goblin 1")
        await pilot.press("w")
        dlg = app.screen
        assert isinstance(dlg, WarhammerAttackDialog)
        order = chain(dlg)
        at = order.index("target")
        assert order[at : at + 4] == ["target", "damage", "modifier", "weapon"]
        assert app.focused is dlg.query_one("#target")
        await burst(pilot, "tab", "6", "tab", "2", "0", "enter", settle=0.6)  # damage 6, an easy +20 test
        assert isinstance(app.screen, WarhammerOutcomeDialog), dialog_error(pilot)
        assert (app.screen.cmd.damage, app.screen.cmd.modifier) == (6, 20)


@sync
async def test_cosmere_the_target_boxes_are_one_tab_stop_before_the_modifier_and_damage(tmp_path: Path) -> None:
    s = demo_session("cosmere", start=True)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        app.commit(StartTurn(cid(s, "Kaladin")))
        await pilot.pause()
        await pilot.press("w")
        dlg = app.screen
        assert isinstance(dlg, CosmereAttackDialog)
        foe = dlg.box("t", dlg.default_target())
        assert app.focused is foe
        # from the foe's box: tab, the skill modifier; tab, the damage dice (they were 6 and 7 tabs away)
        await burst(pilot, "tab", "3", "tab", "2", "d", "6", "enter", settle=0.6)
        assert isinstance(app.screen, CosmereOutcomeDialog), dialog_error(pilot)
        cmd = app.screen.cmd
        assert (cmd.targets, cmd.modifier, cmd.damage) == ((dlg.default_target(),), 3, "2d6")


@sync
async def test_cosmere_up_down_walk_the_boxes_and_shift_tab_comes_back_to_the_box_left(tmp_path: Path) -> None:
    s = demo_session("cosmere", start=True)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        app.commit(StartTurn(cid(s, "Kaladin")))
        await pilot.pause()
        await pilot.press("w")
        dlg = app.screen
        assert isinstance(dlg, CosmereAttackDialog)
        boxes = dlg.target_boxes("t")
        assert dlg.box("t", cid(s, "Kaladin")) not in boxes  # the attacker is no target of its own
        start = boxes.index(app.focused)  # type: ignore[arg-type]
        await pilot.press("down")
        assert app.focused is boxes[start + 1]
        await pilot.press("space")  # a second target
        assert boxes[start + 1].value and boxes[start].value
        await pilot.press("right")  # its cannot-sense box
        assert app.focused is dlg.target_boxes("u")[start + 1]
        await pilot.press("left", "tab")
        assert app.focused is dlg.query_one("#modifier")
        await pilot.press("shift+tab")
        assert app.focused is boxes[start + 1]  # back where tab left
        await pilot.press("shift+tab")
        assert app.focused is dlg.query_one("#attacker")  # above the boxes
        await pilot.press("tab")  # onto the list again: the box it left (the list is one stop)
        assert app.focused is boxes[start + 1]
        for _ in range(len(boxes) + 1):
            await pilot.press("up")
        assert app.focused is boxes[0]  # up stops at the top


# --- 3. Cosmere's focus marks --------------------------------------------------------------------


@sync
async def test_cosmere_target_boxes_and_the_fast_slow_dialog_carry_the_focus_mark(tmp_path: Path) -> None:
    s = demo_session("cosmere", start=True)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        app.commit(StartTurn(cid(s, "Kaladin")))
        await pilot.pause()
        await pilot.press("w")
        dlg = app.screen
        assert isinstance(dlg, CosmereAttackDialog)
        focused = app.focused
        assert focused is not None and focused.parent is not None
        row_label = focused.parent.query_one(".label", Static)
        assert row_label.has_class("-focus") and len(marked(dlg)) == 1  # the focused box's row is marked
        boxes = dlg.target_boxes("t")
        for _ in boxes:
            await pilot.press("up")
        assert app.focused is boxes[0] and marked(dlg) == [TARGETS_LABEL]  # the first row says what they are
        await pilot.press("right")  # its cannot-sense box: the same row's mark
        assert marked(dlg) == [TARGETS_LABEL]
        await pilot.press("down")
        assert marked(dlg) == [""]  # the next row: its own (blank) label is marked
        await pilot.press("tab")
        assert marked(dlg) == ["Skill modifier"]
        # the attacker changed: the label moves to the first row shown, the mark stays right
        await pilot.press("shift+tab", "shift+tab")
        assert marked(dlg) == ["Attacker"]
        dlg.query_one("#attacker").value = cid(s, "Shallan")  # type: ignore[attr-defined]
        await pilot.pause()
        assert marked(dlg) == ["Attacker"]
        first_row = dlg.target_boxes("t")[0].parent
        assert first_row is not None and str(first_row.query_one(".label", Static).content) == TARGETS_LABEL
        await pilot.press("escape")
        await pilot.pause()
        # f: fast or slow, for a combatant not acting yet
        await select(pilot, "Shallan")
        await pilot.press("f")
        await pilot.pause()
        speed = app.screen
        assert isinstance(speed, SpeedDialog)
        assert marked(speed) == ["This round"]


@sync
async def test_cosmere_outcome_boxes_carry_the_focus_mark(tmp_path: Path) -> None:
    s = pc_table("cosmere")
    w1 = cid(s, "Parshendi Warrior 1")  # Physical 14
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        app.commit(StartTurn(cid(s, "Kaladin")))
        await pilot.pause()
        await select(pilot, "Parshendi Warrior 1")
        await pilot.press("w")
        dlg = app.screen
        assert isinstance(dlg, CosmereAttackDialog) and dlg.ticked("t", w1)
        # a miss: 1 + 5 vs 14, with a damage die for the graze, in the field just below the die
        await burst(pilot, "1", "tab", "4", "enter", settle=0.6)
        out = app.screen
        assert isinstance(out, CosmereOutcomeDialog), dialog_error(pilot)
        assert app.focused is out.graze_box(w1) and marked(out) == ["Graze"]
