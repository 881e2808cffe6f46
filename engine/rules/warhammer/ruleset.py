"""Warhammer: one d100 Initiative test at the start; combatants act in order of success levels (SL).

Ties go to the higher Agility. Spending a Fortune point at the start of a round lets a combatant pick
its slot for that round only. One attack (or other action) a turn, and a budget of reactions a round:
one, plus a bonus parry for a shield or off-hand weapon, plus one for a two-handed weapon, plus one for
fighting defensively (until its next turn). The clock's `slot` (WarhammerClock) is the index of the
current slot in `order`, -1 while the round waits at its start for Fortune to be spent, and UNDER_WAY
when the round has begun but no slot is behind it any more (the first one to act left the fight
mid-turn). See docs/rules/warhammer.md.
"""

from __future__ import annotations

from msgspec.structs import replace

from engine import commands as C
from engine import events as E
from engine.dice import DiceRoll, Rng, roll
from engine.errors import RuleError
from engine.rules.warhammer import combat
from engine.rules.warhammer.clock import WarhammerClock
from engine.rules.warhammer.commands import Fortune
from engine.rules.warhammer.economy import WarhammerEconomy
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
    finish_turn,
    keep_groups,
    live_reason,
    offer,
    remove_condition,
    skip_turn,
    start_initiatives,
    yes_no,
)
from engine.state import Combatant, Fight, Pool, put, set_pool

CONDITIONS = {
    "Surprised": "Caught unaware: cannot act or react, and attackers get +20 against it. Ends at "
    "the end of round 1 (of the round it came in, if given later) or when it is first attacked.",
    "Fighting on": "At 0 Wounds but still fighting (passed the champion's Willpower test).",
    "Collapsed": "Helpless and at the mercy of its enemies: loses its turns and cannot defend.",
    "Stopped fighting": "A champion at 0 Wounds that failed its Willpower test: bruised, battered and "
    "unwilling or unable to keep fighting (not necessarily dying).",
    "Seriously injured": "Sudden death 31-40: fights at -20 (attack, parry and dodge tests); a Cool "
    "test or it flees at once.",
    "Critically wounded": "Sudden death 41-65: prone and stunned indefinitely; loses its turns.",
    "Prone": "Lying down.",
    "Stunned": "Stunned (a critical injury or the sudden-death table says how long).",
    "Dead": "Dead: out of the fight.",
}

TIERS = ("minion", "champion", "master")

# the clock's `slot` in a round that has begun with no slot behind it: the combatant acting in the first slot
# left the fight. Not -1, which is the start of the round, when Fortune may still be spent.
UNDER_WAY = -2


def success_levels(target: int, rolled: int) -> int:
    """The usual d100 reading: tens digit of the target minus tens digit of the roll (00 = 100)."""
    return target // 10 - rolled // 10


def bonus_parries(c: Combatant) -> int:
    n = 0
    if "shield" in c.flags or "offhand" in c.flags:
        n += 1
    if "twohanded" in c.flags:
        n += 1
    return n


