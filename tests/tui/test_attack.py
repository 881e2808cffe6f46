"""The attack dialogs (key w) of d20, Cosmere and Warhammer, and the owed-roll prompt, driven by keys;
every assertion is on the engine state the dialog produced. One attack is one command: one ctrl+z
takes all of it back."""

from __future__ import annotations

from pathlib import Path

from engine import commands as C
from engine.rules.cosmere.commands import StartTurn
from engine.rules.warhammer import combat as W
from tests.tui.support import app_on, cid, demo_session, dialog_error, main_screen, of, select, sync
from tui.attack import OTHER
from tui.main import MainScreen
from tui.rulesets.cosmere.dialogs import (
    CosmereAttackDialog,
    CosmereFallDialog,
    CosmereOutcomeDialog,
    CosmereTerrainDialog,
)
from tui.rulesets.d20.dialogs import D20AttackDialog, D20ReadyDialog, D20ReleaseDialog, OwedRollDialog
from tui.rulesets.warhammer.dialogs import (
    WarhammerAttackDialog,
    WarhammerCriticalDialog,
    WarhammerOutcomeDialog,
    WarhammerWillpowerDialog,
)


def odds_text(app) -> str:  # type: ignore[no-untyped-def]
    return str(app.screen.query_one("#odds").render())


async def fill(pilot, wid: str, text: str) -> None:  # type: ignore[no-untyped-def]
    inp = pilot.app.screen.query_one(f"#{wid}")
    inp.value = text
    await pilot.pause()


# --- d20 -------------------------------------------------------------------------------------------


@sync
async def test_d20_attack_shows_the_chance_then_hits_and_undo_takes_it_all_back(tmp_path: Path) -> None:
    s = demo_session("d20", start=True)
    app = app_on(s, tmp_path)
    bandit = cid(s, "Bandit 1")  # AC 12
    async with app.run_test(size=(80, 24)) as pilot:
        before = s.state
        await pilot.press("w")
        assert isinstance(app.screen, D20AttackDialog)
        app.screen.query_one("#target").value = bandit
        await fill(pilot, "bonus", "5")
        # d20 + 5 against AC 12: 7 or more, 14 faces of 20; a natural 20 is the critical
        assert "Hit 70%" in odds_text(app) and "critical 5%" in odds_text(app)
        app.screen.query_one("#high_ground").value = True
        await pilot.pause()
        # advantage: 1 - (6/20)^2 = 91%, crit 1 - (19/20)^2 = 9.75%
        assert "Hit 91%" in odds_text(app) and "critical 9.75%" in odds_text(app)
        assert "high ground" in odds_text(app)
        app.screen.query_one("#cover").value = "half"
        await pilot.pause()
        assert "vs AC 14" in odds_text(app)
        await fill(pilot, "damage", "1d8")
        await fill(pilot, "mod", "3")
        await fill(pilot, "type", "slashing")
        await fill(pilot, "given", "15 4")
        await fill(pilot, "damage_given", "6")
        await pilot.press("ctrl+s")
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        b = of(s, "Bandit 1")
        assert b.health[0].current == 11 - 9
        assert of(s, "Brannoc").economy.actions == 0  # the Attack action is spent
        await pilot.press("ctrl+z")
        assert s.state == before


@sync
async def test_attack_with_no_one_picked_targets_the_first_standing_foe_and_arrows_change_it(tmp_path: Path) -> None:
    s = demo_session("d20", start=True)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        attacker = s.state.get(s.state.current)
        foes = [c.id for c in s.state.combatants if c.side != attacker.side and not c.down]
        await pilot.press("w")
        assert isinstance(app.screen, D20AttackDialog)
        target = app.screen.query_one("#target")
        assert target.value == foes[0]
        assert app.screen.focused is target  # the target is picked first, with left/right
        await pilot.press("right")
        assert target.value != foes[0]


