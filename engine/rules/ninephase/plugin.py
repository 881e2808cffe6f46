"""ninephase's plugin: what the entry point `ninephase` in pyproject.toml names (engine/plugins.py)."""

from engine.plugins import Plugin
from engine.rules.ninephase.ruleset import NinePhase

PLUGIN = Plugin(
    id="ninephase",
    ruleset=NinePhase(),
    ui="tui.rulesets.ninephase",
    order=0,
    kind="engine.library.ninephase",
    bestiary="engine.library:bestiary/ninephase.toml",
    demo="saves:demos/ninephase.jsonl",
    demo_name="The Orc Ford",
    docs="engine:../docs/rules/ninephase.md",  # docs/ is in the source tree only
    examples="engine:../docs/commands.md",
    golden="engine:../tests/saves/scripts/ninephase.jsonl",  # the tests are in the source tree only
    snapshot="engine:../tests/tui/fights/ninephase.jsonl",
)
