"""The players' view (`fracas view FILE`, and each browser of `fracas serve`): a read-only screen that
follows a fight as the GM plays it, showing only what the players may see.

It holds no Session: a `saves.follow.Follower` reads the file without a lock and never writes, and
this app has no binding but quit, so nothing the GM can do is reachable from it. What is shown and
what is left out (hidden combatants, enemy health, the public log) is decided in the pure functions
below and written down in docs/view.md. A ruleset's own layout (Cosmere's four phase groups, the
nine-phase board) lives in `tui/rulesets/<id>/view.py`, found by module name; a ruleset without one
gets the plain order list.
"""

from __future__ import annotations

import importlib
import logging
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Digits, Static

from engine import events as E
from engine import get_ruleset
from engine.errors import RuleError
from engine.history import History
from engine.ruleset import Ruleset
from engine.state import Combatant, Condition, Fight
from engine.text import terminal_safe
from saves.follow import Follower
from tui import gc_policy
from tui.text import clean, literal
from tui.views import HIDDEN, ordered, remaining

log = logging.getLogger("fracas.view")

POLL_SECONDS = 0.1  # a stat a poll: ~10 µs idle, so a new record shows within ~0.1 s (docs/view.md)
LOG_LINES = 6


# --- what the players may see ------------------------------------------------------------------


def is_hidden(c: Combatant) -> bool:
    return HIDDEN in c.flags


def shown(f: Fight) -> list[Combatant]:
    """The combatants the players see, in turn order (the order they joined before it starts)."""
    return [c for c in ordered(f) if not is_hidden(c)]


def is_party(c: Combatant) -> bool:
    """Whose numbers the players know: their own characters and their side's allies."""
    return c.kind == "pc" or c.side == "party"


def band(c: Combatant) -> str:
    """An enemy's health in words: unhurt, hurt, bloodied (half or less), down."""
    if not c.health:
        return ""
    p = c.health[0]
    if p.current <= 0:
        return "down"
    if p.current >= p.max:
        return "unhurt"
    return "bloodied" if p.current * 2 <= p.max else "hurt"


def health_text(f: Fight, c: Combatant) -> Text:
    """Numbers for the party; for anyone else what the `view_health` setting says."""
    if not c.health:
        return Text("")
    p = c.health[0]
    mode = f.setting("view_health", "band")
    if is_party(c) or mode == "numbers":
        style = "bold red" if p.current <= 0 else ("yellow" if p.current * 2 <= p.max else "green")
        t = Text(f"{p.current}/{p.max}", style=style, end="")
        if p.temp:
            t.append(f"+{p.temp}", style="cyan")
        return t
    if mode == "none":
        return Text("down", style="bold red") if p.current <= 0 else Text("")
    word = band(c)
    style = {"down": "bold red", "bloodied": "yellow", "hurt": "yellow", "unhurt": "green"}[word]
    return Text(word, style=style)


def condition_text(f: Fight, cond: Condition) -> str:
    """A condition and what is left of it, short enough for a line of the view."""
    name = clean(cond.name) + (f" {cond.level}" if cond.level > 1 else "")
    left = remaining(f, cond)
    if left == "until removed":
        return name
    return f"{name} ({clean(left)})"


def next_up(f: Fight, people: list[Combatant]) -> Combatant | None:
    """Who acts after the current turn, among those shown (in the order the view lists them)."""
    if not f.started or f.ended or not people:
        return None
    ids = [c.id for c in people]
    start = ids.index(f.current) + 1 if f.current in ids else 0
    # later this round: the first after the current one who has not gone; else the next round's first
    for c in people[start:] + people[:start]:
        if c.id != f.current and not c.down and not c.economy.done:
            return c
    for c in people:
        if c.id != f.current and not c.down:
            return c
    return None


def _hidden_names(history: History) -> set[str]:
    """Names of everyone hidden now or when any event happened: never to appear in the log."""
    names: set[str] = set()
    for c in history.state.combatants:
        if is_hidden(c):
            names.add(c.name)
    return names


def _who_of(e: E.Event) -> str:
    who = getattr(e, "who", "")
    return who if isinstance(who, str) else ""


