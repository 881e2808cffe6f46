"""Nine-phase: the catalog of activities a fight offers, and the commands that use and edit it.

The catalog lives in the fight (`Fight.activities`), so each fight can carry its own spells and
manoeuvres and a save file replays the same list. `None` means the GM has not changed it yet: the
starter entries below apply. The first change materialises the whole list in the fight.

The starter entries are only what the rule text itself names (moving in phase 3, a weapon attack as a
Master Action at the weapon's Speed Factor, thrown weapons, the two common reactions); spells and
class features are the GM's to add. See docs/rules/ninephase.md.
"""

import msgspec

from engine import events as E
from engine.commands import Command, register_command
from engine.errors import RuleError
from engine.events import Event, register_event
from engine.rules.ninephase.clock import PHASES
from engine.rules.ninephase.commands import Activity
from engine.state import ActivitySpec, Fight

MAX_CATALOG = 200
MAX_NOTE = 500

DEFAULT_CATALOG: tuple[ActivitySpec, ...] = (
    ActivitySpec("Move", cost=1, phase=3, note="Movement, described broadly and shuffled to intent."),
    ActivitySpec("Weapon attack", cost=1, weapon=True, master=True, note="Earliest phase: the weapon's Speed Factor."),
    ActivitySpec("Throw weapon", cost=1, weapon=True, master=True, note="The weapon must already be in hand."),
    ActivitySpec("Opportunity Attack", cost=0, reaction=True, note="When a foe leaves a threatened space."),
    ActivitySpec("Shield Block", cost=0, reaction=True),
)


def catalog(f: Fight) -> tuple[ActivitySpec, ...]:
    """The activities this fight offers, in the order the GM sees them."""
    return DEFAULT_CATALOG if f.activities is None else f.activities


def find(f: Fight, name: str) -> ActivitySpec | None:
    low = name.strip().lower()
    return next((a for a in catalog(f) if a.name.lower() == low), None)


def earliest(spec: ActivitySpec, speed: int | None) -> int | None:
    """The earliest phase of `spec` performed now: the weapon's Speed Factor `speed` where its phase is
    "Weapon" (required there, refused anywhere else), else its own phase."""
    if spec.weapon:
        if speed is None:
            raise RuleError(f"{spec.name} starts at the weapon's Speed Factor: give it (1-{PHASES}).")
        if not 1 <= speed <= PHASES:
            raise RuleError(f"A Speed Factor is a phase from 1 to {PHASES}, not {speed}.")
        return speed
    if speed is not None:
        raise RuleError(f"{spec.name} does not depend on a weapon's Speed Factor.")
    return spec.phase


def spec_text(a: ActivitySpec) -> str:
    """A one-line reading of an entry: `3 actions · Master · Phase Lock 3 · Channel`."""
    cost = a.cost if a.cost is not None else (0 if a.reaction else 1)
    parts = [f"{cost} action{'s' if cost != 1 else ''}"]
    if a.reaction:
        parts.append("Master Reaction" if a.master else "Reaction")
    elif a.master or a.channel or a.uninterruptible:
        parts.append("Master")
    if a.weapon:
        parts.append("phase Weapon")
    elif a.phase is not None:
        parts.append(f"Phase Lock {a.phase}" if (a.lock or a.channel or a.uninterruptible) else f"phase {a.phase}")
    if a.uninterruptible:
        parts.append("Uninterruptible Channel")
    elif a.channel:
        parts.append("Channel")
    if a.across_rounds:
        parts.append("may finish next round")
    if a.repeatable:
        parts.append("repeatable")
    return " · ".join(parts)


def _spec_name(a: ActivitySpec) -> str:
    """The entry's name (trimmed, one line of at most 80 characters) and its note's length."""
    name = a.name.strip() if isinstance(a.name, str) else ""
    if not name:
        raise RuleError("An activity needs a name.")
    if len(name) > 80 or "\n" in name or "\r" in name:
        raise RuleError("An activity name is one line of at most 80 characters.")
    if len(a.note) > MAX_NOTE:
        raise RuleError(f"An activity's note can be at most {MAX_NOTE} characters.")
    return name


def _check_cost_and_phase(a: ActivitySpec, name: str, cost: int) -> None:
    """0 to 3 actions, in a phase of the round or at the weapon's Speed Factor (not both)."""
    if not 0 <= cost <= 3:
        raise RuleError(f"{name}: an activity costs 0 to 3 actions, not {cost}.")
    if a.phase is not None and not 1 <= a.phase <= PHASES:
        raise RuleError(f"{name}: a phase is a number from 1 to {PHASES}, not {a.phase}.")
    if a.weapon and a.phase is not None:
        raise RuleError(f"{name}: give a phase number or 'Weapon' (the Speed Factor), not both.")


