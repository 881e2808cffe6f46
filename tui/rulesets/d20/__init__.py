"""d20's app slice: its tracker row, its actions and its form hints. Its dialogs
are in tui/rulesets/d20/dialogs.py, imported when one opens."""

from __future__ import annotations

from engine.ruleset import Ruleset
from engine.state import Fight
from tui.rows import under_way
from tui.rulesets.base import Action, RulesetUI, register
from tui.views import Column, Row, Styles, economy_cell, health_cell, init_cell, list_rows, name_cell, stat_cell

DIALOGS = "tui.rulesets.d20.dialogs"


COLUMNS = [
    Column("Init", 4, init_cell, right=True),
    Column("Name", 0, name_cell),
    Column("HP", 10, health_cell),
    Column("AC", 3, stat_cell("ac"), right=True),
    Column("Turn", 7, economy_cell),
]


class D20UI(RulesetUI):
    id = "d20"
    common_conditions = (
        "Concentrating", "Prone", "Frightened", "Poisoned", "Grappled", "Restrained", "Stunned",
        "Blinded", "Charmed", "Hidden", "Incapacitated", "Unconscious", "Bleeding", "Burning",
        "Slowed", "Marked", "Helped", "Deafened", "Disarmed", "Confused", "Concealed",
    )
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
            engine=True,
            dialog=f"{DIALOGS}:settle_owed",
        ),
        Action(
            "ready",
            None,
            "ready",
            "Ready",
            "Ready an action",
            "Spend the action to hold another for a trigger (d20)",
            after="attack",
            enabled=under_way,  # the engine also asks for an action left: its check would change the footer
            dialog=f"{DIALOGS}:D20ReadyDialog",
        ),
        Action(
            "release",
            None,
            "release",
            "Release",
            "Take the readied action",
            "The trigger came: the readied action, spending the reaction (d20)",
            after="attack",
            enabled=under_way,
            dialog=f"{DIALOGS}:D20ReleaseDialog",
        ),
    )
    dialogs = {"attack": f"{DIALOGS}:D20AttackDialog", "use": f"{DIALOGS}:D20UseDialog"}

    start_hint = "Initiative: d20 + Dex modifier. Leave a die blank and the app rolls it."
    companions = True
    damage_types = True
    condition_dice = True  # Bleeding, Burning: damage at the start of a turn
    flag_hint = "e.g. caster (comma separated)"
    initiative_title = "Initiative"
    sheet_initiative = "Initiative "

    def tracker_rows(self, f: Fight, rs: Ruleset, width: int, st: Styles) -> list[Row]:
        return list_rows(f, rs, COLUMNS, width, st)

    def owed_prompter(self) -> object:
        from tui.rulesets.d20.dialogs import OwedPrompter  # loaded once a roll is owed

        return OwedPrompter()


register(D20UI())
