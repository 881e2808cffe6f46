"""Statblocks written for the app's tests of whole statblocks (abilities, recharge, legendary actions,
spellcasting, immunities): made up here in the library's shape, not copied from any book."""

from __future__ import annotations

import engine.library as L
from engine import commands as C
from engine import new_fight
from engine.library.abilities import Ability, DamagePart, Spellcasting, Trait
from engine.library.d20 import Abilities, D20Attack, D20Statblock
from saves.session import Session
from tests.tui.support import cid

BREATH = Ability(
    name="Fire Breath",
    text="The wyrm exhales fire in a 60-foot cone. Each creature there makes a DC 21 Dexterity save, "
    "taking 18d6 fire damage on a failure or half as much on a success.",
    save="dex",
    dc=21,
    damage=(DamagePart("18d6", "fire"),),
    targets=0,
    area="60-foot cone",
    recharge=5,
)
WYRM = D20Statblock(
    name="Ember Wyrm",
    type="dragon",
    hp=256,
    hp_dice="19d12+133",
    ac=19,
    abilities=Abilities(str=27, dex=10, con=25, int=16, wis=13, cha=21),
    prof=6,
    immune=("fire",),
    condition_immune=("Frightened",),
    traits=(Trait(name="Ash Shroud", text="Smoke clings to it: ranged attacks against it have disadvantage."),),
    attacks=(
        D20Attack(
            name="Bite", bonus=14, reach=10, damage=(DamagePart("2d10+8", "piercing"), DamagePart("2d6", "fire"))
        ),
        D20Attack(name="Claw", bonus=14, damage=(DamagePart("2d6+8", "slashing"),)),
        D20Attack(
            name="Tail",
            bonus=14,
            reach=15,
            damage=(DamagePart("2d8+8", "bludgeoning"),),
            rider="The target makes a DC 22 Strength save or is knocked Prone.",
            save="str",
            dc=22,
            condition="Prone",
        ),
    ),
    actions=(
        Ability(name="Multiattack", text="One bite and two claws.", attacks=("Bite", "Claw", "Claw")),
        BREATH,
        Ability(name="Tail Sweep", text="The wyrm sweeps its tail.", act="legendary"),
        Ability(
            name="Wing Gust",
            text="Everyone within 10 feet makes a DC 22 Dexterity save or is knocked Prone.",
            act="legendary",
            cost=2,
            save="dex",
            dc=22,
            on_save="none",
            condition="Prone",
            targets=0,
            damage=(DamagePart("2d6+8", "bludgeoning"),),
        ),
    ),
    legendary=3,
    legendary_resistance=3,
)
HEX = Ability(
    name="Binding Word",
    text="One creature makes a DC 14 Wisdom save or is Restrained.",
    save="wis",
    dc=14,
    on_save="none",
    condition="Restrained",
    level=2,
)
MAGE = D20Statblock(
    name="Court Mage",
    hp=40,
    ac=12,
    abilities=Abilities(int=17),
    spellcasting=Spellcasting(
        ability="int",
        dc=14,
        bonus=6,
        slots=(4, 3, 2),
        spells=(
            Ability(name="Spark", text="A ranged spell attack.", hit=6, damage=(DamagePart("2d10", "fire"),), level=0),
            HEX,
            Ability(
                name="Fire Burst",
                text="A 20-foot sphere of fire.",
                save="dex",
                dc=14,
                damage=(DamagePart("8d6", "fire"),),
                targets=0,
                level=3,
            ),
        ),
    ),
)
BOSS = D20Statblock(
    name="Bandit Chief",
    hp=30,
    ac=15,
    attacks=(
        D20Attack(name="Sabre", bonus=5, damage=(DamagePart("1d8+3", "slashing"),)),
        D20Attack(
            name="Net Hook",
            bonus=5,
            damage=(DamagePart("1d4", "piercing"),),
            rider="The target is Grappled.",
            condition="Grappled",
        ),
    ),
    actions=(
        Ability(name="Parry", text="Adds 2 to its AC against one melee attack that would hit it.", act="reaction"),
    ),
)


SPIDER = D20Statblock(
    name="Cave Spider",
    hp=26,
    ac=14,
    attacks=(
        D20Attack(
            name="Bite",
            bonus=5,
            damage=(DamagePart("1d8+3", "piercing"),),
            rider="The target makes a DC 11 Constitution save: 2d8 poison damage on a failure, half on a success.",
            save="con",
            dc=11,
            rider_damage=(DamagePart("2d8", "poison"),),
            rider_half=True,
        ),
    ),
)


def pc(name: str, hp: int = 60) -> C.AddCombatant:
    return C.AddCombatant(name, kind="pc", side="party", stats=(("hp", hp), ("ac", 15), ("dex_save", 2)))


def fight_with(
    *blocks: D20Statblock,
    pcs: tuple[str, ...] = ("Ayla", "Bram", "Cato", "Dara"),
    start: bool = True,
    turn: str = "",
    seed: int = 5,
) -> Session:
    """A d20 fight: the PCs, then one of each statblock; started, on `turn`'s turn (else the first)."""
    s = Session.memory(new_fight("d20", seed=seed))
    for name in pcs:
        s.apply(pc(name))
    for sb in blocks:
        s.apply(L.to_add(L.validate(sb), 1)[0])
    if start:
        s.apply(C.StartFight())
        if turn:
            while s.state.current != cid(s, turn):
                s.apply(C.NextTurn())
    return s
