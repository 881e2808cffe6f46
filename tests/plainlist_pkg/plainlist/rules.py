"""The engine part of Plain list, a fifth ruleset living in a package of its own: a plain
initiative list (highest `init` first, ties in the order added), one action and one reaction a turn
(both back at the start of the combatant's own turn), hit points, and one command of its own: Shove
(the acting combatant spends its action to knock another one Prone).

Nothing here registers itself: the engine registers the ruleset its plugin (plainlist/plugin.py)
carries, with COMMANDS and EVENTS. It is imported while the engine loads its plugins, so it imports
the engine's modules, never the `engine` package's names."""

from __future__ import annotations

from msgspec.structs import replace

from engine import commands as C
from engine import events as E
from engine.errors import RuleError
from engine.ruleset import (
    ActionInfo,
    EconomyItem,
    EconomyState,
    Events,
    Handler,
    Ruleset,
    StatSpec,
    anyone,
    begin_turn,
    finish_turn,
    live_reason,
    offer,
    yes_no,
)
from engine.state import Clock, Combatant, Condition, Economy, Fight, put

ID = "plainlist"


class Shove(C.Command, tag="plain_shove"):
    """`who` (acting now) spends its action to knock `target` Prone."""

    who: str
    target: str


class Shoved(E.Event, tag="plain_shoved"):
    who: str
    name: str
    target: str
    target_name: str

    def text(self) -> str:
        return f"{self.name} shoves {self.target_name} to the ground"


class PlainEconomy(Economy, frozen=True, gc=False, omit_defaults=True, tag="plainlist"):
    """Plain list's own economy: the turn's action and the reaction (`done` and `used` come from the
    shared base). `register_ruleset` registers it through `PlainList.economy_type`."""

    actions: int = 0
    reactions: int = 0


class PlainClock(Clock, frozen=True, gc=False, omit_defaults=True, tag="plainlist"):
    """Plain list's own clock: whose place in the list is acting. `register_ruleset` registers it
    through `PlainList.clock_type`."""

    place: int = 0  # the index in `order` of the combatant whose turn it is

    @property
    def number(self) -> int:
        return self.place

    def with_number(self, n: int) -> PlainClock:
        return PlainClock(n)


COMMANDS: tuple[type[C.Command], ...] = (Shove,)
EVENTS: tuple[type[E.Event], ...] = (Shoved,)


def _turn_economy() -> PlainEconomy:
    return PlainEconomy(actions=1, reactions=1)


