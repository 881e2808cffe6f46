"""The types every importer shares (kept apart from __init__ so the importer modules can import them)."""

from collections.abc import Callable
from typing import Any

import msgspec

from engine.errors import RuleError
from engine.library.base import Statblock


class ImportResult(msgspec.Struct, frozen=True):
    format: str  # "Improved Initiative", "5e SRD API", ...
    ruleset: str
    creatures: tuple[Statblock, ...] = ()
    party: tuple[Statblock, ...] = ()
    report: tuple[str, ...] = ()  # one line per entry: "Goblin: took ...; skipped ... (why)"


class ImportProblem(RuleError):
    """The file is not in a format Fracas reads, or one of its entries cannot be imported."""


Importer = Callable[[Any], ImportResult]


def entry_name(i: int, entry: Any, key: str) -> str:
    name = entry.get(key) if isinstance(entry, dict) else None
    return f"entry {i + 1}" + (f" ({name!r})" if isinstance(name, str) and name else "")
