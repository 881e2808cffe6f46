"""Events: what a command did. One tagged union; dice results travel inside them.

Events carry names as they were at the time, so the log reads right even after a rename.
`describe` turns any event into one line for the log, exports and undo messages: each event
writes its own line.
"""

from typing import ClassVar, Union

import msgspec

from engine.dice import DiceRoll


class Event(msgspec.Struct, frozen=True, gc=False, omit_defaults=True, tag_field="event"):
    # whether the players' view always shows the event's line (a ruleset's own events are attack
    # rolls and tests, shown only when the GM makes rolls public, unless they say so here)
    public: ClassVar[bool] = False
    # how the app's log colours its line ("bad", "good", ...; "" plain): a ruleset's event says so
    log_role: ClassVar[str] = ""
    # how soon a one-line summary of a command tells it (a narrow screen has room for little): 0 what
    # happened (a hit or miss, damage taken), 1 a roll whose results the lines after it give (a test
    # rolled once for several targets), 2 what it cost (an action used, a resource spent)
    summary_rank: ClassVar[int] = 0

    def describe(self) -> str:
        """One line of plain text for the log. Each built-in event writes its own; a ruleset's event
        writes its line in `text()` (the name the rulesets use), and one with neither shows its class."""
        text = getattr(self, "text", None)
        if callable(text):
            return str(text())
        return type(self).__name__


class Added(Event, tag="added"):
    who: str
    name: str

    def describe(self) -> str:
        return f"{self.name} joins the fight"


class Removed(Event, tag="removed"):
    who: str
    name: str

    def describe(self) -> str:
        return f"{self.name} leaves the fight"


class Edited(Event, tag="edited"):
    who: str
    name: str
    what: str

    def describe(self) -> str:
        return f"{self.name}: {self.what}"


class FightStarted(Event, tag="started"):
    name: str

    def describe(self) -> str:
        return f"The fight begins: {self.name}"


class InitiativeRolled(Event, tag="initiative"):
    who: str
    name: str
    value: int
    roll: DiceRoll | None = None
    detail: str = ""
    # copies sharing one initiative: every one's name (`who`, `name` are the first's); () = its own
    names: tuple[str, ...] = ()

    def describe(self) -> str:
        rolled = f" ({self.roll.text()})" if self.roll else ""
        detail = f" {self.detail}" if self.detail else ""
        if self.names and self.roll is not None:
            return f"{together_label(self.names)} roll initiative together: {self.value}{rolled}{detail}"
        if self.names:
            return f"{together_label(self.names)} initiative {self.value} together{detail}"
        return f"{self.name} initiative {self.value}{rolled}{detail}"


def together_label(names: tuple[str, ...]) -> str:
    """Copies named as a run where they are one ("Goblin 1-4"), else each name ("Goblin 1, Goblin 3
    and Orc")."""
    split = [n.rpartition(" ") for n in names]
    base = split[0][0] if split else ""
    nums = [int(n) if n.isdigit() and n.isascii() else -1 for _, _, n in split]
    if base and all(b == base for b, _, _ in split) and nums == list(range(nums[0], nums[0] + len(nums))):
        return f"{base} {nums[0]}-{nums[-1]}" if len(nums) > 1 else names[0]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


class OrderSet(Event, tag="order"):
    names: tuple[str, ...]

    def describe(self) -> str:
        return "Order: " + ", ".join(self.names)


class RoundStarted(Event, tag="round"):
    round: int

    def describe(self) -> str:
        return f"Round {self.round}"


class PhaseStarted(Event, tag="phase"):
    round: int
    phase: int
    label: str

    def describe(self) -> str:
        return self.label


class TurnStarted(Event, tag="turn"):
    who: str
    name: str
    detail: str = ""

    def describe(self) -> str:
        return f"{self.name}'s turn{': ' + self.detail if self.detail else ''}"


class TurnEnded(Event, tag="turn_end"):
    who: str
    name: str
    lost: str = ""

    def describe(self) -> str:
        return f"{self.name} ends the turn{' (' + self.lost + ' lost)' if self.lost else ''}"


class TurnSkipped(Event, tag="skipped"):
    who: str
    name: str
    reason: str

    def describe(self) -> str:
        return f"{self.name} loses the turn: {self.reason}"


