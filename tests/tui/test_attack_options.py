"""The attack dialogs' newer options, driven at 80x24: a d20 bonus worked out from the ability and
proficiency; Cosmere range, distance and an ally beside the target (and the Complication that grazes
it); Cosmere's granted actions and reactions from the palette; Warhammer's ruling on the defender's
awareness. Every assertion is on the engine state the dialog produced."""

from __future__ import annotations

from pathlib import Path

from engine import commands as C
from engine.rules.cosmere.commands import StartTurn
from tests.tui.support import app_on, cid, demo_session, dialog_error, main_screen, of, select, sync
from tui.main import MainScreen
from tui.rulesets.cosmere.dialogs import CosmereAttackDialog, CosmereGrantDialog, CosmereOutcomeDialog
from tui.rulesets.d20.dialogs import D20AttackDialog
from tui.rulesets.warhammer.dialogs import WarhammerAttackDialog, WarhammerOutcomeDialog


def odds_text(app) -> str:  # type: ignore[no-untyped-def]
    return str(app.screen.query_one("#odds").render())


async def fill(pilot, wid: str, text: str) -> None:  # type: ignore[no-untyped-def]
    pilot.app.screen.query_one(f"#{wid}").value = text
    await pilot.pause()


async def pick(pilot, wid: str, value) -> None:  # type: ignore[no-untyped-def]
    pilot.app.screen.query_one(f"#{wid}").value = value
    await pilot.pause()


async def tick_target(pilot, target: str) -> None:  # type: ignore[no-untyped-def]
    """Tick the Cosmere target box of combatant `target` (the boxes' ids are positions)."""
    pilot.app.screen.box("t", target).value = True
    await pilot.pause()


def last_command(s):  # type: ignore[no-untyped-def]
    return s.history.nodes[s.history.cursor].command


# --- d20: the bonus worked out from the sheet ---------------------------------------------------------


@sync
async def test_d20_empty_bonus_is_worked_out_from_the_ability_and_proficiency(tmp_path: Path) -> None:
    s = demo_session("d20", start=True)
    app = app_on(s, tmp_path)
    bandit = cid(s, "Bandit 1")  # AC 12
    async with app.run_test(size=(80, 24)) as pilot:
        assert s.state.current == cid(s, "Brannoc")  # Dex 14, no Strength score (10), proficiency 2
        before = s.state
        await pilot.press("w")
        assert isinstance(app.screen, D20AttackDialog)
        await pick(pilot, "target", bandit)
        assert app.screen.value("bonus") == ""
        # a melee weapon: Strength +0 and proficiency +2; 10 or more on the d20, 11 faces
        assert "d20 +2 vs AC 12 (Str +0, proficiency +2)" in odds_text(app) and "Hit 55%" in odds_text(app)
        await pick(pilot, "kind", "ranged")  # a ranged weapon: Dexterity
        assert "d20 +4 vs AC 12 (Dex +2, proficiency +2)" in odds_text(app) and "Hit 65%" in odds_text(app)
        await pick(pilot, "proficient", False)
        assert "d20 +2 vs AC 12 (Dex +2)" in odds_text(app)
        await fill(pilot, "damage", "1d6")
        assert "damage +2" in odds_text(app)  # the same modifier goes on the damage
        await fill(pilot, "given", "11")  # 13 vs 12: a hit
        await fill(pilot, "damage_given", "3")
        await pilot.press("enter")
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        cmd = last_command(s)
        assert (cmd.ability, cmd.proficient, cmd.bonus, cmd.mod, cmd.kind) == ("dex", False, 0, 0, "ranged")
        assert of(s, "Bandit 1").health[0].current == 11 - (3 + 2)
        await pilot.press("ctrl+z")
        assert s.state == before