@sync
async def test_cosmere_attack_starts_on_the_first_standing_foes_box(tmp_path: Path) -> None:
    s = demo_session("cosmere", start=True)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await select(pilot, "Kaladin")
        await pilot.press("g", "w")  # his turn first: with nobody acting there is no attack
        assert isinstance(app.screen, CosmereAttackDialog)
        foe = next(c for c in s.state.combatants if c.side != "party")
        assert app.screen.focused is app.screen.box("t", foe.id)
        assert app.screen.ticked("t", foe.id)  # ticked: enter attacks it
        await pilot.press("space")
        assert not app.screen.ticked("t", foe.id)
        # switching the attacker to that foe unticks it: no one is its own target
        await pilot.press("space")
        app.screen.query_one("#attacker").value = foe.id
        await pilot.pause()
        assert not app.screen.ticked("t", foe.id)


@sync
async def test_d20_refused_attack_stays_in_the_dialog(tmp_path: Path) -> None:
    s = demo_session("d20", start=True)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("w")
        app.screen.query_one("#target").value = cid(s, "Bandit 1")
        app.screen.query_one("#kind").value = "ranged"
        app.screen.query_one("#flanking").value = True
        await pilot.pause()
        assert "melee attacks only" in odds_text(app)
        before = s.state
        await pilot.press("ctrl+s")
        assert isinstance(app.screen, D20AttackDialog)
        assert "melee attacks only" in dialog_error(pilot)
        assert s.state == before


@sync
async def test_d20_concentration_save_is_prompted_for_a_bleeding_caster(tmp_path: Path) -> None:
    s = demo_session("d20", start=True)
    ysolde = cid(s, "Ysolde")
    s.apply(C.AddCondition(ysolde, "Concentrating"))
    s.apply(C.AddCondition(ysolde, "Bleeding"))
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("w")
        app.screen.query_one("#target").value = ysolde
        await fill(pilot, "bonus", "4")
        await fill(pilot, "damage", "2d6")
        await fill(pilot, "given", "18")
        await fill(pilot, "damage_given", "6 6")
        await pilot.press("ctrl+s")
        await pilot.pause()
        await pilot.pause()
        y = of(s, "Ysolde")
        assert y.health[0].current == 22 - 12
        assert [d.what for d in y.due] == ["concentration"]
        # the save is asked for at once
        assert isinstance(app.screen, OwedRollDialog), app.screen
        assert "DC 10" in str(app.screen.query_one("#heading").render())
        await fill(pilot, "given", "5")  # 5 + 2 = 7 < 10: concentration ends
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        y = of(s, "Ysolde")
        assert not y.due and not y.has("Concentrating") and y.has("Bleeding")
        await pilot.press("ctrl+z")  # the save back: owed again, and asked again
        await pilot.pause()
        await pilot.pause()
        assert of(s, "Ysolde").has("Concentrating") and of(s, "Ysolde").due
        assert isinstance(app.screen, OwedRollDialog)
        app.screen.query_one("#how").value = "waive"
        await pilot.press("ctrl+s")
        await pilot.pause()
        y = of(s, "Ysolde")
        assert not y.due and y.has("Concentrating")


@sync
async def test_d20_escape_leaves_the_save_owed_and_the_palette_action_brings_it_back(tmp_path: Path) -> None:
    s = demo_session("d20", start=True)
    ysolde = cid(s, "Ysolde")
    s.apply(C.AddCondition(ysolde, "Concentrating"))
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        app.commit(C.Damage(ysolde, 30 - 8))
        await pilot.pause()
        await pilot.pause()
        assert isinstance(app.screen, OwedRollDialog)
        await pilot.press("escape")
        await pilot.pause()
        await pilot.pause()
        assert isinstance(app.screen, MainScreen)  # not asked again at once
        assert of(s, "Ysolde").due
        await app.screen.run_action("owed")
        await pilot.pause()
        assert isinstance(app.screen, OwedRollDialog)
        await fill(pilot, "total", "19")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert not of(s, "Ysolde").due and of(s, "Ysolde").has("Concentrating")


# --- Cosmere ---------------------------------------------------------------------------------------


async def cosmere_turn(pilot, s, name: str) -> None:  # type: ignore[no-untyped-def]
    s_id = cid(s, name)
    pilot.app.commit(StartTurn(s_id))
    await pilot.pause()


