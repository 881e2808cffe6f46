"""Cosmere statblocks: attributes, the three defenses, health, focus, investiture, movement, and
attacks (skill bonus, defense targeted, reach or range, damage dice and type) that fill
`cosmere_attack`."""

from typing import Annotated, Any, Literal

import msgspec

from engine.commands import Command
from engine.errors import RuleError
from engine.library.base import (
    Statblock,
    StatblockKind,
    check_dice,
    check_name,
    check_word,
    register_kind,
    signed,
)
from engine.limits import NAME
from engine.rules.cosmere import combat
from engine.state import Combatant
from engine.text import check_line

Attr = Annotated[int, msgspec.Meta(ge=0, le=10)]
Defense = Annotated[int, msgspec.Meta(ge=0, le=60)]


class Attributes(msgspec.Struct, frozen=True, omit_defaults=True, forbid_unknown_fields=True):
    """Strength, Speed, Intellect, Willpower, Awareness, Presence (0-5 for most beings)."""

    str: Attr = 0
    spd: Attr = 0
    int: Attr = 0
    wil: Attr = 0
    awa: Attr = 0
    pre: Attr = 0


class CosmereAttack(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True, forbid_unknown_fields=True):
    """One attack: `skill` is the skill's name as the sheet says it (Light Weapons), `bonus` its
    modifier. `range`: a melee attack's reach in feet ("5", "10"), a ranged one's "short/long"."""

    name: str
    skill: str = ""
    bonus: Annotated[int, msgspec.Meta(ge=-20, le=40)] = 0
    defense: Literal["phy", "cog", "spi"] = "phy"
    kind: Literal["melee", "ranged"] = "melee"
    range: str = ""
    damage: str = ""
    type: str = ""
    action: str = "Strike"  # the action it is made with
    cost: Annotated[int, msgspec.Meta(ge=0, le=3)] = 1  # actions it costs


class CosmereStatblock(Statblock, frozen=True, kw_only=True, tag="cosmere"):
    hp: Annotated[int, msgspec.Meta(ge=0, le=9999)]
    hp_dice: str = ""
    attributes: Attributes = Attributes()
    phy: Defense = 12
    cog: Defense = 12
    spi: Defense = 12
    focus: Annotated[int, msgspec.Meta(ge=0, le=99)] = 3
    investiture: Annotated[int, msgspec.Meta(ge=0, le=99)] = 0
    speed: Annotated[int, msgspec.Meta(ge=0, le=500)] = 25
    deflect: Annotated[int, msgspec.Meta(ge=0, le=20)] = 0  # kept with the entry; the engine has no deflect
    attacks: tuple[CosmereAttack, ...] = ()


class CosmereKind(StatblockKind):
    ruleset = "cosmere"
    struct = CosmereStatblock
    # an ability's test is against a defense; it is used as an action (costing `cost` of the three),
    # a free action or a reaction, spending `focus`
    save_words = tuple(combat.DEFENSES)
    act_words = ("action", "free", "reaction")

    def stats(self, sb: Any) -> tuple[tuple[str, int], ...]:
        return (
            ("hp", sb.hp),
            ("focus", sb.focus),
            ("investiture", sb.investiture),
            ("speed", sb.speed),
            ("phy", sb.phy),
            ("cog", sb.cog),
            ("spi", sb.spi),
        )

    def note_lines(self, sb: Any) -> tuple[str, ...]:
        return (f"Deflect {sb.deflect}.",) if sb.deflect else ()

    def attacks(self, sb: Any) -> tuple[Any, ...]:
        return tuple(sb.attacks)

    def attack_command(self, sb: Any) -> type[Command]:
        return combat.CosmereAttack

    def attack_fields(self, sb: Any, attack: Any) -> dict[str, Any]:
        a: CosmereAttack = attack
        return {
            "defense": a.defense,
            "modifier": a.bonus,
            "damage": a.damage.replace(" ", ""),
            "type": a.type,
            "kind": a.kind,
            "range": a.range,
            "action": a.action,
            "cost": a.cost,
            "label": a.name,
        }

    def attack_label(self, sb: Any, attack: Any) -> str:
        a: CosmereAttack = attack
        dmg = f"{a.damage} {a.type}".strip() or "no damage"
        where = f"range {a.range} ft" if a.kind == "ranged" and a.range else f"reach {a.range or 5} ft"
        skill = f" ({a.skill})" if a.skill else ""
        return f"{a.name} {signed(a.bonus)}{skill} vs {combat.DEFENSES[a.defense]}, {dmg} ({where})"

    def check(self, sb: Any) -> None:
        for word in sb.immune:
            check_word(word, "damage type")
        for word in sb.condition_immune:
            check_word(word, "condition")
        for ab in sb.actions:
            if ab.cost > 3 or (ab.act != "action" and ab.cost > 1):
                raise RuleError(f"{ab.name}: an action costs at most 3 actions (a free action or reaction 1)")
        for a in sb.attacks:
            check_name(a.name, "attack name")
            check_name(a.action, "action name")
            check_line(a.skill, "skill", NAME)
            check_word(a.type, "damage type")
            check_dice(a.damage, f"{a.name}'s damage")
            if a.range and combat.RANGE.fullmatch(a.range.strip()) is None:
                raise RuleError(f"{a.name}: a range is feet, short/long like 20/60 (melee: a reach like 10).")
            if a.kind == "melee" and "/" in a.range:
                raise RuleError(f"{a.name}: a melee attack's range is its reach, one number of feet.")

    def from_combatant(self, c: Combatant) -> Statblock:
        s = dict(c.stats)
        return CosmereStatblock(
            name=c.name,
            kind=c.kind,
            side=c.side,
            hp=c.health[0].max if c.health else s.get("hp", 10),
            phy=s.get("phy", 12),
            cog=s.get("cog", 12),
            spi=s.get("spi", 12),
            focus=s.get("focus", 3),
            investiture=s.get("investiture", 0),
            speed=s.get("speed", 25),
            flags=c.flags,
            note=c.note,
        )


KIND = register_kind(CosmereKind())
