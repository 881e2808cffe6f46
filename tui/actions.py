"""One table of everything the GM can do on the main screen: the generic rows, and each ruleset's own
from its app slice (tui/rulesets/).

The main screen's key bindings, the footer, the help screen and the command palette are all built
from it, so a new action appears in each of them at once. `id` is the binding id the settings file
remaps (`[keys] damage = "x"`); `keys` None means the action is only in the palette.
"""

from __future__ import annotations

from textual.binding import Binding

from tui.rulesets import Action, registered

# the actions every ruleset has (use, attack and initiative: the rulesets whose slice offers them)
GENERIC: tuple[Action, ...] = (
    Action(
        "start", "s", "start", "Start", "Start the fight", "Roll initiative (or enter it) and mark surprised combatants"
    ),
    Action("next", "n,space", "next", "Next", "Next turn or phase", "End the current turn (or phase) and move on"),
    Action("damage", "d", "damage", "Damage", "Damage", "Damage the selected combatant: a number or dice, with a type"),
    Action("heal", "h", "heal", "Heal", "Heal", "Heal the selected combatant"),
    Action(
        "area",
        "D",
        "area",
        "Several",
        "Damage or heal several",
        "One roll for several targets (an area spell, a channel): each may save for half and meets its own resistances",
        show=False,
    ),
    Action(
        "attack",
        "w",
        "attack",
        "Attack",
        "Attack",
        "The acting (or selected) combatant attacks: the chance to hit shown before the roll (d20, Cosmere, Warhammer)",
    ),
    Action(
        "temp", "t", "temp", "Temp", "Temporary health", "Give temporary health (the higher value is kept)", show=False
    ),
    Action(
        "condition",
        "c",
        "condition",
        "Cond",
        "Add a condition",
        "Search the ruleset's conditions or name your own; set a duration",
    ),
    Action(
        "uncondition",
        "x",
        "uncondition",
        "Uncond",
        "Remove a condition",
        "End one of the selected combatant's conditions",
        show=False,
    ),
    Action(
        "use", "u", "use", "Use", "Use an action or reaction", "Spend part of the selected combatant's action economy"
    ),
    Action(
        "initiative",
        "i",
        "initiative",
        "Order",
        "Edit initiative or order",
        "Set the initiative or move the selected combatant in the order",
        show=False,
    ),
    Action("add", "a", "add", "Add", "Add combatants", "Add one or several combatants with the ruleset's stats"),
    Action(
        "edit",
        "e",
        "edit",
        "Edit",
        "Rename or edit stats",
        "Change the selected combatant's name, side, stats, flags or note",
        show=False,
    ),
    Action("roll", "r", "roll", "Roll", "Roll dice", "Roll any dice expression, or a saving throw against a DC"),
    Action(
        "resource",
        "p",
        "resource",
        "Resource",
        "Spend or restore a resource",
        "Focus, Investiture, Fortune, Resolve, ...",
        show=False,
    ),
    Action(
        "note",
        "m",
        "note",
        "Note",
        "Add a note to the log",
        "Write a note in the log, about the fight or a combatant",
        show=False,
    ),
    Action(
        "remove",
        "delete",
        "remove",
        "Remove",
        "Remove the combatant",
        "Take the selected combatant out of the fight (undo brings it back)",
        show=False,
    ),
    Action("end_fight", None, "end_fight", "End", "End the fight", "Mark the fight as over"),
    Action(
        "party",
        "A",
        "party",
        "Party",
        "Add the party",
        "Add the roster's PCs, each where the last fight left them (shift+a: a for add)",
        show=False,
    ),
    Action(
        "party_back",
        None,
        "party_back",
        "Write back",
        "Write the party back",
        "Show what changed for each roster PC in this fight and write it back to the roster",
    ),
    Action(
        "dice_setting",
        None,
        "dice_setting",
        "Dice",
        "Who rolls the dice: app or table",
        "Per side (PCs, NPCs): the app rolls, or the table rolls and the app asks for the numbers",
    ),
    Action(
        "hide",
        "b",
        "hide",
        "Hide",
        "Hide or reveal the combatant on the players' view",
        "Keep the selected combatant off the players' view (fracas view / serve), or reveal it",
        show=False,
    ),
    Action(
        "view_setting",
        "V",
        "view_setting",
        "View",
        "The players' view: enemies' health, public rolls",
        "Enemies' health on the players' view (band, numbers, nothing) and whether the GM's rolls show",
        show=False,
    ),
    Action("undo", "ctrl+z", "undo", "Undo", "Undo", "Undo the last command"),
    Action("redo", "ctrl+y", "redo", "Redo", "Redo", "Redo the command undone last"),
    Action(
        "pane", "v", "pane", "Pane", "Show the next pane", "Switch between sheet, conditions and log on a small screen"
    ),
    Action("help", "question_mark", "help", "Help", "Help", "Keys, the ruleset's summary and its conditions"),
    Action(
        "export_md",
        None,
        "export('md')",
        "Export",
        "Export the fight as Markdown",
        "A readable log of the fight, written next to its save file",
    ),
    Action(
        "export_json",
        None,
        "export('json')",
        "Export",
        "Export the fight as JSON",
        "The state and the whole history, for tools, written next to its save file",
    ),
    Action(
        "saves",
        None,
        "app.start_screen",
        "Fights",
        "Open another fight",
        "Back to the start screen: saved fights, a new fight, the demos",
    ),
)


