"""The save format's building blocks: frames, record types, state deltas and upgrades.

docs/save-format.md describes the bytes; this module is the one place that knows them. Nothing here
touches the file system (journal.py does), so every piece can be tested on bytes in memory.

Record types are built at use time from `engine.command_union()` / `engine.event_union()` and from the
fields of `Fight` / `Combatant`, because rulesets register commands and events of their own and the
engine grows fields: a codec built at import time would miss them and write records it cannot read.
"""

import datetime as dt
import re
import struct
import zlib
from collections.abc import Callable
from functools import cached_property
from typing import Annotated, Any, Union

import msgspec
from msgspec import UNSET, UnsetType
from msgspec.structs import astuple, fields, replace

from engine.dice import Rng
from engine.ruleset import REGISTRY
from engine.state import (
    CLOCK_TYPES,
    ECONOMY_TYPES,
    AnyClock,
    AnyEconomy,
    Clock,
    Combatant,
    Condition,
    Duration,
    Economy,
    Fight,
    state_hook,
)

MAGIC = b"\x89FRACAS\n"  # a non-ASCII first byte and a newline: text-mode transfers show up at once
FORMAT = 2  # the save format this version writes; it reads this one and older ones (UPGRADES)
EXTENSION = ".fracas"

MAX_COMBATANTS = 500  # engine.core.MAX_COMBATANTS (a test keeps them equal): a longer list is refused unread
MAX_RECORD = 16 * 1024 * 1024  # one record (a full state of 500 combatants is well under 2 MiB)
MAX_FILE = 256 * 1024 * 1024  # a whole file: about a million commands
CHECKPOINT_EVERY = 1000  # writer policy: a full state at the first round change after this many steps

# Inflation bounds (docs/save-format.md, "Limits"): real saves inflate to about 4 times their size in
# total (measured: 2.6 to 4.2 on the golden files, 3,000-command fights and the 10,000-command bench
# file) and one record at most about 80 times its stored size (a small step primed by the window).
# A file may inflate in total to INFLATE_FLOOR or INFLATE_RATIO times its size, whichever is more; a
# record to RECORD_FLOOR or RECORD_RATIO times its stored size. A compressed bomb stops there.
INFLATE_FLOOR = 16 * 1024 * 1024
INFLATE_RATIO = 16
RECORD_FLOOR = 64 * 1024
RECORD_RATIO = 256


def inflate_budget(file_size: int) -> int:
    """The most a file of this size may inflate to, all records together."""
    return max(INFLATE_FLOOR, INFLATE_RATIO * file_size)

# record kinds (one byte in the frame)
HEADER = ord("H")
STEP = ord("S")
UNDO = ord("U")
REDO = ord("R")
POSITION = ord("P")
KIND_NAMES = {HEADER: "header", STEP: "step", UNDO: "undo", REDO: "redo", POSITION: "position"}
COMPRESSED = 0x80  # kind bit: the payload is raw deflate, primed with the window (see `seal`)
VALID_KINDS = frozenset(KIND_NAMES) | frozenset(k | COMPRESSED for k in KIND_NAMES if k != HEADER)

# Compression: each record is deflated on its own with the last WINDOW bytes of the records before it
# (their raw payloads, header first, in file order) as preset dictionary. Consecutive records repeat
# names, tags and field names, so this saves about 3/4 of the bytes while every record stays
# separately framed, checksummed and appended. The header names the window size.
WINDOW = 4096
MAX_WINDOW = 32768  # deflate's dictionary limit
_WBITS = -15  # raw deflate: the frame already has a length and a checksum

# frame: payload length, kind, payload CRC-32, then the CRC-32 of those 9 bytes, then the payload
_PRE = struct.Struct("<IBI")
_HCRC = struct.Struct("<I")
FRAME_SIZE = _PRE.size + _HCRC.size  # 13
FRAME = struct.Struct("<IBII")  # the whole frame header at once, for the reader's fast path


class FormatProblem(Exception):
    """A record decoded but does not fit the fight (bad index, wrong parent...); the reader turns it
    into a SaveError with the record's offset."""


