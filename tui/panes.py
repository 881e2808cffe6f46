"""The text of the header, character sheet, conditions and log panes: pure functions of the state.

Like views.py this has no Textual in it: the widgets only put these Texts on screen.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.style import Style
from rich.text import Text

from engine import events as E
from engine.area import sustained_by
from engine.events import Event, describe, together_label
from engine.ruleset import Ruleset
from engine.state import Combatant, Fight, Pool
from tui.text import clean, literal, span
from tui.views import PLAIN, Styles, phase_word, pool_text, remaining

if TYPE_CHECKING:
    from tui.rulesets import RulesetUI

# --- header ------------------------------------------------------------------------------------


def where(f: Fight, rs: Ruleset) -> str:
    """Round and turn or phase, in words."""
    if not f.started:
        return "not started"
    if f.ended:
        return f"over (round {f.round})"
    label = rs.phase_label(f)
    if f.current:
        c = f.find(f.current)
        if c is not None:
            label += f" · {clean(c.name)}'s turn"
    return label


def header_text(f: Fight, rs: Ruleset, st: Styles = PLAIN, width: int = 200) -> Text:
    """Round and turn first (what the table asks), then the fight's name and the ruleset. When space
    is short the ruleset's title goes first (the GM knows it; `?` says it), then the name is cut
    after a whole word with an ellipsis; the round and whose turn it is stay."""
    now = Text(where(f, rs))
    title = span(f"  {rs.title}", st["pip"])
    name = literal(f.name, st["current"])
    gap = Text("  ")
    if now.cell_len + gap.cell_len + name.cell_len + title.cell_len > width:
        title = Text("")
        room = width - now.cell_len - gap.cell_len
        if name.cell_len > room:
            name = cut_at_word(name, room) if room >= 6 else Text("")  # "Skirm…" still tells fights apart
    t = now + gap + name + title if name.cell_len else now
    if t.cell_len > width:
        t.truncate(width, overflow="ellipsis")
    return t


def cut_at_word(text: Text, width: int) -> Text:
    """A one-line Text cut to `width` cells with an ellipsis, after its last whole word that fits
    ("Skirmish on the Shattered…", not "Skirmish on the Shatt…"); a first word longer than that is cut
    where it must be."""
    out = text.copy()
    if out.cell_len <= width:
        return out
    out.truncate(max(1, width - 1))
    plain = out.plain
    space = plain.rstrip().rfind(" ")
    if space >= width // 2:  # a word boundary not too far back: cut there, else keep the letters
        out = out[:space]
    out.rstrip()
    out.append("…")
    return out


# --- the character sheet -----------------------------------------------------------------------


def _pool_line(p: Pool, label: str, st: Styles) -> Text:
    t = span(f"{label} ", st["header"])
    t.append_text(pool_text(p, st))
    if p.temp:
        t.append(" (temporary on top)", style=st["dim"])
    if p.max > 0:
        width = 20
        full = max(0, min(width, round(width * p.current / p.max)))
        t.append("  ")
        t.append("█" * full, style=st["good"] if p.current * 2 > p.max else st["warn"])
        t.append("░" * (width - full), style=st["dim"])
    return t


def economy_lines(f: Fight, rs: Ruleset, c: Combatant, st: Styles = PLAIN) -> Text:
    """Every ruleset's economy on the sheet, from the engine's items (Ruleset.economy_items), the
    ones the tracker cell and the log's line are made of: each `name` in the header style, its
    `detail` bright (good) while available, dim when spent, dim when barred (the detail says it is
    barred and why: "Reaction barred (Confused)"); a `plain` detail (a count) unstyled unless barred.
    An item with no name shows its detail alone ("Fast turn", "Not its turn", "Bonus parries 1"):
    bright while available, a warning when it has a why, dim otherwise; one with no detail is a flag
    ("Dodging"), bright while available."""
    t = Text(end="")
    for item in rs.economy_items(f, c.id):
        if not item.sheet:
            continue
        live = item.state == "available"
        if item.name and not item.detail:
            t.append_text(literal(item.name + "   ", st["pip"] if live else st["dim"]))
            continue
        if item.name:
            t.append_text(literal(item.name + " ", st["header"]))
        if item.state == "barred" or not live and not item.plain:
            role = "dim"
        elif item.plain:
            role = ""
        elif not item.name:
            role = "warn" if item.why else "pip"
        else:
            role = "good"
        # a heading's gap is part of it (not a barred one's); a named item's value stands alone
        joined = not item.name and item.state != "barred"
        t.append_text(literal(item.detail + "   " if joined else item.detail, st[role] if role else ""))
        if not joined:
            t.append("   ")
    return t


def _slice(rid: str) -> RulesetUI:
    from tui.rulesets import get_ui  # the slices build on this module

    return get_ui(rid)


def economy_text(f: Fight, rs: Ruleset, c: Combatant, st: Styles = PLAIN) -> Text:
    """What the combatant may still do, and what it has spent, in the ruleset's terms."""
    t = _slice(f.ruleset).economy_text(f, rs, c, st)
    t.rstrip()
    return t


