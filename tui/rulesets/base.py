"""What an app slice of a ruleset is made of, and the registry of slices by id.

A slice says what the main screen, its panes and the dialogs show for one ruleset: its own actions
(keys, palette, help, when they apply), the tracker's rows, the sheet's economy lines, the dialogs it
opens and the hints of the generic forms. Nothing here imports Textual: a slice's dialogs live in a
module of their own, imported when one opens (`dialogs` names them).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any, ClassVar

import msgspec
from rich.text import Text

from engine import RuleError
from engine.plugins import get_plugin, plugins
from tui.text import clean

if TYPE_CHECKING:
    from engine.ruleset import Ruleset
    from engine.state import Combatant, Duration, Fight
    from tui.views import Row, Styles


class Action(msgspec.Struct, frozen=True):
    """One row of the action table (tui/actions.py): a key binding, a footer label, a palette entry
    and a help line. `after`: for a ruleset's own row, the generic row it is listed after."""

    id: str
    keys: str | None
    action: str
    label: str  # short, for the footer
    title: str  # for the palette and help
    help: str
    show: bool = True
    after: str = ""


# generic actions only some rulesets have (a slice lists the ones it has in `offers`)
OPTIONAL = frozenset({"use", "attack", "initiative"})


class UnknownRuleset(RuleError):
    """A fight whose ruleset the app has no slice for."""


class RulesetUI:
    """The app's slice of one ruleset. Subclass it, set `id`, and `register` an instance."""

    id: ClassVar[str] = ""
    actions: ClassVar[tuple[Action, ...]] = ()  # its own rows in the action table
    offers: ClassVar[frozenset[str]] = frozenset()  # which OPTIONAL generic actions it has
    needs_selection: ClassVar[frozenset[str]] = frozenset()  # own actions done to the selected one
    # action -> "module:Class" of the dialog it opens (a generic action's entry replaces its dialog)
    dialogs: ClassVar[dict[str, str]] = {}
    # own actions that apply exactly when the engine's ruleset offers them (Ruleset.actions), so the
    # rule is written once; the others' own checks are kept where the engine's would change the footer
    engine_checked: ClassVar[frozenset[str]] = frozenset()

    # --- form hints -----------------------------------------------------------------------------
    roll_dice = "d20"  # what the roll dialog starts with
    start_hint = ""  # the start dialog's line on how the fight begins
    start_rolls = True  # the start dialog asks each combatant's initiative die and surprise
    companions = False  # a combatant may act on its owner's initiative (add dialog, start dialog)
    damage_types = False  # the combatant form asks resistances and vulnerabilities
    condition_dice = False  # a condition may deal damage at the start of each turn
    # how often a GM reaches for each condition, most first: where two names share their first letters
    # ("conc": Concealed, Concentrating) the more common is offered first; the ruleset's concentration
    # always leads, names not listed follow in the catalog's order (docs/conditions.md)
    common_conditions: ClassVar[tuple[str, ...]] = ()
    flag_hint = "comma separated"
    initiative_title = "Initiative (SL)"  # the initiative dialog's heading
    sheet_initiative = ""  # the sheet's label for the initiative line ("" = no such line)
    use_choices: ClassVar[tuple[tuple[str, str], ...]] = (("Action", "action"),)
    use_name_hint = ""
    use_cost = False  # the use dialog asks how many actions it costs
    use_target = False  # the use dialog asks whom it is aimed at

    def has(self, action: str) -> bool:
        """Whether this ruleset has `action` at all (the others are hidden from footer and palette)."""
        return action in self.offers or any(a.action == action for a in self.actions)

    def check(self, action: str, f: Fight, c: Combatant | None) -> bool | None:
        """Whether one of its own actions applies now (read-only fights and a missing selection are
        already refused): the engine's answer for those in `engine_checked`, else while the fight is
        under way, with someone in it."""
        if action in self.engine_checked:
            return self.offered(f).get(action, False)
        return f.started and not f.ended and bool(f.combatants)

    def offered(self, f: Fight) -> dict[str, bool]:
        """The engine's actions for `f` (key -> available), worked out once per state: the footer asks
        for every binding on every refresh."""
        cached = self.__dict__.get("_offered")
        if cached is None or cached[0] is not f:
            from engine import get_ruleset

            cached = (f, {a.key: a.available for a in get_ruleset(f.ruleset).actions(f)})
            self.__dict__["_offered"] = cached
        return cached[1]

    def dialog(self, action: str) -> type | None:
        """The dialog class `action` opens in this ruleset, imported now; None for the generic one."""
        where = self.dialogs.get(action)
        if where is None:
            return None
        module, _, name = where.partition(":")
        return getattr(importlib.import_module(module), name)  # type: ignore[no-any-return]

    # --- the tracker and the sheet --------------------------------------------------------------
    def tracker_rows(self, f: Fight, rs: Ruleset, width: int, st: Styles) -> list[Row]:
        raise NotImplementedError(f"the {self.id} slice has no tracker rows")

    def economy_text(self, f: Fight, rs: Ruleset, c: Combatant, st: Styles) -> Text:
        """What the combatant may still do this turn, for the sheet: the engine's economy items, drawn
        by the one renderer every bundled ruleset uses (panes.economy_lines)."""
        from tui.panes import economy_lines  # the panes build on the slices' registry

        return economy_lines(f, rs, c, st)

    def used_label(self, f: Fight, c: Combatant) -> str:
        # the list is cleared when its turn begins; off its turn it is what it spent since then
        return "Used this turn: " if f.current == c.id else "Used since its last turn began: "

    def sheet_lines(self, f: Fight, c: Combatant, st: Styles) -> Text | None:
        """More lines of the sheet, after what was used (each starting with a newline)."""
        return None

    def condition_durations(self, f: Fight, kinds: list[str]) -> list[str]:
        """The durations the condition dialog offers, from the engine ruleset's."""
        return kinds

    def duration(self, kind: str, f: Fight, amount: int) -> Duration | None:
        """A duration of one of its own kinds ("rounds", "seconds", "rest"); None: not one of them."""
        return None

    def owed_prompter(self) -> Any | None:
        """What prompts for the rolls the rules made due (None: this ruleset makes none)."""
        return None


