"""The play loop: one run of a fight from its current state to its end, every command through the
engine's pure `apply`, so every rule of the ruleset is enforced (a move it refuses is simply not made).

A ruleset's auto-play is a `Tactics` (its plugin names it: `Plugin.tactics`); the loop asks it to
play the next bit of the fight (a turn, a phase), answers the rolls the fight says are owed (a
recharge, a concentration save: what the app would prompt for) through the tactics' own commands,
and stops when one side is all down or fled, or at the round cap ("unfinished").
"""

from abc import ABC, abstractmethod
from typing import Any

from msgspec.structs import replace

from engine import commands as C
from engine import pools
from engine.core import apply
from engine.dice import Rng
from engine.errors import RuleError
from engine.events import Event
from engine.odds.report import DRAW, FOES, FOES_WIN, PARTY, PARTY_WINS, UNFINISHED
from engine.state import Combatant, Due, Fight

CAP = 50  # rounds a run plays from the fight's current round before it counts as unfinished
SETTLE = 20  # owed rolls answered after one command, at most (a chain of them cannot loop forever)
_MASK = (1 << 64) - 1


def run_seed(seed: int, index: int) -> int:
    """The seed of run `index`: a mix of the user's seed and the index (SplitMix64's finaliser), so a
    run plays the same dice whatever the number of workers or the chunk it falls in."""
    z = ((seed & _MASK) * 0x9E3779B97F4A7C15 + (index + 1) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return (z ^ (z >> 31)) & ((1 << 63) - 1)


class Game:
    """One run: the fight as it goes. `memo` holds what the tactics worked out once for this fight
    (its combatants' options and their expected damage), shared by the runs of one chunk; `gone` the
    combatants the tactics count out beyond what the state says (Warhammer: one that fled); `notes`
    what the tactics keep for this run alone (nine-phase: the round's plan)."""

    __slots__ = ("f", "tactics", "memo", "gone", "notes", "commands", "refused", "_unanswered")

    def __init__(self, f: Fight, tactics: "Tactics", memo: dict[Any, Any]) -> None:
        self.f = f
        self.tactics = tactics
        self.memo = memo
        self.gone: set[str] = set()
        self.notes: dict[Any, Any] = {}
        self.commands = 0
        self.refused = 0
        self._unanswered: set[tuple[str, str]] = set()

    def do(self, cmd: C.Command) -> tuple[Event, ...] | None:
        """Apply `cmd` to the fight; None (nothing changed) when the rules refuse it. The rolls it
        leaves owed are answered at once, as the app would prompt for them."""
        try:
            f, ev = apply(self.f, cmd)
        except RuleError:
            self.refused += 1
            return None
        self.f = f
        self.commands += 1
        for c in f.combatants:
            if c.due:
                self._settle()
                break
        return ev

    def _settle(self) -> None:
        for _ in range(SETTLE):
            owed = [(c, d) for c in self.f.combatants for d in c.due if (c.id, d.what) not in self._unanswered]
            if not owed:
                return
            c, d = owed[0]
            cmd = self.tactics.settle(self, c, d)
            if cmd is None:
                self._unanswered.add((c.id, d.what))
                continue
            try:
                self.f, _ = apply(self.f, cmd)
                self.commands += 1
            except RuleError:
                self.refused += 1
                self._unanswered.add((c.id, d.what))

    def next(self) -> bool:
        """End the turn (or phase) and move on."""
        return self.do(C.NextTurn()) is not None

    def out(self, c: Combatant) -> bool:
        return self.tactics.out(self, c)

    def foes(self, c: Combatant) -> list[Combatant]:
        """Who `c` fights that can still fight, in the fight's order: the foes for the party and its
        allies, the party and its allies for the foes; nobody for a neutral."""
        if c.side == PARTY:
            other = FOES
        elif c.side == FOES:
            other = PARTY
        else:
            return []
        out = self.tactics.out
        return [x for x in self.f.combatants if x.side == other and not out(self, x)]

    def allies(self, c: Combatant) -> list[Combatant]:
        return [x for x in self.f.combatants if x.side == c.side and not self.tactics.out(self, x)]

    def standing(self) -> tuple[bool, bool]:
        """Whether the party, and the foes, have anyone still fighting."""
        party = foes = False
        out = self.tactics.out
        for c in self.f.combatants:
            if c.side == PARTY and not party and not out(self, c):
                party = True
            elif c.side == FOES and not foes and not out(self, c):
                foes = True
        return party, foes


class Tactics(ABC):
    """A ruleset's auto-play (docs/odds.md says each one's). One instance serves every run: what it
    keeps between calls lives in the Game (`memo` for a fight's fixed facts, `gone`)."""

    def out(self, g: Game, c: Combatant) -> bool:
        """Out of the fight: down (health at 0) or counted out by the tactics."""
        return c.down or c.id in g.gone

    def prepare(self, g: Game) -> None:
        """Before the first step: a fight not yet started is started (initiative rolled, the first
        turn begun) as the start dialog would, nobody surprised."""
        if not g.f.started:
            g.do(C.StartFight())

    @abstractmethod
    def step(self, g: Game) -> None:
        """Play the next bit of the fight (the current turn, the phase) and move it on."""

    def moves(self, g: Game, c: Combatant) -> tuple[Any, ...]:
        """What `c` can do (its ruleset's moves), worked out once: a statblock does not change in a fight."""
        key = ("moves", c.id)
        hit = g.memo.get(key)
        if hit is None:
            hit = g.memo[key] = self._moves(g, c)
        return hit  # type: ignore[no-any-return]

    def _moves(self, g: Game, c: Combatant) -> tuple[Any, ...]:
        return ()  # a ruleset that plays by moves says what they are

    def settle(self, g: Game, c: Combatant, due: Due) -> C.Command | None:
        """The command that answers a roll `c` owes (None: leave it owed). A recharge is rolled; a
        ruleset answers its own saves."""
        if pools.is_recharge(due):
            return C.Recharge(c.id, due.what[len(pools.RECHARGE):])
        return None


class Result:
    """One run's end (and how many commands it applied, for the bench)."""

    __slots__ = ("outcome", "rounds", "downs", "health", "commands")

    def __init__(self, outcome: int, rounds: int, downs: list[bool], health: list[int], commands: int) -> None:
        self.outcome, self.rounds, self.downs, self.health = outcome, rounds, downs, health
        self.commands = commands


def play(f: Fight, tactics: Tactics, seed: int, members: tuple[str, ...], memo: dict[Any, Any],
         cap: int = CAP) -> Result:
    """One run of `f` with its dice from `seed`, to its end or the round cap."""
    g = Game(replace(f, rng=Rng(seed, 0)), tactics, memo)
    first = max(f.round, 1)
    tactics.prepare(g)
    # a guard against a tactic that stops moving the fight on: far more commands than any real run
    budget = 200 + cap * (len(f.combatants) + 1) * 40
    outcome = UNFINISHED
    while g.commands < budget:
        party, foes = g.standing()
        if not (party and foes):
            outcome = PARTY_WINS if party else FOES_WIN if foes else DRAW
            break
        if g.f.ended or g.f.round >= first + cap:
            break
        before = g.commands
        tactics.step(g)
        if g.commands == before and not g.next():
            break  # nothing moved and the fight cannot go on: unfinished
    end = g.f
    downs: list[bool] = []
    health: list[int] = []
    for cid in members:
        c = end.find(cid)
        if c is None:
            downs.append(True)
            health.append(0)
            continue
        gone = tactics.out(g, c)
        downs.append(gone)
        health.append(0 if gone or not c.health else max(0, c.health[0].current))
    return Result(outcome, max(1, end.round - first + 1), downs, health, g.commands)