def frame(kind: int, payload: bytes) -> bytes:
    if len(payload) > MAX_RECORD:
        raise FormatProblem(f"a record of {len(payload)} bytes is over the {MAX_RECORD} byte limit")
    pre = _PRE.pack(len(payload), kind, zlib.crc32(payload))
    return pre + _HCRC.pack(zlib.crc32(pre)) + payload


def seal(kind: int, raw: bytes, window: bytes) -> bytes:
    """The frame of a record: deflated against `window` when that is smaller, else as it is. The
    compressed bytes are inflated again before they are trusted."""
    if len(raw) > MAX_RECORD:
        raise FormatProblem(f"a record of {len(raw)} bytes is over the {MAX_RECORD} byte limit")
    if len(raw) >= 48 and window:
        co = zlib.compressobj(1, zlib.DEFLATED, _WBITS, 8, zdict=window)
        packed = co.compress(raw) + co.flush()
        if len(packed) < len(raw):
            if inflate(packed, window) != raw:  # pragma: no cover - zlib itself failing
                raise FormatProblem("compression did not round-trip")
            return frame(kind | COMPRESSED, packed)
    return frame(kind, raw)


def inflate(packed: bytes | memoryview, window: bytes, budget: int = MAX_RECORD) -> bytes:
    """A compressed payload back, bounded by the record limit, by RECORD_RATIO times its own size
    (above RECORD_FLOOR) and by `budget` (what is left of the file's inflation budget)."""
    limit = min(MAX_RECORD, max(RECORD_FLOOR, RECORD_RATIO * len(packed)), budget)
    try:
        d = zlib.decompressobj(_WBITS, zdict=window) if window else zlib.decompressobj(_WBITS)
        raw = d.decompress(packed, max(limit, 1))
    except zlib.error as exc:  # "Error -3 while decompressing data: invalid ...": only the why
        raise FormatProblem(f"a compressed record does not inflate ({str(exc).rsplit(': ', 1)[-1]})") from None
    if d.unconsumed_tail or len(raw) > limit:
        if limit == budget and budget < MAX_RECORD:
            raise FormatProblem(
                "the records inflate to far more than a save of this size can hold (a compression bomb?)"
            )
        raise FormatProblem(f"a compressed record inflates to more than its limit of {limit} bytes")
    if d.unused_data or not d.eof:
        raise FormatProblem("a compressed record does not inflate cleanly")
    return raw


def slide(window: bytes, raw: bytes | memoryview, size: int) -> bytes:
    """The window after one more record."""
    if not size:
        return b""
    if len(raw) >= size:
        return bytes(raw[-size:])
    return (window + raw)[-size:]


def unpack_frame(data: bytes | memoryview, pos: int) -> tuple[int, int, int, int]:
    """(length, kind, payload crc, header crc) of the frame at `pos`; the caller checks the size."""
    length, kind, pcrc = _PRE.unpack_from(data, pos)
    (hcrc,) = _HCRC.unpack_from(data, pos + _PRE.size)
    return length, kind, pcrc, hcrc


def header_ok(data: bytes | memoryview, pos: int, hcrc: int) -> bool:
    return zlib.crc32(data[pos : pos + _PRE.size]) == hcrc


# --- fixed record types -----------------------------------------------------------------------


class Probe(msgspec.Struct):
    """The one header field every format version keeps: read first, before anything is trusted."""

    format: int


class Header(msgspec.Struct, frozen=True, kw_only=True):
    format: int
    app: str
    ruleset: str
    created: str  # ISO 8601, UTC
    root: Fight  # the fight before any command (node 0)
    window: int = WINDOW  # bytes of earlier records that prime each record's compression


class Move(msgspec.Struct, frozen=True):
    """An undo or redo: `to` is the node the cursor lands on (a check, the move itself is implied)."""

    to: int


class Position(msgspec.Struct, frozen=True):
    """Where the GM was, written by rewrites (save-as, repair) after the nodes: the cursor, and the
    redo pointers that differ from the ones replaying the nodes in order leaves behind."""

    cursor: int
    redo: tuple[tuple[int, int], ...] = ()


