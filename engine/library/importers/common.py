"""The types and checks every importer shares (kept apart from __init__ so the importer modules can
import them)."""

import functools
import math
import re
from typing import Any

import msgspec

from engine.errors import RuleError
from engine.library.base import Statblock
from engine.text import shown


class ImportResult(msgspec.Struct, frozen=True):
    format: str  # "Improved Initiative", "5e SRD API", ...
    ruleset: str
    creatures: tuple[Statblock, ...] = ()
    party: tuple[Statblock, ...] = ()
    report: tuple[str, ...] = ()  # one line per entry: "Goblin: took ...; skipped ... (why)"


class ImportProblem(RuleError):
    """The file is not in a format Fracas reads, or one of its entries cannot be imported."""


# what a field of an unexpected shape raises while an entry is read: that entry's problem, one line
SHAPE_ERRORS = (TypeError, AttributeError, KeyError, ValueError, IndexError, OverflowError)


def entry_name(i: int, entry: Any, key: str) -> str:
    name = entry.get(key) if isinstance(entry, dict) else None
    return f"entry {i + 1}" + (f" ({shown(name)})" if isinstance(name, str) and name else "")


# --- numbers: refused when out of range, never coerced ---------------------------------------------

# the first number a text says ("30 ft.", "-1", "12.0", "1e3"); possessive, so a long run of digits
# is read once (linear), and a number longer than NUMBER_CHARS is out of range without being parsed
_NUMBER = re.compile(r"[-\u2212]?\d++(?:\.\d++)?(?:[eE][-+]?\d++)?")
NUMBER_CHARS = 24
FEET = (0, 10_000)  # a range in feet (no ruleset bounds one): the longest siege weapon is far short of it


@functools.cache
def bounds(cls: type, field: str) -> tuple[int, int]:
    """The bounds a statblock struct's integer field has (its msgspec ge/le): the ruleset's own."""
    for f in msgspec.inspect.type_info(cls).fields:
        if f.name == field:
            types = f.type.types if isinstance(f.type, msgspec.inspect.UnionType) else (f.type,)
            t = next(t for t in types if isinstance(t, msgspec.inspect.IntType))
            return t.ge, t.le
    raise KeyError(field)


def _figure(v: int | float | str) -> str:
    """A number as an error message shows it: 1e+308, 12.5, cut short when it is long."""
    s = f"{v:g}" if isinstance(v, float) else str(v)
    return s if len(s) <= 20 else s[:17] + "..."


def in_range(v: int, what: str, lo: int, hi: int) -> int:
    if not lo <= v <= hi:
        raise RuleError(f"{what} {_figure(v)} is out of range ({lo} to {hi})")
    return v


def whole(v: Any, what: str, lo: int, hi: int) -> int:
    """A JSON number (an int, or a float that is whole: 12.0) in [lo, hi], or a RuleError naming
    `what`: a fraction, NaN, infinity or a number out of range is refused, never rounded or clamped."""
    if isinstance(v, bool) or not isinstance(v, int | float):
        raise RuleError(f"{what} is not a number")
    if isinstance(v, float):
        if math.isnan(v):
            raise RuleError(f"{what} is not a number (NaN)")
        if math.isinf(v) or not lo <= v <= hi:
            raise RuleError(f"{what} {_figure(v)} is out of range ({lo} to {hi})")
        if not v.is_integer():
            raise RuleError(f"{what} {_figure(v)} is not a whole number")
        return int(v)
    return in_range(v, what, lo, hi)


def number(v: Any, what: str, lo: int, hi: int) -> int:
    """`whole`, and for a text the first number it says ("30 ft." is 30; "12.5" is no whole number)."""
    if isinstance(v, str):
        m = _NUMBER.search(v)
        if m is None:
            raise RuleError(f"{what} is not a number")
        token = m[0].replace("\u2212", "-")
        if len(token) > NUMBER_CHARS:
            raise RuleError(f"{what} {_figure(token)} is out of range ({lo} to {hi})")
        v = int(token) if token.lstrip("-").isdigit() else float(token)
    return whole(v, what, lo, hi)


def untaken(entry: dict[str, Any], taken: frozenset[str], lead: str = "fields not taken") -> str:
    """The report's phrase naming every key of `entry` that holds something no field took ("" when
    there is none): the report is exhaustive over the input's keys, so nothing is dropped unsaid."""
    keys = [shown(str(k)[:40]).strip("'") for k, v in entry.items() if k not in taken and v not in _EMPTY]
    return f"{lead}: {', '.join(keys)}" if keys else ""


_EMPTY: tuple[Any, ...] = (None, "", [], {}, False)
