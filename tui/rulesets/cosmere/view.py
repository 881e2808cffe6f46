"""Cosmere on the players' view: the four phase groups (fast PCs, fast NPCs, slow PCs, slow NPCs, and
those still undecided), the one under way marked, with who has gone (see tui/view.py)."""

from __future__ import annotations

from engine.ruleset import Ruleset
from engine.state import Combatant, Fight
from tui.rulesets.cosmere import COSMERE_GROUPS, cosmere_group
from tui.view import Group


def groups(f: Fight, rs: Ruleset, people: list[Combatant]) -> list[Group]:
    """The same grouping as the GM's tracker, of the combatants the players may see."""
    buckets: list[list[Combatant]] = [[] for _ in COSMERE_GROUPS]
    for c in people:
        buckets[cosmere_group(c)].append(c)
    live = f.started and not f.ended
    out: list[Group] = []
    for i, title in enumerate(COSMERE_GROUPS):
        if not buckets[i]:
            continue
        # who has gone sinks to the bottom of its group, as in the GM's tracker
        members = sorted(buckets[i], key=lambda c: (bool(c.economy.done), -c.stat("speed"), -c.tiebreak))
        out.append(Group(title, tuple(members), now=live and i == f.phase))
    return out


def phase_label(f: Fight) -> str:
    if 0 <= f.phase < len(COSMERE_GROUPS) - 1:
        return COSMERE_GROUPS[f.phase]
    return ""
