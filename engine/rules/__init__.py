"""The four rulesets, registered by id when this package is imported."""

from engine.rules import cosmere, d20, ninephase, warhammer  # noqa: F401
from engine.rules.base import REGISTRY, Ruleset, get_ruleset

__all__ = ["REGISTRY", "Ruleset", "get_ruleset"]
