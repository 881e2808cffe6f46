"""The sheet's part that a library statblock brings (every ruleset): its abilities grouped by when
they are used (actions, reactions, legendary actions, ...), each with the state of what limits it
(Fire Breath: spent, recharges on 5-6; Legendary actions 2/3), its spells with the save DC, attack
bonus and slots left, and its traits with their text.

No Textual here: pure functions of the fight, like panes.py. The statblock is read from the JSON
the combatant keeps (engine.library caches the decoding); panes.py imports this module only for a
combatant that has one, so start-up does not load the library.
"""

from __future__ import annotations

from rich.text import Text

import engine.library as L
from engine.library.abilities import LEGENDARY, LEGENDARY_RESISTANCE, Ability, ability_label, pool_key, slot_key
from engine.state import Combatant, Fight, Pool
from tui.text import literal
from tui.views import Styles

# the headings of the groups, by the ability's `act` (another word is its own group, capitalised)
GROUPS = {
    "": "Actions",
    "action": "Actions",
    "bonus": "Bonus actions",
    "reaction": "Reactions",
    "free": "Free actions",
    "legendary": "Legendary actions",
    "lair": "Lair actions",
}
ORDINAL = {1: "1st", 2: "2nd", 3: "3rd"}


def ordinal(n: int) -> str:
    return ORDINAL.get(n, f"{n}th")


def recharge_words(n: int) -> str:
    return f"recharges on {n}-6" if n < 6 else "recharges on a 6"


def pool_state(p: Pool) -> str:
    """A limited ability's state in words: "ready", "spent, recharges on 5-6", "2/3 left"."""
    if p.recharge:
        return "ready" if p.current > 0 else f"spent, {recharge_words(p.recharge)}"
    if p.max == 1:
        return "ready" if p.current > 0 else "spent"
    return f"{p.current}/{p.max} left"


def spells_of(sb: L.Statblock) -> tuple[Ability, ...]:
    sc = getattr(sb, "spellcasting", None)
    return tuple(sc.spells) if sc is not None else ()


def section(f: Fight, c: Combatant, st: Styles) -> Text:
    """The statblock's lines, after a blank one (empty for a combatant typed by hand, or when its
    statblock no longer reads)."""
    sb = L.statblock_of(f.ruleset, c)
    t = Text(end="")
    if sb is None:
        return t
    kind = L.kind_of(sb)
    spells = spells_of(sb)
    own = [a for a in kind.abilities(sb) if not any(a is s for s in spells)]
    attacks = kind.attacks(sb)
    if not (attacks or own or spells or sb.traits):
        return t
    t.append("\n")
    if attacks:
        t.append("\nAttacks", style=st["header"])
        for attack in attacks:
            t.append("\n ")
            t.append_text(literal(kind.attack_label(sb, attack)))
    _abilities(t, c, own, st)
    _spells(t, c, sb, spells, st)
    resist = c.pool(LEGENDARY_RESISTANCE)
    if resist is not None:
        t.append(f"\n{LEGENDARY_RESISTANCE} ", style=st["header"])
        t.append(f"{resist.current}/{resist.max}", style=st["pip"] if resist.current else st["dim"])
        t.append(" (a failed save becomes a success)", style=st["dim"])
    if sb.traits:
        t.append("\nTraits", style=st["header"])
        for trait in sb.traits:
            t.append("\n ")
            t.append_text(literal(trait.name, st["pip"]))
            if trait.text:
                t.append(": ")
                t.append_text(literal(trait.text))
    return t


def _abilities(t: Text, c: Combatant, own: list[Ability], st: Styles) -> None:
    """Each group under its heading, the legendary actions' heading with the pool's count."""
    acts = list(dict.fromkeys(GROUPS.get(a.act, a.act.capitalize()) for a in own))
    for heading in acts:
        t.append(f"\n{heading}", style=st["header"])
        pool = c.pool(LEGENDARY) if heading == GROUPS["legendary"] else None
        if pool is not None:
            t.append(f" {pool.current}/{pool.max}", style=st["pip"] if pool.current else st["dim"])
            t.append(" a round, at the end of another's turn", style=st["dim"])
        for a in own:
            if GROUPS.get(a.act, a.act.capitalize()) == heading:
                _ability_line(t, c, a, st)


def _ability_line(t: Text, c: Combatant, a: Ability, st: Styles) -> None:
    t.append("\n ")
    t.append_text(literal(ability_label(a)))
    if a.area:
        t.append_text(literal(f" ({a.area})", st["dim"]))
    key = pool_key(a)
    pool = c.pool(key) if key else None
    if pool is not None:
        t.append(" · ")
        t.append(pool_state(pool), style=st["good"] if pool.current > 0 else st["warn"])
    if a.text and not a.attacks:
        t.append("\n   ")
        t.append_text(literal(a.text, st["dim"]))


def _spells(t: Text, c: Combatant, sb: L.Statblock, spells: tuple[Ability, ...], st: Styles) -> None:
    """ "Spells (Int): save DC 14, +6 to hit; slots 1st 4/4, 2nd 3/3", then one line a spell."""
    sc = getattr(sb, "spellcasting", None)
    if sc is None:
        return
    t.append("\nSpells", style=st["header"])
    facts = ([f"save DC {sc.dc}"] if sc.dc else []) + ([f"{sc.bonus:+d} to hit"] if sc.bonus else [])
    words = f"({sc.ability.capitalize()})" if sc.ability else ""
    if facts:
        words = f"{words}: {', '.join(facts)}" if words else ", ".join(facts)
    if words:
        t.append(" " + words)
    slots = [p for n in range(1, 10) if (p := c.pool(slot_key(n))) is not None]
    if slots:
        t.append("; slots ")
        for i, p in enumerate(slots):
            t.append(", " if i else "")
            t.append(f"{ordinal(int(p.key.rsplit(' ', 1)[1]))} ")
            t.append(f"{p.current}/{p.max}", style=st["pip"] if p.current else st["dim"])
    for a in spells:
        _ability_line(t, c, a, st)
