"""The text of the header, character sheet, conditions and log panes: pure functions of the state.

Like views.py this has no Textual in it: the widgets only put these Texts on screen.
"""

from __future__ import annotations

from rich.style import Style
from rich.text import Text

from engine import events as E
from engine.events import Event, describe
from engine.rules.base import Ruleset
from engine.rules.d20_combat import effective_speed, incapacitated, movement_left
from engine.state import Combatant, Fight, Pool
from tui.text import clean, literal, span
from tui.views import PLAIN, Styles, phase_word, pool_text, remaining

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
    """Name, ruleset, round and turn; the fight's name is what gets shortened when space is short."""
    title = span(f"  {rs.title}", st["pip"])
    now = Text(f"  {where(f, rs)}")
    name = literal(f.name, st["current"])
    if name.cell_len + title.cell_len + now.cell_len > width:
        # a narrow screen: the name gives way first, then the ruleset's title; whose turn it is stays
        room = max(8, width - title.cell_len - now.cell_len)
        if name.cell_len > room:
            name.truncate(room, overflow="ellipsis")
        if name.cell_len + title.cell_len + now.cell_len > width:
            title = Text("")
            room = max(2, width - now.cell_len)
            if name.cell_len > room:
                name.truncate(room, overflow="ellipsis")
    t = name + title + now
    if t.cell_len > width:
        t.truncate(width, overflow="ellipsis")
    return t


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


def _yes(t: Text, label: str, ok: bool, st: Styles, free: str = "available", spent: str = "used") -> None:
    t.append(f"{label} ", style=st["header"])
    t.append(free if ok else spent, style=st["good"] if ok else st["dim"])
    t.append("   ")


def _move(t: Text, c: Combatant, st: Styles) -> None:
    """d20: the feet of movement left this turn, of the turn's whole movement (Dash adds the speed,
    Slowed halves it, Grappled or Restrained make it 0)."""
    speed, why = effective_speed(c)
    left = movement_left(c)
    t.append("Move ", style=st["header"])
    if speed <= 0:
        t.append(f"0 ft ({why or 'speed 0'})", style=st["dim"])
    else:
        dashes = sum(1 for u in c.economy.used if u.lower() == "dash")
        t.append(f"{left} of {speed * (1 + dashes)} ft", style=st["good"] if left else st["dim"])
        if why:
            t.append(f" ({why})", style=st["dim"])
    t.append("   ")


def economy_text(f: Fight, rs: Ruleset, c: Combatant, st: Styles = PLAIN) -> Text:
    """What the combatant may still do, and what it has spent, in the ruleset's terms."""
    e = c.economy
    t = Text(end="")
    rid = rs.id
    mine = f.current == c.id
    if rid == "d20":
        if mine:
            _yes(t, "Action", e.actions > 0, st)
            _yes(t, "Bonus", e.bonus > 0, st)
            _move(t, c, st)
            _yes(t, "Gambit", e.gambit > 0, st, "can declare", "past")
        else:
            t.append("Not its turn" if f.started else "Fight not started", style=st["dim"])
            t.append("   ")
        barred = incapacitated(c) or ("Confused" if c.has("Confused") else "")
        if barred and e.reactions > 0:
            # not spent, only barred while the condition lasts
            t.append("Reaction ", style=st["header"])
            t.append(f"barred ({barred})", style=st["dim"])
            t.append("   ")
        else:
            _yes(t, "Reaction", e.reactions > 0, st)
        if e.dodging:
            t.append("Dodging   ", style=st["pip"])
        if e.ready:
            t.append("Readied: ", style=st["header"])
            t.append_text(literal(e.ready))
    elif rid == "cosmere":
        speed = {"fast": "Fast turn", "slow": "Slow turn"}.get(e.speed, "Undecided (fast or slow)")
        t.append(speed + "   ", style=st["pip"] if e.speed else st["warn"])
        if mine:
            total = 2 if e.speed == "fast" else 3
            t.append("Actions ", style=st["header"])
            t.append(f"{e.actions} of {total} left   ")
        elif e.done:
            t.append("Turn taken this round   ", style=st["dim"])
        if e.reactions <= 0 and c.has("Surprised"):
            # never had one: a Surprised combatant gets its first reaction when its first turn begins
            t.append("Reaction ", style=st["header"])
            t.append("none yet (Surprised)   ", style=st["dim"])
        else:
            _yes(t, "Reaction", e.reactions > 0, st)
    elif rid == "ninephase":
        t.append("Actions ", style=st["header"])
        t.append(f"{e.actions} of 3 left this round   ")
        _yes(t, "Reaction", e.reactions > 0, st)
        _yes(t, "Master Action", not e.master, st)
    elif rid == "warhammer":
        if mine:
            _yes(t, "Action", e.actions > 0, st)
        t.append("Reactions ", style=st["header"])
        t.append(f"{e.reactions}   ")
        if e.parries:
            t.append(f"Bonus parries {e.parries}   ")
        if e.defensive:
            t.append(f"Defensive {e.defensive}   ")
    else:
        t.append(rs.describe_economy(c))
    t.rstrip()
    return t


