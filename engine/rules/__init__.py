"""The engine's rulesets, registered by id: one line each. A ruleset living elsewhere registers
itself the same way (`engine.register_ruleset`), with its own command and event types."""

from engine.rules.cosmere import Cosmere
from engine.rules.d20 import D20
from engine.rules.ninephase import NinePhase
from engine.rules.warhammer import Warhammer
from engine.ruleset import REGISTRY, Ruleset, get_ruleset, register_ruleset, ruleset_ids

# in this order: the start screen and `fracas` list them so
register_ruleset(Cosmere())
register_ruleset(D20())
register_ruleset(NinePhase())
register_ruleset(Warhammer())

__all__ = ["REGISTRY", "Ruleset", "get_ruleset", "register_ruleset", "ruleset_ids"]
