"""Nine-phase: a round is nine phases; 3 actions and 1 reaction for the whole round.

In each phase a combatant acts once, reacts once, or does nothing. Everything in one phase is
adjudicated together: a combatant dropped in phase N still completes its phase-N activity and cannot
act after. Channels are Phase-Locked Master Actions that resolve as many phases later as they cost, and
break on damage or a saving throw strictly inside that window. The clock (NinePhaseClock) holds the
current phase 1-9 (`Fight.phase` reads it); there is no current combatant. See docs/rules/ninephase.md.
"""

from __future__ import annotations

from msgspec.structs import replace

from engine import commands as C
from engine import events as E
from engine import pools
from engine.errors import RuleError
from engine.rules.ninephase import attack, catalog
from engine.rules.ninephase.clock import PHASES, NinePhaseClock
from engine.rules.ninephase.commands import Activity
from engine.rules.ninephase.economy import NinePhaseEconomy
from engine.rules.ninephase.events import ChannelBegun, ChannelInterrupted, ChannelResolved
from engine.ruleset import (
    ActionInfo,
    EconomyItem,
    EconomyState,
    Events,
    Handler,
    Ruleset,
    StatSpec,
    anyone,
    expire_at,
    live_reason,
    offer,
    yes_no,
)
from engine.state import ActivitySpec, Channel, Combatant, Fight, PhaseUse, Pool, put, set_pool

ACTIONS = 3
HEALTH = ("hp", "grit")

# The states the text names for a creature, in its words where it has one and described in ours; the
# text gives them no mechanics of their own, so none is applied (the GM rules on them). A channel is
# not here: the board tracks it, and damage or a save interrupts it (channels, not a condition).
CONDITIONS: dict[str, str] = {
    "Quickened": "Made quicker (by a spell or a gift): can act as early as phase 1, a system phase."
    " The GM applies it.",
    "Debilitated": "Hampered in some way: acts late, as late as phase 9, a system phase. The GM applies it.",
}


def _round_pools(f: Fight, ev: Events) -> Fight:
    """The start of a round is everyone's turn start here: pools refresh, recharges are owed."""
    for c in f.combatants:
        f = pools.turn_start(f, c.id, ev)
    return f


def _fresh() -> NinePhaseEconomy:
    return NinePhaseEconomy(actions=ACTIONS, reactions=1)


def _close_channels(c: Combatant, phase: int) -> Combatant:
    """Mark the channels completing in `phase` as resolved (kept for the board until the round ends)."""
    if not any(ch.status == "" and ch.end == phase for ch in c.channels):
        return c
    return replace(
        c,
        channels=tuple(
            replace(ch, status="resolved", at=phase) if ch.status == "" and ch.end == phase else ch
            for ch in c.channels
        ),
    )


def _carried(c: Combatant) -> tuple[Channel, ...]:
    """The channels under way that run on into the next round (their activity says they may), with
    their phases counted from the new round: begun in phase 8 of the last round is phase -1 now, so
    the interruption window (strictly between start and end) carries over unchanged."""
    return tuple(
        replace(ch, start=ch.start - PHASES, end=ch.end - PHASES)
        for ch in c.channels
        if ch.status == "" and ch.end > PHASES
    )


def _pools(stats: tuple[tuple[str, int], ...], old: tuple[Pool, ...]) -> tuple[Pool, ...]:
    """The resource pools of the stats other than the two health tracks (keys in lower case, as
    `spend` looks them up; a stat of 0 or less gives none). What was already spent stays spent when
    a stat is edited."""
    wanted: dict[str, int] = {}
    for key, value in stats:
        wanted[key.lower()] = value  # "Slot3" then "slot3": the later one counts
    pools: list[Pool] = []
    for k, value in wanted.items():
        if k in HEALTH or value <= 0:
            continue
        was = next((p for p in old if p.key == k), None)
        if was is None:
            pools.append(Pool(k, value, value))
        else:
            spent = was.max - was.current
            pools.append(Pool(k, max(value - spent, min(was.current, value), 0), value))
    return tuple(pools)


