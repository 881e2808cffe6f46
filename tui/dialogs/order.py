"""Starting the fight (initiative typed, rolled or as the table calls it; surprise) and editing
the initiative or order of one combatant."""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.widget import Widget
from textual.widgets import Button, Input, Static

from engine import commands as C
from engine.commands import Command
from engine.plugins import get_plugin
from engine.state import Combatant
from tui.dialogs.base import Dialog, field, row
from tui.dialogs.fields import Choice, ListTick, Tick, TickList
from tui.dialogs.forms import (
    INIT_TYPED,
    SIDE_KEYS,
    SIDE_WORDS,
    FormError,
    initiative_shown,
    parse_int,
    table_rolls,
    typed_initiative,
)
from tui.text import clean, literal, span

# --- starting and ordering ---------------------------------------------------------------------


class TypedInitiative(Dialog):
    """A dialog where initiative is typed: the die rolled or the total the player calls out, as the
    "Initiative typed is" choice says; each field shows the initiative it gives before it is sent."""

    # the choice when the fight has none remembered ("die": what the start dialog always took)
    TYPED_DEFAULT = "die"

    def typed_row(self, mode: str = "") -> Horizontal | None:
        """The die-or-total choice, for a ruleset with an initiative number (None otherwise); it
        opens on `mode`, else on what the fight remembers."""
        if not self.rules.rolls_initiative():
            return None
        mode = mode or self.fight.setting("init_typed", self.TYPED_DEFAULT)
        return row("Initiative typed is", Choice(INIT_TYPED, mode, id="init_typed"), id="r-typed")

    @property
    def typed_mode(self) -> str:
        return self.choice("init_typed") if self.query("#init_typed") else self.TYPED_DEFAULT

    def remembered(self) -> list[Command]:
        mode = self.typed_mode
        if self.query("#init_typed") and mode != self.fight.setting("init_typed", "die"):
            return [C.Setting("init_typed", mode)]
        return []

    def shown_row(self, label: str | Text, *widgets: Widget, slot: str) -> Horizontal:
        """A row whose initiative field is followed by what it gives ("= 17")."""
        text = label if isinstance(label, Text) else Text(label)
        shown = Static(id=f"shown-{slot}", classes="shown")
        return Horizontal(Static(text, classes="label"), *widgets, shown, classes="row")

    def show_initiative(self, slot: str, c: Combatant, text: str) -> None:
        try:
            given = typed_initiative(text, self.typed_mode, "Initiative")
            shown = initiative_shown(self.fight, c, given, table=table_rolls(self.fight, c.id))
        except FormError:
            shown = span("= ?", "bold")
        for w in self.query(f"#shown-{slot}").results(Static):
            w.update(shown)

    def refresh_shown(self) -> None:
        """Every field's result again (the choice changed, or the dialog opened)."""


