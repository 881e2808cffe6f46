"""What a ruleset tells the generic engine, and the registry of rulesets by id.

The generic engine owns combatants, health, conditions, resources, dice and notes. A ruleset owns turn
order and the action economy: who acts now, what starting a fight, a turn, a phase or a round does,
what using an action costs, and what a condition does when a turn starts or ends. Rulesets may also
handle commands of their own (`handlers`).
"""

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, ClassVar, Literal

import msgspec
from msgspec.structs import replace

from engine import pools
from engine.commands import (
    AddCombatant,
    Command,
    Damage,
    Initiative,
    StartFight,
    UseAbility,
    UseAction,
    register_command,
)
from engine.dice import DiceRoll, Rng
from engine.errors import RuleError
from engine.events import (
    ConditionAdded,
    ConditionEnded,
    Event,
    InitiativeRolled,
    TurnEnded,
    TurnSkipped,
    TurnStarted,
    register_event,
)
from engine.state import (
    _MEMO,
    Clock,
    Combatant,
    Condition,
    Economy,
    Fight,
    Pool,
    put,
    put_all,
    register_clock,
    register_economy,
    watching,
)

if TYPE_CHECKING:
    from engine.history import History  # typing only: the history applies commands through core


class StatSpec(msgspec.Struct, frozen=True):
    """A number the add-combatant dialog asks for."""

    key: str
    label: str
    default: int
    low: int = -99
    high: int = 999


class ActionInfo(msgspec.Struct, frozen=True, gc=False):
    """One thing the GM may ask of the fight now (the app's keys, footer and palette ask this).

    `key` is stable ("next", "attack", "fast_slow", ...). `who`: the combatants it may be done by or
    to right now, where that applies (empty when it is about the fight as a whole)."""

    key: str
    title: str
    available: bool
    reason: str = ""  # when not available: a sentence for the GM
    who: tuple[str, ...] = ()


EconomyState = Literal["available", "spent", "barred"]


class EconomyItem(msgspec.Struct, frozen=True, gc=False):
    """One part of a combatant's action economy or turn status, ready to display.

    The tracker row shows `mark` (or pips `count` of `total` when `total` is set and `mark` is
    empty), bright when `state` is "available" (a mark whose text starts with "+" takes the gap
    before it in its own style); the sheet shows `name` in the header style and `detail` bright
    when available, dim when spent or barred (a barred item's detail says so and why: "barred
    (Confused)"; `plain`: a count shown unstyled); an item with no `name` is a heading, one with no
    `detail` a flag. The compact line (`describe_economy`, the log) joins the `text`s with spaces (a
    text starting with "+" is written against the one before). `row` / `sheet` say whether the item
    belongs there now."""

    key: str  # stable: "action", "bonus", "move", "reaction", "speed", "master", ...
    label: str  # short: "A", "Bonus", "M", "R"
    value: str  # display text: "1", "25 ft", "used"
    state: EconomyState
    why: str = ""  # why it is barred (or how it was spent): "Confused bars reactions"
    name: str = ""  # the sheet's label: "Action", "Reaction", "Master Action"
    detail: str = ""  # the sheet's text: "available", "barred (Confused)", "20 of 30 ft (Slowed)"
    text: str = ""  # the compact line's token: "A1", "M20ft", "R1(barred)"; "" = not in it
    mark: str = ""  # the tracker row's text: "A", "R2", "—"
    count: int = 0
    total: int = 0
    row: bool = True
    sheet: bool = True
    plain: bool = False  # the sheet shows the detail unstyled while not barred (a count: "2 of 3 left")


def join_economy(items: tuple[EconomyItem, ...]) -> str:
    """The compact one-line economy ("A1 B1 M R1", "A1 R1+P1") from the items' texts."""
    out = ""
    for item in items:
        if not item.text:
            continue
        out += item.text if not out or item.text.startswith("+") else " " + item.text
    return out


def yes_no(ok: bool, free: str = "available", spent: str = "used") -> str:
    return free if ok else spent


