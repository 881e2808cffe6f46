"""d20: one turn each in initiative order (d20 + Dexterity modifier).

Each turn: a move, one action, one bonus action, and a Gambit declared at the very start. One reaction
a round, which comes back at the start of the combatant's own turn. Decisions where the text is silent
are in docs/rules/d20.md.
"""

from __future__ import annotations

from msgspec.structs import replace

from engine import commands as C
from engine import core, pools
from engine import events as E
from engine.dice import DiceRoll, Rng, roll
from engine.errors import RuleError
from engine.mechanics import GivenRolls
from engine.rules.d20 import combat
from engine.rules.d20.clock import D20Clock
from engine.rules.d20.economy import D20Economy
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
    keep_groups,
    live_reason,
    offer,
    skip_turn,
    start_initiatives,
    yes_no,
)
from engine.state import Combatant, Condition, Fight, Pool, positions, put, put_all

CONDITIONS = {
    "Blinded": "Cannot see. Attacks against it have advantage; its own attacks have disadvantage.",
    "Bleeding": "Takes 1d4 piercing damage at the start of each of its turns until it ends.",
    "Burning": "Takes fire damage (1d4 unless the source says more) at the start of each of its "
    "turns, until it ends or an action is spent putting it out.",
    "Charmed": "Cannot attack, or aim harmful powers at, whoever charmed it.",
    "Concealed": "Hard to see: attacks against it have disadvantage.",
    "Confused": "No reactions. Rolls a d10 at the start of each turn for what it does (1 wanders, "
    "2-6 stands still, 7-8 attacks someone at random, 9-10 acts normally); saves again at the end "
    "of each turn.",
    "Deafened": "Cannot hear.",
    "Disarmed": "Has dropped its weapon; picking it up costs the move or an action.",
    "Exhaustion": "Each level is -1 on its d20 rolls; a long rest removes a level.",
    "Frightened": "While the source is in sight: disadvantage on attacks and checks, and cannot "
    "willingly move closer to it.",
    "Grappled": "Speed 0. Ends if the grappler is moved away or incapacitated.",
    "Helped": "An ally's Help: advantage on its next check or attack (spent by it), until the helper's next "
    "turn starts.",
    "Hidden": "Unseen: its next attack has advantage. Attacking or being found ends it.",
    "Incapacitated": "Can take no actions and no reactions.",
    "Marked": "Attacks against it have advantage.",
    "Poisoned": "Disadvantage on attacks and checks; cannot recover Gambit Points.",
    "Prone": "Can only crawl, or stand up for half its speed. Melee attacks against it have "
    "advantage, ranged attacks disadvantage.",
    "Restrained": "Speed 0. Attacks against it have advantage; disadvantage on its Dexterity saves.",
    "Slowed": "Its speed is halved.",
    "Stunned": "Loses its turn and cannot react. Attacks against it have advantage.",
    "Unconscious": "Incapacitated and prone; drops what it holds. Attacks against it have advantage.",
    "Surprised": "Did not see the fight coming: loses its first turn.",
    "Concentrating": "Holding a power: taking damage calls for a Constitution save (DC 10 or half "
    "the damage, whichever is higher); being incapacitated ends it.",
}


def dex_mod(score: int) -> int:
    return (score - 10) // 2


def initiative_ability(c: Combatant) -> str:
    """The ability a combatant rolls initiative with: Dexterity, unless a trait says another (the
    flag `init_<ability>`: an Orok's `init_wis`)."""
    flags = {x.lower() for x in c.flags}
    return next((a for a in combat.ABILITIES if f"init_{a}" in flags), "dex")


def initiative_mod(c: Combatant) -> int:
    return dex_mod(c.stat(initiative_ability(c), 10))


