"""The party roster in the app: add the whole party to a fight in one step, and
at the end of a fight (or on demand) show what changed for each PC and write it back to the roster
when the GM confirms, with a one-step undo of the write-back.

The roster is saves/library.py's (`<data folder>/party/<id>.toml`). Adding a PC is its AddCombatant
and then the commands that bring it to where the roster says it stands (damage taken, resources
spent, lasting conditions): one key, applied all or none (one undo step per command, the app's
commit keeps each its own step). Imported when one of these dialogs opens.
"""

from __future__ import annotations

from typing import Any

import msgspec
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widget import Widget
from textual.widgets import Button, Static

from engine import RuleError, apply, get_ruleset
from engine.commands import AddCombatant, Command, Initiative
from engine.events import Added
from engine.state import Fight
from engine.text import name_key
from saves import library as S
from saves.errors import SaveError
from tui.dialogs import Dialog, FormError
from tui.dialogs.fields import ListTick, TickList
from tui.text import clean, literal

# a list of PCs to tick: one tab stop, up/down between them, space ticks (tui/dialogs/fields.py
# TickList); the row's mark and the box drawn ▸X◂ say which one space ticks, without colour
LIST_CSS = """
{0} .label.mark {{ width: 2; }}
{0} ListTick {{ width: 1fr; }}
{0} ListTick:focus {{ text-style: bold reverse; }}
"""


def tick_row(box: ListTick) -> Horizontal:
    """A row of a list of PCs: the focus mark's place, then the box."""
    return Horizontal(Static("", classes="label mark"), box, classes="row")


def _roster(rid: str) -> tuple[tuple[S.Member, ...], str]:
    """The roster's PCs that can join a fight, and one line saying what was left out ("" if none)."""
    try:
        members, problem = S.read_party_usable(rid)
    except (RuleError, SaveError, OSError) as exc:
        return (), clean(str(exc))
    return members, clean(problem)


def in_fight(f: Fight, name: str) -> bool:
    """A PC of that name is in the fight already (names match case-insensitively, as the roster's)."""
    low = name_key(name)
    return any(c.kind == "pc" and name_key(c.name) == low for c in f.combatants)


def party_commands(f: Fight, members: list[S.Member]) -> list[Command]:
    """Each member's AddCombatant and the commands restoring where it stood, in order. The ids the
    restores need come from a dry run on the pure engine (the Added events)."""
    rid = f.ruleset
    out: list[Command] = []
    state = f
    rs = get_ruleset(rid)
    # joining a fight under way: each PC's initiative is rolled by the ruleset as it joins, so it
    # takes its place in the order (the GM can set the one a player calls out with `i`)
    joins = f.started and not f.ended and rs.rolls_initiative()
    for m in members:
        for add in S.member_commands(rid, m):
            if joins and isinstance(add, AddCombatant) and not add.owner:
                add = msgspec.structs.replace(add, initiative=(Initiative(),))
            state, events = apply(state, add)
            out.append(add)
            cid = next(e.who for e in events if isinstance(e, Added))
            for cmd in S.restore_commands(m, cid):
                state, _ = apply(state, cmd)
                out.append(cmd)
    return out


class PartyAddDialog(Dialog):
    """The roster's PCs, each ticked unless already in the fight: enter adds the ticked ones."""

    OK = "Add the party"
    HINT = "enter: add the ticked PCs · up/down, space: tick · esc: cancel · tab: next"
    DEFAULT_CSS = LIST_CSS.format("PartyAddDialog")

    def __init__(self, who: str = "") -> None:
        super().__init__(who)
        self.pc_list = TickList()

    @property
    def focus_chain(self) -> list[Widget]:
        return self.pc_list.place(super().focus_chain)

    def heading(self) -> Text:
        return Text(f"Add the party ({self.rules.title})")

    def fields(self) -> ComposeResult:
        members, problem = _roster(self.fight.ruleset)
        self._members = list(members)
        if problem:
            yield Static(literal(problem), classes="wide-label")
        if not members and not problem:
            where = S.party_path(self.fight.ruleset)
            note = (
                f"No party yet: `fracas party import FILE`, or write [[pc]] tables in {where}. Or add the"
                " PCs by hand (a, kind PC), and after the fight Write the party back (ctrl+p): it adds"
                " hand-made PCs to the roster."
            )
            yield Static(literal(note), classes="wide-label")
        for i, m in enumerate(members):
            here = in_fight(self.fight, m.name)
            label = literal(m.name)
            if here:
                label.append("  (already in the fight)", style="dim")
            elif m.now.health or m.now.resources or m.now.conditions:
                label.append("  (as the last fight left them)", style="dim")
            yield tick_row(ListTick(label, not here, group=self.pc_list, row=i, id=f"pc-{i}"))

    def on_mount(self) -> None:
        first = self.pc_list.stop()
        if first is not None:
            first.focus()
        else:
            self.query_one("#cancel", Button).focus()

    def chosen(self) -> list[S.Member]:
        return [m for i, m in enumerate(self._members) if self.checked(f"pc-{i}")]

    def build(self) -> list[Command]:
        picked = self.chosen()
        if not picked:
            raise FormError("Tick the PCs to add (space), or escape.")
        return party_commands(self.fight, picked)


