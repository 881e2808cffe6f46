"""Commands: everything the GM can ask of a fight. One tagged union; tags are never renamed.

Fields that roll dice take an optional `given`: the dice the table rolled, per die, in order. When it
is set the app does not roll; the event records the numbers as entered.
"""

from typing import Union

import msgspec

from engine.state import Duration, Kind, Pool, Side

Given = tuple[int, ...] | None


class Command(msgspec.Struct, frozen=True, gc=False, omit_defaults=True, tag_field="cmd", forbid_unknown_fields=True):
    pass


class GivenRoll(
    msgspec.Struct, frozen=True, gc=False, omit_defaults=True, tag="given_roll", forbid_unknown_fields=True
):
    """The table's dice for a roll the engine makes on its own while a command runs (a start-of-turn
    condition such as Bleeding): `who` rolls for `what` (the effect's name, as the log shows it).

    `dice` gives every die in order; `total` gives only the total, where only the total matters.
    A ruleset refuses a given roll that nothing asked for.
    """

    who: str
    what: str
    dice: tuple[int, ...] | None = None
    total: int | None = None


class Initiative(msgspec.Struct, frozen=True, gc=False, omit_defaults=True, forbid_unknown_fields=True):
    """A combatant's initiative as the table gives it: the `dice` rolled (the ruleset adds the bonus,
    as when it rolls them itself), or the `total` called out (kept as it is: a d20 total, a
    Warhammer SL). Neither: the ruleset rolls it."""

    dice: tuple[int, ...] | None = None
    total: int | None = None


class AddCombatant(Command, tag="add"):
    """Add a combatant (or `count` of them, numbered: "Goblin 1", "Goblin 2", ...)."""

    name: str
    kind: Kind = "npc"
    side: Side = "enemy"
    stats: tuple[tuple[str, int], ...] = ()
    count: int = 1
    owner: str = ""  # d20 companion: the id of the combatant whose initiative it shares
    flags: tuple[str, ...] = ()
    resist: tuple[str, ...] = ()
    vulnerable: tuple[str, ...] = ()
    immune: tuple[str, ...] = ()
    condition_immune: tuple[str, ...] = ()
    # limited abilities beyond the ruleset's own resources (engine.state.Pool: a recharging breath,
    # spell slots, legendary actions), each copy starting with its own
    resources: tuple[Pool, ...] = ()
    note: str = ""
    # a library statblock (engine.library's JSON of it), kept by every copy: its attacks and actions
    # stay one key away, whatever later happens to the library
    statblock: str = ""
    # per copy, stats that replace the shared ones (health rolled for each Goblin): empty, or one
    # entry per copy; one command, so adding "Goblin x4" with rolled health is one undo step
    copies: tuple[tuple[tuple[str, int], ...], ...] = ()
    # added to a fight under way, in a ruleset with initiative: each copy's initiative, and its place
    # in the order by it. None: not asked (it joins last until the GM sets it). One entry serves
    # every copy: Initiative() has each copy roll its own, a die or total is shared by all of them;
    # otherwise one entry per copy
    initiative: tuple[Initiative, ...] | None = None
    # the copies act together: one initiative for all of them (one roll, or the one given), side by
    # side in the order, each with its own turn (rulesets whose text allows it: Ruleset.shared_initiative)
    together: bool = False


class RemoveCombatant(Command, tag="remove"):
    who: str


class EditCombatant(Command, tag="edit"):
    """Change what is given; None leaves a field as it is. Stats merge by key."""

    who: str
    name: str | None = None
    kind: Kind | None = None
    side: Side | None = None
    stats: tuple[tuple[str, int], ...] | None = None
    flags: tuple[str, ...] | None = None
    resist: tuple[str, ...] | None = None
    vulnerable: tuple[str, ...] | None = None
    immune: tuple[str, ...] | None = None
    condition_immune: tuple[str, ...] | None = None
    note: str | None = None


class StartFight(Command, tag="start"):
    """Start the fight: roll (or take) initiative and begin round 1.

    `initiative` gives entered initiative dice per combatant id (d20: the d20; warhammer: the d100).
    `surprised` lists the combatants caught unaware. `totals` gives a called-out total instead of
    the die (one or the other per combatant).
    """

    initiative: tuple[tuple[str, tuple[int, ...]], ...] = ()
    surprised: tuple[str, ...] = ()
    rolls: tuple[GivenRoll, ...] = ()  # the table's dice for the first turn's start-of-turn effects
    # initiative totals the table called out (d20: the total; warhammer: the SL), kept as they are
    totals: tuple[tuple[str, int], ...] = ()


class SetInitiative(Command, tag="initiative"):
    """Set a combatant's initiative (d20 total, warhammer SL) by hand; the order is re-sorted. Copies
    sharing one initiative all take it, unless `alone`: this one leaves them and takes it alone."""

    who: str
    value: int
    alone: bool = False


