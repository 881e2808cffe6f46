"""cosmere's plugin: what the entry point `cosmere` in pyproject.toml names (engine/plugins.py)."""

from engine.plugins import Plugin
from engine.rules.cosmere.ruleset import Cosmere

PLUGIN = Plugin(
    id="cosmere",
    ruleset=Cosmere(),
    ui="tui.rulesets.cosmere",
    order=0,
    kind="engine.library.cosmere",
    bestiary="engine.library:bestiary/cosmere.toml",
    demo="saves:demos/cosmere.jsonl",
    demo_name="Skirmish on the Shattered Plains",
    docs="engine:../docs/rules/cosmere.md",  # docs/ is in the source tree only
    examples="engine:../docs/commands.md",
    golden="engine:../tests/saves/scripts/cosmere.jsonl",  # the tests are in the source tree only
    snapshot="engine:../tests/tui/fights/cosmere.jsonl",
)
