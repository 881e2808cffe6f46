"""A statblock's abilities at the table (issue 24): damage and condition immunity, pools spent all or
nothing with the ability that uses them, refreshed and recharged at their owner's turn, d20's
legendary actions, Legendary Resistance and lair actions, and UseAbility under each ruleset's economy."""

from __future__ import annotations

import pytest

from engine import History, RuleError, apply, pools
from engine import commands as C
from engine import events as E
from engine.area import AreaEffect, AreaTarget
from engine.library import abilities
from engine.rules.d20.combat import D20Attack, D20Test
from engine.rules.ninephase.commands import Activity
from engine.state import Due, Pool
from tests.engine.support import by_name, frozen_copy, log, of, play, setup

BREATH = Pool("Fire Breath", 1, 1, recharge=5)
LEGENDARY = Pool(pools.LEGENDARY, 3, 3, refresh=True)
RESIST = Pool(pools.LEGENDARY_RESISTANCE, 2, 2)


def dragon(**kw) -> C.AddCombatant:
    base = dict(
        stats=(("hp", 200), ("dex", 10), ("ac", 19)),
        immune=("fire",),
        condition_immune=("Frightened",),
        resources=(BREATH, LEGENDARY, RESIST),
    )
    base.update(kw)
    return C.AddCombatant("Red Dragon", **base)  # type: ignore[arg-type]


def pc(name: str, **kw) -> C.AddCombatant:
    return C.AddCombatant(name, kind="pc", side="party", stats=(("hp", 60), ("dex", 10)), **kw)


def fight(rules: str = "d20", seed: int = 3):
    """The dragon first in the order (d20: initiative 20), two PCs after it; started."""
    f = setup(rules, dragon(), pc("Ana"), pc("Bo", condition_immune=("frightened",)), seed=seed)
    start = C.StartFight(initiative=(("c1", (20,)), ("c2", (10,)), ("c3", (5,)))) if rules == "d20" else C.StartFight()
    f, _ = play(f, start)
    return f


def pool(f, name: str, key: str) -> Pool:
    p = pools.find_pool(by_name(f, name), key)
    assert p is not None
    return p


def breath(**kw) -> AreaEffect:
    base = dict(
        targets=(AreaTarget("c2", given=(2,)), AreaTarget("c3", given=(18,))),
        dice="18d6",
        type="fire",
        save="dex",
        dc=21,
        source="c1",
        ability="Fire Breath",
        spend=(("Fire Breath", 1),),
    )
    base.update(kw)
    return AreaEffect(**base)  # type: ignore[arg-type]


# --- the names the library and the engine share -------------------------------------------------


def test_the_library_names_the_pools_the_engine_reads():
    assert abilities.LEGENDARY == pools.LEGENDARY
    assert abilities.LEGENDARY_RESISTANCE == pools.LEGENDARY_RESISTANCE
    made = abilities.pools((), legendary=3, resistance=2)
    assert [p.key for p in made] == [pools.LEGENDARY, pools.LEGENDARY_RESISTANCE]
    assert made[0].refresh and not made[1].refresh


# --- damage immunity ------------------------------------------------------------------------------


@pytest.mark.parametrize("rules", ["d20", "cosmere", "ninephase", "warhammer"])
def test_damage_of_a_type_it_is_immune_to_deals_nothing_in_every_ruleset(rules):
    def health(f) -> int:  # every track (nine-phase: Grit, then Hit Points)
        return sum(p.current for p in by_name(f, "Salamander").health)

    f = setup(rules, C.AddCombatant("Salamander", stats=(("hp", 30),), immune=("Fire",)))
    before = health(f)
    f, ev = play(f, C.Damage("c1", 12, type="fire"))
    assert health(f) == before
    hit = of(ev, E.Damaged)[0]
    assert (hit.amount, hit.rolled) == (0, 12)
    assert "immune to fire" in log(ev)[0]
    # another type still lands
    f, _ = play(f, C.Damage("c1", 5, type="cold"))
    assert health(f) == before - 5


def test_immunity_comes_before_resistance_and_owes_no_concentration_save():
    f = setup("d20", C.AddCombatant("Mage", stats=(("hp", 30),), immune=("fire",), resist=("fire",)))
    f, _ = play(f, C.AddCondition("c1", "Concentrating"))
    f, ev = play(f, C.Damage("c1", 30, type="fire"))
    assert by_name(f, "Mage").hp == 30 and not by_name(f, "Mage").due
    assert log(ev) == ["Mage takes 0 fire damage (immune to fire), 30 left"]


