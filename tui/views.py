"""The tracker's rows: pure functions from a fight to rows of rich Text. The columns and cells every
ruleset shares are here; each ruleset's slice (tui/rulesets/) puts its own row together from them.

No Textual here, so the rows are cheap to build and easy to test. The tracker widget renders only the
rows on screen and overlays the selection itself, so moving the cursor never rebuilds a row.
`styles` maps role names (see ROLES) to rich Styles taken from the current theme.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping

import msgspec
from rich.style import Style
from rich.text import Text

from engine.ruleset import Ruleset, get_ruleset
from engine.state import Combatant, Condition, Fight, Pool
from tui.text import clean, fit, literal, shorten_middle, span

log = logging.getLogger("fracas.tui")

ROLES = (
    "header",
    "group",
    "group-current",
    "current",
    "current-mark",
    "current-row",
    "done",
    "down",
    "party",
    "enemy",
    "neutral",
    "good",
    "warn",
    "bad",
    "dim",
    "badge",
    "phase-current",
    "act",
    "react",
    "channel",
    "pip",
    "hp-hurt",
    "hp-bloodied",
    "hp-critical",
    "hp-dying",
    "hp-down",
)

Styles = Mapping[str, Style]
HIDDEN = "hidden"  # the combatant flag that keeps it off the players' view (tui/view.py)
PLAIN: Styles = {r: Style() for r in ROLES}


class Row(msgspec.Struct):
    """One tracker line: a combatant (selectable) or a heading (cid None)."""

    cid: str | None
    text: Text


class Column(msgspec.Struct):
    title: str
    width: int  # 0 = takes what is left (the name)
    cell: Callable[[Fight, Combatant, Styles], Text]
    right: bool = False


# --- health at a glance ------------------------------------------------------------------------
# The band of the first health pool, told by colour (a role per band) and, for a GM on a theme or
# terminal without colour, by a mark after the numbers: half or less "½", a quarter or less "¼".
# At 0 the ruleset's slice says what it means (ZeroBand): a PC at Death's Door is still in the
# fight and must not look like a dead goblin.


class ZeroBand(msgspec.Struct, frozen=True):
    """What 0 on the health pool means for one combatant: its role, its word and a one-cell mark
    for a narrow column, and whether the combatant is out of the fight (its row struck through)."""

    role: str
    word: str
    mark: str
    out: bool


DYING = ZeroBand("hp-dying", "dying", "✚", out=False)
DOWN = ZeroBand("hp-down", "down", "✗", out=True)


def zero_band(c: Combatant) -> ZeroBand:
    """Every ruleset's reading unless its slice has its own: a PC (not a companion, which drops) is
    at Death's Door; anyone else at 0 is down."""
    return DYING if c.kind == "pc" and not c.owner else DOWN


ZeroFn = Callable[[Combatant], ZeroBand]


def health_band(p: Pool) -> str:
    """unhurt, hurt, bloodied (half or less), critical (a quarter or less) or zero."""
    if p.current <= 0:
        return "zero"
    if p.current * 4 <= p.max:
        return "critical"
    if p.current * 2 <= p.max:
        return "bloodied"
    return "hurt" if p.current < p.max else "unhurt"


_BAND = {
    "unhurt": ("good", ""),
    "hurt": ("hp-hurt", ""),
    "bloodied": ("hp-bloodied", "½"),
    "critical": ("hp-critical", "¼"),
}


def is_out(c: Combatant, zero: ZeroFn = zero_band) -> bool:
    """Down and out of the fight (its row struck through), as the slice reads 0 health."""
    return c.down and zero(c).out


