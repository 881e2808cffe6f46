"""The frozen fight state.

Every struct here is frozen, holds only tuples (never lists or dicts), and carries a tag from day one so
that it can join a tagged union later without breaking saved files. `gc=False`: states never form
reference cycles, and keeping them out of the cycle collector makes 10,000 states of history cheap.
A new state is built with `msgspec.structs.replace`; untouched combatants are shared between states.
"""

import abc
from collections.abc import Iterable
from typing import Annotated, Literal

import msgspec
from msgspec.structs import replace

from engine.dice import Rng
from engine.errors import RuleError

# Constraints checked when a state is decoded (a save file, an export read back): only integer bounds,
# which cost next to nothing, and only what the engine itself never goes beyond, so every file it wrote
# still opens. Ids are checked by engine.validate.validate_fight: a regex per id in the decoder made a
# full state decode 50% slower.
Count = Annotated[int, msgspec.Meta(ge=0)]

Kind = Literal["pc", "npc"]
Side = Literal["party", "enemy", "neutral"]
DurationKind = Literal["turn_start", "turn_end", "phase_end", "round_end", "manual"]


class Pool(msgspec.Struct, frozen=True, gc=False, omit_defaults=True, tag="pool"):
    """A track with a current value, a maximum and (for health) temporary points on top."""

    key: str
    current: int
    max: int
    temp: Count = 0
    # a statblock's limited ability (a breath weapon, a spell slot, legendary actions): `recharge` is
    # the lowest d6 roll that refills a spent pool at the start of its owner's turn (5: "recharge
    # 5-6"; 0: none); `refresh` fills it to its maximum at the start of its owner's turn
    recharge: int = 0
    refresh: bool = False


class Duration(msgspec.Struct, frozen=True, gc=False, omit_defaults=True, tag="duration", forbid_unknown_fields=True):
    """When a condition ends.

    turn_start / turn_end: after `count` more starts (ends) of combatant `who`'s turn.
    phase_end: at the end of phase `phase` of round `round` (nine-phase rounds).
    round_end: at the end of round `round`.
    manual: only when removed.
    """

    kind: DurationKind = "manual"
    who: str = ""
    count: int = 1
    round: int = 0
    phase: int = 0


class Condition(msgspec.Struct, frozen=True, gc=False, omit_defaults=True, tag="condition"):
    name: str
    level: int = 1
    duration: Duration = Duration()
    source: str = ""  # the combatant id that caused it, when it matters (Charmed, Frightened)
    note: str = ""
    dice: str = ""  # damage dice for conditions that hurt each turn (Burning: "1d4" unless said)
    dc: int = 0  # the save that ends it, where the source gives one (d20 Confused); 0 = not given
    # the name of the `source` combatant's condition that keeps this one up (d20: "Concentrating"):
    # when that ends, the app offers to end this too (engine.mechanics.kept_up_ended)
    through: str = ""


class Economy(msgspec.Struct, frozen=True, gc=False, omit_defaults=True, tag="economy"):
    """What a combatant may still do and has done: the part every ruleset shares.

    Each ruleset subclasses it in its own package (engine/rules/<id>/economy.py) with a tag of its own
    and only the fields it needs, and names it as `Ruleset.economy_type`; this base itself is what a
    combatant holds before a ruleset gave it one (and what a ruleset with nothing more uses).
    """

    used: tuple[str, ...] = ()  # named actions used this turn (round in nine-phase)
    done: bool = False  # has taken its turn this round


class AnyEconomy(abc.ABC):  # noqa: B024 - a marker for msgspec, not an interface to implement
    """The declared type of `Combatant.economy`: any registered subclass of `Economy`.

    A msgspec tagged union needs its members when a decoder is built, and a ruleset may register after
    that (`engine.register_ruleset` may be called at any time). So the field is declared with this
    marker, which msgspec does not know, and every decoder of states passes `state_hook`: it picks
    the struct by the tag, from the registry as it is when the record is read.
    """

    used: tuple[str, ...]
    done: bool


AnyEconomy.register(Economy)  # every subclass of Economy is then an AnyEconomy too


