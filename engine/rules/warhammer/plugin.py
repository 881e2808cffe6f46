"""warhammer's plugin: what the entry point `warhammer` in pyproject.toml names (engine/plugins.py)."""

from engine.plugins import bundled
from engine.rules.warhammer.ruleset import Warhammer

PLUGIN = bundled("warhammer", Warhammer(), "Troll Bridge")
