"""d20: the whole ruleset. `ruleset` holds the turn and economy rules, `combat` the attacks, tests and
conditions that act by themselves."""

from engine.rules.d20.ruleset import D20

__all__ = ["D20"]