def test_an_area_share_meets_the_targets_immunity():
    f = fight()
    f, ev = play(f, AreaEffect(targets=(AreaTarget("c1"), AreaTarget("c2")), amount=20, type="fire"))
    assert by_name(f, "Red Dragon").hp == 200 and by_name(f, "Ana").hp == 40
    assert any("Red Dragon takes 0 fire damage (immune to fire)" in line for line in log(ev))


# --- condition immunity ---------------------------------------------------------------------------


def test_a_condition_it_is_immune_to_is_refused_unless_the_gm_overrides():
    f = fight()
    with pytest.raises(RuleError, match="Red Dragon is immune to Frightened"):
        apply(f, C.AddCondition("c1", "frightened"))
    f, _ = play(f, C.AddCondition("c1", "Frightened", override=True))
    assert by_name(f, "Red Dragon").has("Frightened")


def test_an_area_condition_skips_the_immune_and_says_so():
    f = fight()
    f, ev = play(f, breath(condition="Frightened"))
    assert by_name(f, "Ana").has("Frightened")  # failed its save
    assert not by_name(f, "Bo").has("Frightened")  # failed too, but immune
    assert "Bo is immune to Frightened: not given" in log(ev)


def test_an_area_condition_goes_only_to_those_who_fail():
    f = fight()
    f, _ = play(f, breath(condition="Prone", targets=(AreaTarget("c2", given=(2,)), AreaTarget("c3", given=(20,)))))
    # Bo's 20 with no Dexterity bonus is not 21: a failure too; Ana's 2 fails
    assert by_name(f, "Ana").has("Prone") and by_name(f, "Bo").has("Prone")
    f = fight()
    f, _ = play(
        f,
        AreaEffect(
            targets=(AreaTarget("c2", saved=True), AreaTarget("c3")), amount=4, source="c1", condition="Prone"
        ),
    )
    assert not by_name(f, "Ana").has("Prone") and by_name(f, "Bo").has("Prone")


# --- spending: all or nothing ---------------------------------------------------------------------


def test_the_breath_spends_its_pool_with_one_line_in_the_gms_words_and_one_undo():
    f = fight()
    h = History.start(f)
    lines = log(h.apply(breath()))
    assert lines[0].startswith("Red Dragon uses Fire Breath (DC 21 Dex): ")
    assert "Red Dragon spends 1 Fire Breath (0 left)" in lines
    assert pool(h.state, "Red Dragon", "Fire Breath").current == 0
    h.undo()
    assert pool(h.state, "Red Dragon", "Fire Breath").current == 1
    assert h.state == f


def test_a_spent_breath_is_refused_whole_with_its_recharge():
    f = fight()
    f, _ = play(f, breath())
    before = frozen_copy(f)
    with pytest.raises(RuleError, match=r"^Fire Breath is spent \(it recharges on 5-6\)\.$"):
        apply(f, breath())
    assert frozen_copy(f) == before


def test_spending_is_all_or_nothing_across_pools():
    f = fight()
    short = breath(spend=(("Fire Breath", 1), (pools.LEGENDARY, 4)))
    with pytest.raises(RuleError, match="only 3 Legendary actions left, not 4"):
        apply(f, short)
    # nothing was taken: the breath is still there
    assert pool(f, "Red Dragon", "Fire Breath").current == 1
    with pytest.raises(RuleError, match="has no 'Wing Attack' to spend"):
        apply(f, C.UseAbility("c1", "Wing Attack", spend=(("Wing Attack", 1),)))
    with pytest.raises(RuleError, match="Name who uses Fire Breath"):
        apply(f, breath(source=""))


def test_an_attack_spends_its_slot_with_it():
    f = setup(
        "d20",
        C.AddCombatant("Mage", stats=(("hp", 30),), resources=(Pool("Spell slots 1", 1, 1),)),
        C.AddCombatant("Orc", stats=(("hp", 30), ("ac", 10))),
    )
    f, _ = play(f, C.StartFight(initiative=(("c1", (20,)), ("c2", (1,)))))
    cast = D20Attack("c1", "c2", bonus=5, damage="1d10", use="power", label="Witch Bolt", spend=(("spell slots 1", 1),),
                     given=(15,), damage_given=(6,))
    g, ev = play(f, cast)
    assert pool(g, "Mage", "Spell slots 1").current == 0
    assert "Mage spends 1 Spell slots 1 (0 left)" in log(ev)
    g, _ = play(g, C.NextTurn(), C.NextTurn())
    with pytest.raises(RuleError, match="has no Spell slots 1 left"):
        apply(g, cast)


