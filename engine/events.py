"""Events: what a command did. One tagged union; dice results travel inside them.

Events carry names as they were at the time, so the log reads right even after a rename.
`describe` turns any event into one line for the log, exports and undo messages.
"""

from typing import Union

import msgspec

from engine.dice import DiceRoll


class Event(msgspec.Struct, frozen=True, gc=False, omit_defaults=True, tag_field="event"):
    pass


class Added(Event, tag="added"):
    who: str
    name: str


class Removed(Event, tag="removed"):
    who: str
    name: str


class Edited(Event, tag="edited"):
    who: str
    name: str
    what: str


class FightStarted(Event, tag="started"):
    name: str


class InitiativeRolled(Event, tag="initiative"):
    who: str
    name: str
    value: int
    roll: DiceRoll | None = None
    detail: str = ""


class OrderSet(Event, tag="order"):
    names: tuple[str, ...]


class RoundStarted(Event, tag="round"):
    round: int


class PhaseStarted(Event, tag="phase"):
    round: int
    phase: int
    label: str


class TurnStarted(Event, tag="turn"):
    who: str
    name: str
    detail: str = ""


class TurnEnded(Event, tag="turn_end"):
    who: str
    name: str
    lost: str = ""


class TurnSkipped(Event, tag="skipped"):
    who: str
    name: str
    reason: str


class Damaged(Event, tag="damaged"):
    who: str
    name: str
    amount: int  # what came off health, after every modifier
    rolled: int  # before modifiers
    type: str = ""
    detail: str = ""  # "resisted", "temporary absorbed 3", "Grit 2, HP 3"
    roll: DiceRoll | None = None
    left: int = 0


class Healed(Event, tag="healed"):
    who: str
    name: str
    amount: int
    roll: DiceRoll | None = None
    left: int = 0
    pool: str = ""  # the track healed when it is not the first one (nine-phase grit): `left` is its value


class TempGained(Event, tag="temp"):
    who: str
    name: str
    amount: int
    roll: DiceRoll | None = None


class Dropped(Event, tag="dropped"):
    who: str
    name: str
    state: str  # "down", "Death's Door", "drops", "collapses"


class Revived(Event, tag="revived"):
    who: str
    name: str


class ConditionAdded(Event, tag="condition"):
    who: str
    name: str
    condition: str
    detail: str = ""
    verb: str = ""  # how the log says it: "is" unless given (an injury typed in "suffers" it)


class ConditionEnded(Event, tag="condition_end"):
    who: str
    name: str
    condition: str
    reason: str = "removed"  # "removed", "expired", "after its first turn", ...


class ResourceChanged(Event, tag="resource"):
    who: str
    name: str
    key: str
    delta: int
    now: int


class ActionUsed(Event, tag="used"):
    who: str
    name: str
    what: str
    label: str = ""
    left: str = ""


class SaveRolled(Event, tag="save"):
    who: str
    name: str
    roll: DiceRoll
    dc: int | None = None
    success: bool | None = None
    label: str = ""


class Rolled(Event, tag="rolled"):
    roll: DiceRoll
    who: str = ""
    name: str = ""
    label: str = ""


class Noted(Event, tag="note"):
    text: str
    who: str = ""
    name: str = ""


class SettingChanged(Event, tag="setting"):
    key: str
    value: str


class FightEnded(Event, tag="ended"):
    round: int


class Info(Event, tag="info"):
    """A ruleset's remark for the GM (a reminder, an effect to apply by hand)."""

    text: str
    who: str = ""


class AreaRolled(Event, tag="area"):
    """One roll for several targets (engine/area.py): the line before each target's own."""

    amount: int  # the rolled (or given) total every target's share comes from
    roll: DiceRoll | None = None
    type: str = ""
    heal: bool = False
    label: str = ""  # what it is: "Fireball"
    source: str = ""  # who made it (an id) and its name then
    source_name: str = ""
    names: tuple[str, ...] = ()  # the targets, in order
    save: str = ""  # the save's name ("Dexterity"), when the targets save
    dc: int | None = None
    none_on_save: bool = False

    def text(self) -> str:
        by = f" by {self.source_name}" if self.source_name else ""
        typ = f" {self.type}" if self.type and not self.heal else ""
        rolled = f" [{self.roll.text()}]" if self.roll else ""
        whom = ", ".join(self.names)
        if self.label:  # "Fireball by Mage deals 21 fire [6d6 = ...] to Goblin 1, Goblin 2"
            out = f"{self.label}{by} {'heals' if self.heal else 'deals'} {self.amount}{typ}{rolled} to {whom}"
        else:  # "9 fire damage [2d10 = ...] to Thesalva, Ulfberth"
            out = f"{self.amount}{typ} {'healing' if self.heal else 'damage'}{by}{rolled} to {whom}"
        if self.save:
            dc = f" DC {self.dc}" if self.dc is not None else ""
            out += f"; {self.save} save{dc}, {'none' if self.none_on_save else 'half'} on a success"
        return out


