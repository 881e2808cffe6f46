"""Nine-phase statblocks: Hit Points and Grit, resources counted down (spell slots, ki), and the
creature's activities, each the engine's `ActivitySpec` plus the resource it spends, for a weapon
activity the weapon's Speed Factor, and for an attack its damage. An activity fills the `activity`
command (`attack_fields`), an attack the `nine_attack` command too (`strike_fields`), or goes into the
fight's catalog with `define_activity` (see `catalog`)."""

from typing import Annotated, Any

import msgspec

from engine.commands import Command
from engine.errors import RuleError
from engine.library.base import Statblock, StatblockKind, check_dice, check_name, check_word, register_kind
from engine.limits import TEXT
from engine.rules.ninephase.commands import Activity
from engine.state import ActivitySpec, Combatant
from engine.text import check_multiline

Phase = Annotated[int, msgspec.Meta(ge=1, le=9)]
SPEC_FIELDS = tuple(f.name for f in msgspec.structs.fields(ActivitySpec))


class Resource(msgspec.Struct, frozen=True, omit_defaults=True, forbid_unknown_fields=True):
    name: str
    max: Annotated[int, msgspec.Meta(ge=0, le=9999)]


class NineActivity(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True, forbid_unknown_fields=True):
    """The fields of `ActivitySpec` (same names, same meaning) and what performing it takes:
    `resource` and `amount` spent to begin it, `speed` the Speed Factor of the weapon it uses; an
    attack's `damage` (dice) and its `type`, which the attack dialog (`w`) fills in."""

    name: str
    cost: Annotated[int, msgspec.Meta(ge=0, le=3)] | None = None
    phase: Phase | None = None
    weapon: bool = False
    lock: bool = False
    master: bool = False
    reaction: bool = False
    channel: bool = False
    uninterruptible: bool = False
    repeatable: bool = False
    note: str = ""
    across_rounds: bool = False
    resource: str = ""
    amount: Annotated[int, msgspec.Meta(ge=1, le=99)] = 1
    speed: Phase | None = None
    damage: str = ""
    type: str = ""

    @property
    def spec(self) -> ActivitySpec:
        return ActivitySpec(**{f: getattr(self, f) for f in SPEC_FIELDS})


class NinePhaseStatblock(Statblock, frozen=True, kw_only=True, tag="ninephase"):
    hp: Annotated[int, msgspec.Meta(ge=0, le=9999)]
    hp_dice: str = ""
    grit: Annotated[int, msgspec.Meta(ge=0, le=9999)] = 5
    resources: tuple[Resource, ...] = ()
    activities: tuple[NineActivity, ...] = ()


def catalog(sb: NinePhaseStatblock) -> tuple[ActivitySpec, ...]:
    """The statblock's activities as catalog entries (for `define_activity`)."""
    return tuple(a.spec for a in sb.activities)


def strikes(sb: NinePhaseStatblock) -> tuple[NineActivity, ...]:
    """The activities the attack dialog (`w`) offers: weapon activities and those with damage."""
    return tuple(a for a in sb.activities if a.weapon or a.damage)


def strike_fields(a: NineActivity) -> dict[str, Any]:
    """The `nine_attack` fields this activity fills (never who, target or the result): the activity
    itself, its weapon's Speed Factor, what it spends, its damage."""
    fields: dict[str, Any] = {"spec": a.spec, "speed": a.speed if a.weapon else None}
    if a.resource:
        fields["resource"] = a.resource
        fields["amount"] = a.amount
    if a.damage:
        fields["dice"] = a.damage
        fields["type"] = a.type
    return fields


class NinePhaseKind(StatblockKind):
    ruleset = "ninephase"
    struct = NinePhaseStatblock

    def stats(self, sb: Any) -> tuple[tuple[str, int], ...]:
        return (("hp", sb.hp), ("grit", sb.grit)) + tuple((r.name, r.max) for r in sb.resources)

    def attacks(self, sb: Any) -> tuple[Any, ...]:
        return tuple(sb.activities)

    def attack_command(self, sb: Any) -> type[Command]:
        return Activity

    def attack_fields(self, sb: Any, attack: Any) -> dict[str, Any]:
        a: NineActivity = attack
        fields: dict[str, Any] = {
            "name": a.name,
            "cost": a.cost,
            # a weapon activity's earliest phase is the weapon's Speed Factor
            "earliest": a.speed if a.weapon else a.phase,
            "lock": a.lock,
            "master": a.master,
            "reaction": a.reaction,
            "channel": a.channel,
            "uninterruptible": a.uninterruptible,
            "repeatable": a.repeatable,
            "across_rounds": a.across_rounds,
        }
        if a.resource:
            fields["resource"] = a.resource
            fields["amount"] = a.amount
        return fields

    def attack_label(self, sb: Any, attack: Any) -> str:
        a: NineActivity = attack
        bits = [a.name]
        if a.reaction:
            bits.append("reaction")
        cost = a.cost if a.cost is not None else (0 if a.reaction else 1)
        bits.append(f"{cost} action{'s' if cost != 1 else ''}")
        earliest = a.speed if a.weapon else a.phase
        if earliest is not None:
            bits.append(f"{'locked to' if a.lock else 'from'} phase {earliest}")
        for flag, word in ((a.master, "master"), (a.channel, "channel"), (a.uninterruptible, "uninterruptible")):
            if flag:
                bits.append(word)
        if a.resource:
            bits.append(f"{a.amount} {a.resource}")
        if a.damage:
            bits.append(f"{a.damage} {a.type}".strip())
        return ", ".join(bits)

    def check(self, sb: Any) -> None:
        for field, what in (("immune", "damage type"), ("condition_immune", "condition")):
            for word in getattr(sb, field):
                check_word(word, what)
        names = {r.name for r in sb.resources}
        for r in sb.resources:
            check_word(r.name, "resource name")
            if r.name in ("hp", "grit") or not r.name.strip():
                raise RuleError(f"A resource cannot be called {r.name!r}.")
        for a in sb.activities:
            check_name(a.name, "activity name")
            check_multiline(a.note, "note", TEXT)
            if a.weapon and a.phase is not None:
                raise RuleError(f"{a.name}: a weapon activity's phase is the weapon's Speed Factor (speed).")
            if a.speed is not None and not a.weapon:
                raise RuleError(f"{a.name}: a Speed Factor (speed) belongs to a weapon activity (weapon = true).")
            if a.lock and a.phase is None and a.speed is None:
                raise RuleError(f"{a.name}: Phase Lock needs the phase it locks to.")
            check_dice(a.damage, f"{a.name}'s damage")
            check_word(a.type, f"{a.name}'s damage type")
            if a.type and not a.damage:
                raise RuleError(f"{a.name}: a damage type goes with its damage dice (damage).")
            if a.resource and a.resource not in names:
                raise RuleError(f"{a.name} spends {a.resource!r}, which is not among its resources.")
            a.spec  # noqa: B018 - building the spec checks it the engine's way

    def from_combatant(self, c: Combatant) -> Statblock:
        hp = c.pool("hp")
        grit = c.pool("grit")
        return NinePhaseStatblock(
            name=c.name,
            kind=c.kind,
            side=c.side,
            hp=hp.max if hp else 10,
            grit=grit.max if grit else 5,
            resources=tuple(Resource(p.key, p.max) for p in c.resources),
            flags=c.flags,
            note=c.note,
        )


KIND = register_kind(NinePhaseKind())
