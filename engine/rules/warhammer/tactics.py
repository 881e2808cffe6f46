"""Warhammer's auto-play for `fracas odds` (engine/odds; docs/odds.md, "Warhammer").

On its turn a combatant makes one attack, with its best weapon by expected damage (the chance its
skill test succeeds times the average of the d10 and the weapon's damage less the target's Toughness
Bonus and its average armour), on the most hurt enemy. A combatant without a statblock attacks with a
hand weapon: WS, damage its Strength Bonus + 4. The defender parries or dodges when the rules let it
(a weapon to parry with, a reaction or bonus parry left, aware of the attack; a missile only dodged),
whichever of its Weapon Skill and Agility (after the rules' modifiers) is higher. An ability with a
test when it catches two or more enemies: each target tests the characteristic it names (a d100 at or
under it avoids it). Fortune is not spent, nobody fights defensively, and one attack a turn is made
(no multiple-attack options).

The critical tables are not in the text, so the simulation reads a critical injury only where it is
certain: a minion's sudden-death roll is the engine's (dead, critically wounded, or seriously injured:
then a Cool test, taken as a Willpower test, or it flees: out of the fight); anyone else fighting on at
0 Wounds (Resolve, or a champion that passed its Willpower test) is out at its first critical injury
there. Above 0 Wounds a critical hit's injury has no effect in the simulation.
"""

from typing import Any, NamedTuple

from engine import commands as C
from engine import events as E
from engine import library as L
from engine.area import AreaEffect, AreaTarget
from engine.events import Event, Rolled
from engine.library.abilities import Ability, spend_of
from engine.library.warhammer import strength_bonus
from engine.odds.choose import caught, mean, ranked, ready
from engine.odds.play import Game, Tactics
from engine.rules.warhammer import combat
from engine.state import Combatant

# the share of hits each location takes (the reversed d100 on the chart), for the average armour
SHARE = {key: (high - low + 1) / 99 for key, _, low, high in combat.LOCATIONS}
HAND_WEAPON = 4  # a combatant without a statblock: a hand weapon, its Strength Bonus + 4
FLED = "fled"


class Move(NamedTuple):
    kind: str  # weapon | area
    fields: dict[str, Any]  # the Attack's fields (weapon)
    ability: Ability | None = None


def _wounds_value(fields: dict[str, Any], a: Combatant, t: Combatant) -> float:
    """The expected Wounds of one attack: the chance to hit times the average damage that gets
    through (the d10 and the weapon's damage, less Toughness Bonus and the average armour)."""
    skill = fields.get("skill") or ("ws" if fields.get("kind", "melee") == "melee" else "bs")
    p = float(combat.hit_chance(a.stat(skill)))
    soak = combat.toughness_bonus(t) + sum(share * combat.armour(t, key) for key, share in SHARE.items())
    if fields.get("kind", "melee") != "melee":
        soak += t.stat("ap_shield")
    through = sum(max(0.0, die + fields.get("damage", 0) - soak) for die in range(1, 11)) / 10
    return p * through


