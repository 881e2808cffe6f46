"""Cosmere: the whole ruleset. `ruleset` holds fast and slow turns and the economy, `combat` the
attacks, hazards and grants."""

from engine.rules.cosmere.ruleset import Cosmere

__all__ = ["Cosmere"]
