"""Several targets at once (issue 14, item 7) and the conditions concentration keeps up (item 8)."""

from __future__ import annotations

import msgspec
import pytest

from engine import History, RuleError, apply, command_union, describe, event_union
from engine import commands as C
from engine import events as E
from engine.area import AreaEffect, AreaTarget, KeptCondition, RemoveConditions
from engine.mechanics import kept_up_ended
from engine.rules.d20.combat import SaveDue
from engine.rules.ninephase.commands import Activity
from engine.rules.ninephase.events import ChannelInterrupted
from tests.engine.support import add, by_name, cid, frozen_copy, log, of, play, setup


def T(who: str, **kw) -> AreaTarget:  # noqa: N802 - reads as the struct it builds
    return AreaTarget(who, **kw)


def d20_fight(seed: int = 5):
    f = setup(
        "d20",
        add("Mage", "pc", "party", hp=30),
        add("Goblin", hp=20, dex=14),
        add("Imp", hp=20, dex=10),
        add("Ogre", hp=40, dex=8),
        seed=seed,
    )
    # the imp resists fire, the ogre is vulnerable to it
    f, _ = play(
        f,
        C.EditCombatant(cid(f, "Imp"), resist=("fire",)),
        C.EditCombatant(cid(f, "Ogre"), vulnerable=("fire",)),
    )
    return f


def hp(f, name: str) -> int:
    return by_name(f, name).hp


# --- the roll, the shares, the saves ------------------------------------------------------------


def test_one_roll_each_target_saves_with_its_own_roll_and_resistances():
    f = d20_fight()
    g, i, o = cid(f, "Goblin"), cid(f, "Imp"), cid(f, "Ogre")
    cmd = AreaEffect(
        (T(g, total=17), T(i, total=3), T(o, given=(15,))),
        amount=21,
        type="fire",
        save="dex",
        dc=15,
        label="Fireball",
        source=cid(f, "Mage"),
    )
    f2, ev = apply(f, cmd)
    lines = log(ev)
    # one line for the roll, then one per target saying how its save went and what it took
    assert lines[0].startswith("Fireball by Mage deals 21 fire to Goblin, Imp, Ogre; Dexterity save DC 15")
    dmg = of(ev, E.Damaged)
    assert [d.name for d in dmg] == ["Goblin", "Imp", "Ogre"]
    assert hp(f2, "Goblin") == 20 - 10  # saved (17 >= 15): half of 21, rounded down
    assert hp(f2, "Imp") == 20 - 10  # failed, resisted: 21 // 2
    assert hp(f2, "Ogre") == 0  # 15 - 1 = 14 fails; vulnerable: 42
    assert "saved, half of 21" in describe(dmg[0])
    assert "failed" in describe(dmg[1]) and "resisted, halved" in describe(dmg[1])
    assert "[15]-1 = 14" in describe(dmg[2]) and "vulnerable, doubled" in describe(dmg[2])
    assert len(of(ev, E.AreaRolled)) == 1


