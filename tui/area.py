"""The dialog that damages or heals several combatants with one roll (an area spell, a channel): key `D`,
palette "Damage or heal several".

One command (engine.area.AreaEffect), so one undo step takes back the roll and every target's share.
The targets are a checklist, standing combatants first, the selected one ticked (unless it is the
one making the effect). Where the ruleset rolls a save for each target (d20), the targets whose side
the table rolls for get a field for the save's total and the app rolls the others; elsewhere, and
with no save, each target has a box for the GM's call that it takes half.
"""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Input, Static

from engine.area import AreaEffect, AreaTarget
from engine.commands import Command
from engine.mechanics import AREA_SAVES
from engine.state import Combatant
from tui.dialogs import (
    SIDE_WORDS,
    Choice,
    Dialog,
    FormError,
    Tick,
    amount_or_dice,
    combatant_options,
    field,
    optional_int,
    parse_given,
    picker_order,
    row,
    table_rolls,
)
from tui.text import clean, literal, span


class AreaDialog(Dialog):
    """Damage or heal several: the amount or dice once, a save for half, a box per target."""

    DEFAULT_CSS = """
    AreaDialog .label.mark { width: 2; }
    AreaDialog .label.inline { width: 4; }
    AreaDialog .target Tick { width: 1fr; }
    AreaDialog .target Input { width: 22; }
    AreaDialog .target .rolled { width: 22; color: $text-muted; }
    AreaDialog Tick:focus { text-style: bold reverse; }
    """
    OK = "Apply"
    HINT = "enter: apply · space: tick a target · tab: next field · esc: cancel"

    def __init__(self, who: str = "") -> None:
        super().__init__(who)
        f = self.fight
        self.source = f.current if f.current and f.find(f.current) else ""
        # standing first, then the downed (a heal may be for them), each in turn order
        self.targets: list[Combatant] = [c for c in picker_order(f) if c.health]

    @property
    def saves(self) -> tuple[str, ...]:
        """The saves the ruleset rolls for each target (empty: the GM's call per target)."""
        saver = AREA_SAVES.get(self.fight.ruleset)
        return saver.keys if saver is not None else ()

    def heading(self) -> Text:
        t = Text("Damage or heal several, with one roll")
        return t + self.table_note(self.source)

    def fields(self) -> ComposeResult:
        # in the order a GM fills them (and tab follows the screen): what it deals, the save, who is
        # hit; then what is usually right already (what it is, who made it, the track, a save's share)
        f = self.fight
        saver = AREA_SAVES.get(f.ruleset)
        yield row("Damage or heal", Choice([("damage", "damage"), ("heal", "heal")], id="mode"))
        yield row("Amount", field(placeholder="a number, or dice: 8d6", id="amount"))
        yield row("Table dice (optional)", field(placeholder="the dice rolled at the table: 4 6 1", id="given"))
        yield row("Damage type", field(placeholder="fire, cold, ... (optional)", id="type"), id="row-type")
        if saver is not None:
            opts: list[tuple[str | Text, str]] = [("no save", "")] + [(saver.name(k), k) for k in saver.keys]
            yield row(
                "Save for half",
                Choice(opts, saver.keys[0] if saver.keys else "", id="save"),
                Static(Text("DC"), classes="label inline"),
                field(placeholder="the save's DC", id="dc", number=True),
                id="row-save",
            )
        yield Static(span("Targets (space ticks):", "bold"), classes="wide-label", id="targets-label")
        for n, c in enumerate(self.targets):
            yield self._target_row(n, c)
        yield row("What (optional)", field(placeholder="Fireball, a channel's blast, ...", id="label"))
        by = combatant_options(f, "nobody (a trap, a hazard)", standing_first=True)
        yield row("By", Choice(by, self.source, id="by"))
        if any(len(c.health) > 1 for c in self.targets):
            order = self.rules.damage_order
            tracks: list[tuple[str | Text, str]] = [(f"default: {' then '.join(order)}", "")]
            tracks += [(f"{k} first", k) for k in order]
            yield row("Track", Choice(tracks, id="pool"))
        on_save = [("half (rounded down)", False), ("nothing", True)]
        takes = "A save takes" if saver is not None else "A saved target takes"
        yield row(takes, Choice(on_save, id="none"), id="row-none")

    def _target_row(self, n: int, c: Combatant) -> Horizontal:
        f = self.fight
        label = literal(c.name)
        # several tracks (nine-phase hp and grit) are named, as the damage dialog names them
        many = len(c.health) > 1
        pools = ", ".join(f"{p.key} {p.current}/{p.max}" if many else f"{p.current}/{p.max}" for p in c.health)
        label.append(f"  {pools}" + ("  down" if c.down else ""), style="dim")
        hit = c.id == self.who and c.id != self.source
        widgets: list = [
            Static("", classes="label mark"),  # where the focus mark goes, for the tick and the field
            Tick(label, hit, id=f"hit-{n}", compact=True),
            Tick(Text("saved"), id=f"saved-{n}", classes="saved", compact=True),
        ]
        if self.saves:
            if table_rolls(f, c.id):
                widgets.append(field(placeholder="its save total", id=f"roll-{n}", number=True))
            else:
                widgets.append(Static(span("the app rolls its save", "dim"), classes="rolled", id=f"roll-{n}"))
        return Horizontal(*widgets, classes="row target", id=f"target-{n}")

    def on_mount(self) -> None:
        self._show_save_fields()
        # the field the GM changes every time (the choice above it is "damage" most of the time)
        self.query_one("#amount", Input).focus()

    @on(Choice.Changed, "#save")
    @on(Choice.Changed, "#mode")
    def _save_changed(self) -> None:
        self._show_save_fields()

    def _save_key(self) -> str:
        if self.choice("mode") == "heal" or not self.query("#save"):
            return ""
        return str(self.choice("save") or "")

    def _show_save_fields(self) -> None:
        heal = self.choice("mode") == "heal"
        rolled = bool(self._save_key())
        for wid in ("#row-type", "#row-save", "#row-none"):
            found = self.query(wid)
            if found:
                found.first().set_class(heal, "hidden")
        if self.query("#dc"):
            self.query_one("#dc").set_class(not rolled, "hidden")
            self.query_one(".label.inline").set_class(not rolled, "hidden")
        for n in range(len(self.targets)):
            # a rolled save decides; otherwise each target's box is the GM's call
            self.query_one(f"#saved-{n}").set_class(heal or rolled, "hidden")
            roll = self.query(f"#roll-{n}")
            if roll:
                roll.first().set_class(heal or not rolled, "hidden")

    def build(self) -> Command:
        heal = self.choice("mode") == "heal"
        what = "healing" if heal else "damage"
        amount, dice = amount_or_dice(self.value("amount"), what)
        given = parse_given(self.value("given"))
        if given is not None and not dice:
            raise FormError("Table dice go with a dice expression (like 8d6), not a plain number.")
        source = str(self.choice("by") or "")
        self.require_dice(source, dice)
        save = self._save_key()
        dc = optional_int(self.value("dc"), "DC", 1, 100) if save else None
        none = bool(self.choice("none")) and not heal
        targets: list[AreaTarget] = []
        for n, c in enumerate(self.targets):
            if not self.checked(f"hit-{n}"):
                continue
            if heal:
                targets.append(AreaTarget(c.id))
            elif save:
                targets.append(AreaTarget(c.id, total=self._table_total(n, c)))
            else:
                targets.append(AreaTarget(c.id, saved=True if self.checked(f"saved-{n}") else None))
        if not targets:
            raise FormError("Tick at least one target (space ticks the one under the cursor).")
        pool = str(self.choice("pool") or "") if self.query("#pool") else ""
        return AreaEffect(
            tuple(targets),
            amount,
            dice,
            given,
            "" if heal else self.value("type").strip(),
            heal,
            pool,
            self.value("label").strip(),
            source,
            save,
            dc,
            none,
        )

    def _table_total(self, n: int, c: Combatant) -> int | None:
        """The save total the table called out for `c`, where the table rolls for its side."""
        found = self.query(f"#roll-{n}")
        if not found or not isinstance(found.first(), Input):
            return None  # the app rolls it
        text = self.query_one(f"#roll-{n}", Input).value
        total = optional_int(text, f"{clean(c.name)}'s save", -100, 200)
        if total is None:
            self.query_one(f"#roll-{n}", Input).focus()
            side = SIDE_WORDS.get(c.kind, "NPCs")
            raise FormError(f"The table rolls for {side}: type {clean(c.name)}'s save total (the app will not).")
        return total