class NinePhase(Ruleset):
    id = "ninephase"
    economy_type = NinePhaseEconomy
    clock_type = NinePhaseClock
    phases = PHASES
    title = "Nine-phase"
    summary = "Nine phases a round; 3 actions and 1 reaction a round; Master Actions; channels."
    turn_legend = (
        "●○ the round's 3 actions (● left, ○ spent), R reaction, M Master Action (bright while still to"
        " use, dim when spent or not possible now)."
    )
    stats = (
        StatSpec("hp", "Hit points", 10, 0, 9999),
        StatSpec("grit", "Grit", 5, 0, 9999),
    )
    conditions = CONDITIONS
    # the text does not say which pool damage takes first: Grit first, the GM can choose per hit
    damage_order = ("grit", "hp")
    # no turns here: effects end at the end of a phase or of a round
    durations = ("manual", "phase_end", "round_end")
    durations_help = "Nine-phase conditions end at the end of a phase or of a round, or when removed by hand."

    def health(self, stats: tuple[tuple[str, int], ...]) -> tuple[Pool, ...]:
        s = dict(stats)
        return (Pool("hp", s.get("hp", 10), s.get("hp", 10)), Pool("grit", s.get("grit", 5), s.get("grit", 5)))

    def resources(self, stats: tuple[tuple[str, int], ...], cmd: C.AddCombatant) -> tuple[Pool, ...]:
        """Every number besides Hit Points and Grit is something the GM counts down (spell slots and
        the like): a pool that `spend` and an activity's `resource` draw on."""
        return _pools(stats, ())

    def restat(self, c: Combatant, stats: tuple[tuple[str, int], ...]) -> Combatant:
        c = super().restat(c, stats)
        # a statblock's own pools (a recharging ability, uses) are not stats: kept as they are
        keys = {k.lower() for k, _ in stats}
        own = tuple(p for p in c.resources if p.key.lower() not in keys)
        return replace(c, resources=_pools(stats, c.resources) + own)

    def fresh_economy(self) -> NinePhaseEconomy:
        return _fresh()

    def handlers(self) -> dict[type[C.Command], Handler]:
        return {
            Activity: self._activity,
            catalog.DoActivity: self._do_activity,
            catalog.DefineActivity: lambda f, cmd, ev: catalog.define(f, cmd, ev),
            catalog.ForgetActivity: lambda f, cmd, ev: catalog.forget(f, cmd, ev),
            catalog.StopChannel: self._stop_channel,
            attack.NineAttack: lambda f, cmd, ev: attack.attack(self, f, cmd, ev),
        }

    # --- fight flow ---------------------------------------------------------------------------
    def start(self, f: Fight, cmd: C.StartFight, ev: Events) -> Fight:
        if cmd.surprised:
            raise RuleError("Nine-phase combat has no Surprised rule; note it or add a condition by hand.")
        f = replace(
            f,
            round=1,
            clock=NinePhaseClock(1),
            combatants=tuple(replace(c, economy=_fresh(), channels=()) for c in f.combatants),
        )
        ev.append(E.RoundStarted(1))
        ev.append(E.PhaseStarted(1, 1, "Phase 1"))
        return _round_pools(f, ev)

    def actors(self, f: Fight) -> tuple[str, ...]:
        return tuple(c.id for c in f.combatants if self.may_act(f, c))

    def may_act(self, f: Fight, c: Combatant) -> bool:
        if any(u.phase == f.phase for u in c.economy.phases):
            return False
        return not self.out(f, c)

    def phase_refusal(self, f: Fight, c: Combatant) -> str:
        """Why `c` may neither act nor react in this phase ("" if it may): down, or its one turn of
        the phase already taken. Shared by every activity and by what the app offers."""
        if self.out(f, c):
            if c.dropped is None:
                # added or edited at 0 Hit Points: it never dropped in a phase, it is simply down
                return f"{c.name} is at 0 Hit Points and cannot act."
            return f"{c.name} dropped in an earlier phase and cannot act any more."
        here = next((u for u in c.economy.phases if u.phase == f.phase), None)
        if here is not None:
            did = "acted" if here.kind == "act" else "reacted"
            return f"{c.name} has already {did} in phase {f.phase} ({here.activity}): one turn a phase."
        return ""

    def out(self, f: Fight, c: Combatant) -> bool:
        """Dropped in an earlier phase (or round): it cannot act any more."""
        if not c.down:
            return False
        d = c.dropped
        return d is None or d != (f.round, f.phase)

    def advance(self, f: Fight, ev: Events) -> Fight:
        ended = f.phase
        # channels whose completion phase this was are done (they were announced when it began)
        f = replace(f, combatants=tuple(_close_channels(c, ended) for c in f.combatants))
        f = expire_at(f, ev, ended)
        if ended < PHASES:
            f = replace(f, clock=NinePhaseClock(ended + 1))
            ev.append(E.PhaseStarted(f.round, f.phase, f"Phase {f.phase}"))
            return self._announce(f, ev)
        f = expire_at(f, ev, None)
        lost = []
        for c in f.combatants:
            e = c.economy
            if self.out(f, c) or not (e.actions or e.reactions):
                continue
            parts = [f"{e.actions} action{'s' if e.actions != 1 else ''}"] if e.actions else []
            if e.reactions:
                parts.append("the reaction")
            lost.append(f"{c.name} {' and '.join(parts)}")
        if lost:
            ev.append(E.Info(f"End of round {f.round}, unused and lost: " + "; ".join(lost)))
        f = replace(
            f,
            round=f.round + 1,
            clock=NinePhaseClock(1),
            combatants=tuple(replace(c, economy=_fresh(), channels=_carried(c)) for c in f.combatants),
        )
        ev.append(E.RoundStarted(f.round))
        ev.append(E.PhaseStarted(f.round, 1, "Phase 1"))
        return self._announce(_round_pools(f, ev), ev)

    def pay_ability(self, f: Fight, cmd: C.UseAbility, ev: Events) -> Fight:
        """A statblock's ability is an activity of this phase: "action" (costing `cost` actions) or
        "reaction", under every rule of acting in a phase."""
        if not cmd.act:
            return f
        if cmd.act not in ("action", "reaction"):
            raise RuleError(f"Nine-phase abilities are an action or a reaction in this phase, not '{cmd.act}'.")
        reaction = cmd.act == "reaction"
        spec = ActivitySpec(cmd.name.strip(), cost=None if reaction else cmd.cost, reaction=reaction)
        return self.perform(f, cmd.who, spec, None, ev)

    # --- acting and reacting ------------------------------------------------------------------
    def _activity(self, f: Fight, cmd: Activity, ev: Events) -> Fight:
        return self.perform(f, cmd.who, catalog.as_spec(cmd), cmd.earliest, ev, self.spend_of(cmd.resource, cmd.amount))

    @staticmethod
    def spend_of(resource: str, amount: int) -> tuple[str, int] | None:
        if not resource.strip():
            if amount != 1:
                raise RuleError("An amount to spend needs the resource it is spent from.")
            return None
        return (resource.strip().lower(), amount)

    def _do_activity(self, f: Fight, cmd: catalog.DoActivity, ev: Events) -> Fight:
        spec = catalog.find(f, cmd.name)
        if spec is None:
            raise RuleError(f"There is no activity called {cmd.name.strip() or '(blank)'} in the catalog.")
        earliest = catalog.earliest(spec, cmd.speed)
        return self.perform(f, cmd.who, spec, earliest, ev, self.spend_of(cmd.resource, cmd.amount))

    def perform(
        self,
        f: Fight,
        who: str,
        spec: ActivitySpec,
        earliest: int | None,
        ev: Events,
        spend: tuple[str, int] | None = None,
    ) -> Fight:
        """Act or react in the current phase: every rule of the text checked before anything changes.

        `spend`: (resource key, amount) used to begin the activity, spent with its actions."""
        if not f.started or f.ended:
            raise RuleError("The fight is not under way.")
        c = f.get(who)
        spec = catalog.check_spec(replace(spec, phase=earliest, weapon=False))
        self._check_act(f, c, spec, earliest)
        name = spec.name
        p = f.phase
        c, pool = _spend_resource(c, name, spend)
        e = c.economy
        e = replace(
            e,
            actions=e.actions - spec.cost,
            reactions=e.reactions - (1 if spec.reaction else 0),
            master=e.master or spec.master,
            used=e.used + (name,),
            phases=e.phases + (PhaseUse(p, "react" if spec.reaction else "act", name),),
        )
        c = replace(c, economy=e)
        if spec.channel:
            spent = (spend,) if spend is not None else ()
            c = replace(c, channels=c.channels + (Channel(name, p, p + spec.cost, spec.uninterruptible, spent=spent),))
        f = put(f, c)
        ev.append(E.ActionUsed(c.id, c.name, _action_kind(spec), name, self.describe_economy(c)))
        if spend is not None and pool is not None:
            ev.append(E.ResourceChanged(c.id, c.name, pool.key, -spend[1], pool.current))
        if spec.channel:
            ev.append(ChannelBegun(c.id, c.name, name, p, p + spec.cost))
            if spec.cost == 0:
                # a channel resolves after as many phases as it costs: a 0-cost one in this phase
                f = self._announce(f, ev, only=c.id)
        return f

    def _check_act(self, f: Fight, c: Combatant, spec: ActivitySpec, earliest: int | None) -> None:
        """May it act with this now: its phase, each activity once a round, a Phase Lock or an
        earliest phase, the reaction, the actions left, the Master Action, a channel that must
        resolve within the round."""
        e = c.economy
        name = spec.name
        p = f.phase
        refusal = self.phase_refusal(f, c)
        if refusal:
            raise RuleError(refusal)
        if not spec.repeatable and name.lower() in (u.lower() for u in e.used):
            raise RuleError(f"{c.name} has already attempted {name} this round: each activity once a round.")
        if earliest is not None:
            if spec.lock and p != earliest:
                raise RuleError(f"{name} is Phase Locked to phase {earliest}; it is phase {p}.")
            if p < earliest:
                raise RuleError(f"{name} cannot start before phase {earliest}; it is phase {p}.")
        if spec.reaction and e.reactions < 1:
            raise RuleError(f"{c.name} has already used its reaction this round.")
        if spec.cost > e.actions:
            plural = "s" if spec.cost != 1 else ""
            raise RuleError(f"{name} costs {spec.cost} action{plural} and {c.name} has {e.actions} left.")
        if spec.master and e.master:
            raise RuleError(f"{c.name} has already used its Master Action this round.")
        if spec.channel and p + spec.cost > PHASES and not spec.across_rounds:
            raise RuleError(
                f"A {spec.cost}-action channel begun in phase {p} would resolve in phase "
                f"{p + spec.cost}, after the round ends."
            )

    def _announce(self, f: Fight, ev: Events, only: str = "") -> Fight:
        """Channels completing in the phase that just began resolve now, with no new turn: the GM
        adjudicates their effect together with everything else in this phase."""
        for c in f.combatants:
            if only and c.id != only:
                continue
            for ch in c.channels:
                if ch.status == "" and ch.end == f.phase:
                    ev.append(ChannelResolved(c.id, c.name, ch.activity, f.phase))
                    if self.out(f, c) or c.down:
                        ev.append(E.Info(
                            f"{c.name} is down: {ch.activity} still completes, but its target must "
                            "still be valid (the GM's call).", c.id,
                        ))
        return f

    def _stop_channel(self, f: Fight, cmd: catalog.StopChannel, ev: Events) -> Fight:
        if not f.started or f.ended:
            raise RuleError("The fight is not under way.")
        c = f.get(cmd.who)
        live = [ch for ch in c.channels if ch.status == ""]
        want = cmd.activity.strip().lower()
        pick = [ch for ch in live if not want or ch.activity.lower() == want]
        if cmd.start is not None:
            # a channel carried from last round keeps its start counted back from this round's phase 1
            pick = [ch for ch in pick if cmd.start in (ch.start, ch.start + PHASES)]
        if not pick:
            what = f" called {cmd.activity.strip()}" if want else ""
            begun = f" begun in phase {cmd.start}" if cmd.start is not None else ""
            raise RuleError(f"{c.name} has no channel{what}{begun} under way.")
        if len(pick) > 1:
            if want:
                raise RuleError(
                    f"{c.name} has several {pick[0].activity} channels under way: say which by the phase it began."
                )
            raise RuleError(f"{c.name} has several channels under way: name the one to stop.")
        why = cmd.reason.strip() or f"stopped in phase {f.phase}"
        if len(why) > 200:
            raise RuleError("Keep the reason to one short line (200 characters).")
        ch = pick[0]
        ev.append(ChannelInterrupted(c.id, c.name, ch.activity, why, _lost(ch)))
        stopped = replace(ch, status="interrupted", at=f.phase)
        return put(f, replace(c, channels=tuple(stopped if x is ch else x for x in c.channels)))

    # --- interruption -------------------------------------------------------------------------
    def _interrupt(self, f: Fight, c: Combatant, why: str, ev: Events) -> Fight:
        p = f.phase
        broken = [
            ch for ch in c.channels
            if ch.status == "" and ch.start < p < ch.end and not ch.uninterruptible
        ]
        if not broken:
            return f
        for ch in broken:
            ev.append(ChannelInterrupted(c.id, c.name, ch.activity, why, _lost(ch)))
        chans = tuple(
            replace(ch, status="interrupted", at=p) if ch in broken else ch for ch in c.channels
        )
        return put(f, replace(c, channels=chans))

    def damage_taken(self, f: Fight, c: Combatant, amount: int, cmd: C.Damage, ev: Events) -> Fight:
        if amount <= 0:
            return f
        return self._interrupt(f, c, f"took damage in phase {f.phase}", ev)

    def save_made(self, f: Fight, c: Combatant, ev: Events) -> Fight:
        return self._interrupt(f, c, f"made a saving throw in phase {f.phase}", ev)

    def dropped_state(self, f: Fight, c: Combatant) -> str:
        d = c.dropped
        if d is None or d == (f.round, f.phase):
            return f"drops in phase {f.phase}; it finishes this phase and cannot act after"
        when = f"phase {d[1]}" if d[0] == f.round else f"phase {d[1]} of round {d[0]}"
        return f"dropped in {when}; it acts no more"

    def economy_of(self, c: Combatant, f: Fight | None = None) -> tuple[EconomyItem, ...]:
        e = c.economy
        # down, or its one turn of this phase taken: nothing more this phase, though not spent
        bar = self.phase_refusal(f, c) if f is not None and f.started and not f.ended else ""
        # the sheet's short why (the count of actions is dimmed beside it): down, or its one turn taken
        barred = f"barred ({'down' if f is not None and self.out(f, c) else 'one turn a phase'})"

        def state(left: bool) -> EconomyState:
            return "spent" if not left else ("barred" if bar else "available")

        def detail(left: bool, text: str) -> str:
            return text if state(left) != "barred" else barred

        a, r, m = e.actions > 0, e.reactions > 0, not e.master
        return (
            EconomyItem(
                "action", "A", f"{e.actions} of {ACTIONS}", state(a), bar if a else "", "Actions",
                f"{e.actions} of {ACTIONS} left this round", f"A{e.actions}", "", e.actions, ACTIONS, plain=True,
            ),
            EconomyItem(
                "reaction", "R", str(e.reactions), state(r), bar if r else "", "Reaction", detail(r, yes_no(r)),
                f"R{e.reactions}", "R", e.reactions,
            ),
            EconomyItem(
                "master", "M", yes_no(m), state(m), bar if m else "", "Master Action", detail(m, yes_no(m)),
                "M" if m else "m", "M",
            ),
        )

    def rules_actions(self, f: Fight) -> tuple[ActionInfo, ...]:
        live = live_reason(f)
        # with no action or reaction left, an activity a feature makes free (0 actions) is still
        # taken (as `perform` allows): only the phase's own refusal bars one
        able = tuple(c.id for c in f.combatants if not self.phase_refusal(f, c))
        why = live or anyone(f, able, f"Nobody can act or react in phase {f.phase}.")
        return (
            offer("activity", "Take an activity in this phase", why, able),
            # a weapon attack is an activity of the phase too: the same who, the same reason
            offer("attack", "Attack with a weapon in this phase", why, able),
        )

    def phase_label(self, f: Fight) -> str:
        return f"Round {f.round} · Phase {f.phase}"


