"""Warhammer's clock: which slot of the round's order is acting (its own struct, tag "warhammer")."""

from engine.state import Clock


class WarhammerClock(Clock, frozen=True, gc=False, omit_defaults=True, tag="warhammer"):
    # the index in `order` of the slot acting (or last acted); -1 between rounds, while Fortune may
    # be spent to choose slots before the round begins; -2 (ruleset.UNDER_WAY) when the round has
    # begun but no slot is behind it (the first to act left mid-turn)
    slot: int = 0

    @property
    def number(self) -> int:
        return self.slot

    def with_number(self, n: int) -> "WarhammerClock":
        return WarhammerClock(n)
