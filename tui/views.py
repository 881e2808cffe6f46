"""What each ruleset's tracker shows: pure functions from a fight to rows of rich Text.

No Textual here, so the rows are cheap to build and easy to test. The tracker widget renders only the
rows on screen and overlays the selection itself, so moving the cursor never rebuilds a row.
`styles` maps role names (see ROLES) to rich Styles taken from the current theme.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from msgspec.structs import replace
from rich.style import Style
from rich.text import Text

from engine.rules.base import Ruleset
from engine.rules.d20_combat import incapacitated, movement_left
from engine.state import Combatant, Condition, Fight, Pool
from tui.text import clean, fit, literal, span

log = logging.getLogger("fracas.tui")

ROLES = (
    "header",
    "group",
    "group-current",
    "current",
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
)

Styles = Mapping[str, Style]
PLAIN: Styles = {r: Style() for r in ROLES}


@dataclass(slots=True)
class Row:
    """One tracker line: a combatant (selectable) or a heading (cid None)."""

    cid: str | None
    text: Text


@dataclass(slots=True)
class Column:
    title: str
    width: int  # 0 = takes what is left (the name)
    cell: Callable[[Fight, Combatant, Styles], Text]
    right: bool = False


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


def name_text(c: Combatant, st: Styles) -> Text:
    t = literal(c.name, st[c.side] if c.side in st else Style())
    if c.kind == "pc":
        t.stylize("bold")
    if c.down:
        t.stylize(st["down"])
    return t


def badges(c: Combatant, st: Styles, width: int) -> Text:
    """Condition badges, as many as fit, then "+N"."""
    out = Text(end="")
    conds = c.conditions
    for i, cond in enumerate(conds):
        label = clean(cond.name) + (f" {cond.level}" if cond.level > 1 else "")
        if len(label) > 14:
            label = label[:13] + "…"
        more = len(conds) - i - 1
        reserve = len(f" +{more}") if more else 0
        if out.cell_len + len(label) + 2 + reserve > width:
            out.append(f"+{len(conds) - i}", style=st["dim"])
            break
        out.append(f" {label} ", style=st["badge"])
        out.append(" ")
    live = [ch for ch in c.channels if getattr(ch, "status", "") == ""]
    if live:
        ch = live[0]
        tag = f"~{clean(ch.activity)[:10]}→{phase_word(ch.end, short=True)}"
        if out.cell_len + len(tag) <= width:
            out.append(tag, style=st["channel"])
    out.rstrip()
    return fit(out, width)


def pips(n: int, total: int, st: Styles) -> Text:
    t = Text(end="")
    t.append("●" * max(0, n), style=st["pip"])
    t.append("○" * max(0, total - n), style=st["dim"])
    return t


def flag(label: str, on: bool, st: Styles) -> Text:
    return span(label, st["pip"] if on else st["dim"])


def _stat(key: str) -> Callable[[Fight, Combatant, Styles], Text]:
    def cell(f: Fight, c: Combatant, st: Styles) -> Text:
        return Text(str(c.stat(key)), end="")

    return cell


def _init(f: Fight, c: Combatant, st: Styles) -> Text:
    if c.owner:
        return span("↳", st["dim"])
    return Text("—" if c.initiative is None else str(c.initiative), end="")


def _health(f: Fight, c: Combatant, st: Styles) -> Text:
    return pool_text(c.health[0] if c.health else None, st)


def _resource(key: str) -> Callable[[Fight, Combatant, Styles], Text]:
    def cell(f: Fight, c: Combatant, st: Styles) -> Text:
        p = c.pool(key)
        if p is None:
            return span("—", st["dim"])
        return span(f"{p.current}/{p.max}", st["pip"] if p.current else st["dim"])

    return cell


# --- economy cells, one per ruleset ------------------------------------------------------------


def _econ_d20(f: Fight, c: Combatant, st: Styles) -> Text:
    e = c.economy
    mine = f.current == c.id
    t = Text(end="")
    for label, v in (("A", e.actions), ("B", e.bonus)):
        t.append_text(flag(label, mine and v > 0, st))
        t.append(" ")
    # the move is bright while feet of it are left (a move can be split around the action)
    t.append_text(flag("M", mine and movement_left(c) > 0, st))
    t.append(" ")
    # a reaction barred by a condition (not spent) is dim too: it cannot be used now
    t.append_text(flag("R", e.reactions > 0 and not incapacitated(c) and not c.has("Confused"), st))
    return t


def _econ_warhammer(f: Fight, c: Combatant, st: Styles) -> Text:
    e = c.economy
    t = flag("A", f.current == c.id and e.actions > 0, st)
    t.append(" ")
    t.append_text(flag(f"R{e.reactions}", e.reactions > 0, st))
    if e.parries:
        t.append_text(flag(f" P{e.parries}", True, st))
    if e.defensive:
        t.append_text(flag(f" D{e.defensive}", True, st))
    return t


def _econ_cosmere(f: Fight, c: Combatant, st: Styles) -> Text:
    e = c.economy
    if f.current == c.id:
        t = pips(e.actions, 2 if e.speed == "fast" else 3, st)
    elif e.done:
        t = span("—", st["dim"])  # taken this round (the row's ✓ says so too)
    else:
        t = span("·" * (2 if e.speed == "fast" else 3), st["dim"])
    t.append(" ")
    t.append_text(flag("R", e.reactions > 0, st))
    return t


def _econ_ninephase(f: Fight, c: Combatant, st: Styles) -> Text:
    e = c.economy
    t = pips(e.actions, 3, st)
    t.append(" ")
    t.append_text(flag("R", e.reactions > 0, st))
    t.append(" ")
    t.append_text(flag("M", not e.master, st))
    return t


def _speed(f: Fight, c: Combatant, st: Styles) -> Text:
    s = c.economy.speed
    return span({"fast": "fast", "slow": "slow"}.get(s, "?"), st["pip"] if s else st["warn"])


# --- building rows -----------------------------------------------------------------------------


def _marker(f: Fight, c: Combatant, actors: frozenset[str], st: Styles) -> Text:
    if f.current == c.id:
        return span("▶ ", st["current"])
    if c.id in actors:
        return span("• ", st["current"])
    if c.economy.done and f.started and not f.ended:
        return span("✓ ", st["dim"])
    return Text("  ", end="")


def _layout(columns: list[Column], width: int) -> tuple[int, int]:
    """Widths of the name column and the badge column for this total width."""
    fixed = sum(col.width + 1 for col in columns if col.width) + 2  # +2: the marker
    spare = max(0, width - fixed - 1)
    name_w = max(8, min(24, spare - 14 if spare > 36 else spare * 3 // 5))
    badge_w = max(0, width - fixed - name_w - 1)
    return name_w, badge_w


def _header(columns: list[Column], name_w: int, badge_w: int, st: Styles, extra: Text | None = None) -> Text:
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


def _row(
    f: Fight,
    c: Combatant,
    columns: list[Column],
    name_w: int,
    badge_w: int,
    actors: frozenset[str],
    st: Styles,
    extra: Text | None = None,
) -> Row:
    t = _marker(f, c, actors, st)
    for col in columns:
        w = col.width or name_w
        cell = col.cell(f, c, st)
        if col.right and cell.cell_len < w:
            cell.pad_left(w - cell.cell_len)
        t.append_text(fit(cell, w))
        t.append(" ")
    if extra is not None:
        t.append_text(extra)
    if badge_w:
        t.append_text(badges(c, st, badge_w))
    if c.id == f.current:
        t.stylize(st["current"], 0, 2)
    elif c.down:
        t.stylize(st["down"])
    return Row(c.id, t)


def _name(f: Fight, c: Combatant, st: Styles) -> Text:
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


def rows_d20(f: Fight, rs: Ruleset, width: int, st: Styles) -> list[Row]:
    cols = [
        Column("Init", 4, _init, right=True),
        Column("Name", 0, _name),
        Column("HP", 10, _health),
        Column("AC", 3, _stat("ac"), right=True),
        Column("Turn", 7, _econ_d20),
    ]
    return _list(f, rs, cols, width, st)


def rows_warhammer(f: Fight, rs: Ruleset, width: int, st: Styles) -> list[Row]:
    cols = [
        Column("SL", 4, _init, right=True),
        Column("Name", 0, _name),
        Column("Wounds", 8, _health),
        Column("Acts", 9, _econ_warhammer),
        Column("Fort", 5, _resource("fortune")),
    ]
    return _list(f, rs, cols, width, st)


# Rows of unchanged combatants are reused: states share untouched Combatant objects, so a key
# press in a fight of hundreds rebuilds only the rows of the few combatants it changed.
_ROWS: dict[tuple[object, ...], tuple[Combatant, Styles, Row]] = {}


def _cached(
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


def _list(f: Fight, rs: Ruleset, cols: list[Column], width: int, st: Styles) -> list[Row]:
    name_w, badge_w = _layout(cols, width)
    actors = frozenset(rs.actors(f)) if f.started and not f.ended else frozenset()
    out = [Row(None, _header(cols, name_w, badge_w, st))]
    for c in ordered(f):
        out.append(_cached(f, c, st, width, actors, None, lambda c=c: _row(f, c, cols, name_w, badge_w, actors, st)))
    return out


COSMERE_GROUPS = ("Fast PC turns", "Fast NPC turns", "Slow PC turns", "Slow NPC turns", "Undecided")


def cosmere_group(c: Combatant) -> int:
    """Which of the five groups a combatant shows in: its phase once it has chosen, else undecided."""
    s = c.economy.speed
    if not s:
        return 4
    return (0 if s == "fast" else 2) + (0 if c.kind == "pc" else 1)


def rows_cosmere(f: Fight, rs: Ruleset, width: int, st: Styles) -> list[Row]:
    cols = [
        Column("Pace", 4, _speed),
        Column("Name", 0, _name),
        Column("Health", 10, _health),
        Column("Focus", 5, _resource("focus")),
        Column("Turn", 5, _econ_cosmere),
    ]
    name_w, badge_w = _layout(cols, width)
    actors = frozenset(rs.actors(f)) if f.started and not f.ended else frozenset()
    out = [Row(None, _header(cols, name_w, badge_w, st))]
    groups: list[list[Combatant]] = [[] for _ in COSMERE_GROUPS]
    for c in f.combatants:
        groups[cosmere_group(c)].append(c)
    for i, title in enumerate(COSMERE_GROUPS):
        members = sorted(groups[i], key=lambda c: (c.economy.done, -c.stat("speed"), -c.tiebreak))
        now = f.started and not f.ended and i == f.phase
        role = "group-current" if now else "group"
        label = f"── {title}{' (now)' if now else ''} "
        if i == 4 and f.started:
            label = f"── {title}: choose with f; slow by default "
        head = span(label, st[role])
        head.append("─" * max(0, width - head.cell_len), style=st[role])
        out.append(Row(None, head))
        for c in members:
            out.append(
                _cached(f, c, st, width, actors, None, lambda c=c: _row(f, c, cols, name_w, badge_w, actors, st))
            )
    return out


BOARD_MARK = {
    "act": ("A", "act"),
    "react": ("R", "react"),
    "begin": ("C", "channel"),
    "channeling": ("~", "channel"),
    "resolves": ("»", "channel"),  # still to come (or resolving now)
    "resolved": ("✓", "good"),
    "interrupted": ("✗", "bad"),
    "dropped": ("↓", "bad"),
}


def _kind(c: Combatant, p: int, item: object) -> str:
    """The board item's kind, with a channel's completion told apart from one still to come."""
    kind = str(getattr(item, "kind", ""))
    if kind == "resolves" and any(ch.status == "resolved" and ch.end == p for ch in c.channels):
        return "resolved"
    return kind


def _phase_cells(f: Fight, c: Combatant, cells: tuple[tuple[object, ...], ...], cell_w: int, st: Styles) -> Text:
    """Nine board cells from engine.rules.ninephase_board: a mark per item, the activity if room."""
    t = Text(end="")
    for p in range(1, 10):
        items = cells[p - 1] if p - 1 < len(cells) else ()
        begun = {ch.activity for ch in c.channels if ch.start == p}
        if begun:
            # the act that began a channel is the channel's C: one mark for one thing
            items = tuple(
                it for it in items if not (getattr(it, "kind", "") == "act" and _board_name(c, p, it) in begun)
            )
        if items:
            first = items[0]
            kind = _kind(c, p, first)
            mark, role = BOARD_MARK.get(kind, ("?", "dim"))
            cell = Text(end="")
            for it in items[:2]:
                m, r = BOARD_MARK.get(_kind(c, p, it), ("?", "dim"))
                cell.append(m, style=st[r])
            if cell_w >= 6 and len(items) == 1 and kind in ("act", "react", "begin"):
                cell.append(":" + clean(_board_name(c, p, first))[: cell_w - 3], style=st[role])
        else:
            cell = span("·", st["dim"])
        cell = fit(cell, cell_w - 1)
        cell.append(" ")
        if p == f.phase and f.started and not f.ended:
            cell.stylize(st["phase-current"])
        t.append_text(cell)
    return t


def _board_name(c: Combatant, p: int, item: object) -> str:
    if getattr(item, "kind", "") == "begin":
        # the engine's text is a sentence: the cell has room for the channel's name only
        return next((ch.activity for ch in c.channels if ch.start == p), str(getattr(item, "text", "")))
    return str(getattr(item, "text", ""))


def phase_word(n: int, short: bool = False) -> str:
    """A nine-phase channel's phase as the GM reads it: a channel that runs over a round change keeps
    its phases counted from the round it is in (11 is phase 2 of the next round, -1 phase 8 of the last)."""
    if n > 9:
        return f"{n - 9}(next)" if short else f"{n - 9} of the next round"
    if n < 1:
        return f"{n + 9}(last)" if short else f"{n + 9} of the last round"
    return str(n)


def channel_lines(f: Fight, width: int, st: Styles) -> list[Row]:
    """Below the board, one line per channel this round: who, its span and what became of it, so
    the GM sees what resolves where without reading the marks."""
    out: list[Row] = []
    for c in f.combatants:
        for ch in c.channels:
            t = span(f"  {phase_word(ch.start, short=True)}→{phase_word(ch.end, short=True)} ", st["channel"])
            t.append_text(literal(ch.activity, st["channel"]))
            t.append(" (")
            t.append_text(literal(c.name))
            t.append(")")
            if ch.status == "interrupted":
                t.append(f": interrupted in phase {ch.at}", style=st["bad"])
            elif ch.status == "resolved":
                t.append(f": resolved in phase {ch.at or ch.end}", style=st["good"])
            elif f.started and not f.ended and f.phase == ch.end:
                t.append(f": resolves in phase {ch.end} (now)", style=st["warn"])
            else:
                t.append(f": resolves in phase {phase_word(ch.end)}", style=st["dim"])
            if ch.uninterruptible and not ch.status:
                t.append(", uninterruptible", style=st["dim"])
            out.append(Row(None, fit(t, width)))
    if out:
        head = span("── Channels: C begins · ~ channeling · » resolves · ✓ resolved · ✗ interrupted ", st["group"])
        out.insert(0, Row(None, fit(head, width)))
    return out


def rows_ninephase(f: Fight, rs: Ruleset, width: int, st: Styles) -> list[Row]:
    cols = [
        Column("Name", 0, _name),
        Column("HP", 7, lambda f, c, st: pool_text(c.pool("hp"), st)),
        Column("Grit", 7, lambda f, c, st: pool_text(c.pool("grit"), st)),
        Column("Acts", 7, _econ_ninephase),
    ]
    fixed = sum(col.width + 1 for col in cols if col.width) + 2
    cell_w = max(3, min(9, (width - fixed - 12) // 9 - (1 if width >= 130 else 2)))
    board_w = cell_w * 9 + 1
    name_w, badge_w = _layout(cols, width - board_w)
    actors = frozenset(rs.actors(f)) if f.started and not f.ended else frozenset()
    heads = Text(end="")
    for p in range(1, 10):
        cell = fit(Text(str(p), end=""), cell_w)
        if p == f.phase and f.started and not f.ended:
            cell.stylize(st["phase-current"])
        heads.append_text(cell)
    heads.append(" ")
    out = [Row(None, _header(cols, name_w, badge_w, st, heads))]
    from engine.rules.ninephase_board import board

    def build(c: Combatant) -> Row:
        (cells,) = [r.cells for r in board(replace(f, combatants=(c,)))]
        line = _phase_cells(f, c, cells, cell_w, st)
        line.append(" ")
        return _row(f, c, cols, name_w, badge_w, actors, st, line)

    for c in f.combatants:
        out.append(_cached(f, c, st, width, actors, (f.round, f.phase), lambda c=c: build(c)))
    out.extend(channel_lines(f, width, st))
    return out


BUILDERS: dict[str, Callable[[Fight, Ruleset, int, Styles], list[Row]]] = {
    "d20": rows_d20,
    "warhammer": rows_warhammer,
    "cosmere": rows_cosmere,
    "ninephase": rows_ninephase,
}


def tracker_rows(f: Fight, rs: Ruleset, width: int, st: Styles = PLAIN) -> list[Row]:
    build = BUILDERS.get(f.ruleset, rows_d20)
    return build(f, rs, max(20, width), st)


# --- durations ---------------------------------------------------------------------------------


def remaining(f: Fight, cond: Condition) -> str:
    """What is left of a condition's duration, in words a GM reads at a glance."""
    d = cond.duration
    if d.kind == "manual":
        return "until removed"
    if d.kind in ("turn_start", "turn_end"):
        who = f.find(d.who)
        name = clean(who.name) if who else "a combatant who left"
        when = "start" if d.kind == "turn_start" else "end"
        if d.count == 1:
            return f"until the {when} of {name}'s next turn"
        return f"{d.count} more turns: until the {when} of {name}'s turn {d.count} from now"
    if d.kind == "round_end":
        left = d.round - f.round
        tail = "this round" if left <= 0 else f"{left} more round{'s' if left != 1 else ''}"
        return f"until the end of round {d.round} ({tail})"
    if d.kind == "phase_end":
        left = (d.round - f.round) * 9 + d.phase - f.phase
        tail = "this phase" if left <= 0 else f"{left} more phase{'s' if left != 1 else ''}"
        return f"until the end of phase {d.phase}, round {d.round} ({tail})"
    return d.kind