class D20(Ruleset):
    id = "d20"
    economy_type = D20Economy
    clock_type = D20Clock
    title = "d20"
    summary = "d20 + Dex initiative; move, action, bonus action, Gambit; one reaction a round."
    turn_legend = (
        "A action, B bonus action, M move, R reaction (each bright while it is still to use, dim when"
        " spent or not possible now)."
    )
    stats = (
        StatSpec("hp", "Hit points", 10, 0, 9999),
        StatSpec("ac", "Armor Class", 12, 0, 60),
        StatSpec("dex", "Dexterity score", 10, 1, 40),
        StatSpec("init", "Initiative bonus beyond Dex", 0, -20, 40),
        StatSpec("speed", "Speed (ft)", 30, 0, 500),
        StatSpec("con_save", "Constitution save bonus", 0, -20, 40),
        StatSpec("str", "Strength score", 10, 1, 40),
        StatSpec("prof", "Proficiency bonus", 2, 0, 10),
        StatSpec("gambit", "Gambit Points", 0, 0, 99),
    )
    conditions = CONDITIONS
    damage_order = ("hp",)
    has_initiative = True
    # the text has everyone roll; copies with the same bonus may share one roll (docs/rules/d20.md)
    shared_initiative = True
    takes_turn_rolls = True

    def handlers(self) -> dict[type[C.Command], Handler]:
        return {
            combat.D20Attack: lambda f, cmd, ev: combat.attack(self, f, cmd, ev),
            combat.ShieldBash: lambda f, cmd, ev: combat.shield_bash(self, f, cmd, ev),
            combat.D20Test: lambda f, cmd, ev: combat.roll_test(self, f, cmd, ev),
            combat.Grapple: lambda f, cmd, ev: combat.grapple(self, f, cmd, ev),
            combat.Ready: lambda f, cmd, ev: combat.ready(self, f, cmd, ev),
            combat.Release: lambda f, cmd, ev: combat.release(self, f, cmd, ev),
            C.NextTurn: self._next_command,
            C.RestoreResource: self._restore,
        }

    def resources(self, stats: tuple[tuple[str, int], ...], cmd: C.AddCombatant) -> tuple[Pool, ...]:
        gp = dict(stats).get("gambit", 0)
        return (Pool("gambit", gp, gp),) if gp else ()

    def stat_label(self, key: str) -> str:
        """The ability scores and saves a statblock brings: "wis" Wisdom score, "dex_save" Dexterity
        save bonus."""
        label = super().stat_label(key)
        if label != key:
            return label
        if key in combat.ABILITIES:
            return f"{combat.ABILITIES[key]} score"
        ability = key.removesuffix("_save")
        return f"{combat.ABILITIES[ability]} save bonus" if ability in combat.ABILITIES else key

    def restat(self, c: Combatant, stats: tuple[tuple[str, int], ...]) -> Combatant:
        c = super().restat(c, stats)
        gp = dict(stats).get("gambit", 0)
        old = c.pool("gambit")
        pools = tuple(p for p in c.resources if p.key != "gambit")
        if gp:
            pools = (Pool("gambit", min(old.current, gp) if old else gp, gp),) + pools
        return replace(c, resources=pools)

    def _restore(self, f: Fight, cmd: C.RestoreResource, ev: Events) -> Fight:
        c = f.get(cmd.who)
        if cmd.key.lower() == "gambit" and c.has("Poisoned"):
            raise RuleError(f"{c.name} is Poisoned and cannot recover Gambit Points.")
        return core._restore(self, f, cmd, ev)

    # --- fight flow ---------------------------------------------------------------------------
    def start(self, f: Fight, cmd: C.StartFight, ev: Events) -> Fight:
        typed = {cid for cid, _ in cmd.initiative} | {cid for cid, _ in cmd.totals}
        pets = {c.id for c in f.combatants if c.owner}
        for c in f.combatants:
            if c.id in pets and c.id in typed:
                raise RuleError(f"{c.name} is a companion: it acts on its owner's initiative, no roll.")
        values, rng = start_initiatives(self, f, cmd, ev, skip=pets)
        cs = []
        for c in f.combatants:
            econ = D20Economy(reactions=1)
            if c.id in pets:
                cs.append(replace(c, economy=econ))
            else:
                cs.append(replace(c, initiative=values[c.id], tiebreak=c.stat("dex", 10), economy=econ))
        f = replace(f, combatants=tuple(cs), rng=rng)
        f = add_surprise(f, cmd.surprised, ev, "loses its first turn")
        f = self.reorder(replace(f, round=1, clock=D20Clock(-1)))
        ev.append(E.OrderSet(tuple(f.get(x).name for x in f.order)))
        ev.append(E.RoundStarted(1))
        given = GivenRolls(f, cmd.rolls)
        f = self._next_turn(f, ev, given)
        given.done()
        return f

    def reorder(self, f: Fight) -> Fight:
        """Initiative high to low, ties to higher Dex, then the GM's (earlier) order; companions follow
        their owner. The current turn keeps its place."""
        prev = {cid: i for i, cid in enumerate(f.order)}
        added = {c.id: i for i, c in enumerate(f.combatants)}
        leaders = [c for c in f.combatants if not c.owner or f.find(c.owner) is None]
        leaders.sort(
            key=lambda c: (
                -(c.initiative if c.initiative is not None else -999),
                -c.stat("dex", 10),  # the Dex it has now, should the GM edit it mid-fight
                prev.get(c.id, 10_000 + added[c.id]),
            )
        )
        order: list[str] = []
        for cid in keep_groups(f, (c.id for c in leaders)):  # copies sharing one initiative side by side
            order.append(cid)
            order.extend(x.id for x in f.combatants if x.owner == cid)
        slot = order.index(f.current) if f.current in order else f.phase
        return replace(f, order=tuple(order), clock=D20Clock(slot))

    def roll_initiative(self, c: Combatant, given: C.Initiative, rng: Rng) -> tuple[int, DiceRoll | None, str, Rng]:
        if given.total is not None:
            return given.total, None, "(the total called out at the table)", rng
        # Exhaustion is -1 a level on every d20 roll, initiative included
        bonus = initiative_mod(c) + c.stat("init") - combat.exhaustion(c)
        try:
            r, after = roll(f"1d20{bonus:+d}" if bonus else "1d20", rng, given.dice)
        except RuleError as exc:
            raise RuleError(f"{c.name}'s initiative: {exc}") from None
        return r.total, r, "", after

    def joined(self, f: Fight, c: Combatant, ev: Events) -> Fight:
        # without an initiative given it joins at the bottom of the order until the GM sets it
        f = put(f, replace(c, economy=D20Economy(reactions=1), tiebreak=c.stat("dex", 10)))
        return self.reorder(f)

    def left(self, f: Fight, cid: str, ev: Events) -> Fight:
        idx = f.order.index(cid) if cid in f.order else -1
        f = super().left(f, cid, ev)
        f = combat.release_grapples(f, cid, "the grappler left the fight", ev)
        if idx != -1 and idx <= f.phase:
            # the turn pointer stays on whoever comes next
            f = replace(f, clock=D20Clock(f.phase - 1))
        return f

    def _next_command(self, f: Fight, cmd: C.NextTurn, ev: Events) -> Fight:
        if not f.started:
            raise RuleError("The fight has not started yet: start it first.")
        if f.ended:
            raise RuleError("The fight is over.")
        given = GivenRolls(f, cmd.rolls)
        f = self.advance(f, ev, given)
        given.done()
        return f

    def advance(self, f: Fight, ev: Events, given: GivenRolls | None = None) -> Fight:
        last = f.current
        if f.current:
            f = finish_turn(self, f, ev, self._lost(f.get(f.current)))
        return self._next_turn(combat.prune_dues(f), ev, given, last)

    def _lost(self, c: Combatant) -> str:
        e = c.economy
        lost = [n for n, v in (("action", e.actions), ("bonus action", e.bonus)) if v]
        return ", ".join(lost)

    def _next_turn(self, f: Fight, ev: Events, given: GivenRolls | None = None, last: str = "") -> Fight:
        """The turn passes: to whoever is next this round (a new round when everyone has acted),
        past those who lose their turn, to the first who takes one."""
        for _ in range(2 * len(f.order) + 2):
            cid = _next_up(f, last)
            if not cid:
                last = ""  # a new round goes by the order from its top, companions with their owners
                f = _new_round(f, ev)
                if not f.order:
                    return f
                continue
            f = replace(f, clock=D20Clock(f.order.index(cid)))
            f, c = _lapse_held(f, cid, ev)
            lost = self._lose_turn(f, c, ev, given)
            if lost is not None:
                f = lost
                continue
            return self._fresh_turn(f, c, ev, given)
        return f

    def _lose_turn(self, f: Fight, c: Combatant, ev: Events, given: GivenRolls | None) -> Fight | None:
        """A turn lost: Surprised (its first turn), down (an NPC or a companion), Stunned. None when
        it takes its turn."""
        cid = c.id
        if c.has("Surprised"):  # its first turn (round 1, or the first after joining unaware)
            f = combat.lose_turn(self, f, cid, ev, "surprised, it loses its first turn", given)
            return end_surprise_after_turn(f, cid, ev, "after its lost first turn")
        if c.down and (c.kind == "npc" or c.owner):  # companions drop, never at Death's Door
            f = skip_turn(f, cid, ev, "down at 0 hit points")
            c = f.get(cid)
            return put(f, replace(c, economy=replace(c.economy, done=True)))
        if c.has("Stunned"):
            return combat.lose_turn(self, f, cid, ev, "Stunned", given)
        return None

    def _fresh_turn(self, f: Fight, c: Combatant, ev: Events, given: GivenRolls | None) -> Fight:
        """The turn starts: a move, an action, a bonus action, the Gambit and the reaction back, then
        what happens at the start of its turn."""
        fresh = replace(
            c.economy,
            actions=1,
            bonus=1,
            move=1,
            gambit=1,
            reactions=1,  # the reaction returns at the start of its own turn
            used=(),
            dodging=False,
            disengaged=False,
            ready="",
        )
        f = put(f, replace(c, economy=fresh))
        f = begin_turn(self, f, c.id, ev)
        return combat.start_effects(self, f, c.id, ev, given)

    def turn_end_effects(self, f: Fight, cid: str, ev: Events) -> Fight:
        return combat.end_effects(f, cid, ev)

    # --- the action economy -------------------------------------------------------------------
    def use(self, f: Fight, cmd: C.UseAction, ev: Events) -> Fight:
        c = f.get(cmd.who)
        e = c.economy
        what = cmd.what
        label = cmd.name.strip()
        if cmd.cost != 1 and what != "move":
            raise RuleError("Only a move takes a distance (its cost, in feet).")
        combat.before_use(f, c, what, label, cmd.target)
        entry = label
        # the turn's list of what it used, in the same replace as the part spent (a move writes
        # its own entry, with its distance)
        used = e.used + (label,) if label else e.used
        if what == "reaction":
            if e.reactions < 1:
                raise RuleError(
                    f"{c.name} has already used its reaction: one a round, back at the start of its own turn."
                )
            e = replace(e, reactions=e.reactions - 1, used=used)
        else:
            if f.current != c.id:
                raise RuleError(f"It is not {c.name}'s turn: only a reaction can be used now.")
            if what == "action":
                if e.actions < 1:
                    raise RuleError(f"{c.name} has already taken its action this turn.")
                e = replace(e, actions=0, gambit=0, used=used)
            elif what == "bonus":
                if e.bonus < 1:
                    raise RuleError(f"{c.name} has already taken its bonus action this turn.")
                e = replace(e, bonus=0, gambit=0, used=used)
            elif what == "move":
                # the move can be split around the action: a distance in feet (cost) takes part of it
                c, entry = combat.spend_move(c, label, cmd.cost)
                e = c.economy
            elif what == "gambit":
                if e.gambit < 1:
                    raise RuleError(
                        f"{c.name} can only declare a Gambit at the very start of its turn, before anything else."
                    )
                e = replace(e, gambit=0, used=used)
            else:
                raise RuleError(f"d20 has action, bonus, move, reaction and gambit, not '{what}'.")
        c = replace(c, economy=e)
        f = put(f, c)
        ev.append(E.ActionUsed(c.id, c.name, what, entry, self.describe_economy(c)))
        return combat.after_use(f, c.id, what, label, ev, cmd.target)

    def pay_ability(self, f: Fight, cmd: C.UseAbility, ev: Events) -> Fight:
        """A legendary action: off the creature's own turn, paid from its Legendary actions (in
        `spend`); a lair action: once a round; the others as `use` pays for them."""
        if cmd.act not in ("legendary", "lair"):
            return super().pay_ability(f, cmd, ev)
        if not f.started or f.ended:
            raise RuleError(f"A {cmd.act} action is taken in a round: the fight must be under way.")
        c = f.get(cmd.who)
        if combat.down_and_out(c):
            raise RuleError(f"{c.name} is down at 0 hit points and can do nothing.")
        if cmd.act == "legendary":
            if not pools.spends(cmd.spend, pools.LEGENDARY):
                raise RuleError(f"A legendary action spends {pools.LEGENDARY}: say how many (spend).")
            self.check_spend(f, c, pools.LEGENDARY)
            return f
        if c.economy.lair == f.round:
            raise RuleError(f"{c.name} has taken its lair action this round: one a round.")
        return put(f, replace(c, economy=replace(c.economy, lair=f.round)))

    def check_spend(self, f: Fight, c: Combatant, key: str) -> None:
        """Legendary actions: at the end of another creature's turn, never on its own, and not while
        it can take no actions."""
        if key.casefold() != pools.LEGENDARY.casefold():
            return
        if f.current == c.id:
            raise RuleError("Legendary actions are taken at the end of another creature's turn.")
        incap = combat.incapacitated(c)
        if incap:
            raise RuleError(f"{c.name} is {incap}: no legendary actions.")

    def modify_damage(self, c: Combatant, amount: int, typ: str) -> tuple[int, str]:
        """Resistance halves (rounded down), vulnerability doubles; a creature with both gets both."""
        low = typ.lower()
        notes = []
        if low and c.resist and any(r.lower() == low for r in c.resist):
            amount //= 2
            notes.append("resisted, halved")
        if low and c.vulnerable and any(r.lower() == low for r in c.vulnerable):
            amount *= 2
            notes.append("vulnerable, doubled")
        return amount, ", ".join(notes)

    def damage_taken(self, f: Fight, c: Combatant, amount: int, cmd: C.Damage, ev: Events) -> Fight:
        if c.down and (c.kind == "npc" or c.owner):
            # down (an NPC) or dropped (a companion): out of the fight, it holds nothing any more
            f = combat.end_concentration(f, c.id, "down at 0 hit points", ev)
            return combat.release_grapples(f, c.id, f"{c.name} is down", ev)
        return combat.concentration_due(f, c, amount, ev)

    def condition_added(self, f: Fight, c: Combatant, cond: Condition, ev: Events) -> Fight:
        return combat.condition_added(f, c, cond, ev)

    def condition_removed(self, f: Fight, c: Combatant, cond: Condition, ev: Events) -> Fight:
        return combat.condition_removed(f, c, cond, ev)

    def dropped_state(self, f: Fight, c: Combatant) -> str:
        if c.owner:
            return "drops at 0 hit points"
        if c.kind == "pc":
            return "is at Death's Door"
        return "is down at 0 hit points"

    def describe_economy(self, c: Combatant) -> str:
        """The texts of `economy_of(c)` joined, without building the items: every UseAction writes
        this line into its event (tests/engine/test_actions_economy.py checks the two agree)."""
        e = c.economy
        move = "M" if e.move else "m"
        # a measured move's entry says " ft" (moved_feet reads no distance from any other): the
        # regular expression only for those
        if e.move and any(" ft" in u and combat.moved_feet(u) for u in e.used):
            move = f"M{combat.movement_left(c)}ft"  # part of the move taken: the feet left
        barred = "(barred)" if e.reactions > 0 and combat.reactions_barred_by(c) else ""
        return f"A{e.actions} B{e.bonus} {move} R{e.reactions}{barred}"

    def economy_of(self, c: Combatant, f: Fight | None = None) -> tuple[EconomyItem, ...]:
        """The economy's items: action, bonus action, move and Gambit (its own turn's), the
        reaction, and Dodge and a readied action while they last."""
        e = c.economy
        mine = f is not None and f.current == c.id
        # the action, bonus action, move and Gambit belong to its own turn; off it they wait
        off = "" if mine else ("Not its turn" if f is not None and f.started else "Fight not started")
        gone = "Down at 0 hit points: does nothing" if combat.down_and_out(c) else ""
        out = _action_items(c, off, gone, mine)
        out.append(_move_item(c, off, gone, mine))
        st, why = _state(off, e.gambit > 0)
        gambit = yes_no(e.gambit > 0, "can declare", "past")
        out.append(EconomyItem("gambit", "Gambit", gambit, st, why, "Gambit", gambit, row=False, sheet=mine))
        if off:
            out.append(EconomyItem("turn", "", off, "barred", off, "", off, row=False))
        out.append(_reaction_item(c, gone))
        if e.dodging:
            out.append(EconomyItem("dodging", "Dodge", "dodging", "available", "", "Dodging", "", row=False))
        if e.ready:
            out.append(
                EconomyItem("ready", "Ready", e.ready, "available", "", "Readied:", e.ready, row=False, plain=True)
            )
        return tuple(out)

    def rules_actions(self, f: Fight) -> tuple[ActionInfo, ...]:
        live = live_reason(f)
        cur = f.find(f.current) if f.current else None
        # its own turn's parts for whoever is acting; a reaction for anyone with one to use
        users = tuple(dict.fromkeys(([cur.id] if cur is not None else []) + _reactors(f)))
        attackers = (cur.id,) if cur is not None else tuple(c.id for c in f.combatants)
        owed = tuple(c.id for c in f.combatants if c.due)
        readied = tuple(c.id for c in f.combatants if c.economy.ready)
        readier, no_turn = _readier(cur)
        return (
            offer("use", "Use an action or reaction", live or anyone(f, users, "Nobody can act or react now."), users),
            offer("attack", "Attack", live or anyone(f, attackers, ""), attackers),
            offer("owed", "Settle an owed roll", "" if owed else "No roll is owed.", owed),
            offer("ready", "Ready an action", live or ("" if readier else no_turn), readier),
            offer("release", "Take the readied action", live or anyone(f, readied, "Nobody has one readied."), readied),
        )

    def phase_label(self, f: Fight) -> str:
        return f"Round {f.round}"



