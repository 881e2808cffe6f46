"""A statblock's abilities at the table (every ruleset): what the use dialog (`u`) and the attack
dialog's "Attack" row (`w`) offer besides the weapon attacks, and where choosing one leads.

- An ability with a save (Fire Breath) opens the area dialog filled in: DC, save, dice and type, half
  or none on a save, the condition, the ability's name and what it spends, its user's foes ticked when
  it can catch several (targets 0 or more than 1), else the target selected.
- An ability with an attack roll (a spell attack) is an attack: the attack dialog with it chosen, its
  spend and name sent with the attack command (d20; in the other rulesets it is logged with UseAbility
  and the GM rolls the attack with `w`; Multiattack too).
- Multiattack is its attacks in turn: the attack dialog with the first chosen; after each result the
  next one opens, until the last (escape stops there).
- Anything else (Parry, a text-only ability) is UseAbility: logged, its pools and its part of the turn
  spent. A spent ability is refused by the engine with its one line, shown in the dialog.

Imported when one of those dialogs opens (the library with it), never at start-up.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text

import engine.library as L
from engine import apply
from engine import commands as C
from engine.library.abilities import Ability, ability_label, pool_key, spend_of
from engine.state import Combatant, Fight
from tui.text import literal

PREFIX = "ability:"  # a pick list's value for the statblock's ability of that index


def abilities_of(f: Fight, who: str) -> tuple[Ability, ...]:
    """The abilities of the statblock `who` was added from (none for one typed by hand)."""
    c = f.find(who) if who else None
    sb = L.statblock_of(f.ruleset, c) if c is not None else None
    return tuple(L.kind_of(sb).abilities(sb)) if sb is not None else ()


def label(c: Combatant, a: Ability) -> Text:
    """The pick list's line: the ability's, and "spent" when its own pool is empty."""
    t = literal(ability_label(a))
    key = pool_key(a)
    pool = c.pool(key) if key else None
    if pool is not None and pool.current <= 0:
        t.append(" · spent", style="bold")
    return t


def options(f: Fight, who: str) -> list[tuple[str | Text, Any]]:
    c = f.find(who)
    if c is None:
        return []
    return [(label(c, a), f"{PREFIX}{i}") for i, a in enumerate(abilities_of(f, who))]


def chosen(f: Fight, who: str, value: Any) -> Ability | None:
    """The ability a pick list's value names (None: the value is not an ability's)."""
    if not isinstance(value, str) or not value.startswith(PREFIX):
        return None
    found = abilities_of(f, who)
    i = int(value.removeprefix(PREFIX))
    return found[i] if 0 <= i < len(found) else None


def value_of(f: Fight, who: str, name: str) -> str | None:
    low = name.casefold()
    return next((f"{PREFIX}{i}" for i, a in enumerate(abilities_of(f, who)) if a.name.casefold() == low), None)


def many(a: Ability) -> bool:
    """It may catch several targets: its user's foes are ticked, not only the selected one."""
    return a.targets != 1


def plain_use(who: str, a: Ability, target: str = "") -> C.Command:
    """The engine's command for an ability it rolls nothing for."""
    return C.UseAbility(who, a.name, spend=spend_of(a), target=target, act=a.act, cost=a.cost)


def kind(a: Ability) -> str:
    """Where it leads: "area" (a save), "attack" (an attack roll), "multiattack", or "use"."""
    if a.attacks:
        return "multiattack"
    if a.save:
        return "area"
    if a.hit is not None:
        return "attack"
    return "use"


def check_ready(f: Fight, who: str, a: Ability) -> None:
    """Refuse a spent ability before its dialog opens, with the engine's own line (RuleError): what
    it spends, tried on the fight as it is (the engine is pure: nothing is changed)."""
    if spend_of(a):
        apply(f, C.UseAbility(who, a.name, spend=spend_of(a)))


def next_screen(host: Any, who: str, a: Ability, target: str = "") -> Any | None:
    """The dialog choosing `a` leads to (None: it is a plain use, sent as it is). `host` is the
    dialog it was chosen in (its fight, its ruleset's slice)."""
    how = kind(a)
    if how == "area":
        area = host.ui.dialog("area")  # tui.area: named by the action table, which loads it
        return area(target, ability=a, user=who)
    cls = host.ui.dialog("attack") if how != "use" else None
    # only an attack dialog that rolls an ability's attack itself takes it (d20's); elsewhere it is
    # logged and the GM rolls the attack with `w`
    if cls is None or not getattr(cls, "ROLLS_ABILITIES", False):
        return None
    if how == "multiattack":
        return cls(who, target, queue=tuple(a.attacks))
    return cls(who, target, ability=a.name)


def go_on(host: Any, screen: Any) -> None:
    """Close `host` and open `screen` in its place: the keys typed after enter, which the app holds,
    go to the new one once it has focus (FracasApp.dialog_settled)."""
    host.dismiss()
    host.app.push_screen(screen)
