"""d20's auto-play for `fracas odds` (engine/odds; docs/odds.md, "d20").

On its turn a combatant takes its action, then its bonus action, each the best it has by expected
damage: a statblock attack, an ability with an attack roll (a spell attack), a Multiattack (the sum
of its attacks), or an ability with a save when it catches two or more enemies (an area). Its target
is the most hurt enemy. A combatant without a statblock attacks with a default weapon from its sheet:
the better of its Strength and Dexterity modifiers plus its proficiency bonus to hit, 1d6 plus that
modifier in damage. A hit's rider is played as the app plays it (the save rolled, the condition or the
damage on a failure); the rolls the fight says are owed are made with `d20_test` (a concentration
save, a Confused save) or `recharge`. Reactions, legendary and lair actions, movement, Dash, Dodge,
Help, grapples and the off-hand attack are not used.
"""

from typing import Any, NamedTuple

from msgspec.structs import replace

from engine import commands as C
from engine import library as L
from engine.area import AreaEffect, AreaTarget
from engine.events import Event
from engine.library.abilities import Ability, spend_of
from engine.library.d20 import total_bonus
from engine.odds.choose import caught, dice_mean, factor, mean, ranked, ready
from engine.odds.play import Game, Tactics
from engine.pools import LEGENDARY_RESISTANCE, find_pool
from engine.rules.d20 import combat
from engine.state import Combatant, Due

DEFAULT_DICE = "1d6"  # the default weapon's damage die, plus the modifier it attacks with


class Move(NamedTuple):
    """Something a combatant can do with its action or bonus action."""

    kind: str  # weapon | spell (an ability's attack roll) | area (an ability with a save) | multi | default
    act: str  # action | bonus
    obj: Any  # the statblock's attack, the Ability, or None (the default weapon)
    spend: tuple[tuple[str, int], ...] = ()


class Plan(NamedTuple):
    sb: Any  # the statblock (None: the default weapon)
    moves: tuple[Move, ...]
    acts: frozenset[str]  # the parts of the turn it has a move for


def _parts(parts: tuple[Any, ...]) -> tuple[str, str, tuple[tuple[str, str], ...]]:
    """Damage parts as the attack command takes them: the dice of the first type (and untyped parts)
    joined, that type, and the parts of other types (dealt on their own)."""
    typ = parts[0].type if parts else ""
    same = ("", typ.casefold())
    main = [p.dice.replace(" ", "") for p in parts if p is parts[0] or p.type.casefold() in same]
    extra = tuple((p.dice, p.type) for p in parts if p is not parts[0] and p.type.casefold() not in same)
    return "+".join(main), typ, extra


def _hit_value(bonus: int, t: Combatant, dice: str, add: int, typ: str,
               extra: tuple[tuple[str, str], ...]) -> float:
    """An attack roll's expected damage on `t`: hits (criticals included) deal the dice and `add`,
    a critical the dice once more."""
    p_hit, p_crit = combat.hit_chance(bonus, t.stat("ac", 10))
    hit, crit = float(p_hit), float(p_crit)
    value = 0.0
    if dice:
        value += (hit * (mean(dice) + add) + crit * dice_mean(dice)) * factor(t, typ)
    for d, ty in extra:
        value += (hit * mean(d) + crit * dice_mean(d)) * factor(t, ty)
    return value


def _dc(sb: Any, a: Ability) -> int:
    """An ability's save DC: its own, else its caster's spell save DC (a spell without its own)."""
    if a.dc:
        return a.dc
    sc = getattr(sb, "spellcasting", None)
    return sc.dc if sc is not None else 0


