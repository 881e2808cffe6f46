"""Cosmere's clock: which of the round's four phase groups is under way (its own struct, tag
"cosmere")."""

from engine.state import Clock


class CosmereClock(Clock, frozen=True, gc=False, omit_defaults=True, tag="cosmere"):
    # 0 fast PCs, 1 fast NPCs, 2 slow PCs, 3 slow NPCs (engine/rules/cosmere/ruleset.py, PHASES)
    group: int = 0

    @property
    def number(self) -> int:
        return self.group

    def with_number(self, n: int) -> "CosmereClock":
        return CosmereClock(n)
