"""Using a statblock's abilities at the table, the same way in every ruleset: `ability` (UseAbility:
an ability the engine rolls nothing for, its pools spent and its part of the turn paid) and `recharge`
(Recharge: the d6 a spent breath weapon rolls at the start of its owner's turn). Each is one command,
so one undo takes back the ability's use and everything it spent.

The pools themselves (spending all or nothing, refilling, the recharge owed) are engine/pools.py's.
"""

from msgspec.structs import replace

from engine import commands as C
from engine import events as E
from engine import pools
from engine.core import clean_name, register_generic
from engine.errors import RuleError
from engine.mechanics import roll_or_given
from engine.ruleset import Events, Ruleset
from engine.state import Fight, put, set_pool


def _use_ability(rs: Ruleset, f: Fight, cmd: C.UseAbility, ev: Events) -> Fight:
    c = f.get(cmd.who)
    name = clean_name(cmd.name, "ability name")
    target = f.get(cmd.target) if cmd.target else None
    if not 1 <= cmd.cost <= 9:
        raise RuleError(f"An ability costs 1 to 9 of its part of the turn, not {cmd.cost}.")
    paid: Events = []
    f = rs.pay_ability(f, replace(cmd, name=name), paid)
    used = E.AbilityUsed(c.id, c.name, name, cmd.act, target.id if target else "", target.name if target else "")
    # the ruleset's line for the part of the turn it took ("Goblin Boss uses Parry (reaction); ...")
    # becomes the ability's own line, with the target and what is left of the turn
    mine = next((e for e in paid if isinstance(e, E.ActionUsed) and e.who == c.id and e.label == name), None)
    if mine is None:
        ev.append(used)
        ev.extend(paid)
    else:
        ev.extend(replace(used, left=mine.left) if e is mine else e for e in paid)
    return pools.spend(rs, f, c.id, cmd.spend, ev)


def _recharge(rs: Ruleset, f: Fight, cmd: C.Recharge, ev: Events) -> Fight:
    c = f.get(cmd.who)
    p = pools.pool_of(c, cmd.key)
    if not p.recharge:
        raise RuleError(f"{c.name}'s {p.key} has no recharge roll.")
    owed = any(d.what == pools.recharge_due(p.key) for d in c.due)
    if p.current >= p.max and not owed:
        raise RuleError(f"{c.name}'s {p.key} is ready: there is nothing to recharge.")
    given = (cmd.given,) if cmd.given is not None else None
    r, rng = roll_or_given("1d6", f.rng, given, None, f"{c.name}'s {p.key} recharge")
    ok = r.total >= p.recharge
    c = pools.clear_recharge(c, p.key)
    if ok:
        c = replace(c, resources=set_pool(c.resources, replace(p, current=p.max)))
    f = put(f if given is not None else replace(f, rng=rng), c)
    ev.append(E.Recharged(c.id, c.name, p.key, r, p.recharge, ok))
    return f


register_generic(C.UseAbility, _use_ability)
register_generic(C.Recharge, _recharge)