def health_text(p: Pool | None, c: Combatant, st: Styles, width: int = 0, zero: ZeroFn = zero_band) -> Text:
    """The health cell: the numbers in the band's colour and the band's mark, the longest form that
    fits `width` (0 = any): "0/34 dying", else "0/34 ✚", else "0/34✚", else "0 ✚" (the mark is never
    the part cut off: it is what the glance is for)."""
    if p is None:
        return span("—", st["dim"])
    band = health_band(p)
    tags: tuple[str, ...]
    if band == "zero":
        z = zero(c)
        role, tags = z.role, (z.word, z.mark)
    else:
        role, mark = _BAND[band]
        tags = (mark,) if mark else ()
    nums = f"{p.current}/{p.max}"
    temp = f"+{p.temp}" if p.temp else ""
    forms = [(nums, temp, "")]
    if tags:
        mark = tags[-1]
        # longest first; what gives way, in turn: the word, the space, the temporary points, the max
        forms = [(nums, temp, " " + t) for t in tags]
        forms += [(nums, temp, mark), (nums, "", " " + mark), (nums, "", mark), (str(p.current), "", " " + mark)]
    n, tp, tag = next((x for x in forms if not width or sum(len(y) for y in x) <= width), forms[-1])
    t = span(n, st[role])
    if tp:
        t.append(tp, style=st["pip"])
    if tag:
        t.append(tag, style=st[role])
    return t


# --- cells shared by every ruleset -------------------------------------------------------------


def pool_text(p: Pool | None, st: Styles) -> Text:
    if p is None:
        return span("—", st["dim"])
    if p.current <= 0:
        role = "bad"
    elif p.current * 2 <= p.max:
        role = "warn"
    else:
        role = "good"
    t = span(f"{p.current}/{p.max}", st[role])
    if p.temp:
        t.append(f"+{p.temp}", style=st["pip"])
    return t


def name_text(c: Combatant, st: Styles, width: int = 0, zero: ZeroFn = zero_band) -> Text:
    """The name as the tracker shows it; `width` (0 = any): a longer name is cut from the middle,
    keeping the copy's number, so "Hobgoblin Devastator Archer 1" and "... 2" stay apart. Struck
    through when down and out (`zero` says; a PC at Death's Door is not)."""
    t = literal(c.name, st[c.side] if c.side in st else Style())
    suffix = " (hidden)" if HIDDEN in c.flags else ""
    if width and t.cell_len + len(suffix) > width:
        if width - len(suffix) < 8:
            suffix = ""  # no room for both: the name (the italics still mark it)
        t = shorten_middle(t, width - len(suffix))
    if c.kind == "pc":
        t.stylize("bold")
    if is_out(c, zero):
        t.stylize(st["down"])
    if HIDDEN in c.flags:  # kept off the players' view (tui/view.py): the GM sees it, marked
        t.stylize("italic")
        if suffix:
            t.append(suffix, style=st["dim"])
    return t


def badges(c: Combatant, st: Styles, width: int, phases: int = 0, f: Fight | None = None) -> Text:
    """Condition badges, as many as fit, then "+N", each with its countdown when `f` is given
    ("Prone 2t", see `countdown`); a channel under way last (`phases`: the ruleset's phases a round,
    which its phases are counted in)."""
    out = Text(end="")
    conds = c.conditions
    for i, cond in enumerate(conds):
        name = clean(cond.name) + (f" {cond.level}" if cond.level > 1 else "")
        if len(name) > 14:
            name = name[:13] + "…"
        # what is left of it ("Prone 2t"), as the sheet and the players' view say it in words
        left = countdown(f, cond) if f is not None else ""
        tail = f" {left}" if left else ""
        more = len(conds) - i - 1
        reserve = len(f" +{more}") if more else 0
        label = name + tail
        if i == 0 and len(label) + 2 + reserve > width:
            # the first is always named, shortened to fit, before any "+N" (a bare "+2" says nothing);
            # its name gives way before its countdown, which goes only when three letters would not fit
            room = width - 2 - reserve - len(tail)
            if room < 4:
                tail, room = "", width - 2 - reserve
            if room >= 3:
                label = (name if len(name) <= room else name[: room - 1] + "…") + tail
        if out.cell_len + len(label) + 2 + reserve > width:
            out.append(f"+{len(conds) - i}", style=st["dim"])
            break
        out.append(f" {label} ", style=st["badge"])
        out.append(" ")
    live = [ch for ch in c.channels if getattr(ch, "status", "") == ""]
    if live:
        ch = live[0]
        tag = f"~{clean(ch.activity)[:10]}→{phase_word(ch.end, phases, short=True)}"
        if out.cell_len + len(tag) <= width:
            out.append(tag, style=st["channel"])
            out.append(" ")
    _spent_tag(out, c, st, width)
    out.rstrip()
    return fit(out, width)


