"""Nine-phase's channel events: a channel begun, resolved or interrupted. Registered on import, so
the save files decode them by tag; each renders its own log line."""

from engine.events import Event, register_event
from engine.rules.ninephase.clock import PHASES


@register_event
class ChannelBegun(Event, tag="channel"):
    public = True  # the players see channels begin, resolve and break
    who: str
    name: str
    activity: str
    start: int
    end: int

    def text(self) -> str:
        head = f"{self.name} begins channeling {self.activity} in phase {self.start}"
        if self.end > PHASES:  # a channel its text lets run on into the next round
            return f"{head}, resolving in phase {self.end - PHASES} of the next round"
        return f"{head}, resolving in phase {self.end}"


@register_event
class ChannelResolved(Event, tag="channel_done"):
    public = True  # the players see channels begin, resolve and break
    who: str
    name: str
    activity: str
    phase: int

    def text(self) -> str:
        return f"{self.name}'s channel {self.activity} resolves in phase {self.phase}"


@register_event
class ChannelInterrupted(Event, tag="channel_broken"):
    public = True  # the players see channels begin, resolve and break
    log_role = "bad"  # a channel lost: the log shows it as harm
    who: str
    name: str
    activity: str
    reason: str
    lost: str = ""  # the resources spent to begin it ("1 slot3"), gone with it

    def text(self) -> str:
        head = f"{self.name}'s channel {self.activity} is interrupted ({self.reason}); its actions and"
        if self.lost:
            return f"{head} the {self.lost} spent on it are lost"
        return f"{head} resources are lost"