def new_header(root: Fight) -> Header:
    now = dt.datetime.now(dt.UTC).replace(microsecond=0).isoformat()
    return Header(format=FORMAT, app=app_version(), ruleset=root.ruleset, created=now, root=root)


def app_version() -> str:
    from engine.version import __version__

    return __version__


# --- upgrades ---------------------------------------------------------------------------------

# UPGRADES[v](kind, record, context) turns one record of format v, decoded to plain msgpack data (dicts,
# lists, str, int...), into the same record in format v+1. An old file is read record by record through
# the chain, then converted to the current types. `context` is one dict per file, shared by its records:
# an upgrade that needs what the header said (its ruleset) puts it there when it upgrades the header,
# which is always read first. docs/save-format.md says when to add a step.
Upgrade = Callable[[int, Any, dict[str, Any]], tuple[int, Any]]


def _v1_economy(e: Any, ctx: dict[str, Any]) -> Any:
    """Format 1's one Economy of every ruleset's fields -> the header's ruleset's own struct: its tag
    and only the fields it has (the others were never set by that ruleset and stay at defaults)."""
    if not isinstance(e, dict):
        return e  # not an economy at all: the conversion after the upgrade says so
    tag, names = ctx["economy"]
    return {"type": tag, **{k: v for k, v in e.items() if k in names}}


def _v1_clock(n: Any, ctx: dict[str, Any]) -> Any:
    """Format 1's `Fight.phase`, one int meaning what the ruleset said -> the header's ruleset's own
    clock (its `with_number`: d20's slot, Cosmere's group, nine-phase's phase...), as plain data."""
    if type(n) is not int:
        raise FormatProblem("the fight's phase is not a whole number")
    return msgspec.to_builtins(ctx["clock"]().with_number(n))


def _v1_combatant(c: Any, ctx: dict[str, Any]) -> None:
    # format 1 left an all-default Economy out; format 2 always needs the ruleset's own (the base
    # Economy, a combatant's default, has none of the ruleset's fields)
    if isinstance(c, dict):
        c["economy"] = _v1_economy(c.get("economy", {}), ctx)


def _v1_fight(f: Any, ctx: dict[str, Any]) -> None:
    if not isinstance(f, dict):
        return
    # format 1 left a phase of 0 out; every format 2 fight holds its ruleset's clock
    f["clock"] = _v1_clock(f.pop("phase", 0), ctx)
    if isinstance(f.get("combatants"), list):
        for c in f["combatants"]:
            _v1_combatant(c, ctx)


def _v1_to_v2(kind: int, record: Any, ctx: dict[str, Any]) -> tuple[int, Any]:
    """Format 1 -> 2: each ruleset's economy and clock are its own tagged structs (so a ruleset's
    fields live in its own package and a new ruleset adds its own without a format change)."""
    if not isinstance(record, dict):
        return kind, record
    if kind == HEADER:
        rs = REGISTRY.get(record.get("ruleset"))  # type: ignore[arg-type]
        cls = rs.economy_type if rs is not None else Economy  # unknown: refused once the header is read
        ctx["economy"] = (cls.__struct_config__.tag, frozenset(f.name for f in fields(cls)))
        ctx["clock"] = rs.clock_type if rs is not None else Clock
        _v1_fight(record.get("root"), ctx)
    elif kind == STEP:
        if "economy" not in ctx:
            raise FormatProblem("a step before the header")
        _v1_fight(record.get("s"), ctx)
        delta = record.get("d")
        if isinstance(delta, dict):
            _v1_delta(delta, ctx)
    return kind, record


def _v1_delta(delta: dict[str, Any], ctx: dict[str, Any]) -> None:
    """A format-1 step's delta in place: its phase setter becomes a clock setter, its new combatants'
    and patched economies become the ruleset's own."""
    for one in delta.get("f") or ():
        if isinstance(one, dict) and one.get("f") == "phase":
            one["f"] = "clock"
            one["v"] = _v1_clock(one.get("v"), ctx)
    for x in delta.get("l") or ():
        _v1_combatant(x, ctx)
    for p in delta.get("p") or ():
        for one in (p.get("s") or ()) if isinstance(p, dict) else ():
            if isinstance(one, dict) and one.get("f") == "economy":
                one["v"] = _v1_economy(one.get("v"), ctx)


