"""cosmere's plugin: what the entry point `cosmere` in pyproject.toml names (engine/plugins.py)."""

from engine.plugins import bundled
from engine.rules.cosmere.ruleset import Cosmere

PLUGIN = bundled("cosmere", Cosmere(), "Skirmish on the Shattered Plains")
