"""A creature added from the library keeps its statblock: its attacks are offered first in the
attack dialog ("Attack" row), the first one chosen, so its first attack is `w`, `enter`. At 80x24;
the assertions are on the commands the dialog sent and the state they produced."""

from __future__ import annotations

from pathlib import Path

import engine.library as L
from engine import commands as C
from engine import new_fight
from engine.rules.cosmere.combat import CosmereAttack
from engine.rules.d20.combat import D20Attack
from engine.rules.warhammer.combat import Attack as WhAttack
from saves.session import Session
from tests.tui.support import app_on, cid, dialog_error, of, sync
from tui.attack import OTHER
from tui.dialogs.fields import Choice
from tui.main import MainScreen
from tui.rulesets.cosmere.dialogs import CosmereOutcomeDialog
from tui.rulesets.d20.dialogs import D20AttackDialog
from tui.rulesets.warhammer.dialogs import WarhammerOutcomeDialog


def fight_of(rid: str, foe: str, count: int, *pcs: C.AddCombatant, seed: int = 5) -> Session:
    """A new fight: the PCs, then `count` of the starter bestiary's `foe`, started, on the first foe's turn."""
    s = Session.memory(new_fight(rid, seed=seed))
    for pc in pcs:
        s.apply(pc)
    sb = next(x for x in L.starter(rid) if x.name == foe)
    s.apply(L.to_add(sb, count)[0])
    s.apply(C.StartFight())
    first = f"{foe} 1" if count > 1 else foe
    while s.state.current != cid(s, first):
        s.apply(C.NextTurn())
    return s


def last_command(s: Session) -> object:
    return s.history.nodes[s.history.cursor].command


def hero(rid: str) -> C.AddCombatant:
    stats = {"d20": [("hp", 40), ("ac", 12)], "cosmere": [("health", 40), ("phy", 12)]}.get(rid, [("wounds", 40)])
    return C.AddCombatant("Ayla", kind="pc", side="party", stats=tuple(stats))


@sync
async def test_d20_first_statblock_attack_is_w_enter(tmp_path: Path) -> None:
    s = fight_of("d20", "Goblin", 2, hero("d20"))
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("w")
        dlg = app.screen
        assert isinstance(dlg, D20AttackDialog)
        assert dlg.choice("weapon_pick") == 0 and dlg.focused is dlg.query_one("#target")
        pick = dlg.query_one("#weapon_pick", Choice)
        assert str(pick.options[0][0]).startswith("Jagged Knife +4, 1d4+2 piercing (reach 5 ft)")
        # at 80 columns the row shows it cut, both arrows kept (issue 25 item 11)
        label = str(pick.render())
        assert label.startswith("◀ Jagged Knife +4, 1d4+2 piercing (reach") and "… ▶" in label, label
        assert (dlg.value("bonus"), dlg.value("damage"), dlg.value("type")) == ("4", "1d4+2", "piercing")
        await pilot.press("enter")
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        cmd = last_command(s)
        assert isinstance(cmd, D20Attack)
        assert (cmd.who, cmd.target) == (cid(s, "Goblin 1"), cid(s, "Ayla"))
        assert (cmd.bonus, cmd.damage, cmd.type, cmd.label, cmd.ability) == (4, "1d4+2", "piercing", "Jagged Knife", "")


@sync
async def test_d20_second_attack_other_and_switching_attackers(tmp_path: Path) -> None:
    s = fight_of("d20", "Goblin", 2, hero("d20"), C.AddCombatant("Bandit", stats=(("hp", 11),)))
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("w")
        dlg = app.screen
        assert isinstance(dlg, D20AttackDialog)
        dlg.query_one("#weapon_pick").value = 1  # Sling
        await pilot.pause()
        assert (dlg.value("label"), dlg.choice("kind"), dlg.value("type")) == ("Sling", "ranged", "bludgeoning")
        dlg.query_one("#weapon_pick").value = OTHER  # the fields stay for the GM to change
        await pilot.pause()
        assert dlg.value("label") == "Sling"
        # a combatant typed by hand has no statblock: the row is hidden, its own fields are empty
        dlg.query_one("#attacker").value = cid(s, "Bandit")
        await pilot.pause()
        assert not dlg.query_one("#r-weapon").display and dlg.value("label") == "" and dlg.value("damage") == ""
        dlg.query_one("#attacker").value = cid(s, "Goblin 2")
        await pilot.pause()
        assert dlg.query_one("#r-weapon").display and dlg.value("label") == "Jagged Knife"
        await pilot.press("escape")


@sync
async def test_d20_an_attack_without_damage_dice_says_it_deals_none(tmp_path: Path) -> None:
    s = fight_of("d20", "Goblin", 1, hero("d20"))
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("w")
        dlg = app.screen
        assert isinstance(dlg, D20AttackDialog)
        assert "No damage dice" not in str(dlg.query_one("#odds").render())
        dlg.query_one("#damage").value = ""
        await pilot.pause()
        assert "No damage dice: a hit deals no damage" in str(dlg.query_one("#odds").render())
        await pilot.press("escape")


@sync
async def test_d20_extra_damage_part_of_another_type_is_dealt_on_a_hit(tmp_path: Path) -> None:
    s = fight_of("d20", "Cinder Hound", 1, hero("d20"))
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("w")
        dlg = app.screen
        assert isinstance(dlg, D20AttackDialog)
        assert "On a hit also 1d4 fire" in str(dlg.query_one("#odds").render())
        dlg.query_one("#given").value = "20"  # a critical: both parts' dice doubled
        await pilot.pause()
        before = len(s.history.nodes)
        await pilot.press("enter")
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        cmds = [n.command for n in s.history.nodes[before:]]
        assert isinstance(cmds[0], D20Attack) and cmds[0].damage == "1d8+2"
        assert cmds[1] == C.Damage(cid(s, "Ayla"), dice="2d4", type="fire", source=cid(s, "Cinder Hound"))
        assert of(s, "Ayla").health[0].current < 40 - 2  # 2d8+2 and 2d4 at least