# events the players always see, those they never do (GM's business: stats, notes, reminders,
# settings; the order is on screen) and the rolls: the party's own, and the GM's once made public
_PUBLIC: tuple[type, ...] = (E.RoundStarted, E.PhaseStarted, E.TurnStarted, E.TurnEnded, E.TurnSkipped)
_PUBLIC += (E.FightStarted, E.FightEnded, E.Added, E.Removed, E.Dropped, E.Revived)
_PUBLIC += (E.ConditionAdded, E.ConditionEnded)
_PRIVATE: tuple[type, ...] = (E.Edited, E.OrderSet, E.Noted, E.Info, E.SettingChanged)
_ROLLS: tuple[type, ...] = (E.InitiativeRolled, E.SaveRolled, E.Rolled)


def public_line(e: E.Event, then: Fight, before: Fight) -> str | None:
    """The public log line of one event, or None when the players may not see it.

    `then` is the fight just after the command, `before` just before it: a combatant is judged as it
    was when the event happened (an ambusher's moves while hidden stay secret after it is revealed)."""
    c = _subject(e, then, before)
    if c is not None and is_hidden(c):
        return None
    party = c is not None and is_party(c)
    rolls_public = then.setting("view_rolls", "private") == "public"
    if isinstance(e, _PUBLIC) or e.public:
        return E.describe(e)
    if isinstance(e, (E.Damaged, E.Healed, E.TempGained)):
        return _health_line(e, c, party or then.setting("view_health", "band") == "numbers")
    if isinstance(e, E.ActionUsed):
        return f"{e.name} uses {e.label or e.what}"
    if isinstance(e, E.ResourceChanged):
        return E.describe(e) if party else None
    if isinstance(e, _ROLLS):
        return E.describe(e) if (party or (rolls_public and c is not None)) else None
    if isinstance(e, _PRIVATE):
        return None
    # a ruleset's own events are attack rolls and tests whose lines carry defences and target
    # numbers: public only when the GM says rolls are
    return E.describe(e) if rolls_public and (c is None or not is_hidden(c)) else None


def _subject(e: E.Event, then: Fight, before: Fight) -> Combatant | None:
    """The combatant the event is about, as it was when it happened."""
    who = _who_of(e)
    c = then.find(who) if who else None
    if c is None and who:
        c = before.find(who)  # one who left the fight: as it was before leaving
    return c


def _health_line(e: E.Damaged | E.Healed | E.TempGained, c: Combatant | None, numbers: bool) -> str | None:
    """Damage, healing and temporary health: with the numbers (the party's, or when the GM shows
    them), else as a band."""
    if isinstance(e, E.Damaged):
        if not numbers:
            return f"{e.name} is hit" + (f" ({band(c)})" if c is not None and band(c) else "")
        return f"{e.name} takes {e.amount}{' ' + e.type if e.type else ''} damage, {e.left} left"
    if isinstance(e, E.Healed):
        return f"{e.name} heals {e.amount}, {e.left} now" if numbers else f"{e.name} is healed"
    return f"{e.name} has {e.amount} temporary health" if numbers else None


def public_log(history: History, limit: int = LOG_LINES) -> list[str]:
    """The last `limit` lines the players may see, oldest first."""
    nodes = history.nodes
    secret = _hidden_names(history)
    out: list[str] = []
    for i in reversed(history.path()):
        node = nodes[i]
        if node.parent < 0:
            break
        before = nodes[node.parent].state
        lines: list[str] = []
        for e in node.events:
            line = _revealed(e, node.state, before) or public_line(e, node.state, before)
            # the safety net: a line naming anyone hidden is left out, whatever produced it
            if line and not any(name and name in line for name in secret):
                lines.append(line)
        out[:0] = lines
        if len(out) >= limit:
            break
    return out[-limit:]


def _revealed(e: E.Event, then: Fight, before: Fight) -> str | None:
    """A combatant the GM just revealed (its hidden flag removed) joins the players' fight."""
    if not isinstance(e, E.Edited):
        return None
    was, now = before.find(e.who), then.find(e.who)
    if was is not None and now is not None and is_hidden(was) and not is_hidden(now):
        return f"{now.name} joins the fight"
    return None


# --- a ruleset's own layout -------------------------------------------------------------------


@dataclass(frozen=True)
class Group:
    """A heading and the combatants under it (a ruleset's phase group, or the whole order)."""

    title: str
    people: tuple[Combatant, ...]
    now: bool = False


