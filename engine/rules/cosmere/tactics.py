"""Cosmere's auto-play for `fracas odds` (engine/odds; docs/odds.md, "Cosmere").

At the start of each round everyone still undecided chooses: fast when its best turn of two actions
does as much expected damage as its best turn of three (the third action would go unused), slow
otherwise; a boss takes both its turns as the rules give them. On its turn a combatant spends its
actions one at a time on the best it can still do by expected damage: a statblock attack (each named
action once a turn: two attacks made with Strike are one Strike), an ability with an attack roll, or
an ability with a test against a defense when it catches two or more enemies. Its target is the most
hurt enemy. A miss is grazed while it has focus for it (1 a target); no Opportunity is spent, so
there are no critical hits. A combatant without a statblock strikes with a default weapon: +2
against Physical defense, 1d6 damage. Reactions (Reactive Strike), movement and Brace are not used.
"""

from typing import Any, NamedTuple

from msgspec.structs import replace

from engine import commands as C
from engine import library as L
from engine.area import AreaEffect, AreaTarget
from engine.dice import roll
from engine.errors import RuleError
from engine.events import Rolled
from engine.library.abilities import Ability, spend_of
from engine.odds.choose import caught, mean, ranked, ready
from engine.odds.play import Game, Tactics
from engine.rules.cosmere import combat
from engine.rules.cosmere.commands import ChooseSpeeds
from engine.rules.cosmere.ruleset import Cosmere
from engine.ruleset import get_ruleset
from engine.state import Combatant, Fight

DEFAULT = {"defense": "phy", "modifier": 2, "damage": "1d6", "label": "Strike", "action": "Strike"}


class Move(NamedTuple):
    kind: str  # attack (a statblock attack, or the default one) | spell (an ability's attack roll) | area
    key: str  # the name the once-a-turn rule counts ("Strike", the ability's name)
    cost: int  # actions
    fields: dict[str, Any]  # the attack command's fields (attack, spell)
    ability: Ability | None = None
    test: int = 0  # area: the test's modifier (the statblock's best attack bonus)


def _focus(c: Combatant) -> int:
    p = c.pool("focus")
    return p.current if p is not None else 0


def _attack_value(fields: dict[str, Any], t: Combatant, focus: int) -> float:
    """A hit deals the dice plus the modifier; a miss is grazed for the dice while there is focus."""
    dice = fields.get("damage", "")
    if not dice:
        return 0.0
    p = float(combat.hit_chance(fields["modifier"], t.stat(fields["defense"], 10)))
    value = p * (mean(dice) + fields["modifier"])
    if focus > 0:
        value += (1 - p) * mean(dice)
    return value


