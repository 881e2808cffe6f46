"""Warhammer: the whole ruleset. `ruleset` holds initiative, Fortune and the economy, `combat` the
attack sequence, criticals and the minions' table."""

from engine.rules.warhammer.ruleset import Warhammer

__all__ = ["Warhammer"]