def _spent_tag(out: Text, c: Combatant, st: Styles, width: int) -> None:
    """A spent ability that recharges (a breath weapon), last and only where there is room: "✗Fire
    Breath", or "✗2" for several (the sheet says which and on what roll)."""
    spent = [p.key for p in c.resources if p.recharge and p.current <= 0]
    if not spent:
        return
    room = width - out.cell_len
    tag = "✗" + clean(spent[0]) if len(spent) == 1 else f"✗{len(spent)} spent"
    if len(tag) > room:
        tag = tag[: room - 1] + "…" if room >= 6 and len(spent) == 1 else f"✗{len(spent)}"
    if len(tag) <= room:
        out.append(tag, style=st["warn"])


def pips(n: int, total: int, st: Styles) -> Text:
    t = Text(end="")
    t.append("●" * max(0, n), style=st["pip"])
    t.append("○" * max(0, total - n), style=st["dim"])
    return t


def flag(label: str, on: bool, st: Styles) -> Text:
    return span(label, st["pip"] if on else st["dim"])


def stat_cell(key: str) -> Callable[[Fight, Combatant, Styles], Text]:
    def cell(f: Fight, c: Combatant, st: Styles) -> Text:
        return Text(str(c.stat(key)), end="")

    return cell


def init_cell(f: Fight, c: Combatant, st: Styles) -> Text:
    if c.owner:
        return span("↳", st["dim"])
    return Text("—" if c.initiative is None else str(c.initiative), end="")


def health_cell(f: Fight, c: Combatant, st: Styles) -> Text:
    """The first health pool with its band (the row builder gives it its column's width)."""
    return health_text(c.health[0] if c.health else None, c, st)


def resource_cell(key: str) -> Callable[[Fight, Combatant, Styles], Text]:
    def cell(f: Fight, c: Combatant, st: Styles) -> Text:
        p = c.pool(key)
        if p is None:
            return span("—", st["dim"])
        return span(f"{p.current}/{p.max}", st["pip"] if p.current else st["dim"])

    return cell


# --- building rows -----------------------------------------------------------------------------


def economy_cell(f: Fight, c: Combatant, st: Styles) -> Text:
    """Every ruleset's tracker turn cell, from the engine's own items (Ruleset.economy_items): each
    item's mark, bright while it is available and dim when spent or barred, or its pips; so what is
    left, and what may not be used now, is worked out once, in the engine. An item written against
    the one before in the compact line ("+P1") takes the gap before it in its own style."""
    t = Text(end="")
    for item in get_ruleset(f.ruleset).economy_items(f, c.id):
        if not item.row:
            continue
        gap = " " if t.cell_len else ""
        if item.mark:
            if gap and item.text.startswith("+"):
                t.append_text(flag(gap + item.mark, item.state == "available", st))
                continue
            t.append(gap)
            t.append_text(flag(item.mark, item.state == "available", st))
        else:
            t.append(gap)
            t.append_text(pips(item.count, item.total, st))
    return t


def _marker(f: Fight, c: Combatant, actors: frozenset[str], st: Styles) -> Text:
    if f.current == c.id:
        # a block in the selection's own colours (current-mark): as plain as the cursor in every
        # theme, and the ▶ says it without colour
        return span("▶ ", st["current-mark"])
    if c.id in actors:
        return span("• ", st["current"])
    if c.economy.done and f.started and not f.ended:
        return span("✓ ", st["dim"])
    return Text("  ", end="")