def live_reason(f: Fight) -> str:
    """Why nothing of the turn may be done now ("" while the fight is under way)."""
    if not f.started:
        return "The fight has not started yet: start it first."
    if f.ended:
        return "The fight is over."
    return ""


def offer(key: str, title: str, reason: str = "", who: tuple[str, ...] = ()) -> ActionInfo:
    """An action, available unless there is a reason it is not."""
    return ActionInfo(key, title, not reason, reason, who if not reason else ())


def anyone(f: Fight, who: tuple[str, ...], none: str) -> str:
    return "" if who else (none if f.combatants else "There is nobody in the fight yet.")


Events = list[Event]
MAX_STAT = 1_000_000  # for stats a ruleset does not name (its own have their own bounds)
Handler = Callable[[Fight, Command, Events], Fight]


class Ruleset(ABC):
    """Base class: override what the system does differently."""

    id: ClassVar[str] = ""
    title: ClassVar[str] = ""
    summary: ClassVar[str] = ""
    # what the marks of the tracker's turn cell mean (economy_items' `mark`s and pips), for the help
    # screen; "" = each mark with its item's name, as the items give them
    turn_legend: ClassVar[str] = ""
    stats: ClassVar[tuple[StatSpec, ...]] = ()
    # name -> short description in the project's own words
    conditions: ClassVar[dict[str, str]] = {}
    # health track keys in the order damage takes them by default
    damage_order: ClassVar[tuple[str, ...]] = ("hp",)
    health_label: ClassVar[str] = "HP"
    # the Duration kinds this ruleset counts down (turn-based by default); others are refused
    durations: ClassVar[tuple[str, ...]] = ("manual", "turn_start", "turn_end")
    durations_help: ClassVar[str] = (
        "Conditions here end at the start or end of a combatant's turn, or when removed by hand."
    )
    # the ruleset reads StartFight/NextTurn/StartTurn `rolls` (the table's start-of-turn dice);
    # the generic handlers refuse them for the others
    takes_turn_rolls: ClassVar[bool] = False
    # the ruleset's own economy struct (a tagged subclass of engine.state.Economy holding only its
    # fields); every combatant of its fights holds one, and the save files decode it by its tag
    economy_type: ClassVar[type[Economy]] = Economy
    # the ruleset's own clock struct (a tagged subclass of engine.state.Clock, fields named for what
    # they mean: whose slot, which phase); every fight of this ruleset holds one, from `new_fight` on
    clock_type: ClassVar[type[Clock]] = Clock
    # whether the ruleset keeps an initiative number that the GM may set by hand
    has_initiative: ClassVar[bool] = False
    # whether copies added together may share one initiative (AddCombatant.together): where the rule
    # text allows it; the ruleset's start rolls with `start_initiatives` and sorts with `keep_groups`
    shared_initiative: ClassVar[bool] = False
    # the numbered phases of a round that phase_end durations and channels are written in (nine-phase:
    # 9); 0 where a round is a run of turns. Generic code asks this, never the ruleset by name
    phases: ClassVar[int] = 0

    def handlers(self) -> dict[type[Command], Handler]:
        return {}

    # --- combatants ---------------------------------------------------------------------------
    def make(self, cmd: AddCombatant, cid: str, name: str) -> Combatant:
        stats = self.full_stats(cmd.stats)
        return Combatant(
            id=cid,
            name=name,
            kind=cmd.kind,
            side=cmd.side,
            health=self.health(stats),
            resources=self.resources(stats, cmd) + tuple(cmd.resources),
            stats=stats,
            owner=cmd.owner,
            flags=tuple(cmd.flags),
            resist=tuple(cmd.resist),
            vulnerable=tuple(cmd.vulnerable),
            immune=tuple(cmd.immune),
            condition_immune=tuple(cmd.condition_immune),
            note=cmd.note,
            economy=self.fresh_economy(),
        )

    def stat_label(self, key: str) -> str:
        """A stat as the GM says it: its label here; a stat the GM named (a nine-phase resource), or
        one a statblock brings that the ruleset has no words for, as typed. A ruleset whose
        statblocks bring more stats names them (d20's ability scores, Warhammer's Strength)."""
        for spec in self.stats:
            if spec.key == key:
                return spec.label
        return key

    def follow_stats(self, c: Combatant, stats: tuple[tuple[str, int], ...]) -> Combatant:
        """Resources whose maximum is a stat take the edited value (what is left, at most the new
        maximum); the others (a statblock's recharging breath) stay whole, recharge and refresh kept."""
        s = dict(stats)
        res = tuple(
            replace(p, current=min(p.current, s.get(p.key, p.max)), max=s.get(p.key, p.max)) for p in c.resources
        )
        return replace(c, resources=res)

    def full_stats(self, given: tuple[tuple[str, int], ...]) -> tuple[tuple[str, int], ...]:
        """The ruleset's stats in its order, defaults filled in; unknown keys are kept after."""
        known = {s.key for s in self.stats}
        values = dict(given)  # a key given twice: the last one counts
        for key, v in values.items():
            spec = next((s for s in self.stats if s.key == key), None)
            if spec and not spec.low <= v <= spec.high:
                raise RuleError(f"{spec.label} must be between {spec.low} and {spec.high}, not {v}.")
            if spec is None:
                if not key.strip() or len(key) > 40 or not key.isprintable():
                    raise RuleError("A stat needs a short one-line name (at most 40 characters).")
                if not -MAX_STAT <= v <= MAX_STAT:
                    raise RuleError(f"A stat must be between -{MAX_STAT:,} and {MAX_STAT:,}, not {v}.")
        ordered = tuple((s.key, values.get(s.key, s.default)) for s in self.stats)
        return ordered + tuple((k, v) for k, v in values.items() if k not in known)

    def health(self, stats: tuple[tuple[str, int], ...]) -> tuple[Pool, ...]:
        hp = max(0, dict(stats).get("hp", 10))  # a ruleset that names no hp bounds: never below 0
        return (Pool("hp", hp, hp),)

    def resources(self, stats: tuple[tuple[str, int], ...], cmd: AddCombatant) -> tuple[Pool, ...]:
        return ()

    def fresh_economy(self) -> Economy:
        """A new combatant's economy: an empty one of the ruleset's own type."""
        return self.economy_type()

    def restat(self, c: Combatant, stats: tuple[tuple[str, int], ...]) -> Combatant:
        """Stats were edited: rebuild the maxima of pools that come from stats, keeping damage taken."""
        new_health = self.health(stats)
        health = []
        for p in new_health:
            old = next((o for o in c.health if o.key == p.key), None)
            if old is None:
                health.append(p)
            else:
                lost = old.max - old.current
                health.append(Pool(p.key, max(p.max - lost, min(old.current, p.max)), p.max, old.temp))
        return replace(c, stats=stats, health=tuple(health))

    # --- the fight's flow ---------------------------------------------------------------------
    @abstractmethod
    def start(self, f: Fight, cmd: StartFight, ev: Events) -> Fight:
        """Begin round 1: initiative, surprise, the first turn or phase."""

    @abstractmethod
    def advance(self, f: Fight, ev: Events) -> Fight:
        """The GM pressed next: end the current turn or phase and move on."""

    def use(self, f: Fight, cmd: UseAction, ev: Events) -> Fight:
        raise RuleError(f"{self.title} has no '{cmd.what}' to use here.")

    def pay_ability(self, f: Fight, cmd: UseAbility, ev: Events) -> Fight:
        """The part of the turn a statblock's ability takes (`cmd.act`, in this ruleset's words), paid
        as `use` pays for it; no `act`: none. Before its pools are spent (the command is refused
        whole if either refuses)."""
        if not cmd.act:
            return f
        if not f.started or f.ended:
            raise RuleError(f"{cmd.name.strip() or 'An ability'} takes a part of a turn: the fight must be under way.")
        # the target is the log's: a UseAction target means more (d20 Help, a Warhammer attack)
        return self.use(f, UseAction(cmd.who, cmd.act, cmd.name.strip(), cmd.cost), ev)

    def check_spend(self, f: Fight, c: Combatant, key: str) -> None:
        """Refuse spending `c`'s pool `key` now, where the rules say when it may be (d20: legendary
        actions not on its own turn)."""
        return None

    def actors(self, f: Fight) -> tuple[str, ...]:
        """Who may act right now (for the tracker's highlight and for validation)."""
        return (f.current,) if f.current else ()

    def joined(self, f: Fight, c: Combatant, ev: Events) -> Fight:
        """A combatant was added after the fight started."""
        return f

    def roll_initiative(self, c: Combatant, given: Initiative, rng: Rng) -> tuple[int, DiceRoll | None, str, Rng]:
        """Combatant `c`'s initiative: (value, the roll or None, the log's note, the random source
        after it). The die `given` has the ruleset's bonus added as if rolled here; a total called out
        is kept as it is; neither rolls with `rng`. The same path serves the start of the fight, a
        combatant joining mid-fight and a dialog showing the total before it is sent. A ruleset that
        has this reads StartFight.totals through it (`given.total`)."""
        raise RuleError(f"{self.title} has no initiative to roll.")

    def rolls_initiative(self) -> bool:
        """Whether the ruleset has its own roll_initiative: only then can the table call out a total
        at the start, and a newcomer mid-fight be given its initiative."""
        return type(self).roll_initiative is not Ruleset.roll_initiative

    def left(self, f: Fight, cid: str, ev: Events) -> Fight:
        """A combatant was removed: drop it from the order; if it was acting, nobody is."""
        order = tuple(x for x in f.order if x != cid)
        return replace(f, order=order, current="" if f.current == cid else f.current)

    def reorder(self, f: Fight) -> Fight:
        """Initiative was set by hand: re-sort the order."""
        return f

    def order_changed(self, f: Fight) -> Fight:
        """The GM moved someone in `order` by hand: the turn stays with whoever is acting.

        The default suits rulesets whose clock's number is the acting slot in `order` (d20,
        warhammer); without it the pointer would keep the old slot and skip or repeat someone."""
        if f.current in f.order:
            return replace(f, clock=f.clock.with_number(f.order.index(f.current)))
        return f

    # --- hooks --------------------------------------------------------------------------------
    def damage_taken(self, f: Fight, c: Combatant, amount: int, cmd: Damage, ev: Events) -> Fight:
        """After damage has come off (c is the damaged combatant as it is now)."""
        return f

    def modify_damage(self, c: Combatant, amount: int, typ: str) -> tuple[int, str]:
        """Resistances and the like: the damage that lands, and a note for the log."""
        return amount, ""

    def condition_added(self, f: Fight, c: Combatant, cond: Condition, ev: Events) -> Fight:
        return f

    def condition_removed(self, f: Fight, c: Combatant, cond: Condition, ev: Events) -> Fight:
        """After the GM removed a condition (c is the combatant as it is now)."""
        return f

    def dropped_state(self, f: Fight, c: Combatant) -> str:
        return "is down"

    def save_made(self, f: Fight, c: Combatant, ev: Events) -> Fight:
        return f

    def turn_start_effects(self, f: Fight, cid: str, ev: Events) -> Fight:
        """Conditions that act when a turn starts (bleeding, confusion, ...)."""
        return f

    def turn_end_effects(self, f: Fight, cid: str, ev: Events) -> Fight:
        return f

    def describe_economy(self, c: Combatant) -> str:
        """The compact economy line ("A1 B1 M R1"), from `economy_of` (no fight: whose turn it is
        does not change the line)."""
        return join_economy(self.economy_of(c))

    def economy_items(self, f: Fight, cid: str) -> tuple[EconomyItem, ...]:
        """`cid`'s action economy and turn status now, display-ready (see EconomyItem)."""
        return self.economy_of(f.get(cid), f)

    def economy_of(self, c: Combatant, f: Fight | None = None) -> tuple[EconomyItem, ...]:
        """Override: the items for `c`; `f` None when there is no fight to ask (only texts matter)."""
        return ()

    # --- what may be done now -----------------------------------------------------------------
    def actions(self, f: Fight, history: "History | None" = None) -> tuple[ActionInfo, ...]:
        """Every action the ruleset offers, each with whether it may be done now, why not, and by
        or to whom. Undo and redo are listed when the history is given."""
        out = {a.key: a for a in self.generic_actions(f, history)}
        for a in self.rules_actions(f):
            out[a.key] = a
        return tuple(out.values())

    def rules_actions(self, f: Fight) -> tuple[ActionInfo, ...]:
        """Override: the ruleset's own actions (one with a generic key replaces it)."""
        return ()

    def generic_actions(self, f: Fight, history: "History | None" = None) -> list[ActionInfo]:
        everyone = tuple(c.id for c in f.combatants)
        tracked = tuple(c.id for c in f.combatants if c.health)
        conditioned = tuple(c.id for c in f.combatants if c.conditions)
        resourced = tuple(c.id for c in f.combatants if c.resources)
        if f.started:
            start = "The fight has already started."
        else:
            start = "" if f.combatants else "Add at least one combatant before starting the fight."
        out = [
            offer("start", "Start the fight", start),
            offer("next", "Next turn or phase", live_reason(f)),
            offer("damage", "Damage", anyone(f, tracked, "Nobody has a health track."), tracked),
            offer("heal", "Heal", anyone(f, tracked, "Nobody has a health track."), tracked),
            offer("temp", "Temporary health", anyone(f, tracked, "Nobody has a health track."), tracked),
            offer("condition", "Add a condition", anyone(f, everyone, ""), everyone),
            offer("uncondition", "Remove a condition", anyone(f, conditioned, "Nobody has a condition."), conditioned),
            offer("add", "Add combatants"),
            offer("edit", "Rename or edit stats", anyone(f, everyone, ""), everyone),
            offer("remove", "Remove the combatant", anyone(f, everyone, ""), everyone),
            offer("roll", "Roll dice"),
            offer("resource", "Spend or restore a resource", anyone(f, resourced, "Nobody has a resource."), resourced),
            offer("note", "Add a note to the log"),
            offer("dice_setting", "Who rolls the dice: app or table"),
            offer("end_fight", "End the fight", "The fight is already over." if f.ended else ""),
        ]
        if self.has_initiative:
            ordered = tuple(x for x in f.order if f.find(x) is not None)
            why = "" if f.started else "The order is made when the fight starts."
            out.append(offer("initiative", "Edit initiative or order", why or anyone(f, ordered, ""), ordered))
        if history is not None:
            out.append(offer("undo", "Undo", "" if history.can_undo else "Nothing to undo."))
            out.append(offer("redo", "Redo", "" if history.can_redo else "Nothing to redo."))
        return out

    def phase_label(self, f: Fight) -> str:
        return f"Round {f.round}"