def _check_channel(a: ActivitySpec, name: str, cost: int, channel: bool, lock: bool) -> None:
    """A channel is no reaction; a Phase Lock needs a fixed phase; only a channel runs on into the
    next round, and one that does not must resolve within this one."""
    if channel and a.reaction:
        raise RuleError(f"{name}: a reaction cannot be channeled.")
    if lock and a.weapon:
        raise RuleError(f"{name}: a Phase Locked activity needs a fixed phase, not the weapon's Speed Factor.")
    if lock and a.phase is None:
        raise RuleError(f"{name} is Phase Locked: give the phase it is locked to.")
    if a.across_rounds and not channel:
        raise RuleError(f"{name}: only a channel can run on into the next round.")
    if channel and a.phase is not None and a.phase + cost > PHASES and not a.across_rounds:
        raise RuleError(
            f"{name}: a {cost}-action channel locked to phase {a.phase} would resolve in phase "
            f"{a.phase + cost}, after the round ends."
        )


def check_spec(a: ActivitySpec) -> ActivitySpec:
    """Refuse an entry the rules could never allow; return it with its name trimmed and implied
    flags made explicit (every channel is a Phase-Locked Master Action)."""
    name = _spec_name(a)
    if a.cost is None:
        # unless stated otherwise an activity costs 1 action, and a reaction spends none
        a = msgspec.structs.replace(a, cost=0 if a.reaction else 1)
    assert a.cost is not None
    _check_cost_and_phase(a, name, a.cost)
    channel = a.channel or a.uninterruptible
    lock = a.lock or channel
    _check_channel(a, name, a.cost, channel, lock)
    return msgspec.structs.replace(a, name=name, lock=lock, master=a.master or channel, channel=channel)


# --- commands -----------------------------------------------------------------------------------


class DefineActivity(Command, tag="define_activity"):
    """Add an activity to the fight's catalog, or replace the one with the same name."""

    activity: ActivitySpec


class ForgetActivity(Command, tag="forget_activity"):
    """Take an activity out of the fight's catalog."""

    name: str


class DoActivity(Command, tag="do_activity"):
    """Act (or react) in the current phase with a catalog activity.

    speed: the Speed Factor of the weapon used, for activities whose phase is "Weapon".
    resource, amount: a resource spent to begin it (a spell slot, ...), taken from the combatant's
    pool of that name when it acts; it stays spent whatever happens to the activity (a channel
    interrupted loses it).
    """

    who: str
    name: str
    speed: int | None = None
    resource: str = ""
    amount: int = 1


class StopChannel(Command, tag="stop_channel"):
    """End a channel by a rule that says so (a reaction that stops the activity, a rule that ends
    even an Uninterruptible Channel). Ordinary damage and saving throws interrupt by themselves."""

    who: str
    activity: str = ""  # "" = its only channel under way
    reason: str = ""
    # the phase (1-9) the channel began in, this round or the last: picks one of two channels of one
    # activity under way at once (one ran on from last round, the other begun again this round)
    start: int | None = None


for _cmd in (DefineActivity, ForgetActivity, DoActivity, StopChannel):
    register_command(_cmd)


class CatalogChanged(Event, tag="activity_catalog"):
    name: str
    change: str  # "added", "changed", "removed"
    spec: str = ""

    def text(self) -> str:
        more = f": {self.spec}" if self.spec else ""
        return f"Activity {self.name} {self.change}{more}"


register_event(CatalogChanged)


def define(f: Fight, cmd: DefineActivity, ev: list[E.Event]) -> Fight:
    spec = check_spec(cmd.activity)
    current = catalog(f)
    low = spec.name.lower()
    old = next((a for a in current if a.name.lower() == low), None)
    if old == spec:
        raise RuleError(f"{spec.name} is already in the catalog exactly like that.")
    if old is None:
        if len(current) >= MAX_CATALOG:
            raise RuleError(f"The catalog holds at most {MAX_CATALOG} activities.")
        new = current + (spec,)
    else:
        new = tuple(spec if a is old else a for a in current)
    ev.append(CatalogChanged(spec.name, "added" if old is None else "changed", spec_text(spec)))
    return msgspec.structs.replace(f, activities=new)


def forget(f: Fight, cmd: ForgetActivity, ev: list[E.Event]) -> Fight:
    old = find(f, cmd.name)
    if old is None:
        raise RuleError(f"There is no activity called {cmd.name.strip() or '(blank)'} in the catalog.")
    ev.append(CatalogChanged(old.name, "removed"))
    return msgspec.structs.replace(f, activities=tuple(a for a in catalog(f) if a is not old))


def as_spec(cmd: Activity) -> ActivitySpec:
    """The fields of an ad-hoc `Activity` command as a catalog entry (not stored anywhere)."""
    return ActivitySpec(
        name=cmd.name,
        cost=(0 if cmd.reaction else 1) if cmd.cost is None else cmd.cost,
        phase=cmd.earliest,
        lock=cmd.lock,
        master=cmd.master,
        reaction=cmd.reaction,
        channel=cmd.channel,
        uninterruptible=cmd.uninterruptible,
        repeatable=cmd.repeatable,
        across_rounds=cmd.across_rounds,
    )
