"""The app's slice of each ruleset, by id: a ruleset's plugin (engine/plugins.py) names its slice
module, imported the first time the app asks for that slice (a slice module registers itself when
imported). main, views, panes, dialogs, help and the palette ask `get_ui`."""

from __future__ import annotations

from engine.plugins import default_id
from tui.rulesets.base import OPTIONAL, REGISTRY, Action, RulesetUI, UnknownRuleset, get_ui, register, registered

DEFAULT = default_id()  # the ruleset `fracas demo` and the start screen's new fight fall back on

__all__ = [
    "DEFAULT",
    "OPTIONAL",
    "REGISTRY",
    "Action",
    "RulesetUI",
    "UnknownRuleset",
    "get_ui",
    "register",
    "registered",
]