# --- the turn order -------------------------------------------------------------------------------


def _next_up(f: Fight, last: str) -> str:
    """Whose turn is next ("" when the round is over). Everyone acts once a round, in initiative
    order: the turn goes to the first in the order who has not had its turn this round, so that one
    moved above the acting combatant (a tie settled late, a new initiative) before its turn still
    gets it; but a companion acts right after its owner, whoever joined above them meanwhile."""
    if last:
        prev = f.find(last)
        owners = {last, prev.owner} - {""} if prev is not None else {last}
        # one pass over the combatants (no lookup per place in the order: big fights)
        pets = {c.id for c in f.combatants if c.owner and c.owner in owners and not c.economy.done}
        if pets:
            cid = next((x for x in f.order if x in pets), "")
            if cid:
                return cid
    # one walk down the order, each looked up where it sits (an id no longer in the fight counts as
    # not done, as before): no set of everyone done built at each of the turn's two or three asks
    cs = f.combatants
    pos = positions(cs)
    for x in f.order:
        i = pos.get(x)
        if i is None or not cs[i].economy.done:
            return x
    return ""


def _new_round(f: Fight, ev: Events) -> Fight:
    """A new round: everyone's turn is to come again; the same combatants in the same places, their
    conditions untouched."""
    f = replace(f, round=f.round + 1, clock=D20Clock(-1))
    f = put_all(f, tuple([replace(c, economy=replace(c.economy, done=False)) for c in f.combatants]), ())
    ev.append(E.RoundStarted(f.round))
    return f


