"""Nine-phase's auto-play for `fracas odds` (engine/odds; docs/odds.md, "Nine-phase").

The text gives no attack roll and no damage numbers: an attack lands, and its damage is the
statblock's. An activity deals its own `damage` (what the attack key rolls), else that of the
statblock ability of the same name (`actions`, with `damage`); a weapon activity without either
deals a default 1d6; an ability with damage that is no activity is used as an action of the phase.
A combatant without a statblock makes the catalog's Weapon attack at a default Speed Factor of 5,
for 1d6.

At the first phase it plays in each round, a combatant plans its round: its damaging activities, the
best by expected damage first, each in the earliest phase it may take it (its earliest phase, or the
one it is locked to), one turn a phase, within its 3 actions, one Master Action, each activity once a
round unless repeatable, and a channel only where it can resolve in the round (unless it may run on).
In each phase it takes what it planned there, on the most hurt enemy; a channel deals its damage in
the phase it resolves, unless damage or a save interrupted it. An ability against several (a save,
or more than one target) is planned only when it catches two or more enemies; the text has no saving
throw to roll, so every target caught fails it (a save made all the same: it breaks a channel).
Reactions are not used. Everything goes through the engine's commands, so its rules (phases, actions,
the Master Action, channels, the same-phase adjudication) hold.
"""

from typing import Any, NamedTuple

from engine import commands as C
from engine import library as L
from engine.area import AreaEffect, AreaTarget
from engine.library.abilities import Ability, spend_of
from engine.odds.choose import caught, mean, ranked, ready
from engine.odds.play import Game, Tactics
from engine.rules.ninephase import catalog
from engine.rules.ninephase.clock import PHASES
from engine.rules.ninephase.commands import Activity
from engine.rules.ninephase.ruleset import NinePhase
from engine.ruleset import get_ruleset
from engine.state import Combatant

DEFAULT_DICE = "1d6"  # a weapon activity's damage when the statblock gives none
DEFAULT_SPEED = 5  # the Speed Factor of a combatant without a statblock
WEAPON = "Weapon attack"  # the catalog's (engine/rules/ninephase/catalog.py)


class Move(NamedTuple):
    name: str
    kind: str  # activity (the statblock's) | ability (an ability that is no activity) | catalog | adhoc
    fields: dict[str, Any]  # the command's fields (Activity's, DoActivity's)
    cost: int
    earliest: int | None
    lock: bool
    master: bool
    channel: bool
    repeatable: bool
    across: bool
    dice: str
    type: str
    ability: Ability | None  # the ability that gives its damage (an area when it has a save)
    spend: tuple[tuple[str, int], ...] = ()


class _Left:
    """What a combatant has left of its round while it plans it."""

    __slots__ = ("actions", "master", "used")

    def __init__(self, actions: int, master: bool, used: set[str]) -> None:
        self.actions, self.master, self.used = actions, master, used

    def allows(self, m: Move) -> bool:
        if m.cost > self.actions or (m.master and self.master):
            return False
        return m.repeatable or m.name.lower() not in self.used

    def take(self, m: Move) -> None:
        self.actions -= m.cost
        self.master = self.master or m.master
        self.used.add(m.name.lower())


def _area(a: Ability | None) -> bool:
    return a is not None and (bool(a.save) or a.targets != 1)


