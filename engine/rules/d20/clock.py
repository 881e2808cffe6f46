"""d20's clock: whose slot of the initiative order is acting (its own struct, tag "d20")."""

from engine.state import Clock


class D20Clock(Clock, frozen=True, gc=False, omit_defaults=True, tag="d20"):
    # the index in `order` of the combatant whose turn it is (or was last); -1 before the round's
    # first turn (the fight has just started or a round has just begun)
    slot: int = 0

    @property
    def number(self) -> int:
        return self.slot

    def with_number(self, n: int) -> "D20Clock":
        return D20Clock(n)