class WarhammerTactics(Tactics):
    def out(self, g: Game, c: Combatant) -> bool:
        """Out of the fight: dead, critically wounded, collapsed at 0 Wounds, stopped fighting, or
        counted out by the tactics (fled; a critical injury while fighting on at 0 Wounds)."""
        if c.id in g.gone:
            return True
        if not c.down and not c.conditions:
            return False
        return bool(combat.out_of_action(c)) or c.has("Stopped fighting")

    def step(self, g: Game) -> None:
        f = g.f
        if f.current:
            c = f.get(f.current)
            if not self.out(g, c):
                self._turn(g, c)
        g.next()

    # --- what it can do -------------------------------------------------------------------------
    def _moves(self, g: Game, c: Combatant) -> tuple[Move, ...]:
        sb = L.statblock_of(g.f.ruleset, c)
        if sb is None:
            damage = strength_bonus(c.stat("s", 30)) + HAND_WEAPON
            return (Move("weapon", {"weapon": "Hand weapon", "kind": "melee", "skill": "ws", "damage": damage}),)
        out = [Move("weapon", L.attack_fields(sb, w)) for w in sb.weapons]
        for ab in sb.actions:
            if ab.act == "action" and ab.save and ab.damage and ab.targets != 1:
                out.append(Move("area", {}, ab))
        return tuple(out)

    def value(self, g: Game, c: Combatant, i: int, t: Combatant) -> float:
        key = ("value", c.id, i, t.id)
        hit = g.memo.get(key)
        if hit is None:
            m = self.moves(g, c)[i]
            if m.kind == "weapon":
                hit = _wounds_value(m.fields, c, t)
            else:
                assert m.ability is not None
                dice = "+".join(p.dice.replace(" ", "") for p in m.ability.damage)
                avoid = min(max(t.stat(m.ability.save), 0), 100) / 100
                hit = mean(dice) * (1 - avoid + (avoid * 0.5 if m.ability.on_save == "half" else 0.0))
            g.memo[key] = hit
        return hit

    # --- its turn -------------------------------------------------------------------------------
    def _turn(self, g: Game, c: Combatant) -> None:
        foes = ranked(g.foes(c))
        if not foes:
            return
        best, best_i, targets = 0.0, -1, foes[:1]
        for i, m in enumerate(self.moves(g, c)):
            if m.kind == "area":
                assert m.ability is not None
                k = caught(m.ability.targets, len(foes))
                if k < 2 or not ready(c, spend_of(m.ability)):
                    continue
                value = sum(self.value(g, c, i, t) for t in foes[:k])
                if value > best:
                    best, best_i, targets = value, i, foes[:k]
            else:
                value = self.value(g, c, i, foes[0])
                if value > best:
                    best, best_i, targets = value, i, foes[:1]
        if best_i < 0:
            return
        m = self.moves(g, c)[best_i]
        if m.kind == "area":
            self._area(g, c, m, targets)
        else:
            self._attack(g, c, m, targets[0])

    def _attack(self, g: Game, c: Combatant, m: Move, t: Combatant) -> None:
        cmd = combat.Attack(c.id, t.id, **m.fields)
        ev = g.do(combat.Attack(c.id, t.id, defence=self._defence(g, cmd), **m.fields))
        if ev is not None:
            self._after(g, t.id, ev)

    @staticmethod
    def _defence(g: Game, cmd: combat.Attack) -> str:
        """Parry or dodge, as the rules allow, with the better chance; "" when neither is allowed."""
        t = g.f.get(cmd.target)
        best, need = "", -1
        for what, mod, why in combat.defence_choices(g.f, cmd):
            if why:
                continue
            n = t.stat("ws" if what == "parry" else "ag") + mod
            if n > need:
                best, need = what, n
        return best

    def _after(self, g: Game, tid: str, ev: tuple[Event, ...]) -> None:
        """What the text leaves to the GM's tables: a critical injury while fighting on at 0 Wounds
        puts it out; a minion seriously injured tests Cool (Willpower) or flees."""
        t = g.f.get(tid)
        for e in ev:
            if isinstance(e, combat.CriticalRolled) and e.who == tid and t.down and not e.sudden:
                g.gone.add(tid)
            elif isinstance(e, E.ConditionAdded) and e.who == tid and e.condition == "Seriously injured":
                rolled = g.do(C.Roll("1d100", who=tid, label="Cool test (taken as a Willpower test): or it flees"))
                total = next((x.roll.total for x in rolled or () if isinstance(x, Rolled)), 0)
                if rolled is not None and total > t.stat("wp"):
                    g.gone.add(tid)

    def _area(self, g: Game, c: Combatant, m: Move, targets: list[Combatant]) -> None:
        """Each target tests the characteristic the ability names: at or under it, it avoids it
        (half the damage with `on_save` half)."""
        a = m.ability
        assert a is not None
        caught_ = []
        for t in targets:
            ev = g.do(C.Roll("1d100", who=t.id, label=f"{a.save.upper()} test against {a.name}"))
            total = next((x.roll.total for x in ev or () if isinstance(x, Rolled)), 100)
            caught_.append(AreaTarget(t.id, saved=total <= t.stat(a.save)))
        dice = "+".join(p.dice.replace(" ", "") for p in a.damage)
        ev = g.do(AreaEffect(tuple(caught_), dice=dice, type=a.damage[0].type, source=c.id, ability=a.name,
                             spend=spend_of(a), act=a.act, cost=a.cost, condition=a.condition,
                             none_on_save=a.on_save == "none"))
        for t in targets:
            now = g.f.get(t.id)
            if (ev is not None and now.down and not combat.willpower_refusal(now) and not now.has("Fighting on")
                    and not now.has("Stopped fighting")):
                g.do(combat.KeepFighting(t.id))  # a champion brought to 0 Wounds tests Willpower


TACTICS = WarhammerTactics()
