"""The attack dialog fills the attacker's own fields (bonus or skill, weapon, damage, range, ability...)
from that attacker's last attack in the fight's history; switching the attacker refills what the GM has
not typed in. The target, the dice and the situation are never filled. At 80x24; the assertions are on
the commands the dialog sent and the state they produced."""

from __future__ import annotations

from pathlib import Path

from engine import commands as C
from engine.rules.cosmere.combat import CosmereAttack
from engine.rules.cosmere.commands import StartTurn
from engine.rules.d20.combat import D20Attack
from engine.rules.warhammer.combat import Attack as WhAttack
from saves.session import Session
from tests.tui.support import app_on, cid, demo_session, dialog_error, of, sync
from tui.attack import last_attack
from tui.main import MainScreen
from tui.rulesets.cosmere.dialogs import CosmereAttackDialog
from tui.rulesets.d20.dialogs import D20AttackDialog
from tui.rulesets.warhammer.dialogs import WarhammerAttackDialog


def last_command(s):  # type: ignore[no-untyped-def]
    return s.history.nodes[s.history.cursor].command


async def fill(pilot, wid: str, value) -> None:  # type: ignore[no-untyped-def]
    pilot.app.screen.query_one(f"#{wid}").value = value
    await pilot.pause()


def shortbow(s, **kw):  # type: ignore[no-untyped-def]
    """Brannoc's earlier shot: a miss (2 and 1), paid for already, so the demo's turn is untouched."""
    fields = dict(
        ability="dex",
        kind="ranged",
        damage="1d6",
        type="piercing",
        label="shortbow",
        use="none",
        given=(2, 1),  # advantage: two d20s
        high_ground=True,
        advantage=("Help",),
    )
    fields.update(kw)
    return D20Attack(cid(s, "Brannoc"), cid(s, "Bandit 2"), **fields)


def scimitar(s):  # type: ignore[no-untyped-def]
    return D20Attack(
        cid(s, "Bandit 1"), cid(s, "Ysolde"), bonus=4, damage="1d6", mod=2, label="scimitar", use="none", given=(2,)
    )


@sync
async def test_d20_dialog_fills_the_attackers_weapon_from_its_last_attack(tmp_path: Path) -> None:
    s = demo_session("d20", start=True)
    s.apply(shortbow(s))
    s.apply(C.Note("between the attacks"))
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        assert s.state.current == cid(s, "Brannoc")
        await pilot.press("w")
        dlg = app.screen
        assert isinstance(dlg, D20AttackDialog)
        assert dlg.choice("ability") == "dex" and dlg.choice("kind") == "ranged" and dlg.checked("proficient")
        assert (dlg.value("label"), dlg.value("damage"), dlg.value("type")) == ("shortbow", "1d6", "piercing")
        assert dlg.value("bonus") == "" and dlg.value("mod") == ""
        # the situation and the dice are the moment's, and the target is chosen afresh
        assert not dlg.checked("high_ground") and dlg.value("adv") == "" and dlg.value("given") == ""
        assert dlg.choice("target") == cid(s, "Bandit 1") and dlg.choice("use") == "action"
        assert "(Dex +2, proficiency +2; damage +2)" in str(dlg.query_one("#odds").render())
        await fill(pilot, "given", "15")  # 19 vs AC 12
        await fill(pilot, "damage_given", "4")
        await pilot.press("enter")
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        cmd = last_command(s)
        assert (cmd.label, cmd.ability, cmd.kind) == ("shortbow", "dex", "ranged")
        assert (cmd.damage, cmd.type) == ("1d6", "piercing")
        assert not cmd.high_ground and not cmd.advantage and cmd.use == "action"
        assert of(s, "Bandit 1").health[0].current == 11 - (4 + 2)