def _spend_resource(c: Combatant, name: str, spend: tuple[str, int] | None) -> tuple[Combatant, Pool | None]:
    """A resource spent to begin the activity (a spell slot, ...): taken from the pool of that name
    when it acts. Returns the combatant with it spent and the pool as it is left (None: nothing spent)."""
    if spend is None:
        return c, None
    key, much = spend
    pool = next((x for x in c.resources if x.key == key), None)
    if pool is None:
        have = ", ".join(x.key for x in c.resources) or "none"
        raise RuleError(f"{c.name} has no '{key}' to spend on {name} (it has: {have}).")
    if not 1 <= much <= 1_000_000:
        raise RuleError(f"Spend at least 1 {key} on {name}, not {much}.")
    if pool.current < much:
        raise RuleError(f"{name} needs {much} {key} and {c.name} has {pool.current} left.")
    pool = replace(pool, current=pool.current - much)
    return replace(c, resources=set_pool(c.resources, pool)), pool


def _action_kind(spec: ActivitySpec) -> str:
    """What the log calls the activity's cost: actions, a reaction (with actions when its rules make
    it cost some), Master."""
    kind = "reaction" if spec.reaction else f"{spec.cost} action{'s' if spec.cost != 1 else ''}"
    if spec.reaction and spec.cost:
        kind = f"reaction, {spec.cost} action{'s' if spec.cost != 1 else ''}"
    if spec.master:
        # a Master Reaction that its rules make cost actions says so, like any other reaction
        kind = ("Master " + kind[0].upper() + kind[1:]) if spec.reaction else f"Master Action, {kind}"
    return kind


def _lost(ch: Channel) -> str:
    """What the interruption line names as lost, besides the actions: the resources spent to begin."""
    if not ch.spent:
        return ""
    return ", ".join(f"{n} {key}" for key, n in ch.spent)
