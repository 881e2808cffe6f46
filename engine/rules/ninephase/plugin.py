"""ninephase's plugin: what the entry point `ninephase` in pyproject.toml names (engine/plugins.py)."""

from engine.plugins import bundled
from engine.rules.ninephase.ruleset import NinePhase

PLUGIN = bundled("ninephase", NinePhase(), "The Orc Ford")