UPGRADES: dict[int, Upgrade] = {1: _v1_to_v2}


def upgrade(kind: int, record: Any, version: int, context: dict[str, Any] | None = None) -> tuple[int, Any]:
    ctx = {} if context is None else context
    for v in range(version, FORMAT):
        step = UPGRADES.get(v)
        if step is None:
            raise FormatProblem(f"no upgrade from save format {v} to {v + 1}")
        kind, record = step(kind, record, ctx)
    if kind == HEADER and isinstance(record, dict):
        record = {**record, "format": FORMAT}
    return kind, record


# --- validating what a file holds ------------------------------------------------------------
#
# msgspec checks every type; these check the values a type cannot express, for states read from a
# file (the header's root, full states, every value a delta sets): combatant ids in the engine's own
# syntax (it makes c1, c2, ...: engine/core.py, `f"c{next_id}"`), id references empty or such an id,
# ints within +-2**62 (so the engine's sums still encode in 64 bits), the dice stream's seed and
# counter within [0, 2**63) (engine/dice.py masks the seed to 63 bits). The writer runs the same
# checks, so it never writes what the reader refuses. Names are not checked here: an earlier Fracas
# let control characters into them, and such a fight must still open (the engine refuses new ones,
# and every screen and terminal line shows them made harmless).

ID_RE = re.compile(r"c[1-9][0-9]{0,17}\Z", re.ASCII)
MAX_INT = 1 << 62
MAX_RNG = 1 << 63
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")
# (struct, field) -> what the str holds: "id" (an id), "ref" (an id or ""), "ids" (a tuple of ids)
_SPECIAL: dict[tuple[type, str], str] = {
    (Combatant, "id"): "id",
    (Combatant, "owner"): "ref",
    (Fight, "current"): "ref",
    (Fight, "order"): "ids",
    (Fight, "standing"): "ids",
    (Condition, "source"): "ref",
    (Duration, "who"): "ref",
}
Check = Callable[[Any], None]


def _shown(value: object) -> str:
    text = _CONTROL.sub("?", str(value))
    return repr(text[:40] + ("..." if len(text) > 40 else ""))


def _check_int(v: Any) -> None:
    if v is not None and not -MAX_INT <= v <= MAX_INT:
        raise FormatProblem(f"the number {v} is out of range")


def _check_rng_part(v: Any) -> None:
    if not 0 <= v < MAX_RNG:
        raise FormatProblem(f"the dice stream position {v} is out of range")


def _check_id(v: Any) -> None:
    if ID_RE.match(v) is None:
        raise FormatProblem(f"{_shown(v)} is not a combatant id")


def _check_ref(v: Any) -> None:
    if v and ID_RE.match(v) is None:
        raise FormatProblem(f"{_shown(v)} is not a combatant id")


def _check_ids(v: Any) -> None:
    for x in v:
        _check_id(x)


def _check_own(v: Any) -> None:
    """An economy's or a clock's values, by its own struct (the declared type is only a marker)."""
    c = struct_checker(type(v))
    if c is not None:
        c(v)


def check_economies(f: Fight, cs: Any = None) -> None:
    """Every combatant (of `cs`, default all) holds the economy of the fight's own ruleset: the rules
    read its fields, and another ruleset's (or the bare base) would have none of them."""
    rs = REGISTRY.get(f.ruleset)
    if rs is None:
        return  # an unknown ruleset is refused by the reader with its own message
    want = rs.economy_type
    for c in f.combatants if cs is None else cs:
        if type(c.economy) is not want:
            got = c.economy.__struct_config__.tag if isinstance(c.economy, msgspec.Struct) else "?"
            raise FormatProblem(
                f"combatant {_shown(c.id)} holds a '{got}' economy in a {f.ruleset} fight "
                f"(its economy is '{want.__struct_config__.tag}')"
            )