@sync
async def test_d20_chosen_ability_adds_the_typed_bonus_on_top_and_a_typed_bonus_alone_is_whole(
    tmp_path: Path,
) -> None:
    s = demo_session("d20", start=True)
    app = app_on(s, tmp_path)
    bandit = cid(s, "Bandit 1")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("w")
        dlg = app.screen
        assert isinstance(dlg, D20AttackDialog)
        await pick(pilot, "target", bandit)
        await pick(pilot, "ability", "dex")  # a finesse weapon in melee
        assert "on top" in dlg.query_one("#bonus").placeholder
        await fill(pilot, "bonus", "1")  # a +1 rapier
        assert "d20 +5 vs AC 12 (Dex +2, proficiency +2, +1)" in odds_text(app)
        await fill(pilot, "mod", "3")  # the ability's modifier is already on the damage
        await fill(pilot, "damage", "1d8")
        assert "leave the damage modifier empty" in odds_text(app)
        await fill(pilot, "mod", "")
        # a statblock's bonus, typed whole: no ability
        await pick(pilot, "ability", "auto")
        await fill(pilot, "bonus", "6")
        assert "d20 +6 vs AC 12" in odds_text(app) and "proficiency" not in odds_text(app)
        await pick(pilot, "proficient", False)
        assert "tick proficient" in odds_text(app)
        await pilot.press("enter")
        assert isinstance(app.screen, D20AttackDialog) and "tick proficient" in dialog_error(pilot)
        await pick(pilot, "proficient", True)
        # a power with no ability chosen and no bonus: which ability is the caster's?
        await pick(pilot, "use", "power")
        await fill(pilot, "bonus", "")
        assert "casting ability" in odds_text(app)
        await pick(pilot, "ability", "wis")
        assert "d20 +2 vs AC 12 (Wis +0, proficiency +2)" in odds_text(app)
        await fill(pilot, "given", "17")
        await fill(pilot, "damage_given", "5")
        await pilot.press("enter")
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        cmd = last_command(s)
        assert (cmd.ability, cmd.use, cmd.bonus, cmd.mod) == ("wis", "power", 0, 0)
        assert of(s, "Bandit 1").health[0].current == 11 - 5  # a power's damage adds no modifier
        assert of(s, "Brannoc").economy.actions == 0


@sync
async def test_d20_grapple_takes_an_empty_bonus_as_zero(tmp_path: Path) -> None:
    s = demo_session("d20", start=True)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("w")
        await pick(pilot, "target", cid(s, "Bandit 1"))
        await pick(pilot, "what", "grapple")
        assert not app.screen.query_one("#r-ability").display  # an attack's field only
        assert "Athletics" in app.screen.query_one("#bonus").placeholder
        await fill(pilot, "given", "18")
        await fill(pilot, "target_given", "3")
        await pilot.press("enter")
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        assert last_command(s).bonus == 0 and of(s, "Bandit 1").has("Grappled")


# --- Cosmere: range, distance, an ally beside the target ----------------------------------------------


async def cosmere_turn(pilot, s, name: str) -> None:  # type: ignore[no-untyped-def]
    pilot.app.commit(StartTurn(cid(s, name)))
    await pilot.pause()


@sync
async def test_cosmere_range_and_distance_give_the_disadvantage_or_refuse_before_the_roll(tmp_path: Path) -> None:
    s = demo_session("cosmere", start=True)
    app = app_on(s, tmp_path)
    w1, w2 = cid(s, "Parshendi Warrior 1"), cid(s, "Parshendi Warrior 2")
    async with app.run_test(size=(80, 24)) as pilot:
        await cosmere_turn(pilot, s, "Kaladin")
        before = s.state
        await pilot.press("w")
        assert isinstance(app.screen, CosmereAttackDialog)
        await tick_target(pilot, w1)
        await fill(pilot, "modifier", "4")
        # a melee attack's reach is 5 ft unless given
        await fill(pilot, "distance", "10")
        assert "beyond the reach of 5 ft" in odds_text(app)
        await fill(pilot, "range", "10")
        assert "at 10 ft: hit 55%" in odds_text(app)
        await pick(pilot, "kind", "ranged")
        await fill(pilot, "range", "20/60")
        await fill(pilot, "distance", "70")
        assert "beyond the long range of 60 ft" in odds_text(app)
        await pilot.press("enter")
        assert isinstance(app.screen, CosmereAttackDialog) and "beyond the long range" in dialog_error(pilot)
        await fill(pilot, "distance", "zero")
        assert "Distance: give feet" in odds_text(app)
        # two targets, one distance each (in the order ticked on screen)
        await tick_target(pilot, w2)
        await fill(pilot, "distance", "15 45")
        odds = odds_text(app)
        assert "Parshendi Warrior 1 at 15 ft: hit 55%" in odds
        # beyond the short range: disadvantage, 11/20 squared
        assert "Parshendi Warrior 2 at 45 ft: hit 30.25%" in odds and "long range (45 ft, beyond 20 ft)" in odds
        await fill(pilot, "damage", "1d8")
        await fill(pilot, "given", "12 9")  # 16 against Warrior 1; 13 (the lower) against Warrior 2
        await fill(pilot, "damage_given", "5")
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, CosmereOutcomeDialog), dialog_error(pilot)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        cmd = last_command(s)
        assert (cmd.range, cmd.distance, cmd.kind) == ("20/60", (15, 45), "ranged")
        assert of(s, "Parshendi Warrior 1").health[0].current == 18 - 9
        assert of(s, "Parshendi Warrior 2").health[0].current == 18  # missed at long range
        await pilot.press("ctrl+z")
        assert s.state == before


