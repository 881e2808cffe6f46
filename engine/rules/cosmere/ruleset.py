"""Cosmere: every round each combatant takes a fast turn (2 actions) or a slow turn (3 actions).

The round runs in four phases: fast PCs, fast NPCs, slow PCs, slow NPCs (allied NPCs act with the
NPCs). A PC may decide to go fast at the moment it acts; the GM picks which NPCs go fast. The clock's
`group` (CosmereClock) holds the phase index 0-3. Decisions where the text is silent are in
docs/rules/cosmere.md.
"""

from __future__ import annotations

from msgspec.structs import replace

from engine import commands as C
from engine import events as E
from engine.dice import roll
from engine.errors import RuleError
from engine.mechanics import GivenRolls, roll_or_given
from engine.rules.cosmere import combat
from engine.rules.cosmere.clock import CosmereClock
from engine.rules.cosmere.commands import ChooseSpeed, ChooseSpeeds, StartTurn
from engine.rules.cosmere.economy import CosmereEconomy
from engine.ruleset import (
    ActionInfo,
    EconomyItem,
    EconomyState,
    Events,
    Handler,
    Ruleset,
    StatSpec,
    add_surprise,
    anyone,
    begin_turn,
    end_surprise_after_turn,
    finish_turn,
    live_reason,
    offer,
    skip_turn,
    yes_no,
)
from engine.state import Combatant, Condition, Duration, Fight, Pool, put, set_pool

PHASES = ("Fast PC turns", "Fast NPC turns", "Slow PC turns", "Slow NPC turns")
# the actions a turn gives: a fast turn 2, a slow one 3 (an undecided turn is counted as slow)
TURN_ACTIONS = {"fast": 2, "slow": 3}


_SPEED_LETTER = {"fast": "F", "slow": "S"}  # the economy line's mark for the speed chosen ("?": undecided)


def turn_actions(speed: str) -> int:
    return TURN_ACTIONS.get(speed, TURN_ACTIONS["slow"])

CONDITIONS = {
    "Surprised": "Caught unaware: no reaction at the start of combat. Ends after its first turn.",
    "Slowed": "Movement costs double (entering a square needs 10 feet of movement left).",
    "Prone": "Knocked down (for example after taking falling damage); flying creatures fall.",
    "Braced": "Braced within 5 ft of cover: attacks against it take a disadvantage.",
    "Squeezing": "Squeezing into a smaller space: Slowed while it lasts, and attacks against it gain an advantage.",
    "In dangerous terrain": "Takes the terrain's damage on moving in and at the start of each turn there.",
}

SQUEEZED = "while squeezing"  # the note on the Slowed that Squeezing brings (and takes away again)
ANY_READIED = "an action"  # what a plain "Ready" holds: whichever action the GM names when it goes off


def readied(label: str) -> str | None:
    """The action that an action named "Ready", "Ready: Strike" or "Ready Strike" holds; None for any
    other action."""
    low = label.lower()
    if low == "ready":
        return ANY_READIED
    if low.startswith(("ready:", "ready ")):
        return label[6:].strip() or ANY_READIED
    return None


def _phase_of(c: Combatant, speed: str) -> int:
    fast = speed == "fast"
    if c.kind == "pc":
        return 0 if fast else 2
    return 1 if fast else 3


