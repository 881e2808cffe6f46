"""Warhammer's own turn-order command: Fortune (the attacks and criticals are in `combat`).
Registered on import, so the save files decode it by tag."""

from engine.commands import Command, register_command


@register_command
class Fortune(Command, tag="fortune"):
    """Spend a Fortune point at the start of a round to act at `position` this round."""

    who: str
    position: int
