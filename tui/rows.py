"""The rows of the action table: everything about one thing the GM can do on the main screen, in
one place (its keys, its label, the dialog it opens, whether it needs a selected combatant, whether it
changes the fight, when it applies and the engine offer it stands for), and the generic rows every
ruleset has. Nothing here imports Textual or the registry of slices: a slice's rows are checked
against these when it registers (tui/rulesets/base.py), and tui/actions.py builds the table.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import msgspec

if TYPE_CHECKING:
    from engine.state import Combatant, Fight


class Now:
    """What a row's `enabled` predicate may look at: the fight, the selected combatant, the engine's
    offers for the fight (worked out once, when first asked) and whether the screen is narrow."""

    __slots__ = ("_offers", "fight", "narrow", "selected")

    def __init__(
        self, fight: Fight, selected: Combatant | None, offers: Callable[[], dict[str, bool]], narrow: bool = False
    ) -> None:
        self.fight = fight
        self.selected = selected
        self.narrow = narrow
        self._offers = offers

    def offered(self, key: str) -> bool | None:
        """The engine's answer for its offer `key`; None when the engine has no such offer."""
        return self._offers().get(key)

    @property
    def live(self) -> bool:
        return self.fight.started and not self.fight.ended


class Action(msgspec.Struct, frozen=True):
    """One row of the action table (tui/actions.py): a key binding, a footer label, a palette entry
    and a help line, and what the main screen does with it.

    - `after`: for a ruleset's own row, the generic row it is listed after.
    - `dialog`: what it opens, "module:name", imported when it opens (start-up does not pay for it):
      a screen class, made with the selected combatant as `who` when the row needs or takes one
      (`selection`, `who`) and with `args`; or a function given (main screen, who) that does the
      action (and may return a screen to show). A row with no dialog is done by the main screen's
      `action_<action>` method.
    - `selection`: only with a combatant selected. `changes`: changes the fight (never in a read-only
      one). `optional`: a generic row only the slices that list it in `offers` have.
    - `enabled`: when it applies, given what is on screen (Now); None: always. `engine`: exactly when
      the engine offers it (its answer for `offer`), the rule written once, in the engine; `why`: what
      the main screen says when the key is pressed in vain and the engine has no reason to give.
    - `offer`: the engine's offer (Ruleset.actions key) the row stands for, whose reason the main
      screen tells when the key is pressed in vain; "" means the same as `action`, None: the app's
      own action, which the engine does not know.
    """

    id: str
    keys: str | None
    action: str
    label: str  # short, for the footer
    title: str  # for the palette and help
    help: str
    show: bool = True
    after: str = ""
    dialog: str = ""
    args: tuple[tuple[str, Any], ...] = ()
    who: bool = False
    selection: bool = False
    changes: bool = True
    optional: bool = False
    enabled: Callable[[Now], bool] | None = None
    engine: bool = False
    offer: str | None = ""
    why: str = ""  # said when the key is pressed in vain and the engine has no reason (offer None)

    @property
    def offer_key(self) -> str | None:
        return self.action if self.offer == "" else self.offer


# --- when the generic rows apply ---------------------------------------------------------------


def live(n: Now) -> bool:
    return n.live


def under_way(n: Now) -> bool:
    """While the fight is under way, with someone in it (a slice's own rows mostly)."""
    return n.live and bool(n.fight.combatants)


def not_started(n: Now) -> bool:
    return not n.fight.started and bool(n.fight.combatants)


def can_go_on(n: Now) -> bool:
    # before the start, next (a GM's first press) opens the start dialog instead of nothing
    return n.live or not_started(n)


def may_attack(n: Now) -> bool:
    # the engine knows when nobody may attack (Warhammer, before the round's first turn)
    return n.live and bool(n.fight.current or n.selected is not None) and n.offered("attack") is not False


def in_order(n: Now) -> bool:
    return n.fight.started and n.selected is not None and n.selected.id in n.fight.order


def has_conditions(n: Now) -> bool:
    return n.selected is not None and bool(n.selected.conditions)