class CosmereTactics(Tactics):
    def step(self, g: Game) -> None:
        f = g.f
        if f.current:
            c = f.get(f.current)
            if not self.out(g, c):
                self._turn(g, c)
        elif f.phase == 0:
            rs = get_ruleset(f.ruleset)
            assert isinstance(rs, Cosmere)
            undecided = rs.undecided(f)
            if undecided:
                fast = tuple(c.id for c in undecided if self.goes_fast(g, c))
                slow = tuple(c.id for c in undecided if c.id not in fast)
                g.do(ChooseSpeeds(fast=fast, slow=slow))
        g.next()

    # --- what it can do -------------------------------------------------------------------------
    def _moves(self, g: Game, c: Combatant) -> tuple[Move, ...]:
        sb = L.statblock_of(g.f.ruleset, c)
        if sb is None:
            return (Move("attack", "Strike", 1, DEFAULT),)
        out = []
        for a in sb.attacks:
            fields = L.attack_fields(sb, a)
            out.append(Move("attack", fields["action"].strip() or "Strike", fields["cost"], fields))
        best = max((a.bonus for a in sb.attacks), default=0)
        for ab in sb.actions:
            if ab.act not in ("action", "free") or not ab.damage:
                continue
            cost = ab.cost if ab.act == "action" else 0
            dice = "+".join(p.dice.replace(" ", "") for p in ab.damage)
            typ = ab.damage[0].type
            if ab.hit is not None:
                fields = {"defense": "phy", "modifier": ab.hit, "damage": dice, "type": typ, "label": ab.name}
                out.append(Move("spell", ab.name, cost, fields, ab))
            elif ab.save:
                fields = {"defense": ab.save, "modifier": best, "damage": dice, "type": typ}
                out.append(Move("area", ab.name, cost, fields, ab, best))
        return tuple(out)

    def _usable(self, c: Combatant, m: Move, actions: int, used: set[str]) -> bool:
        if m.cost > actions or m.key.lower() in used:
            return False
        return m.ability is None or ready(c, spend_of(m.ability))

    def _value(self, g: Game, c: Combatant, i: int, m: Move, targets: list[Combatant], focus: int) -> float:
        key = ("value", c.id, i, focus > 0, tuple(t.id for t in targets))
        hit = g.memo.get(key)
        if hit is None:
            hit = g.memo[key] = self._worth(m, targets, focus)
        return hit

    @staticmethod
    def _worth(m: Move, targets: list[Combatant], focus: int) -> float:
        if m.kind != "area":
            return _attack_value(m.fields, targets[0], focus)
        assert m.ability is not None
        half = 0.5 if m.ability.on_save == "half" else 0.0
        total = 0.0
        for t in targets:
            p = float(combat.hit_chance(m.test, t.stat(m.ability.save, 10)))
            total += mean(m.fields["damage"]) * (p + (1 - p) * half)
        return total

    def _best(self, g: Game, c: Combatant, actions: int, used: set[str],
              foes: list[Combatant]) -> tuple[Move | None, list[Combatant], float]:
        best: Move | None = None
        best_value, targets = 0.0, foes[:1]
        focus = _focus(c)
        for i, m in enumerate(self.moves(g, c)):
            if not self._usable(c, m, actions, used):
                continue
            if m.kind == "area":
                assert m.ability is not None
                k = caught(m.ability.targets, len(foes))
                if k < 2:
                    continue  # an ability against several is used when it catches two or more
                caught_foes = foes[:k]
            else:
                caught_foes = foes[:1]
            value = self._value(g, c, i, m, caught_foes, focus)
            if value > best_value:
                best, best_value, targets = m, value, caught_foes
        return best, targets, best_value

    def turn_value(self, g: Game, c: Combatant, actions: int) -> float:
        """The expected damage of its best turn with `actions` actions on the enemies as they stand."""
        foes = ranked(g.foes(c))
        if not foes:
            return 0.0
        used: set[str] = set()
        total = 0.0
        for _ in range(6):
            m, _, value = self._best(g, c, actions, used, foes)
            if m is None:
                break
            total += value
            actions -= m.cost
            used.add(m.key.lower())
        return total

    def goes_fast(self, g: Game, c: Combatant) -> bool:
        """Fast when a third action would add nothing to its best turn."""
        foes = g.foes(c)
        ready_now = tuple(m.ability is None or ready(c, spend_of(m.ability)) for m in self.moves(g, c))
        key = ("fast", c.id, tuple(t.id for t in foes), _focus(c) > 0, ready_now)
        hit = g.memo.get(key)
        if hit is None:
            hit = g.memo[key] = self.turn_value(g, c, 3) <= self.turn_value(g, c, 2) + 1e-9
        return hit

    # --- its turn -------------------------------------------------------------------------------
    def _turn(self, g: Game, c: Combatant) -> None:
        tried: set[str] = set()
        for _ in range(8):
            c = g.f.get(c.id)
            foes = ranked(g.foes(c))
            if self.out(g, c) or not foes:
                return
            used = {u.lower() for u in c.economy.used} | tried
            m, targets, _ = self._best(g, c, c.economy.actions, used, foes)
            if m is None:
                return
            if not self._do(g, c, m, targets):
                tried.add(m.key.lower())  # refused: not tried again this turn

    def _do(self, g: Game, c: Combatant, m: Move, targets: list[Combatant]) -> bool:
        if m.kind == "area":
            return self._area(g, c, m, targets)
        if m.kind == "spell":
            assert m.ability is not None
            a = m.ability
            if g.do(C.UseAbility(c.id, a.name, spend=spend_of(a), act=a.act, cost=a.cost)) is None:
                return False
            cmd = combat.CosmereAttack(c.id, (targets[0].id,), use="none", **m.fields)
        else:
            cmd = combat.CosmereAttack(c.id, (targets[0].id,), **m.fields)
        return self._attack(g, c, cmd)

    def _attack(self, g: Game, c: Combatant, cmd: combat.CosmereAttack) -> bool:
        """The attack, grazing the targets it missed while it has focus for them (the outcome is
        seen first, as the app's dialog shows it: the test's die is the one the command will roll)."""
        focus = _focus(c)
        if focus > 0 and cmd.damage:
            missed = _missed(g.f, cmd)[:focus]
            if missed:
                cmd = replace(cmd, graze=missed)
        return g.do(cmd) is not None

    def _area(self, g: Game, c: Combatant, m: Move, targets: list[Combatant]) -> bool:
        """An ability against several: one test (d20 + the statblock's best attack bonus) against
        each target's defense; those it misses take half (or none), as the ability says."""
        a = m.ability
        assert a is not None
        ev = g.do(C.Roll(f"1d20{m.test:+d}" if m.test else "1d20", who=c.id, label=f"{a.name} test"))
        if ev is None:
            return False
        total = next((e.roll.total for e in ev if isinstance(e, Rolled)), 0)
        hits = tuple(AreaTarget(t.id, saved=total < t.stat(a.save, 10)) for t in targets)
        return g.do(AreaEffect(
            hits, dice=m.fields["damage"], type=m.fields["type"], source=c.id, ability=a.name, spend=spend_of(a),
            act=a.act, cost=a.cost, condition=a.condition, none_on_save=a.on_save == "none",
        )) is not None


def _missed(f: Fight, cmd: combat.CosmereAttack) -> tuple[str, ...]:
    """The targets the attack will miss. One target with nothing giving an advantage or a
    disadvantage (the usual case) is read from the d20 the command rolls first from the fight's
    dice; anything else from the engine's own dry run (`outcome_preview`), which costs a command."""
    if len(cmd.targets) == 1 and not (cmd.advantage or cmd.disadvantage or cmd.mode or cmd.unsensed):
        t = f.get(cmd.targets[0])
        if not t.conditions or not (t.has("Braced") or t.has("Squeezing")):
            r, _ = roll("1d20", f.rng)
            return () if r.total + cmd.modifier >= t.stat(cmd.defense, 10) else (t.id,)
    try:
        results = combat.outcome_preview(f, cmd)
    except RuleError:  # a refused attack: sent as it is, to be refused the same way
        return ()
    return tuple(r.target for r in results if r.outcome == "miss" and r.sensed)


TACTICS = CosmereTactics()