REGISTRY: dict[str, Ruleset] = {}


def register_ruleset(
    rs: Ruleset,
    commands: Iterable[type[Command]] = (),
    events: Iterable[type[Event]] = (),
) -> Ruleset:
    """Make `rs` playable under its id, with the command and event types of its own (which the JSON
    Lines reader and the save files must decode). A ruleset living outside the engine calls this
    on import; the engine's own are registered in engine/rules/__init__.py."""
    if not rs.id or not rs.id.isidentifier():
        raise ValueError(f"A ruleset id is one lower-case word, not {rs.id!r}.")
    known = REGISTRY.get(rs.id)
    if known is not None and type(known) is not type(rs):
        raise ValueError(f"Ruleset id {rs.id!r} is taken by {type(known).__name__}.")
    for cls in commands:
        register_command(cls)
    for cls in events:
        register_event(cls)
    register_economy(rs.economy_type)
    register_clock(rs.clock_type)
    REGISTRY[rs.id] = rs
    return rs


def ruleset_ids() -> tuple[str, ...]:
    """Every registered ruleset id, in registration order."""
    return tuple(REGISTRY)


def get_ruleset(rid: str) -> Ruleset:
    try:
        return REGISTRY[rid]
    except KeyError:
        known = ", ".join(sorted(REGISTRY))
        raise RuleError(f"Unknown ruleset '{rid}'. Known: {known}.") from None


