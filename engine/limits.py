"""Caps and character rules for every text and list field of every command, checked in `apply` before
any handler runs.

The checks are compiled once per command type from its msgspec fields, so a command a ruleset
registers later is covered too: a text field this table does not name is a one-line text of at most
LINE characters, a list without a cap here holds at most MAX_ITEMS. Handlers keep their own finer
rules (a condition name must not be empty, a dice expression must parse); this is the floor under all
of them, and it applies to commands the app builds as well as to decoded ones.
"""

import keyword
import re
from collections.abc import Callable
from typing import Any

import msgspec
from msgspec import inspect as mi

from engine.errors import RuleError
from engine.text import BAD_IN_LINE, BAD_IN_NOTE, ID_PATTERN, check_id, check_line, check_multiline

_NOT_ID = re.compile(f"\\A(?!{ID_PATTERN})")  # found (at 0) in anything that is not a whole id
_NOTHING = re.compile(r"(?!)")

NAME = 80  # combatant, fight, condition, activity, action and resource names (MAX_NAME)
WORD = 40  # keys, flags, modes, kinds: one word or two
LINE = 200  # labels, triggers, reasons, dice expressions: one line
TEXT = 2000  # notes: several lines (MAX_TEXT)
STATBLOCK = 32768  # a library statblock carried by a combatant, as JSON (a big one is about 3 KB)
MAX_ITEMS = 1000  # any list not named below (entered dice: at most dice.MAX_DICE anyway)

# field name -> (kind, limit, what the message calls it). Kinds: "id" (empty or a combatant id),
# "line" (one line), "text" (newlines and tabs allowed), "word" (a flag: the old message), "lookup"
# (only looked up in a closed set and never stored: only capped, so the handler's own "no such ..."
# names what was typed, escaped by `apply`).
_FIELDS: dict[str, tuple[str, int, str]] = {
    "who": ("id", 0, "combatant"),
    "target": ("id", 0, "target"),
    "targets": ("id", 0, "target"),
    "owner": ("id", 0, "owner"),
    "source": ("id", 0, "source"),
    "ally": ("id", 0, "ally"),
    "graze": ("id", 0, "combatant"),
    "unsensed": ("id", 0, "combatant"),
    "surprised": ("id", 0, "combatant"),
    "name": ("line", NAME, "name"),
    "action": ("line", NAME, "action name"),
    "activity": ("line", NAME, "activity name"),
    "resolves": ("line", NAME, "condition name"),
    "what": ("line", NAME, "name of what is rolled for"),
    "weapon": ("line", NAME, "weapon name"),
    "resource": ("line", WORD, "resource name"),
    "key": ("line", WORD, "key"),
    "value": ("line", WORD, "setting value"),
    "pool": ("line", WORD, "track name"),
    "type": ("line", WORD, "damage type"),
    "kind": ("line", WORD, "kind"),
    "use": ("line", WORD, "use"),
    "mode": ("line", WORD, "mode"),
    "cover": ("line", WORD, "cover"),
    "defense": ("line", WORD, "defense"),
    "ability": ("line", WORD, "ability"),
    "act": ("line", WORD, "part of the turn"),
    "condition": ("line", NAME, "condition name"),
    "shove": ("line", WORD, "shove"),
    "option": ("line", WORD, "attack option"),
    "location": ("line", WORD, "hit location"),
    "range": ("line", WORD, "range"),
    "speed": ("line", WORD, "speed"),
    "label": ("line", LINE, "label"),
    "trigger": ("line", LINE, "trigger"),
    "reason": ("line", LINE, "reason"),
    "injury": ("line", LINE, "critical injury"),
    "fumble_result": ("line", LINE, "fumble result"),
    "dice": ("line", LINE, "dice expression"),
    "damage": ("line", LINE, "dice expression"),
    "advantage": ("line", NAME, "source of advantage"),
    "disadvantage": ("line", NAME, "source of disadvantage"),
    "flags": ("word", WORD, "flags"),
    "resist": ("word", WORD, "resist"),
    "vulnerable": ("word", WORD, "vulnerable"),
    "immune": ("word", WORD, "immune"),
    "condition_immune": ("word", WORD, "condition immunity"),
    "note": ("text", TEXT, "note"),
    "text": ("text", TEXT, "note"),
    "statblock": ("line", STATBLOCK, "statblock"),
}
# (command tag, field) where a name means something else than everywhere else
_OVERRIDES: dict[tuple[str, str], tuple[str, int, str]] = {
    ("wh_critical", "source"): ("line", NAME, "source"),  # what caused the injury, as text
    ("condition", "name"): ("line", NAME, "condition name"),
    ("uncondition", "name"): ("line", NAME, "condition name"),
    ("use", "what"): ("line", WORD, "part of the turn to use"),
    ("setting", "key"): ("lookup", WORD, "setting"),
    ("setting", "value"): ("lookup", WORD, "setting value"),
    ("spend", "key"): ("lookup", WORD, "resource"),
    ("area", "ability"): ("line", NAME, "ability name"),  # a statblock's ability, not a d20 score
    ("ability", "name"): ("line", NAME, "ability name"),
    ("restore", "key"): ("lookup", WORD, "resource"),
}
_COUNTS: dict[str, int] = {
    "stats": 100,
    "flags": 50,
    "resist": 50,
    "vulnerable": 50,
    "immune": 50,
    "condition_immune": 50,
    "resources": 60,  # engine.core.MAX_POOLS
    "targets": 50,
    "graze": 50,
    "unsensed": 50,
    "distance": 50,
    "advantage": 20,
    "disadvantage": 20,
    "surprised": 500,  # engine.core.MAX_COMBATANTS
    "initiative": 500,
    "rolls": 500,
    "copies": 50,  # one entry per copy: AddCombatant.count is at most 50
    "spend": 10,  # engine.pools.MAX_SPEND: pools one use spends from
}