class Warhammer(Ruleset):
    id = "warhammer"
    economy_type = WarhammerEconomy
    clock_type = WarhammerClock
    title = "Warhammer"
    summary = "d100 Initiative test, act by SL (ties to Agility); Fortune picks a slot; reactions."
    turn_legend = (
        "A action (on its turn), R1 reactions left, P1 bonus parries left, D1 defensive (bright while"
        " still to use, dim when spent or not possible now)."
    )
    stats = (
        StatSpec("wounds", "Wounds", 10, 0, 999),
        StatSpec("ws", "Weapon Skill", 30, 0, 200),
        StatSpec("bs", "Ballistic Skill", 30, 0, 200),
        StatSpec("ag", "Agility", 30, 0, 200),
        StatSpec("i", "Initiative", 30, 0, 200),  # the Ag-based skill; Agility when left out
        StatSpec("t", "Toughness", 30, 0, 200),
        StatSpec("wp", "Willpower", 30, 0, 200),
        StatSpec("fortune", "Fortune", 0, 0, 20),
        StatSpec("resolve", "Resolve", 0, 0, 20),
        StatSpec("resilience", "Resilience", 0, 0, 20),
        # armour points per hit location, and a shield's AP (counts against missiles)
        StatSpec("ap_head", "AP head", 0, 0, 30),
        StatSpec("ap_body", "AP body", 0, 0, 30),
        StatSpec("ap_rarm", "AP right arm", 0, 0, 30),
        StatSpec("ap_larm", "AP left arm", 0, 0, 30),
        StatSpec("ap_rleg", "AP right leg", 0, 0, 30),
        StatSpec("ap_lleg", "AP left leg", 0, 0, 30),
        StatSpec("ap_shield", "Shield AP", 0, 0, 30),
    )
    conditions = CONDITIONS
    damage_order = ("wounds",)
    has_initiative = True
    # the text has each character test; copies with the same skill may share one (docs/rules/warhammer.md)
    shared_initiative = True
    health_label = "Wounds"

    def stat_label(self, key: str) -> str:
        # a statblock keeps Strength, which a weapon's +SB is worked out from
        return "Strength" if key == "s" else super().stat_label(key)

    def make(self, cmd: C.AddCombatant, cid: str, name: str) -> Combatant:
        # Initiative is a skill based on Agility: left out, it is the Agility itself (no advances)
        given = dict(cmd.stats)
        if "i" not in given:
            ag = given.get("ag", next(s.default for s in self.stats if s.key == "ag"))
            cmd = replace(cmd, stats=cmd.stats + (("i", ag),))
        return super().make(cmd, cid, name)

    def health(self, stats: tuple[tuple[str, int], ...]) -> tuple[Pool, ...]:
        w = dict(stats).get("wounds", 10)
        return (Pool("wounds", w, w),)

    def resources(self, stats: tuple[tuple[str, int], ...], cmd: C.AddCombatant) -> tuple[Pool, ...]:
        s = dict(stats)
        return tuple(Pool(k, s[k], s[k]) for k in ("fortune", "resolve", "resilience"))

    def restat(self, c: Combatant, stats: tuple[tuple[str, int], ...]) -> Combatant:
        return self.follow_stats(super().restat(c, stats), stats)

    def handlers(self) -> dict[type[C.Command], Handler]:
        return {
            Fortune: self._fortune,
            combat.Attack: self._attack,
            combat.Critical: lambda f, cmd, ev: combat.critical_command(f, cmd, ev),
            combat.KeepFighting: lambda f, cmd, ev: combat.keep_fighting_command(f, cmd, ev),
        }

    def _attack(self, f: Fight, cmd: combat.Attack, ev: Events) -> Fight:
        f, events, _ = combat.attack(self, f, cmd)
        ev.extend(events)
        return f

    # --- fight flow ---------------------------------------------------------------------------
    def start(self, f: Fight, cmd: C.StartFight, ev: Events) -> Fight:
        values, rng = start_initiatives(self, f, cmd, ev)
        cs = [replace(c, initiative=values[c.id], tiebreak=c.stat("ag")) for c in f.combatants]
        f = replace(f, combatants=tuple(cs), rng=rng)
        f = add_surprise(f, cmd.surprised, ev, "cannot act or react")
        f = self.reorder(f)
        ev.append(E.OrderSet(tuple(f.get(x).name for x in f.order)))
        return self._new_round(replace(f, round=0), ev)

    def roll_initiative(self, c: Combatant, given: C.Initiative, rng: Rng) -> tuple[int, DiceRoll | None, str, Rng]:
        """An Initiative test: the d100 against Initiative, its SL the place; a total called out is the SL."""
        if given.total is not None:
            return given.total, None, "(SL called out at the table)", rng
        try:
            r, after = roll("1d100", rng, given.dice)
        except RuleError as e:
            raise RuleError(f"{c.name}'s Initiative roll: {e}") from None
        target = c.stat("i")
        ok = "success" if r.total <= target else "failure"
        return success_levels(target, r.total), r, f"SL vs Initiative {target}, {ok}", after

    def standing_order(self, f: Fight) -> tuple[str, ...]:
        """By SL, ties to higher Agility, then the GM's earlier order.

        Ties fall back on `standing`, never on a round's Fortune-bought order, so a slot bought
        with Fortune cannot carry into later rounds through a tie."""
        prev = {cid: i for i, cid in enumerate(f.standing or f.order)}
        added = {c.id: i for i, c in enumerate(f.combatants)}
        cs = sorted(
            f.combatants,
            key=lambda c: (
                -(c.initiative if c.initiative is not None else -999),
                -c.stat("ag"),
                prev.get(c.id, 10_000 + added[c.id]),
            ),
        )
        return keep_groups(f, (c.id for c in cs))  # copies sharing one test side by side

    def reorder(self, f: Fight) -> Fight:
        """An SL or Agility changed, or someone joined. Mid-round this never costs or gives a turn:
        whoever has had its slot this round (and whoever is acting) keeps its place; those still to
        come are re-sorted, unless Fortune bought slots this round, in which case the round's order
        holds (a newcomer goes last) and the change counts from the next round."""
        standing = self.standing_order(f)
        if not f.order:
            return replace(f, order=standing, standing=standing)
        passed = f.order[: f.phase + 1] if f.phase >= 0 else ()
        bought = [x for x in f.standing if x in f.order] != list(f.order)
        if bought:
            rest = [x for x in f.order if x not in passed] + [x for x in standing if x not in f.order]
        else:
            rest = [x for x in standing if x not in passed]
        order = passed + tuple(x for x in rest if x not in passed)
        slot = order.index(f.current) if f.current in order else f.phase
        return replace(f, order=order, clock=WarhammerClock(slot), standing=standing)

    def order_changed(self, f: Fight) -> Fight:
        # the GM's call on a tie lasts beyond this round, unlike a Fortune slot
        return replace(super().order_changed(f), standing=f.order)

    def joined(self, f: Fight, c: Combatant, ev: Events) -> Fight:
        f = put(f, replace(c, economy=self._round_economy(c, c.economy)))
        return self.reorder(f)

    def left(self, f: Fight, cid: str, ev: Events) -> Fight:
        idx = f.order.index(cid) if cid in f.order else -1
        f = super().left(f, cid, ev)
        if idx != -1 and idx <= f.phase:
            # the next turn goes to whoever came after the leaver; the round stays under way (a
            # first slot left mid-turn must not reopen the start of the round to Fortune)
            f = replace(f, clock=WarhammerClock(f.phase - 1 if f.phase > 0 else UNDER_WAY))
        return f

    def _round_economy(self, c: Combatant, e: WarhammerEconomy) -> WarhammerEconomy:
        # one reaction a round, and more for a talent or gear the GM notes as `extra_reactions`
        extra = max(0, min(c.stat("extra_reactions"), 10))
        # no action until its turn comes (the one it had, or lost, last round is gone)
        return replace(e, actions=0, reactions=1 + extra, parries=bonus_parries(c), done=False)

    def _new_round(self, f: Fight, ev: Events) -> Fight:
        if f.round >= 1:
            # Surprised ends at the end of round 1; one the GM gave later (an ambush that joins the
            # fight) lasts to the end of the round it came in, that combatant's first round
            for c in f.combatants:
                if c.has("Surprised"):
                    f = put(f, remove_condition(c, "Surprised"))
                    ev.append(E.ConditionEnded(c.id, c.name, "Surprised", f"end of round {f.round}"))
        f = replace(
            f,
            round=f.round + 1,
            clock=WarhammerClock(-1),
            current="",
            combatants=tuple(replace(c, economy=self._round_economy(c, c.economy)) for c in f.combatants),
        )
        if f.round > 1:
            # the order of a round bought with Fortune lasts that round only
            standing = self.standing_order(f)
            f = replace(f, order=standing, standing=standing)
        ev.append(E.RoundStarted(f.round))
        if any(p.key == "fortune" and p.current > 0 for c in f.combatants for p in c.resources):
            ev.append(E.Info("Start of the round: Fortune may be spent now to choose when to act."))
            return f
        return self._next_turn(f, ev, new_round=True)

    def advance(self, f: Fight, ev: Events) -> Fight:
        if f.current:
            c = f.get(f.current)
            lost = "action" if c.economy.actions else ""
            # an action not taken is gone with the turn
            f = put(f, replace(c, economy=replace(c.economy, actions=0)))
            f = finish_turn(self, f, ev, lost)
        return self._next_turn(f, ev)

    def _next_turn(self, f: Fight, ev: Events, new_round: bool = False) -> Fight:
        idx = max(f.phase, -1) + 1
        while idx < len(f.order):
            cid = f.order[idx]
            c = f.get(cid)
            f = replace(f, clock=WarhammerClock(idx))
            if c.economy.done:
                idx += 1  # moved down the order after acting: one turn a round
                continue
            if c.has("Surprised"):
                f = skip_turn(f, cid, ev, "Surprised, it cannot act")
                idx += 1
                continue
            out = combat.out_of_action(c)
            if out:
                f = skip_turn(f, cid, ev, out)
                idx += 1
                continue
            # one attack or other action; a fighting-defensively reaction lasts until its next turn
            f = put(
                f,
                replace(
                    c,
                    economy=replace(c.economy, actions=1, defensive=0, used=(), attacks=0, attack_option=""),
                ),
            )
            return begin_turn(self, f, cid, ev)
        if new_round:
            # a whole round where nobody can act (all dead, collapsed or Surprised): stop here
            # rather than roll round after round; each `next` moves on one round
            ev.append(E.Info("Nobody can act this round."))
            return replace(f, current="")
        return self._new_round(f, ev)

    # --- Fortune ------------------------------------------------------------------------------
    def fortune_refusal(self, f: Fight, c: Combatant | None = None) -> str:
        """Why Fortune may not buy a slot now (for `c`, when given): "" if it may."""
        if not f.started or f.ended:
            return "Fortune buys a slot once the fight is under way."
        if f.phase != -1 or f.current:
            return "Fortune is spent at the start of a round, before anyone acts."
        p = c.pool("fortune") if c is not None else None
        if c is not None and (p is None or p.current < 1):
            return f"{c.name} has no Fortune left."
        return ""

    def _fortune(self, f: Fight, cmd: Fortune, ev: Events) -> Fight:
        if not f.started or f.ended:
            raise RuleError(self.fortune_refusal(f))
        c = f.get(cmd.who)
        refusal = self.fortune_refusal(f, c)
        if refusal:
            raise RuleError(refusal)
        p = c.pool("fortune")
        assert p is not None  # checked by fortune_refusal
        order = [x for x in f.order if x != c.id]
        if not 0 <= cmd.position <= len(order):
            raise RuleError(
                f"Position {cmd.position} is outside the order: 0 (first) to {len(order)} (last)."
            )
        order.insert(cmd.position, c.id)
        c = replace(c, resources=set_pool(c.resources, replace(p, current=p.current - 1)))
        f = put(replace(f, order=tuple(order)), c)
        ev.append(E.ResourceChanged(c.id, c.name, "fortune", -1, p.current - 1))
        ev.append(E.OrderSet(tuple(f.get(x).name for x in order)))
        if c.has("Surprised"):
            # choosing when to act is how a surprised combatant shakes off surprise in round 1
            f = put(f, remove_condition(c, "Surprised"))
            ev.append(E.ConditionEnded(c.id, c.name, "Surprised", "spent Fortune to act"))
        return f

    # --- the action economy -------------------------------------------------------------------
    def use(self, f: Fight, cmd: C.UseAction, ev: Events) -> Fight:
        c = f.get(cmd.who)
        e = c.economy
        label = cmd.name.strip()
        if cmd.what in ("parry", "dodge"):
            e = combat.spend_defence(c, cmd.what)
        elif cmd.what in ("action", "defensive"):
            if f.current != c.id:
                raise RuleError(f"It is not {c.name}'s turn.")
            if e.actions < 1:
                raise RuleError(f"{c.name} has already taken its one action this turn.")
            e = replace(e, actions=0, used=e.used + ((label,) if label else ()))
            if cmd.what == "defensive":
                # forgoing the attack buys a parry or dodge until its next turn
                e = replace(e, defensive=1)
                label = label or "Fighting defensively"
        else:
            raise RuleError(f"Warhammer has action, defensive, parry and dodge, not '{cmd.what}'.")
        f = put(f, replace(c, economy=e))
        c = f.get(c.id)
        ev.append(E.ActionUsed(c.id, c.name, cmd.what, label, self.describe_economy(c)))
        if cmd.target and cmd.what == "action":
            t = f.get(cmd.target)
            if t.has("Surprised"):
                f = put(f, remove_condition(t, "Surprised"))
                ev.append(E.ConditionEnded(t.id, t.name, "Surprised", "was attacked"))
        return f

    def dropped_state(self, f: Fight, c: Combatant) -> str:
        return combat.zero_wounds_state(c)

    def damage_taken(self, f: Fight, c: Combatant, amount: int, cmd: C.Damage, ev: Events) -> Fight:
        """Damage typed in by hand (not through an attack): remind the GM of the zero-Wounds rules."""
        fell = any(isinstance(e, E.Dropped) and e.who == c.id for e in ev)
        for earlier in ("Fighting on", "Stopped fighting"):
            if fell and c.has(earlier):
                # an earlier Willpower test does not carry over to a new fall to 0 Wounds
                f = put(f, remove_condition(c, earlier))
                ev.append(E.ConditionEnded(c.id, c.name, earlier, "at 0 Wounds again: a new Willpower test"))
                c = f.get(c.id)
        if amount > 0 and c.down:
            ev.append(
                E.Info(
                    f"{c.name} is at 0 Wounds. A hit that went past 0, or landed at 0, causes a critical "
                    "injury (+5 on the roll per point beyond 0): use Critical.",
                    c.id,
                )
            )
        return f

    def describe_economy(self, c: Combatant) -> str:
        """The texts of `economy_of(c)` joined ("A1 R1+P1"), without building the items: every
        action and defence used writes this line into its event (tests/engine/test_actions_economy.py
        checks the two agree)."""
        e = c.economy
        line = f"A{e.actions} R{e.reactions}"
        if e.parries:
            line += f"+P{e.parries}"
        if e.defensive:
            line += f"+D{e.defensive}"
        return line

    def economy_of(self, c: Combatant, f: Fight | None = None) -> tuple[EconomyItem, ...]:
        e = c.economy
        mine = f is not None and f.current == c.id
        if mine:
            st: EconomyState = "available" if e.actions > 0 else "spent"
            why = ""
        else:
            st, why = "barred", ("Not its turn" if f is not None and f.started else "Fight not started")
        out = [
            EconomyItem(
                "action", "A", str(e.actions), st, why, "Action", yes_no(e.actions > 0), f"A{e.actions}", "A",
                e.actions, sheet=mine,
            ),
            EconomyItem(
                "reaction", "R", str(e.reactions), "available" if e.reactions > 0 else "spent", "", "Reactions",
                str(e.reactions), f"R{e.reactions}", f"R{e.reactions}", e.reactions, plain=True,
            ),
        ]
        if e.parries:
            out.append(
                EconomyItem("parries", "P", str(e.parries), "available", "", "", f"Bonus parries {e.parries}",
                            f"+P{e.parries}", f"P{e.parries}", e.parries, plain=True)
            )
        if e.defensive:
            out.append(
                EconomyItem("defensive", "D", str(e.defensive), "available", "", "", f"Defensive {e.defensive}",
                            f"+D{e.defensive}", f"D{e.defensive}", e.defensive, plain=True)
            )
        return tuple(out)

    def rules_actions(self, f: Fight) -> tuple[ActionInfo, ...]:
        live = live_reason(f)
        everyone = tuple(c.id for c in f.combatants)
        cur = f.find(f.current) if f.current else None
        users = tuple(
            dict.fromkeys(([cur.id] if cur else []) + [c.id for c in f.combatants if c.economy.reactions > 0])
        )
        # attacks are made on the attacker's own turn only: none before the round's first turn
        attackers = (cur.id,) if cur is not None else ()
        no_attack = live or anyone(f, attackers, "Attacks are made on the attacker's turn: nobody's turn has begun.")
        fortune = self.fortune_refusal(f)
        buyers = () if fortune else tuple(c.id for c in f.combatants if not self.fortune_refusal(f, c))
        testers = tuple(c.id for c in f.combatants if not combat.willpower_refusal(c))
        no_fortune = fortune or anyone(f, buyers, "Nobody has Fortune left.")
        no_test = live or anyone(f, testers, "Nobody is a champion at 0 Wounds without Resolve.")
        return (
            offer("use", "Use an action or reaction", live or anyone(f, users, "Nobody can act or react now."), users),
            offer("attack", "Attack", no_attack, attackers),
            offer("fortune", "Spend Fortune for a slot", no_fortune, buyers),
            offer("wh_critical", "Roll a critical injury", live or anyone(f, everyone, ""), everyone),
            offer("willpower", "Test Willpower to keep fighting", no_test, testers),
        )

    def phase_label(self, f: Fight) -> str:
        if f.phase == -1 and not f.current:
            return f"Round {f.round} · start (Fortune)"
        return f"Round {f.round}"
