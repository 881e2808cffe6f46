"""Nine-phase: what the phase board shows, and the three kinds of duration the text defines.

Pure functions over the fight state, for the app: `board(f)` gives, per combatant, what happens in
each of the nine phases of the current round (acts, reactions, channels from their start through the
phases they span to where they resolve or were interrupted); `resolving(f, phase)` lists the channels
that complete in a phase. The duration helpers build the `Duration` a condition needs.
"""

from typing import Literal

import msgspec

from engine.errors import RuleError
from engine.rules.ninephase.clock import PHASES
from engine.state import Channel, Combatant, Duration, Fight

SECONDS_PER_ROUND = 6

ItemKind = Literal["act", "react", "begin", "channeling", "resolves", "interrupted", "dropped"]


class BoardItem(msgspec.Struct, frozen=True, gc=False):
    kind: ItemKind
    text: str


class BoardRow(msgspec.Struct, frozen=True, gc=False):
    who: str
    name: str
    cells: tuple[tuple[BoardItem, ...], ...]  # nine cells: phase 1 is cells[0]
    out: bool = False  # dropped in an earlier phase: acts no more


def phase_name(phase: int) -> str:
    """The first and the last phase are the text's System Phases."""
    return f"Phase {phase}" + (" (system)" if phase in (1, PHASES) else "")


def _channel_start(ch: Channel, p: int) -> list[BoardItem]:
    """A channel's starting phase: it begins (and says when it resolves), and is interrupted there
    too when a reaction stopped it in the phase it started."""
    when = f"phase {ch.end}" if ch.end <= PHASES else f"phase {ch.end - PHASES} next round"
    items = [BoardItem("begin", f"begins {ch.activity} (resolves in {when})")]
    if ch.status == "interrupted" and p == ch.at:
        # stopped in its starting phase (a reaction that says so): both show there
        items.append(BoardItem("interrupted", f"{ch.activity} interrupted"))
    return items


def _channel_item(ch: Channel, p: int) -> BoardItem:
    """A channel in a later phase it spans: interrupted there, resolving there, or channeling."""
    if ch.status == "interrupted" and p == ch.at:
        return BoardItem("interrupted", f"{ch.activity} interrupted")
    if p == ch.end:
        return BoardItem("resolves", f"{ch.activity} resolves")
    return BoardItem("channeling", f"channeling {ch.activity}")


def _add_channel(cells: list[list[BoardItem]], ch: Channel) -> None:
    """A channel from its start through the phases of this round it spans, to where it resolves or
    was interrupted."""
    last = ch.at if ch.status == "interrupted" else ch.end
    for p in range(max(ch.start, 1), min(last, PHASES) + 1):
        if p == ch.start and ch.start != ch.end:
            cells[p - 1].extend(_channel_start(ch, p))
        else:
            cells[p - 1].append(_channel_item(ch, p))


def _row(f: Fight, c: Combatant) -> BoardRow:
    """One combatant's nine phases: its acts and reactions, its channels, where it dropped."""
    cells: list[list[BoardItem]] = [[] for _ in range(PHASES)]
    for u in c.economy.phases:
        if 1 <= u.phase <= PHASES:
            cells[u.phase - 1].append(BoardItem("act" if u.kind == "act" else "react", u.activity))
    for ch in c.channels:
        _add_channel(cells, ch)
    if c.dropped is not None and c.dropped[0] == f.round and 1 <= c.dropped[1] <= PHASES and c.down:
        cells[c.dropped[1] - 1].append(BoardItem("dropped", "drops"))
    out = c.down and (c.dropped is None or c.dropped != (f.round, f.phase))
    return BoardRow(c.id, c.name, tuple(tuple(x) for x in cells), out)


def board(f: Fight) -> tuple[BoardRow, ...]:
    """Every combatant's nine phases of the current round."""
    return tuple(_row(f, c) for c in f.combatants)


def resolving(f: Fight, phase: int | None = None) -> tuple[tuple[str, str, str], ...]:
    """(combatant id, name, activity) of every channel under way that completes in `phase`
    (default: the current phase)."""
    p = f.phase if phase is None else phase
    return tuple(
        (c.id, c.name, ch.activity) for c in f.combatants for ch in c.channels if ch.status == "" and ch.end == p
    )


def window(start: int, cost: int) -> tuple[int, ...]:
    """The phases in which ordinary damage or a saving throw interrupts a channel begun in `start`
    costing `cost`: strictly between its start and its completion (same-phase events are
    adjudicated together with the start and the resolution)."""
    return tuple(range(start + 1, start + cost))


# --- durations --------------------------------------------------------------------------------


def _under_way(f: Fight) -> None:
    if not f.started or f.round < 1 or not 1 <= f.phase <= PHASES:
        raise RuleError("Durations are counted from a phase of a fight under way.")


def for_rounds(f: Fight, rounds: int) -> Duration:
    """An effect lasting `rounds` rounds ends at the end of the phase it took effect in, that many
    rounds later."""
    _under_way(f)
    if not 1 <= rounds <= 10_000:
        raise RuleError("A duration in rounds is between 1 and 10,000 rounds.")
    return Duration(kind="phase_end", round=f.round + rounds, phase=f.phase)


def for_time(f: Fight, seconds: int) -> Duration:
    """An effect measured in time (seconds, minutes, hours: give seconds) is tracked to the end of
    the round in which it would run out, counting a round as 6 seconds spread over its phases."""
    _under_way(f)
    if not 1 <= seconds <= 10_000 * SECONDS_PER_ROUND:
        raise RuleError("A duration in time is between 1 second and 60,000 seconds.")
    # in half-phases, to stay in integers: one second is 1.5 phases
    start = 2 * ((f.round - 1) * PHASES + (f.phase - 1))
    end = start + 3 * seconds
    return Duration(kind="round_end", round=end // (2 * PHASES) + 1)


def rest_of_round(f: Fight) -> Duration:
    """ "For the remainder of the round": ends at the end of this round, whatever the phase."""
    _under_way(f)
    return Duration(kind="round_end", round=f.round)
