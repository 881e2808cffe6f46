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
from tui import bigtype, gc_policy
from tui.text import clean, literal, shorten_middle
from tui.views import HIDDEN, ZeroFn, is_out, ordered, remaining, zero_band

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


def zero_reading(ruleset_id: str) -> ZeroFn:
    """What 0 health means, as the ruleset's tracker reads it: its app slice's own reading (Warhammer's
    `zero_wounds`: one with Resolve fights on), else the shared one (a PC is dying, anyone else down)."""
    if ruleset_id not in _ZERO:
        fn: ZeroFn | None = None
        if ruleset_id.isidentifier():
            try:
                fn = getattr(importlib.import_module(f"tui.rulesets.{ruleset_id}"), "zero_wounds", None)
            except ModuleNotFoundError:
                fn = None  # a ruleset with no app slice here: the shared reading
        _ZERO[ruleset_id] = fn if callable(fn) else zero_band
    return _ZERO[ruleset_id]


_ZERO: dict[str, ZeroFn] = {}


def band(c: Combatant, zero: ZeroFn = zero_band) -> str:
    """An enemy's health in words: unhurt, hurt, bloodied (half or less); at 0 what the tracker
    says (down; a PC dying; Warhammer's "fights" for one fighting on)."""
    if not c.health:
        return ""
    p = c.health[0]
    if p.current <= 0:
        return zero(c).word
    if p.current >= p.max:
        return "unhurt"
    return "bloodied" if p.current * 2 <= p.max else "hurt"


def health_text(f: Fight, c: Combatant, zero: ZeroFn = zero_band) -> Text:
    """Numbers for the party; for anyone else what the `view_health` setting says. At 0 the word the
    tracker shows goes with them: "0/34 dying" is not a dead goblin."""
    if not c.health:
        return Text("")
    p = c.health[0]
    mode = f.setting("view_health", "band")
    if is_party(c) or mode == "numbers":
        style = "bold red" if p.current <= 0 else ("yellow" if p.current * 2 <= p.max else "green")
        t = Text(f"{p.current}/{p.max}", style=style, end="")
        if p.temp:
            t.append(f"+{p.temp}", style="cyan")
        if p.current <= 0:
            t.append(f" {zero(c).word}", style="bold red")
        return t
    if mode == "none":
        return Text(zero(c).word, style="bold red") if p.current <= 0 else Text("")
    word = band(c, zero)
    style = {"bloodied": "yellow", "hurt": "yellow", "unhurt": "green"}.get(word, "bold red")
    return Text(word, style=style)


def condition_text(f: Fight, cond: Condition) -> str:
    """A condition and what is left of it, short enough for a line of the view."""
    name = clean(cond.name) + (f" {cond.level}" if cond.level > 1 else "")
    left = remaining(f, cond)
    if left == "until removed":
        return name
    return f"{name} ({clean(left)})"


def next_up(f: Fight, people: list[Combatant], zero: ZeroFn = zero_band) -> Combatant | None:
    """Who acts after the current turn, among those shown (in the order the view lists them); a PC
    dying still takes its turns."""
    if not f.started or f.ended or not people:
        return None
    ids = [c.id for c in people]
    start = ids.index(f.current) + 1 if f.current in ids else 0
    # later this round: the first after the current one who has not gone; else the next round's first
    for c in people[start:] + people[:start]:
        if c.id != f.current and not is_out(c, zero) and not c.economy.done:
            return c
    for c in people:
        if c.id != f.current and not is_out(c, zero):
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
        numbers = party or then.setting("view_health", "band") == "numbers"
        return _health_line(e, c, numbers, zero_reading(then.ruleset))
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


def _health_line(
    e: E.Damaged | E.Healed | E.TempGained, c: Combatant | None, numbers: bool, zero: ZeroFn
) -> str | None:
    """Damage, healing and temporary health: with the numbers (the party's, or when the GM shows
    them), else as a band."""
    if isinstance(e, E.Damaged):
        if not numbers:
            return f"{e.name} is hit" + (f" ({band(c, zero)})" if c is not None and band(c, zero) else "")
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

MIN_CONDITIONS = 16  # cells the conditions need beside a row; less and they go on lines below it
MIN_COLUMN = 40  # cells one column of a two-column order needs
BIG = (100, 32)  # from this size on (a TV, a browser) the round and who acts are drawn in big letters


