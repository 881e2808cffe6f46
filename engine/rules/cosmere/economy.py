"""Cosmere's action economy: the speed chosen for the round and what is left of it (tag "cosmere")."""

from engine.state import Economy


class CosmereEconomy(Economy, frozen=True, gc=False, omit_defaults=True, tag="cosmere"):
    actions: int = 0  # actions left this turn (fast 2, slow 3)
    reactions: int = 0  # reactions left this round
    speed: str = ""  # "", "fast" or "slow" chosen for this round
    ready: str = ""  # a readied action, held for its trigger
