"""The app slice of Plain list (plainlist/rules.py): its tracker row, its sheet's turn line, its own
action (Shove, key `l`) and the dialog that action opens (plainlist/dialogs.py, imported when it
opens). Its plugin names this module; the app imports it when it first needs the slice, and it
registers itself."""

from __future__ import annotations

from rich.text import Text

from engine.ruleset import Ruleset
from engine.state import Combatant, Fight
from plainlist.rules import ID
from tui.rulesets import Action, RulesetUI, register
from tui.views import Column, Row, Styles, economy_cell, health_cell, init_cell, list_rows, name_cell

COLUMNS = [
    Column("Init", 4, init_cell, right=True),
    Column("Name", 0, name_cell),
    Column("HP", 9, health_cell),
    Column("Acts", 4, economy_cell),
]


class PlainListUI(RulesetUI):
    id = ID
    offers = frozenset({"use", "initiative"})
    actions = (
        Action(
            "shove",
            "l",  # a key no generic action has (a clash is refused)
            "shove",
            "Shove",
            "Shove someone Prone",
            "The acting combatant spends its action to knock another one Prone (Plain list)",
            after="use",
            engine=True,  # exactly when PlainList.rules_actions offers it
            dialog="plainlist.dialogs:ShoveDialog",
        ),
    )

    start_hint = "Initiative: each combatant's Initiative stat, highest first (ties in the order added)."
    start_rolls = False
    initiative_title = "Initiative"
    sheet_initiative = "Initiative "
    use_choices = (("Action", "action"), ("Reaction", "reaction"))
    use_name_hint = "what it does (optional)"

    def tracker_rows(self, f: Fight, rs: Ruleset, width: int, st: Styles) -> list[Row]:
        return list_rows(f, rs, COLUMNS, width, st)

    def economy_text(self, f: Fight, rs: Ruleset, c: Combatant, st: Styles) -> Text:
        return Text("Plain list turn: " + rs.describe_economy(c), end="")


register(PlainListUI())
