"""Nine-phase's action economy: a round's actions, reaction and Master Action, and what each phase
held (tag "ninephase")."""

from engine.state import Economy, PhaseUse


class NinePhaseEconomy(Economy, frozen=True, gc=False, omit_defaults=True, tag="ninephase"):
    actions: int = 0  # actions left this round
    reactions: int = 0  # reactions left this round
    master: bool = False  # the Master Action was used this round
    phases: tuple[PhaseUse, ...] = ()  # what it did in each phase this round
