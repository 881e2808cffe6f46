"""What an app slice of a ruleset is made of, and the registry of slices by id.

A slice says what the main screen, its panes and the dialogs show for one ruleset: its own actions
(rows of the action table, tui/rows.py: keys, palette, help, dialog, when they apply), the tracker's
rows, the sheet's economy lines, the dialogs that replace generic ones and the hints of the generic
forms. Nothing here imports Textual: a slice's dialogs live in a module of their own, imported when
one opens. `register` refuses a slice whose rows would not work: a default key another action of
the same place already has, or an engine offer its ruleset does not make.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text

from engine import RuleError, get_ruleset, new_fight
from engine.plugins import get_plugin, plugins
from tui.rows import GENERIC, OPTIONAL, OTHER_KEYS, OVERLAPS, Action, Now  # noqa: F401 (OPTIONAL: re-exported by tui.rulesets)
from tui.text import clean

if TYPE_CHECKING:
    from engine.ruleset import Ruleset
    from engine.state import Combatant, Duration, Fight
    from tui.views import Row, Styles


def load(where: str) -> Any:
    """The object at "module:name", imported now: a slice's dialogs load when first needed."""
    module, _, name = where.partition(":")
    return getattr(importlib.import_module(module), name)


class UnknownRuleset(RuleError):
    """A fight whose ruleset the app has no slice for."""


class RulesetUI:
    """The app's slice of one ruleset. Subclass it, set `id`, and `register` an instance."""

    id: ClassVar[str] = ""
    actions: ClassVar[tuple[Action, ...]] = ()  # its own rows in the action table
    offers: ClassVar[frozenset[str]] = frozenset()  # which OPTIONAL generic actions it has
    # generic action -> "module:Class" of the dialog that replaces the generic one (its own rows
    # name their dialogs themselves)
    dialogs: ClassVar[dict[str, str]] = {}

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

    def lists(self, a: Action) -> bool:
        """Whether row `a` of the action table is one of this ruleset's (footer, palette, help)."""
        if any(x is a for x in self.actions):
            return True
        return any(x is a for x in GENERIC) and (not a.optional or a.action in self.offers)

    def row(self, action: str) -> Action | None:
        """Its own row for `action`, else the generic one if it has that (None: not in this ruleset)."""
        for a in self.actions:
            if a.action == action:
                return a
        a = GENERIC_BY_ACTION.get(action.partition("(")[0])
        if a is None or (a.optional and action not in self.offers):
            return None
        return a

    def check(self, action: str, now: Now) -> bool:
        """Whether the row of `action` applies now (read-only fights and a missing selection are
        already refused): the engine's answer when the row leaves it to the engine, else its own."""
        a = self.row(action)
        if a is None:
            return False
        if a.engine and a.offer_key is not None:
            offered = now.offered(a.offer_key)
            if offered is not None:  # an offer the engine does not make never hides the key
                return offered
        return a.enabled(now) if a.enabled is not None else True

    def offered(self, f: Fight) -> dict[str, bool]:
        """The engine's actions for `f` (key -> available), worked out once per state: the footer asks
        for every binding on every refresh."""
        cached = self.__dict__.get("_offered")
        if cached is None or cached[0] is not f:
            cached = (f, {a.key: a.available for a in get_ruleset(f.ruleset).actions(f)})
            self.__dict__["_offered"] = cached
        return cached[1]

    def dialog(self, action: str) -> Any | None:
        """What `action` opens in this ruleset (a screen class or a function, see Action.dialog),
        imported now; None when it opens nothing."""
        where = self.dialogs.get(action)
        if where is None:
            a = self.row(action)
            where = a.dialog if a is not None else ""
        return load(where) if where else None

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

    def owes(self, f: Fight) -> bool:
        """Whether the main screen should make the prompter (owed_prompter) now: here once a roll
        is owed; a slice that raises prompts of its own says when it needs one."""
        return any(c.due for c in f.combatants)

    def owed_prompter(self) -> Any | None:
        """What prompts for the rolls the rules made due: here the recharge rolls of spent abilities,
        which every ruleset owes (d20 adds its saves)."""
        from tui.recharge import OwedPrompter  # the dialogs: loaded once a roll is owed

        return OwedPrompter()


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