def sheet_text(f: Fight, rs: Ruleset, c: Combatant | None, st: Styles = PLAIN) -> Text:
    if c is None:
        return span("No combatant selected. Press a to add one.", st["dim"])
    ui = _slice(f.ruleset)
    t = Text(end="")
    _sheet_health(t, f, rs, c, st)
    if f.started:
        t.append("\n")
        t.append_text(economy_text(f, rs, c, st))
    _sheet_owed(t, c, st)
    used = c.economy.used
    if used:
        t.append("\n" + ui.used_label(f, c), style=st["header"])
        _join(t, [literal(u) for u in used])
    more = ui.sheet_lines(f, c, st)
    if more is not None:
        t.append_text(more)
    _sheet_channels(t, rs, c, st)
    _sheet_initiative(t, f, c, ui.sheet_initiative, st)
    _sheet_rest(t, f, c, st)
    return t


def _join(t: Text, parts: list[Text]) -> None:
    for i, part in enumerate(parts):
        if i:
            t.append(", ")
        t.append_text(part)


def _sheet_health(t: Text, f: Fight, rs: Ruleset, c: Combatant, st: Styles) -> None:
    """The name, who it is, whether it is down, its health tracks and its resources."""
    t.append_text(literal(c.name, Style(bold=True) + st.get(c.side, Style())))
    # who it is, in the GM's words (its id is the app's, never shown)
    t.append(f"\n{c.kind.upper()} · {c.side}", style=st["dim"])
    if c.down:
        t.append("  ")
        t.append(rs.dropped_state(f, c) if f.started else "at 0", style=st["bad"])
    for i, p in enumerate(c.health):
        label = rs.health_label if i == 0 and len(c.health) == 1 else p.key.capitalize()
        if p.key == "hp" and len(c.health) > 1:
            label = "HP"
        t.append("\n")
        t.append_text(_pool_line(p, label, st))
    if c.resources:
        t.append("\n")
        t.append_text(resources_text(c, st))


def resources_text(c: Combatant, st: Styles) -> Text:
    """Its resources on one line: "Focus 2/3", a recharging ability "Fire Breath spent (5-6)" or
    "ready", spell slots by level together ("Slots 1st 4/4 2nd 3/3")."""
    t = Text(end="")
    slots = [p for p in c.resources if p.key.startswith(SLOTS)]
    for p in c.resources:
        if p in slots:
            if p is slots[0]:
                t.append("Slots ", style=st["header"])
                for q in slots:
                    t.append(f"{ordinal(q.key.removeprefix(SLOTS))} ")
                    t.append(f"{q.current}/{q.max} ", style=st["pip"] if q.current else st["dim"])
                t.append("  ")
            continue
        t.append_text(literal(p.key[:1].upper() + p.key[1:] + " ", st["header"]))
        if p.recharge:
            live = p.current > 0
            t.append("ready   " if live else f"spent ({p.recharge}-6)   ", style=st["pip"] if live else st["warn"])
            continue
        t.append(f"{p.current}/{p.max}   ", style=st["pip"] if p.current else st["dim"])
    t.rstrip()
    return t


SLOTS = "Spell slots "  # engine.library.abilities.slot_key's words, read without loading the library


def ordinal(n: str) -> str:
    """ "1" -> "1st", "2" -> "2nd", "4" -> "4th" (a spell level)."""
    return n + {"1": "st", "2": "nd", "3": "rd"}.get(n, "th")


def _sheet_owed(t: Text, c: Combatant, st: Styles) -> None:
    for due in getattr(c, "due", ()):
        # a roll the rules asked for that the table still owes (a concentration save, ...)
        t.append("\nRoll owed: ", style=st["warn"])
        t.append_text(literal(due.what))
        if due.dc:
            t.append(f", DC {due.dc}")
        if due.detail:
            t.append(" (")
            t.append_text(literal(due.detail))
            t.append(")")


def _sheet_channels(t: Text, rs: Ruleset, c: Combatant, st: Styles) -> None:
    for ch in c.channels:
        status = getattr(ch, "status", "")
        t.append("\nChannel " if status else "\nChanneling ", style=st["channel"])
        t.append_text(literal(ch.activity))
        t.append(f": began phase {phase_word(ch.start, rs.phases)}, resolves phase {phase_word(ch.end, rs.phases)}")
        if status:
            t.append(f" ({status} in phase {getattr(ch, 'at', '?')})", style=st["dim"])
        elif ch.uninterruptible:
            t.append(" (uninterruptible)")


def _sheet_initiative(t: Text, f: Fight, c: Combatant, label: str, st: Styles) -> None:
    """Its initiative (under the ruleset's label), or whose turn it acts on."""
    if not label or (c.initiative is None and not c.owner):
        return
    t.append("\n")
    if c.owner:
        owner = f.find(c.owner)
        t.append("Acts on the turn of ", style=st["header"])
        t.append_text(literal(owner.name) if owner else Text("?"))
    else:
        t.append(label, style=st["header"])
        t.append(f"{c.initiative}  (ties: {c.tiebreak})")
        fellows = tuple(x.name for x in f.combatants if c.group and x.group == c.group and x.id != c.id)
        if fellows:
            t.append("  shared with ")
            t.append_text(literal(together_label(fellows)))