class Reorder(Command, tag="reorder"):
    """Move a combatant to a position (0 = first) in the turn order: the GM's call on ties. Copies
    sharing one initiative move as one block, unless the position is within their block (then it
    changes places among them)."""

    who: str
    position: int


class NextTurn(Command, tag="next"):
    """End the current turn (or phase) and move on to the next one."""

    rolls: tuple[GivenRoll, ...] = ()  # the table's dice for start-of-turn effects it triggers





class Damage(Command, tag="damage"):
    """Damage: a number, or a dice expression (`dice`) rolled or `given` by the table.

    `pool` chooses the health track hit first (nine-phase: "grit" or "hp"); empty = the default.
    """

    who: str
    amount: int | None = None
    dice: str = ""
    given: Given = None
    type: str = ""
    pool: str = ""
    source: str = ""


class Heal(Command, tag="heal"):
    who: str
    amount: int | None = None
    dice: str = ""
    given: Given = None
    pool: str = ""


class TempHealth(Command, tag="temp"):
    """Temporary health: does not stack, the higher value is kept."""

    who: str
    amount: int | None = None
    dice: str = ""
    given: Given = None


class AddCondition(Command, tag="condition"):
    who: str
    name: str
    duration: Duration = Duration()
    level: int = 1
    source: str = ""
    dice: str = ""
    note: str = ""
    dc: int = 0  # the DC of the save that ends it, where the source gives one
    override: bool = False  # the GM gives it to a combatant immune to it


class RemoveCondition(Command, tag="uncondition"):
    who: str
    name: str


class SpendResource(Command, tag="spend"):
    who: str
    key: str
    amount: int = 1


class RestoreResource(Command, tag="restore"):
    who: str
    key: str
    amount: int = 1


class UseAction(Command, tag="use"):
    """Use part of the action economy, in the ruleset's terms.

    d20: what = action | bonus | move | reaction | gambit (name: Attack, Dash, Dodge, ...).
    cosmere: what = action (cost 1-3) | free | reaction (name: Strike, Move, Reactive Strike, ...).
    warhammer: what = action | parry | dodge | defensive.
    nine-phase has its own command for acting in a phase.
    """

    who: str
    what: str = "action"
    name: str = ""
    cost: int = 1
    target: str = ""  # whom an attack is aimed at (warhammer: being attacked ends Surprised)



class SavingThrow(Command, tag="save"):
    """A saving throw (or any test a combatant is required to make): `dice` against `dc`."""

    who: str
    dice: str = "d20"
    dc: int | None = None
    given: Given = None
    label: str = ""
    # a legendary creature's choice: should the save fail, it spends one "Legendary Resistance" and
    # succeeds instead (refused when it has none left)
    legendary: bool = False


class UseAbility(Command, tag="ability"):
    """A statblock's ability that the engine rolls nothing for (Parry, Multiattack's announcement,
    a text-only one): the log's line, the pools it spends (`spend`: [key, amount], all or nothing,
    from `who`'s resources) and the part of the turn it takes (`act`, the ruleset's word: d20
    "action", "bonus", "reaction", "legendary", "lair"; Cosmere "action" costing `cost`, "free",
    "reaction"; ... ; empty: none)."""

    who: str
    name: str
    spend: tuple[tuple[str, int], ...] = ()
    target: str = ""
    act: str = ""
    cost: int = 1


class Recharge(Command, tag="recharge"):
    """The recharge roll of `who`'s pool `key` (a breath weapon): a d6 rolled, or the table's
    (`given`); at or above the pool's recharge it is full again. Settles the roll owed for it."""

    who: str
    key: str
    given: int | None = None


class Roll(Command, tag="roll"):
    dice: str
    given: Given = None
    who: str = ""
    label: str = ""


class Note(Command, tag="note"):
    text: str
    who: str = ""


class Setting(Command, tag="setting"):
    key: str
    value: str


class EndFight(Command, tag="end"):
    pass


_BUILTIN: tuple[type[Command], ...] = (
    AddCombatant,
    RemoveCombatant,
    EditCombatant,
    StartFight,
    SetInitiative,
    Reorder,
    NextTurn,
    Damage,
    Heal,
    TempHealth,
    AddCondition,
    RemoveCondition,
    SpendResource,
    RestoreResource,
    UseAction,
    SavingThrow,
    UseAbility,
    Recharge,
    Roll,
    Note,
    Setting,
    EndFight,
)

COMMAND_TYPES: list[type[Command]] = list(_BUILTIN)


def register_command(cls: type[Command]) -> type[Command]:
    """Rulesets define commands of their own (attacks, ...) in their module and register them here,
    so that the JSON Lines reader and the save files decode them."""
    if cls not in COMMAND_TYPES:
        COMMAND_TYPES.append(cls)
    return cls


def command_union() -> object:
    """The tagged union of every command type known now, for msgspec decoders (importing `engine`
    registers the engine's rulesets and their commands first)."""
    return Union[tuple(COMMAND_TYPES)]  # noqa: UP007
