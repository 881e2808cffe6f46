"""Cosmere's app slice: its tracker (grouped by the four phases of fast and slow turns), its actions
and its form hints. Its dialogs are in tui/rulesets/cosmere/dialogs.py."""

from __future__ import annotations

from rich.text import Text

from engine.ruleset import Ruleset
from engine.state import Combatant, Fight
from tui.rows import Now, live
from tui.rulesets.base import Action, RulesetUI, register
from tui.text import span
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
    resource_cell,
)

DIALOGS = "tui.rulesets.cosmere.dialogs"


def pace_cell(f: Fight, c: Combatant, st: Styles) -> Text:
    s = c.economy.speed
    return span({"fast": "fast", "slow": "slow"}.get(s, "?"), st["pip"] if s else st["warn"])


COSMERE_GROUPS = ("Fast PC turns", "Fast NPC turns", "Slow PC turns", "Slow NPC turns", "Undecided")


def cosmere_group(c: Combatant) -> int:
    """Which of the five groups a combatant shows in: its phase once it has chosen, else undecided."""
    s = c.economy.speed
    if not s:
        return 4
    return (0 if s == "fast" else 2) + (0 if c.kind == "pc" else 1)


def may_choose(n: Now) -> bool:
    """Choosing a pace, or taking the turn now: one that has not acted yet and is not acting."""
    c = n.selected
    return live(n) and c is not None and not c.economy.done and n.fight.current != c.id


class CosmereUI(RulesetUI):
    id = "cosmere"
    common_conditions = ("Slowed", "Prone", "Braced", "Squeezing", "Surprised")
    offers = frozenset({"use", "attack"})
    actions = (
        # the commands with no key of their own: from the palette
        Action(
            "fall",
            None,
            "fall",
            "Fall",
            "Fall",
            "The selected combatant falls: 1d6 impact per 10 ft, Prone (Cosmere)",
            after="attack",
            engine=True,
            dialog=f"{DIALOGS}:CosmereFallDialog",
        ),
        Action(
            "terrain",
            None,
            "terrain",
            "Terrain",
            "Move into dangerous terrain",
            "Its damage now and at the start of each turn there, until the condition is removed (Cosmere)",
            after="attack",
            engine=True,
            dialog=f"{DIALOGS}:CosmereTerrainDialog",
        ),
        Action(
            "grant",
            None,
            "grant",
            "Grant",
            "Grant extra actions or reactions",
            "A talent or effect grants more actions (on its own turn) or reactions (Cosmere)",
            after="attack",
            engine=True,
            dialog=f"{DIALOGS}:CosmereGrantDialog",
        ),
        Action(
            "speed",
            "f",
            "speed",
            "Fast/slow",
            "Choose fast or slow",
            "Choose a fast or slow turn for this round (Cosmere)",
            after="use",
            selection=True,
            enabled=may_choose,
            offer="fast_slow",
            dialog=f"{DIALOGS}:SpeedDialog",
        ),
        Action(
            "take_turn",
            "g",
            "take_turn",
            "Go now",
            "Take the turn now",
            "The selected combatant takes its turn now (Cosmere)",
            show=False,
            after="use",
            selection=True,
            enabled=may_choose,
            dialog=f"{DIALOGS}:take_turn",
        ),
    )
    dialogs = {"attack": f"{DIALOGS}:CosmereAttackDialog"}

    start_hint = "A d20 per combatant breaks ties of Speed. Leave blank and the app rolls it."
    use_choices = (("Action", "action"), ("Free action", "free"), ("Reaction", "reaction"))
    use_name_hint = "Strike, Move, Reactive Strike, ... (optional)"
    use_cost = True

    def tracker_rows(self, f: Fight, rs: Ruleset, width: int, st: Styles) -> list[Row]:
        cols = [
            Column("Pace", 4, pace_cell),
            Column("Name", 0, name_cell),
            Column("Health", 10, health_cell),
            Column("Focus", 5, resource_cell("focus")),
            Column("Turn", 5, economy_cell),
        ]
        name_w, badge_w = layout(cols, width)
        actors = frozenset(rs.actors(f)) if f.started and not f.ended else frozenset()
        out = [Row(None, header_row(cols, name_w, badge_w, st))]
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
                    cached_row(
                        f,
                        c,
                        st,
                        width,
                        actors,
                        None,
                        lambda c=c: combatant_row(f, c, cols, name_w, badge_w, actors, st),
                    )
                )
        return out


register(CosmereUI())
