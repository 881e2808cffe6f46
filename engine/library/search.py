"""Search over statblocks as the add dialog types: fuzzy by name and type, best matches first.

Every word of the query must match the name or the type: an exact name first, then a name that
starts with it, a word of the name that does, the name containing it, the type, and last the
letters of the word in order within the name ("gbln" finds Goblin). A few thousand entries take
well under a millisecond a keystroke with the lower-cased keys computed once per Entry.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

import msgspec

from engine.library.base import Statblock

Origin = Literal["starter", "user", "party"]


class Entry(msgspec.Struct, frozen=True):
    """A statblock in a library, where it comes from, and its search keys."""

    statblock: Statblock
    origin: Origin = "starter"
    name_key: str = ""
    type_key: str = ""

    def __post_init__(self) -> None:
        if not self.name_key:
            msgspec.structs.force_setattr(self, "name_key", self.statblock.name.casefold())
            msgspec.structs.force_setattr(self, "type_key", self.statblock.type.casefold())

    @property
    def name(self) -> str:
        return self.statblock.name


def _subsequence(word: str, text: str) -> bool:
    it = iter(text)
    return all(ch in it for ch in word)


def _word_score(word: str, name: str, typ: str) -> int | None:
    if name == word:
        return 0
    if name.startswith(word):
        return 1
    if any(w.startswith(word) for w in name.split()):
        return 2
    if word in name:
        return 3
    if typ.startswith(word) or any(w.startswith(word) for w in typ.replace("(", " ").split()):
        return 4
    if word in typ:
        return 5
    if len(word) > 1 and _subsequence(word, name):
        return 6
    return None


def score(entry: Entry, words: list[str]) -> int | None:
    """Lower is better; None when a word matches neither name nor type."""
    total = 0
    for w in words:
        s = _word_score(w, entry.name_key, entry.type_key)
        if s is None:
            return None
        total += s
    return total


def search(entries: Iterable[Entry], query: str, limit: int | None = 50) -> list[Entry]:
    """The entries matching `query`, best first (ties by name); every entry, by name, for ""."""
    words = query.casefold().split()
    ranked: list[tuple[int, str, Entry]] = []
    for e in entries:
        s = score(e, words) if words else 0
        if s is not None:
            ranked.append((s, e.name_key, e))
    ranked.sort(key=lambda x: (x[0], x[1]))
    out = [e for _, _, e in ranked]
    return out if limit is None else out[:limit]