# --- helpers shared by the turn-based rulesets ------------------------------------------------


def expire(f: Fight, cid: str, kind: str, ev: Events) -> Fight:
    """Count down turn_start / turn_end durations that watch `cid`'s turn; end those at zero."""
    # every turn start and end comes here, over every combatant: most often nobody is watching it
    # (the count is kept with the combatants tuple); else find the few that are, with plain loops,
    # and rebuild only those (this was most of the cost of `next`)
    cs = f.combatants
    hit = _MEMO.get(id(cs))  # watching(cs), its memo read here: four times in every turn passed
    watch = hit[2] if hit is not None and hit[0] is cs and hit[2] is not None else watching(cs)
    if (cid, kind) not in watch:
        return f
    hits = []
    for i, c in enumerate(cs):
        for x in c.conditions:
            d = x.duration
            if d.who == cid and d.kind == kind:
                hits.append(i)
                break
    if not hits:
        return f
    out = list(cs)
    for i in hits:
        c = cs[i]
        keep = []
        for x in c.conditions:
            d = x.duration
            if d.kind == kind and d.who == cid:
                if d.count <= 1:
                    when = "start" if kind == "turn_start" else "end"
                    whose = "its" if cid == c.id else f"{f.get(cid).name}'s"
                    ev.append(ConditionEnded(c.id, c.name, x.name, f"expired at the {when} of {whose} turn"))
                    continue
                x = replace(x, duration=replace(d, count=d.count - 1))
            keep.append(x)
        out[i] = replace(c, conditions=tuple(keep))
    return put_all(f, tuple(out), hits)