def has_resources(n: Now) -> bool:
    return n.selected is not None and bool(n.selected.resources)


def anyone_tracked(n: Now) -> bool:
    return any(x.health for x in n.fight.combatants)


def narrow(n: Now) -> bool:
    return n.narrow


D = "tui.dialogs"  # the generic dialogs' package

# the actions every ruleset has (use, attack and initiative: the rulesets whose slice offers them)
GENERIC: tuple[Action, ...] = (
    Action(
        "start",
        "s",
        "start",
        "Start",
        "Start the fight",
        "Roll initiative (or enter it) and mark surprised combatants",
        enabled=not_started,
        dialog=f"{D}:StartDialog",
    ),
    Action(
        "next",
        "n,space",
        "next",
        "Next",
        "Next turn or phase",
        "End the current turn (or phase) and move on",
        enabled=can_go_on,
    ),
    Action(
        "damage",
        "d",
        "damage",
        "Damage",
        "Damage",
        "Damage the selected combatant: a number or dice, with a type",
        selection=True,
        dialog=f"{D}:HealthDialog",
        args=(("mode", "damage"),),
    ),
    Action(
        "heal",
        "h",
        "heal",
        "Heal",
        "Heal",
        "Heal the selected combatant",
        selection=True,
        dialog=f"{D}:HealthDialog",
        args=(("mode", "heal"),),
    ),
    Action(
        "area",
        "D",
        "area",
        "Several",
        "Damage or heal several",
        "One roll for several targets (an area spell, a channel): each may save for half and meets its own resistances",
        show=False,
        why="Nobody in the fight has a health track to damage or heal.",
        enabled=anyone_tracked,
        offer=None,
        who=True,
        dialog="tui.area:AreaDialog",
    ),
    Action(
        "attack",
        "w",
        "attack",
        "Attack",
        "Attack",
        "The acting (or selected) combatant attacks: the chance to hit shown before the roll (d20, Cosmere,"
        " Warhammer); nine-phase takes the table's hit or miss",
        optional=True,
        enabled=may_attack,
    ),
    Action(
        "temp",
        "t",
        "temp",
        "Temp",
        "Temporary health",
        "Give temporary health (the higher value is kept)",
        show=False,
        selection=True,
        dialog=f"{D}:HealthDialog",
        args=(("mode", "temp"),),
    ),
    Action(
        "condition",
        "c",
        "condition",
        "Cond",
        "Add a condition",
        "Search the ruleset's conditions or name your own; set a duration",
        selection=True,
        dialog="tui.effects:KeptConditionDialog",
    ),
    Action(
        "uncondition",
        "x",
        "uncondition",
        "Uncond",
        "Remove a condition",
        "End one of the selected combatant's conditions",
        show=False,
        selection=True,
        enabled=has_conditions,
        dialog=f"{D}:RemoveConditionDialog",
    ),
    Action(
        "use",
        "u",
        "use",
        "Use",
        "Use an action or reaction",
        "Spend part of the selected combatant's action economy",
        optional=True,
        selection=True,
        enabled=live,
        dialog=f"{D}:UseDialog",
    ),
    Action(
        "initiative",
        "i",
        "initiative",
        "Order",
        "Edit initiative or order",
        "Set the initiative or move the selected combatant in the order",
        show=False,
        optional=True,
        selection=True,
        enabled=in_order,
        dialog=f"{D}:InitiativeDialog",
    ),
    Action(
        "add",
        "a",
        "add",
        "Add",
        "Add combatants",
        "Add one or several combatants with the ruleset's stats",
        dialog=f"{D}.combatants:AddDialog",
    ),
    Action(
        "edit",
        "e",
        "edit",
        "Edit",
        "Rename or edit stats",
        "Change the selected combatant's name, side, stats, flags or note",
        show=False,
        selection=True,
        dialog=f"{D}.combatants:EditDialog",
    ),
    Action(
        "roll",
        "r",
        "roll",
        "Roll",
        "Roll dice",
        "Roll any dice expression, or a saving throw against a DC",
        who=True,
        dialog=f"{D}:RollDialog",
    ),
    Action(
        "resource",
        "p",
        "resource",
        "Resource",
        "Spend or restore a resource",
        "Focus, Investiture, Fortune, Resolve, ...",
        show=False,
        selection=True,
        enabled=has_resources,
        dialog=f"{D}:ResourceDialog",
    ),
    Action(
        "note",
        "m",
        "note",
        "Note",
        "Add a note to the log",
        "Write a note in the log, about the fight or a combatant",
        show=False,
        who=True,
        dialog=f"{D}:NoteDialog",
    ),
    Action(
        "remove",
        "delete",
        "remove",
        "Remove",
        "Remove the combatant",
        "Take the selected combatant out of the fight (undo brings it back)",
        show=False,
        selection=True,
    ),
    Action(
        "odds",
        "O",
        "odds",
        "Odds",
        "Odds: play the rest of the fight many times",
        "Each side's chance of winning from here (before the start: the encounter's difficulty), who goes"
        " down, how many rounds are left; the runs stop when the fight changes (O again: from there)",
        show=False,
        changes=False,
        offer=None,
        enabled=anyone_tracked,
    ),
    Action(
        "end_fight",
        "E",
        "end_fight",
        "End",
        "End the fight",
        "Mark the fight as over (shift+e: never pressed by a slip; undo takes it back)",
        enabled=live,
    ),
    Action(
        "party",
        "A",
        "party",
        "Party",
        "Add the party",
        "Add the roster's PCs, each where the last fight left them (shift+a: a for add)",
        show=False,
        offer=None,
        dialog="tui.party:PartyAddDialog",
    ),
    Action(
        "party_back",
        None,
        "party_back",
        "Write back",
        "Write the party back",
        "Show what changed for each roster PC in this fight and write it back to the roster",
        changes=False,
        offer=None,
        dialog="tui.party:PartyChangesDialog",
    ),
    Action(
        "dice_setting",
        None,
        "dice_setting",
        "Dice",
        "Who rolls the dice: app or table",
        "Per side (PCs, NPCs): the app rolls, or the table rolls and the app asks for the numbers",
        dialog=f"{D}:DiceSettingDialog",
    ),
    Action(
        "hide",
        "b",
        "hide",
        "Hide",
        "Hide or reveal the combatant on the players' view",
        "Keep the selected combatant off the players' view (fracas view / serve), or reveal it",
        show=False,
        selection=True,
        offer=None,
    ),
    Action(
        "view_setting",
        "V",
        "view_setting",
        "View",
        "The players' view: enemies' health, public rolls",
        "Enemies' health on the players' view (band, numbers, nothing) and whether the GM's rolls show",
        show=False,
        offer=None,
        dialog="tui.view_dialogs:ViewSettingDialog",
    ),
    Action("undo", "ctrl+z", "undo", "Undo", "Undo", "Undo the last command"),
    Action("redo", "ctrl+y", "redo", "Redo", "Redo", "Redo the command undone last"),
    Action(
        "pane",
        "v",
        "pane",
        "Pane",
        "Show the next pane",
        "Switch between sheet, conditions and log on a small screen",
        changes=False,
        offer=None,
        enabled=narrow,
    ),
    Action(
        "help",
        "question_mark",
        "help",
        "Help",
        "Help",
        "Keys, the ruleset's summary and its conditions",
        changes=False,
        offer=None,
    ),
    Action(
        "export_md",
        None,
        "export('md')",
        "Export",
        "Export the fight as Markdown",
        "A readable log of the fight, written next to its save file",
        changes=False,
        offer=None,
    ),
    Action(
        "export_json",
        None,
        "export('json')",
        "Export",
        "Export the fight as JSON",
        "The state and the whole history, for tools, written next to its save file",
        changes=False,
        offer=None,
    ),
    Action(
        "saves",
        None,
        "app.start_screen",
        "Fights",
        "Open another fight",
        "Back to the start screen: saved fights, a new fight, the demos",
        changes=False,
        offer=None,
    ),
)

