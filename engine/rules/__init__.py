"""The engine's rulesets: each plugin's (engine/plugins.py, found through the `fracas.rulesets` entry
points) registered by id, in listing order. Nothing here names one."""

from engine.plugins import plugins
from engine.ruleset import REGISTRY, Ruleset, get_ruleset, register_ruleset, ruleset_ids

for _plugin in plugins():
    register_ruleset(_plugin.ruleset, commands=_plugin.commands, events=_plugin.events)

__all__ = ["REGISTRY", "Ruleset", "get_ruleset", "register_ruleset", "ruleset_ids"]