class PlainList(Ruleset):
    id = ID
    economy_type = PlainEconomy
    clock_type = PlainClock
    title = "Plain list"
    summary = (
        "A plain initiative list, highest first (ties in the order added). On its turn a combatant has "
        "one action; it has one reaction a turn, back at the start of its own turn. Shove: spend the "
        "action to knock another combatant Prone."
    )
    stats = (
        StatSpec("hp", "Hit points", 10, 0, 999),
        StatSpec("init", "Initiative", 10, -20, 99),
    )
    conditions = {"Prone": "On the ground: shoved, or fallen. Ends when removed."}
    has_initiative = True

    def handlers(self) -> dict[type[C.Command], Handler]:
        return {Shove: self._shove}  # type: ignore[dict-item]

    # --- the order ----------------------------------------------------------------------------
    def _sorted(self, f: Fight, ids: tuple[str, ...]) -> tuple[str, ...]:
        added = {c.id: i for i, c in enumerate(f.combatants)}
        return tuple(sorted(ids, key=lambda x: (-(f.get(x).initiative or 0), added[x])))

    def start(self, f: Fight, cmd: C.StartFight, ev: Events) -> Fight:
        if cmd.surprised:
            raise RuleError("Plain list has no surprise: start the fight without it.")
        given = dict(cmd.initiative)
        for c in f.combatants:
            dice = given.get(c.id)
            value = dice[0] if dice else dict(c.stats).get("init", 10)
            if abs(value) > 10_000:
                raise RuleError(f"{value} is not a believable initiative.")
            f = put(f, replace(c, initiative=value, economy=PlainEconomy(reactions=1)))
            ev.append(E.InitiativeRolled(c.id, c.name, value, None, "(typed in)" if dice else ""))
        f = replace(f, order=self._sorted(f, tuple(c.id for c in f.combatants)), round=1, clock=PlainClock(0))
        ev.append(E.OrderSet(tuple(f.get(x).name for x in f.order)))
        ev.append(E.RoundStarted(1))
        return self._begin(f, 0, ev)

    def _begin(self, f: Fight, i: int, ev: Events) -> Fight:
        cid = f.order[i]
        c = f.get(cid)
        f = put(f, replace(c, economy=replace(_turn_economy(), done=False)))
        return begin_turn(self, replace(f, clock=PlainClock(i)), cid, ev)

    def advance(self, f: Fight, ev: Events) -> Fight:
        if f.ended:
            raise RuleError("The fight is over.")
        f = finish_turn(self, f, ev)
        if not f.order:
            return f
        i = f.clock.place + 1
        if i >= len(f.order):
            f = replace(f, round=f.round + 1)
            ev.append(E.RoundStarted(f.round))
            i = 0
        return self._begin(f, i, ev)

    def joined(self, f: Fight, c: Combatant, ev: Events) -> Fight:
        value = dict(c.stats).get("init", 10)
        f = put(f, replace(c, initiative=value, economy=PlainEconomy(reactions=1)))
        ev.append(E.InitiativeRolled(c.id, c.name, value, None, "(joined)"))
        return self.reorder(replace(f, order=f.order + (c.id,)))

    def left(self, f: Fight, cid: str, ev: Events) -> Fight:
        if f.current != cid:
            f = super().left(f, cid, ev)
            return self.order_changed(f)
        # the acting one leaves: the turn passes to whoever was next
        i = f.order.index(cid)
        order = tuple(x for x in f.order if x != cid)
        f = replace(f, order=order, current="")
        if not order:
            return f
        if i >= len(order):
            f = replace(f, round=f.round + 1)
            ev.append(E.RoundStarted(f.round))
            i = 0
        return self._begin(f, i, ev)

    def reorder(self, f: Fight) -> Fight:
        return self.order_changed(replace(f, order=self._sorted(f, f.order)))

    # --- the economy --------------------------------------------------------------------------
    def use(self, f: Fight, cmd: C.UseAction, ev: Events) -> Fight:
        c = f.get(cmd.who)
        why = live_reason(f)
        if why:
            raise RuleError(why)
        e = c.economy
        label = cmd.name.strip()
        if cmd.what == "action":
            self._own_action(f, c)
            e = replace(e, actions=0)
        elif cmd.what == "reaction":
            if e.reactions < 1:
                raise RuleError(f"{c.name} has already used its reaction: it is back at the start of its turn.")
            e = replace(e, reactions=0)
        else:
            raise RuleError(f"Plain list has an action and a reaction, not '{cmd.what}'.")
        f = put(f, replace(c, economy=replace(e, used=e.used + ((label,) if label else ()))))
        c = f.get(c.id)
        ev.append(E.ActionUsed(c.id, c.name, cmd.what, label, self.describe_economy(c)))
        return f

    def _own_action(self, f: Fight, c: Combatant) -> None:
        if f.current != c.id:
            raise RuleError(f"It is not {c.name}'s turn.")
        if c.economy.actions < 1:
            raise RuleError(f"{c.name} has already taken its one action this turn.")

    def _shove(self, f: Fight, cmd: Shove, ev: Events) -> Fight:
        why = live_reason(f)
        if why:
            raise RuleError(why)
        c = f.get(cmd.who)
        t = f.get(cmd.target)
        if t.id == c.id:
            raise RuleError(f"{c.name} cannot shove itself.")
        self._own_action(f, c)
        f = put(f, replace(c, economy=replace(c.economy, actions=0, used=c.economy.used + ("Shove",))))
        ev.append(Shoved(c.id, c.name, t.id, t.name))
        if not t.has("Prone"):
            t = f.get(t.id)
            f = put(f, replace(t, conditions=t.conditions + (Condition("Prone", source=c.id),)))
            ev.append(E.ConditionAdded(t.id, t.name, "Prone", f"shoved by {c.name}"))
        return f

    def economy_of(self, c: Combatant, f: Fight | None = None) -> tuple[EconomyItem, ...]:
        e = c.economy
        mine = f is not None and f.current == c.id
        if mine:
            act: EconomyState = "available" if e.actions > 0 else "spent"
            why = ""
        else:
            act, why = "barred", ("Not its turn" if f is not None and f.started else "Fight not started")
        react: EconomyState = "available" if e.reactions > 0 else "spent"
        return (
            EconomyItem("action", "A", str(e.actions), act, why, "Action", yes_no(e.actions > 0),
                        f"A{e.actions}", "A", e.actions, sheet=mine),
            EconomyItem("reaction", "R", str(e.reactions), react, "", "Reaction", yes_no(e.reactions > 0),
                        f"R{e.reactions}", "R", e.reactions),
        )

    def rules_actions(self, f: Fight) -> tuple[ActionInfo, ...]:
        live = live_reason(f)
        cur = f.find(f.current) if f.current else None
        users = tuple(dict.fromkeys(
            ([cur.id] if cur is not None and cur.economy.actions > 0 else [])
            + [c.id for c in f.combatants if c.economy.reactions > 0]
        ))
        shover = (cur.id,) if cur is not None and cur.economy.actions > 0 and len(f.combatants) > 1 else ()
        no_shove = live or ("" if shover else "Only the acting combatant, with its action left, can shove someone.")
        return (
            offer("use", "Use the action or the reaction", live or anyone(f, users, "Nobody can act or react now."),
                  users),
            offer("shove", "Shove someone Prone", no_shove, shover),
        )
