"""Warhammer statblocks: characteristics, Wounds, armour points by location, Fortune, Resolve and
Resilience, a tier (minion, champion, master), and weapons (WS or BS, damage with or without the
Strength Bonus, reach or range, the qualities the engine knows) that fill `wh_attack`."""

from typing import Annotated, Any, Literal

import msgspec

from engine.commands import Command
from engine.errors import RuleError
from engine.library.base import Statblock, StatblockKind, check_name, check_word, register_kind, signed
from engine.rules.warhammer import combat
from engine.state import Combatant

Char = Annotated[int, msgspec.Meta(ge=0, le=200)]
AP = Annotated[int, msgspec.Meta(ge=0, le=30)]
Points = Annotated[int, msgspec.Meta(ge=0, le=20)]

# weapon qualities the engine acts on: Impale criticals on a 0 die; a two-handed weapon, a shield or a
# weapon in the off hand gives its bearer a bonus parry (the flags `twohanded`, `shield`, `offhand`)
QUALITIES = {"impale": "", "twohanded": "twohanded", "shield": "shield", "offhand": "offhand"}
REACH = ("personal", "very short", "short", "average", "long", "very long", "massive")
TIER = Literal["", "minion", "champion", "master"]


class Characteristics(msgspec.Struct, frozen=True, omit_defaults=True, forbid_unknown_fields=True):
    ws: Char = 30
    bs: Char = 30
    s: Char = 30
    t: Char = 30
    i: Char | None = None  # Initiative; the engine uses Agility when it is not given
    ag: Char = 30
    dex: Char = 30
    int: Char = 30
    wp: Char = 30
    fel: Char = 30


class Armour(msgspec.Struct, frozen=True, omit_defaults=True, forbid_unknown_fields=True):
    head: AP = 0
    body: AP = 0
    rarm: AP = 0
    larm: AP = 0
    rleg: AP = 0
    lleg: AP = 0
    shield: AP = 0  # a shield's AP, counted against thrown and missile attacks


class Weapon(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True, forbid_unknown_fields=True):
    """`damage` is the weapon's own number; `sb` adds the wielder's Strength Bonus (a sword's +SB+4).
    `reach` for melee weapons (Average, Long, ...), `range` in yards for thrown and missile ones."""

    name: str
    skill: Literal["ws", "bs"] = "ws"
    damage: Annotated[int, msgspec.Meta(ge=-20, le=50)] = 0
    sb: bool = True
    kind: Literal["melee", "thrown", "missile"] = "melee"
    reach: str = ""
    range: Annotated[int, msgspec.Meta(ge=0, le=2000)] = 0
    qualities: tuple[str, ...] = ()


class WarhammerStatblock(Statblock, frozen=True, kw_only=True, tag="warhammer"):
    wounds: Annotated[int, msgspec.Meta(ge=0, le=999)]
    wounds_dice: str = ""
    characteristics: Characteristics = Characteristics()
    armour: Armour = Armour()
    tier: TIER = ""
    fortune: Points = 0
    resolve: Points = 0
    resilience: Points = 0
    weapons: tuple[Weapon, ...] = ()


def strength_bonus(s: int) -> int:
    return s // 10


def weapon_damage(sb: WarhammerStatblock, w: Weapon) -> int:
    return w.damage + (strength_bonus(sb.characteristics.s) if w.sb else 0)


