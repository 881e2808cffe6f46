"""Cosmere's own turn commands: taking a turn now, choosing a fast or slow one, or the round's choices
at once (the attacks,
falls and terrain are in `combat`). Registered on import, so the save files decode them by tag."""

from typing import Literal

from engine.commands import Command, GivenRoll, register_command


@register_command
class StartTurn(Command, tag="take_turn"):
    """This combatant takes its turn now, optionally choosing fast or slow in the moment."""

    who: str
    speed: Literal["", "fast", "slow"] = ""
    rolls: tuple[GivenRoll, ...] = ()  # the table's dice for start-of-turn effects it triggers


@register_command
class ChooseSpeed(Command, tag="speed"):
    """Choose a fast or slow turn for this round (before the combatant acts)."""

    who: str
    speed: Literal["", "fast", "slow"]


@register_command
class ChooseSpeeds(Command, tag="speeds"):
    """The round's choices at once, as the GM ticks them at its start: these go fast, those slow."""

    fast: tuple[str, ...] = ()
    slow: tuple[str, ...] = ()