@sync
async def test_d20_switching_the_attacker_refills_only_what_the_gm_did_not_type(tmp_path: Path) -> None:
    s = demo_session("d20", start=True)
    s.apply(shortbow(s))
    s.apply(scimitar(s))
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("w")
        dlg = app.screen
        assert isinstance(dlg, D20AttackDialog)
        assert dlg.value("label") == "shortbow"
        await fill(pilot, "label", "longbow")  # the GM's own word
        await fill(pilot, "attacker", cid(s, "Bandit 1"))
        assert (dlg.value("bonus"), dlg.value("damage"), dlg.value("mod")) == ("4", "1d6", "2")
        assert dlg.choice("ability") == "auto" and dlg.choice("kind") == "melee"
        assert dlg.value("label") == "longbow"  # typed since the dialog opened: kept
        # the wolf has not attacked: its fields go back to the empty defaults, the typed one stays
        await fill(pilot, "attacker", cid(s, "Grey Wolf"))
        assert (dlg.value("bonus"), dlg.value("damage"), dlg.value("mod"), dlg.value("type")) == ("", "", "", "")
        assert dlg.choice("kind") == "melee" and dlg.value("label") == "longbow"
        await fill(pilot, "attacker", cid(s, "Bandit 1"))
        await fill(pilot, "target", cid(s, "Brannoc"))  # AC 17
        await fill(pilot, "use", "none")
        await fill(pilot, "given", "15")
        await fill(pilot, "damage_given", "3")
        await pilot.press("enter")
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        cmd = last_command(s)
        assert cmd.who == cid(s, "Bandit 1") and cmd.target == cid(s, "Brannoc")
        assert (cmd.bonus, cmd.damage, cmd.mod, cmd.label, cmd.ability) == (4, "1d6", 2, "longbow", "")
        assert of(s, "Brannoc").health[0].current == 34 - 5


def turn_of(s, name: str) -> None:  # type: ignore[no-untyped-def]
    """On through the order to `name`'s turn (round 2 if it has had its turn this round)."""
    s.apply(C.NextTurn())
    for _ in range(len(s.state.combatants) + 1):
        if s.state.current == cid(s, name):
            return
        s.apply(C.NextTurn())
    raise AssertionError(f"never {name}'s turn")


@sync
async def test_d20_an_undone_attack_is_not_remembered_and_a_power_stays_a_power(tmp_path: Path) -> None:
    s = demo_session("d20", start=True)
    ysolde = cid(s, "Ysolde")
    s.apply(C.EditCombatant(ysolde, stats=(("cha", 16),)))
    turn_of(s, "Ysolde")
    s.apply(D20Attack(ysolde, cid(s, "Bandit 1"), ability="cha", use="power", label="Fire Bolt", given=(2,)))
    s.apply(shortbow(s))
    s.undo()  # the shot is taken back: not Brannoc's last attack any more
    turn_of(s, "Ysolde")
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("w")
        dlg = app.screen
        assert isinstance(dlg, D20AttackDialog)
        assert dlg.value("label") == "Fire Bolt" and dlg.choice("ability") == "cha" and dlg.choice("use") == "power"
        assert "(Cha +3, proficiency +2)" in str(dlg.query_one("#odds").render())
        await fill(pilot, "attacker", cid(s, "Brannoc"))
        assert dlg.value("label") == "" and dlg.choice("ability") == "auto" and dlg.choice("use") == "action"
        await fill(pilot, "attacker", ysolde)
        await fill(pilot, "target", cid(s, "Bandit 2"))
        await fill(pilot, "given", "19")
        await pilot.press("enter")
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        cmd = last_command(s)
        assert (cmd.who, cmd.ability, cmd.use, cmd.label) == (ysolde, "cha", "power", "Fire Bolt")
        assert of(s, "Ysolde").economy.actions == 0


@sync
async def test_the_last_attack_survives_quitting_and_reopening(tmp_path: Path) -> None:
    memory = demo_session("d20", start=True)
    path = tmp_path / "fight.fracas"
    s = Session.create(path, memory.history.nodes[0].state)
    for i in memory.history.path()[1:]:
        cmd = memory.history.nodes[i].command
        assert cmd is not None
        s.apply(cmd)
    s.apply(shortbow(s))
    s.close()
    s = Session.open(path)
    try:
        app = app_on(s, tmp_path)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("w")
            dlg = app.screen
            assert isinstance(dlg, D20AttackDialog)
            assert dlg.value("label") == "shortbow" and dlg.choice("ability") == "dex"
            await fill(pilot, "given", "1")
            await pilot.press("enter")
            assert isinstance(app.screen, MainScreen), dialog_error(pilot)
            assert last_command(s).label == "shortbow"
    finally:
        s.close()