class Damaged(Event, tag="damaged"):
    who: str
    name: str
    amount: int  # what came off health, after every modifier
    rolled: int  # before modifiers
    type: str = ""
    detail: str = ""  # "resisted", "temporary absorbed 3", "Grit 2, HP 3"
    roll: DiceRoll | None = None
    left: int = 0

    def describe(self) -> str:
        rolled = f" [{self.roll.text()}]" if self.roll else ""
        typ = f" {self.type}" if self.type else ""
        more = f" ({self.detail})" if self.detail else ""
        return f"{self.name} takes {self.amount}{typ} damage{more}{rolled}, {self.left} left"


class Healed(Event, tag="healed"):
    who: str
    name: str
    amount: int
    roll: DiceRoll | None = None
    left: int = 0
    pool: str = ""  # the track healed when it is not the first one (nine-phase grit): `left` is its value

    def describe(self) -> str:
        rolled = f" [{self.roll.text()}]" if self.roll else ""
        if self.pool:
            return f"{self.name} heals {self.amount} {self.pool}{rolled}, {self.left} now"
        return f"{self.name} heals {self.amount}{rolled}, {self.left} now"


class TempGained(Event, tag="temp"):
    who: str
    name: str
    amount: int
    roll: DiceRoll | None = None

    def describe(self) -> str:
        rolled = f" [{self.roll.text()}]" if self.roll else ""
        return f"{self.name} has {self.amount} temporary health{rolled}"


class Dropped(Event, tag="dropped"):
    who: str
    name: str
    state: str  # "down", "Death's Door", "drops", "collapses"

    def describe(self) -> str:
        return f"{self.name} {self.state}"


class Revived(Event, tag="revived"):
    who: str
    name: str

    def describe(self) -> str:
        return f"{self.name} is back up"


class ConditionAdded(Event, tag="condition"):
    who: str
    name: str
    condition: str
    detail: str = ""
    verb: str = ""  # how the log says it: "is" unless given (an injury typed in "suffers" it)

    def describe(self) -> str:
        return f"{self.name} {self.verb or 'is'} {self.condition}{' (' + self.detail + ')' if self.detail else ''}"


class ConditionEnded(Event, tag="condition_end"):
    who: str
    name: str
    condition: str
    reason: str = "removed"  # "removed", "expired", "after its first turn", ...

    def describe(self) -> str:
        return f"{self.name} is no longer {self.condition} ({self.reason})"


class ResourceChanged(Event, tag="resource"):
    summary_rank: ClassVar[int] = 2
    who: str
    name: str
    key: str
    delta: int
    now: int

    def describe(self) -> str:
        verb = "spends" if self.delta < 0 else "regains"
        return f"{self.name} {verb} {abs(self.delta)} {self.key} ({self.now} left)"


class ActionUsed(Event, tag="used"):
    summary_rank: ClassVar[int] = 2
    who: str
    name: str
    what: str
    label: str = ""
    left: str = ""

    def describe(self) -> str:
        what = f"{self.label} ({self.what})" if self.label else self.what
        return f"{self.name} uses {what}{'; ' + self.left if self.left else ''}"


class AbilityUsed(Event, tag="ability"):
    """A statblock's ability used (engine/uses.py): the line the GM reads, "Goblin Boss uses Parry"."""

    who: str
    name: str
    ability: str
    act: str = ""  # "reaction", "legendary", ... as the ruleset says it
    target: str = ""  # the target's id and its name then
    target_name: str = ""
    left: str = ""  # the economy left after it, when it took a part of the turn ("A1 B1 M R0")

    def describe(self) -> str:
        act = f" ({self.act})" if self.act else ""
        on = f" on {self.target_name}" if self.target_name else ""
        return f"{self.name} uses {self.ability}{act}{on}{'; ' + self.left if self.left else ''}"


class RechargeDue(Event, tag="recharge_due"):
    """A spent pool with a recharge owes its d6 at the start of its owner's turn (the app prompts)."""

    who: str
    name: str
    key: str
    lowest: int  # the lowest face that brings it back

    def describe(self) -> str:
        faces = "6" if self.lowest >= 6 else f"{self.lowest}-6"
        return f"{self.name}'s {self.key} may recharge: roll a d6 ({faces} brings it back)"


class Recharged(Event, tag="recharged"):
    """The recharge d6 rolled (or the table's): the pool full again or still spent."""

    who: str
    name: str
    key: str
    roll: DiceRoll
    lowest: int
    success: bool

    def describe(self) -> str:
        faces = "6" if self.lowest >= 6 else f"{self.lowest}-6"
        how = "recharged" if self.success else f"still spent (needs {faces})"
        return f"{self.name}'s {self.key} recharge: {self.roll.text()}: {how}"