def _sheet_rest(t: Text, f: Fight, c: Combatant, st: Styles) -> None:
    """Its companions, resistances, vulnerabilities, flags and note."""
    pets = [x for x in f.combatants if x.owner == c.id]
    if pets:
        t.append("\nCompanions: ", style=st["header"])
        _join(t, [literal(x.name) for x in pets])
    rows = (
        ("Resists", c.resist),
        ("Vulnerable", c.vulnerable),
        ("Immune", c.immune),
        ("Condition immune", c.condition_immune),
        ("Flags", c.flags),
    )
    for title, values in rows:
        if values:
            t.append(f"\n{title}: ", style=st["header"])
            t.append_text(literal(", ".join(values)))
    if c.note:
        t.append("\nNote: ", style=st["header"])
        t.append_text(literal(c.note, keep_newlines=True))


def stat_rows(rs: Ruleset, c: Combatant) -> list[tuple[str, int]]:
    """The stats not already shown as a health track or a resource, with the ruleset's labels."""
    pools = {p.key for p in c.health} | {p.key for p in c.resources}
    return [(clean(rs.stat_label(k)), v) for k, v in c.stats if k not in pools]


def sheet(f: Fight, rs: Ruleset, c: Combatant | None, st: Styles = PLAIN, width: int = 80) -> Text:
    """The sheet as shown: the text, then the stats as label-value columns fitted to `width`."""
    text = sheet_text(f, rs, c, st)
    if c is None:
        return text
    _stat_columns(text, stat_rows(rs, c), st, width)
    if c.statblock:
        from tui.statblock import section  # the library: loaded once a combatant has a statblock

        text.append_text(section(f, c, st))
    return text


def _stat_columns(text: Text, rows: list[tuple[str, int]], st: Styles, width: int) -> None:
    """The stats as label-value columns fitted to `width`."""
    if not rows:
        return
    per_line = 2 if width >= 56 else 1
    cell = (width - 2 * (per_line - 1)) // per_line
    text.append("\n")
    for i in range(0, len(rows), per_line):
        text.append("\n")
        for j, (label, v) in enumerate(rows[i : i + per_line]):
            if j:
                text.append("  ")
            value = str(v)
            room = max(1, cell - len(value) - 1)
            shown = label if len(label) <= room else label[: room - 1] + "…"
            text.append(shown, style=st["header"])
            text.append(" " * (cell - len(shown) - len(value)) + value)


# --- conditions --------------------------------------------------------------------------------


def conditions_text(f: Fight, rs: Ruleset, c: Combatant | None, st: Styles = PLAIN) -> Text:
    if c is None:
        return Text("", end="")
    if not c.conditions:
        return span(f"{clean(c.name)} has no conditions. Press c to add one.", st["dim"])
    t = Text(end="")
    for i, cond in enumerate(c.conditions):
        if i:
            t.append("\n")
        t.append(" ")
        t.append_text(literal(cond.name, st["badge"]))
        if cond.level > 1:
            t.append(f" {cond.level}", style=st["badge"])
        t.append(" ")
        t.append("  " + remaining(f, cond), style=st["warn"])
        desc = next((v for k, v in rs.conditions.items() if k.lower() == cond.name.lower()), "")
        t.append("\n  ")
        if desc:
            t.append(desc)
        else:
            t.append("Custom condition: no rule effect is applied; the GM adjudicates it.", style=st["dim"])
        if cond.dice:
            t.append(f"\n  Damage each turn: {clean(cond.dice)}")
        if cond.source:
            src = f.find(cond.source)
            t.append("\n  Source: ")
            t.append_text(literal(src.name) if src else Text("(gone)"))
            if cond.through:
                # what ends it: the caster's concentration (or the condition named) ending
                who = src.name if src else "(gone)"
                t.append("\n  ")
                t.append_text(literal("Kept up by " + sustained_by(f.ruleset, who, cond.through), st["dim"]))
        if cond.note:
            t.append("\n  Note: ")
            t.append_text(literal(cond.note, keep_newlines=True))
    return t


# --- the log -----------------------------------------------------------------------------------

_ROLE: dict[type, str] = {
    E.RoundStarted: "group-current",
    E.PhaseStarted: "group",
    E.TurnStarted: "current",
    E.Damaged: "bad",
    E.Dropped: "bad",
    E.Healed: "good",
    E.Revived: "good",
    E.TempGained: "good",
    E.ConditionAdded: "warn",
    E.ConditionEnded: "warn",
    E.TurnSkipped: "warn",
    E.Info: "pip",
    E.FightStarted: "group-current",
    E.FightEnded: "group-current",
}


def log_line(e: Event, st: Styles = PLAIN) -> Text:
    """One log line; `describe` wording, user text kept literal, dice results included."""
    text = describe(e)
    if isinstance(e, E.RoundStarted):
        text = f"── Round {e.round} ──"
    role = _ROLE.get(type(e)) or e.log_role
    t = literal(text, st[role] if role else "")
    t.no_wrap = False
    return t
