"""A statblock's limited abilities as the combatant's pools (engine.state.Pool): spending them with the
ability that uses them, refilling them at the start of their owner's turn, the recharge roll that turn
calls for, and Legendary Resistance.

Sits below engine.core and the rulesets (it imports neither): `begin_turn` (engine/ruleset.py) calls
`turn_start`, the generic and the rulesets' handlers call `spend`. The pool names are the library's
(engine/library/abilities.py); they are written here again because the library sits above the engine
(tests/engine/test_pools.py checks the two agree).
"""

from typing import TYPE_CHECKING

from msgspec.structs import replace

from engine import events as E
from engine.errors import RuleError
from engine.state import Combatant, Due, Fight, Pool, put, set_pool
from engine.text import shown

if TYPE_CHECKING:
    from engine.ruleset import Ruleset  # typing only: the ruleset base sits above this module

LEGENDARY = "Legendary actions"  # spent by legendary actions, full again at its owner's turn
LEGENDARY_RESISTANCE = "Legendary Resistance"  # spent to turn a failed save into a success
RECHARGE = "recharge "  # a Due's `what` for a pool's recharge roll: "recharge Fire Breath"
RECHARGE_DIE = "d6"
MAX_SPEND = 10  # pools one use may spend from (its own, a slot, legendary actions)

Spend = tuple[tuple[str, int], ...]


def recharge_due(key: str) -> str:
    """The Due's `what` for `key`'s recharge roll."""
    return RECHARGE + key


def is_recharge(due: Due) -> bool:
    return due.what.startswith(RECHARGE)


def recharge_words(lowest: int) -> str:
    """The faces that bring a pool back: "5-6", or "6"."""
    return "6" if lowest >= 6 else f"{lowest}-6"


def find_pool(c: Combatant, key: str) -> Pool | None:
    """`c`'s resource named `key`: the same spelling first, else the same letters in any case
    (the ruleset's own resources are lower case, a statblock's keep their capitals)."""
    for p in c.resources:
        if p.key == key:
            return p
    low = key.strip().casefold()
    for p in c.resources:
        if p.key.casefold() == low:
            return p
    return None


def pool_of(c: Combatant, key: str) -> Pool:
    """`find_pool`, refused with what `c` has when there is none."""
    p = find_pool(c, key)
    if p is None:
        have = ", ".join(x.key for x in c.resources) or "none"
        raise RuleError(f"{c.name} has no {shown(key)} to spend (it has: {have}).")
    return p


def short_of(c: Combatant, p: Pool, amount: int) -> str:
    """Why `c` cannot spend `amount` of `p` ("" when it can)."""
    if p.current >= amount:
        return ""
    if p.recharge and p.current == 0:
        return f"{p.key} is spent (it recharges on {recharge_words(p.recharge)})."
    if p.current == 0:
        return f"{c.name} has no {p.key} left."
    return f"{c.name} has only {p.current} {p.key} left, not {amount}."


def spend(rs: "Ruleset", f: Fight, who: str, pools: Spend, ev: list) -> Fight:
    """Take `pools` (each [key, amount]) from `who`'s resources, all of them or none: every pool is
    checked (the ruleset's word included: d20 keeps legendary actions off the creature's own turn)
    before any is taken. One line in the log for each."""
    if not pools:
        return f
    c = f.get(who)
    if len(pools) > MAX_SPEND:
        raise RuleError(f"One use spends from at most {MAX_SPEND} pools.")
    seen: set[str] = set()
    taken: list[tuple[Pool, int]] = []
    for key, amount in pools:
        p = pool_of(c, key)
        if p.key in seen:
            raise RuleError(f"{p.key} is named twice in what it spends.")
        seen.add(p.key)
        if not 1 <= amount <= 99:
            raise RuleError(f"Spend 1 to 99 of {p.key}, not {amount}.")
        why = short_of(c, p, amount)
        if why:
            raise RuleError(why)
        rs.check_spend(f, c, p.key)
        taken.append((p, amount))
    resources = c.resources
    for p, amount in taken:
        resources = set_pool(resources, replace(p, current=p.current - amount))
        ev.append(E.ResourceChanged(c.id, c.name, p.key, -amount, p.current - amount))
    return put(f, replace(c, resources=resources))


def spends(pools: Spend, key: str) -> bool:
    """Whether `pools` names `key` (in any case)."""
    low = key.casefold()
    return any(k.strip().casefold() == low for k, _ in pools)


def resist(f: Fight, who: str, ev: list) -> tuple[Fight, int]:
    """`who` spends one Legendary Resistance (its save, failed, succeeds instead), with one line in
    the log: the fight and how many are left. Refused when it has none left."""
    c = f.get(who)
    can_resist(c)
    p = find_pool(c, LEGENDARY_RESISTANCE)
    assert p is not None  # can_resist refused a combatant without one
    left = p.current - 1
    f = put(f, replace(c, resources=set_pool(c.resources, replace(p, current=left))))
    ev.append(E.Info(f"{c.name} uses {p.key}: the failed save succeeds instead ({left} left)", c.id))
    return f, left


def can_resist(c: Combatant) -> None:
    """Refuse, before anything is rolled, a save marked for Legendary Resistance it cannot spend."""
    p = find_pool(c, LEGENDARY_RESISTANCE)
    if p is None:
        raise RuleError(f"{c.name} has no {LEGENDARY_RESISTANCE}.")
    if p.current < 1:
        raise RuleError(f"{c.name} has no {LEGENDARY_RESISTANCE} left (0 of {p.max}).")


def turn_start(f: Fight, cid: str, ev: list) -> Fight:
    """The start of `cid`'s turn (nine-phase: of the round, for everyone): pools that refresh fill up
    again, and each spent pool with a recharge owes its d6 (a Due the app prompts for, settled by the
    `recharge` command). A recharge owed from before and not rolled stays owed once, not twice; one
    for a pool that has since filled up is dropped. A combatant at 0 health is skipped: nothing it
    could use comes back."""
    c = f.find(cid)
    if c is None or not (c.resources or c.due) or c.down:
        return f
    resources = c.resources
    due = tuple(d for d in c.due if not is_recharge(d) or _still_spent(c, d))
    for p in c.resources:
        if p.refresh and p.current < p.max:
            resources = set_pool(resources, replace(p, current=p.max))
            ev.append(E.ResourceChanged(c.id, c.name, p.key, p.max - p.current, p.max))
        elif p.recharge and p.current < p.max:
            what = recharge_due(p.key)
            if not any(d.what == what for d in due):
                due += (Due(what, p.recharge, RECHARGE_DIE),)
            ev.append(E.RechargeDue(c.id, c.name, p.key, p.recharge))
    if resources is c.resources and due == c.due:
        return f
    return put(f, replace(c, resources=resources, due=due))


def _still_spent(c: Combatant, d: Due) -> bool:
    p = find_pool(c, d.what[len(RECHARGE) :])
    return p is not None and p.current < p.max


def clear_recharge(c: Combatant, key: str) -> Combatant:
    """`c` without the recharge roll owed for `key` (the pool is full again, or the roll was made)."""
    what = recharge_due(key)
    if not any(d.what == what for d in c.due):
        return c
    return replace(c, due=tuple(d for d in c.due if d.what != what))
