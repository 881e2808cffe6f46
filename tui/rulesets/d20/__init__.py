"""d20's app slice: its tracker row, its sheet's turn line, its actions and its form hints. Its dialogs
are in tui/rulesets/d20/dialogs.py, imported when one opens."""

from __future__ import annotations

from rich.text import Text

from engine.rules.d20.combat import effective_speed, incapacitated, movement_left
from engine.ruleset import Ruleset
from engine.state import Combatant, Fight
from tui.panes import yes_line
from tui.rulesets.base import Action, RulesetUI, register
from tui.text import literal
from tui.views import Column, Row, Styles, flag, health_cell, init_cell, list_rows, name_cell, stat_cell

DIALOGS = "tui.rulesets.d20.dialogs"


def econ_cell(f: Fight, c: Combatant, st: Styles) -> Text:
    e = c.economy
    mine = f.current == c.id
    t = Text(end="")
    for label, v in (("A", e.actions), ("B", e.bonus)):
        t.append_text(flag(label, mine and v > 0, st))
        t.append(" ")
    # the move is bright while feet of it are left (a move can be split around the action)
    t.append_text(flag("M", mine and movement_left(c) > 0, st))
    t.append(" ")
    # a reaction barred by a condition (not spent) is dim too: it cannot be used now
    t.append_text(flag("R", e.reactions > 0 and not incapacitated(c) and not c.has("Confused"), st))
    return t


COLUMNS = [
    Column("Init", 4, init_cell, right=True),
    Column("Name", 0, name_cell),
    Column("HP", 10, health_cell),
    Column("AC", 3, stat_cell("ac"), right=True),
    Column("Turn", 7, econ_cell),
]


def _move(t: Text, c: Combatant, st: Styles) -> None:
    """The feet of movement left this turn, of the turn's whole movement (Dash adds the speed,
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


class D20UI(RulesetUI):
    id = "d20"
    offers = frozenset({"use", "attack", "initiative"})
    actions = (
        Action(
            "owed",
            None,
            "owed",
            "Owed",
            "Settle an owed roll",
            "A save the rules made due (concentration, Confused): roll it, enter it or waive it",
            after="attack",
        ),
        Action(
            "ready",
            None,
            "ready",
            "Ready",
            "Ready an action",
            "Spend the action to hold another for a trigger (d20)",
            after="attack",
        ),
        Action(
            "release",
            None,
            "release",
            "Release",
            "Take the readied action",
            "The trigger came: the readied action, spending the reaction (d20)",
            after="attack",
        ),
    )
    dialogs = {
        "attack": f"{DIALOGS}:D20AttackDialog",
        "use": f"{DIALOGS}:D20UseDialog",
        "ready": f"{DIALOGS}:D20ReadyDialog",
        "release": f"{DIALOGS}:D20ReleaseDialog",
    }

    engine_checked = frozenset({"owed"})  # ready, release: the engine also asks for an action left

    start_hint = "Initiative: d20 + Dex modifier. Leave a die blank and the app rolls it."
    companions = True
    damage_types = True
    condition_dice = True  # Bleeding, Burning: damage at the start of a turn
    flag_hint = "e.g. caster (comma separated)"
    initiative_title = "Initiative"
    sheet_initiative = "Initiative "

    def tracker_rows(self, f: Fight, rs: Ruleset, width: int, st: Styles) -> list[Row]:
        return list_rows(f, rs, COLUMNS, width, st)

    def economy_text(self, f: Fight, rs: Ruleset, c: Combatant, st: Styles) -> Text:
        e = c.economy
        t = Text(end="")
        if f.current == c.id:
            yes_line(t, "Action", e.actions > 0, st)
            yes_line(t, "Bonus", e.bonus > 0, st)
            _move(t, c, st)
            yes_line(t, "Gambit", e.gambit > 0, st, "can declare", "past")
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
            yes_line(t, "Reaction", e.reactions > 0, st)
        if e.dodging:
            t.append("Dodging   ", style=st["pip"])
        if e.ready:
            t.append("Readied: ", style=st["header"])
            t.append_text(literal(e.ready))
        return t

    def owed_prompter(self) -> object:
        from tui.rulesets.d20.dialogs import OwedPrompter  # loaded once a roll is owed

        return OwedPrompter()


register(D20UI())