def _lapse_held(f: Fight, cid: str, ev: Events) -> tuple[Fight, Combatant]:
    """Dodge and a readied action last until its next turn, even one it loses."""
    c = f.get(cid)
    if c.economy.ready:
        ev.append(E.Info(f"{c.name}'s readied action lapses unused ({c.economy.ready})", cid))
    if c.economy.ready or c.economy.dodging:
        c = replace(c, economy=replace(c.economy, ready="", dodging=False))
        f = put(f, c)
    return f, c


# --- the economy's items --------------------------------------------------------------------------


def _state(off: str, left: bool, bar: str = "") -> tuple[EconomyState, str]:
    """An item of its own turn: barred off its turn, spent, barred by `bar`, or available."""
    if off:
        return "barred", off
    if not left:
        return "spent", ""
    return ("barred", bar) if bar else ("available", "")


def _action_items(c: Combatant, off: str, gone: str, mine: bool) -> list[EconomyItem]:
    """The action and the bonus action, barred for the down and the incapacitated."""
    e = c.economy
    incap = combat.incapacitated(c)
    out = []
    for key, label, name, n in (("action", "A", "Action", e.actions), ("bonus", "B", "Bonus", e.bonus)):
        st, why = _state(off, n > 0, gone or (f"{incap}: no actions" if incap else ""))
        detail = f"barred ({'down' if gone else incap})" if st == "barred" and not off else yes_no(n > 0)
        out.append(EconomyItem(key, label, str(n), st, why, name, detail, f"{label}{n}", label, n, sheet=mine))
    return out


