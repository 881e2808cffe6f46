"""d20's action economy: what a combatant may still do this turn (its own struct, tag "d20")."""

from engine.state import Economy


class D20Economy(Economy, frozen=True, gc=False, omit_defaults=True, tag="d20"):
    actions: int = 0  # actions left this turn
    bonus: int = 0  # bonus action left this turn
    move: int = 0  # movement left this turn (1 = not yet used)
    reactions: int = 0  # reactions left (one a round, back at the start of its turn)
    gambit: int = 0  # a Gambit may still be declared this turn (1 = yes)
    ready: str = ""  # the readied action, held for its trigger
    dodging: bool = False  # Dodge is in effect until its next turn
    disengaged: bool = False  # Disengage is in effect this turn
    lair: int = 0  # the round its lair action was last taken in (one a round; 0: none yet)
