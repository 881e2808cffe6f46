"""d20's plugin: what the entry point `d20` in pyproject.toml names (engine/plugins.py)."""

from engine.plugins import bundled
from engine.rules.d20.ruleset import D20

PLUGIN = bundled("d20", D20(), "Ambush on the Old Road", default=True)  # `fracas demo` and a new fight fall back on it
