"""Nine-phase's attack key (`w`, issue 25 item 8): one dialog runs a weapon attack, damage included,
as one command and one undo step. Keys are sent in bursts, as a fast typist or tmux delivers them."""

from __future__ import annotations

from pathlib import Path

from engine import commands as C
from engine.rules.ninephase.attack import NineAttack
from saves.session import Session
from tests.tui.support import app_on, burst, demo_session, dialog_error, main_screen, of, select, sync
from tui.main import MainScreen
from tui.rulesets import get_ui
from tui.rulesets.ninephase.attack import NineAttackDialog


def at_phase(phase: int, *then: C.Command) -> Session:
    s = demo_session("ninephase", start=True)
    while s.state.phase < phase:
        s.apply(C.NextTurn())
    for cmd in then:
        s.apply(cmd)
    return s


def last(s: Session) -> NineAttack:
    cmd = s.history.nodes[s.history.cursor].command
    assert isinstance(cmd, NineAttack), cmd
    return cmd


def test_the_slice_has_w_for_the_attack():
    ui = get_ui("ninephase")
    assert ui.has("attack") and ui.dialog("attack") is NineAttackDialog


@sync
async def test_w_enter_is_a_monsters_whole_attack_and_one_undo_takes_it_back(tmp_path: Path) -> None:
    s = at_phase(4)
    before, steps = s.state, len(s.history.path())
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await select(pilot, "Orc Raider 1")
        await burst(pilot, "w", "enter")
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        cmd = last(s)
        assert cmd.spec is not None and cmd.spec.name == "Cleaver Hack" and cmd.hit
        assert (cmd.target, cmd.dice, cmd.type) == (of(s, "Aldric").id, "1d8+2", "slashing")
        raider, aldric = of(s, "Orc Raider 1"), of(s, "Aldric")
        assert raider.economy.master and [u.activity for u in raider.economy.phases] == ["Cleaver Hack"]
        assert aldric.pool("grit").current < 8  # the damage took Grit first
        assert len(s.history.path()) == steps + 1  # one command, one step
        await burst(pilot, "ctrl+z")
        assert s.state == before


@sync
async def test_a_pc_attack_with_the_catalogs_weapon_its_speed_factor_then_recalled(tmp_path: Path) -> None:
    s = at_phase(4)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await select(pilot, "Aldric")
        # the Speed Factor first (no statblock: the catalog's Weapon attack), the target, the result, the damage
        await burst(pilot, "w", "4", "tab", "tab", "tab", "7", "enter")
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        cmd = last(s)
        assert (cmd.activity, cmd.speed, cmd.damage, cmd.target) == ("Weapon attack", 4, 7, of(s, "Orc Raider 1").id)
        raider = of(s, "Orc Raider 1")
        assert (raider.pool("grit").current, raider.hp) == (0, 11)
        # next round its Speed Factor is remembered: the focus starts on the result
        while s.state.round < 2 or s.state.phase < 4:
            s.apply(C.NextTurn())
        await pilot.pause()
        await burst(pilot, "w", "tab", "5", "enter")
        cmd = last(s)
        assert (cmd.speed, cmd.damage) == (4, 5)


@sync
async def test_another_target_is_shift_tab_and_a_key_away(tmp_path: Path) -> None:
    s = at_phase(4)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await select(pilot, "Orc Raider 2")
        await burst(pilot, "w", "shift+tab", "right", "tab", "enter")  # Aldric is first: the next is Mirelle
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        assert last(s).target == of(s, "Mirelle").id and of(s, "Mirelle").pool("grit").current < 6


@sync
async def test_a_miss_spends_the_activity_and_deals_nothing(tmp_path: Path) -> None:
    s = at_phase(5)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await select(pilot, "Orc Shaman")
        await burst(pilot, "w", "m", "enter")
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        cmd = last(s)
        assert not cmd.hit and cmd.dice == "" and cmd.damage is None
        shaman = of(s, "Orc Shaman")
        assert shaman.economy.master and shaman.economy.actions == 2
        assert of(s, "Aldric").pool("grit").current == 8