@sync
async def test_cosmere_graze_and_critical_in_one_command(tmp_path: Path) -> None:
    s = demo_session("cosmere", start=True)
    app = app_on(s, tmp_path)
    w1, w2 = cid(s, "Parshendi Warrior 1"), cid(s, "Parshendi Warrior 2")
    async with app.run_test(size=(80, 24)) as pilot:
        await cosmere_turn(pilot, s, "Kaladin")
        before = s.state
        await pilot.press("w")
        assert isinstance(app.screen, CosmereAttackDialog)
        app.screen.box("t", w1).value = True
        await fill(pilot, "modifier", "4")
        # d20 + 4 against Physical 14: 10 or more, 11 faces
        assert "hit 55%" in odds_text(app)
        app.screen.box("t", w2).value = True
        app.screen.box("u", w2).value = True  # cannot sense it: disadvantage, no graze
        await pilot.pause()
        assert "no graze" in odds_text(app) and "30.25%" in odds_text(app)
        app.screen.box("u", w2).value = False
        await fill(pilot, "damage", "1d8")
        await fill(pilot, "given", "10")  # 14: hits both (Physical 14)
        await fill(pilot, "damage_given", "3")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, CosmereOutcomeDialog), dialog_error(pilot)
        assert s.state == before  # nothing committed yet
        app.screen.query_one("#critical").value = True
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        # a critical: the d8 at its maximum (8) + 4 against each target
        assert of(s, "Parshendi Warrior 1").health[0].current == 18 - 12
        assert of(s, "Parshendi Warrior 2").health[0].current == 18 - 12
        await pilot.press("ctrl+z")
        assert s.state == before
        # now a miss on one, grazed for 1 focus
        await pilot.press("w")
        app.screen.box("t", w1).value = True
        await fill(pilot, "modifier", "4")
        await fill(pilot, "damage", "1d8")
        await fill(pilot, "given", "3")
        await fill(pilot, "damage_given", "5")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, CosmereOutcomeDialog)
        assert not app.screen.query("#critical")  # nothing hit: no critical to choose
        app.screen.graze_box(w1).value = True
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        assert of(s, "Parshendi Warrior 1").health[0].current == 18 - 5
        assert of(s, "Kaladin").pool("focus").current == 3
        await pilot.press("ctrl+z")
        assert s.state == before


@sync
async def test_cosmere_reactive_strike_spends_reaction_and_focus(tmp_path: Path) -> None:
    s = demo_session("cosmere", start=True)
    app = app_on(s, tmp_path)
    w1 = cid(s, "Parshendi Warrior 1")
    async with app.run_test(size=(80, 24)) as pilot:
        await cosmere_turn(pilot, s, "Parshendi Warrior 1")
        before = s.state
        # Kaladin strikes back out of turn: the acting warrior is the attacker until changed
        await pilot.press("w")
        assert isinstance(app.screen, CosmereAttackDialog)
        assert app.screen.query_one("#attacker").value == w1
        app.screen.query_one("#attacker").value = cid(s, "Kaladin")
        await pilot.pause()
        app.screen.query_one("#weapon_pick").value = OTHER  # not his spear: a strike typed in
        app.screen.box("t", w1).value = True
        app.screen.query_one("#use").value = "reaction"
        await fill(pilot, "modifier", "4")
        await fill(pilot, "damage", "1d6")
        await fill(pilot, "given", "15")
        await fill(pilot, "damage_given", "2")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, CosmereOutcomeDialog), dialog_error(pilot)
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        k = of(s, "Kaladin")
        assert k.pool("focus").current == 3 and k.economy.reactions == 0
        assert of(s, "Parshendi Warrior 1").health[0].current == 18 - 6
        await pilot.press("ctrl+z")
        assert s.state == before


# --- Warhammer -------------------------------------------------------------------------------------


async def wh_turn(pilot, s, name: str) -> None:  # type: ignore[no-untyped-def]
    """Move on through the order to `name`'s turn."""
    for _ in range(len(s.state.combatants) + 1):
        if s.state.current == cid(s, name):
            break
        pilot.app.commit(C.NextTurn())
    assert s.state.current == cid(s, name)
    await pilot.pause()