class _Slices(dict[str, "RulesetUI"]):
    """The slices by id. A plugin's slice module (engine/plugins.py, `Plugin.ui`) is imported the first
    time its slice is asked for, so the app imports only the slices it shows (start-up)."""

    def __missing__(self, rid: str) -> RulesetUI:
        plugin = get_plugin(rid)
        if plugin is None or not plugin.ui:
            raise KeyError(rid)
        importlib.import_module(plugin.ui)  # the module calls register()
        return dict.__getitem__(self, rid)

    def __contains__(self, rid: object) -> bool:
        if dict.__contains__(self, rid):
            return True
        plugin = get_plugin(rid) if isinstance(rid, str) else None
        return plugin is not None and bool(plugin.ui)

    def get(self, rid: str, default: Any = None) -> Any:  # type: ignore[override]
        try:
            return self[rid]
        except KeyError:
            return default


REGISTRY: dict[str, RulesetUI] = _Slices()


def register(ui: RulesetUI) -> RulesetUI:
    """Make `ui` the app's slice of its ruleset (a slice module calls this when imported)."""
    if not ui.id:
        raise ValueError("A ruleset's app slice needs the ruleset's id.")
    REGISTRY[ui.id] = ui
    return ui


def get_ui(rid: str) -> RulesetUI:
    """The app slice of ruleset `rid`; a ruleset the app does not know is a one-line error."""
    ui = REGISTRY.get(rid)
    if ui is None:
        known = ", ".join(sorted({*REGISTRY, *(p.id for p in plugins() if p.ui)}))
        raise UnknownRuleset(f"The app cannot show ruleset '{clean(rid)}' (it knows {known}).")
    return ui


def registered() -> tuple[RulesetUI, ...]:
    """Every slice, the plugins' in their listing order (each imported now), then any registered by hand."""
    listed = [REGISTRY[p.id] for p in plugins() if p.ui]
    return (*listed, *(ui for ui in REGISTRY.values() if ui not in listed))