# --- refresh and recharge at the turn's start -------------------------------------------------------


def test_the_recharge_is_owed_at_its_turn_start_only_when_spent():
    f = fight()
    assert not by_name(f, "Red Dragon").due  # full at its first turn: nothing owed
    f, _ = play(f, breath(), C.NextTurn(), C.NextTurn())
    assert not by_name(f, "Red Dragon").due  # owed at its own turn's start, not at another's
    f, ev = play(f, C.NextTurn())  # round 2: the dragon's turn
    assert by_name(f, "Red Dragon").due == (Due("recharge Fire Breath", 5, "d6"),)
    assert "Red Dragon's Fire Breath may recharge: roll a d6 (5-6 brings it back)" in log(ev)


@pytest.mark.parametrize("die,back", [(4, False), (5, True), (6, True)])
def test_the_tables_die_below_or_at_the_threshold(die, back):
    f = fight()
    f, _ = play(f, breath(), C.NextTurn(), C.NextTurn(), C.NextTurn())
    f, ev = play(f, C.Recharge("c1", "Fire Breath", given=die))
    assert pool(f, "Red Dragon", "Fire Breath").current == (1 if back else 0)
    assert not by_name(f, "Red Dragon").due  # settled either way
    want = "recharged" if back else "still spent (needs 5-6)"
    assert log(ev) == [f"Red Dragon's Fire Breath recharge: 1d6 = [{die}] = {die} (entered): {want}"]


def test_the_recharge_rolled_with_a_seeded_rng_is_the_same_each_time():
    f = fight(seed=11)
    f, _ = play(f, breath(), C.NextTurn(), C.NextTurn(), C.NextTurn())
    a, ev_a = apply(f, C.Recharge("c1", "Fire Breath"))
    b, ev_b = apply(f, C.Recharge("c1", "Fire Breath"))
    assert a == b and log(ev_a) == log(ev_b)
    r = of(ev_a, E.Recharged)[0]
    assert r.success == (r.roll.total >= 5) and not r.roll.entered
    assert pool(a, "Red Dragon", "Fire Breath").current == (1 if r.success else 0)
    assert a.rng != f.rng  # the app rolled: the dice moved on


def test_a_recharge_not_owed_or_not_possible_is_refused():
    f = fight()
    with pytest.raises(RuleError, match="Fire Breath is ready: there is nothing to recharge"):
        apply(f, C.Recharge("c1", "Fire Breath"))
    with pytest.raises(RuleError, match="Legendary actions has no recharge roll"):
        apply(f, C.Recharge("c1", pools.LEGENDARY))
    f, _ = play(f, breath())
    with pytest.raises(RuleError, match="not a possible"):
        apply(f, C.Recharge("c1", "Fire Breath", given=7))


def test_an_unrolled_recharge_is_owed_once_and_dropped_when_restored_by_hand():
    f = fight()
    f, _ = play(f, breath(), *[C.NextTurn()] * 6)  # two of its turns start, nothing rolled
    assert [d.what for d in by_name(f, "Red Dragon").due] == ["recharge Fire Breath"]
    f, _ = play(f, C.RestoreResource("c1", "fire breath"))
    assert not by_name(f, "Red Dragon").due


def test_legendary_actions_refresh_at_the_creatures_turn_start_only():
    f = fight()
    f, _ = play(f, C.NextTurn())  # Ana's turn
    f, ev = play(f, C.UseAbility("c1", "Tail Attack", spend=((pools.LEGENDARY, 2),), act="legendary"))
    assert log(ev)[:2] == ["Red Dragon uses Tail Attack (legendary)", "Red Dragon spends 2 Legendary actions (1 left)"]
    f, _ = play(f, C.NextTurn())  # Bo's turn: nothing back
    assert pool(f, "Red Dragon", pools.LEGENDARY).current == 1
    f, ev = play(f, C.NextTurn())  # the dragon's turn
    assert pool(f, "Red Dragon", pools.LEGENDARY).current == 3
    assert "Red Dragon regains 2 Legendary actions (3 left)" in log(ev)