def _move_item(c: Combatant, off: str, gone: str, mine: bool) -> EconomyItem:
    """The move: the feet left of its speed (more with each Dash), barred for the down, the
    Unconscious and the Stunned, and at speed 0."""
    e = c.economy
    speed, slow = combat.effective_speed(c)
    left = combat.movement_left(c)
    dashes = sum(1 for u in e.used if u.lower() == "dash")
    if speed <= 0:
        detail = f"0 ft ({slow or 'speed 0'})"
    else:
        detail = f"{left} of {speed * (1 + dashes)} ft" + (f" ({slow})" if slow else "")
    text = "M" if e.move else "m"
    if e.move and any(combat.moved_feet(u) for u in e.used):
        text = f"M{left}ft"  # part of the move taken: the feet left
    held = next((n for n in ("Unconscious", "Stunned") if c.has(n)), "")
    bar = gone or (f"{held}: cannot move" if held else (f"{slow}: speed 0" if speed <= 0 else ""))
    st, why = _state(off, left > 0, bar)
    if st == "barred" and not off:
        detail = f"barred ({'down' if gone else held})"
    full = max(0, speed) * (1 + dashes)
    return EconomyItem("move", "M", f"{left} ft", st, why, "Move", detail, text, "M", left, full, sheet=mine)