def _plain_groups(f: Fight, rs: Ruleset, people: list[Combatant]) -> list[Group]:
    return [Group("Order" if f.started else "Combatants", tuple(people))]


_PARTS: dict[str, ModuleType | None] = {}


def view_part(ruleset_id: str) -> ModuleType | None:
    """The ruleset's `tui/rulesets/<id>/view.py`, or None for a ruleset without one."""
    if ruleset_id not in _PARTS:
        name = f"tui.rulesets.{ruleset_id}.view"
        try:
            _PARTS[ruleset_id] = importlib.import_module(name) if ruleset_id.isidentifier() else None
        except ModuleNotFoundError as exc:
            if exc.name is None or not name.startswith(exc.name):
                raise  # a view part that exists but imports something missing is a bug to see
            _PARTS[ruleset_id] = None
    return _PARTS[ruleset_id]


def groups(f: Fight, rs: Ruleset, people: list[Combatant]) -> list[Group]:
    part = view_part(f.ruleset)
    fn: Callable[..., list[Group]] | None = getattr(part, "groups", None)
    return fn(f, rs, people) if fn is not None else _plain_groups(f, rs, people)


def extra_lines(f: Fight, rs: Ruleset, people: list[Combatant]) -> list[Text]:
    """What a ruleset shows below the order (the nine-phase board's channels)."""
    fn: Callable[..., list[Text]] | None = getattr(view_part(f.ruleset), "extra_lines", None)
    return fn(f, rs, people) if fn is not None else []


def phase_label(f: Fight, rs: Ruleset) -> str:
    fn: Callable[[Fight], str] | None = getattr(view_part(f.ruleset), "phase_label", None)
    return fn(f) if fn is not None else ""


# --- drawing ------------------------------------------------------------------------------------


def combatant_line(f: Fight, c: Combatant, width: int) -> Text:
    """One combatant: a marker for whose turn it is, the name, health, visible conditions."""
    now = f.started and not f.ended and c.id == f.current
    done = f.started and bool(c.economy.done) and not now
    t = Text(end="")
    t.append("▶ " if now else ("✓ " if done else "  "), style="bold reverse" if now else "dim")
    name = literal(c.name, "bold" if c.kind == "pc" else "")
    if now:
        name.stylize("bold reverse")
    elif c.down or done:
        name.stylize("dim")
    t.append_text(name)
    health = health_text(f, c)
    if health.plain:
        t.append("  ")
        t.append_text(health)
    conds = [condition_text(f, k) for k in c.conditions]
    if conds:
        t.append("  ")
        t.append(terminal_safe(", ".join(conds)), style="italic magenta")
    t.truncate(max(10, width), overflow="ellipsis")
    return t


