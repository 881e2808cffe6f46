"""What the dialogs' fields parse: numbers, dice, names, initiative as the table gives it, and who
rolls (the fight's roll_pc / roll_npc settings). A value that does not parse is a FormError, shown
in the dialog's message line."""

from __future__ import annotations

import re
from typing import Any

from rich.text import Text

from engine import RuleError, get_ruleset
from engine import commands as C
from engine.commands import Command
from engine.core import rolls_due
from engine.dice import parse
from engine.state import Combatant, Fight
from tui.rulesets import RulesetUI, get_ui
from tui.text import clean, span


class FormError(ValueError):
    """What the GM typed cannot be read; the message says which field and why."""


# --- parsing what was typed --------------------------------------------------------------------

_INT = re.compile(r"[+-]?\d+")


def parse_int(text: str, label: str, low: int | None = None, high: int | None = None) -> int:
    s = text.strip()
    if not s:
        raise FormError(f"{label}: give a number.")
    if not _INT.fullmatch(s):
        raise FormError(f"{label}: give a whole number, not '{clean(s)}'.")
    v = int(s)
    if (low is not None and v < low) or (high is not None and v > high):
        raise FormError(f"{label}: {v} is outside {low} to {high}.")
    return v


def optional_int(text: str, label: str, low: int | None = None, high: int | None = None) -> int | None:
    return None if not text.strip() else parse_int(text, label, low, high)


def amount_or_dice(text: str, what: str) -> tuple[int | None, str]:
    """'7' is an amount; anything else is a dice expression the engine parses (and explains)."""
    s = text.strip()
    if not s:
        raise FormError(f"How much {what}? Give a number or dice like 2d6+3.")
    if s.isdigit():
        return int(s), ""
    if s.startswith("-"):
        raise FormError(f"Give the {what} as a positive number or dice, not '{clean(s)}'.")
    return None, s


def parse_given(text: str) -> tuple[int, ...] | None:
    """Dice rolled at the table: numbers separated by spaces or commas."""
    s = text.strip()
    if not s:
        return None
    parts = [p for p in re.split(r"[\s,]+", s) if p]
    if not all(p.isdigit() for p in parts):
        raise FormError(f"Table dice: give the numbers rolled, like '4 6', not '{clean(s)}'.")
    return tuple(int(p) for p in parts)


def words(text: str) -> tuple[str, ...]:
    return tuple(w.strip() for w in text.split(",") if w.strip())


# --- initiative as the table gives it: the die rolled, or the total the player calls out ------------

INIT_TYPED: list[tuple[str | Text, str]] = [
    # the same words in every ruleset: d20's die and total, Warhammer's d100 and its SL
    ("the die rolled (the app works it out)", "die"),
    ("the result called out (total, SL)", "total"),
]


def typed_initiative(text: str, mode: str, label: str) -> C.Initiative | None:
    """A typed initiative: the die (mode "die") or the total called out; None when left empty."""
    if mode == "total":
        v = optional_int(text, label, -10_000, 10_000)
        return None if v is None else C.Initiative(total=v)
    # no range for a die: the engine checks it and says what the die can show
    v = optional_int(text, label)
    return None if v is None else C.Initiative(dice=(v,))


def initiative_unit(ui: RulesetUI) -> str:
    """What an initiative value is called in the sheet beyond "Initiative" ("SL" for success levels)."""
    return ui.sheet_initiative.removeprefix("Initiative").strip()


def initiative_shown(f: Fight, c: Combatant, given: C.Initiative | None, *, table: bool) -> Text:
    """The initiative a typed die or total gives `c`, worked out by the ruleset's own path before
    anything is sent ("= 17"); empty: rolled by the app, or waiting for the table's die."""
    if given is None:
        return Text("" if table else "rolled", style="dim")
    try:
        value, _, _, _ = get_ruleset(f.ruleset).roll_initiative(c, given, f.rng)
    except RuleError:
        return Text("= ?", style="bold")  # applying says why
    unit = initiative_unit(get_ui(f.ruleset))
    return span(f"= {unit} {value:+d}" if unit else f"= {value}", "bold")


# --- dice in a number field: 5d8+5 is rolled, or its average (the fight's add_health setting) ------

HEALTH_DICE: list[tuple[str | Text, str]] = [
    ("the average of the dice", "fixed"),
    ("rolled from the dice", "rolled"),
]


def dice_average(expr: str) -> int:
    """The average of a dice expression, rounded down as statblocks print it (5d8+5: 27); for kept
    dice (4d6kh3) the middle of its range."""
    e = parse(expr)
    return (e.minimum() + e.maximum()) // 2


def number_or_dice(text: str, label: str, low: int, high: int) -> tuple[int | None, str]:
    """A whole number (value, "") or a dice expression (None, the dice) the engine parses."""
    s = text.strip()
    if "d" not in s.lower():  # no die in it: a number, with the number's own message ("1O")
        return parse_int(s, label, low, high), ""

    try:
        parse(s)
    except RuleError as exc:
        raise FormError(f"{label}: a number or dice like 5d8+5 ({exc})") from None
    return None, s


# --- who rolls: the app, or the table (the fight's roll_pc / roll_npc settings) ------------------

SIDE_KEYS = {"pc": "roll_pc", "npc": "roll_npc"}
SIDE_WORDS = {"pc": "PCs", "npc": "NPCs"}


def table_rolls(f: Fight, cid: str) -> bool:
    """True when the fight's setting has the table roll for this combatant's side."""
    c = f.find(cid) if cid else None
    return c is not None and f.setting(SIDE_KEYS.get(c.kind, "roll_npc"), "app") == "table"


def rolls_owed(f: Fight, cmd: Command) -> tuple[Any, ...]:
    """The start-of-turn rolls `cmd` is about to make for combatants whose side the table rolls for."""
    # a command that moves turns on carries the table's dice for what a turn's start triggers
    # (`rolls`: NextTurn, StartFight, a ruleset's own turn command such as Cosmere's)
    if getattr(cmd, "rolls", None) != ():
        return ()  # not a turn-moving command, or its dice are already given
    if not any(v == "table" for k, v in f.settings if k in SIDE_KEYS.values()):
        return ()  # the app rolls for everyone: no dry run needed

    return tuple(d for d in rolls_due(f, cmd) if table_rolls(f, d.who))