def expire_at(f: Fight, ev: Events, phase: int | None) -> Fight:
    """End phase_end (at the end of `phase`) or round_end durations (phase None = round end)."""
    out = []
    changed = False
    for c in f.combatants:
        keep = []
        for x in c.conditions:
            d = x.duration
            ends = (
                (d.kind == "phase_end" and phase is not None and d.round == f.round and d.phase == phase)
                or (d.kind == "round_end" and phase is None and d.round <= f.round)
                or (d.kind == "phase_end" and phase is None and d.round <= f.round)
            )
            if ends:
                where = f"end of phase {d.phase}" if d.kind == "phase_end" else "end of the round"
                ev.append(ConditionEnded(c.id, c.name, x.name, f"expired at the {where}"))
                changed = True
            else:
                keep.append(x)
        out.append(replace(c, conditions=tuple(keep)) if len(keep) != len(c.conditions) else c)
    return replace(f, combatants=tuple(out)) if changed else f


def remove_condition(c: Combatant, name: str) -> Combatant:
    low = name.lower()
    return replace(c, conditions=tuple(x for x in c.conditions if x.name.lower() != low))


def begin_turn(rs: Ruleset, f: Fight, cid: str, ev: Events, detail: str = "") -> Fight:
    """Make `cid` the current combatant: the event, durations, and start-of-turn effects."""
    c = f.get(cid)
    f = replace(f, current=cid)
    ev.append(TurnStarted(cid, c.name, detail))
    f = expire(f, cid, "turn_start", ev)
    f = pools.turn_start(f, cid, ev)  # legendary actions back, a breath weapon's recharge owed
    return rs.turn_start_effects(f, cid, ev)