def test_a_lost_turn_still_refreshes_and_a_creature_down_is_passed_over():
    f = fight()
    f, _ = play(f, C.NextTurn(), C.UseAbility("c1", "Wing", spend=((pools.LEGENDARY, 1),), act="legendary"))
    f, _ = play(f, C.AddCondition("c1", "Stunned"), C.NextTurn(), C.NextTurn())
    assert f.round == 2 and f.current == "c2"  # the dragon's turn was lost to Stunned...
    assert pool(f, "Red Dragon", pools.LEGENDARY).current == 3  # ...but it started: they came back
    # down at 0 hit points, nothing comes back and nothing is owed
    f, _ = play(f, C.RemoveCondition("c1", "Stunned"), C.UseAbility("c1", "Wing", spend=((pools.LEGENDARY, 1),),
                                                                    act="legendary"))
    f, _ = play(f, C.SpendResource("c1", "Fire Breath"), C.Damage("c1", 500), C.NextTurn(), C.NextTurn())
    assert f.round == 3 and by_name(f, "Red Dragon").down
    assert pool(f, "Red Dragon", pools.LEGENDARY).current == 2 and not by_name(f, "Red Dragon").due


def test_nine_phase_refreshes_and_owes_recharges_at_the_start_of_each_round():
    f = fight("ninephase")
    f, _ = play(f, breath(targets=(AreaTarget("c2", saved=False),), save="", dc=None))
    f, ev = play(f, *[C.NextTurn()] * 8)
    assert not by_name(f, "Red Dragon").due
    f, ev = play(f, C.NextTurn())  # round 2
    assert [d.what for d in by_name(f, "Red Dragon").due] == ["recharge Fire Breath"]
    f, _ = play(f, C.Recharge("c1", "Fire Breath", given=6))
    assert pool(f, "Red Dragon", "Fire Breath").current == 1


@pytest.mark.parametrize("rules", ["cosmere", "warhammer"])
def test_the_other_turn_based_rulesets_owe_the_recharge_at_its_turn(rules):
    f = setup(rules, dragon(), pc("Ana"))
    f, _ = play(f, breath(targets=(AreaTarget("c2"),), save="", dc=None), C.StartFight())
    for _ in range(12):
        if f.current == "c1":
            break
        f, _ = play(f, C.NextTurn())
    assert f.current == "c1"
    assert [d.what for d in by_name(f, "Red Dragon").due] == ["recharge Fire Breath"]


# --- d20: legendary actions, Legendary Resistance, lair actions ------------------------------------


def test_legendary_actions_are_refused_on_the_creatures_own_turn():
    f = fight()
    assert f.current == "c1"
    msg = r"^Legendary actions are taken at the end of another creature's turn\.$"
    with pytest.raises(RuleError, match=msg):
        apply(f, C.UseAbility("c1", "Tail Attack", spend=((pools.LEGENDARY, 1),), act="legendary"))
    # whatever command spends them
    with pytest.raises(RuleError, match=msg):
        apply(f, breath(spend=((pools.LEGENDARY, 2),)))
    with pytest.raises(RuleError, match=msg):
        apply(f, D20Attack("c1", "c2", bonus=14, damage="2d8", use="none", spend=((pools.LEGENDARY, 1),)))
    # a legendary action names what it costs
    f, _ = play(f, C.NextTurn())
    with pytest.raises(RuleError, match="A legendary action spends Legendary actions"):
        apply(f, C.UseAbility("c1", "Tail Attack", act="legendary"))
    f, _ = play(f, D20Attack("c1", "c2", bonus=14, damage="2d8", use="none", label="Tail",
                             spend=((pools.LEGENDARY, 1),), given=(15,), damage_given=(4, 4)))
    assert pool(f, "Red Dragon", pools.LEGENDARY).current == 2