def check_clock(f: Fight) -> None:
    """The fight holds its own ruleset's clock: the rules read its fields, another's has none."""
    rs = REGISTRY.get(f.ruleset)
    if rs is not None and type(f.clock) is not rs.clock_type:
        got = f.clock.__struct_config__.tag if isinstance(f.clock, msgspec.Struct) else "?"
        raise FormatProblem(
            f"the fight's clock is a '{got}' one, not a {f.ruleset} fight's ('{rs.clock_type.__struct_config__.tag}')"
        )


_BY_KIND: dict[str, Check] = {"id": _check_id, "ref": _check_ref, "ids": _check_ids}
_STRUCT_CHECKS: dict[type, Check | None] = {}


def _checker(t: Any) -> Check | None:
    """A function checking a value of msgspec type info `t`, or None when the type says it all."""
    import msgspec.inspect as mi

    if isinstance(t, mi.IntType):
        return _check_int
    if isinstance(t, mi.StructType):
        return struct_checker(t.cls, t.fields)  # its fields are translated already: not again
    if isinstance(t, mi.CustomType) and t.cls in (AnyEconomy, AnyClock):
        return _check_own
    if isinstance(t, mi.VarTupleType | mi.ListType | mi.FrozenSetType | mi.SetType):
        return _each_checker(t.item_type)
    if isinstance(t, mi.TupleType):
        return _tuple_checker(t.item_types)
    if isinstance(t, mi.UnionType):
        return _union_checker(t.types)
    if isinstance(t, mi.DictType):
        return _dict_checker(t.key_type, t.value_type)
    return None  # str, bool, literals, None: msgspec checked them


def _each_checker(item_type: Any) -> Check | None:
    """A collection whose every item is of `item_type`."""
    item = _checker(item_type)
    if item is None:
        return None

    def each(v: Any, item: Check = item) -> None:
        for x in v:
            item(x)

    return each


def _tuple_checker(item_types: Any) -> Check | None:
    """A fixed tuple: each place its own type."""
    parts = [(i, c) for i, c in enumerate(_checker(x) for x in item_types) if c is not None]
    if not parts:
        return None

    def fixed(v: Any) -> None:
        for i, c in parts:
            c(v[i])

    return fixed


def _union_checker(types: Any) -> Check | None:
    """A union of structs and ints, told apart by the value's type."""
    import msgspec.inspect as mi

    by_type: dict[type, Check] = {}
    for x in types:
        c = _checker(x)
        if c is not None:
            py = x.cls if isinstance(x, mi.StructType) else int if isinstance(x, mi.IntType) else None
            if py is None:
                return None  # a union this does not know how to split: msgspec's types suffice
            by_type[py] = c
    if not by_type:
        return None

    def one_of(v: Any) -> None:
        c = by_type.get(type(v))
        if c is not None:
            c(v)

    return one_of


def _dict_checker(key_type: Any, value_type: Any) -> Check | None:
    """A mapping: its keys and values each of their type."""
    k, v = _checker(key_type), _checker(value_type)
    if k is None and v is None:
        return None

    def mapping(d: Any) -> None:
        for a, b in d.items():
            if k is not None:
                k(a)
            if v is not None:
                v(b)

    return mapping


def struct_checker(cls: type, infos: Any = None) -> Check | None:
    """The check of one struct type, built once from its fields (`infos`: their msgspec type info,
    when the caller has it; translating a type again costs as much as the first time)."""
    if cls in _STRUCT_CHECKS:
        return _STRUCT_CHECKS[cls]
    import msgspec.inspect as mi

    _STRUCT_CHECKS[cls] = None  # a type that contains itself is checked one level deep
    parts = field_checkers(cls, mi.type_info(cls).fields if infos is None else infos)
    if not parts:
        return None
    items = tuple(parts.items())

    def check(v: Any) -> None:
        for name, c in items:
            c(getattr(v, name))

    _STRUCT_CHECKS[cls] = check
    return check


def field_checkers(cls: type, infos: Any) -> dict[str, Check]:
    out: dict[str, Check] = {}
    for f in infos:
        special = _SPECIAL.get((cls, f.name))
        if cls is Rng:
            c: Check | None = _check_rng_part
        elif special is not None:
            c = _BY_KIND[special]
        else:
            c = _checker(f.type)
        if c is not None:
            out[f.name] = c
    return out


