"""A statblock's abilities at the table (issue 24): `u` (and the attack dialog's "Attack" row) offer
them; one with a save opens the area dialog filled in, one with an attack roll is an attack, Multiattack
makes its attacks one dialog after another, a plain one is used at once, a spent one is refused with
the engine's line. Keys in bursts, at 80x24."""

from __future__ import annotations

from pathlib import Path

from engine import commands as C
from engine.area import AreaEffect
from engine.rules.d20.combat import D20Attack
from tests.tui.statblocks import BOSS, MAGE, WYRM, fight_with
from tests.tui.support import app_on, burst, cid, dialog_error, of, sync
from tui.area import AreaDialog
from tui.main import MainScreen
from tui.rulesets.d20.dialogs import D20AttackDialog, D20UseDialog


def last(s):  # type: ignore[no-untyped-def]
    return s.history.nodes[s.history.cursor].command


@sync
async def test_fire_breath_on_four_pcs_with_the_table_typing_their_saves(tmp_path: Path) -> None:
    s = fight_with(WYRM, turn="Ember Wyrm")
    s.apply(C.Setting("roll_pc", "table"))
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        # u, "fi" picks Fire Breath, enter: the area dialog filled in, the cursor in the first save
        await burst(pilot, "u", "f", "i", "enter")
        dlg = app.screen
        assert isinstance(dlg, AreaDialog), dialog_error(pilot)
        assert (dlg.value("amount"), dlg.value("type"), dlg.choice("save"), dlg.value("dc")) == (
            "18d6",
            "fire",
            "dex",
            "21",
        )
        assert dlg.value("label") == "Fire Breath" and dlg.choice("none") is False
        ticked = [c.name for n, c in enumerate(dlg.targets) if dlg.checked(f"hit-{n}")]
        assert sorted(ticked) == ["Ayla", "Bram", "Cato", "Dara"]
        # the four saves: each total, enter goes on to the next one owed, and applies after the last
        await burst(pilot, "2", "1", "enter", "3", "enter", "2", "2", "enter", "9", "enter")
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        cmd = last(s)
        assert isinstance(cmd, AreaEffect)
        assert (cmd.ability, cmd.spend, cmd.dc, cmd.save, cmd.dice) == (
            "Fire Breath",
            (("Fire Breath", 1),),
            21,
            "dex",
            "18d6",
        )
        assert sorted(t.total for t in cmd.targets) == [3, 9, 21, 22]
        assert of(s, "Ember Wyrm").pool("Fire Breath").current == 0
        # spent: refused in the use dialog with the engine's line
        await burst(pilot, "u", "f", "i", "enter")
        assert isinstance(app.screen, D20UseDialog)
        assert "Fire Breath" in dialog_error(pilot) and "5-6" in dialog_error(pilot)


@sync
async def test_a_save_spell_on_the_selected_target_spends_a_slot(tmp_path: Path) -> None:
    s = fight_with(MAGE, turn="Court Mage")
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        app.screen.select(cid(s, "Bram"))  # type: ignore[attr-defined]
        await burst(pilot, "u", "b", "i", "enter")
        dlg = app.screen
        assert isinstance(dlg, AreaDialog), dialog_error(pilot)
        ticked = [c.name for n, c in enumerate(dlg.targets) if dlg.checked(f"hit-{n}")]
        assert ticked == ["Bram"] and dlg.value("condition") == "Restrained" and dlg.value("dc") == "14"
        await burst(pilot, "enter")
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        cmd = last(s)
        assert isinstance(cmd, AreaEffect) and cmd.condition == "Restrained" and cmd.spend == (("Spell slots 2", 1),)
        # a save against the condition alone: no amount, so the log says no "0 damage"
        assert cmd.amount is None and not cmd.dice
        assert "damage" not in s.history.nodes[s.history.cursor].events[0].text()
        assert of(s, "Court Mage").pool("Spell slots 2").current == 2


@sync
async def test_a_spell_attack_is_an_attack_that_spends_nothing_as_a_cantrip(tmp_path: Path) -> None:
    s = fight_with(MAGE, turn="Court Mage")
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await burst(pilot, "u", "s", "p", "enter")
        dlg = app.screen
        assert isinstance(dlg, D20AttackDialog), dialog_error(pilot)
        assert (dlg.value("bonus"), dlg.value("damage"), dlg.value("type"), dlg.value("label")) == (
            "6",
            "2d10",
            "fire",
            "Spark",
        )
        await burst(pilot, "enter")
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        cmd = last(s)
        assert isinstance(cmd, D20Attack) and cmd.label == "Spark" and cmd.bonus == 6 and cmd.spend == ()


@sync
async def test_multiattack_makes_its_attacks_in_turn(tmp_path: Path) -> None:
    s = fight_with(WYRM, turn="Ember Wyrm")
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        app.screen.select(cid(s, "Cato"))  # type: ignore[attr-defined]
        await burst(pilot, "u", "m", "u", "enter")
        dlg = app.screen
        assert isinstance(dlg, D20AttackDialog), dialog_error(pilot)
        assert "Multiattack 1/3: Bite" in str(dlg.query_one("#heading").render())
        await burst(pilot, "enter")
        dlg = app.screen
        assert isinstance(dlg, D20AttackDialog), dialog_error(pilot)
        assert "Multiattack 2/3: Claw" in str(dlg.query_one("#heading").render())
        assert dlg.choice("use") == "none"
        await burst(pilot, "enter", "enter")
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        attacks = [n.command for n in s.history.nodes if isinstance(n.command, D20Attack)]
        assert [a.label for a in attacks] == ["Bite", "Claw", "Claw"]
        assert [a.use for a in attacks] == ["action", "none", "none"]
        assert {a.target for a in attacks} == {cid(s, "Cato")}


@sync
async def test_parry_is_used_at_once_and_the_attack_dialog_offers_the_breath(tmp_path: Path) -> None:
    s = fight_with(BOSS, WYRM, turn="Ayla")
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        app.screen.select(cid(s, "Bandit Chief"))  # type: ignore[attr-defined]
        await burst(pilot, "u", "tab")  # not its turn: the user row first, then What
        dlg = app.screen
        assert isinstance(dlg, D20UseDialog)
        dlg.query_one("#user").value = cid(s, "Bandit Chief")
        await burst(pilot, "shift+tab")
        dlg.query_one("#what").focus()
        await burst(pilot, "p", "a", "r", "enter")
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        cmd = last(s)
        assert isinstance(cmd, C.UseAbility) and cmd.name == "Parry" and cmd.act == "reaction"
    s = fight_with(WYRM, turn="Ember Wyrm")
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await burst(pilot, "w", "shift+tab", "shift+tab", "f", "i", "enter")
        assert isinstance(app.screen, AreaDialog), dialog_error(pilot)
        assert app.screen.value("label") == "Fire Breath"