def test_doubled_dice() -> None:
    doubled = L.doubled
    assert doubled("1d6+2") == "2d6+2" and doubled("d4") == "2d4" and doubled("2d6+1d4-1") == "4d6+2d4-1"


@sync
async def test_cosmere_first_statblock_attack_is_w_enter(tmp_path: Path) -> None:
    s = fight_of("cosmere", "Warcamp Sergeant", 1, hero("cosmere"))
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("w")
        assert "Sidesword +5" in str(app.screen.query_one("#weapon_pick").render())
        await pilot.press("enter")
        outcome = app.screen
        assert isinstance(outcome, CosmereOutcomeDialog), dialog_error(pilot)
        cmd = outcome.cmd
        assert isinstance(cmd, CosmereAttack) and cmd.targets == (cid(s, "Ayla"),)
        assert (cmd.modifier, cmd.damage, cmd.type, cmd.label, cmd.action, cmd.cost) == (
            5,
            "1d8+2",
            "keen",
            "Sidesword",
            "Strike",
            1,
        )
        await pilot.press("escape")


@sync
async def test_cosmere_statblock_action_and_cost_go_with_the_attack(tmp_path: Path) -> None:
    s = fight_of("cosmere", "Gorge Prowler", 1, hero("cosmere"))
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("w")
        app.screen.query_one("#weapon_pick").value = 1  # Pouncing Bite: the Pounce action, 2 actions
        await pilot.pause()
        await pilot.press("enter")
        outcome = app.screen
        assert isinstance(outcome, CosmereOutcomeDialog), dialog_error(pilot)
        assert (outcome.cmd.action, outcome.cmd.cost, outcome.cmd.label) == ("Pounce", 2, "Pouncing Bite")
        await pilot.press("escape")


@sync
async def test_warhammer_first_statblock_weapon_is_w_enter(tmp_path: Path) -> None:
    sb = L.starter("warhammer")[0]
    s = fight_of("warhammer", sb.name, 4, hero("warhammer"))
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("w")
        first = L.attacks(sb)[0]
        pick = app.screen.query_one("#weapon_pick", Choice)
        assert str(pick.options[pick.index][0]) == L.attack_label(sb, first)
        assert str(pick.render()).startswith(f"◀ {L.attack_label(sb, first)[:30]}")  # cut at 80 columns
        await pilot.press("enter")
        outcome = app.screen
        assert isinstance(outcome, WarhammerOutcomeDialog), dialog_error(pilot)
        cmd = outcome.cmd
        want = L.attack_fields(sb, first)
        assert isinstance(cmd, WhAttack) and cmd.target == cid(s, "Ayla")
        assert (cmd.weapon, cmd.kind, cmd.skill, cmd.damage, cmd.impale) == (
            want["weapon"],
            want["kind"],
            want["skill"],
            want["damage"],
            want["impale"],
        )
        await pilot.press("escape")


@sync
async def test_the_last_attack_wins_over_the_statblocks_first(tmp_path: Path) -> None:
    s = fight_of("d20", "Goblin", 2, hero("d20"))
    g1, ayla = cid(s, "Goblin 1"), cid(s, "Ayla")
    sb = L.statblock_of("d20", of(s, "Goblin 1"))
    assert sb is not None
    sling = {k: v for k, v in L.attack_fields(sb, L.attacks(sb)[1]).items()}
    s.apply(D20Attack(g1, ayla, use="none", given=(1,), **sling))  # the sling, as the statblock has it
    s.apply(D20Attack(cid(s, "Goblin 2"), ayla, use="none", given=(1,), **{**sling, "bonus": 7}))  # changed
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("w")
        dlg = app.screen
        assert isinstance(dlg, D20AttackDialog)
        assert dlg.choice("weapon_pick") == 1 and dlg.value("label") == "Sling"
        dlg.query_one("#attacker").value = cid(s, "Goblin 2")
        await pilot.pause()
        # its last attack was typed with another bonus: "other", the fields as it last attacked
        assert dlg.choice("weapon_pick") == OTHER and (dlg.value("label"), dlg.value("bonus")) == ("Sling", "7")
        await pilot.press("escape")


@sync
async def test_d20_the_chosen_attacks_rider_is_shown_under_the_odds(tmp_path: Path) -> None:
    """A statblock attack's rider (a save, a condition) is said in the dialog: cut into the attack's
    one-row label, the GM never saw the DC 11 save."""
    s = fight_of("d20", "Ridge Wolf", 1, hero("d20"))
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("w")
        dlg = app.screen
        assert isinstance(dlg, D20AttackDialog)
        odds = str(dlg.query_one("#odds").render())
        assert "On a hit: DC 11 Str save or Prone" in odds
        await pilot.press("enter")
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        # on a hit the rider goes to the log with the attack (its note after it, one batch)
        node = s.history.nodes[s.history.cursor]
        note, attack = node.command, s.history.nodes[node.parent].command
        assert isinstance(note, C.Note) and isinstance(attack, D20Attack)
        assert note.text == "Ridge Wolf's Bite hit Ayla: DC 11 Str save or Prone"