class Clock(msgspec.Struct, frozen=True, gc=False, omit_defaults=True, tag="clock"):
    """Where a fight stands within its round, in its ruleset's own terms: whose slot of the order is
    acting, which phase group or phase it is.

    Each ruleset subclasses it in its own package (engine/rules/<id>/clock.py) with a tag of its own
    and fields named for what they mean, and names it as `Ruleset.clock_type`; a new fight gets an
    empty one. This base holds nothing: it is a fight's clock only before a ruleset gave it one.
    `number` and `with_number` translate the clock to and from the one int `Fight.phase` held
    before save format 2 (the format 1 upgrade, and the app, read it through `Fight.phase`).
    """

    @property
    def number(self) -> int:
        """The clock as the one int of format 1's `Fight.phase` (override with the field it is)."""
        return 0

    def with_number(self, n: int) -> "Clock":
        """This clock set from that one int (a clock that keeps no position ignores it)."""
        return self


class AnyClock(abc.ABC):
    """The declared type of `Fight.clock`: any registered subclass of `Clock`, decoded by its tag
    through `state_hook` for the same reason as `AnyEconomy`."""

    @property
    @abc.abstractmethod
    def number(self) -> int: ...

    @abc.abstractmethod
    def with_number(self, n: int) -> Clock: ...


AnyClock.register(Clock)

ECONOMY_TYPES: dict[str, type[Economy]] = {"economy": Economy}  # tag -> struct
CLOCK_TYPES: dict[str, type[Clock]] = {"clock": Clock}

# Each per-ruleset part of the state: its marker type -> (how a message names one, its base struct,
# its registered structs by tag). One registry and one decode hook serve every such part.
_PARTS: dict[type, tuple[str, type[msgspec.Struct], dict[str, type]]] = {
    AnyEconomy: ("economy", Economy, ECONOMY_TYPES),
    AnyClock: ("clock", Clock, CLOCK_TYPES),
}


def _article(what: str) -> str:
    return ("an " if what[0] in "aeiou" else "a ") + what


def _register(marker: type, cls: type) -> None:
    what, base, types = _PARTS[marker]
    tag = cls.__struct_config__.tag if isinstance(cls, type) and issubclass(cls, msgspec.Struct) else None
    if not isinstance(tag, str) or not issubclass(cls, base):
        raise TypeError(f"{cls.__name__} must subclass engine.state.{base.__name__} and have a string tag")
    known = types.get(tag)
    if known is not None and known is not cls:
        raise ValueError(f"the {what} tag '{tag}' is taken by {known.__name__}")
    types[tag] = cls


def register_economy(cls: type[Economy]) -> type[Economy]:
    """Make a ruleset's economy struct decodable (register_ruleset calls it with `economy_type`)."""
    _register(AnyEconomy, cls)
    return cls


def register_clock(cls: type[Clock]) -> type[Clock]:
    """Make a ruleset's clock struct decodable (register_ruleset calls it with `clock_type`)."""
    _register(AnyClock, cls)
    return cls


def state_hook(typ: type, obj: object) -> object:
    """msgspec `dec_hook`: a ruleset's own part of the state (an economy, a clock) decoded from plain
    data by its tag."""
    part = _PARTS.get(typ)
    if part is None:
        raise NotImplementedError(f"no decoder for {typ!r}")
    what, _, types = part
    if not isinstance(obj, dict):
        raise TypeError(f"{_article(what)} must be a map, not {type(obj).__name__}")
    tag = obj.get("type")
    cls = types.get(tag) if isinstance(tag, str) else None
    if cls is None:
        raise ValueError(f"unknown {what} {str(tag)[:40]!r} (a ruleset this Fracas does not know?)")
    try:
        return msgspec.convert(obj, cls)
    except msgspec.ValidationError as exc:
        # msgspec adds where the part sits to what this raises: say where inside it, as "economy.x"
        why, _, at = str(exc).partition(" - at `$")
        raise ValueError(f"{why} (in its {what}{'' if not at else ', at ' + at.rstrip('`').lstrip('.')})") from None



class PhaseUse(msgspec.Struct, frozen=True, gc=False, omit_defaults=True, tag="phase_use"):
    phase: int
    kind: Literal["act", "react"]
    activity: str


class Channel(msgspec.Struct, frozen=True, gc=False, omit_defaults=True, tag="channel"):
    """A nine-phase channel under way: begun in `start`, resolving in `end`."""

    activity: str
    start: int
    end: int
    uninterruptible: bool = False
    status: Literal["", "resolved", "interrupted"] = ""  # "" = under way (or resolving now)
    at: int = 0  # the phase it resolved or was interrupted in
    spent: tuple[tuple[str, int], ...] = ()  # resources spent to begin it (lost if it breaks)


