"""Cosmere's app slice: its tracker (grouped by the four phases of fast and slow turns), its actions
and its form hints. Its dialogs are in tui/rulesets/cosmere/dialogs.py."""

from __future__ import annotations

from rich.text import Text

from engine.rules.cosmere.combat import is_boss
from engine.ruleset import Ruleset
from engine.state import Combatant, Fight
from tui.rows import Now, live
from tui.rulesets.base import Action, RulesetUI, load, register
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
DIALOGS_ROUND = "tui.rulesets.cosmere.round"


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
            "round_speeds",
            "F",
            "round_speeds",
            "Fast for the round",
            "Choose who goes fast this round",
            "Tick who goes fast this round, the rest slow: the prompt each round opens with (Cosmere)",
            show=False,
            after="use",
            enabled=live,
            offer="fast_slow",
            dialog=f"{DIALOGS_ROUND}:round_speeds",
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

    def owes(self, f: Fight) -> bool:
        # the prompter is made as the fight opens (not when a round begins), so it knows which
        # round starts are news: those a command just made
        return bool(f.combatants) and not f.ended or super().owes(f)

    def owed_prompter(self) -> object:
        return load(f"{DIALOGS_ROUND}:RoundPrompter")()  # the dialogs: loaded once a fight opens

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

        def line(c: Combatant) -> Row:
            return cached_row(
                f, c, st, width, actors, None, lambda: combatant_row(f, c, cols, name_w, badge_w, actors, st)
            )

        groups: list[list[Combatant]] = [[] for _ in TRACKER_GROUPS]
        for c in f.combatants:
            groups[tracker_group(c)].append(c)
        live_now = f.started and not f.ended
        for i, members in enumerate(groups):
            if not members and not (live_now and i == f.phase // 2 and i < 2):
                continue  # an empty group is a line the 80x24 tracker cannot spare
            now = live_now and i < 2 and i == f.phase // 2
            head = span(group_title(f, i, now), st["group-current" if now else "group"])
            head.append("─" * max(0, width - head.cell_len), style=st["group-current" if now else "group"])
            out.append(Row(None, head))
            out.extend(line(c) for c in sink_down(members))
        return out


# the tracker's groups: a speed's PCs come before its NPCs (their phases), so one heading a speed
# spares two lines at 80x24; the players' view keeps the four phases (COSMERE_GROUPS)
TRACKER_GROUPS = ("Fast turns", "Slow turns", "Undecided")


def tracker_group(c: Combatant) -> int:
    if not c.economy.speed and is_boss(c):
        return 0  # a boss's fast turn comes unasked (its slow one after)
    return {"fast": 0, "slow": 1}.get(c.economy.speed, 2)


def group_title(f: Fight, i: int, now: bool) -> str:
    if i == 2:
        return "── Undecided: F ticks who goes fast; n makes them slow " if f.started else "── Undecided "
    if not now:
        return f"── {TRACKER_GROUPS[i]}: PCs, then NPCs "
    part = "PCs" if f.phase % 2 == 0 else "NPCs"
    return f"── {TRACKER_GROUPS[i]} (now: {part}) "


def sink_down(members: list[Combatant]) -> list[Combatant]:
    """A group's rows in order: PCs first, then by Speed and the d20, who has gone below who has
    not, and the down NPCs at the bottom, so fallen minions do not push the PCs off an 80x24
    screen. Each keeps a row of its own (a GM heals or removes a fallen minion by selecting it);
    a down PC keeps its place among the PCs."""
    return sorted(
        members,
        key=lambda c: (c.down and c.kind != "pc", c.kind != "pc", c.economy.done, -c.stat("speed"), -c.tiebreak),
    )


register(CosmereUI())