def order_text(f: Fight, rs: Ruleset, width: int, height: int = 0) -> Text:
    """The order as lines; with `height`, a window of that many lines that keeps the current
    combatant in sight, with "… N more" for what is left out (a long fight on a small screen)."""
    people = shown(f)
    if not people:
        return Text("Nobody to show yet.", style="dim", end="")
    lines: list[Text] = []
    at = 0  # the line of the current combatant
    parts = groups(f, rs, people)
    many = len(parts) > 1
    for g in parts:
        if many or not f.started:
            head = f"{g.title}{'  (now)' if g.now else ''}"
            lines.append(Text(terminal_safe(head), style="bold underline" if g.now else "bold dim", end=""))
        for c in g.people:
            if c.id == f.current:
                at = len(lines)
            lines.append(combatant_line(f, c, width))
    lines.extend(extra_lines(f, rs, people))
    if height > 0 and len(lines) > height:
        keep = max(1, height - 1)  # one line says how many are left out
        start = min(max(0, at - keep // 3), len(lines) - keep)
        more = len(lines) - keep
        lines = lines[start : start + keep]
        lines.append(Text(f"… {more} more line{'s' if more != 1 else ''}", style="dim", end=""))
    return Text("\n", end="").join(lines)


def turn_text(f: Fight, rs: Ruleset) -> Text:
    """Whose turn and who is next, large and first."""
    t = Text(end="")
    if f.ended:
        t.append("The fight is over", style="bold")
        return t
    if not f.started:
        t.append("Getting ready…", style="bold")
        return t
    phase = phase_label(f, rs)
    if phase:
        t.append(terminal_safe(phase) + "\n", style="bold")
    people = shown(f)
    if not getattr(view_part(f.ruleset), "TURNS", True):
        t.rstrip()  # everyone acts in every phase (nine-phase): no "whose turn" to show
        return t
    current = next((c for c in people if c.id == f.current), None)
    t.append("Now: ", style="dim")
    if current is not None:
        t.append_text(literal(current.name, "bold reverse"))
    else:
        t.append("—", style="dim")  # between turns, or a hidden combatant acting: nobody to show
    listed = [c for g in groups(f, rs, people) for c in g.people]  # Cosmere: its groups' order
    nxt = next_up(f, listed)
    if nxt is not None:
        t.append("\nNext: ", style="dim")
        t.append_text(literal(nxt.name, "bold"))
    return t


class ViewApp(App[None]):
    """The players' screen: the fight as the file says, redrawn whenever it changes."""

    CSS_PATH = "view.tcss"
    TITLE = "Fracas — players' view"
    BINDINGS = [Binding("q", "quit", "Quit"), Binding("ctrl+c", "quit", "Quit", show=False)]
    ENABLE_COMMAND_PALETTE = False  # nothing to command: the view is read-only

    def __init__(self, path: Path, poll: float = POLL_SECONDS, *, end_with_parent: bool = False) -> None:
        super().__init__()
        self.path = Path(path)
        # a view `fracas serve` started ends once the server has: it is then no longer our parent
        # (a view left behind kept the file open, a process of its own under PID 1)
        self._served_by = os.getppid() if end_with_parent else 0
        self.poll_seconds = poll
        self.follower: Follower | None = None
        self.shown_cursor = -1  # the history node on screen (tests wait for it)
        self.draws = 0
        self.texts: dict[str, str] = {}  # widget id -> the plain text it shows

    def show(self, wid: str, content: Text) -> None:
        self.query_one(f"#{wid}", Static).update(content)
        self.texts[wid] = content.plain

    def compose(self) -> ComposeResult:
        with Horizontal(id="top"):
            with Vertical(id="round-box"):
                yield Static("ROUND", id="round-label")
                yield Digits("0", id="round")
            yield Static("", id="turn")
        yield Static("", id="title")
        yield Static("", id="order")
        yield Static("", id="log")
        yield Static("", id="status")

    def on_mount(self) -> None:
        self.follower = Follower(self.path)
        self.redraw()
        self.set_interval(self.poll_seconds, self.tick)
        self.set_timer(0.5, gc_policy.restore)  # painted: Python's own collector (tui/gc_policy.py)

    def tick(self) -> None:
        if self._served_by and os.getppid() != self._served_by:
            self.exit()
            return
        if self.follower is not None and self.follower.poll():
            self.redraw()

    def on_resize(self) -> None:
        self.call_after_refresh(self.redraw)  # once the new layout gives the order its height

    def redraw(self) -> None:
        fol = self.follower
        if fol is None:
            return
        status = self.query_one("#status", Static)
        problem = fol.problem or fol.notice
        self.show("status", Text(terminal_safe(problem), style="bold red" if fol.problem else "dim"))
        status.display = bool(problem)
        h = fol.history
        if h is None:
            self.show("order", Text("Waiting for the fight file…", style="dim"))
            return
        f = h.state
        try:
            rs = get_ruleset(f.ruleset)
        except RuleError as exc:
            self.show("status", Text(terminal_safe(str(exc)), style="bold red"))
            return
        width = max(20, self.size.width - 2)
        self.query_one("#round", Digits).update(str(f.round))
        self.show("turn", turn_text(f, rs))
        title = Text(end="")
        title.append_text(literal(f.name, "bold"))
        title.append(f"  ·  {terminal_safe(rs.title or rs.id)}", style="dim")
        self.show("title", title)
        self.show("order", order_text(f, rs, width, self.query_one("#order", Static).size.height))
        lines = public_log(h)
        logt = Text(end="")
        for i, line in enumerate(lines):
            logt.append(("\n" if i else "") + terminal_safe(line), style="" if i == len(lines) - 1 else "dim")
        self.show("log", logt)
        self.query_one("#log", Static).display = bool(lines)
        self.shown_cursor = h.cursor
        self.draws += 1


def screen_text(app: ViewApp) -> str:
    """Everything the view shows, as plain text (tests look for names in it)."""
    return "\n".join(app.texts.values())
