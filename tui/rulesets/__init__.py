"""The app's slice of each ruleset, registered by id: one line each in SLICES (a slice module
registers itself when imported). main, views, panes, dialogs, help and the palette ask `get_ui`."""

from __future__ import annotations

import importlib

from tui.rulesets.base import OPTIONAL, REGISTRY, Action, RulesetUI, UnknownRuleset, get_ui, register, registered

# the slices shipped with the app, in the order the action table lists their rows
SLICES = ("tui.rulesets.cosmere", "tui.rulesets.d20", "tui.rulesets.ninephase", "tui.rulesets.warhammer")
DEFAULT = "d20"  # the ruleset `fracas demo` and the start screen's new fight fall back on

for _module in SLICES:
    importlib.import_module(_module)

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