def layout(columns: list[Column], width: int) -> tuple[int, int]:
    """Widths of the name column and the badge column for this total width."""
    fixed = sum(col.width + 1 for col in columns if col.width) + 2  # +2: the marker
    spare = max(0, width - fixed - 1)
    name_w = max(8, min(24, spare - 14 if spare > 36 else spare * 3 // 5))
    badge_w = max(0, width - fixed - name_w - 1)
    return name_w, badge_w


def header_row(columns: list[Column], name_w: int, badge_w: int, st: Styles, extra: Text | None = None) -> Text:
    t = Text("  ", end="")
    for col in columns:
        w = col.width or name_w
        label = Text(col.title, end="")
        if col.right:
            label.pad_left(max(0, w - label.cell_len))
        t.append_text(fit(label, w))
        t.append(" ")
    if extra is not None:
        t.append_text(extra)
    if badge_w:
        t.append_text(fit(Text("Conditions", end=""), badge_w))
    t.stylize(st["header"])
    return t


def combatant_row(
    f: Fight,
    c: Combatant,
    columns: list[Column],
    name_w: int,
    badge_w: int,
    actors: frozenset[str],
    st: Styles,
    extra: Text | None = None,
    zero: ZeroFn = zero_band,
) -> Row:
    t = _marker(f, c, actors, st)
    for col in columns:
        w = col.width or name_w
        # the name is cut from the middle (the copy's number kept), the health cell keeps its band's
        # mark, every other cell is cut at its end
        if col.cell is name_cell:
            cell = name_text(c, st, w, zero)
        elif col.cell is health_cell:
            cell = health_text(c.health[0] if c.health else None, c, st, w, zero)
        else:
            cell = col.cell(f, c, st)
        if col.right and cell.cell_len < w:
            cell.pad_left(w - cell.cell_len)
        t.append_text(fit(cell, w))
        t.append(" ")
    if extra is not None:
        t.append_text(extra)
    if badge_w:
        t.append_text(badges(c, st, badge_w, get_ruleset(f.ruleset).phases, f))
    if c.id == f.current:
        # the whole row tinted under its own colours (the badges fill it out to the pane's width)
        t.stylize_before(st["current-row"])
        return Row(c.id, t)
    if is_out(c, zero):
        t.stylize(st["down"])
    return Row(c.id, t)


def name_cell(f: Fight, c: Combatant, st: Styles) -> Text:
    return name_text(c, st)


def ordered(f: Fight) -> list[Combatant]:
    """The turn order once there is one; before that, the order they were added."""
    if not f.order:
        return list(f.combatants)
    by_id = {c.id: c for c in f.combatants}
    out = [c for cid in f.order if (c := by_id.get(cid)) is not None]
    if len(out) < len(by_id):
        seen = set(f.order)
        out.extend(c for c in f.combatants if c.id not in seen)
    return out


# Rows of unchanged combatants are reused: states share untouched Combatant objects, so a key
# press in a fight of hundreds rebuilds only the rows of the few combatants it changed.
_ROWS: dict[tuple[object, ...], tuple[Combatant, Styles, Row]] = {}


def cached_row(
    f: Fight, c: Combatant, st: Styles, width: int, actors: frozenset[str], context: object, build: Callable[[], Row]
) -> Row:
    key = (id(c), f.ruleset, width, f.current == c.id, c.id in actors, f.started, f.ended, context)
    hit = _ROWS.get(key)
    if hit is not None and hit[0] is c and hit[1] is st:
        return hit[2]
    try:
        row = build()
    except Exception as exc:  # one combatant that cannot be shown is one line saying so, not a crash
        log.exception("the tracker row of %s could not be built", c.id)
        return Row(c.id, literal(f"{c.name}: cannot be shown ({type(exc).__name__}: {exc})", st.get("bad", "")))
    if len(_ROWS) > 50_000:
        _ROWS.clear()
    _ROWS[key] = (c, st, row)  # holding c keeps its id from being reused while the entry lives
    return row


def list_rows(
    f: Fight, rs: Ruleset, cols: list[Column], width: int, st: Styles, zero: ZeroFn = zero_band
) -> list[Row]:
    name_w, badge_w = layout(cols, width)
    actors = frozenset(rs.actors(f)) if f.started and not f.ended else frozenset()
    out = [Row(None, header_row(cols, name_w, badge_w, st))]
    for c in ordered(f):
        out.append(
            cached_row(
                f,
                c,
                st,
                width,
                actors,
                None,
                lambda c=c: combatant_row(f, c, cols, name_w, badge_w, actors, st, None, zero),
            )
        )
    return out


def phase_word(n: int, phases: int, short: bool = False) -> str:
    """A channel's phase as the GM reads it, in a ruleset of `phases` phases a round: a channel that
    runs over a round change keeps its phases counted from the round it is in (with nine, 11 is phase 2
    of the next round, -1 phase 8 of the last). `phases` 0 (no numbered phases): the number as it is."""
    if phases and n > phases:
        return f"{n - phases}(next)" if short else f"{n - phases} of the next round"
    if phases and n < 1:
        return f"{n + phases}(last)" if short else f"{n + phases} of the last round"
    return str(n)


def tracker_rows(f: Fight, rs: Ruleset, width: int, st: Styles = PLAIN) -> list[Row]:
    """The tracker's rows, as the fight's ruleset lays them out (its app slice)."""
    from tui.rulesets import get_ui  # the slices build on this module

    return get_ui(f.ruleset).tracker_rows(f, rs, max(20, width), st)


# --- durations ---------------------------------------------------------------------------------


def ends_in(f: Fight, cond: Condition) -> tuple[int, str] | None:
    """When a condition ends, counted as the GM counts it: (n, unit) where it ends at the n-th coming
    end (or start) of a turn of the one it watches ("turn"), end of a round ("round") or of a phase
    ("phase"), the current one counted: 1 round is the end of this round. None: until removed (or a
    kind this app does not count). The tracker's badge and the words of `remaining` both read it."""
    d = cond.duration
    if d.kind in ("turn_start", "turn_end"):
        return max(1, d.count), "turn"
    if d.kind == "round_end":
        return max(1, d.round - f.round + 1), "round"
    if d.kind == "phase_end":
        return max(1, (d.round - f.round) * get_ruleset(f.ruleset).phases + d.phase - f.phase + 1), "phase"
    return None


def countdown(f: Fight, cond: Condition) -> str:
    """What is left of a condition in a few characters, for the tracker's badge: "2t" (its second
    coming turn start or end ends it), "1r" (the end of this round), "5p" (phases, this one counted),
    "3r" for a phase of a later round (it ends in the third round, this one counted); "" until
    removed. The words are `remaining`'s (the sheet, the players' view)."""
    left = ends_in(f, cond)
    if left is None:
        return ""
    d = cond.duration
    if left[1] == "phase" and d.round > f.round:
        # a later round's phase: the rounds, this one counted ("19p" says less than "3r")
        return f"{d.round - f.round + 1}r"
    return f"{left[0]}{left[1][0]}"


def remaining(f: Fight, cond: Condition) -> str:
    """What is left of a condition's duration, in words a GM reads at a glance."""
    d = cond.duration
    left = ends_in(f, cond)
    if left is None:
        return "until removed" if d.kind == "manual" else d.kind
    n = left[0]
    if d.kind in ("turn_start", "turn_end"):
        who = f.find(d.who)
        name = clean(who.name) if who else "a combatant who left"
        when = "start" if d.kind == "turn_start" else "end"
        # a turn's end counted while that turn is under way: its first is the current turn's
        now = d.kind == "turn_end" and f.current == d.who and f.started and not f.ended
        if n == 1:
            return f"until the {when} of {name}'s {'current' if now else 'next'} turn"
        return f"{n} more turns: until the {when} of {name}'s turn {n - 1 if now else n} from now"
    more = n - 1  # after the current round or phase
    if d.kind == "round_end":
        tail = "this round" if more <= 0 else f"{more} more round{'s' if more != 1 else ''}"
        return f"until the end of round {d.round} ({tail})"
    tail = "this phase" if more <= 0 else f"{more} more phase{'s' if more != 1 else ''}"
    return f"until the end of phase {d.phase}, round {d.round} ({tail})"