class ActivitySpec(
    msgspec.Struct, frozen=True, gc=False, omit_defaults=True, tag="activity_spec", forbid_unknown_fields=True
):
    """Nine-phase: one entry of the fight's activity catalog (see engine/rules/ninephase/catalog.py).

    phase: the earliest phase (the locked phase with `lock`); None = any phase. weapon: the earliest
    phase is the Speed Factor of the weapon used, given when the activity is performed.
    """

    name: str
    cost: int | None = None  # None: 1 action for an activity, none for a reaction (the text's default)
    phase: int | None = None
    weapon: bool = False
    lock: bool = False
    master: bool = False
    reaction: bool = False
    channel: bool = False
    uninterruptible: bool = False
    repeatable: bool = False
    note: str = ""
    across_rounds: bool = False  # a channel its text lets finish in the next round


class Due(msgspec.Struct, frozen=True, gc=False, omit_defaults=True, tag="due"):
    """A roll a rule asks for that the table still owes (a concentration save after damage, the
    save at the end of a Confused turn): kept in the state so the app can prompt for it, even
    after a reload, until a command resolves or waives it."""

    what: str  # "concentration", or the name of the condition the save is against
    dc: int = 0  # 0 = the GM gives it when resolving
    detail: str = ""


class Combatant(msgspec.Struct, frozen=True, gc=False, omit_defaults=True, tag="combatant"):
    id: str
    name: str
    kind: Kind = "npc"
    side: Side = "enemy"
    health: tuple[Pool, ...] = ()  # the first pool is the one "down at 0" is judged by
    resources: tuple[Pool, ...] = ()
    stats: tuple[tuple[str, int], ...] = ()
    conditions: tuple[Condition, ...] = ()
    economy: AnyEconomy = Economy()  # the ruleset's own subclass of Economy (see AnyEconomy)
    initiative: int | None = None
    tiebreak: int = 0  # a second number that orders ties (Dex, Agility, a d20 roll)
    owner: str = ""  # d20 companions act on their owner's turn
    channels: tuple[Channel, ...] = ()
    dropped: tuple[int, int] | None = None  # (round, phase) it went down, for same-phase rules
    flags: tuple[str, ...] = ()  # ruleset switches: "boss", "concentrating", "shield", ...
    resist: tuple[str, ...] = ()
    vulnerable: tuple[str, ...] = ()
    immune: tuple[str, ...] = ()  # damage types it takes no damage from
    condition_immune: tuple[str, ...] = ()  # conditions it cannot be given (unless the GM overrides)
    note: str = ""
    due: tuple[Due, ...] = ()  # rolls the rules ask for that the table still owes, oldest first
    statblock: str = ""  # the library statblock it was added from, as engine.library's JSON ("" = none)
    # copies added to act together share one initiative: the same key (the first copy's id) in each;
    # "" = its own. The order keeps them side by side, each with its own turn
    group: str = ""

    def stat(self, key: str, default: int = 0) -> int:
        for k, v in self.stats:
            if k == key:
                return v
        return default

    def pool(self, key: str) -> Pool | None:
        for p in self.health:
            if p.key == key:
                return p
        for p in self.resources:
            if p.key == key:
                return p
        return None

    def has(self, condition: str) -> bool:
        # rules ask this several times a command, of every combatant: most hold no condition at
        # all, and the others' names are lowered once per conditions tuple (condition_names)
        conditions = self.conditions
        if not conditions:
            return False
        hit = _NAMES.get(id(conditions))
        names = hit[1] if hit is not None and hit[0] is conditions else condition_names(conditions)
        return condition.lower() in names

    def condition(self, name: str) -> Condition | None:
        conditions = self.conditions
        if not conditions:
            return None
        low = name.lower()
        hit = _NAMES.get(id(conditions))
        if low not in (hit[1] if hit is not None and hit[0] is conditions else condition_names(conditions)):
            return None  # the usual answer, without lowering each name again
        for c in conditions:
            if c.name.lower() == low:
                return c
        return None

    @property
    def hp(self) -> int:
        health = self.health
        return health[0].current if health else 0

    @property
    def down(self) -> bool:
        health = self.health  # read once: the rules and the auto-play ask this of everyone, often
        return health[0].current <= 0 if health else False


