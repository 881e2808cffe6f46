"""Nine-phase: the whole ruleset. `ruleset` holds the phases and the economy, `catalog` the activities
and channels, `board` the phase board."""

from engine.rules.ninephase.ruleset import NinePhase

__all__ = ["NinePhase"]