# generic actions only some rulesets have (a slice lists the ones it has in `offers`)
OPTIONAL = frozenset(a.action for a in GENERIC if a.optional)

# bindings defined elsewhere that the settings file may also remap
OTHER_IDS = (
    "quit",
    "palette",
    "up",
    "down",
    "page_up",
    "page_down",
    "first",
    "last",
    "scroll_up",
    "scroll_down",
    "scroll_page_up",
    "scroll_page_down",
    "scroll_top",
    "scroll_bottom",
    "dialog_cancel",
    "dialog_submit",
    "dialog_enter",
    "choice_previous",
    "choice_next",
    "tick",
    "list_up",
    "list_down",
    "list_left",
    "list_right",
    "catalog_down",
    "catalog_up",
    "library_down",
    "library_up",
    "library_health",
    "library_together",
    "difficulty",
    "help_close",
    "start_reload",
    "start_back",
    "start_rename",
    "start_delete",
)


# where each binding of OTHER_IDS applies, and its default keys: a key the settings file gives a
# binding is checked against every binding that can be reached in the same place
OTHER_KEYS: dict[str, tuple[str, str]] = {
    "quit": ("app", "ctrl+q"),
    "palette": ("app", "ctrl+p"),
    "up": ("tracker", "up,k"),
    "down": ("tracker", "down,j"),
    "page_up": ("tracker", "pageup"),
    "page_down": ("tracker", "pagedown"),
    "first": ("tracker", "home"),
    "last": ("tracker", "end"),
    "scroll_up": ("pane", "up,k"),
    "scroll_down": ("pane", "down,j"),
    "scroll_page_up": ("pane", "pageup"),
    "scroll_page_down": ("pane", "pagedown"),
    "scroll_top": ("pane", "home"),
    "scroll_bottom": ("pane", "end"),
    "dialog_cancel": ("dialog", "escape"),
    "dialog_submit": ("dialog", "ctrl+s"),
    "dialog_enter": ("dialog", "enter"),
    "choice_previous": ("choice", "left"),
    "choice_next": ("choice", "right"),
    "tick": ("tick", "space"),
    # a list of boxes (tui/dialogs/fields.py TickList: an area's targets, a Cosmere attack's)
    "list_up": ("tick", "up"),
    "list_down": ("tick", "down"),
    "list_left": ("tick", "left"),
    "list_right": ("tick", "right"),
    "catalog_down": ("dialog", "down"),
    "catalog_up": ("dialog", "up"),
    # the add dialog's library list (tui/dialogs/combatants.py AddDialog): another dialog than the catalog's
    "library_down": ("dialog", "down"),
    "library_up": ("dialog", "up"),
    "library_health": ("dialog", "ctrl+r"),
    "library_together": ("dialog", "ctrl+t"),
    "difficulty": ("dialog", "ctrl+o"),  # the start dialog's encounter difficulty (tui/odds.py)
    "help_close": ("help", "escape,question_mark,q"),
    "start_reload": ("start", "ctrl+r"),
    "start_back": ("start", "escape"),
    "start_rename": ("start", "r"),
    "start_delete": ("start", "delete"),
}
# Textual's own bindings, which cannot be remapped: on every screen (focus moves, copy; ctrl+c)
RESERVED_KEYS: dict[str, str] = {
    "tab": "focus the next field",
    "shift+tab": "focus the previous field",
    "ctrl+c": "copy / quit help",
    "super+c": "copy",
}
# the places whose bindings can be reached together (the main screen's keys are priority bindings,
# so they shadow the tracker's and the panes'; a dialog's shadow its choosers' and boxes')
OVERLAPS: dict[str, frozenset[str]] = {
    "main": frozenset({"main", "tracker", "pane"}),
    "tracker": frozenset({"main", "tracker"}),
    "pane": frozenset({"main", "pane"}),
    "dialog": frozenset({"dialog", "choice", "tick"}),
    "choice": frozenset({"dialog", "choice"}),
    "tick": frozenset({"dialog", "tick"}),
    "help": frozenset({"help"}),
    "start": frozenset({"start"}),
}