# by the method part of the action ("export('md')": "export"), as Textual asks check_action
GENERIC_BY_ACTION = {a.action.partition("(")[0]: a for a in GENERIC}


def register(ui: RulesetUI) -> RulesetUI:
    """Make `ui` the app's slice of its ruleset (a slice module calls this when imported). Refused
    (ValueError, naming both actions) when one of its default keys is another action's in the same
    place, or when one of its rows stands for an offer its engine ruleset does not make."""
    if not ui.id:
        raise ValueError("A ruleset's app slice needs the ruleset's id.")
    _check_keys(ui)
    _check_offers(ui)
    REGISTRY[ui.id] = ui
    return ui


def _keys_of(keys: str | None) -> list[str]:
    return [k.strip() for k in (keys or "").split(",") if k.strip()]


def _check_keys(ui: RulesetUI) -> None:
    """A slice's own keys against every other binding reachable on the main screen in its fights:
    the generic rows it has, its other rows, and the tracker's and the panes' keys (the main
    screen's bindings take priority, so a clash would take their key away)."""
    taken: dict[str, str] = {}
    for a in GENERIC:
        if not a.optional or a.action in ui.offers:
            for key in _keys_of(a.keys):
                taken.setdefault(key, f"the generic action '{a.id}'")
    for bid, (place, keys) in OTHER_KEYS.items():
        if place == "app" or place in OVERLAPS["main"]:
            for key in _keys_of(keys):
                taken.setdefault(key, f"the binding '{bid}'")
    for a in ui.actions:
        for key in _keys_of(a.keys):
            other = taken.get(key)
            if other is not None:
                raise ValueError(
                    f"The {ui.id} slice's action '{a.id}' takes the key '{key}', which is {other}'s: "
                    "give it another key."
                )
            taken[key] = f"the {ui.id} action '{a.id}'"


def _check_offers(ui: RulesetUI) -> None:
    """Each own row's engine offer must be one the engine ruleset makes: a key it never lists would
    hide the action (or its reason) for good. A ruleset whose engine is registered after its slice is
    checked when its first fight is shown (get_ui)."""
    try:
        rules = get_ruleset(ui.id)
    except RuleError:
        return
    keys = {a.key for a in rules.actions(new_fight(ui.id))}
    for a in ui.actions:
        if a.offer_key is not None and a.offer_key not in keys:
            raise ValueError(
                f"The {ui.id} slice's action '{a.id}' stands for the engine offer '{a.offer_key}', which "
                f"the {ui.id} ruleset does not make (it offers {', '.join(sorted(keys))}): set the row's "
                "`offer` to the engine's key, or None for an action of the app's own."
            )
    CHECKED.add(ui.id)


CHECKED: set[str] = set()  # slices whose offers were checked against their engine ruleset


def get_ui(rid: str) -> RulesetUI:
    """The app slice of ruleset `rid`; a ruleset the app does not know is a one-line error."""
    ui = REGISTRY.get(rid)
    if ui is None:
        known = ", ".join(sorted({*REGISTRY, *(p.id for p in plugins() if p.ui)}))
        raise UnknownRuleset(f"The app cannot show ruleset '{clean(rid)}' (it knows {known}).")
    if rid not in CHECKED:
        _check_offers(ui)
    return ui


def registered() -> tuple[RulesetUI, ...]:
    """Every slice, the plugins' in their listing order (each imported now), then any registered by hand."""
    listed = [REGISTRY[p.id] for p in plugins() if p.ui]
    return (*listed, *(ui for ui in REGISTRY.values() if ui not in listed))