class StartDialog(TypedInitiative):
    DEFAULT_CSS = """
    StartDialog .with { width: 1fr; height: 1; color: $text-muted; }
    """
    OK = "Start"
    ANNOUNCE = False  # the tracker and header show the new round at once
    HINT = "enter: start · tab: next field · up/down, space: surprised · esc: cancel"
    BINDINGS = [Binding("ctrl+o", "odds", "Difficulty", show=False, id="difficulty")]

    def __init__(self, who: str = "") -> None:
        super().__init__(who)
        # the surprised boxes are one list: one tab stop after the dice, up/down between them
        self.surprised_list = TickList()

    def difficulty(self) -> Widget | None:
        """The encounter's difficulty line, where the ruleset brings an auto-play (tui/odds.py)."""
        plugin = get_plugin(self.fight.ruleset)
        if plugin is None or not plugin.tactics:
            return None
        from tui.odds import Difficulty  # the simulation loads when the dialog first offers it

        return Difficulty(self.fight)

    def action_odds(self) -> None:
        for line in self.query("#difficulty"):
            line.run()  # type: ignore[attr-defined]  # tui.odds.Difficulty, loaded with the line

    def heading(self) -> Text:
        ui = self.ui
        how = ui.start_hint
        sides = [SIDE_WORDS[k] for k, key in SIDE_KEYS.items() if self.fight.setting(key, "app") == "table"]
        if sides and ui.start_rolls:
            how = how.split(". ")[0] + "."  # the app does not fill in a blank die for those sides
            if len(sides) == 1:
                other = "NPC" if sides[0] == "PCs" else "PC"
                how += f" Leave a{'n' if other == 'NPC' else ''} {other}'s die blank and the app rolls it."
            return (
                span("Start the fight\n", "bold")
                + Text(how)
                + span(f"\nThe table rolls for {' and '.join(sides)}: type their dice.", "bold")
            )
        return span("Start the fight\n", "bold") + Text(how)

    def fields(self) -> ComposeResult:
        f = self.fight
        ui = self.ui
        typed = self.typed_row() if ui.start_rolls else None
        if typed is not None:
            yield typed
        # ids are positions (slot): a combatant id comes from a file and need not be a valid widget id
        lead: dict[str, Combatant] = {}  # copies sharing one initiative: the first one's field is theirs
        for i, c in enumerate(f.combatants):
            widgets: list[Widget] = []
            first = lead.setdefault(c.group, c) if c.group else c
            if ui.start_rolls:
                widgets.append(ListTick(Text("surprised"), group=self.surprised_list, row=i, id=f"surprised-{i}"))
                if first is not c:
                    widgets.append(Static(Text("with ") + literal(first.name), classes="with"))
                elif not (ui.companions and c.owner):  # a companion acts on its owner's initiative
                    widgets.append(field(placeholder=self.hint(c), id=f"init-{i}", number=True))
            name = literal(c.name)
            if typed is not None and any(w.id == f"init-{i}" for w in widgets):
                yield self.shown_row(name, *widgets, slot=str(i))
            else:
                yield Horizontal(Static(name, classes="label"), *widgets, classes="row")
        line = self.difficulty()
        if line is not None:
            yield line

    @property
    def focus_chain(self) -> list[Widget]:
        """Tab walks the dice down the list, then onto the surprised boxes (one stop: up/down move
        between them): "15", tab, "12" gives the next combatant its die (a box between them took
        the 12 and lost it)."""
        chain = super().focus_chain
        head: list[Widget] = []
        dice: list[Widget] = []
        ticks: list[Widget] = []
        tail: list[Widget] = []
        for w in chain:
            wid = w.id or ""
            if wid.startswith("init-"):
                dice.append(w)
            elif wid.startswith("surprised-"):
                ticks.append(w)
            else:
                (tail if dice or ticks else head).append(w)
        return head + dice + ticks + tail

    def hint(self, c: Combatant) -> str:
        """What an initiative field takes: the die or the total; the table's, or optional; for all
        the copies that share it."""
        what = "total" if self.typed_mode == "total" else "die"
        many = sum(1 for x in self.fight.combatants if x.group == c.group) if c.group else 1
        what += f" for all {many}" if many > 1 else ""
        return f"the table's {what}" if table_rolls(self.fight, c.id) else f"{what} (optional)"

    def slot(self, cid: str) -> int:
        """The position of combatant `cid`: its fields' ids are "surprised-<slot>" and "init-<slot>"."""
        return next(i for i, c in enumerate(self.fight.combatants) if c.id == cid)

    def on_mount(self) -> None:
        self.refresh_shown()
        # the table rolls for a side: the cursor starts on the first die to type
        f = self.fight
        first = next(
            (i for i, c in enumerate(f.combatants) if self.query(f"#init-{i}") and table_rolls(f, c.id)), None
        )
        if first is not None:
            self.query_one(f"#init-{first}", Input).focus()
            return
        # otherwise the first combatant's die, so tab walks down the list's dice as it is on screen,
        # then its surprised boxes (starting on the Start button sent the first tab to Cancel);
        # enter still starts from any
        fields = self.query("#fields Input")
        first = fields.first() if fields else self.surprised_list.stop()
        if first is not None:
            first.focus()
        else:
            self.query_one("#ok", Button).focus()

    def refresh_shown(self) -> None:
        if not self.query("#init_typed"):
            return
        for i, c in enumerate(self.fight.combatants):
            if self.query(f"#init-{i}"):
                self.show_initiative(str(i), c, self.value(f"init-{i}"))

    @on(Input.Changed)
    def _typed(self, event: Input.Changed) -> None:
        wid = event.input.id or ""
        if wid.startswith("init-") and self.query("#init_typed"):
            i = int(wid[5:])
            self.show_initiative(str(i), self.fight.combatants[i], event.value)

    @on(Choice.Changed, "#init_typed")
    def _mode(self) -> None:
        if self.is_mounted:
            self.refresh_shown()
            for i, c in enumerate(self.fight.combatants):
                for w in self.query(f"#init-{i}").results(Input):
                    w.placeholder = self.hint(c)

    def build(self) -> Command:
        f = self.fight
        surprised = []
        initiative = []
        totals = []
        for i, c in enumerate(f.combatants):
            if self.query(f"#surprised-{i}") and self.checked(f"surprised-{i}"):
                surprised.append(c.id)
            if self.query(f"#init-{i}"):
                given = typed_initiative(self.value(f"init-{i}"), self.typed_mode, f"{clean(c.name)}'s initiative")
                self.require_dice(c.id, "initiative", f"init-{i}")
                if given is not None and given.total is not None:
                    totals.append((c.id, given.total))
                elif given is not None and given.dice is not None:
                    initiative.append((c.id, given.dice))
        return C.StartFight(tuple(initiative), tuple(surprised), totals=tuple(totals))