def check_fight(f: Fight) -> None:
    """Every value of a whole state, and that its combatant ids are distinct and below `next_id`."""
    check = struct_checker(Fight)
    try:
        if check is not None:
            check(f)
        check_ids(f)
        check_economies(f)
        check_clock(f)
    except RecursionError:
        raise FormatProblem("the state is nested too deeply") from None


def check_ids(f: Fight) -> None:
    if len(f.combatants) > MAX_COMBATANTS:
        raise FormatProblem(f"{len(f.combatants)} combatants, more than a fight can hold ({MAX_COMBATANTS})")
    seen: set[str] = set()
    top = 0
    for c in f.combatants:
        if c.id in seen:
            raise FormatProblem(f"two combatants have the id {_shown(c.id)}")
        seen.add(c.id)
        top = max(top, int(c.id[1:]))
    if not top < f.next_id <= MAX_INT:
        raise FormatProblem(f"the next combatant id ({f.next_id}) is out of range")


# --- the codec: step records and state deltas -------------------------------------------------
#
# A step's outcome is stored as a delta against its parent state:
#   f: the Fight fields that changed, each as {"f": field name, "v": new value}
#   l: only when combatants joined, left or moved: the new list, each entry either the index of an
#      unchanged-or-patched combatant in the parent state, or a whole new Combatant
#   p: per changed combatant {"i": index in the new list, "s": [{"f": field, "v": value}, ...]}
# The setter types are generated from the engine's own fields, so new fields are covered as they come.