Check = Callable[[Any], None]


def check_command(cmd: msgspec.Struct) -> None:
    """Refuse a command with an over-long, multi-line (where one line is meant), control-character or
    text-direction-control text, a malformed combatant id, or an over-long list."""
    kind = type(cmd)
    check = COMPILED.get(kind)
    if check is None:
        tag = getattr(kind.__struct_config__, "tag", "") or ""
        check = COMPILED[kind] = _compile_command(kind, tag) or _nothing
    check(cmd)


# command type -> its compiled check (apply reads it directly; check_command fills it)
COMPILED: dict[type, Check] = {}


def _nothing(cmd: Any) -> None:
    return None


def _compile_command(kind: type, tag: str) -> Check | None:
    """One function checking every field of a command type (or of a struct inside one), written out
    field by field: what `_field` does for each, without a call per field (every command goes through
    it). None when no field needs a check."""
    info = mi.type_info(kind)
    env: dict[str, Any] = {"str": str}
    lines = ["def check(cmd):"]
    for n, f in enumerate(info.fields):  # type: ignore[attr-defined]
        inner = _compile(f.type, tag, f.name)
        if inner is None:
            continue
        if not f.name.isidentifier() or keyword.iskeyword(f.name):
            env[f"field{n}"] = _field(f.name, inner, _fast(f.type, tag, f.name))
            lines.append(f"    field{n}(cmd)")
            continue
        env[f"inner{n}"] = inner
        lines.append(f"    v = cmd.{f.name}")
        fast = _fast(f.type, tag, f.name)
        if fast is not None:
            bad, limit = fast
            env[f"bad{n}"] = bad.search
            lines.append(f"    if v and (v.__class__ is not str or len(v) > {int(limit)} or bad{n}(v) is not None):")
        else:
            lines.append("    if v:  # empty strings, empty tuples, None, 0: nothing to check")
        lines.append(f"        inner{n}(v)")
    if len(lines) == 1:
        return None
    lines.append("    return None")
    exec("\n".join(lines), env)  # the source is built here from field names and ints only
    check: Check = env["check"]
    return check


def _field(name: str, inner: Check, fast: Any) -> Check:
    """Check one attribute. Most values are empty or plainly fine: `fast` (a compiled regex that finds
    anything wrong with a one-line text, with its length limit) skips the full check for them, which
    keeps this under a microsecond or two a command."""
    if fast is not None:
        bad, limit = fast

        def check_str(obj: Any) -> None:
            v = getattr(obj, name)
            if v and (v.__class__ is not str or len(v) > limit or bad.search(v) is not None):
                inner(v)

        return check_str

    def check(obj: Any) -> None:
        v = getattr(obj, name)
        if v:  # empty strings, empty tuples, None, 0: nothing to check
            inner(v)

    return check


