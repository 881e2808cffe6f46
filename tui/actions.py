"""One table of everything the GM can do on the main screen: the generic rows (tui/rows.py), and each
ruleset's own from its app slice (tui/rulesets/).

The main screen's key bindings, the footer, the help screen and the command palette are all built
from it, so a new action appears in each of them at once. `id` is the binding id the settings file
remaps (`[keys] damage = "x"`); `keys` None means the action is only in the palette.
"""

from __future__ import annotations

from textual.binding import Binding

from tui.rows import GENERIC, OTHER_IDS, OTHER_KEYS, Action
from tui.rulesets import registered


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


# the footer shows bindings in this order and as many as fit: what a GM reaches for most comes first
# (a ruleset's own keyed action not named here comes after these)
FOOTER_ORDER = ("start", "next", "attack", "damage", "heal", "condition", "use", "activity", "speed", "fortune", "undo")
FOOTER_ORDER += ("pane", "help", "add", "roll", "redo", "end_fight")


def bindings() -> list[Binding]:
    def rank(a: Action) -> int:
        return FOOTER_ORDER.index(a.id) if a.id in FOOTER_ORDER else len(FOOTER_ORDER)

    # priority: a key's action runs as soon as the key is read, before the keys typed after it
    # (which may be meant for the dialog it opens: see FracasApp.expect_dialog)
    # an action with no key (write the party back) still gets a binding, under a key no terminal
    # sends, so the settings file can give it one by its id like any other (`party_back = "ctrl+w"`)
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


def known_ids() -> frozenset[str]:
    return frozenset(a.id for a in ACTIONS if a.keys is not None or not a.action.startswith("app.")) | frozenset(
        OTHER_IDS
    )


def default_keys() -> dict[str, tuple[str, str]]:
    """Every binding id the settings file may remap: (where it applies, its default keys)."""
    out = {
        a.id: ("main", a.keys or unbound(a.id))
        for a in ACTIONS
        if a.keys is not None or not a.action.startswith("app.")
    }
    out.update(OTHER_KEYS)
    return out