def sheet_text(f: Fight, rs: Ruleset, c: Combatant | None, st: Styles = PLAIN) -> Text:
    if c is None:
        return span("No combatant selected. Press a to add one.", st["dim"])
    t = Text(end="")
    t.append_text(literal(c.name, Style(bold=True) + st.get(c.side, Style())))
    t.append(f"\n{c.kind.upper()} · {c.side} · {c.id}", style=st["dim"])
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
        for p in c.resources:
            t.append(f"{p.key.capitalize()} ", style=st["header"])
            t.append(f"{p.current}/{p.max}   ", style=st["pip"] if p.current else st["dim"])
        t.rstrip()
    if f.started:
        t.append("\n")
        t.append_text(economy_text(f, rs, c, st))
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
    used = c.economy.used
    if used:
        # the list is cleared when its turn (nine-phase: the round) begins; off its turn it is what
        # it spent since its last turn began, not this round's
        if rs.id == "ninephase":
            label = "Used this round: "
        elif f.current == c.id:
            label = "Used this turn: "
        else:
            label = "Used since its last turn began: "
        t.append("\n" + label, style=st["header"])
        for i, u in enumerate(used):
            if i:
                t.append(", ")
            t.append_text(literal(u))
    if rs.id == "ninephase" and c.economy.phases:
        t.append("\nPhases: ", style=st["header"])
        for i, u in enumerate(c.economy.phases):
            if i:
                t.append(" · ")
            t.append(
                f"{u.phase} {'acted' if u.kind == 'act' else 'reacted'}: ",
                style=st["act" if u.kind == "act" else "react"],
            )
            t.append_text(literal(u.activity))
    for ch in c.channels:
        status = getattr(ch, "status", "")
        t.append("\nChannel " if status else "\nChanneling ", style=st["channel"])
        t.append_text(literal(ch.activity))
        t.append(f": began phase {phase_word(ch.start)}, resolves phase {phase_word(ch.end)}")
        if status:
            t.append(f" ({status} in phase {getattr(ch, 'at', '?')})", style=st["dim"])
        elif ch.uninterruptible:
            t.append(" (uninterruptible)")
    if rs.id in ("d20", "warhammer") and (c.initiative is not None or c.owner):
        t.append("\n")
        if c.owner:
            owner = f.find(c.owner)
            t.append("Acts on the turn of ", style=st["header"])
            t.append_text(literal(owner.name) if owner else Text("?"))
        else:
            t.append("Initiative " if rs.id == "d20" else "Initiative SL ", style=st["header"])
            t.append(f"{c.initiative}  (ties: {c.tiebreak})")
    pets = [x for x in f.combatants if x.owner == c.id]
    if pets:
        t.append("\nCompanions: ", style=st["header"])
        for i, x in enumerate(pets):
            if i:
                t.append(", ")
            t.append_text(literal(x.name))
    for title, values in (("Resists", c.resist), ("Vulnerable", c.vulnerable), ("Flags", c.flags)):
        if values:
            t.append(f"\n{title}: ", style=st["header"])
            t.append_text(literal(", ".join(values)))
    if c.note:
        t.append("\nNote: ", style=st["header"])
        t.append_text(literal(c.note, keep_newlines=True))
    return t


def stat_rows(rs: Ruleset, c: Combatant) -> list[tuple[str, int]]:
    """The stats not already shown as a health track or a resource, with the ruleset's labels."""
    labels = {s.key: s.label for s in rs.stats}
    pools = {p.key for p in c.health} | {p.key for p in c.resources}
    return [(labels.get(k, clean(k)), v) for k, v in c.stats if k not in pools]


def sheet(f: Fight, rs: Ruleset, c: Combatant | None, st: Styles = PLAIN, width: int = 80) -> Text:
    """The sheet as shown: the text, then the stats as label-value columns fitted to `width`."""
    text = sheet_text(f, rs, c, st)
    if c is None:
        return text
    rows = stat_rows(rs, c)
    if not rows:
        return text
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
    return text


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
    E.ChannelInterrupted: "bad",
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
    role = _ROLE.get(type(e))
    t = literal(text, st[role] if role else "")
    t.no_wrap = False
    return t
