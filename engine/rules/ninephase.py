"""Nine-phase: a round is nine phases; 3 actions and 1 reaction for the whole round.

In each phase a combatant acts once, reacts once, or does nothing. Everything in one phase is
adjudicated together: a combatant dropped in phase N still completes its phase-N activity and cannot
act after. Channels are Phase-Locked Master Actions that resolve as many phases later as they cost, and
break on damage or a saving throw strictly inside that window. `phase` is the current phase 1-9; there
is no current combatant. See docs/rules/ninephase.md.
"""

from __future__ import annotations

from msgspec.structs import replace

from engine import commands as C
from engine import events as E
from engine.errors import RuleError
from engine.rules.base import Events, Handler, Ruleset, StatSpec, expire_at, register
from engine.state import Channel, Combatant, Economy, Fight, PhaseUse, Pool, put

ACTIONS = 3
PHASES = 9

CONDITIONS: dict[str, str] = {}


def _fresh() -> Economy:
    return Economy(actions=ACTIONS, reactions=1)


@register
class NinePhase(Ruleset):
    id = "ninephase"
    title = "Nine-phase"
    summary = "Nine phases a round; 3 actions and 1 reaction a round; Master Actions; channels."
    stats = (
        StatSpec("hp", "Hit points", 10, 0, 9999),
        StatSpec("grit", "Grit", 5, 0, 9999),
    )
    conditions = CONDITIONS
    # the text does not say which pool damage takes first: Grit first, the GM can choose per hit
    damage_order = ("grit", "hp")

    def health(self, stats: tuple[tuple[str, int], ...]) -> tuple[Pool, ...]:
        s = dict(stats)
        return (Pool("hp", s.get("hp", 10), s.get("hp", 10)), Pool("grit", s.get("grit", 5), s.get("grit", 5)))

    def fresh_economy(self) -> Economy:
        return _fresh()

    def handlers(self) -> dict[type[C.Command], Handler]:
        return {C.Activity: self._activity}

    # --- fight flow ---------------------------------------------------------------------------
    def start(self, f: Fight, cmd: C.StartFight, ev: Events) -> Fight:
        if cmd.surprised:
            raise RuleError("Nine-phase combat has no Surprised rule; note it or add a condition by hand.")
        f = replace(
            f,
            round=1,
            phase=1,
            combatants=tuple(replace(c, economy=_fresh(), channels=()) for c in f.combatants),
        )
        ev.append(E.RoundStarted(1))
        ev.append(E.PhaseStarted(1, 1, "Phase 1"))
        return f

    def actors(self, f: Fight) -> tuple[str, ...]:
        return tuple(c.id for c in f.combatants if self.may_act(f, c))

    def may_act(self, f: Fight, c: Combatant) -> bool:
        if any(u.phase == f.phase for u in c.economy.phases):
            return False
        return not self.out(f, c)

    def out(self, f: Fight, c: Combatant) -> bool:
        """Dropped in an earlier phase (or round): it cannot act any more."""
        if not c.down:
            return False
        d = c.dropped
        return d is None or d != (f.round, f.phase)

    def advance(self, f: Fight, ev: Events) -> Fight:
        ended = f.phase
        # channels completing in this phase resolve automatically, with no new turn
        cs = []
        for c in f.combatants:
            done = [ch for ch in c.channels if ch.end == ended]
            if done:
                for ch in done:
                    ev.append(E.ChannelResolved(c.id, c.name, ch.activity, ended))
                c = replace(c, channels=tuple(ch for ch in c.channels if ch.end != ended))
            cs.append(c)
        f = replace(f, combatants=tuple(cs))
        f = expire_at(f, ev, ended)
        if ended < PHASES:
            f = replace(f, phase=ended + 1)
            ev.append(E.PhaseStarted(f.round, f.phase, f"Phase {f.phase}"))
            return f
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
            phase=1,
            combatants=tuple(replace(c, economy=_fresh(), channels=()) for c in f.combatants),
        )
        ev.append(E.RoundStarted(f.round))
        ev.append(E.PhaseStarted(f.round, 1, "Phase 1"))
        return f

    # --- acting and reacting ------------------------------------------------------------------
    def _activity(self, f: Fight, cmd: C.Activity, ev: Events) -> Fight:
        if not f.started or f.ended:
            raise RuleError("The fight is not under way.")
        c = f.get(cmd.who)
        e = c.economy
        name = cmd.name.strip()
        p = f.phase
        if not name:
            raise RuleError("Name the activity.")
        if not 0 <= cmd.cost <= 3:
            raise RuleError("An activity costs 0 to 3 actions.")
        if cmd.earliest is not None and not 1 <= cmd.earliest <= PHASES:
            raise RuleError("An activity's phase is a number from 1 to 9.")
        if self.out(f, c):
            raise RuleError(f"{c.name} dropped in an earlier phase and cannot act any more.")
        here = next((u for u in e.phases if u.phase == p), None)
        if here is not None:
            did = "acted" if here.kind == "act" else "reacted"
            raise RuleError(f"{c.name} has already {did} in phase {p} ({here.activity}): one turn a phase.")
        if name.lower() in (u.lower() for u in e.used):
            raise RuleError(f"{c.name} has already attempted {name} this round: each activity once a round.")
        channel = cmd.channel or cmd.uninterruptible
        master = cmd.master or channel
        lock = cmd.lock or channel
        if channel and cmd.reaction:
            raise RuleError("A reaction cannot be channeled.")
        if lock and cmd.earliest is None:
            raise RuleError(f"{name} is Phase Locked: give the phase it is locked to.")
        if cmd.earliest is not None:
            if lock and p != cmd.earliest:
                raise RuleError(f"{name} is Phase Locked to phase {cmd.earliest}; it is phase {p}.")
            if p < cmd.earliest:
                raise RuleError(f"{name} cannot start before phase {cmd.earliest}; it is phase {p}.")
        if cmd.reaction:
            if e.reactions < 1:
                raise RuleError(f"{c.name} has already used its reaction this round.")
            if cmd.master and e.master:
                raise RuleError(f"{c.name} has already used its Master Action this round.")
        if cmd.cost > e.actions:
            raise RuleError(f"{name} costs {cmd.cost} actions and {c.name} has {e.actions} left.")
        if master and not cmd.reaction and e.master:
            raise RuleError(f"{c.name} has already used its Master Action this round.")
        if channel and p + cmd.cost > PHASES:
            raise RuleError(
                f"A {cmd.cost}-action channel begun in phase {p} would resolve in phase "
                f"{p + cmd.cost}, after the round ends."
            )
        e = replace(
            e,
            actions=e.actions - cmd.cost,
            reactions=e.reactions - (1 if cmd.reaction else 0),
            master=e.master or master,
            used=e.used + (name,),
            phases=e.phases + (PhaseUse(p, "react" if cmd.reaction else "act", name),),
        )
        c = replace(c, economy=e)
        if channel and cmd.cost > 0:
            c = replace(c, channels=c.channels + (Channel(name, p, p + cmd.cost, cmd.uninterruptible),))
        f = put(f, c)
        kind = "reaction" if cmd.reaction else f"{cmd.cost} action{'s' if cmd.cost != 1 else ''}"
        if master:
            kind = ("Master Reaction" if cmd.reaction else f"Master Action, {kind}")
        ev.append(E.ActionUsed(c.id, c.name, kind, name, self.describe_economy(c)))
        if channel and cmd.cost > 0:
            ev.append(E.ChannelBegun(c.id, c.name, name, p, p + cmd.cost))
        elif channel:
            ev.append(E.ChannelResolved(c.id, c.name, name, p))
        return f

    # --- interruption -------------------------------------------------------------------------
    def _interrupt(self, f: Fight, c: Combatant, why: str, ev: Events) -> Fight:
        p = f.phase
        broken = [ch for ch in c.channels if ch.start < p < ch.end and not ch.uninterruptible]
        if not broken:
            return f
        for ch in broken:
            ev.append(E.ChannelInterrupted(c.id, c.name, ch.activity, why))
        return put(f, replace(c, channels=tuple(ch for ch in c.channels if ch not in broken)))

    def damage_taken(self, f: Fight, c: Combatant, amount: int, cmd: C.Damage, ev: Events) -> Fight:
        if amount <= 0:
            return f
        return self._interrupt(f, c, f"took damage in phase {f.phase}", ev)

    def save_made(self, f: Fight, c: Combatant, ev: Events) -> Fight:
        return self._interrupt(f, c, f"made a saving throw in phase {f.phase}", ev)

    def dropped_state(self, f: Fight, c: Combatant) -> str:
        return f"drops in phase {f.phase}; it finishes this phase and cannot act after"

    def describe_economy(self, c: Combatant) -> str:
        e = c.economy
        return f"A{e.actions} R{e.reactions}{' M' if not e.master else ' m'}"

    def phase_label(self, f: Fight) -> str:
        return f"Round {f.round} · Phase {f.phase}"
