"""The app slice of Plain list (tests/fifth/plainlist.py): its tracker row, its sheet's turn line, its
own action (Shove, key `S`: `b` is the generic hide key, which registration refuses) and the dialog
that action opens (tests/fifth/dialogs.py, imported when it opens). Registered by
tests/fifth/conftest.py with `tui.rulesets.register(PlainListUI())`."""

from __future__ import annotations

from rich.text import Text

from engine.ruleset import Ruleset
from engine.state import Combatant, Fight
from tests.fifth.plainlist import ID
from tui.rulesets import Action, RulesetUI
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
            "S",
            "shove",
            "Shove",
            "Shove someone Prone",
            "The acting combatant spends its action to knock another one Prone (Plain list)",
            after="use",
            engine=True,  # exactly when PlainList.rules_actions offers it
            dialog="tests.fifth.dialogs:ShoveDialog",
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
