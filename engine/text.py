"""Text rules shared by the engine and everything that prints: combatant ids, the characters a name or a
note may hold, and how text is made safe to show on a terminal or to write as JSON.

Pure functions only (no I/O): the engine refuses bad text where commands come in, and the CLI and the
exports use the same character classes to neutralise whatever an old or hostile file carries.
"""

from __future__ import annotations

import re
import unicodedata

from engine.errors import RuleError

# --- combatant ids ----------------------------------------------------------------------------

# The one id rule: "c" and a counter from 1 (the engine hands them out as c1, c2, ...). Bounded so an
# id always fits an int64 counter and never grows without end.
ID_PATTERN = r"^c[1-9][0-9]{0,17}\Z"  # \Z, not $: "c1\n" is not an id
_ID = re.compile(ID_PATTERN, re.ASCII)


def is_id(text: object) -> bool:
    """True for a combatant id in the engine's own syntax (`c1`, `c2`, ...)."""
    return isinstance(text, str) and _ID.match(text) is not None


def check_id(text: str, what: str = "combatant") -> str:
    """The id, or a one-line RuleError that does not echo odd characters."""
    if not is_id(text):
        raise RuleError(f"No combatant with id {shown(text)}: a {what} is named by its id (c1, c2, ...).")
    return text


# --- characters -------------------------------------------------------------------------------

# C0 controls, DEL, C1 controls (\x9b is an 8-bit CSI), the bidirectional embeddings, overrides,
# isolates and marks (they reorder what a terminal or a page shows), the line and paragraph separators
# (a newline to some readers) and lone surrogates (no UTF-8 for them, so no file could hold them).
_BIDI = "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
BAD_IN_LINE = re.compile(f"[\x00-\x1f\x7f-\x9f{_BIDI}\u2028\u2029\ud800-\udfff]")
BAD_IN_NOTE = re.compile(f"[\x00-\x08\x0b-\x1f\x7f-\x9f{_BIDI}\u2028\u2029\ud800-\udfff]")  # keeps \t, \n
_UNSAFE_SHOWN = re.compile(f"[\x00-\x08\x0a-\x1f\x7f-\x9f{_BIDI}\u2028\u2029\ud800-\udfff]")  # keeps \t


def check_line(text: str, what: str, limit: int) -> str:
    """A one-line short text: at most `limit` characters, no control or bidi characters."""
    if len(text) > limit:
        raise RuleError(f"A {what} can be at most {limit} characters.")
    if BAD_IN_LINE.search(text) is not None:
        if "\n" in text or "\r" in text:
            raise RuleError(f"A {what} must be a single line.")
        raise RuleError(f"A {what} cannot hold control characters or text-direction controls.")
    return text


def check_multiline(text: str, what: str, limit: int) -> str:
    """A note: newlines and tabs are fine, other control and bidi characters are not."""
    if len(text) > limit:
        raise RuleError(f"A {what} can be at most {limit} characters.")
    if BAD_IN_NOTE.search(text) is not None:
        raise RuleError(
            f"A {what} cannot hold control characters or text-direction controls (newlines and tabs are fine)."
        )
    return text


# --- names that look alike --------------------------------------------------------------------

# Characters that show as nothing: zero-width space, word joiner, invisible operators, the byte-order
# mark, soft hyphen, Mongolian vowel separator, combining grapheme joiner. "beta" and "beta" with a
# zero-width space after it are the same name to the GM's eye, so they are to Fracas too.
_INVISIBLE = re.compile("[\u00ad\u034f\u180e\u200b\u2060-\u2064\ufeff]")
# Zero-width (non-)joiners shape Persian, Arabic and Indic words and emoji, so they stay between two
# characters that are not ASCII; anywhere else (after "beta", at either end) they only hide.
_JOINER = re.compile("(?<![^\x00-\x7f])[\u200c\u200d]|[\u200c\u200d](?![^\x00-\x7f])")


def normal_name(text: str) -> str:
    """A name as Fracas keeps and compares it: NFC (one code point for "e" + combining acute, as typed
    on another keyboard), without invisible characters, trimmed."""
    if text.isascii():
        return text.strip()  # the common case, and ASCII holds nothing of the above
    out = _JOINER.sub("", _INVISIBLE.sub("", unicodedata.normalize("NFC", text)))
    while out != (again := _JOINER.sub("", out)):  # a second joiner left alone by the first pass
        out = again
    return out.strip()


def name_key(text: str) -> str:
    """What two names are compared by: the normal name, case folded, inner spaces collapsed."""
    return " ".join(normal_name(text).casefold().split())


def terminal_safe(text: str) -> str:
    """Text for one line of a terminal: a line break becomes a space and every other control, bidi
    and separator character U+FFFD, so no escape sequence, title change or reordering reaches the
    terminal and one line stays one line. Tabs are kept."""
    return _UNSAFE_SHOWN.sub(_shown_char, text)


def _shown_char(m: re.Match[str]) -> str:
    return " " if m.group() in "\n\r" else "\ufffd"


def shown(text: object, limit: int = 40) -> str:
    """A value quoted in an error message: made printable and cut short."""
    s = terminal_safe(str(text))
    return repr(s[:limit] + ("..." if len(s) > limit else ""))


# JSON (msgspec and the standard library) escapes C0 controls, but writes DEL, C1 controls, the bidi
# controls and U+2028/U+2029 raw. In UTF-8 these byte sequences can only be those characters (lead
# bytes never occur inside another character), and outside strings JSON is ASCII, so each can be
# swapped for its \u escape without decoding: the JSON means exactly the same.
_JSON_UNSAFE = re.compile(
    rb"\x7f|\xc2[\x80-\x9f]|\xd8\x9c|\xe2\x80[\x8e\x8f\xa8\xa9\xaa-\xae]|\xe2\x81[\xa6-\xa9]"
)


def _json_escape(m: re.Match[bytes]) -> bytes:
    return b"\\u%04x" % ord(m.group().decode())


def json_safe(data: bytes) -> bytes:
    """UTF-8 JSON with DEL, C1 controls, bidi controls and line separators written as \\u escapes."""
    return _JSON_UNSAFE.sub(_json_escape, data)
