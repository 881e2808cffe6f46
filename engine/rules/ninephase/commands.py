"""Nine-phase's own way of acting: an ad-hoc `Activity` in the current phase (the catalog's commands
are in `catalog`). Registered on import, so the save files decode it by tag."""

from engine.commands import Command, register_command


@register_command
class Activity(Command, tag="activity"):
    """Act (or react) in the current phase with an activity.

    earliest: the earliest phase (None = any phase); a weapon's Speed Factor goes here too.
    """

    who: str
    name: str
    cost: int | None = None  # None: 1 to act, 0 to react (a reaction spends no action unless it says)
    earliest: int | None = None
    lock: bool = False
    master: bool = False
    reaction: bool = False
    channel: bool = False
    uninterruptible: bool = False
    repeatable: bool = False  # the activity says it may be attempted more than once a round
    resource: str = ""  # a resource spent to begin it (a spell slot, ki), with its actions
    amount: int = 1
    across_rounds: bool = False  # a channel its text lets finish in the next round