def test_last_attack_walks_back_from_the_cursor_and_stops_at_the_cap() -> None:
    s = demo_session("d20", start=True)
    brannoc = cid(s, "Brannoc")
    s.apply(shortbow(s))
    for i in range(5):
        s.apply(C.Note(f"note {i}"))
    assert last_attack(s.history, brannoc, (D20Attack,)).label == "shortbow"
    assert last_attack(s.history, brannoc, (D20Attack,), cap=5) is None  # six nodes back
    assert last_attack(s.history, cid(s, "Bandit 1"), (D20Attack,)) is None
    s.apply(shortbow(s, label="second shot"))
    assert last_attack(s.history, brannoc, (D20Attack,)).label == "second shot"


@sync
async def test_cosmere_dialog_fills_skill_weapon_and_range_not_targets_or_situation(tmp_path: Path) -> None:
    s = demo_session("cosmere", start=True)
    kaladin, w1, w2 = cid(s, "Kaladin"), cid(s, "Parshendi Warrior 1"), cid(s, "Parshendi Warrior 2")
    s.apply(StartTurn(kaladin))
    s.apply(
        CosmereAttack(
            kaladin,
            (w2,),
            modifier=4,
            damage="1d6",
            type="keen",
            kind="ranged",
            range="30/120",
            distance=(40,),
            label="shortbow",
            use="none",
            unstable=True,
            ally=cid(s, "Shallan"),
            given=(2, 2),
            damage_given=(1,),
        )
    )
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("w")
        dlg = app.screen
        assert isinstance(dlg, CosmereAttackDialog)
        assert (dlg.value("modifier"), dlg.value("damage"), dlg.value("type")) == ("4", "1d6", "keen")
        assert (dlg.value("range"), dlg.value("label"), dlg.choice("kind")) == ("30/120", "shortbow", "ranged")
        assert dlg.value("distance") == "" and not dlg.checked("unstable") and dlg.choice("ally") == ""
        assert not dlg.ticked("t", w2)
        dlg.box("t", w1).value = True  # type: ignore[union-attr]
        await pilot.pause()
        await fill(pilot, "given", "12")  # 16 vs Physical 14
        await fill(pilot, "damage_given", "3")
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        cmd = last_command(s)
        assert cmd.targets == (w1,) and (cmd.label, cmd.range, cmd.modifier) == ("shortbow", "30/120", 4)
        assert not cmd.unstable and cmd.distance == () and cmd.ally == "" and cmd.use == "action"
        assert of(s, "Parshendi Warrior 1").health[0].current == 18 - 7


@sync
async def test_warhammer_dialog_fills_the_weapon_not_the_modifier(tmp_path: Path) -> None:
    s = demo_session("warhammer", start=True)
    app = app_on(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(len(s.state.combatants) + 1):
            if s.state.current == cid(s, "Thesalva"):
                break
            app.commit(C.NextTurn())
        thesalva, goblin = cid(s, "Thesalva"), cid(s, "Goblin 1")
        app.commit(
            WhAttack(
                thesalva,
                goblin,
                weapon="throwing knife",
                kind="thrown",
                damage=3,
                impale=True,
                skill="bs",
                modifier=20,
                given_attack=(99,),
            )
        )
        await pilot.pause()
        app.commit(C.NextTurn())
        for _ in range(len(s.state.combatants) + 1):
            if s.state.current == thesalva:
                break
            app.commit(C.NextTurn())
        await pilot.pause()
        await pilot.press("w")
        dlg = app.screen
        assert isinstance(dlg, WarhammerAttackDialog)
        assert (dlg.value("weapon"), dlg.choice("kind"), dlg.choice("skill")) == ("throwing knife", "thrown", "bs")
        assert dlg.value("damage") == "3" and dlg.checked("impale") and dlg.value("modifier") == "0"
        await fill(pilot, "target", goblin)
        await fill(pilot, "given_attack", "99")  # a miss (and a fumble)
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, MainScreen), dialog_error(pilot)
        cmd = last_command(s)
        assert (cmd.weapon, cmd.kind, cmd.skill, cmd.damage, cmd.impale, cmd.modifier) == (
            "throwing knife",
            "thrown",
            "bs",
            3,
            True,
            0,
        )