@sync
async def test_warhammer_parried_hit(tmp_path: Path) -> None:
    s = demo_session("warhammer", start=True)
    app = app_on(s, tmp_path)
    troll = cid(s, "Troll")
    async with app.run_test(size=(80, 24)) as pilot:
        await wh_turn(pilot, s, "Ulfberth")
        before = s.state
        await pilot.press("w")
        assert isinstance(app.screen, WarhammerAttackDialog)
        app.screen.query_one("#target").value = troll
        await pilot.pause()
        assert "Hit 48%" in odds_text(app)  # WS 48
        app.screen.query_one("#defence").value = "parry"
        await pilot.pause()
        assert "lands through the parry" in odds_text(app)
        await fill(pilot, "given_attack", "34")  # hit, SL 1
        await fill(pilot, "given_defence", "12")  # Troll WS 40: SL 2, wins
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, WarhammerOutcomeDialog), dialog_error(pilot)
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        t = of(s, "Troll")
        assert t.health[0].current == 30  # parried
        assert t.economy != before.get(troll).economy  # the reaction is spent
        await pilot.press("ctrl+z")
        assert s.state == before


@sync
async def test_warhammer_second_attack_of_a_turn_keeps_its_dual_wielding(tmp_path: Path) -> None:
    s = demo_session("warhammer", start=True)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await wh_turn(pilot, s, "Thesalva")
        thesalva = cid(s, "Thesalva")
        s.apply(W.Attack(thesalva, cid(s, "Goblin 1"), option="dual", given_attack=(99,)))
        app.refresh_fight()
        await pilot.pause()
        await pilot.press("w")
        assert isinstance(app.screen, WarhammerAttackDialog)
        assert app.screen.query_one("#option").value == "dual"
        assert "off hand -40" in odds_text(app)  # the real odds of the off-hand attack


@sync
async def test_warhammer_critical_at_zero_wounds_with_deflection(tmp_path: Path) -> None:
    s = demo_session("warhammer", start=True)
    app = app_on(s, tmp_path)
    ulf = cid(s, "Ulfberth")
    # Ulfberth (Resilience: may deflect) at 1 Wound, with body armour
    s.apply(C.EditCombatant(ulf, stats=(("ap_body", 3),)))
    s.apply(C.Damage(ulf, 13))
    async with app.run_test(size=(80, 24)) as pilot:
        await wh_turn(pilot, s, "Troll")
        before = s.state
        await pilot.press("w")
        app.screen.query_one("#target").value = ulf
        await fill(pilot, "damage", "6")
        await fill(pilot, "given_attack", "13")  # a hit, reversed 31: the body
        await fill(pilot, "given_damage", "9")
        await fill(pilot, "given_critical", "50")
        await pilot.press("ctrl+s")
        await pilot.pause()
        dlg = app.screen
        assert isinstance(dlg, WarhammerOutcomeDialog), dialog_error(pilot)
        assert dlg.report.critical_total is not None
        dlg.query_one("#deflect").value = True
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        u = of(s, "Ulfberth")
        assert u.health[0].current == 0
        assert u.stat("ap_body") < 3  # the armour took the deflection
        await pilot.press("ctrl+z")
        assert s.state == before


@sync
async def test_warhammer_minion_on_sudden_death(tmp_path: Path) -> None:
    s = demo_session("warhammer", start=True)
    app = app_on(s, tmp_path)
    gob = cid(s, "Goblin 1")
    async with app.run_test(size=(80, 24)) as pilot:
        await wh_turn(pilot, s, "Ulfberth")
        before = s.state
        await pilot.press("w")
        app.screen.query_one("#target").value = gob
        await fill(pilot, "damage", "8")
        await fill(pilot, "given_attack", "21")  # hit, reversed 12: the head
        await fill(pilot, "given_damage", "10")
        await fill(pilot, "given_critical", "90")
        await pilot.press("ctrl+s")
        await pilot.pause()
        dlg = app.screen
        assert isinstance(dlg, WarhammerOutcomeDialog), dialog_error(pilot)
        assert dlg.query_one("#sudden").value is True
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        g = of(s, "Goblin 1")
        assert g.health[0].current == 0 and g.conditions  # the sudden-death result is on it
        await pilot.press("ctrl+z")
        assert s.state == before


