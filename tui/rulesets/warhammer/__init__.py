"""Warhammer's app slice: its tracker row, its actions and its form hints. Its
dialogs are in tui/rulesets/warhammer/dialogs.py."""

from __future__ import annotations

from engine import get_ruleset
from engine.rules.warhammer.combat import resolute, tier
from engine.ruleset import Ruleset
from engine.state import Combatant, Fight
from tui.rows import Now, under_way
from tui.rulesets.base import Action, RulesetUI, register
from tui.views import (
    DOWN,
    Column,
    Row,
    Styles,
    ZeroBand,
    economy_cell,
    health_cell,
    init_cell,
    list_rows,
    name_cell,
    resource_cell,
)

DIALOGS = "tui.rulesets.warhammer.dialogs"

FIGHTS_ON = ZeroBand("hp-dying", "fights", "!", out=False)
TESTS = ZeroBand("hp-dying", "test", "?", out=False)


def zero_wounds(c: Combatant) -> ZeroBand:
    """At 0 Wounds, as the engine reads it (engine/rules/warhammer/combat.py zero_wounds_state): one
    with Resolve (every PC) or a passed Willpower test fights on, a champion not yet tested is
    waiting on its test; the rest have collapsed or stopped fighting."""
    if resolute(c) or c.has("Fighting on"):
        return FIGHTS_ON
    if tier(c) == "champion" and not c.has("Stopped fighting"):
        return TESTS
    return DOWN


COLUMNS = [
    Column("SL", 4, init_cell, right=True),
    Column("Name", 0, name_cell),
    Column("Wounds", 11, health_cell),  # room for "0/12 fights": a PC on at 0 Wounds
    Column("Acts", 9, economy_cell),
    Column("Fort", 5, resource_cell("fortune")),
]


def may_spend_fortune(n: Now) -> bool:
    # the engine's own check: at the start of a round, before anyone acts
    return not get_ruleset(n.fight.ruleset).fortune_refusal(n.fight)  # type: ignore[attr-defined]


class WarhammerUI(RulesetUI):
    id = "warhammer"
    common_conditions = ("Prone", "Stunned", "Seriously injured", "Critically wounded", "Surprised")
    offers = frozenset({"use", "attack", "initiative"})
    actions = (
        Action(
            "wh_critical",
            None,
            "wh_critical",
            "Critical",
            "Roll a critical injury",
            "A critical outside an attack: damage past 0 Wounds, a fall, a trap (Warhammer)",
            after="attack",
            engine=True,
            dialog=f"{DIALOGS}:WarhammerCriticalDialog",
        ),
        Action(
            "willpower",
            None,
            "willpower",
            "Willpower",
            "Test Willpower to keep fighting",
            "A champion at 0 Wounds without Resolve tests Willpower (Warhammer)",
            after="attack",
            enabled=under_way,  # the engine offers it to champions only: its dialog says who may
            dialog=f"{DIALOGS}:WarhammerWillpowerDialog",
        ),
        Action(
            "fortune",
            "o",
            "fortune",
            "Fortune",
            "Spend Fortune for a slot",
            "Spend a Fortune point to act at a chosen place this round (Warhammer)",
            after="use",
            selection=True,
            enabled=may_spend_fortune,
            dialog=f"{DIALOGS}:FortuneDialog",
        ),
    )
    dialogs = {"attack": f"{DIALOGS}:WarhammerAttackDialog"}

    start_hint = "Initiative test: d100 against Initiative. Leave blank and the app rolls it."
    flag_hint = "shield, offhand, twohanded (bonus parries)"
    sheet_initiative = "Initiative SL "
    use_choices = (
        ("Action (attack, ...)", "action"),
        ("Fight defensively", "defensive"),
        ("Parry", "parry"),
        ("Dodge", "dodge"),
    )
    use_name_hint = "what it does (optional)"
    use_target = True

    def tracker_rows(self, f: Fight, rs: Ruleset, width: int, st: Styles) -> list[Row]:
        return list_rows(f, rs, COLUMNS, width, st, zero=zero_wounds)


register(WarhammerUI())