def test_legendary_resistance_turns_a_failed_area_save_into_a_success():
    f = fight()
    spell = AreaEffect(targets=(AreaTarget("c1", given=(3,), legendary=True),), amount=40, type="cold",
                       save="dex", dc=18, source="c2", label="Cone of Cold")
    f, ev = play(f, spell)
    assert by_name(f, "Red Dragon").hp == 180  # half of 40
    assert pool(f, "Red Dragon", pools.LEGENDARY_RESISTANCE).current == 1
    lines = log(ev)
    assert "Red Dragon uses Legendary Resistance: the failed save succeeds instead (1 left)" in lines
    assert any("Legendary Resistance: a success instead (1 left), half of 40" in x for x in lines)
    # a save that succeeds on its own spends nothing
    f, _ = play(f, AreaEffect(targets=(AreaTarget("c1", given=(19,), legendary=True),), amount=10, type="cold",
                              save="dex", dc=18))
    assert pool(f, "Red Dragon", pools.LEGENDARY_RESISTANCE).current == 1


def test_legendary_resistance_is_refused_when_none_is_left():
    f = fight()
    f, _ = play(f, C.SpendResource("c1", pools.LEGENDARY_RESISTANCE, 2))
    with pytest.raises(RuleError, match=r"Red Dragon has no Legendary Resistance left \(0 of 2\)"):
        apply(f, AreaEffect(targets=(AreaTarget("c1", legendary=True),), amount=10, save="dex", dc=10))
    with pytest.raises(RuleError, match="has no Legendary Resistance left"):
        apply(f, D20Test("c1", ability="con", dc=15, legendary=True, given=(2,)))
    with pytest.raises(RuleError, match=r"^Ana has no Legendary Resistance\.$"):
        apply(f, AreaEffect(targets=(AreaTarget("c2", legendary=True),), amount=1, save="dex", dc=10))
    with pytest.raises(RuleError, match="Legendary Resistance has no failure to turn"):
        apply(f, AreaEffect(targets=(AreaTarget("c1", legendary=True),), amount=1))


def test_legendary_resistance_on_a_single_save():
    f = fight()
    f, ev = play(f, D20Test("c1", ability="wis", dc=17, given=(4,), legendary=True))
    assert of(ev, E.Info)[0].text.endswith("succeeds instead (1 left)")
    assert pool(f, "Red Dragon", pools.LEGENDARY_RESISTANCE).current == 1
    f, _ = play(f, C.SavingThrow("c1", "d20", 15, given=(3,), legendary=True))
    assert pool(f, "Red Dragon", pools.LEGENDARY_RESISTANCE).current == 0
    with pytest.raises(RuleError, match="give the save's DC"):
        apply(f, C.SavingThrow("c1", "d20", given=(3,), legendary=True))
    # a success on its own keeps it
    f = fight()
    f, _ = play(f, C.SavingThrow("c1", "d20", 15, given=(16,), legendary=True))
    assert pool(f, "Red Dragon", pools.LEGENDARY_RESISTANCE).current == 2


def test_legendary_resistance_settles_a_save_against_a_condition_as_a_success():
    f = fight()
    f, _ = play(f, C.AddCondition("c1", "Confused", dc=15), C.NextTurn())
    assert [d.what for d in by_name(f, "Red Dragon").due] == ["Confused"]
    f, _ = play(f, D20Test("c1", ability="wis", resolves="Confused", given=(2,), legendary=True))
    assert not by_name(f, "Red Dragon").has("Confused")


def test_lair_actions_once_a_round():
    f = fight()
    f, ev = play(f, C.NextTurn(), C.UseAbility("c1", "Magma Eruption", act="lair"))
    assert "Red Dragon uses Magma Eruption (lair)" in log(ev)
    with pytest.raises(RuleError, match="has taken its lair action this round: one a round"):
        apply(f, C.UseAbility("c1", "Tremor", act="lair"))
    # the next round it may again
    f, _ = play(f, C.NextTurn(), C.NextTurn())
    assert f.round == 2
    f, _ = play(f, C.UseAbility("c1", "Tremor", act="lair"))
    # an area effect taken as a lair action counts too
    with pytest.raises(RuleError, match="one a round"):
        apply(f, breath(spend=(), act="lair"))


def test_a_reaction_ability_uses_the_d20_reaction():
    f = setup(
        "d20",
        C.AddCombatant("Goblin Boss", stats=(("hp", 21),)),
        C.AddCombatant("Ana", kind="pc", side="party", stats=(("hp", 30),)),
    )
    f, _ = play(f, C.StartFight(initiative=(("c1", (1,)), ("c2", (20,)))))
    f, ev = play(f, C.UseAbility("c1", "Parry", act="reaction", target="c2"))
    assert log(ev) == ["Goblin Boss uses Parry (reaction) on Ana; A0 B0 m R0"]
    assert by_name(f, "Goblin Boss").economy.reactions == 0
    with pytest.raises(RuleError, match="already used its reaction"):
        apply(f, C.UseAbility("c1", "Parry", act="reaction"))
    # an ability with no part of the turn is only its line
    f, ev = play(f, C.UseAbility("c1", "Leadership"))
    assert log(ev) == ["Goblin Boss uses Leadership"]