def _reaction_item(c: Combatant, gone: str) -> EconomyItem:
    """The reaction, on or off its turn: spent, barred by a condition or by being down, available."""
    e = c.economy
    barred = combat.reactions_barred_by(c)
    if e.reactions <= 0:
        st, why, detail = "spent", "", "used"
    elif barred:
        # a reaction barred by a condition is there but cannot be used while it lasts
        st, why, detail = "barred", f"{barred} bars reactions", f"barred ({barred})"
    elif gone:
        st, why, detail = "barred", gone, "barred (down)"
    else:
        st, why, detail = "available", "", "available"
    text = f"R{e.reactions}" + ("(barred)" if e.reactions > 0 and barred else "")
    return EconomyItem("reaction", "R", str(e.reactions), st, why, "Reaction", detail, text, "R", e.reactions)


# --- the actions on offer -------------------------------------------------------------------------


def _reactors(f: Fight) -> list[str]:
    """Everyone with a reaction to use: not spent, not barred by a condition, not down and out."""
    return [
        c.id
        for c in f.combatants
        if c.economy.reactions > 0 and not combat.reactions_barred_by(c) and not combat.down_and_out(c)
    ]


def _readier(cur: Combatant | None) -> tuple[tuple[str, ...], str]:
    """Who may ready an action (the one acting, with its action left), and why nobody can."""
    readier = (cur.id,) if cur is not None and cur.economy.actions > 0 else ()
    no_turn = "Nobody is taking a turn." if cur is None else f"{cur.name} has no action left to ready."
    return readier, no_turn
