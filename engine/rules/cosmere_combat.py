"""Old path kept until tui/ and saves/ import the new one (issue 12)."""

from engine.rules.cosmere.combat import *  # noqa: F401,F403
