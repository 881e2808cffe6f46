"""Fracas's pure engine: frozen fight state, commands, events, dice, rules and history.

No textual, no rich, no file I/O here: the app and the save files build on this.
"""

# registered on import: the commands on several targets, and those using a statblock's abilities
from engine import area, uses  # noqa: F401
from engine.commands import Command, command_union
from engine.core import apply, new_fight
from engine.errors import RuleError
from engine.events import Event, describe, event_union
from engine.history import History
from engine.rules import REGISTRY
from engine.ruleset import Ruleset, get_ruleset, register_ruleset, ruleset_ids
from engine.state import Combatant, Fight
from engine.validate import validate_fight

__all__ = [
    "REGISTRY",
    "Combatant",
    "Command",
    "Event",
    "Fight",
    "History",
    "RuleError",
    "Ruleset",
    "apply",
    "command_union",
    "event_union",
    "describe",
    "get_ruleset",
    "new_fight",
    "register_ruleset",
    "ruleset_ids",
    "validate_fight",
]