def _fast(t: mi.Type, tag: str, field: str) -> tuple[re.Pattern[str], int] | None:
    if isinstance(t, mi.UnionType):
        rest = [x for x in t.types if not isinstance(x, mi.NoneType)]
        t = rest[0] if len(rest) == 1 else t
    if not isinstance(t, mi.StrType):
        return None
    kind, limit, _ = _OVERRIDES.get((tag, field)) or _FIELDS.get(field) or ("line", LINE, field)
    if kind == "id":
        return _NOT_ID, 20
    if kind == "text":
        return BAD_IN_NOTE, limit
    if kind == "lookup":
        return _NOTHING, limit
    return BAD_IN_LINE, limit


def _compile(t: mi.Type, tag: str, field: str) -> Check | None:
    """A checker for a value of type `t` held in `field`, or None when nothing needs checking."""
    if isinstance(t, mi.StrType):
        return _string(tag, field)
    if isinstance(t, mi.LiteralType):
        allowed = frozenset(t.values)
        return _literal(field, allowed)
    if isinstance(t, mi.UnionType):
        return _optional(t, tag, field)
    if isinstance(t, mi.VarTupleType | mi.ListType):
        item = _compile(t.item_type, tag, field)
        return _items(field, _COUNTS.get(field, MAX_ITEMS), item)
    if isinstance(t, mi.TupleType):
        return _tuple(t, tag, field)
    if isinstance(t, mi.StructType):
        return _compile_command(t.cls, tag)
    return None


def _optional(t: mi.UnionType, tag: str, field: str) -> Check | None:
    """A checker for `X | None`: None passes, anything else is checked as an X."""
    parts = [_compile(x, tag, field) for x in t.types if not isinstance(x, mi.NoneType)]
    parts = [p for p in parts if p is not None]
    if not parts:
        return None
    if len(parts) == 1:
        only = parts[0]
        return lambda v: None if v is None else only(v)
    return None  # no mixed unions in commands today; msgspec types them when decoding


def _tuple(t: mi.TupleType, tag: str, field: str) -> Check | None:
    """A checker for fixed pairs: a stat [key, value], an initiative [id, [dice]]."""
    first = field == "initiative"
    subs = [
        (i, (lambda v: check_id(v)) if (first and i == 0) else _compile(x, tag, "key" if i == 0 else field))
        for i, x in enumerate(t.item_types)
    ]
    subs = [(i, s) for i, s in subs if s is not None]
    if field == "stats":
        subs = [(0, lambda v: check_line(v, "stat name", WORD))]
    return _pairs(subs) if subs else None


def _string(tag: str, field: str) -> Check:
    kind, limit, what = _OVERRIDES.get((tag, field)) or _FIELDS.get(field) or ("line", LINE, field.replace("_", " "))
    if kind == "id":
        return lambda v: None if v == "" else _id(v, what)
    if kind == "text":
        return lambda v: check_multiline(v, what, limit)
    if kind == "word":
        return lambda v: _word(v, what, limit)
    if kind == "lookup":
        return lambda v: _capped(v, what, limit)
    return lambda v: check_line(v, what, limit)


def _id(value: Any, what: str) -> None:
    if not isinstance(value, str):
        raise RuleError(f"A {what} is named by its id (c1, c2, ...).")
    check_id(value, what)


def _word(value: str, what: str, limit: int) -> None:
    try:
        check_line(value, what, limit)
    except RuleError:
        raise RuleError(f"Each of the {what} is a word or two on one line (at most {limit} characters).") from None


def _capped(value: str, what: str, limit: int) -> None:
    if len(value) > limit:
        raise RuleError(f"A {what} can be at most {limit} characters.")


def _literal(field: str, allowed: frozenset[Any]) -> Check:
    shown_allowed = ", ".join(sorted(repr(a) for a in allowed))

    def check(v: Any) -> None:
        if v not in allowed:
            raise RuleError(f"The {field.replace('_', ' ')} must be one of {shown_allowed}.")

    return check


def _items(field: str, cap: int, item: Check | None) -> Check:
    def check(v: Any) -> None:
        if v is None:
            return
        if len(v) > cap:
            what = f"sources of {field}" if field in ("advantage", "disadvantage") else field.replace("_", " ")
            raise RuleError(f"At most {cap} {what}.")
        if item is not None:
            for x in v:
                item(x)

    return check


def _pairs(subs: list[tuple[int, Check]]) -> Check:
    def check(v: Any) -> None:
        for i, s in subs:
            if i < len(v):
                s(v[i])

    return check