class Fight(msgspec.Struct, frozen=True, gc=False, omit_defaults=True, tag="fight"):
    """A whole fight. `clock`, `order` and `current` mean what the ruleset says they mean."""

    ruleset: str
    name: str = "Fight"
    combatants: tuple[Combatant, ...] = ()
    started: bool = False
    ended: bool = False
    round: Count = 0
    clock: AnyClock = Clock()  # the ruleset's own subclass of Clock (see AnyClock)
    order: tuple[str, ...] = ()  # turn order for this round, where the ruleset has one
    current: str = ""  # the combatant whose turn it is ("" = none / between turns)
    rng: Rng = Rng()
    next_id: Annotated[int, msgspec.Meta(ge=1, lt=10**18)] = 1  # ids stay within ID_PATTERN
    settings: tuple[tuple[str, str], ...] = ()  # fight-level choices (who rolls, defaults)
    activities: tuple[ActivitySpec, ...] | None = None  # nine-phase catalog; None = the defaults
    # warhammer: the order by SL, Agility and the GM's calls, without this round's Fortune slots
    standing: tuple[str, ...] = ()

    @property
    def phase(self) -> int:
        """The clock as one int, what this field held before save format 2 (d20: the slot in `order`
        acting, -1 before a round's first turn; Warhammer: the slot, -1 between rounds; Cosmere: the
        phase group 0-3; nine-phase: the phase 1-9). Read-only: a ruleset sets its `clock`."""
        return self.clock.number

    # get, find and index read the memo of positions themselves: they run several times in every
    # command, and the call to `positions` was a third of their cost
    def get(self, cid: str) -> Combatant:
        cs = self.combatants
        hit = _MEMO.get(id(cs))
        i = (hit[1] if hit is not None and hit[0] is cs else positions(cs)).get(cid)
        if i is None:
            raise RuleError(f"No combatant with id '{cid}' in this fight.")
        return cs[i]

    def find(self, cid: str) -> Combatant | None:
        cs = self.combatants
        hit = _MEMO.get(id(cs))
        i = (hit[1] if hit is not None and hit[0] is cs else positions(cs)).get(cid)
        return None if i is None else cs[i]

    def index(self, cid: str) -> int:
        cs = self.combatants
        hit = _MEMO.get(id(cs))
        i = (hit[1] if hit is not None and hit[0] is cs else positions(cs)).get(cid)
        if i is None:
            raise RuleError(f"No combatant with id '{cid}' in this fight.")
        return i

    def setting(self, key: str, default: str = "") -> str:
        for k, v in self.settings:
            if k == key:
                return v
        return default


def put(fight: Fight, combatant: Combatant) -> Fight:
    """The fight with one combatant replaced (matched by id); every other one is shared."""
    cs = fight.combatants
    hit = _MEMO.get(id(cs))
    if hit is not None and hit[0] is cs:
        pos, watch = hit[1], hit[2]
    else:
        pos, watch = positions(cs), None
    i = pos.get(combatant.id)
    if i is None:
        raise RuleError(f"No combatant with id '{combatant.id}' in this fight.")
    if watch is not None and combatant.conditions is not cs[i].conditions:
        watch = None  # counted again when next asked for
    out = list(cs)  # a copy and one store: cheaper than slicing around `i`
    out[i] = combatant
    new = tuple(out)
    # same ids in the same places: the new tuple shares the map (_remember, written out: every
    # change of a combatant comes here)
    if len(_MEMO) >= 256:
        _MEMO.clear()
    _MEMO[id(new)] = (new, pos, watch)
    return replace(fight, combatants=new)


def put_all(fight: Fight, combatants: tuple[Combatant, ...], changed: Iterable[int] | None = None) -> Fight:
    """The fight with `combatants`: the same ids in the same places as now (the caller's word), only
    those at the indexes `changed` (None: any) different. What is known of the old tuple is kept."""
    cs = fight.combatants
    hit = _MEMO.get(id(cs))
    if hit is not None and hit[0] is cs and len(combatants) == len(cs):
        watch = hit[2]
        if watch is not None:
            for i in range(len(cs)) if changed is None else changed:
                old, c = cs[i].conditions, combatants[i].conditions
                if c is not old:
                    if watch is hit[2]:
                        watch = dict(watch)  # copied once, then counted down and up
                    _uncount(watch, old)
                    _count(watch, c)
        _remember(combatants, hit[1], watch)
    return replace(fight, combatants=combatants)