EVENT_TYPES: list[type[Event]] = [
    Added,
    Removed,
    Edited,
    FightStarted,
    InitiativeRolled,
    OrderSet,
    RoundStarted,
    PhaseStarted,
    TurnStarted,
    TurnEnded,
    TurnSkipped,
    Damaged,
    Healed,
    TempGained,
    Dropped,
    Revived,
    ConditionAdded,
    ConditionEnded,
    ResourceChanged,
    ActionUsed,
    SaveRolled,
    Rolled,
    Noted,
    SettingChanged,
    FightEnded,
    Info,
    AreaRolled,
]


def register_event(cls: type[Event]) -> type[Event]:
    """Rulesets add event types of their own here (see `register_command`)."""
    if cls not in EVENT_TYPES:
        EVENT_TYPES.append(cls)
    return cls


def event_union() -> object:
    return Union[tuple(EVENT_TYPES)]  # noqa: UP007


def describe(e: Event) -> str:
    """One line of plain text for the log. Names are the user's text: render it literally."""
    match e:
        case Added(name=n):
            return f"{n} joins the fight"
        case Removed(name=n):
            return f"{n} leaves the fight"
        case Edited(name=n, what=w):
            return f"{n}: {w}"
        case FightStarted(name=n):
            return f"The fight begins: {n}"
        case InitiativeRolled(name=n, value=v, roll=r, detail=d):
            rolled = f" ({r.text()})" if r else ""
            return f"{n} initiative {v}{rolled}{' ' + d if d else ''}"
        case OrderSet(names=ns):
            return "Order: " + ", ".join(ns)
        case RoundStarted(round=r):
            return f"Round {r}"
        case PhaseStarted(label=label):
            return label
        case TurnStarted(name=n, detail=d):
            return f"{n}'s turn{': ' + d if d else ''}"
        case TurnEnded(name=n, lost=lost):
            return f"{n} ends the turn{' (' + lost + ' lost)' if lost else ''}"
        case TurnSkipped(name=n, reason=why):
            return f"{n} loses the turn: {why}"
        case Damaged(name=n, amount=a, type=t, detail=d, roll=r, left=left):
            rolled = f" [{r.text()}]" if r else ""
            typ = f" {t}" if t else ""
            more = f" ({d})" if d else ""
            return f"{n} takes {a}{typ} damage{more}{rolled}, {left} left"
        case Healed(name=n, amount=a, roll=r, left=left, pool=pool):
            rolled = f" [{r.text()}]" if r else ""
            if pool:
                return f"{n} heals {a} {pool}{rolled}, {left} now"
            return f"{n} heals {a}{rolled}, {left} now"
        case TempGained(name=n, amount=a, roll=r):
            rolled = f" [{r.text()}]" if r else ""
            return f"{n} has {a} temporary health{rolled}"
        case Dropped(name=n, state=s):
            return f"{n} {s}"
        case Revived(name=n):
            return f"{n} is back up"
        case ConditionAdded(name=n, condition=c, detail=d, verb=verb):
            return f"{n} {verb or 'is'} {c}{' (' + d + ')' if d else ''}"
        case ConditionEnded(name=n, condition=c, reason=why):
            return f"{n} is no longer {c} ({why})"
        case ResourceChanged(name=n, key=k, delta=d, now=now):
            verb = "spends" if d < 0 else "regains"
            return f"{n} {verb} {abs(d)} {k} ({now} left)"
        case ActionUsed(name=n, what=w, label=label, left=left):
            what = f"{label} ({w})" if label else w
            return f"{n} uses {what}{'; ' + left if left else ''}"
        case SaveRolled(name=n, roll=r, dc=dc, success=ok, label=label):
            vs = f" vs DC {dc}" if dc is not None else ""
            res = "" if ok is None else (": success" if ok else ": failure")
            return f"{n} {label or 'saving throw'}{vs}: {r.text()}{res}"
        case Rolled(roll=r, name=n, label=label):
            who = f"{n} " if n else ""
            return f"{who}{label + ': ' if label else 'rolls '}{r.text()}"
        case Noted(text=t, name=n):
            return f"{n + ': ' if n else ''}{t}"
        case SettingChanged(key=k, value=v):
            return f"Setting {k} = {v}"
        case FightEnded(round=r):
            return f"The fight ends in round {r}"
        case Info(text=t):
            return t
    text = getattr(e, "text", None)
    if callable(text):
        return str(text())
    return type(e).__name__
