"""d20's plugin: what the entry point `d20` in pyproject.toml names (engine/plugins.py)."""

from engine.plugins import Plugin
from engine.rules.d20.ruleset import D20

PLUGIN = Plugin(
    id="d20",
    ruleset=D20(),
    ui="tui.rulesets.d20",
    order=0,
    default=True,  # `fracas demo` and a new fight fall back on it
    kind="engine.library.d20",
    bestiary="engine.library:bestiary/d20.toml",
    demo="saves:demos/d20.jsonl",
    demo_name="Ambush on the Old Road",
    docs="engine:../docs/rules/d20.md",  # docs/ is in the source tree only
    examples="engine:../docs/commands.md",
    golden="engine:../tests/saves/scripts/d20.jsonl",  # the tests are in the source tree only
    snapshot="engine:../tests/tui/fights/d20.jsonl",
)
