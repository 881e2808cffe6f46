"""Big letters for the players' view on a TV: a terminal has one type size, so the round and who
acts are drawn in a 5x7 dot font, each dot a square of half-block cells (`scale` of them a side).

Only capitals, digits and a little punctuation are drawn; a name with anything else (after accents
are taken off: "Élodie" is drawn as ELODIE) is not, and the view shows it as plain bold text rather
than spell it wrong."""

from __future__ import annotations

import unicodedata

HEIGHT = 7  # dots
_GLYPHS: dict[str, tuple[str, ...]] = {}


def _define(chars: str, rows: str) -> None:
    """`rows`: 7 lines per glyph, the glyphs of `chars` side by side, separated by one blank column
    of spaces in the source ("#" a dot, "." none)."""
    lines = [line.split() for line in rows.strip().splitlines()]
    assert len(lines) == HEIGHT and all(len(parts) == len(chars) for parts in lines), chars
    for i, ch in enumerate(chars):
        _GLYPHS[ch] = tuple(parts[i] for parts in lines)


_define(
    "ABCDEFGHIJKLM",
    """
.###. ####. .###. ####. ##### ##### .###. #...# .###. ..### #...# #.... #...#
#...# #...# #...# #...# #.... #.... #...# #...# ..#.. ...#. #..#. #.... ##.##
#...# #...# #.... #...# #.... #.... #.... #...# ..#.. ...#. #.#.. #.... #.#.#
##### ####. #.... #...# ####. ####. #.### ##### ..#.. ...#. ##... #.... #.#.#
#...# #...# #.... #...# #.... #.... #...# #...# ..#.. ...#. #.#.. #.... #...#
#...# #...# #...# #...# #.... #.... #...# #...# ..#.. #..#. #..#. #.... #...#
#...# ####. .###. ####. ##### #.... .#### #...# .###. .##.. #...# ##### #...#
""",
)
_define(
    "NOPQRSTUVWXYZ",
    """
#...# .###. ####. .###. ####. .#### ##### #...# #...# #...# #...# #...# #####
#...# #...# #...# #...# #...# #.... ..#.. #...# #...# #...# #...# #...# ....#
##..# #...# #...# #...# #...# #.... ..#.. #...# #...# #...# .#.#. .#.#. ...#.
#.#.# #...# ####. #...# ####. .###. ..#.. #...# #...# #.#.# ..#.. ..#.. ..#..
#..## #...# #.... #.#.# #.#.. ....# ..#.. #...# #...# #.#.# .#.#. ..#.. .#...
#...# #...# #.... #..#. #..#. ....# ..#.. #...# .#.#. #.#.# #...# ..#.. #....
#...# .###. #.... .##.# #...# ####. ..#.. .###. ..#.. .#.#. #...# ..#.. #####
""",
)
_define(
    "0123456789",
    """
.###. ..#.. .###. ##### ...#. ##### ..##. ##### .###. .###.
#...# .##.. #...# ...#. ..##. #.... .#... ....# #...# #...#
#..## ..#.. ....# ..#.. .#.#. ####. #.... ...#. #...# #...#
#.#.# ..#.. ...#. ...#. #..#. ....# ####. ..#.. .###. .####
##..# ..#.. ..#.. ....# ##### ....# #...# .#... #...# ....#
#...# ..#.. .#... #...# ...#. #...# #...# .#... #...# ...#.
.###. .###. ##### .###. ...#. .###. .###. .#... .###. .##..
""",
)
_define(
    " -'.,!?():/+",
    """
... ..... # . .. # .###. ..# #.. . ....# .....
... ..... # . .. # #...# .#. .#. # ....# ..#..
... ..... . . .. # ....# #.. ..# . ...#. ..#..
... .###. . . .. # ...#. #.. ..# . ..#.. #####
... ..... . . .. # ..#.. #.. ..# . .#... ..#..
... ..... . . .# . ..... .#. .#. # #.... ..#..
... ..... . # #. # ..#.. ..# #.. . #.... .....
""",
)
# the apostrophes a name may be typed with, drawn as the plain one
_SAME = {"’": "'", "‘": "'", "–": "-", "—": "-"}


def spellable(text: str) -> str | None:
    """`text` as the font draws it (capitals, accents off), or None when it has a character the
    font lacks."""
    out: list[str] = []
    for ch in text.upper():
        ch = _SAME.get(ch, ch)
        if ch not in _GLYPHS:
            base = unicodedata.normalize("NFKD", ch)[:1]
            ch = base if base in _GLYPHS else ""
        if not ch:
            return None
        out.append(ch)
    return "".join(out)


def width(text: str, scale: int) -> int:
    """Cells across `text` drawn at `scale` (a dot's column of space between glyphs)."""
    glyphs = [_GLYPHS[ch] for ch in text]
    return sum(len(g[0]) + 1 for g in glyphs) * scale - scale if glyphs else 0


def rows(scale: int) -> int:
    """Lines a drawing at `scale` takes: 7 dots of `scale` half-lines each."""
    return (HEIGHT * scale + 1) // 2


def draw(text: str, scale: int) -> list[str]:
    """`text` (as `spellable` gives it) in big letters: `rows(scale)` lines of half blocks."""
    dots: list[str] = []  # one string of "#" and "." a half-line
    for y in range(HEIGHT):
        dots.extend([_spread(text, y, scale)] * scale)
    if len(dots) % 2:
        dots.append("." * len(dots[0]))
    out: list[str] = []
    for top, bottom in zip(dots[::2], dots[1::2], strict=True):
        out.append("".join(_cell(a, b) for a, b in zip(top, bottom, strict=True)).rstrip())
    return out


def _spread(text: str, y: int, scale: int) -> str:
    """Row `y` of the dots, each dot `scale` wide, a gap of one dot (scaled) between glyphs."""
    gap = "." * scale
    return gap.join("".join(c * scale for c in _GLYPHS[ch][y]) for ch in text)


def _cell(top: str, bottom: str) -> str:
    if top == "#":
        return "█" if bottom == "#" else "▀"
    return "▄" if bottom == "#" else " "


def fit(text: str, room: int, max_rows: int) -> int:
    """The largest scale (3, 2 or 1) at which `text` fits `room` cells across and `max_rows` lines;
    0 when even the smallest does not (or the font cannot spell it)."""
    spelled = spellable(text)
    if spelled is None:
        return 0
    for scale in (3, 2, 1):
        if width(spelled, scale) <= room and rows(scale) <= max_rows:
            return scale
    return 0