def finish_turn(rs: Ruleset, f: Fight, ev: Events, lost: str = "") -> Fight:
    """End the current combatant's turn: effects, durations, mark it done."""
    cid = f.current
    if not cid:
        return f
    c = f.find(cid)
    if c is None:
        return replace(f, current="")
    f = rs.turn_end_effects(f, cid, ev)
    c = f.get(cid)
    ev.append(TurnEnded(cid, c.name, lost))
    f = put(f, replace(c, economy=replace(c.economy, done=True)))
    f = expire(f, cid, "turn_end", ev)
    return replace(f, current="")


def skip_turn(f: Fight, cid: str, ev: Events, reason: str) -> Fight:
    """A turn that is lost still passes: durations that count its start and end tick as usual,
    so a condition "until the end of its next turn" cannot outlive a lost turn."""
    c = f.get(cid)
    ev.append(TurnSkipped(cid, c.name, reason))
    f = expire(f, cid, "turn_start", ev)
    f = pools.turn_start(f, cid, ev)  # a lost turn still starts (a combatant down is passed over)
    return expire(f, cid, "turn_end", ev)


def end_surprise_after_turn(f: Fight, cid: str, ev: Events, reason: str) -> Fight:
    c = f.get(cid)
    if c.has("Surprised"):
        f = put(f, remove_condition(c, "Surprised"))
        ev.append(ConditionEnded(cid, c.name, "Surprised", reason))
    return f