class WarhammerKind(StatblockKind):
    ruleset = "warhammer"
    struct = WarhammerStatblock
    # a Test an ability calls for is of a characteristic (Toughness, Willpower, ...)
    save_words = tuple(Characteristics.__struct_fields__)
    act_words = ("action", "free", "reaction")
    health_field = "wounds"
    dice_field = "wounds_dice"
    health_key = "wounds"

    def stats(self, sb: Any) -> tuple[tuple[str, int], ...]:
        c: Characteristics = sb.characteristics
        a: Armour = sb.armour
        out = [
            ("wounds", sb.wounds),
            ("ws", c.ws),
            ("bs", c.bs),
            ("ag", c.ag),
            ("t", c.t),
            ("wp", c.wp),
            ("fortune", sb.fortune),
            ("resolve", sb.resolve),
            ("resilience", sb.resilience),
            ("ap_head", a.head),
            ("ap_body", a.body),
            ("ap_rarm", a.rarm),
            ("ap_larm", a.larm),
            ("ap_rleg", a.rleg),
            ("ap_lleg", a.lleg),
            ("ap_shield", a.shield),
            ("s", c.s),  # not a ruleset stat: kept so a weapon's +SB can be worked out in the fight
        ]
        if c.i is not None:
            out.insert(4, ("i", c.i))
        return tuple(out)

    def add_fields(self, sb: Any) -> dict[str, Any]:
        fields = super().add_fields(sb)
        flags = list(sb.flags)
        if sb.tier and sb.tier not in flags:
            flags.append(sb.tier)
        for w in sb.weapons:
            for q in w.qualities:
                flag = QUALITIES.get(q.lower(), "")
                if flag and flag not in flags:
                    flags.append(flag)
        fields["flags"] = tuple(flags)
        return fields

    def attacks(self, sb: Any) -> tuple[Any, ...]:
        return tuple(sb.weapons)

    def attack_command(self, sb: Any) -> type[Command]:
        return combat.Attack

    def attack_fields(self, sb: Any, attack: Any) -> dict[str, Any]:
        w: Weapon = attack
        return {
            "weapon": w.name,
            "kind": w.kind,
            "skill": w.skill,
            "damage": weapon_damage(sb, w),
            "impale": any(q.lower() == "impale" for q in w.qualities),
        }

    def attack_label(self, sb: Any, attack: Any) -> str:
        w: Weapon = attack
        skill = getattr(sb.characteristics, w.skill)
        where = f"{w.range} yd" if w.kind != "melee" and w.range else (w.reach or "")
        quals = ", ".join(w.qualities)
        dmg = f"damage {weapon_damage(sb, w)}" + (f" (+SB{signed(w.damage)})" if w.sb else "")
        bits = [f"{w.name} {w.skill.upper()} {skill}", dmg]
        bits += [x for x in (where, quals) if x]
        return ", ".join(bits)

    def check(self, sb: Any) -> None:
        for word in sb.immune:
            check_word(word, "damage type")
        for word in sb.condition_immune:
            check_word(word, "condition")
        for w in sb.weapons:
            check_name(w.name, "weapon name")
            if w.reach and w.reach.lower() not in REACH:
                raise RuleError(f"{w.name}: reach is one of {', '.join(r.title() for r in REACH)}.")
            for q in w.qualities:
                check_word(q, "quality")
                if q.lower() not in QUALITIES:
                    known = ", ".join(sorted(QUALITIES))
                    raise RuleError(f"{w.name}: the engine knows the qualities {known}, not {q!r}.")

    def from_combatant(self, c: Combatant) -> Statblock:
        s = dict(c.stats)
        chars = Characteristics(
            ws=s.get("ws", 30),
            bs=s.get("bs", 30),
            s=s.get("s", 30),
            t=s.get("t", 30),
            i=s.get("i"),
            ag=s.get("ag", 30),
            wp=s.get("wp", 30),
        )
        armour = Armour(**{k: s.get(f"ap_{k}", 0) for k in ("head", "body", "rarm", "larm", "rleg", "lleg", "shield")})
        tier = combat.tier(c)
        return WarhammerStatblock(
            name=c.name,
            kind=c.kind,
            side=c.side,
            wounds=c.health[0].max if c.health else s.get("wounds", 10),
            characteristics=chars,
            armour=armour,
            tier=tier,  # type: ignore[arg-type]
            fortune=s.get("fortune", 0),
            resolve=s.get("resolve", 0),
            resilience=s.get("resilience", 0),
            flags=tuple(f for f in c.flags if f != tier),
            note=c.note,
        )


KIND = register_kind(WarhammerKind())