@sync
async def test_cosmere_ally_next_to_the_target_and_the_complication_that_grazes_it(tmp_path: Path) -> None:
    s = demo_session("cosmere", start=True)
    app = app_on(s, tmp_path)
    w1 = cid(s, "Parshendi Warrior 1")
    shallan = cid(s, "Shallan")
    async with app.run_test(size=(80, 24)) as pilot:
        await cosmere_turn(pilot, s, "Kaladin")
        before = s.state
        await pilot.press("w")
        dlg = app.screen
        assert isinstance(dlg, CosmereAttackDialog)
        ally = dlg.query_one("#ally")
        # only Kaladin's own side: not Kaladin, not a foe
        assert [v for _, v in ally.options] == ["", shallan, cid(s, "Bridge Four Spearman")]
        await tick_target(pilot, w1)
        await pick(pilot, "ally", shallan)
        assert "Only a ranged attack raises the stakes" in odds_text(app)
        await pick(pilot, "kind", "ranged")
        assert "next to Shallan: the stakes are raised" in odds_text(app)
        await fill(pilot, "modifier", "4")
        await fill(pilot, "damage", "1d6")
        await fill(pilot, "given", "3")  # 7 vs 14: a miss
        await fill(pilot, "damage_given", "4")
        await pilot.press("enter")
        await pilot.pause()
        out = app.screen
        assert isinstance(out, CosmereOutcomeDialog), dialog_error(pilot)
        assert "Shallan takes 4 damage" in str(out.query_one("#ally_graze").label)
        await pick(pilot, "ally_graze", True)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        cmd = last_command(s)
        assert cmd.ally == shallan and cmd.ally_graze
        assert of(s, "Shallan").health[0].current == 20 - 4
        assert of(s, "Kaladin").pool("focus").current == 4  # no focus for the ally's graze
        assert of(s, "Parshendi Warrior 1").health[0].current == 18
        await pilot.press("ctrl+z")
        assert s.state == before
        # a hit leaves no Complication box; neither does an attack with no ally
        await pilot.press("w")
        await tick_target(pilot, w1)
        await pick(pilot, "kind", "ranged")
        await pick(pilot, "ally", shallan)
        await fill(pilot, "modifier", "4")
        await fill(pilot, "damage", "1d6")
        await fill(pilot, "given", "15")
        await fill(pilot, "damage_given", "4")
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, CosmereOutcomeDialog) and not app.screen.query("#ally_graze")
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("w")
        await tick_target(pilot, w1)
        await fill(pilot, "given", "3")
        await fill(pilot, "damage", "1d6")
        await fill(pilot, "damage_given", "4")
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, CosmereOutcomeDialog) and not app.screen.query("#ally_graze")


@sync
async def test_cosmere_ally_list_follows_the_attacker(tmp_path: Path) -> None:
    s = demo_session("cosmere", start=True)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await cosmere_turn(pilot, s, "Kaladin")
        await pilot.press("w")
        dlg = app.screen
        await pick(pilot, "attacker", cid(s, "Parshendi Warrior 1"))
        ally = dlg.query_one("#ally")
        foes = [cid(s, "Parshendi Warrior 2"), cid(s, "Parshendi Stormsinger")]
        assert [v for _, v in ally.options] == ["", *foes]


# --- Cosmere: granted actions and reactions (palette) ---------------------------------------------


async def palette_dialog(pilot, action: str, name: str):  # type: ignore[no-untyped-def]
    await select(pilot, name)
    main = main_screen(pilot)
    assert main.check_action(action, ())
    await main.run_action(action)
    await pilot.pause()
    return pilot.app.screen