def keep_groups(f: Fight, order: Iterable[str]) -> tuple[str, ...]:
    """`order` with the copies that share one initiative (Combatant.group) side by side, all where the
    first of them stands: each keeps its own turn, in their own order among themselves."""
    order = tuple(order)
    group = {c.id: c.group for c in f.combatants if c.group}
    if not group:
        return order
    members: dict[str, list[str]] = {}
    for cid in order:
        if cid in group:
            members.setdefault(group[cid], []).append(cid)
    out: list[str] = []
    for cid in order:
        g = group.get(cid)
        if g is None:
            out.append(cid)
        elif members.get(g) is not None:
            out.extend(members.pop(g))
    return tuple(out)


def start_initiatives(
    rs: "Ruleset", f: Fight, cmd: StartFight, ev: Events, skip: Iterable[str] = ()
) -> tuple[dict[str, int], Rng]:
    """Everyone's initiative as the fight starts (those in `skip` roll none: companions): each its own,
    and copies sharing one (Combatant.group) one roll, or the die or total the table gave for one of
    them (two given for one group is refused). The log line names them together ("Goblin 1-4 roll
    initiative together: 14"). Returns id -> value and the random source after the rolls."""
    given, totals, skipped = dict(cmd.initiative), dict(cmd.totals), set(skip)
    rng = f.rng
    values: dict[str, int] = {}
    for c in f.combatants:
        if c.id in skipped or c.id in values:
            continue
        team = [x for x in f.combatants if x.group == c.group and x.id not in skipped] if c.group else [c]
        typed = [x for x in team if x.id in given or x.id in totals]
        if len(typed) > 1:
            who = " and ".join(x.name for x in typed)
            raise RuleError(f"{who} share one initiative: give it for one of them only.")
        src = typed[0] if typed else c
        value, r, note, rng = rs.roll_initiative(src, Initiative(given.get(src.id), totals.get(src.id)), rng)
        names = tuple(x.name for x in team) if len(team) > 1 else ()
        ev.append(InitiativeRolled(c.id, c.name, value, r, note, names))
        values.update((x.id, value) for x in team)
    return values, rng


def add_surprise(f: Fight, who: tuple[str, ...], ev: Events, detail: str) -> Fight:
    for cid in dict.fromkeys(who):
        c = f.get(cid)
        if not c.has("Surprised"):
            f = put(f, replace(c, conditions=c.conditions + (Condition("Surprised"),)))
            ev.append(ConditionAdded(cid, c.name, "Surprised", detail))
    return f
