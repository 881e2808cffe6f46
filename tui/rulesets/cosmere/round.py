"""Cosmere's prompt at each round's start: one key per combatant ticks who goes fast, enter sends
the round's choices (the rest slow) as one command, so nobody goes slow without the GM seeing it.
Imported when the prompt opens (or F opens it by hand)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.widget import Widget

from engine import get_ruleset
from engine.commands import Command
from engine.history import History
from engine.rules.cosmere import combat
from engine.rules.cosmere.commands import ChooseSpeeds
from engine.state import Combatant, Fight
from tui.dialogs import Dialog, FormError, row
from tui.recharge import OwedPrompter
from tui.text import literal

if TYPE_CHECKING:
    from tui.main import MainScreen

# a key per combatant: the digits, then the letters (none of them is one of the dialog's own keys)
PICK_KEYS = "123456789abcdefghijklmnopqrstuvwxyz"


def candidates(f: Fight) -> list[Combatant]:
    """Who may still be ticked fast or slow now: up, not acting, not done, not a boss (it takes both
    turns), and whose fast turns are not over; PCs first, then by Speed as the turns go."""
    rs = get_ruleset(f.ruleset)
    out = [
        c
        for c in f.combatants
        if not c.down and not combat.is_boss(c) and not rs.choose_refusal(f, c, "fast")  # type: ignore[attr-defined]
    ]
    out.sort(key=lambda c: (c.kind != "pc", -c.stat("speed"), -c.tiebreak))
    return out[: len(PICK_KEYS)]


def at_round_start(f: Fight) -> bool:
    """The round has begun and nobody has acted or chosen yet: the moment the prompt is for."""
    if not f.started or f.ended or f.phase != 0 or f.current:
        return False
    if any(c.economy.done for c in f.combatants):
        return False
    return any(not c.economy.speed for c in candidates(f))


class FastPicker(Widget, can_focus=True):
    """The combatants, one line each: its key (or space on the highlighted one) ticks it fast; up and
    down move; the highlighted line is marked with ▸, the ticked with X (no colour needed). Keys are
    handled here as they come, so a burst ("1 3 enter") ticks exactly what was typed."""

    DEFAULT_CSS = """
    FastPicker { height: auto; width: 1fr; background: $boost; }
    FastPicker:focus { background-tint: $primary 10%; }
    """

    def __init__(self, people: list[Combatant], fast: set[str], *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.people = people
        self.fast = {c.id for c in people if c.id in fast}
        self.cursor = 0

    def render(self) -> Text:
        t = Text(end="")
        for i, c in enumerate(self.people):
            if i:
                t.append("\n")
            mark = "▸" if i == self.cursor and self.has_focus else " "
            ticked = c.id in self.fast
            side = "PC" if c.kind == "pc" else ("ally" if c.side == "party" else "NPC")
            t.append(f"{mark} [{'X' if ticked else ' '}] {PICK_KEYS[i]}  ")
            t.append_text(literal(c.name))
            t.append(f" ({side}) ", style="dim")
            t.append("fast, 2 actions" if ticked else "slow, 3 actions", style="bold" if ticked else "")
        return t

    def toggle(self, i: int) -> None:
        cid = self.people[i].id
        self.fast.symmetric_difference_update({cid})
        self.cursor = i
        self.refresh(layout=True)

    def on_key(self, event: events.Key) -> None:
        ch = event.character or ""
        n = len(self.people)
        if event.key in ("up", "down") and n:
            self.cursor = (self.cursor + (1 if event.key == "down" else -1)) % n
        elif event.key == "space" and n:
            self.toggle(self.cursor)
        elif len(ch) == 1 and ch.lower() in PICK_KEYS[:n]:
            self.toggle(PICK_KEYS.index(ch.lower()))
        else:
            return
        event.stop()
        event.prevent_default()
        self.refresh()

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()


class RoundSpeedsDialog(Dialog):
    """Who goes fast this round: ticked fast, the rest slow, one command (one undo step)."""

    OK = "Choose"
    HINT = "1-9: tick fast · up/down, space · enter: the rest slow · esc: later"
    RAISED = True  # the fight raised it: undo and redo close it and step

    def __init__(self, fast: set[str] | None = None) -> None:
        super().__init__()
        self.preset = fast or set()

    def heading(self) -> Text:
        f = self.fight
        return Text(f"Round {f.round}: who goes fast? (before the other side; the rest go slow)")

    def fields(self) -> ComposeResult:
        people = candidates(self.fight)
        chosen = {c.id for c in people if c.economy.speed == "fast"} | self.preset
        yield row("Fast this round", FastPicker(people, chosen, id="fast"))

    def on_mount(self) -> None:
        self.query_one(FastPicker).focus()

    def build(self) -> Command:
        picker = self.query_one(FastPicker)
        if not picker.people:
            raise FormError("Nobody can still choose fast or slow this round.")
        fast = tuple(c.id for c in picker.people if c.id in picker.fast)
        slow = tuple(c.id for c in picker.people if c.id not in picker.fast)
        return ChooseSpeeds(fast=fast, slow=slow)


def round_speeds(screen: Any, who: str) -> RoundSpeedsDialog | None:
    """F: the round's prompt by hand (escaped earlier, or to change the choices before anyone acts)."""
    if not candidates(screen.fight):
        screen.fracas.tell("Nobody can still choose fast or slow this round.")
        return None
    return RoundSpeedsDialog()


def began_round(h: History) -> bool:
    """Whether the command that made the current state began a round (started the fight or moved
    to the next round): a choice made with f at the round's start is not news, so escaping the
    prompt sticks until the next round."""
    node = h.nodes[h.cursor]
    if node.parent < 0:
        return False
    before = h.nodes[node.parent].state
    return node.state.started and (not before.started or node.state.round != before.round)


class RoundPrompter(OwedPrompter):
    """The owed recharge rolls, as in every ruleset, and the round's prompt: raised once when a
    command just applied begins a round (not on opening a fight, nor on an undo or a redo). Who went
    fast last round is ticked to begin with: the same choices again are just enter."""

    def __init__(self) -> None:
        super().__init__()
        self.history: History | None = None
        self.seen = 0  # the history's node count at the last look
        self.last_fast: set[str] = set()

    def check(self, screen: MainScreen, force: bool = False) -> None:
        app = screen.app
        if app.screen is not screen:
            return  # a dialog is up: asked again when the main screen is back on top
        super().check(screen, force)
        session = screen.fracas.session
        if session is None or app.screen is not screen:
            return
        f = screen.fight
        fast = {c.id for c in f.combatants if c.economy.speed == "fast"}
        if fast:
            self.last_fast = fast
        h = session.history
        if h is not self.history:
            self.history, self.seen = h, len(h.nodes)  # what was there when the fight opened is not news
            return
        began = h.cursor >= self.seen and began_round(h)
        self.seen = len(h.nodes)
        if began and at_round_start(f):
            screen.fracas.expect_dialog()
            app.push_screen(RoundSpeedsDialog(self.last_fast))