class D20Tactics(Tactics):
    def settle(self, g: Game, c: Combatant, due: Due) -> C.Command | None:
        """Recharges are rolled; a concentration save, or the save a condition asks for at the end
        of the turn, is made from the sheet (waived when no DC is known for it)."""
        found = super().settle(g, c, due)
        if found is not None:
            return found
        if due.what == "concentration":
            return combat.D20Test(c.id, resolves="concentration")
        cond = c.condition(due.what)
        if due.dc or (cond is not None and cond.dc):
            return combat.D20Test(c.id, resolves=due.what)
        return combat.D20Test(c.id, resolves=due.what, waive=True)

    def step(self, g: Game) -> None:
        f = g.f
        cur = f.find(f.current) if f.current else None
        if cur is not None and not self.out(g, cur):
            for act in ("action", "bonus"):
                if not self._act(g, g.f.get(cur.id), act):
                    break
        g.next()

    # --- what it can do -------------------------------------------------------------------------
    def plan(self, g: Game, c: Combatant) -> Plan:
        key = ("plan", c.id)
        hit = g.memo.get(key)
        if hit is None:
            hit = g.memo[key] = self._plan(g, c)
        return hit

    def _plan(self, g: Game, c: Combatant) -> Plan:
        sb = L.statblock_of(g.f.ruleset, c)
        if sb is None:
            return Plan(None, (Move("default", "action", None),), frozenset(("action",)))
        moves = [Move("weapon", "action", a) for a in sb.attacks]
        for a in L.get_kind(g.f.ruleset).abilities(sb):
            if a.act not in ("action", "bonus"):
                continue  # reactions, legendary and lair actions are not played
            if a.attacks:
                moves.append(Move("multi", a.act, a, spend_of(a)))
            elif a.save and a.damage and _dc(sb, a):
                moves.append(Move("area", a.act, a, spend_of(a)))
            elif a.hit is not None and a.damage:
                moves.append(Move("spell", a.act, a, spend_of(a)))
        return Plan(sb, tuple(moves), frozenset(m.act for m in moves))

    def value(self, g: Game, c: Combatant, i: int, t: Combatant) -> float:
        """Move i's expected damage on `t` (one target's share for an area)."""
        key = ("value", c.id, i, t.id)
        hit = g.memo.get(key)
        if hit is None:
            plan = self.plan(g, c)
            hit = g.memo[key] = self._value(plan.sb, c, plan.moves[i], t)
        return hit

    def _value(self, sb: Any, c: Combatant, m: Move, t: Combatant) -> float:
        if m.kind == "default":
            add = max(combat.mod(c.stat("str", 10)), combat.mod(c.stat("dex", 10)))
            return _hit_value(add + c.stat("prof", 2), t, DEFAULT_DICE, add, "", ())
        if m.kind == "weapon":
            return self._weapon_value(sb, m.obj, t)
        a: Ability = m.obj
        if m.kind == "spell":
            dice, typ, extra = _parts(a.damage)
            return _hit_value(a.hit or 0, t, dice, 0, typ, extra)
        if m.kind == "area":
            dice, typ, _ = _parts(a.damage)
            p_fail = 1 - float(combat.test_chance(combat.save_bonus(t, a.save), _dc(sb, a)))
            kept = p_fail + (1 - p_fail) * (0.5 if a.on_save == "half" else 0.0)
            return mean(dice) * kept * factor(t, typ)
        return sum(self._named_value(sb, name, t) for name in a.attacks)

    def _weapon_value(self, sb: Any, a: Any, t: Combatant) -> float:
        fields = L.attack_fields(sb, a)
        add = combat.mod(getattr(sb.abilities, a.ability)) if a.ability and not a.power and fields["damage"] else 0
        return _hit_value(total_bonus(sb, a), t, fields["damage"], add, fields["type"], fields.get("extra", ()))

    def _named_value(self, sb: Any, name: str, t: Combatant) -> float:
        """What one attack of a Multiattack is worth: a weapon attack, or an ability's attack roll."""
        low = name.casefold()
        for a in sb.attacks:
            if a.name.casefold() == low:
                return self._weapon_value(sb, a, t)
        for ab in sb.actions + (sb.spellcasting.spells if sb.spellcasting else ()):
            if ab.name.casefold() == low and ab.hit is not None and ab.damage:
                dice, typ, extra = _parts(ab.damage)
                return _hit_value(ab.hit, t, dice, 0, typ, extra)
        return 0.0

    # --- choosing and doing it ------------------------------------------------------------------
    def _act(self, g: Game, c: Combatant, act: str) -> bool:
        """Its best move for `act` on the most hurt enemy (an area on as many as it catches); False
        when there is nothing to do it to."""
        plan = self.plan(g, c)
        if act not in plan.acts:
            return True
        foes = _attackable(g, c)
        if not foes:
            return False
        best, best_i, targets = 0.0, -1, foes[:1]
        for i, m in enumerate(plan.moves):
            if m.act != act or (m.spend and not ready(c, m.spend)):
                continue
            if m.kind == "area":
                k = caught(m.obj.targets, len(foes))
                if k < 2:
                    continue  # an ability with a save is used when it catches two or more
                value = sum(self.value(g, c, i, t) for t in foes[:k])
                if value > best:
                    best, best_i, targets = value, i, foes[:k]
            else:
                value = self.value(g, c, i, foes[0])
                if value > best:
                    best, best_i, targets = value, i, foes[:1]
        if best_i < 0:
            return True
        self._do(g, c, plan, plan.moves[best_i], targets)
        return True

    def _do(self, g: Game, c: Combatant, plan: Plan, m: Move, targets: list[Combatant]) -> None:
        t = targets[0]
        if m.kind == "default":
            add = max(combat.mod(c.stat("str", 10)), combat.mod(c.stat("dex", 10)))
            g.do(combat.D20Attack(c.id, t.id, bonus=add + c.stat("prof", 2), damage=DEFAULT_DICE, mod=add,
                                  label="Weapon"))
        elif m.kind == "weapon":
            self._weapon(g, c, plan.sb, m.obj, t, "")
        elif m.kind == "spell":
            self._spell(g, c, m.obj, t, m.act)
        elif m.kind == "area":
            self._area(g, c, plan.sb, m.obj, targets, m.act)
        elif g.do(C.UseAbility(c.id, m.obj.name, spend=m.spend, act=m.act, cost=m.obj.cost)) is not None:
            self._multi(g, c, plan.sb, m.obj)

    def _weapon(self, g: Game, c: Combatant, sb: Any, a: Any, t: Combatant, use: str) -> None:
        key = ("attack", c.id, a.name, use)
        made = g.memo.get(key)
        if made is None:
            fields = L.attack_fields(sb, a)
            extra = fields.pop("extra", ())
            if use:
                fields["use"] = use
            made = g.memo[key] = (combat.D20Attack(c.id, c.id, **fields), bool(extra))
        cmd, extra = made
        ev = g.do(replace(cmd, target=t.id))
        if ev is None or _missed(ev):
            return
        if extra:
            for follow in L.get_kind(g.f.ruleset).follow_up(sb, a.name, ev):
                g.do(follow)
        if a.condition or a.save:
            self._rider(g, c, a, t)

    def _rider(self, g: Game, c: Combatant, a: Any, t: Combatant) -> None:
        """What else a hit does, as the app's rider dialog plays it: a save against damage and a
        condition as one area effect on the target, a save against a condition, or the condition."""
        t = g.f.get(t.id)
        if t.down:
            return
        if a.save and a.dc and a.rider_damage:
            dice, typ, _ = _parts(a.rider_damage)
            g.do(AreaEffect((self._target(t),), dice=dice, type=typ, label=f"{a.name}'s rider", source=c.id,
                            save=a.save, dc=a.dc, none_on_save=not a.rider_half, condition=a.condition))
        elif a.save and a.dc:
            ev = g.do(combat.D20Test(t.id, ability=a.save, dc=a.dc, label=f"{a.name}'s rider",
                                     legendary=_resists(t)))
            failed = ev is not None and any(isinstance(e, combat.TestRolled) and e.success is False for e in ev)
            if failed and a.condition:
                g.do(C.AddCondition(t.id, a.condition, source=c.id))
        elif a.condition:
            g.do(C.AddCondition(t.id, a.condition, source=c.id))

    def _spell(self, g: Game, c: Combatant, a: Ability, t: Combatant, act: str) -> None:
        """An ability with an attack roll, as the attack dialog makes it: its bonus whole, what it
        spends, a part of another type dealt on a hit, its condition given to the one hit."""
        dice, typ, extra = _parts(a.damage)
        use = act if act in ("action", "bonus") else "none"
        kind = "ranged" if a.level >= 0 else "melee"
        ev = g.do(combat.D20Attack(c.id, t.id, bonus=a.hit or 0, damage=dice, type=typ, kind=kind, label=a.name,
                                   use=use, spend=spend_of(a)))
        if ev is None or _missed(ev):
            return
        crit = any(isinstance(e, combat.AttackRolled) and e.outcome == "critical" for e in ev)
        for d, ty in extra:
            g.do(C.Damage(t.id, dice=L.doubled(d) if crit else d, type=ty, source=c.id))
        if a.condition and not g.f.get(t.id).down:
            g.do(C.AddCondition(t.id, a.condition, source=c.id))

    def _area(self, g: Game, c: Combatant, sb: Any, a: Ability, targets: list[Combatant], act: str) -> None:
        dice, typ, _ = _parts(a.damage)
        g.do(AreaEffect(
            tuple(self._target(t) for t in targets), dice=dice, type=typ, source=c.id, save=a.save, dc=_dc(sb, a),
            none_on_save=a.on_save == "none", ability=a.name, spend=spend_of(a), act=act,
            cost=a.cost, condition=a.condition,
        ))

    @staticmethod
    def _target(t: Combatant) -> AreaTarget:
        return AreaTarget(t.id, legendary=_resists(t))

    def _multi(self, g: Game, c: Combatant, sb: Any, a: Ability) -> None:
        """A Multiattack's attacks, its action paid: each on the most hurt enemy standing then."""
        for name in a.attacks:
            foes = _attackable(g, g.f.get(c.id))
            if not foes or self.out(g, g.f.get(c.id)):
                return
            low = name.casefold()
            weapon = next((x for x in sb.attacks if x.name.casefold() == low), None)
            if weapon is not None:
                self._weapon(g, c, sb, weapon, foes[0], "none")
                continue
            ab = next((x for x in L.get_kind(g.f.ruleset).abilities(sb) if x.name.casefold() == low), None)
            if ab is None:
                continue
            if ab.hit is not None and ab.damage:
                self._spell(g, c, ab, foes[0], "")
            elif ab.save and ab.damage and _dc(sb, ab):
                self._area(g, c, sb, ab, foes[: max(1, caught(ab.targets, len(foes)))], "")


def _attackable(g: Game, c: Combatant) -> list[Combatant]:
    """The enemies `c` can attack, most hurt first: not the one it is Charmed by."""
    foes = ranked(g.foes(c))
    charmed = c.condition("Charmed") if c.conditions else None
    if charmed is not None and charmed.source:
        foes = [t for t in foes if t.id != charmed.source]
    return foes


def _missed(ev: tuple[Event, ...]) -> bool:
    return not any(isinstance(e, combat.AttackRolled) and e.outcome != "miss" for e in ev)


def _resists(t: Combatant) -> bool:
    """A legendary creature spends Legendary Resistance on a failed save while it has some."""
    p = find_pool(t, LEGENDARY_RESISTANCE)
    return p is not None and p.current > 0


TACTICS = D20Tactics()
