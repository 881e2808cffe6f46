"""Search over statblocks as the add dialog types: fuzzy by name and type, best matches first.

Every word of the query must match the name or the type: an exact name first, then a name that
starts with it, a word of the name that does, the name containing it, the type, and last the
letters of the word in order within the name, entering each word of the name it uses at that word's
first letter ("gbln" finds Goblin, "gbhx" Goblin Hexer; "gob" finds neither Gelatinous Cube nor
Ogre Zombie, whose g, o and b are scattered mid-word). Keys are lower-cased once per
Entry and each test is one scan in C, so a keystroke over a few thousand entries takes milliseconds.
"""

import re
from collections.abc import Iterable
from typing import Literal

import msgspec

from engine.library.base import Statblock

Origin = Literal["starter", "user", "party"]


class Entry(msgspec.Struct, frozen=True):
    """A statblock in a library, where it comes from, and its search keys (lower-cased, with a space
    in front so that " gob" finds a word of the name that starts with "gob" in one C-level scan)."""

    statblock: Statblock
    origin: Origin = "starter"
    name_key: str = ""
    type_key: str = ""

    def __post_init__(self) -> None:
        if not self.name_key:
            msgspec.structs.force_setattr(self, "name_key", " " + self.statblock.name.casefold())
            typ = self.statblock.type.casefold().replace("(", " ").replace(")", " ")
            msgspec.structs.force_setattr(self, "type_key", " " + typ)

    @property
    def name(self) -> str:
        return self.statblock.name


def _word_score(word: str, spaced: str, name: str, typ: str, letters: re.Pattern[str] | None) -> int | None:
    # `name` and `typ` begin with a space; `spaced` is " " + word
    if name[1:] == word:
        return 0
    if name.startswith(spaced):
        return 1
    if spaced in name:
        return 2
    if word in name:
        return 3
    if spaced in typ:
        return 4
    if word in typ:
        return 5
    if letters is not None and letters.search(name) is not None:
        return 6
    return None


# between two letters of an abbreviation: more of the same word, or the rest of it and whole words,
# the next letter then starting a word
_GAP = r"(?:[^ ]*?|[^ ]* (?:[^ ]* )*?)"


def _letters(word: str) -> re.Pattern[str] | None:
    """The letters of `word` in order, the first starting a word of the name: "gbln" finds goblin."""
    if len(word) < 2:
        return None
    return re.compile(" " + _GAP.join(map(re.escape, word)))


def search(entries: Iterable[Entry], query: str, limit: int | None = 50) -> list[Entry]:
    """The entries matching `query`, best first (ties by name); every entry, by name, for ""."""
    words = query.casefold().split()
    probes = [(w, " " + w, _letters(w)) for w in words]
    ranked: list[tuple[int, str, Entry]] = []
    for e in entries:
        total = 0
        for w, spaced, letters in probes:
            s = _word_score(w, spaced, e.name_key, e.type_key, letters)
            if s is None:
                break
            total += s
        else:
            ranked.append((total, e.name_key, e))
    ranked.sort(key=lambda x: (x[0], x[1]))
    out = [e for _, _, e in ranked]
    return out if limit is None else out[:limit]