class SaveRolled(Event, tag="save"):
    who: str
    name: str
    roll: DiceRoll
    dc: int | None = None
    success: bool | None = None
    label: str = ""

    def describe(self) -> str:
        vs = f" vs DC {self.dc}" if self.dc is not None else ""
        res = "" if self.success is None else (": success" if self.success else ": failure")
        return f"{self.name} {self.label or 'saving throw'}{vs}: {self.roll.text()}{res}"


class Rolled(Event, tag="rolled"):
    roll: DiceRoll
    who: str = ""
    name: str = ""
    label: str = ""

    def describe(self) -> str:
        who = f"{self.name} " if self.name else ""
        return f"{who}{self.label + ': ' if self.label else 'rolls '}{self.roll.text()}"


class Noted(Event, tag="note"):
    text: str
    who: str = ""
    name: str = ""

    def describe(self) -> str:
        return f"{self.name + ': ' if self.name else ''}{self.text}"


class SettingChanged(Event, tag="setting"):
    key: str
    value: str

    def describe(self) -> str:
        words = SETTING_WORDS.get((self.key, self.value))
        return words if words is not None else f"Setting {self.key}: {self.value}"


# a fight's settings (engine/core.py SETTINGS) as the log says them, in the GM's words
SETTING_WORDS = {
    ("roll_pc", "app"): "Rolls for PCs: the app rolls them",
    ("roll_pc", "table"): "Rolls for PCs: the table rolls its own dice",
    ("roll_npc", "app"): "Rolls for NPCs: the app rolls them",
    ("roll_npc", "table"): "Rolls for NPCs: the table rolls its own dice",
    ("view_health", "band"): "Players' view: enemies' health as a band (unhurt, hurt, bloodied, down)",
    ("view_health", "numbers"): "Players' view: enemies' health as numbers",
    ("view_health", "none"): "Players' view: enemies' health not shown",
    ("view_rolls", "private"): "Players' view: the rolls for enemies kept private",
    ("view_rolls", "public"): "Players' view: the rolls for enemies shown",
    ("add_health", "fixed"): "Adding from the library: each copy's health is the statblock's number",
    ("add_health", "rolled"): "Adding from the library: each copy's health is rolled from its dice",
    ("init_typed", "die"): "Initiative typed in: the die rolled (the app adds the bonus)",
    ("init_typed", "total"): "Initiative typed in: the total the player calls out",
}


class FightEnded(Event, tag="ended"):
    round: int

    def describe(self) -> str:
        return f"The fight ends in round {self.round}"


class Info(Event, tag="info"):
    """A ruleset's remark for the GM (a reminder, an effect to apply by hand)."""

    text: str
    who: str = ""

    def describe(self) -> str:
        return self.text


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
    ability: str = ""  # the statblock's ability it is: "Red Dragon uses Fire Breath (DC 21 Dex): ..."
    condition: str = ""  # a save against this condition alone, no damage rolled

    def text(self) -> str:
        if self.condition:
            return self._condition_only()
        if self.ability:
            return self._used()
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

    def _condition_only(self) -> str:
        """ "Marsh Witch uses Binding Word (DC 13 Wis) on A, B: Restrained unless saved"."""
        what = self.ability or self.label or "An effect"
        who = f"{self.source_name} uses {what}" if self.source_name else what
        save = f" ({'DC ' + str(self.dc) + ' ' if self.dc is not None else ''}{self.save[:3]})" if self.save else ""
        return f"{who}{save} on {', '.join(self.names)}: {self.condition} unless saved"

    def _used(self) -> str:
        """ "Red Dragon uses Fire Breath (DC 21 Dex): 63 fire [18d6 = ...] to A, B; half on a success"."""
        who = self.source_name or "Someone"
        save = f" (DC {self.dc} {self.save[:3]})" if self.save and self.dc is not None else ""
        typ = f" {self.type}" if self.type and not self.heal else ""
        rolled = f" [{self.roll.text()}]" if self.roll else ""
        what = " healing" if self.heal else typ
        out = f"{who} uses {self.ability}{save}: {self.amount}{what}{rolled} to {', '.join(self.names)}"
        if self.save:
            out += f"; {'none' if self.none_on_save else 'half'} on a success"
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
    AbilityUsed,
    RechargeDue,
    Recharged,
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
    return e.describe()