def change_text(ch: S.Change) -> str:
    """'hp 24 -> 19', 'gambit 2 -> 1', 'Exhaustion (new, level 2)', 'Poisoned (ended)'; and when the
    roster changed since the fight began: 'hp 24 -> 19 (the roster has 30 now)'."""
    if ch.what == "condition":
        if not ch.before:
            text = f"{ch.key} (new, level {ch.after})"
        elif not ch.after:
            text = f"{ch.key} (ended)"
        else:
            text = f"{ch.key} level {ch.before} -> {ch.after}"
    else:
        text = f"{ch.key} {ch.before} -> {ch.after}"
    if ch.roster is not None:
        text += f" (the roster has {ch.roster or 'none'} now)"
    return text


class PartyChangesDialog(Dialog):
    """What changed for each roster PC in this fight, and the fight's PCs not on the roster yet (how
    a PC made by hand joins the party); the ticked ones are written on enter."""

    OK = "Write back"
    HINT = "enter: write the ticked PCs back · up/down, space: tick · esc: not now"
    DEFAULT_CSS = LIST_CSS.format("PartyChangesDialog")

    def __init__(self, who: str = "") -> None:
        super().__init__(who)
        self.pc_list = TickList()  # the roster's PCs that changed, then the newcomers: one list

    @property
    def focus_chain(self) -> list[Widget]:
        return self.pc_list.place(super().focus_chain)

    def heading(self) -> Text:
        return Text("The party after the fight: write back to the roster?")

    def fields(self) -> ComposeResult:
        rid = self.fight.ruleset
        try:
            members, problem = S.read_party(rid), ""  # a write-back starts from the whole roster
        except (RuleError, SaveError, OSError) as exc:
            members, problem = (), clean(str(exc)) + " (nothing is written back until it is mended)"
        session = self.fracas.session
        start = S.joined(session.history) if session is not None else None
        self._found = S.changes(rid, members, self.fight, start) if members else ()
        self._new = S.newcomers(members, self.fight) if not problem else ()
        if problem:
            yield Static(literal(problem), classes="wide-label")
        elif not self._found and not self._new:
            yield Static(Text("Nothing changed for the roster's PCs in this fight."), classes="wide-label")
        for i, pc in enumerate(self._found):
            yield tick_row(ListTick(literal(pc.name, "bold"), True, group=self.pc_list, row=i, id=f"pc-{i}"))
            yield Static(literal("    " + "; ".join(change_text(c) for c in pc.changes)), classes="wide-label")
        if self._new:
            yield Static(Text("Not on the roster yet (tick to add, as they stand now):"), classes="wide-label")
        for i, c in enumerate(self._new):
            # unticked: a PC made for one fight (a guest, a hireling) does not join unasked
            box = ListTick(literal(c.name, "bold"), False, group=self.pc_list, row=len(self._found) + i, id=f"new-{i}")
            yield tick_row(box)

    def on_mount(self) -> None:
        first = self.pc_list.stop()
        if first is not None:
            first.focus()
        else:
            self.query_one("#cancel", Button).focus()

    def action_submit(self) -> None:
        names = [pc.name for i, pc in enumerate(self._found) if self.checked(f"pc-{i}")]
        join = [c for i, c in enumerate(self._new) if self.checked(f"new-{i}")]
        if not names and not join:
            self.show_error("Tick the PCs to write to the roster (space), or escape.")
            return
        rid = self.fight.ruleset
        try:
            done = S.write_back(rid, self._found, names, join=join)
        except (RuleError, SaveError, OSError) as exc:
            self.show_error(str(exc))
            return
        self.dismiss()
        self.app.push_screen(WrittenBackDialog(names + [c.name for c in join], done))


class WrittenBackDialog(Dialog):
    """Said once it is written; the one-step undo puts back what this write-back changed, and only
    while the roster still holds what it wrote."""

    OK = "Done"
    HINT = "enter: done · u: undo the write-back · esc: done"

    def __init__(self, names: list[str], done: S.WriteBack) -> None:
        super().__init__()
        self.names, self.done = names, done

    def heading(self) -> Text:
        return Text("Written back to the roster: ") + literal(", ".join(self.names))

    def fields(self) -> ComposeResult:
        yield Button("Undo write-back", id="undo", compact=True)

    def on_mount(self) -> None:
        self.query_one("#ok", Button).focus()

    def key_u(self) -> None:
        self._undo()

    @on(Button.Pressed, "#undo")
    def _undo(self, _: Any = None) -> None:
        try:
            S.undo_write_back(self.done)
        except (RuleError, SaveError, OSError) as exc:
            self.show_error(str(exc))
            return
        self.fracas.notify("The write-back is undone: those PCs are as the roster had them.", markup=False)
        self.dismiss()

    def action_submit(self) -> None:
        self.dismiss()
