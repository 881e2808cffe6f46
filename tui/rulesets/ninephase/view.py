"""Nine-phase on the players' view: the phase board (phases 1 to 9 with the current one marked) and
every channel under way of the combatants the players may see, with the phase it resolves in."""

from __future__ import annotations

from rich.text import Text

from engine.rules.ninephase.clock import PHASES
from engine.ruleset import Ruleset
from engine.state import Combatant, Fight
from tui.text import literal
from tui.views import phase_word

TURNS = False  # everyone acts in each phase: the view shows the phase, not whose turn it is


def phase_label(f: Fight) -> str:
    return f"Phase {f.phase} of 9" if 1 <= f.phase <= 9 else ""


def extra_lines(f: Fight, rs: Ruleset, people: list[Combatant]) -> list[Text]:
    out: list[Text] = []
    if f.started and not f.ended:
        board = Text("Phases ", style="bold", end="")
        for p in range(1, PHASES + 1):
            board.append(f" {p} ", style="bold reverse" if p == f.phase else ("dim" if p < f.phase else ""))
        out.append(board)
    for c in people:
        for ch in c.channels:
            if ch.status:  # resolved or interrupted: the log says so
                continue
            t = Text("  ~ ", style="cyan", end="")
            t.append_text(literal(c.name, "bold"))
            t.append(" channels ")
            t.append_text(literal(ch.activity, "cyan"))
            now = f.phase == ch.end
            t.append(f": resolves in phase {phase_word(ch.end, PHASES)}{' (now)' if now else ''}", style="dim")
            out.append(t)
    return out