@dataclass(frozen=True)
class Cols:
    """Where a row's parts go: the name's cells and the health's, across `width`."""

    name: int
    health: int
    width: int
    leader: str = " "  # what fills the gap after a name: dots on a big screen lead the eye across


def cols_for(f: Fight, people: list[Combatant], width: int, zero: ZeroFn, spacious: bool = False) -> Cols:
    """Names and health line up in columns; the conditions take what is left of the width. Spacious
    (a big screen): the columns spread across it, the names led to their health by dots."""
    names = max((literal(c.name).cell_len for c in people), default=4)
    healths = max((health_text(f, c, zero).cell_len for c in people), default=0)
    name = min(names, max(12, width // 3))
    if spacious:
        return Cols(max(name, min(width // 4, 32)), max(healths, 12), width, "·")
    return Cols(name, healths, width)


def wrap_items(items: list[str], room: int) -> list[str]:
    """Items joined with ", " in lines of at most `room` cells, breaking between items (an item
    longer than a line is broken inside)."""
    lines: list[str] = []
    line = ""
    for item in items:
        piece = f"{line}, {item}" if line else item
        if Text(piece).cell_len < room:  # (room kept for the comma a broken line ends in)
            line = piece
            continue
        if line:
            lines.append(line + ",")
        while Text(item).cell_len >= room:
            lines.append(item[: room - 1])
            item = item[room - 1 :]
        line = item
    if line:
        lines.append(line)
    return lines


def combatant_lines(f: Fight, c: Combatant, cols: Cols, zero: ZeroFn = zero_band) -> list[Text]:
    """One combatant: a marker for whose turn it is, the name, health, and every visible condition
    (wrapped, never cut: a line below when there is no room beside)."""
    now = f.started and not f.ended and c.id == f.current
    done = f.started and bool(c.economy.done) and not now
    t = Text(end="")
    t.append("▶ " if now else ("✓ " if done else "  "), style="bold reverse" if now else "dim")
    name = shorten_middle(literal(c.name, "bold" if c.kind == "pc" else ""), cols.name)
    if now:
        name.stylize("bold reverse")
    elif is_out(c, zero) or done:
        name.stylize("dim")
    t.append_text(name)
    health = health_text(f, c, zero)
    conds = [terminal_safe(condition_text(f, k)) for k in c.conditions]
    if health.plain or conds:
        gap = cols.name - name.cell_len + 2
        t.append(" " + cols.leader * (gap - 2) + " " if gap > 2 else " " * gap, style="dim")
        t.append_text(health)
    if not conds:
        return [t]
    t.append(" " * (cols.health - health.cell_len + 2))
    room = cols.width - t.cell_len
    out = [t]
    if room < MIN_CONDITIONS:  # too narrow beside the row: under it, indented
        room = max(MIN_CONDITIONS, cols.width - 4)
        out.append(Text("    ", end=""))
    for i, line in enumerate(wrap_items(conds, room)):
        if i:
            out.append(Text(" " * max(4, cols.width - room), end=""))
        out[-1].append(line, style="italic magenta")
    return out


@dataclass(frozen=True)
class Block:
    """Lines of the order that stay together: a combatant's (`person`), or a heading or board line."""

    lines: tuple[Text, ...]
    person: bool = True


def order_blocks(f: Fight, rs: Ruleset, width: int, spacious: bool = False) -> tuple[list[Block], int]:
    """The order as blocks and the block of the current combatant."""
    people = shown(f)
    zero = zero_reading(f.ruleset)
    cols = cols_for(f, people, width, zero, spacious)
    blocks: list[Block] = []
    at = 0
    parts = groups(f, rs, people)
    many = len(parts) > 1
    for g in parts:
        if many or not f.started:
            head = f"{g.title}{'  (now)' if g.now else ''}"
            style = "bold underline" if g.now else "bold dim"
            blocks.append(Block((Text(terminal_safe(head), style=style, end=""),), person=False))
        for c in g.people:
            if c.id == f.current:
                at = len(blocks)
            blocks.append(Block(tuple(combatant_lines(f, c, cols, zero))))
    blocks.extend(Block((line,), person=False) for line in extra_lines(f, rs, people))
    return blocks, at


def _flat(blocks: list[Block]) -> list[Text]:
    return [line for b in blocks for line in b.lines]


def _spaced(blocks: list[Block], gap: int = 1) -> list[Text]:
    """`gap` blank lines between one combatant and the next: easier to read across a room."""
    out: list[Text] = []
    for i, b in enumerate(blocks):
        if i and b.person and blocks[i - 1].person:
            out.extend(Text("", end="") for _ in range(gap))
        out.extend(b.lines)
    return out


def _side_by_side(blocks: list[Block], width: int, height: int) -> list[Text] | None:
    """Two columns of the order, split between blocks, when they fit `height` (None if not)."""
    total = sum(len(b.lines) for b in blocks)
    run = 0
    split = len(blocks)
    for i, b in enumerate(blocks):
        run += len(b.lines)
        if run * 2 >= total:
            split = i + 1
            break
    left, right = _flat(blocks[:split]), _flat(blocks[split:])
    if max(len(left), len(right)) > height:
        return None
    half = (width - 3) // 2
    out: list[Text] = []
    for i in range(max(len(left), len(right))):
        line = left[i].copy() if i < len(left) else Text("", end="")
        line.truncate(half, pad=True)
        line.append(" │ ", style="dim")
        if i < len(right):
            line.append_text(right[i])
        out.append(line)
    return out


def order_text(f: Fight, rs: Ruleset, width: int, height: int = 0, spacious: bool = False) -> Text:
    """The order as lines across `width`. With `height`: spaced out when `spacious` and there is
    room; else in two columns when the width allows; else a window of that many lines that keeps the
    current combatant in sight, with "… N more" for what is left out (a long fight on a small
    screen)."""
    if not shown(f):
        return Text("Nobody to show yet.", style="dim", end="")
    blocks, at = order_blocks(f, rs, width)
    lines = _flat(blocks)
    wide = order_blocks(f, rs, width, spacious=True)[0] if spacious else []
    gap = next((g for g in (2, 1) if len(_spaced(wide, g)) <= height), 0) if spacious and height > 0 else 0
    if gap:
        lines = _spaced(wide, gap)
    elif height > 0 and len(lines) > height and width >= 2 * MIN_COLUMN + 3:
        two = _side_by_side(order_blocks(f, rs, (width - 3) // 2)[0], width, height)
        lines = two if two is not None else lines
    if height > 0 and len(lines) > height:
        first = sum(len(b.lines) for b in blocks[:at])  # the current one's first line
        keep = max(1, height - 1)  # one line says how many are left out
        start = min(max(0, first - keep // 3), len(lines) - keep)
        more = len(lines) - keep
        lines = lines[start : start + keep]
        lines.append(Text(f"… {more} more line{'s' if more != 1 else ''}", style="dim", end=""))
    return Text("\n", end="").join(lines)


@dataclass(frozen=True)
class Turn:
    """What the top of the view says: the phase, who acts (or how the fight stands) and who is next."""

    phase: str = ""
    now: str | None = None  # who acts; None: nobody the players may see
    next: str = ""
    state: str = ""  # instead of whose turn: not started, over, or a ruleset without turns
    turns: bool = True


def turn_of(f: Fight, rs: Ruleset) -> Turn:
    if f.ended:
        return Turn(state="The fight is over")
    if not f.started:
        return Turn(state="Getting ready")
    phase = phase_label(f, rs)
    if not getattr(view_part(f.ruleset), "TURNS", True):
        return Turn(phase=phase, turns=False)  # everyone acts in every phase (nine-phase)
    people = shown(f)
    current = next((c for c in people if c.id == f.current), None)
    listed = [c for g in groups(f, rs, people) for c in g.people]  # Cosmere: its groups' order
    nxt = next_up(f, listed, zero_reading(f.ruleset))
    return Turn(phase, current.name if current else None, nxt.name if nxt else "")


def turn_text(f: Fight, rs: Ruleset) -> Text:
    """Whose turn and who is next, first."""
    turn = turn_of(f, rs)
    t = Text(end="")
    if turn.state:
        t.append(turn.state + ("…" if not f.started else ""), style="bold")
        return t
    if turn.phase:
        t.append(terminal_safe(turn.phase) + ("\n" if turn.turns else ""), style="bold")
    if not turn.turns:
        return t
    t.append("Now: ", style="dim")
    if turn.now is not None:
        t.append_text(literal(turn.now, "bold reverse"))
    else:
        t.append("—", style="dim")  # between turns, or a hidden combatant acting: nobody to show
    if turn.next:
        t.append("\nNext: ", style="dim")
        t.append_text(literal(turn.next, "bold"))
    return t


def big_scale(words: str, round_no: str, width: int, height: int) -> tuple[int, int]:
    """The scales of the headline and the round number for a screen of `width` x `height`: the same
    when both fit side by side, the headline no taller than a quarter of the screen. 0: not drawn
    big (the headline's letters are not all in the font, or it is too long)."""
    max_rows = max(4, height // 4)
    for scale in (3, 2, 1):
        room = width - 6 - bigtype.width(round_no, scale)
        spelled = bigtype.spellable(words)
        if spelled is not None and bigtype.rows(scale) <= max_rows and bigtype.width(spelled, scale) <= room:
            return scale, scale
    return 0, bigtype.fit(round_no, width // 3, max_rows)


def banner(words: str, scale: int, style: str) -> Text:
    spelled = bigtype.spellable(words) or ""
    return Text("\n".join(bigtype.draw(spelled, scale)), style=style, end="")


def big_turn(f: Fight, rs: Ruleset, width: int, height: int) -> tuple[Text, Text]:
    """For a big screen: the round in big digits, and who acts (or how the fight stands) in big
    letters with who is next under it; a name the font cannot draw is shown in plain bold."""
    turn = turn_of(f, rs)
    round_no = str(f.round)
    headline = turn.state or (turn.phase if not turn.turns else (turn.now or ""))
    scale, round_scale = big_scale(headline, round_no, width, height)
    label = "" if turn.state or not turn.turns else "NOW"
    if turn.phase and turn.turns:
        label += f"   {terminal_safe(turn.phase)}"
    t = Text(end="")  # (no base style: it would dim the letters appended to it)
    if label:
        t.append(label + "\n", style="bold dim")
    if scale:
        t.append_text(banner(headline, scale, "bold"))
    elif headline:
        t.append_text(literal(headline, "bold reverse"))
    else:
        t.append("—", style="dim")  # between turns, or a hidden combatant acting: nobody to show
    if turn.next:
        t.append("\n\nNext: ", style="bold dim")
        t.append_text(literal(turn.next, "bold"))
    r = Text(end="")
    r.append("ROUND\n", style="bold dim")
    r.append_text(banner(round_no, round_scale, "bold") if round_scale else Text(round_no, style="bold", end=""))
    return r, t


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
        self.words: dict[str, str] = {}  # widget id -> what its big letters spell
        self.big = False  # the round and who acts in big letters (a big screen)

    def show(self, wid: str, content: Text, words: str = "") -> None:
        self.query_one(f"#{wid}", Static).update(content)
        self.texts[wid] = content.plain
        self.words[wid] = words

    def compose(self) -> ComposeResult:
        with Horizontal(id="top"):
            with Vertical(id="round-box"):
                yield Static("ROUND", id="round-label")
                yield Digits("0", id="round")
                yield Static("", id="round-big")
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

    def draw_top(self, f: Fight, rs: Ruleset) -> None:
        """The round and whose turn: big letters on a big screen, else the round in digits."""
        w, h = self.size.width, self.size.height
        big = w >= BIG[0] and h >= BIG[1]
        if big != self.big:
            self.big = big
            self.screen.set_class(big, "big")
            self.call_after_refresh(self.redraw)  # the top's new height changes the order's
        if big:
            round_box, turn = big_turn(f, rs, w - 2, h)
            self.show("round-big", round_box, words=f"Round {f.round}")
            self.show("turn", turn, words=turn_text(f, rs).plain)
        else:
            self.query_one("#round", Digits).update(str(f.round))
            self.show("round-big", Text(""))
            self.show("turn", turn_text(f, rs))

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
        self.draw_top(f, rs)
        title = Text(end="")
        title.append_text(literal(f.name, "bold"))
        title.append(f"  ·  {terminal_safe(rs.title or rs.id)}", style="dim")
        self.show("title", title)
        self.show("order", order_text(f, rs, width, self.query_one("#order", Static).size.height, self.big))
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
    return "\n".join([*app.texts.values(), *(w for w in app.words.values() if w)])