@sync
async def test_cosmere_grant_actions_on_its_turn_and_reactions_any_time(tmp_path: Path) -> None:
    s = demo_session("cosmere", start=True)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await cosmere_turn(pilot, s, "Kaladin")
        before = s.state
        k0 = of(s, "Kaladin").economy
        dlg = await palette_dialog(pilot, "grant", "Kaladin")
        assert isinstance(dlg, CosmereGrantDialog)
        assert dlg.choice("actions") == 1 and dlg.choice("reactions") == 0  # its own turn: an action
        await fill(pilot, "label", "Surge of speed")
        await pilot.press("enter")
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        assert of(s, "Kaladin").economy.actions == k0.actions + 1
        granted = s.state
        # not Shallan's turn: a reaction by default; an action is refused inside the dialog
        sh0 = of(s, "Shallan").economy
        dlg = await palette_dialog(pilot, "grant", "Shallan")
        assert dlg.choice("actions") == 0 and dlg.choice("reactions") == 1
        await pick(pilot, "actions", 1)
        await pilot.press("enter")
        assert isinstance(app.screen, CosmereGrantDialog) and "not Shallan's turn" in dialog_error(pilot)
        assert s.state == granted
        await pick(pilot, "actions", 0)
        await pick(pilot, "reactions", 0)
        await pilot.press("enter")
        assert "Grant 1 to 3" in dialog_error(pilot)
        await pick(pilot, "reactions", 2)
        await pilot.press("enter")
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        assert of(s, "Shallan").economy.reactions == sh0.reactions + 2
        await pilot.press("ctrl+z")
        await pilot.press("ctrl+z")
        assert s.state == before


@sync
async def test_grant_is_a_cosmere_command_only(tmp_path: Path) -> None:
    s = demo_session("d20", start=True)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        assert not main_screen(pilot).check_action("grant", ())


# --- Warhammer: the defender's awareness ----------------------------------------------------------


async def wh_turn(pilot, s, name: str) -> None:  # type: ignore[no-untyped-def]
    for _ in range(len(s.state.combatants) + 1):
        if s.state.current == cid(s, name):
            break
        pilot.app.commit(C.NextTurn())
    assert s.state.current == cid(s, name)
    await pilot.pause()


def defences(app) -> list[str]:  # type: ignore[no-untyped-def]
    return [v for _, v in app.screen.query_one("#defence").options]


@sync
async def test_warhammer_unaware_defender_cannot_defend(tmp_path: Path) -> None:
    s = demo_session("warhammer", start=True)
    app = app_on(s, tmp_path)
    troll = cid(s, "Troll")
    async with app.run_test(size=(80, 24)) as pilot:
        await wh_turn(pilot, s, "Ulfberth")
        before = s.state
        await pilot.press("w")
        assert isinstance(app.screen, WarhammerAttackDialog)
        await pick(pilot, "target", troll)
        assert defences(app) == ["", "parry", "dodge"]
        await pick(pilot, "aware", False)  # an unseen attack
        assert defences(app) == [""] and "not aware of the attack" in odds_text(app)
        await fill(pilot, "damage", "8")
        await fill(pilot, "given_attack", "34")  # SL +1
        await fill(pilot, "given_damage", "5")  # 5 + 8, less Toughness bonus 6
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, WarhammerOutcomeDialog), dialog_error(pilot)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        assert last_command(s).aware is False
        assert of(s, "Troll").health[0].current == 30 - 7
        await pilot.press("ctrl+z")
        assert s.state == before


@sync
async def test_warhammer_surprised_defender_ruled_aware_may_parry(tmp_path: Path) -> None:
    s = demo_session("warhammer", start=True)
    troll = cid(s, "Troll")
    s.apply(C.AddCondition(troll, "Surprised"))
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await wh_turn(pilot, s, "Ulfberth")
        before = s.state
        await pilot.press("w")
        await pick(pilot, "target", troll)
        assert defences(app) == [""]  # Surprised: no defence by the rules
        await pick(pilot, "aware", True)  # it saw this one coming
        assert defences(app) == ["", "parry", "dodge"]
        await pick(pilot, "defence", "parry")
        await fill(pilot, "given_attack", "34")
        await fill(pilot, "given_defence", "12")
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, WarhammerOutcomeDialog), dialog_error(pilot)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        cmd = last_command(s)
        assert cmd.aware is True and cmd.defence == "parry"
        assert of(s, "Troll").economy != before.get(troll).economy  # the parry spent its reaction
        await pilot.press("ctrl+z")
        assert s.state == before
