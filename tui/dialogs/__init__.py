"""The dialogs: each builds one command (or a small batch) from what the GM typed.

Bad input never leaves the dialog: a value that does not parse, or a command the engine refuses
(RuleError), is shown in the dialog's message line and the dialog stays open with what was typed.
Enter in any text field applies, ctrl+s applies from anywhere, escape cancels. Imported on first use,
so none of this costs anything at start-up.

One module per section: forms (parsing what was typed), fields (the choosers), base (the dialog
itself), health, conditions, combatants, order (start and initiative), acting (use, rules rolls),
simple (dice, resources, notes) and table (the dice the table rolls). The names the rest of the app
and the rulesets' dialogs use are here too. The combatant forms (combatants: add, edit) read the
library and the user's bestiary, a tenth of a second of imports: that module loads when one of its
names is first asked for, not with the first dialog opened."""

from __future__ import annotations

from tui.dialogs.acting import ActingDialog, RulesDialog, UseDialog, acting_user, cannot_act
from tui.dialogs.base import Dialog, combatant_options, field, name_of, picker_order, row
from tui.dialogs.conditions import (
    ConditionDialog,
    RemoveConditionDialog,
    condition_matches,
    conditions_used,
    rank_conditions,
)
from tui.dialogs.fields import CatalogSearch, Choice, Field, LibrarySearch, Tick
from tui.dialogs.forms import (
    SIDE_KEYS,
    SIDE_WORDS,
    FormError,
    amount_or_dice,
    dice_average,
    initiative_shown,
    initiative_unit,
    number_or_dice,
    optional_int,
    parse_given,
    parse_int,
    rolls_owed,
    table_rolls,
    typed_initiative,
    words,
)
from tui.dialogs.health import HealthDialog
from tui.dialogs.order import InitiativeDialog, StartDialog, TypedInitiative
from tui.dialogs.simple import NoteDialog, ResourceDialog, RollDialog
from tui.dialogs.table import DiceSettingDialog, TableRollsDialog, send

_LAZY = {"AddDialog", "EditDialog", "split_count"}  # tui.dialogs.combatants


def __getattr__(name: str) -> object:
    if name in _LAZY:
        from tui.dialogs import combatants  # the add and edit forms: loaded when first opened

        return getattr(combatants, name)
    raise AttributeError(f"module 'tui.dialogs' has no attribute {name!r}")


__all__ = [
    "SIDE_KEYS",
    "SIDE_WORDS",
    "ActingDialog",
    "AddDialog",
    "CatalogSearch",
    "Choice",
    "ConditionDialog",
    "Dialog",
    "DiceSettingDialog",
    "EditDialog",
    "Field",
    "FormError",
    "HealthDialog",
    "InitiativeDialog",
    "LibrarySearch",
    "NoteDialog",
    "RemoveConditionDialog",
    "ResourceDialog",
    "RollDialog",
    "RulesDialog",
    "StartDialog",
    "TableRollsDialog",
    "Tick",
    "TypedInitiative",
    "UseDialog",
    "acting_user",
    "amount_or_dice",
    "cannot_act",
    "combatant_options",
    "condition_matches",
    "conditions_used",
    "dice_average",
    "field",
    "initiative_shown",
    "initiative_unit",
    "name_of",
    "number_or_dice",
    "optional_int",
    "parse_given",
    "parse_int",
    "picker_order",
    "rank_conditions",
    "rolls_owed",
    "row",
    "send",
    "split_count",
    "table_rolls",
    "typed_initiative",
    "words",
]