@sync
async def test_d20_confused_save_at_the_end_of_the_turn_is_prompted(tmp_path: Path) -> None:
    s = demo_session("d20", start=True)
    who = s.state.current
    s.apply(C.AddCondition(who, "Confused", dc=13))
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("n")  # the end of its turn: the save against Confused is owed
        await pilot.pause()
        await pilot.pause()
        assert [d.what for d in s.state.get(who).due] == ["Confused"]
        assert isinstance(app.screen, OwedRollDialog)
        assert app.screen.query_one("#dc").value == "13"
        app.screen.query_one("#ability").value = "wis"
        await fill(pilot, "given", "19")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        c = s.state.get(who)
        assert not c.due and not c.has("Confused")


# --- the table rolls -------------------------------------------------------------------------------


@sync
async def test_d20_attack_waits_for_the_table_dice_when_the_table_rolls_for_pcs(tmp_path: Path) -> None:
    s = demo_session("d20", start=True, then=(C.Setting("roll_pc", "table"),))
    app = app_on(s, tmp_path)
    bandit = cid(s, "Bandit 1")  # AC 12
    async with app.run_test(size=(80, 24)) as pilot:
        assert s.state.current == cid(s, "Brannoc")
        before = s.state
        await pilot.press("w")
        dlg = app.screen
        assert isinstance(dlg, D20AttackDialog)
        assert "The table rolls for PCs" in str(dlg.query_one("#heading").render())
        assert app.focused is not None and app.focused.id == "given"
        dlg.query_one("#target").value = bandit
        await fill(pilot, "bonus", "5")
        await fill(pilot, "damage", "1d8")
        await pilot.press("ctrl+s")
        assert isinstance(app.screen, D20AttackDialog)
        assert "The table rolls for PCs" in dialog_error(pilot)
        assert app.focused is not None and app.focused.id == "given"
        assert s.state == before
        await fill(pilot, "given", "15")  # 20 vs AC 12: a hit, so the damage die is the table's too
        await pilot.press("ctrl+s")
        assert isinstance(app.screen, D20AttackDialog)
        assert app.focused is not None and app.focused.id == "damage_given"
        assert s.state == before
        await fill(pilot, "damage_given", "7")
        await pilot.press("ctrl+s")
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        assert of(s, "Bandit 1").health[0].current == 11 - 7
        await pilot.press("ctrl+z")
        assert s.state == before


@sync
async def test_d20_attack_by_an_npc_is_rolled_by_the_app_when_only_pcs_roll_at_the_table(tmp_path: Path) -> None:
    s = demo_session("d20", start=True, then=(C.Setting("roll_pc", "table"),))
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        before = s.state
        await pilot.press("w")
        dlg = app.screen
        assert isinstance(dlg, D20AttackDialog)
        dlg.query_one("#attacker").value = cid(s, "Bandit 1")
        await pilot.pause()
        assert "table rolls" not in str(dlg.query_one("#heading").render())
        dlg.query_one("#target").value = cid(s, "Brannoc")
        dlg.query_one("#use").value = "none"
        await pilot.pause()
        await pilot.press("ctrl+s")
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        assert s.state.rng != before.rng  # the app rolled the Bandit's d20 itself


@sync
async def test_warhammer_attack_waits_for_the_table_d100(tmp_path: Path) -> None:
    s = demo_session("warhammer", start=True, then=(C.Setting("roll_npc", "table"),))
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await wh_turn(pilot, s, "Troll")
        before = s.state
        await pilot.press("w")
        dlg = app.screen
        assert isinstance(dlg, WarhammerAttackDialog)
        assert "The table rolls for NPCs" in str(dlg.query_one("#heading").render())
        assert app.focused is not None and app.focused.id == "given_attack"
        dlg.query_one("#target").value = cid(s, "Ulfberth")
        await pilot.press("ctrl+s")
        assert isinstance(app.screen, WarhammerAttackDialog)
        assert "The table rolls for NPCs" in dialog_error(pilot)
        assert s.state == before


# --- the rulesets' other commands, from the palette ------------------------------------------------


async def palette_dialog(pilot, s, action: str, name: str):  # type: ignore[no-untyped-def]
    """Select `name` and open the palette-only action's dialog."""
    await select(pilot, name)
    main = main_screen(pilot)
    assert main.check_action(action, ())
    await main.run_action(action)
    await pilot.pause()
    return pilot.app.screen