class Codec(msgspec.Struct, frozen=True, eq=False, dict=True):  # dict: room for the cached_property values
    """Record types and (de)coders for the commands and events known when it was built."""

    command_types: frozenset[type]
    event_types: frozenset[type]
    step: type
    delta: type
    patch: type
    fight_setters: dict[str, type]  # Fight field name -> its setter struct
    combatant_setters: dict[str, type]
    encoder: msgspec.msgpack.Encoder
    header_decoder: msgspec.msgpack.Decoder

    # The read side of steps is built on first use: a new fight (the demo, `fracas new`) only writes
    # its steps, and building these costs 10-20 ms of start-up.
    @cached_property
    def step_decoder(self) -> msgspec.msgpack.Decoder:
        return msgspec.msgpack.Decoder(self.step, dec_hook=state_hook)

    @cached_property
    def move_decoder(self) -> msgspec.msgpack.Decoder:
        return msgspec.msgpack.Decoder(Move)

    @cached_property
    def position_decoder(self) -> msgspec.msgpack.Decoder:
        return msgspec.msgpack.Decoder(Position)

    @cached_property
    def fight_checks(self) -> dict[str, Check]:  # Fight field -> the check of a value a delta sets
        return _field_checks(Fight)

    @cached_property
    def combatant_checks(self) -> dict[str, Check]:
        return _field_checks(Combatant)

    @cached_property
    def combatant_check(self) -> Check | None:  # a whole new Combatant
        return struct_checker(Combatant)

    def knows(self, command: object, events: tuple[object, ...]) -> bool:
        return type(command) in self.command_types and all(type(e) in self.event_types for e in events)

    # --- writing ------------------------------------------------------------------------------
    def encode(self, obj: object) -> bytes:
        return self.encoder.encode(obj)

    def step_record(
        self, parent: int, before: Fight, after: Fight, command: object, events: tuple, full: bool
    ) -> bytes:
        if full:
            step = self.step(parent=parent, command=command, events=events, state=after)
        else:
            step = self.step(parent=parent, command=command, events=events, delta=self.diff(before, after))
        return self.encoder.encode(step)

    def diff(self, old: Fight, new: Fight) -> Any:
        """What changed from `old` to `new`. States share untouched parts, so identity settles most
        comparisons before any equality test runs."""
        sets: list[Any] = []
        if old is not new:
            setters = self.fight_setters
            for name, a, b in zip(_FIGHT_FIELDS, astuple(old), astuple(new), strict=True):
                if a is not b and name != "combatants" and a != b:
                    sets.append(setters[name](b))
        oc, nc = old.combatants, new.combatants
        layout: Any = UNSET
        patches: list[Any] = []
        if oc is not nc:
            if len(oc) == len(nc) and all(x is y or x.id == y.id for x, y in zip(oc, nc, strict=True)):
                for i, (x, y) in enumerate(zip(oc, nc, strict=True)):
                    if x is not y:
                        self._patch(patches, i, x, y)
            else:
                where = {c.id: i for i, c in enumerate(oc)}
                items: list[Any] = []
                for i, y in enumerate(nc):
                    j = where.get(y.id)
                    if j is None:
                        items.append(y)
                        continue
                    items.append(j)
                    x = oc[j]
                    if x is not y:
                        self._patch(patches, i, x, y)
                layout = tuple(items)
        return self.delta(fight=tuple(sets), layout=layout, patch=tuple(patches))

    def _patch(self, out: list[Any], i: int, x: Combatant, y: Combatant) -> None:
        setters = self.combatant_setters
        sets = [
            setters[name](b)
            for name, a, b in zip(_COMBATANT_FIELDS, astuple(x), astuple(y), strict=True)
            if a is not b and a != b and name != "id"
        ]
        if sets:
            out.append(self.patch(i=i, sets=tuple(sets)))

    # --- reading ------------------------------------------------------------------------------
    def apply_delta(self, before: Fight, delta: Any) -> Fight:
        """The state after a delta; FormatProblem if it does not fit `before` or sets a value a file
        must not hold (every value it sets is checked, unchanged ones were checked before)."""
        new: list[Combatant] | None = None
        whole = False  # the combatants or next_id changed: check ids across the state
        if delta.layout is not UNSET:
            new = self._layout(before.combatants, delta.layout)
            whole = True
        if delta.patch:
            new = self._patched(list(before.combatants) if new is None else new, delta.patch)
        checks = self.fight_checks
        for s in delta.fight:
            c = checks.get(s.name)
            if c is not None:
                c(s.v)
            if s.name == "next_id":
                whole = True
        changes = {s.name: s.v for s in delta.fight}
        clock = "clock" in changes
        if new is not None:
            changes["combatants"] = tuple(new)
        after = replace(before, **changes) if changes else before
        if whole:
            check_ids(after)
            check_economies(after)
        elif delta.patch:
            check_economies(after, [after.combatants[p.i] for p in delta.patch])
        if clock:
            check_clock(after)
        return after

    def _layout(self, cs: tuple[Combatant, ...], layout: Any) -> list[Combatant]:
        """The combatants a delta's layout lists: an index keeps that one from before (once at most),
        a combatant is a new one, checked."""
        new: list[Combatant] = []
        n = len(cs)
        taken: set[int] = set()
        check_combatant = self.combatant_check
        for x in layout:
            if type(x) is int:
                if not 0 <= x < n or x in taken:
                    raise FormatProblem(f"combatant {x} does not exist in the state before (or comes twice)")
                taken.add(x)
                new.append(cs[x])
            else:
                if check_combatant is not None:
                    check_combatant(x)
                new.append(x)
        return new

    def _patched(self, new: list[Combatant], patches: Any) -> list[Combatant]:
        """`new` with a delta's patches applied to the combatants they name, each value set checked."""
        n = len(new)
        checks = self.combatant_checks
        for p in patches:
            i = p.i
            if not 0 <= i < n:
                raise FormatProblem(f"a change to combatant {i}, which does not exist")
            for s in p.sets:
                c = checks.get(s.name)
                if c is not None:
                    c(s.v)
            new[i] = replace(new[i], **{s.name: s.v for s in p.sets})
        return new

    @staticmethod
    def reshare(before: Fight, full: Fight) -> Fight:
        """A full state read from disk, with every combatant equal to one before replaced by that
        one, so states of the history keep sharing memory across a checkpoint."""
        old = before.combatants
        cs = full.combatants
        shared = tuple(old[i] if i < len(old) and old[i] == c else c for i, c in enumerate(cs))
        return replace(full, combatants=shared)


_FIGHT_FIELDS = tuple(f.name for f in fields(Fight))
_COMBATANT_FIELDS = tuple(f.name for f in fields(Combatant))
_CODECS: dict[tuple[tuple[type, ...], ...], Codec] = {}