def test_the_damage_is_rolled_once_and_saves_rolled_from_the_sheet():
    f = d20_fight(seed=11)
    g, i = cid(f, "Goblin"), cid(f, "Imp")
    f2, ev = apply(f, AreaEffect((T(g), T(i)), dice="8d6", save="dex", dc=13))
    rolled = of(ev, E.AreaRolled)[0]
    assert rolled.roll is not None and rolled.roll.expr == "8d6" and len(rolled.roll.terms[0].rolls) == 8
    dmg = of(ev, E.Damaged)
    for d in dmg:
        # a share is the roll, or half of it on a save: never a second damage roll
        assert d.rolled in (rolled.amount, rolled.amount // 2)
        assert d.detail.startswith("Dexterity save 1d20")
    assert "1d20+2" in dmg[0].detail and "1d20 =" in dmg[1].detail
    # pure: the same state and command give the same outcome (the dice are in the state)
    assert apply(f, AreaEffect((T(g), T(i)), dice="8d6", save="dex", dc=13)) == (f2, ev)


def test_none_on_a_save_and_the_gms_call():
    f = d20_fight()
    g, i = cid(f, "Goblin"), cid(f, "Imp")
    f2, ev = apply(f, AreaEffect((T(g, total=20), T(i, saved=False)), amount=10, save="dex", dc=12, none_on_save=True))
    assert hp(f2, "Goblin") == 20 and hp(f2, "Imp") == 10
    assert "saved, none" in describe(of(ev, E.Damaged)[0])
    assert "failed its save (the GM's call)" in describe(of(ev, E.Damaged)[1])
    # without a save, the GM's tick halves (rounded down)
    f3, _ = apply(f, AreaEffect((T(g, saved=True), T(i)), amount=9))
    assert hp(f3, "Goblin") == 20 - 4 and hp(f3, "Imp") == 20 - 9


def test_advantage_on_a_dexterity_save_while_dodging():
    f = d20_fight()
    g = cid(f, "Goblin")
    f, _ = play(f, C.AddCondition(g, "Dodging"))
    _, ev = apply(f, AreaEffect((T(g, given=(3, 18)),), amount=8, save="dex", dc=15))
    d = of(ev, E.Damaged)[0]
    assert "adv" in d.detail and "saved" in d.detail and d.amount == 4


def test_heal_several_with_one_roll():
    f = d20_fight()
    g, i = cid(f, "Goblin"), cid(f, "Imp")
    f, _ = play(f, C.Damage(g, 10), C.Damage(i, 3))
    f2, ev = apply(f, AreaEffect((T(g), T(i)), amount=5, heal=True, label="Mass Cure"))
    assert hp(f2, "Goblin") == 15 and hp(f2, "Imp") == 20  # healing stops at the maximum
    assert log(ev)[0] == "Mass Cure heals 5 to Goblin, Imp"
    assert len(of(ev, E.Healed)) == 2


def test_concentration_saves_fall_due_per_target():
    f = d20_fight()
    m, g = cid(f, "Mage"), cid(f, "Goblin")
    f, _ = play(f, C.AddCondition(m, "Concentrating"))
    f2, ev = apply(f, AreaEffect((T(m, saved=False), T(g, saved=True)), amount=24, save="", dc=None))
    due = of(ev, SaveDue)
    assert [(d.name, d.dc) for d in due] == [("Mage", 12)]  # half of 24; the goblin does not concentrate
    assert by_name(f2, "Mage").due[0].dc == 12


def test_one_undo_step():
    f = d20_fight()
    ids = [cid(f, n) for n in ("Goblin", "Imp", "Ogre")]
    h = History.start(f)
    h.apply(AreaEffect(tuple(T(x) for x in ids), dice="4d6", save="con", dc=12))
    done = h.state
    assert all(done.get(x).hp < f.get(x).hp for x in ids)  # 4d6 is at least 4, half at least 2
    h.undo()
    assert h.state == f  # the roll, the saves and every target's damage: one step back
    h.redo()
    assert h.state == done


@pytest.mark.parametrize(
    ("cmd", "message"),
    [
        (AreaEffect((), amount=5), "at least one target"),
        (AreaEffect((T("c2"), T("c2")), amount=5), "Goblin is a target twice"),
        (AreaEffect((T("c2"), T("c99")), amount=5), "No combatant with id 'c99'"),
        (AreaEffect((T("c2"),), amount=5, save="dex"), "Give the DC of the Dexterity save"),
        (AreaEffect((T("c2"),), amount=5, save="luck", dc=10), "ability is one of"),
        (AreaEffect((T("c2"),), amount=5, dc=10), "A DC goes with a save"),
        (AreaEffect((T("c2"),), amount=5, save="dex", dc=0), "A DC is between 1 and 100"),
        (AreaEffect((T("c2"),), dice="2d"), "Cannot read the dice expression .2d."),
        (AreaEffect((T("c2"),), dice="bad"), "Cannot read the dice expression .bad."),
        (AreaEffect((T("c2"),)), "Give a number or a dice expression"),
        (AreaEffect((T("c2", total=10),), amount=5), "no save to roll"),
        (AreaEffect((T("c2", total=10, given=(3,)),), amount=5, save="dex", dc=10), "not both"),
        (AreaEffect((T("c2", total=10, saved=True),), amount=5, save="dex", dc=10), "not both"),
        (AreaEffect((T("c2", total=40),), amount=5, save="dex", dc=10), "not a possible total"),
        (AreaEffect((T("c2"),), amount=5, heal=True, save="dex", dc=10), "Healing has no save"),
        (AreaEffect((T("c2", saved=True),), amount=5, heal=True), "Healing has no save"),
        (AreaEffect((T("c2"),), amount=5, pool="grit"), "no 'grit' track"),
        (AreaEffect((T("c2"),), amount=-5), "cannot be negative"),
    ],
)
def test_refusals_are_one_line_and_change_nothing(cmd, message):
    f = d20_fight()
    before = frozen_copy(f)
    with pytest.raises(RuleError, match=message) as info:
        apply(f, cmd)
    assert "\n" not in str(info.value) and str(info.value)
    assert frozen_copy(f) == before


# --- every ruleset -------------------------------------------------------------------------------


def test_cosmere_and_warhammer_take_the_gms_call_and_refuse_a_rolled_save():
    for rules, key in (("cosmere", "hp"), ("warhammer", "wounds")):
        f = setup(rules, add("A", **{key: 12}), add("B", **{key: 12}))
        a, b = cid(f, "A"), cid(f, "B")
        f2, ev = apply(f, AreaEffect((T(a, saved=True), T(b)), amount=7, type="fire"))
        assert (hp(f2, "A"), hp(f2, "B")) == (12 - 3, 12 - 7)
        with pytest.raises(RuleError, match="has no save for several targets"):
            apply(f, AreaEffect((T(a),), amount=7, save="dex", dc=10))


def test_warhammer_damage_path_reminds_of_zero_wounds_per_target():
    f = setup("warhammer", add("A", wounds=3), add("B", wounds=3))
    f2, ev = apply(f, AreaEffect((T(cid(f, "A")), T(cid(f, "B"))), amount=5))
    assert len([e for e in of(ev, E.Info) if "0 Wounds" in e.text]) == 2
    assert len(of(ev, E.Dropped)) == 2


def test_ninephase_channels_break_grit_first_and_a_save_is_a_save():
    f = setup("ninephase", add("Archer", "pc", "party", hp=10, grit=4), add("Orc", hp=12, grit=3))
    f, _ = play(f, C.StartFight())
    a, o = cid(f, "Archer"), cid(f, "Orc")
    while f.phase < 3:
        f, _ = play(f, C.NextTurn())
    f, _ = play(f, Activity(a, "Storm", cost=3, earliest=3, channel=True), C.NextTurn())
    f2, ev = apply(f, AreaEffect((T(a), T(o, saved=True)), amount=6, label="Blast"))
    broken = of(ev, ChannelInterrupted)
    assert [b.name for b in broken] == ["Archer"]
    # grit first, as the nine-phase Damage command does
    assert by_name(f2, "Archer").pool("grit").current == 0 and hp(f2, "Archer") == 8
    assert by_name(f2, "Orc").pool("grit").current == 0 and hp(f2, "Orc") == 12
    # the GM's call that a channeler saved for none: the save itself breaks the channel
    f3, ev = apply(f, AreaEffect((T(a, saved=True),), amount=6, none_on_save=True))
    assert of(ev, ChannelInterrupted) and hp(f3, "Archer") == 10


def test_the_command_and_its_events_survive_json():
    f = d20_fight()
    cmd = AreaEffect((T("c2", total=12), T("c3", given=(4,)), T("c4", saved=True)), dice="3d6", type="cold",
                     save="con", dc=13, source="c1", label="Cone")
    back = msgspec.json.decode(msgspec.json.encode(cmd), type=command_union())
    assert back == cmd
    _, ev = apply(f, cmd)
    assert msgspec.json.decode(msgspec.json.encode(ev), type=tuple[event_union(), ...]) == ev  # type: ignore[valid-type]
    # targets may be written as plain objects without their tag
    line = b'{"cmd":"area","targets":[{"who":"c2"},{"who":"c3","saved":true}],"amount":4}'
    assert msgspec.json.decode(line, type=command_union()) == AreaEffect((T("c2"), T("c3", saved=True)), amount=4)


# --- concentration's effects -------------------------------------------------------------------


def concentrating():
    f = d20_fight()
    m, g, i = cid(f, "Mage"), cid(f, "Goblin"), cid(f, "Imp")
    f, _ = play(
        f,
        C.AddCondition(m, "Concentrating", note="Hold Monster"),
        KeptCondition(g, "Restrained", m),
        KeptCondition(i, "Frightened", m),
        C.AddCondition(i, "Prone"),
    )
    return f, m, g, i


def test_a_kept_condition_names_its_caster():
    f, m, g, _ = concentrating()
    cond = by_name(f, "Goblin").condition("Restrained")
    assert cond is not None and (cond.source, cond.through) == (m, "Concentrating")
    _, ev = apply(f, KeptCondition(cid(f, "Ogre"), "Slowed", m))
    assert log(ev) == ["Ogre is Slowed (kept up by Mage's concentration)"]
    with pytest.raises(RuleError, match="Goblin is not Concentrating"):
        apply(f, KeptCondition(m, "Blinded", g))
    with pytest.raises(RuleError, match="Name the caster"):
        apply(f, KeptCondition(g, "Blinded", ""))
    with pytest.raises(RuleError, match="cannot keep itself up"):
        apply(f, KeptCondition(m, "Concentrating", m))
    w = setup("warhammer", add("A"), add("B"))
    with pytest.raises(RuleError, match="has no concentration"):
        apply(w, KeptCondition("c2", "Prone", "c1"))
    # a ruleset without concentration may still name the caster's condition that keeps it up
    w, _ = play(w, C.AddCondition("c1", "Channelling"))
    w, _ = play(w, KeptCondition("c2", "Prone", "c1", through="channelling"))
    assert w.get("c2").condition("Prone").through == "Channelling"


@pytest.mark.parametrize(
    "ending",
    [
        "removed",
        "incapacitated",
        "failed save",
        "new concentration",
        "down",
        "left the fight",
    ],
)
def test_every_way_concentration_ends_offers_what_it_kept_up(ending):
    f, m, g, i = concentrating()
    if ending == "down":  # an NPC caster out of the fight stops concentrating
        f, _ = play(f, C.EditCombatant(m, kind="npc"))
    cmd = {
        "removed": C.RemoveCondition(m, "Concentrating"),
        "incapacitated": C.AddCondition(m, "Stunned"),
        "failed save": None,
        "new concentration": C.AddCondition(m, "Concentrating", note="Web"),
        "down": C.Damage(m, 99),
        "left the fight": C.RemoveCombatant(m),
    }[ending]
    if cmd is None:
        from engine.rules.d20.combat import D20Test

        f, _ = play(f, C.Damage(m, 4))
        cmd = D20Test(m, ability="con", total=2, resolves="concentration")
    after, ev = apply(f, cmd)
    left = kept_up_ended(f, after, ev)
    assert {(k.who, k.name) for k in left} == {(g, "Restrained"), (i, "Frightened")}
    # ending them is one command, one undo step
    h = History.start(after)
    h.apply(RemoveConditions(tuple((k.who, k.name) for k in left), "Mage's concentration ended"))
    assert not h.state.get(g).has("Restrained") and not h.state.get(i).has("Frightened")
    assert h.state.get(i).has("Prone")  # not kept up by anyone: untouched
    h.undo()
    assert h.state == after


def test_nothing_is_offered_while_concentration_holds():
    f, m, g, i = concentrating()
    for cmd in (C.Damage(m, 3), C.RemoveCondition(i, "Prone"), C.AddCondition(g, "Prone"), C.NextTurn()):
        try:
            after, ev = apply(f, cmd)
        except RuleError:
            continue
        assert kept_up_ended(f, after, ev) == ()
    # a condition kept up by the new concentration is not the old one's
    f2, _ = play(f, C.RemoveCondition(g, "Restrained"))
    after, ev = apply(f2, C.AddCondition(m, "Concentrating"))
    assert [(k.who, k.name) for k in kept_up_ended(f2, after, ev)] == [(i, "Frightened")]


def test_remove_conditions_refusals():
    f, m, g, i = concentrating()
    before = frozen_copy(f)
    for cmd, message in (
        (RemoveConditions(()), "at least one"),
        (RemoveConditions(((g, "Restrained"), (g, "restrained"))), "named twice"),
        (RemoveConditions(((g, "Blinded"),)), "Goblin is not Blinded any more"),
        (RemoveConditions((("c99", "Prone"),)), "No combatant"),
    ):
        with pytest.raises(RuleError, match=message):
            apply(f, cmd)
    assert frozen_copy(f) == before


def test_a_kept_condition_takes_every_field_a_condition_has():
    # the condition dialog sends a kept condition with what it filled in: none may be left behind
    have = {f.name for f in msgspec.structs.fields(KeptCondition)}
    assert {f.name for f in msgspec.structs.fields(C.AddCondition)} <= have
