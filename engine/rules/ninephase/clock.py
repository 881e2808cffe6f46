"""Nine-phase's clock: which of the round's nine phases is under way (its own struct, tag
"ninephase")."""

from engine.state import Clock

PHASES = 9  # phases in a round: the one place the number is written


class NinePhaseClock(Clock, frozen=True, gc=False, omit_defaults=True, tag="ninephase"):
    phase: int = 0  # 1-9 once the fight has started (0 before)

    @property
    def number(self) -> int:
        return self.phase

    def with_number(self, n: int) -> "NinePhaseClock":
        return NinePhaseClock(n)