def test_an_action_ability_takes_the_action_on_its_own_turn_only():
    f = fight()
    f, ev = play(f, C.UseAbility("c1", "Multiattack", act="action"))
    assert log(ev) == ["Red Dragon uses Multiattack (action); A0 B1 M R1"]
    with pytest.raises(RuleError, match="already taken its action"):
        apply(f, C.UseAbility("c1", "Frightful Presence", act="action"))
    f, _ = play(f, C.NextTurn())
    with pytest.raises(RuleError, match="not Red Dragon's turn"):
        apply(f, C.UseAbility("c1", "Frightful Presence", act="action"))


def test_use_ability_in_cosmere_and_nine_phase_pays_their_economy():
    f = setup("cosmere", C.AddCombatant("Chull", stats=(("hp", 20),)), pc("Kal"))
    f, _ = play(f, C.StartFight())
    f, ev = play(f, C.UseAbility("c1", "Brace Shell", act="reaction"))
    assert by_name(f, "Chull").economy.reactions == 0
    assert log(ev)[0].startswith("Chull uses Brace Shell (reaction)")
    f = fight("ninephase")
    f, ev = play(f, C.UseAbility("c1", "Tail Sweep", act="action", cost=2))
    assert by_name(f, "Red Dragon").economy.actions == 1
    with pytest.raises(RuleError, match="one turn a phase|already acted"):
        apply(f, Activity("c1", "Bite"))
    with pytest.raises(RuleError, match="an action or a reaction"):
        apply(f, C.UseAbility("c2", "Sing", act="lair"))


@pytest.mark.parametrize("rules", ["d20", "cosmere", "ninephase", "warhammer"])
def test_a_stat_edit_keeps_a_statblock_pools_recharge_and_refresh(rules: str) -> None:
    # Cosmere rebuilds its resources from the stats on an edit: a breath must not lose its recharge
    f, _ = apply(setup(rules), C.AddCombatant("Drake", resources=(BREATH, LEGENDARY)))
    c = f.combatants[-1]
    stat = next(k for k, _ in c.stats if k not in ("hp", "wounds"))
    f, _ = apply(f, C.EditCombatant(c.id, stats=((stat, dict(c.stats)[stat] + 1),)))
    kept = {p.key: p for p in f.get(c.id).resources}
    assert kept["Fire Breath"].recharge == 5 and kept[pools.LEGENDARY].refresh


def test_a_save_against_a_condition_alone_deals_no_damage() -> None:
    f = fight()
    targets = (AreaTarget("c2", total=5), AreaTarget("c3", total=20))
    roar = AreaEffect(targets, source="c1", ability="Frightful Roar", save="wis", dc=15, condition="Prone")
    f2, ev = apply(f, roar)
    assert by_name(f2, "Ana").has("Prone") and not by_name(f2, "Bo").has("Prone")
    assert all(p.current == p.max for c in f2.combatants for p in c.health)
    text = "\n".join(log(ev))
    assert "Red Dragon uses Frightful Roar (DC 15 Wis) on Ana, Bo: Prone unless saved" in text
    assert "damage" not in text
    with pytest.raises(RuleError, match="damage's dice"):
        apply(f, AreaEffect(targets, source="c1", save="wis", dc=15, condition="Prone", type="fire"))


def test_a_legendary_area_ability_is_paid_from_its_spend() -> None:
    f, _ = play(fight(), C.NextTurn())  # the dragon's turn is over: Ana's now
    gust = breath(ability="Wing Gust", spend=((pools.LEGENDARY, 2),), act="legendary", dice="2d6")
    f2, _ = apply(f, gust)
    assert pool(f2, "Red Dragon", pools.LEGENDARY).current == 1
    with pytest.raises(RuleError, match="spends Legendary actions"):
        apply(f, breath(ability="Wing Gust", spend=(), act="legendary", dice="2d6"))