class InitiativeDialog(TypedInitiative):
    OK = "Set"
    TYPED_DEFAULT = "total"

    def heading(self) -> Text:
        c = self.target
        what = self.ui.initiative_title
        return Text(f"{what} and place in the order: ") + literal(c.name)

    def fields(self) -> ComposeResult:
        c = self.target
        f = self.fight
        pos = f.order.index(c.id) + 1 if c.id in f.order else 1
        self._pos = pos
        # the field holds the current value: a total, whatever the start dialog was typed in
        typed = self.typed_row("total")
        if typed is not None:
            yield typed
        init = field("" if c.initiative is None else str(c.initiative), id="initiative")
        yield self.shown_row("Initiative", init, slot="initiative")
        yield row(f"Place (1-{len(f.order)})", field(str(pos), id="position", number=True))
        fellows = self.fellows()
        if fellows:
            # they move with it unless it leaves them (docs/commands.md, `initiative`'s `alone`)
            others = "the other" if len(fellows) == 1 else f"the other {len(fellows)}"
            yield row("Shared initiative", Tick(Text(f"on its own (leaves {others})"), id="alone", compact=True))

    def fellows(self) -> list[Combatant]:
        """The copies sharing its initiative (which a change moves along), itself left out."""
        c = self.target
        return [x for x in self.fight.combatants if c.group and x.group == c.group and x.id != c.id]

    def on_mount(self) -> None:
        self.refresh_shown()
        self.query_one("#initiative", Input).focus()

    def remembered(self) -> list[Command]:
        return []  # it opens on the total (the value it shows): the start dialog's choice stays

    def refresh_shown(self) -> None:
        if self.query("#init_typed"):
            self.show_initiative("initiative", self.target, self.value("initiative"))

    @on(Input.Changed, "#initiative")
    @on(Choice.Changed, "#init_typed")
    def _typed(self) -> None:
        if self.is_mounted:
            self.refresh_shown()

    def build(self) -> list[Command]:
        c = self.target
        f = self.fight
        out: list[Command] = []
        given = typed_initiative(self.value("initiative"), self.typed_mode, "Initiative")
        init: int | None = None
        if given is not None and given.total is not None:
            init = given.total
        elif given is not None:
            # the die as the ruleset reads it (its bonus added, Warhammer's SL worked out)
            init, _, _, _ = self.rules.roll_initiative(c, given, f.rng)
        alone = bool(self.query("#alone")) and self.checked("alone")
        if alone:
            value = init if init is not None else c.initiative
            if value is None:
                raise FormError("Initiative: give the one it takes on its own.")
            out.append(C.SetInitiative(c.id, value, alone=True))
        elif init is not None and init != c.initiative:
            out.append(C.SetInitiative(c.id, init))
        pos = parse_int(self.value("position"), "Place", 1, max(1, len(f.order)))
        if pos != self._pos:
            out.append(C.Reorder(c.id, pos - 1))  # after a new initiative, so the GM's place wins
        if not out:
            raise FormError("Nothing changed.")
        return out


