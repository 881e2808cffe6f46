"""Warhammer's action economy: the turn's action and attacks, and the round's defences (tag
"warhammer")."""

from engine.state import Economy


class WarhammerEconomy(Economy, frozen=True, gc=False, omit_defaults=True, tag="warhammer"):
    actions: int = 0  # the action left this turn
    reactions: int = 0  # the general reaction (a defence) left this round
    parries: int = 0  # bonus parry-only reactions left this round
    defensive: int = 0  # fighting-defensively reaction, until its next turn
    attacks: int = 0  # attacks made this turn
    attack_option: str = ""  # the multiple-attack option chosen for this turn
