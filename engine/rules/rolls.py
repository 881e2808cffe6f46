"""Old path kept until tui/ and saves/ import the new one (issue 12)."""

from engine.core import RollDue, rolls_due  # noqa: F401
from engine.mechanics import *  # noqa: F401,F403
