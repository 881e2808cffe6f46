"""User text shown literally.

Names, notes and condition names are the GM's own text. They are never parsed as markup (a name like
`[red]X[/]` shows its brackets) and control characters are made visible (rich would strip an escape
code silently, and a raw one could drive the terminal), so what is on screen is exactly what was typed.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text

# bidirectional overrides can reorder what follows them on screen: show them, never obey them
_BIDI = {chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A), 0x200E, 0x200F, 0x061C)}


def _visible(ch: str, keep_newlines: bool) -> str:
    o = ord(ch)
    if ch == "\n" and keep_newlines:
        return ch
    if o < 0x20:
        return "^" + chr(o + 0x40)  # caret notation: \x1b -> ^[, \t -> ^I
    if o == 0x7F:
        return "^?"
    if 0x80 <= o < 0xA0:
        return f"<{o:02x}>"  # C1 controls (a raw 0x9b is a one-byte escape on some terminals)
    if ch in _BIDI:
        return f"<U+{o:04X}>"
    if unicodedata.category(ch) in ("Zl", "Zp"):
        return f"<U+{o:04X}>"
    return ch


@lru_cache(maxsize=4096)
def clean(text: str, keep_newlines: bool = False) -> str:
    """The text with every control character replaced by a visible form."""
    if text.isprintable() and all(ch not in _BIDI for ch in text):
        return text
    return "".join(_visible(ch, keep_newlines) for ch in text)


def literal(text: str, style: str | Style = "", keep_newlines: bool = False) -> Text:
    """A rich Text that shows `text` exactly as typed (no markup, no emoji codes, controls visible)."""
    t = Text(end="", no_wrap=not keep_newlines)
    t.append(clean(text, keep_newlines), style=style or None)
    return t


def span(text: str, style: str | Style = "") -> Text:
    """The app's own words in a style, as a span: a Text built on it keeps its own styles (a Text
    whose *base* style is set lends that style to everything appended to it)."""
    t = Text(end="")
    t.append(text, style=style or None)
    return t


def join(*parts: Text | str | tuple[str, str]) -> Text:
    """Assemble Text from pieces; plain strings here are the app's own words, never user text."""
    out = Text(end="")
    for p in parts:
        if isinstance(p, tuple):
            out.append(p[0], style=p[1])
        else:
            out.append(p)
    return out


def fit(text: Text, width: int) -> Text:
    """Cut (with an ellipsis) or pad a one-line Text to exactly `width` cells."""
    if width <= 0:
        return Text(end="")
    t = text.copy()
    if t.cell_len > width:
        t.truncate(width, overflow="ellipsis")
    else:
        t.pad_right(width - t.cell_len)
    return t


def shorten_middle(text: Text, width: int) -> Text:
    """A one-line name cut to `width` cells from the middle, keeping its end: copies stay apart
    however long the name ("Hobgoblin Devastator Archer 2" in 22 cells is "Hobgoblin Dev…Archer 2").
    The end kept is the last word and the copy's number when the name ends in one, else the last
    third; a name that fits is returned as it is (a copy)."""
    if text.cell_len <= width:
        return text.copy()
    if width <= 2:
        out = text.copy()
        out.truncate(max(0, width), overflow="ellipsis")
        return out
    plain = text.plain
    words = plain.split(" ")
    if len(words) > 1 and words[-1].isdigit():
        tail = " ".join(words[-2:]) if len(words) > 2 else words[-1]
        if len(tail) + 4 > width:  # no room for the word: keep the number at least
            tail = " " + words[-1]
    else:
        tail = plain[-max(1, width // 3) :]
    tail_len = len(tail)
    head = text[: len(plain) - tail_len] if tail_len < len(plain) else Text()
    head.truncate(max(1, width - 1 - Text(tail).cell_len))
    head.rstrip()
    out = head + Text("…") + text[len(plain) - tail_len :]
    if out.cell_len > width:  # wide characters in the tail: fall back to a plain cut
        out = text.copy()
        out.truncate(width, overflow="ellipsis")
    return out



def wrap_message(text: str, widths: tuple[int, ...]) -> list[str]:
    """A message laid out on lines of the given widths in cells (the first may be shorter: the rest
    of a pane's title). A part ("; " between parts) that does not fit the rest of a line well filled
    starts the next line, else it is cut between words; what the last line has no room for ends in "…"."""
    parts = text.split("; ")
    lines: list[str] = []
    line = ""
    for n, part in enumerate(parts):
        piece = part + (";" if n < len(parts) - 1 else "")
        room = widths[min(len(lines), len(widths) - 1)]
        after = widths[min(len(lines) + 1, len(widths) - 1)]
        fits = cell_len(line) + 1 + cell_len(piece) <= room if line else cell_len(piece) <= room
        whole = fits or (cell_len(line) * 5 >= room * 3 and cell_len(piece) <= after)
        for word in [piece] if whole else piece.split(" "):
            width = widths[min(len(lines), len(widths) - 1)]
            joined = f"{line} {word}" if line else word
            if cell_len(joined) <= width or not line:
                line = joined
                continue
            lines.append(line)
            line = word
    lines.append(line)
    if len(lines) > len(widths):
        lines = lines[: len(widths) - 1] + [" ".join(lines[len(widths) - 1 :]) + " …"]
    out = []
    for ln, width in zip(lines, widths, strict=False):
        t = Text(ln, end="")
        t.truncate(max(1, width), overflow="ellipsis")
        out.append(t.plain)
    return out
