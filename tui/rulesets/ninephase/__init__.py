"""Nine-phase's app slice: its tracker (the phase board beside each combatant, the channels below),
its sheet's lines, its actions and its form hints. Its dialogs are in tui/rulesets/ninephase/:
dialogs.py (an activity, `u`) and attack.py (a weapon attack with its damage, `w`)."""

from __future__ import annotations

from msgspec.structs import replace
from rich.text import Text

from engine.rules.ninephase.board import board, for_rounds, for_time, rest_of_round
from engine.rules.ninephase.clock import PHASES
from engine.ruleset import Ruleset
from engine.state import Combatant, Duration, Fight
from tui.rows import live
from tui.rulesets.base import Action, RulesetUI, register
from tui.text import clean, fit, literal, span
from tui.views import (
    Column,
    Row,
    Styles,
    cached_row,
    combatant_row,
    economy_cell,
    header_row,
    health_cell,
    layout,
    name_cell,
    phase_word,
    pool_text,
)

DIALOGS = "tui.rulesets.ninephase.dialogs"


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
    """Nine board cells from engine.rules.ninephase.board: a mark per item, the activity if room."""
    t = Text(end="")
    for p in range(1, PHASES + 1):
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


def channel_lines(f: Fight, width: int, st: Styles) -> list[Row]:
    """Below the board, one line per channel this round: who, its span and what became of it, so
    the GM sees what resolves where without reading the marks."""
    out: list[Row] = []
    for c in f.combatants:
        for ch in c.channels:
            span_ = f"{phase_word(ch.start, PHASES, short=True)}→{phase_word(ch.end, PHASES, short=True)}"
            t = span(f"  {span_} ", st["channel"])
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
                t.append(f": resolves in phase {phase_word(ch.end, PHASES)}", style=st["dim"])
            if ch.uninterruptible and not ch.status:
                t.append(", uninterruptible", style=st["dim"])
            out.append(Row(None, fit(t, width)))
    if out:
        head = span("── Channels: C begins · ~ channeling · » resolves · ✓ resolved · ✗ interrupted ", st["group"])
        out.insert(0, Row(None, fit(head, width)))
    return out


class NinePhaseUI(RulesetUI):
    id = "ninephase"
    offers = frozenset({"attack"})
    # `w`: a weapon attack in this phase, damage included (one command, one undo step)
    dialogs = {"attack": "tui.rulesets.ninephase.attack:NineAttackDialog"}
    actions = (
        Action(
            "activity",
            "u",
            "activity",
            "Activity",
            "Take an activity in this phase",
            "Act or react in the current phase (nine-phase)",
            after="use",
            selection=True,
            enabled=live,
            dialog=f"{DIALOGS}:ActivityDialog",
        ),
    )

    start_hint = "Round 1 begins in phase 1; nine-phase has no initiative roll and no surprise."
    start_rolls = False

    def condition_durations(self, f: Fight, kinds: list[str]) -> list[str]:
        if not f.started:
            return kinds
        # the text's own durations, counted from the current phase
        return ["manual", "rounds", "seconds", "rest"] + [k for k in kinds if k not in ("manual",)]

    def duration(self, kind: str, f: Fight, amount: int) -> Duration | None:
        if kind == "rounds":
            return for_rounds(f, amount)
        if kind == "seconds":
            return for_time(f, amount)
        if kind == "rest":
            return rest_of_round(f)
        return None

    def tracker_rows(self, f: Fight, rs: Ruleset, width: int, st: Styles) -> list[Row]:
        cols = [
            Column("Name", 0, name_cell),
            Column("HP", 7, health_cell),  # Hit Points come first: the band is theirs
            Column("Grit", 7, lambda f, c, st: pool_text(c.pool("grit"), st)),
            Column("Acts", 7, economy_cell),
        ]
        fixed = sum(col.width + 1 for col in cols if col.width) + 2
        cell_w = max(3, min(9, (width - fixed - 12) // 9 - (1 if width >= 130 else 2)))
        board_w = cell_w * 9 + 1
        name_w, badge_w = layout(cols, width - board_w)
        actors = frozenset(rs.actors(f)) if f.started and not f.ended else frozenset()
        heads = Text(end="")
        for p in range(1, PHASES + 1):
            cell = fit(Text(str(p), end=""), cell_w)
            if p == f.phase and f.started and not f.ended:
                cell.stylize(st["phase-current"])
            heads.append_text(cell)
        heads.append(" ")
        out = [Row(None, header_row(cols, name_w, badge_w, st, heads))]

        def build(c: Combatant) -> Row:
            (cells,) = [r.cells for r in board(replace(f, combatants=(c,)))]
            line = _phase_cells(f, c, cells, cell_w, st)
            line.append(" ")
            return combatant_row(f, c, cols, name_w, badge_w, actors, st, line)

        for c in f.combatants:
            out.append(cached_row(f, c, st, width, actors, (f.round, f.phase), lambda c=c: build(c)))
        out.extend(channel_lines(f, width, st))
        return out

    def used_label(self, f: Fight, c: Combatant) -> str:
        return "Used this round: "  # the list is cleared when the round begins

    def sheet_lines(self, f: Fight, c: Combatant, st: Styles) -> Text | None:
        """The phases it acted or reacted in this round."""
        if not c.economy.phases:
            return None
        t = Text(end="")
        t.append("\nPhases: ", style=st["header"])
        for i, u in enumerate(c.economy.phases):
            if i:
                t.append(" · ")
            t.append(
                f"{u.phase} {'acted' if u.kind == 'act' else 'reacted'}: ",
                style=st["act" if u.kind == "act" else "react"],
            )
            t.append_text(literal(u.activity))
        return t


register(NinePhaseUI())