@sync
async def test_cosmere_fall_and_dangerous_terrain_dialogs(tmp_path: Path) -> None:
    s = demo_session("cosmere", start=True)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        before = s.state
        dlg = await palette_dialog(pilot, s, "fall", "Kaladin")
        assert isinstance(dlg, CosmereFallDialog)
        await fill(pilot, "feet", "30")
        await fill(pilot, "given", "4 2 6")
        await pilot.press("ctrl+s")
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        k = of(s, "Kaladin")
        assert k.health[0].current == 28 - 12 and k.has("Prone")
        await pilot.press("ctrl+z")
        assert s.state == before
        # three dice for 30 ft: two are refused, with the roll named
        await palette_dialog(pilot, s, "fall", "Kaladin")
        await fill(pilot, "feet", "30")
        await fill(pilot, "given", "4 2")
        await pilot.press("ctrl+s")
        assert isinstance(app.screen, CosmereFallDialog) and dialog_error(pilot)
        assert s.state == before
        await pilot.press("escape")
        dlg = await palette_dialog(pilot, s, "terrain", "Parshendi Warrior 1")
        assert isinstance(dlg, CosmereTerrainDialog)
        await fill(pilot, "damage", "1d4")
        await fill(pilot, "label", "burning oil")
        await fill(pilot, "total", "3")
        await pilot.press("ctrl+s")
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        w = of(s, "Parshendi Warrior 1")
        assert w.health[0].current == 18 - 3 and w.has("In dangerous terrain")
        await pilot.press("ctrl+z")
        assert s.state == before


@sync
async def test_cosmere_fall_waits_for_the_table_dice(tmp_path: Path) -> None:
    s = demo_session("cosmere", start=True, then=(C.Setting("roll_pc", "table"),))
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        before = s.state
        dlg = await palette_dialog(pilot, s, "fall", "Shallan")
        assert "The table rolls for PCs" in str(dlg.query_one("#heading").render())
        await fill(pilot, "feet", "20")
        await pilot.press("ctrl+s")
        assert isinstance(app.screen, CosmereFallDialog)
        assert "The table rolls for PCs" in dialog_error(pilot)
        assert app.focused is not None and app.focused.id == "given"
        assert s.state == before
        await fill(pilot, "feet", "5")  # under 10 ft: nothing to roll, nothing to ask
        await pilot.press("ctrl+s")
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        assert of(s, "Shallan").health[0].current == 20 and not of(s, "Shallan").has("Prone")


@sync
async def test_d20_ready_then_release(tmp_path: Path) -> None:
    s = demo_session("d20", start=True)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        assert not main_screen(pilot).check_action("fall", ())  # a Cosmere command
        before = s.state
        dlg = await palette_dialog(pilot, s, "ready", "Brannoc")
        assert isinstance(dlg, D20ReadyDialog)
        await pilot.press("ctrl+s")
        assert "Ready which action" in dialog_error(pilot)
        await fill(pilot, "action", "Attack")
        await fill(pilot, "trigger", "the orc steps in")
        await pilot.press("ctrl+s")
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        b = of(s, "Brannoc")
        assert b.economy.ready == "Attack when the orc steps in" and b.economy.actions == 0
        readied = s.state
        dlg = await palette_dialog(pilot, s, "release", "Brannoc")
        assert isinstance(dlg, D20ReleaseDialog)
        assert "Attack when the orc steps in" in str(dlg.query_one("#held").render())
        await pilot.press("ctrl+s")
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        b = of(s, "Brannoc")
        assert b.economy.ready == "" and b.economy.reactions == 0
        await pilot.press("ctrl+z")
        assert s.state == readied
        await pilot.press("ctrl+z")
        assert s.state == before
        # nothing readied now: the engine's refusal stays in the dialog
        await palette_dialog(pilot, s, "release", "Brannoc")
        await pilot.press("ctrl+s")
        assert isinstance(app.screen, D20ReleaseDialog)
        assert "no readied action" in dialog_error(pilot)
        assert s.state == before


