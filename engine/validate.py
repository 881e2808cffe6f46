"""`validate_fight`: what a decoded state must hold beyond its types, for states read from a file.

The msgspec types already bound the integers that matter (the random state, next_id, counts); this
checks the combatant ids, which a regex constraint in the decoder would have made 50% slower to read.
Call it on a state decoded from outside the engine (a save, an export): the engine's own states
always pass.
"""

from __future__ import annotations

from engine.errors import RuleError
from engine.ruleset import REGISTRY, Ruleset
from engine.state import Combatant, Fight
from engine.text import is_id

MAX_COMBATANTS = 500  # engine.core.MAX_COMBATANTS (not imported: core imports the rulesets)


def validate_fight(fight: Fight) -> None:
    """Raise RuleError (one line, quoting nothing from the file) if the state could not have come from
    the engine: a malformed or repeated combatant id, an id at or past `next_id`, a turn order,
    current turn, owner, condition source or duration naming something that is not an id, more
    combatants than a fight can hold, or an economy or a clock that is not the fight's ruleset's own."""
    cs = fight.combatants
    if len(cs) > MAX_COMBATANTS:
        raise RuleError(f"The fight holds {len(cs)} combatants; at most {MAX_COMBATANTS} fit in one.")
    rs = REGISTRY.get(fight.ruleset)
    if rs is not None and type(fight.clock) is not rs.clock_type:
        raise RuleError(f"The fight's clock (its round's turn or phase) is not one of {rs.title}'s.")
    seen: set[str] = set()
    for c in cs:
        _check_combatant(fight, c, seen, rs)
        seen.add(c.id)
    if fight.current and not is_id(fight.current):
        raise RuleError("The fight's current turn is not a combatant id.")
    for cid in fight.order + fight.standing:
        if not is_id(cid):
            raise RuleError("The fight's turn order holds something that is not a combatant id.")


def _check_combatant(fight: Fight, c: Combatant, seen: set[str], rs: Ruleset | None) -> None:
    """One combatant's ids (its own, unique and handed out; its owner's; its conditions') and its
    economy's type."""
    if not is_id(c.id):
        raise RuleError("A combatant in the fight has a malformed id (ids look like c1, c2, ...).")
    if c.id in seen:
        raise RuleError(f"Two combatants in the fight share the id {c.id}.")
    if int(c.id[1:]) >= fight.next_id:
        raise RuleError(f"Combatant {c.id} has an id the fight has not handed out yet.")
    if rs is not None and type(c.economy) is not rs.economy_type:
        raise RuleError(f"{c.id}'s action economy is not one of {rs.title}'s.")
    if c.owner and not is_id(c.owner):
        raise RuleError(f"{c.id}'s owner is not a combatant id.")
    for k in c.conditions:
        if (k.source and not is_id(k.source)) or (k.duration.who and not is_id(k.duration.who)):
            raise RuleError(f"A condition of {c.id} names a combatant by a malformed id.")