class NinePhaseTactics(Tactics):
    def step(self, g: Game) -> None:
        f = g.f
        rs = get_ruleset(f.ruleset)
        assert isinstance(rs, NinePhase)
        if g.notes.get("round") != f.round:
            g.notes["round"] = f.round
            g.notes["plan"] = {c.id: self._plan(g, c) for c in f.combatants if not self.out(g, c)}
        self._resolve(g)
        plan: dict[str, dict[int, Move]] = g.notes["plan"]
        for c in f.combatants:
            m = plan.get(c.id, {}).get(f.phase)
            if m is not None:
                now = g.f.get(c.id)
                if not rs.out(g.f, now):  # dropped in this very phase, it still finishes it
                    self._act(g, now, m)
        g.next()

    # --- what it can do -------------------------------------------------------------------------
    def _moves(self, g: Game, c: Combatant) -> tuple[Move, ...]:
        sb = L.statblock_of(g.f.ruleset, c)
        if sb is None:
            return (self._weapon_move(g),)
        kind = L.get_kind(g.f.ruleset)
        damaging = {a.name.casefold(): a for a in kind.abilities(sb) if a.damage}
        out = []
        names = set()
        for a in sb.activities:
            if a.reaction:
                continue
            names.add(a.name.casefold())
            ab = damaging.get(a.name.casefold())
            if ab is None and not a.weapon and not a.damage:
                continue  # it deals nothing the statblock says
            fields = L.attack_fields(sb, a)
            spec = catalog.check_spec(a.spec)
            # the activity's own damage (what `w` rolls), else its namesake ability's, else the default
            dice, typ = (a.damage, a.type) if a.damage else _dice(ab) if ab is not None else (DEFAULT_DICE, "")
            out.append(Move(
                a.name, "activity", fields, spec.cost or 0, fields["earliest"], spec.lock, spec.master,
                spec.channel, spec.repeatable, spec.across_rounds, dice, typ, ab,
                ((a.resource.lower(), a.amount),) if a.resource else (),
            ))
        for ab in damaging.values():
            if ab.name.casefold() in names or ab.act != "action":
                continue
            dice, typ = _dice(ab)
            out.append(Move(ab.name, "ability", {}, ab.cost, None, False, False, False, False, False, dice, typ, ab,
                            spend_of(ab)))
        return tuple(out)

    def _weapon_move(self, g: Game) -> Move:
        spec = catalog.find(g.f, WEAPON)
        if spec is not None and spec.weapon and not spec.reaction and not spec.channel:
            s = catalog.check_spec(spec)
            return Move(WEAPON, "catalog", {"name": spec.name, "speed": DEFAULT_SPEED}, s.cost or 0, DEFAULT_SPEED,
                        s.lock, s.master, False, s.repeatable, False, DEFAULT_DICE, "", None)
        # the GM took it out of the catalog: the text's weapon attack all the same (a Master Action)
        fields = {"name": WEAPON, "cost": 1, "earliest": DEFAULT_SPEED, "master": True}
        return Move(WEAPON, "adhoc", fields, 1, DEFAULT_SPEED, False, True, False, False, False, DEFAULT_DICE, "", None)

    # --- the round's plan -----------------------------------------------------------------------
    def _plan(self, g: Game, c: Combatant) -> dict[int, Move]:
        """Its damaging activities in the phases left, the best first, each in the earliest phase it
        may take it, within its actions, its Master Action and one turn a phase."""
        e = c.economy
        free = [p for p in range(max(1, g.f.phase), PHASES + 1) if all(u.phase != p for u in e.phases)]
        left = _Left(e.actions, e.master, {u.lower() for u in e.used})
        plan: dict[int, Move] = {}
        for m in self._worth(g, c):
            while left.allows(m) and (not m.spend or ready(c, m.spend)):
                phase = next((p for p in free if self._fits(m, p)), None)
                if phase is None:
                    break
                plan[phase] = m
                free.remove(phase)
                left.take(m)
                if not m.repeatable:
                    break
        return plan

    def _worth(self, g: Game, c: Combatant) -> list[Move]:
        """Its moves that deal damage to someone now, the most expected damage first (an ability
        against several: only when it catches two or more)."""
        foes = len(g.foes(c))
        worth = []
        for m in self.moves(g, c):
            area = _area(m.ability)
            k = caught(m.ability.targets, foes) if area and m.ability is not None else 1
            if k >= (2 if area else 1):
                worth.append((-mean(m.dice) * k, len(worth), m))
        return [m for _, _, m in sorted(worth)]

    @staticmethod
    def _fits(m: Move, p: int) -> bool:
        if m.earliest is not None and (p < m.earliest or (m.lock and p != m.earliest)):
            return False
        return not m.channel or p + m.cost <= PHASES or m.across

    # --- doing it ---------------------------------------------------------------------------------
    def _act(self, g: Game, c: Combatant, m: Move) -> None:
        foes = ranked(g.foes(c))
        if not foes:
            return
        if m.kind == "ability":
            assert m.ability is not None
            if _area(m.ability):
                self._hit(g, c, m, foes, act="action")
            elif g.do(C.UseAbility(c.id, m.name, spend=m.spend, act="action", cost=m.cost)) is not None:
                self._hit(g, c, m, foes)
            return
        if m.kind == "catalog":
            done = g.do(catalog.DoActivity(c.id, **m.fields))
        else:
            done = g.do(Activity(c.id, **m.fields))
        if done is not None and not m.channel:
            self._hit(g, c, m, foes)

    def _hit(self, g: Game, c: Combatant, m: Move, foes: list[Combatant], act: str = "") -> None:
        """Its damage on the most hurt enemy (an area on as many as it catches); `act`: an ability
        that is no activity pays its action with the area effect itself."""
        a = m.ability
        if _area(a):
            assert a is not None
            k = caught(a.targets, len(foes))
            targets = tuple(AreaTarget(t.id, saved=False if a.save else None) for t in foes[:k])
            g.do(AreaEffect(targets, dice=m.dice, type=m.type, source=c.id, ability=m.name,
                            spend=m.spend if act else (), act=act, cost=m.cost, condition=a.condition))
            return
        g.do(C.Damage(foes[0].id, dice=m.dice, type=m.type, source=c.id))
        if a is not None and a.condition and not g.f.get(foes[0].id).down:
            g.do(C.AddCondition(foes[0].id, a.condition, source=c.id))

    def _resolve(self, g: Game) -> None:
        """The channels that resolve in this phase, and were not interrupted, deal their damage."""
        p = g.f.phase
        for c in g.f.combatants:
            for ch in c.channels:
                if ch.status == "" and ch.end == p:
                    m = next((x for x in self.moves(g, c) if x.name.lower() == ch.activity.lower()), None)
                    foes = ranked(g.foes(c))
                    if m is not None and foes:
                        self._hit(g, c, m, foes)


def _dice(a: Ability) -> tuple[str, str]:
    """An ability's damage as one roll (its parts added) and the first part's type."""
    return "+".join(p.dice.replace(" ", "") for p in a.damage), a.damage[0].type


TACTICS = NinePhaseTactics()