@sync
async def test_the_engines_refusals_are_one_line_and_nothing_is_applied(tmp_path: Path) -> None:
    s = at_phase(3)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await select(pilot, "Orc Raider 1")
        depth = s.history.cursor
        await burst(pilot, "w", "enter")  # Cleaver Hack's Speed Factor is 4: not in phase 3
        assert isinstance(app.screen, NineAttackDialog)
        assert dialog_error(pilot) == "Cleaver Hack cannot start before phase 4; it is phase 3."
        assert s.history.cursor == depth
        await burst(pilot, "escape")
        s.apply(C.NextTurn())
        await pilot.pause()
        await burst(pilot, "w", "enter")  # phase 4: it lands
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        depth = s.history.cursor
        # its Master Action is spent: the thrown weapon (the catalog's, Speed Factor 2) is refused
        s.apply(C.NextTurn())
        await pilot.pause()
        await burst(pilot, "w", "shift+tab", "shift+tab", "right", "right", "tab", "2", "enter")
        assert isinstance(app.screen, NineAttackDialog)
        assert dialog_error(pilot) == "Orc Raider 1 has already used its Master Action this round."
        assert s.history.cursor == depth + 1  # only the `next` applied since


@sync
async def test_a_target_dropped_by_the_attack_still_strikes_back_in_this_phase(tmp_path: Path) -> None:
    s = at_phase(4)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await select(pilot, "Aldric")
        await burst(pilot, "w", "4", "tab", "tab", "tab", "3", "0", "enter")  # a killing blow on Orc Raider 1
        raider = of(s, "Orc Raider 1")
        assert raider.down and raider.dropped == (1, 4)
        await select(pilot, "Orc Raider 1")
        await burst(pilot, "w", "tab", "3", "enter")  # down, it still completes phase 4: its blow lands
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        assert last(s).who == raider.id and of(s, "Aldric").pool("grit").current == 5
        s.apply(C.NextTurn())
        await pilot.pause()
        await burst(pilot, "w")  # phase 5: it acts no more, and the dialog says so without opening
        assert isinstance(app.screen, MainScreen)
        shown = [str(n.message) for n in app._notifications]
        assert any("dropped in an earlier phase" in m for m in shown)


@sync
async def test_the_table_rolls_the_dice_for_npcs(tmp_path: Path) -> None:
    s = at_phase(4, C.Setting("roll_npc", "table"))
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await select(pilot, "Orc Raider 1")
        await burst(pilot, "w", "enter")
        assert "The table rolls for NPCs" in dialog_error(pilot)
        await burst(pilot, "5", "enter")  # the cursor waits in Table dice: the d8, the app adds the 2
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        assert (last(s).dice, last(s).given) == ("1d8+2", (5,))
        assert of(s, "Aldric").pool("grit").current == 1
        await burst(pilot, "ctrl+z")
        await select(pilot, "Orc Raider 1")
        await burst(pilot, "w", "tab", "6", "enter")  # or the total called out, over the dice
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        assert (last(s).damage, last(s).dice) == (6, "")


@sync
async def test_the_footer_shows_w_and_another_attacker_gets_its_own_attacks(tmp_path: Path) -> None:
    s = at_phase(5)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await select(pilot, "Orc Raider 2")
        footer = main_screen(pilot).query_one("KeyBar").render().plain
        assert " w Attack " in footer, footer
        await burst(pilot, "w")
        dlg = app.screen
        assert isinstance(dlg, NineAttackDialog)
        await burst(pilot, "shift+tab", "shift+tab", "shift+tab", "right")  # the attacker: Orc Shaman
        # (from the result: the target, the attack, the attacker; the Speed Factor is hidden)
        assert dlg.who == of(s, "Orc Shaman").id
        assert str(dlg.query_one("#weapon").options[0][0]).startswith("Bone Staff 1d6+1 bludgeoning")
        assert dlg.value("amount") == "1d6+1" and dlg.value("type") == "bludgeoning"
        await burst(pilot, "enter")
        assert last(s).who == of(s, "Orc Shaman").id
