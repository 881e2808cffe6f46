"""Plain list's plugin: what its entry point (`plainlist` in the group `fracas.rulesets`, in this
package's pyproject.toml) names. Everything about the ruleset, as engine/plugins.py lists it."""

from engine.plugins import Plugin
from plainlist.rules import COMMANDS, EVENTS, ID, PlainList

PLUGIN = Plugin(
    id=ID,
    ruleset=PlainList(),
    commands=COMMANDS,
    events=EVENTS,
    ui="plainlist.slice",
    demo="plainlist:demo.jsonl",
    demo_name="Plain Brawl",
    docs="plainlist:plainlist.md",
    examples="plainlist:commands.md",
    snapshot="plainlist:fight.jsonl",  # no golden script: a golden file is a file of an earlier Fracas
)