@sync
async def test_warhammer_critical_on_its_own(tmp_path: Path) -> None:
    s = demo_session("warhammer", start=True)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        before = s.state
        dlg = await palette_dialog(pilot, s, "wh_critical", "Goblin 1")
        assert isinstance(dlg, WarhammerCriticalDialog)
        dlg.query_one("#location").value = "head"
        await fill(pilot, "modifier", "15")
        await fill(pilot, "source", "a fall")
        await fill(pilot, "given", "90")
        await pilot.press("ctrl+s")
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        g = of(s, "Goblin 1")
        assert g.conditions  # a minion: the sudden-death table's result is on it
        await pilot.press("ctrl+z")
        assert s.state == before
        # a deflection needs armour at that location: refused, and the dialog stays
        dlg = await palette_dialog(pilot, s, "wh_critical", "Ulfberth")
        dlg.query_one("#deflect").value = True
        await fill(pilot, "given", "40")
        await pilot.press("ctrl+s")
        assert isinstance(app.screen, WarhammerCriticalDialog)
        assert "no armour" in dialog_error(pilot)
        assert s.state == before


@sync
async def test_warhammer_willpower_on_its_own(tmp_path: Path) -> None:
    s = demo_session("warhammer", start=True)
    troll = cid(s, "Troll")  # a champion: without Resolve, at 0 Wounds it tests Willpower (WP 20)
    s.apply(C.SpendResource(troll, "resolve", 1))
    s.apply(C.Damage(troll, 30))
    s.apply(C.Setting("roll_npc", "table"))
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        before = s.state
        dlg = await palette_dialog(pilot, s, "willpower", "Troll")
        assert isinstance(dlg, WarhammerWillpowerDialog)
        assert app.focused is not None and app.focused.id == "given"
        await pilot.press("ctrl+s")
        assert "The table rolls for NPCs" in dialog_error(pilot)
        assert s.state == before
        await fill(pilot, "given", "15")
        await pilot.press("ctrl+s")
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        assert of(s, "Troll").has("Fighting on")
        await pilot.press("ctrl+z")
        assert s.state == before
        # Ulfberth is no champion: the engine's refusal is shown
        await palette_dialog(pilot, s, "willpower", "Ulfberth")
        await fill(pilot, "given", "15")
        await pilot.press("ctrl+s")
        assert "champion" in dialog_error(pilot)


@sync
async def test_warhammer_parry_waits_for_the_defenders_table_d100(tmp_path: Path) -> None:
    s = demo_session("warhammer", start=True, then=(C.Setting("roll_npc", "table"),))
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await wh_turn(pilot, s, "Ulfberth")
        before = s.state
        await pilot.press("w")
        dlg = app.screen
        assert isinstance(dlg, WarhammerAttackDialog)
        assert "table rolls" not in str(dlg.query_one("#heading").render())  # a PC attacks
        dlg.query_one("#target").value = cid(s, "Troll")
        await pilot.pause()
        dlg.query_one("#defence").value = "parry"
        await pilot.pause()
        await fill(pilot, "given_attack", "34")
        await pilot.press("ctrl+s")
        assert isinstance(app.screen, WarhammerAttackDialog)
        assert "The table rolls for NPCs" in dialog_error(pilot)
        assert app.focused is not None and app.focused.id == "given_defence"
        await fill(pilot, "given_defence", "12")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, WarhammerOutcomeDialog), dialog_error(pilot)
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        assert of(s, "Troll").health[0].current == 30  # parried
        await pilot.press("ctrl+z")
        assert s.state == before


@sync
async def test_d20_grapple_waits_for_the_targets_table_d20(tmp_path: Path) -> None:
    s = demo_session("d20", start=True, then=(C.Setting("roll_npc", "table"),))
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        before = s.state
        await pilot.press("w")
        dlg = app.screen
        assert isinstance(dlg, D20AttackDialog)
        dlg.query_one("#target").value = cid(s, "Bandit 1")
        dlg.query_one("#what").value = "grapple"
        await pilot.pause()
        await fill(pilot, "given", "15")
        await pilot.press("ctrl+s")
        assert isinstance(app.screen, D20AttackDialog)
        assert "The table rolls for NPCs" in dialog_error(pilot)
        assert app.focused is not None and app.focused.id == "target_given"
        assert s.state == before
        await fill(pilot, "given", "18")
        await fill(pilot, "target_given", "3")
        await pilot.press("ctrl+s")
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        assert of(s, "Bandit 1").has("Grappled")  # 18 against 3
        await pilot.press("ctrl+z")
        assert s.state == before