class Cosmere(Ruleset):
    id = "cosmere"
    economy_type = CosmereEconomy
    clock_type = CosmereClock
    title = "Cosmere"
    summary = "Fast (2 actions) or slow (3 actions) turns; fast PCs, fast NPCs, slow PCs, slow NPCs."
    turn_legend = (
        "··· the actions its turn will have (2 fast, 3 slow; undecided counts 3), ●○ on its turn (● left,"
        " ○ spent), — its turn is taken; R reaction (bright while still to use, dim when spent)."
    )
    stats = (
        StatSpec("hp", "Health", 10, 0, 9999),
        StatSpec("focus", "Focus", 3, 0, 99),
        StatSpec("investiture", "Investiture", 0, 0, 99),
        StatSpec("speed", "Movement (ft)", 25, 0, 500),
        StatSpec("phy", "Physical defense", 12, 0, 60),
        StatSpec("cog", "Cognitive defense", 12, 0, 60),
        StatSpec("spi", "Spiritual defense", 12, 0, 60),
    )
    conditions = CONDITIONS
    takes_turn_rolls = True

    def resources(self, stats: tuple[tuple[str, int], ...], cmd: C.AddCombatant) -> tuple[Pool, ...]:
        s = dict(stats)
        return (Pool("focus", s["focus"], s["focus"]), Pool("investiture", s["investiture"], s["investiture"]))

    def restat(self, c: Combatant, stats: tuple[tuple[str, int], ...]) -> Combatant:
        return self.follow_stats(super().restat(c, stats), stats)

    def handlers(self) -> dict[type[C.Command], Handler]:
        return {
            ChooseSpeed: self._choose,
            ChooseSpeeds: self._choose_all,
            StartTurn: self._take_turn,
            C.NextTurn: self._next_command,
            combat.CosmereAttack: lambda f, cmd, ev: combat.attack(self, f, cmd, ev),
            combat.Fall: lambda f, cmd, ev: combat.fall(self, f, cmd, ev),
            combat.EnterTerrain: lambda f, cmd, ev: combat.enter_terrain(self, f, cmd, ev),
            combat.Grant: lambda f, cmd, ev: combat.grant(self, f, cmd, ev),
        }

    # --- fight flow ---------------------------------------------------------------------------
    def start(self, f: Fight, cmd: C.StartFight, ev: Events) -> Fight:
        GivenRolls(f, cmd.rolls).done()  # no turn starts with the fight: nothing rolls on its own
        given = dict(cmd.initiative)
        rng = f.rng
        cs = []
        # Surprised given with the start, or added by hand before it: no reaction either way
        surprised = set(cmd.surprised) | {c.id for c in f.combatants if c.has("Surprised")}
        for c in f.combatants:
            # the d20 only breaks ties of Speed within a phase; it is rolled once, at the start
            r, rng2 = roll_or_given("1d20", rng, given.get(c.id), None, f"{c.name}'s d20 for ties of Speed")
            if c.id not in given:
                rng = rng2
            ev.append(E.InitiativeRolled(c.id, c.name, r.total, r, "(d20 for ties of Speed)"))
            econ = CosmereEconomy(reactions=0 if c.id in surprised else 1)
            cs.append(replace(c, tiebreak=r.total, economy=econ))
        f = replace(f, combatants=tuple(cs), rng=rng, round=1, clock=CosmereClock(0))
        f = add_surprise(f, cmd.surprised, ev, "no reaction at the start of combat")
        ev.append(E.RoundStarted(1))
        ev.append(E.PhaseStarted(1, 0, PHASES[0]))
        return f

    def joined(self, f: Fight, c: Combatant, ev: Events) -> Fight:
        # joining mid-fight is its start of combat: a reaction (it is not Surprised), and its d20
        # for ties of Speed, as everyone else rolled at the start
        r, rng = roll("1d20", f.rng)
        ev.append(E.InitiativeRolled(c.id, c.name, r.total, r, "(d20 for ties of Speed)"))
        return put(replace(f, rng=rng), replace(c, tiebreak=r.total, economy=CosmereEconomy(reactions=1)))

    def suggested(self, f: Fight, phase: int) -> list[Combatant]:
        """Who may go in `phase`, in the suggested order: higher Speed first, then the d20 roll.

        Once the round is in the slow-NPC phase, a PC whose slow turn was passed over (the GM started
        a slow NPC early) still has its turn: it comes first, before the NPCs, as the slow PCs would
        have. Every character takes one turn each round."""
        late_pcs = phase == 3 and f.phase == 3
        out = []
        for c in f.combatants:
            e = c.economy
            # a combatant down at 0 health is not offered a turn (the GM can still start it by hand)
            if e.done or c.id == f.current or c.down:
                continue
            # a boss's fast turn comes unasked; after it, its speed reads "slow"
            if phase in (0, 1) and e.speed != "fast" and not (e.speed == "" and combat.is_boss(c)):
                continue
            if (c.kind == "pc") != (phase in (0, 2)) and not (late_pcs and c.kind == "pc"):
                continue
            out.append(c)
        out.sort(key=lambda c: (c.kind != "pc", -c.stat("speed"), -c.tiebreak))
        return out

    def actors(self, f: Fight) -> tuple[str, ...]:
        if f.current:
            return (f.current,)
        return tuple(c.id for c in self.suggested(f, f.phase))

    def _next_command(self, f: Fight, cmd: C.NextTurn, ev: Events) -> Fight:
        if not f.started or f.ended:
            raise RuleError("The fight is not under way.")
        given = GivenRolls(f, cmd.rolls)
        f = self.advance(f, ev, given)
        given.done()
        return f

    def advance(self, f: Fight, ev: Events, given: GivenRolls | None = None) -> Fight:
        """End the current turn and start the suggested next one. When the fast-PC phase has nobody
        who chose fast but someone is still undecided, stop there with no current turn: the GM ticks
        who goes fast (ChooseSpeeds), or a PC decides in the moment (StartTurn). Pressing next while
        stopped there moves on; the undecided go slow, named in the log."""
        arrived = bool(f.current)
        if f.current:
            f = self._end_turn(f, ev)
        for _ in range(9):
            nxt = self.suggested(f, f.phase)
            if nxt:
                return self._begin(f, nxt[0], ev, given=given)
            if arrived and f.phase == 0 and self._waits_for_choices(f):
                return f
            f = self._next_phase(f, ev)
            arrived = True
        return f

    def undecided(self, f: Fight, kinds: tuple[str, ...] = ("pc", "npc")) -> list[Combatant]:
        """Who has still to choose fast or slow this round: up, not acting, not done, not a boss (a
        boss takes both turns)."""
        return [
            c
            for c in f.combatants
            if c.kind in kinds and not c.economy.speed and not c.economy.done and not c.down
            and c.id != f.current and not combat.is_boss(c)
        ]

    def _waits_for_choices(self, f: Fight) -> bool:
        """The fast-PC phase waits while a PC may still decide in the moment, and at the round's
        start (nobody has acted) while anyone is undecided: the GM sees every choice made."""
        if self.undecided(f, ("pc",)):
            return True
        return not any(c.economy.done for c in f.combatants) and bool(self.undecided(f))

    def _undecided_go_slow(self, f: Fight, ev: Events) -> Fight:
        """The fast turns of a side are over: whoever of it never chose goes slow, named in the log
        (it was undecided, never silently slow). A boss keeps its own pair of turns."""
        kinds = ("pc",) if f.phase == 0 else ("npc",)
        names = [c.name for c in self.undecided(f, kinds)]
        for c in f.combatants:
            if c.kind in kinds and not c.economy.speed and not c.economy.done and not combat.is_boss(c):
                f = put(f, replace(c, economy=replace(c.economy, speed="slow")))
        if names:
            ev.append(E.Info(f"Undecided, so slow this round: {', '.join(names)}"))
        return f

    def _end_turn(self, f: Fight, ev: Events) -> Fight:
        c = f.get(f.current)
        e = c.economy
        lost = f"{e.actions} action{'s' if e.actions != 1 else ''}" if e.actions else ""
        cid = c.id
        fast = e.speed == "fast"
        f = finish_turn(self, f, ev, lost)
        c = f.get(cid)
        econ = replace(c.economy, actions=0, used=())
        if fast and combat.is_boss(c):
            # a boss takes a slow turn as well, with actions of its own
            econ = replace(econ, done=False, speed="slow")
            ev.append(E.Info(f"{c.name} (boss) takes a slow turn too this round", cid))
        f = put(f, replace(c, economy=econ))
        return end_surprise_after_turn(f, cid, ev, "after its first turn")

    def _skip_down(self, f: Fight, ev: Events, kinds: tuple[str, ...]) -> Fight:
        """The last phase a combatant could act in is over and it is down without having acted: its
        turn passes (durations that watch its turn tick, Surprised ends)."""
        for c in f.combatants:
            if c.kind in kinds and c.down and not c.economy.done and c.id != f.current:
                f = skip_turn(f, c.id, ev, "down at 0 health: no turn this round")
                c = f.get(c.id)
                f = put(f, replace(c, economy=replace(c.economy, done=True, actions=0, used=())))
                f = end_surprise_after_turn(f, c.id, ev, "its first turn passed")
        return f

    def _next_phase(self, f: Fight, ev: Events) -> Fight:
        # the phase ending, read once (f.phase is two calls; nothing below moves the clock before
        # the next phase is set)
        phase = f.phase
        if phase < 3:
            # anyone still owed a turn in this phase (the GM started someone from a later one) keeps
            # its turn in a later phase: say so, rather than let it pass unnoticed
            for c in self.suggested(f, phase):
                why = (
                    "chose a fast turn, but the fast PC turns are over: it goes slow",
                    "misses its fast turn: it goes slow",
                    "has not taken its turn yet: it goes in the slow NPC phase",
                )[phase]
                ev.append(E.Info(f"{c.name} {why}", c.id))
        if phase in (0, 1):
            f = self._undecided_go_slow(f, ev)
        if phase >= 2:
            # the slow PC phase is the last one a PC can act in; the slow NPC phase ends the round
            f = self._skip_down(f, ev, ("pc",) if phase == 2 else ("pc", "npc"))
        if phase < 3:
            f = replace(f, clock=CosmereClock(phase + 1))
            ev.append(E.PhaseStarted(f.round, phase + 1, PHASES[phase + 1]))
            return f
        f = replace(f, round=f.round + 1, clock=CosmereClock(0))
        f = replace(
            f,
            combatants=tuple(replace(c, economy=replace(c.economy, done=False, speed="")) for c in f.combatants),
        )
        ev.append(E.RoundStarted(f.round))
        ev.append(E.PhaseStarted(f.round, 0, PHASES[0]))
        return f

    def _begin(self, f: Fight, c: Combatant, ev: Events, speed: str = "", given: GivenRolls | None = None) -> Fight:
        speed = speed or c.economy.speed or ("fast" if f.phase in (0, 1) else "slow")
        if f.phase >= 2:
            speed = "slow"
        actions = turn_actions(speed)
        if c.economy.ready:
            # decision: a readied action waits until the start of its next turn
            ev.append(E.Info(f"{c.name}'s readied action lapses unused ({c.economy.ready})", c.id))
        # a new reaction at the start of every turn; unused actions never carry over
        econ = replace(c.economy, speed=speed, actions=actions, reactions=1, used=(), ready="")
        f = put(f, replace(c, economy=econ))
        f = begin_turn(self, f, c.id, ev, f"{speed} turn, {actions} actions")
        return combat.start_effects(self, f, c.id, ev, given)

    def choose_refusal(self, f: Fight, c: Combatant, speed: str = "slow") -> str:
        """Why `c` may not choose `speed` now ("" if it may): the one check ChooseSpeed and the
        app's offer share."""
        if not f.started or f.ended:
            return "Choose fast or slow once the fight is under way."
        if c.economy.done:
            return f"{c.name} has already taken its turn this round."
        if f.current == c.id:
            return f"{c.name} is taking its turn now: fast or slow was settled when it began."
        if combat.is_boss(c):
            return f"{c.name} is a boss: it takes both a fast and a slow turn each round."
        if speed == "fast" and f.phase > _phase_of(c, "fast"):
            return f"The fast turns for {c.name} are over this round; it can only go slow."
        return ""

    def _choose(self, f: Fight, cmd: ChooseSpeed, ev: Events) -> Fight:
        c = f.get(cmd.who)
        refusal = self.choose_refusal(f, c, cmd.speed)
        if refusal:
            raise RuleError(refusal)
        f = put(f, replace(c, economy=replace(c.economy, speed=cmd.speed)))
        ev.append(E.Edited(c.id, c.name, f"chooses a {cmd.speed or 'undecided'} turn"))
        return f

    def _choose_all(self, f: Fight, cmd: ChooseSpeeds, ev: Events) -> Fight:
        """Everyone's choice at once: each as ChooseSpeed would check it, all or nothing."""
        picked = [(w, "fast") for w in cmd.fast] + [(w, "slow") for w in cmd.slow]
        if not picked:
            raise RuleError("Name at least one combatant going fast or slow.")
        seen: set[str] = set()
        for who, speed in picked:
            c = f.get(who)
            if who in seen:
                raise RuleError(f"{c.name} is named twice: fast or slow, not both.")
            seen.add(who)
            refusal = self.choose_refusal(f, c, speed)
            if refusal:
                raise RuleError(refusal)
            f = put(f, replace(c, economy=replace(c.economy, speed=speed)))
        for speed, ids in (("fast", cmd.fast), ("slow", cmd.slow)):
            if ids:
                names = ", ".join(f.get(w).name for w in ids)
                ev.append(E.Info(f"This round, {speed}: {names}"))
        return f

    def turn_plan(self, f: Fight, c: Combatant, asked: str = "") -> tuple[str, str, int]:
        """Whether `c` may take its turn now (StartTurn, asking for speed `asked` or none): the
        refusal ("" if it may), the speed it goes at and the phase it acts in."""
        if not f.started or f.ended:
            return "The fight is not under way.", "", 0
        if c.economy.done:
            return f"{c.name} has already taken its turn this round.", "", 0
        if f.current == c.id:
            return f"It is already {c.name}'s turn.", "", 0
        if asked == "fast" and combat.is_boss(c) and c.economy.speed == "slow":
            return f"{c.name} has had its fast turn this round; its slow turn is still to come.", "", 0
        speed = asked or c.economy.speed or "fast"
        if not asked and _phase_of(c, speed) < f.phase:
            # no speed asked for now, and the fast turns are behind it: it simply goes slow
            speed = "slow"
        target = _phase_of(c, speed)
        if target == 2 and f.phase == 3:
            target = 3  # a PC whose slow turn was passed over still takes it, in the last phase
        if target < f.phase:
            if speed == "fast":
                return f"The fast turns for {c.name} are over this round; it can go slow.", speed, target
            return f"{PHASES[target]} are over this round.", speed, target
        return "", speed, target

    def _take_turn(self, f: Fight, cmd: StartTurn, ev: Events) -> Fight:
        if not f.started or f.ended:
            raise RuleError("The fight is not under way.")
        c = f.get(cmd.who)
        refusal, speed, target = self.turn_plan(f, c, cmd.speed)
        if refusal:
            raise RuleError(refusal)
        given = GivenRolls(f, cmd.rolls)
        if f.current:
            f = self._end_turn(f, ev)
        while f.phase < target:
            f = self._next_phase(f, ev)
        c = f.get(c.id)
        f = self._begin(f, c, ev, speed, given)
        given.done()
        return f

    # --- the action economy -------------------------------------------------------------------
    def use(self, f: Fight, cmd: C.UseAction, ev: Events) -> Fight:
        """Spend from the action economy: a reaction, or on its own turn a free action or one costing
        1 to 3 actions (Ready: 1 more, the readied action held for off its turn)."""
        c = f.get(cmd.who)
        label = cmd.name.strip()
        if cmd.what == "reaction":
            return self._use_reaction(f, c, label, ev)
        if cmd.what not in ("action", "free"):
            raise RuleError(f"Cosmere has action, free and reaction, not '{cmd.what}'.")
        e = c.economy
        if f.current != c.id:
            if e.ready:
                return self._take_readied(f, c, label, ev)
            raise RuleError(f"Actions are taken on one's own turn, and it is not {c.name}'s turn.")
        held = readied(label)
        cost, key = self._action_cost(c, cmd, label, held)
        e = replace(e, actions=e.actions - cost, used=e.used + ((key,) if key else ()))
        if held is not None:
            e = replace(e, ready=held)
        f = put(f, replace(c, economy=e))
        c = f.get(c.id)
        spent = f"{cost} action{'s' if cost != 1 else ''}" if cost else "free action"
        ev.append(E.ActionUsed(c.id, c.name, spent, label, self.describe_economy(c)))
        if held is not None:
            ev.append(E.Info(f"{c.name} readies {held}: it may take it off its turn, already paid for", c.id))
        if label.lower() == "brace":
            f = self._brace(f, c, ev)
        return f

    def _use_reaction(self, f: Fight, c: Combatant, label: str, ev: Events) -> Fight:
        """A reaction: one a round, none for the Surprised before their first turn; Reactive Strike
        costs 1 focus too."""
        e = c.economy
        if e.reactions < 1:
            if c.has("Surprised") and self._before_first_turn(f, c):
                raise RuleError(f"{c.name} is Surprised: no reaction until the start of its first turn.")
            raise RuleError(f"{c.name} has no reaction left (a new one comes at the start of its turn).")
        e = replace(e, reactions=e.reactions - 1)
        f = put(f, replace(c, economy=e))
        if label.lower() == "reactive strike":
            f = _spend_focus(f, f.get(c.id), ev, "Reactive Strike")
        c = f.get(c.id)
        ev.append(E.ActionUsed(c.id, c.name, "reaction", label, self.describe_economy(c)))
        return f

    @staticmethod
    def _action_cost(c: Combatant, cmd: C.UseAction, label: str, held: str | None) -> tuple[int, str]:
        """What an action on its own turn costs, checked: 1 to 3 actions (Ready 1 to 4), a free action
        none, each action once a turn (every Ready counts as one), no more than it has left. Returns
        (cost, the name the once-a-turn rule counts)."""
        e = c.economy
        cost = 0 if cmd.what == "free" else cmd.cost
        if held is not None and cmd.what != "action":
            raise RuleError("Ready is an action: it costs 1 action plus what the readied action needs.")
        if held is not None and not 1 <= cost <= 4:
            # Ready's own action plus the readied one's 0 to 3 (a free action, up to a 3-action one)
            raise RuleError("Ready costs 1 action plus what the readied action needs: 1 to 4 in all.")
        if not 0 <= cost <= (4 if held is not None else 3):
            raise RuleError("An action costs 1, 2 or 3 actions (a free action costs none).")
        if cmd.what == "action" and cost == 0:
            raise RuleError("An action costs 1, 2 or 3; use a free action for one that costs nothing.")
        key = "Ready" if held is not None else label  # every Ready counts as the one named action
        if key and key.lower() in (u.lower() for u in e.used):
            raise RuleError(f"{c.name} has already used {key} this turn: each action once per turn.")
        if cost > e.actions:
            plural = "s" if cost != 1 else ""
            raise RuleError(f"{label or 'That'} costs {cost} action{plural} and {c.name} has {e.actions} left.")
        return cost, key

    @staticmethod
    def _brace(f: Fight, c: Combatant, ev: Events) -> Fight:
        """Brace: Braced until the start of its next turn (the text gives no end; the GM removes it
        sooner if it leaves cover)."""
        braced = Condition("Braced", duration=Duration("turn_start", c.id, 1))
        kept = tuple(x for x in c.conditions if x.name != "Braced")
        f = put(f, replace(c, conditions=kept + (braced,)))
        ev.append(E.ConditionAdded(c.id, c.name, "Braced", "until the start of its next turn"))
        return f

    def _take_readied(self, f: Fight, c: Combatant, label: str, ev: Events) -> Fight:
        """The readied action, off its own turn: paid for when readied, so it costs nothing now."""
        held = c.economy.ready
        if held != ANY_READIED and label and label.lower() != held.lower():
            raise RuleError(f"{c.name} readied {held}, not {label}; off its turn it can take only that.")
        f = put(f, replace(c, economy=replace(c.economy, ready="")))
        c = f.get(c.id)
        what = label or (held if held != ANY_READIED else "its readied action")
        ev.append(E.ActionUsed(c.id, c.name, "readied", what, self.describe_economy(c)))
        return f

    # --- conditions with effects of their own ---------------------------------------------------
    def condition_added(self, f: Fight, c: Combatant, cond: Condition, ev: Events) -> Fight:
        if cond.name == "Squeezing":
            # Slowed for as long as it squeezes: the same duration, and it goes when Squeezing is removed
            slowed = c.condition("Slowed")
            if slowed is None or slowed.note == SQUEEZED:
                kept = tuple(x for x in c.conditions if x.name != "Slowed")
                c = replace(c, conditions=kept + (Condition("Slowed", duration=cond.duration, note=SQUEEZED),))
                f = put(f, c)
                ev.append(E.ConditionAdded(c.id, c.name, "Slowed", SQUEEZED))
        if cond.name == "Surprised" and f.started and self._before_first_turn(f, c) and c.economy.reactions:
            f = put(f, replace(c, economy=replace(c.economy, reactions=0)))
            ev.append(E.Info(f"{c.name} is Surprised: no reaction before its first turn", c.id))
        return f

    def condition_removed(self, f: Fight, c: Combatant, cond: Condition, ev: Events) -> Fight:
        if cond.name == "Squeezing":
            slowed = c.condition("Slowed")
            if slowed is not None and slowed.note == SQUEEZED:
                f = put(f, replace(c, conditions=tuple(x for x in c.conditions if x is not slowed)))
                ev.append(E.ConditionEnded(c.id, c.name, "Slowed", "no longer squeezing"))
        if cond.name == "Surprised" and f.started and self._before_first_turn(f, c) and not c.economy.reactions:
            # the GM takes the surprise back: it has the reaction everyone else started with
            f = put(f, replace(c, economy=replace(c.economy, reactions=1)))
            ev.append(E.Info(f"{c.name} is not Surprised after all: it has its reaction", c.id))
        return f

    def _before_first_turn(self, f: Fight, c: Combatant) -> bool:
        e = c.economy
        return f.round == 1 and not e.done and f.current != c.id and not (combat.is_boss(c) and e.speed == "slow")

    def describe_economy(self, c: Combatant) -> str:
        """The texts of `economy_of(c)` joined ("F A2 R1"), without building the items: every
        action used writes this line into its event (tests/engine/test_actions_economy.py checks
        the two agree)."""
        e = c.economy
        return f"{_SPEED_LETTER.get(e.speed, '?')} A{e.actions} R{e.reactions}"

    def economy_of(self, c: Combatant, f: Fight | None = None) -> tuple[EconomyItem, ...]:
        e = c.economy
        mine = f is not None and f.current == c.id
        total = turn_actions(e.speed)
        letter = _SPEED_LETTER.get(e.speed, "?")
        value = {"fast": "fast", "slow": "slow"}.get(e.speed, "?")
        long = {"fast": "Fast turn", "slow": "Slow turn"}.get(e.speed, "Undecided (fast or slow)")
        why = "" if e.speed else "Fast or slow is still to be chosen"
        out = [EconomyItem("speed", letter, value, "available", why, "", long, letter, value, row=False)]
        if mine:
            st: EconomyState = "available" if e.actions > 0 else "spent"
            act = EconomyItem(
                "action", "A", f"{e.actions} of {total}", st, "", "Actions", f"{e.actions} of {total} left",
                f"A{e.actions}", "", e.actions, total, plain=True,
            )
        elif e.done:
            taken = "Turn taken this round"
            act = EconomyItem("action", "A", "taken", "spent", taken, "", taken, f"A{e.actions}", "—", e.actions)
        else:
            why = "Not its turn" if f is not None and f.started else "Fight not started"
            act = EconomyItem(
                "action", "A", str(total), "barred", why, "", why, f"A{e.actions}", "·" * total, e.actions,
                sheet=False,
            )
        out.append(act)
        if e.reactions <= 0 and c.has("Surprised"):
            # never had one: a Surprised combatant gets its first reaction when its first turn begins
            why = "Surprised: no reaction until its first turn"
            out.append(EconomyItem("reaction", "R", "0", "barred", why, "Reaction", "none yet (Surprised)",
                                   f"R{e.reactions}", "R", e.reactions))
        else:
            st = "available" if e.reactions > 0 else "spent"
            out.append(EconomyItem("reaction", "R", str(e.reactions), st, "", "Reaction", yes_no(e.reactions > 0),
                                   f"R{e.reactions}", "R", e.reactions))
        return tuple(out)

    def rules_actions(self, f: Fight) -> tuple[ActionInfo, ...]:
        live = live_reason(f)
        everyone = tuple(c.id for c in f.combatants)
        cur = f.find(f.current) if f.current else None
        users = tuple(
            dict.fromkeys(([cur.id] if cur else []) + [c.id for c in f.combatants if c.economy.reactions > 0])
        )
        # decision: with nobody's turn under way there is nothing to react to, so no attack (a
        # Reactive Strike or a readied attack comes during someone's turn)
        attackers = (cur.id,) if cur is not None else ()
        no_turn = "Nobody is taking a turn: start one first (n, or g for the selected)."
        choosers = tuple(c.id for c in f.combatants if not self.choose_refusal(f, c))
        takers = tuple(c.id for c in f.combatants if not self.turn_plan(f, c)[0])
        return (
            offer("use", "Use an action or reaction", live or anyone(f, users, "Nobody can act or react now."), users),
            offer("attack", "Attack", live or anyone(f, attackers, no_turn), attackers),
            offer("fast_slow", "Choose fast or slow", live or anyone(f, choosers, "Nobody can choose now."), choosers),
            offer("take_turn", "Take the turn now", live or anyone(f, takers, "Nobody can take a turn now."), takers),
            offer("fall", "Fall", live or anyone(f, everyone, ""), everyone),
            offer("terrain", "Move into dangerous terrain", live or anyone(f, everyone, ""), everyone),
            offer("grant", "Grant extra actions or reactions", live or anyone(f, everyone, ""), everyone),
        )

    def phase_label(self, f: Fight) -> str:
        return f"Round {f.round} · {PHASES[f.phase] if 0 <= f.phase < 4 else ''}"


def _spend_focus(f: Fight, c: Combatant, ev: Events, why: str) -> Fight:
    p = c.pool("focus")
    if p is None or p.current < 1:
        raise RuleError(f"{why} costs 1 focus and {c.name} has none left.")
    f = put(f, replace(c, resources=set_pool(c.resources, replace(p, current=p.current - 1))))
    ev.append(E.ResourceChanged(c.id, c.name, "focus", -1, p.current - 1))
    return f