# What is known of each combatants tuple: where each combatant sits, and (once asked for) how many
# conditions count down on whose turn. `get` and `put` run several times in every command, and a linear
# scan over 50 combatants was most of `apply`'s time; every turn's start and end asks who is watching
# it. A memo, invisible from outside: keyed by the tuple's id and checked by identity (the entry holds
# the tuple, so the id cannot be reused); a tuple built by `put` or `put_all` starts with what its
# parent had, so a command rarely scans the combatants at all.
_MEMO: dict[int, tuple[tuple[Combatant, ...], dict[str, int], dict[tuple[str, str], int] | None]] = {}


def positions(cs: tuple[Combatant, ...]) -> dict[str, int]:
    """Combatant id -> index in `cs` (do not modify the returned dict)."""
    hit = _MEMO.get(id(cs))
    if hit is not None and hit[0] is cs:
        return hit[1]
    pos: dict[str, int] = {}
    for i, c in enumerate(cs):
        pos.setdefault(c.id, i)  # the first one wins, as a scan would find it
    _remember(cs, pos, None)
    return pos


def watching(cs: tuple[Combatant, ...]) -> dict[tuple[str, str], int]:
    """(combatant id, duration kind) -> how many conditions in `cs` have a duration of that kind
    counted on that combatant (do not modify the returned dict). Only keys with a count are present."""
    hit = _MEMO.get(id(cs))
    if hit is not None and hit[0] is cs:
        if hit[2] is not None:
            return hit[2]
        pos = hit[1]
    else:
        pos = positions(cs)
    watch: dict[tuple[str, str], int] = {}
    get = watch.get
    for c in cs:
        for x in c.conditions:  # _count, written out: this is the scan the memo saves
            d = x.duration
            key = (d.who, d.kind)
            watch[key] = get(key, 0) + 1
    _remember(cs, pos, watch)
    return watch


def _count(watch: dict[tuple[str, str], int], conditions: tuple[Condition, ...]) -> None:
    for x in conditions:
        d = x.duration
        key = (d.who, d.kind)
        watch[key] = watch.get(key, 0) + 1


def _uncount(watch: dict[tuple[str, str], int], conditions: tuple[Condition, ...]) -> None:
    for x in conditions:
        d = x.duration
        key = (d.who, d.kind)
        n = watch[key] - 1
        if n:
            watch[key] = n
        else:
            del watch[key]


def _remember(
    cs: tuple[Combatant, ...], pos: dict[str, int], watch: dict[tuple[str, str], int] | None
) -> None:
    if len(_MEMO) >= 256:
        _MEMO.clear()  # a bound, not an LRU: clearing is atomic and rebuilding is cheap
    _MEMO[id(cs)] = (cs, pos, watch)


# conditions tuple -> the lower-cased names of its conditions. Combatant.has and .condition ask it
# many times a command, each time lowering every name again; the tuples are immutable and shared
# between states, so a memo keyed by the tuple's id and checked by identity (the entry holds the
# tuple, as _MEMO does) never goes stale.
_NAMES: dict[int, tuple[tuple[Condition, ...], frozenset[str]]] = {}


def condition_names(conditions: tuple[Condition, ...]) -> frozenset[str]:
    """The lower-cased names of `conditions` (what Combatant.has compares with)."""
    hit = _NAMES.get(id(conditions))
    if hit is not None and hit[0] is conditions:
        return hit[1]
    names = frozenset([x.name.lower() for x in conditions])
    if len(_NAMES) >= 1024:
        _NAMES.clear()  # a bound, as _MEMO's
    _NAMES[id(conditions)] = (conditions, names)
    return names


def set_pool(pools: tuple[Pool, ...], pool: Pool) -> tuple[Pool, ...]:
    key = pool.key
    return tuple([pool if p.key == key else p for p in pools])


def set_stat(stats: tuple[tuple[str, int], ...], key: str, value: int) -> tuple[tuple[str, int], ...]:
    if any(k == key for k, _ in stats):
        return tuple((k, value if k == key else v) for k, v in stats)
    return stats + ((key, value),)