def _table() -> tuple[Action, ...]:
    """The generic rows, each followed by the rulesets' own rows listed after it (`after`)."""
    own = [a for ui in registered() for a in ui.actions]
    out: list[Action] = []
    for g in GENERIC:
        out.append(g)
        out.extend(a for a in own if a.after == g.id)
    ids = {g.id for g in GENERIC}
    out.extend(a for a in own if a.after not in ids)
    return tuple(out)


ACTIONS: tuple[Action, ...] = _table()
BY_ID = {a.id: a for a in ACTIONS}


# the footer shows bindings in this order and as many as fit: what a GM reaches for most comes first
# (a ruleset's own keyed action not named here comes after these)
FOOTER_ORDER = ("start", "next", "attack", "damage", "heal", "condition", "use", "activity", "speed", "fortune", "undo")
FOOTER_ORDER += ("pane", "help", "add", "roll", "redo")


def bindings() -> list[Binding]:
    def rank(a: Action) -> int:
        return FOOTER_ORDER.index(a.id) if a.id in FOOTER_ORDER else len(FOOTER_ORDER)

    # priority: a key's action runs as soon as the key is read, before the keys typed after it
    # (which may be meant for the dialog it opens: see FracasApp.expect_dialog)
    # an action with no key (end the fight) still gets a binding, under a key no terminal sends, so
    # the settings file can give it one by its id like any other (`end_fight = "ctrl+e"`)
    return [
        Binding(
            a.keys or unbound(a.id),
            a.action,
            a.label,
            show=a.show and a.keys is not None,
            id=a.id,
            tooltip=a.help,
            priority=True,
        )
        for a in sorted(ACTIONS, key=rank)
        if not a.action.startswith("app.")
    ]


def unbound(bid: str) -> str:
    """The placeholder key of a binding that has none until the settings file gives it one."""
    return f"fracas_unbound_{bid}"


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
    "catalog_down",
    "catalog_up",
    "library_down",
    "library_up",
    "library_health",
    "help_close",
    "start_reload",
    "start_back",
    "start_rename",
    "start_delete",
)


def known_ids() -> frozenset[str]:
    return frozenset(a.id for a in ACTIONS if a.keys is not None or not a.action.startswith("app.")) | frozenset(
        OTHER_IDS
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
    "catalog_down": ("dialog", "down"),
    "catalog_up": ("dialog", "up"),
    # the add dialog's library list (tui/dialogs.py AddDialog): another dialog than the catalog's
    "library_down": ("dialog", "down"),
    "library_up": ("dialog", "up"),
    "library_health": ("dialog", "ctrl+r"),
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


def default_keys() -> dict[str, tuple[str, str]]:
    """Every binding id the settings file may remap: (where it applies, its default keys)."""
    out = {
        a.id: ("main", a.keys or unbound(a.id))
        for a in ACTIONS
        if a.keys is not None or not a.action.startswith("app.")
    }
    out.update(OTHER_KEYS)
    return out