def codec() -> Codec:
    """The codec for every command and event type registered now (cached per set of types)."""
    from engine.commands import COMMAND_TYPES, command_union
    from engine.events import EVENT_TYPES, event_union

    cu = command_union()  # imports the rulesets, which register their own types
    eu = event_union()
    key = (tuple(COMMAND_TYPES), tuple(EVENT_TYPES), tuple(ECONOMY_TYPES.values()), tuple(CLOCK_TYPES.values()))
    c = _CODECS.get(key)
    if c is None:
        c = _CODECS[key] = _build(cu, eu, key)
    return c


_OPTS: dict[str, Any] = {"frozen": True, "gc": False, "omit_defaults": True}


def _setters(prefix: str, of: type, skip: str) -> dict[str, type]:
    """One tagged struct per field of `of`: {"f": field name, "v": value of that field's type}; an
    economy or a clock as the union of those registered now, so a delta decodes it with no hook."""
    return {
        f.name: msgspec.defstruct(
            f"{prefix}_{f.name}",
            [("v", _OWN[f.type]() if f.type in _OWN else f.type)],
            tag_field="f",
            tag=f.name,
            namespace={"name": f.name},
            **_OPTS,
        )
        for f in fields(of)
        if f.name != skip
    }


# a marker type -> the union of its structs registered now (read when a codec is built)
_OWN: dict[Any, Callable[[], Any]] = {
    AnyEconomy: lambda: Union[tuple(ECONOMY_TYPES.values())],  # type: ignore[valid-type]  # noqa: UP007
    AnyClock: lambda: Union[tuple(CLOCK_TYPES.values())],  # type: ignore[valid-type]  # noqa: UP007
}


def _build(cu: Any, eu: Any, key: tuple[tuple[type, ...], ...]) -> Codec:
    fight_setters = _setters("SetFight", Fight, "combatants")
    combatant_setters = _setters("SetCombatant", Combatant, "id")
    fight_set = Union[tuple(fight_setters.values())]  # type: ignore[valid-type]  # noqa: UP007
    combatant_set = Union[tuple(combatant_setters.values())]  # type: ignore[valid-type]  # noqa: UP007
    # lengths are checked from the array header, before any element is decoded (a list of a million
    # combatants is refused without building one)
    sets = Annotated[tuple[combatant_set, ...], msgspec.Meta(max_length=len(combatant_setters))]
    patch = msgspec.defstruct("Patch", [("i", int), ("sets", sets)], rename={"sets": "s"}, **_OPTS)
    delta = msgspec.defstruct(
        "Delta",
        [
            ("fight", Annotated[tuple[fight_set, ...], msgspec.Meta(max_length=len(fight_setters))], ()),
            (
                "layout",
                Annotated[tuple[int | Combatant, ...], msgspec.Meta(max_length=MAX_COMBATANTS)] | UnsetType,
                UNSET,
            ),
            ("patch", Annotated[tuple[patch, ...], msgspec.Meta(max_length=MAX_COMBATANTS)], ()),
        ],
        rename={"fight": "f", "layout": "l", "patch": "p"},
        **_OPTS,
    )
    step = msgspec.defstruct(
        "Step",
        [
            ("parent", int),
            ("command", cu),
            ("events", tuple[eu, ...], ()),  # type: ignore[valid-type]
            ("delta", delta | UnsetType, UNSET),
            ("state", Fight | UnsetType, UNSET),
        ],
        rename={"parent": "p", "command": "c", "events": "e", "delta": "d", "state": "s"},
        **_OPTS,
    )
    return Codec(
        command_types=frozenset(key[0]),
        event_types=frozenset(key[1]),
        step=step,
        delta=delta,
        patch=patch,
        fight_setters=fight_setters,
        combatant_setters=combatant_setters,
        encoder=msgspec.msgpack.Encoder(),
        header_decoder=msgspec.msgpack.Decoder(Header, dec_hook=state_hook),
    )


def _field_checks(cls: type) -> dict[str, Check]:
    import msgspec.inspect as mi

    return field_checkers(cls, mi.type_info(cls).fields)
