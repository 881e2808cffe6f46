"""warhammer's plugin: what the entry point `warhammer` in pyproject.toml names (engine/plugins.py)."""

from engine.plugins import Plugin
from engine.rules.warhammer.ruleset import Warhammer

PLUGIN = Plugin(
    id="warhammer",
    ruleset=Warhammer(),
    ui="tui.rulesets.warhammer",
    order=0,
    kind="engine.library.warhammer",
    bestiary="engine.library:bestiary/warhammer.toml",
    demo="saves:demos/warhammer.jsonl",
    demo_name="Troll Bridge",
    docs="engine:../docs/rules/warhammer.md",  # docs/ is in the source tree only
    examples="engine:../docs/commands.md",
    golden="engine:../tests/saves/scripts/warhammer.jsonl",  # the tests are in the source tree only
    snapshot="engine:../tests/tui/fights/warhammer.jsonl",
)
