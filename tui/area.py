"""The dialog that damages or heals several combatants with one roll (an area spell, a channel): key `D`,
palette "Damage or heal several".

One command (engine.area.AreaEffect), so one undo step takes back the roll and every target's share.
The targets are a checklist, standing combatants first, the selected one ticked (unless it is the
one making the effect). Where the ruleset rolls a save for each target (d20), the targets whose side
the table rolls for get a field for the save's total and the app rolls the others; elsewhere, and
with no save, each target has a box for the GM's call that it takes half.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widget import Widget
from textual.widgets import Input, Static

import engine.library as L
from engine.area import AreaEffect, AreaTarget
from engine.commands import Command
from engine.library.abilities import LEGENDARY_RESISTANCE, Ability, ability_label, spend_of
from engine.mechanics import AREA_SAVES
from engine.state import Combatant, Fight
from tui.dialogs import (
    SIDE_WORDS,
    Choice,
    Dialog,
    FormError,
    amount_or_dice,
    combatant_options,
    field,
    optional_int,
    parse_given,
    picker_order,
    row,
    table_rolls,
)
from tui.dialogs.fields import ListTick, TickList
from tui.text import clean, literal, span


def save_key(f: Fight, save: str) -> str:
    """The area dialog's key for the ability's save ("dex", "Dexterity"); "" when the ruleset has
    no such save (the GM then marks who takes half)."""
    saver = AREA_SAVES.get(f.ruleset)
    if saver is None or not save:
        return ""
    low = save.strip().casefold()
    for k in saver.keys:
        if low in (k.casefold(), saver.name(k).casefold()) or saver.name(k).casefold().startswith(low):
            return k
    return ""


def dc_of(f: Fight, who: str, a: Ability) -> int:
    """The ability's DC, or for a spell without its own its caster's spell save DC."""
    if a.dc or a.level < 0:
        return a.dc
    c = f.find(who)
    sb = L.statblock_of(f.ruleset, c) if c is not None else None
    sc = getattr(sb, "spellcasting", None)
    return sc.dc if sc is not None else 0


class AreaDialog(Dialog):
    """Damage or heal several: the amount or dice once, a save for half, a box per target."""

    DEFAULT_CSS = """
    AreaDialog .label.mark { width: 2; }
    AreaDialog .label.inline { width: 4; }
    AreaDialog .target Tick { width: 1fr; }
    AreaDialog .target Input { width: 22; }
    AreaDialog .target .rolled { width: 22; color: $text-muted; }
    AreaDialog Tick:focus { text-style: bold reverse; }
    AreaDialog .target .lr { width: 10; }
    """
    OK = "Apply"
    HINT = "enter: apply · up/down, space: targets · tab: next field · esc: cancel"

    def __init__(self, who: str = "", ability: Ability | None = None, user: str = "") -> None:
        super().__init__(who)
        f = self.fight
        self.source = user or (f.current if f.current and f.find(f.current) else "")
        # standing first, then the downed (a heal may be for them), each in turn order
        self.targets: list[Combatant] = [c for c in picker_order(f) if c.health]
        # a statblock's ability (Fire Breath) fills the fields in; its user's foes are ticked when it
        # may catch several, else the target selected (tui/abilities.py)
        self.ability = ability
        self.ticked = self._ticked(ability, who)
        self.target_list = TickList()  # the targets' boxes: one tab stop, up/down between them

    @property
    def focus_chain(self) -> list[Widget]:
        # tab comes onto the target list before the save totals beside it (whichever row it is on)
        return self.target_list.place(super().focus_chain)

    def _ticked(self, ability: Ability | None, who: str) -> frozenset[str]:
        if ability is None:
            return frozenset({who} - {self.source})
        user = self.fight.find(self.source)
        foes = [c.id for c in self.targets if not c.down and (user is None or c.side != user.side)]
        if ability.targets != 1:
            return frozenset(foes)
        return frozenset({who} if who and who != self.source else foes[:1])

    @property
    def saves(self) -> tuple[str, ...]:
        """The saves the ruleset rolls for each target (empty: the GM's call per target)."""
        saver = AREA_SAVES.get(self.fight.ruleset)
        return saver.keys if saver is not None else ()

    def heading(self) -> Text:
        a = self.ability
        if a is not None:
            user = self.fight.find(self.source)
            t = literal(f"{user.name if user else '?'}: {ability_label(a)}")
            if a.area:
                t.append(f" ({a.area})", style="dim")
            return t + self.table_note(self.source)
        t = Text("Damage or heal several, with one roll")
        return t + self.table_note(self.source)

    def fields(self) -> ComposeResult:
        # in the order a GM fills them (and tab follows the screen): what it deals, the save, who is
        # hit; then what is usually right already (what it is, who made it, the track, a save's share)
        f = self.fight
        saver = AREA_SAVES.get(f.ruleset)
        a = self.filled()
        yield row("Damage or heal", Choice([("damage", "damage"), ("heal", "heal")], id="mode"))
        yield row("Amount", field(a["amount"], placeholder="a number, or dice: 8d6", id="amount"))
        yield row("Table dice (optional)", field(placeholder="the dice rolled at the table: 4 6 1", id="given"))
        yield row("Damage type", field(a["type"], "fire, cold, ... (optional)", id="type"), id="row-type")
        yield Static(id="type-note", classes="wide-label")  # said before it is dealt: no type, no resistance
        if saver is not None:
            opts: list[tuple[str | Text, str]] = [("no save", "")] + [(saver.name(k), k) for k in saver.keys]
            save = a["save"] if self.ability is not None else (saver.keys[0] if saver.keys else "")
            yield row(
                "Save for half",
                Choice(opts, save, id="save"),
                Static(Text("DC"), classes="label inline"),
                field(a["dc"], placeholder="the save's DC", id="dc", number=True),
                id="row-save",
            )
        if self.ability is not None and self.ability.condition:
            yield row("On a failed save", field(self.ability.condition, "a condition (optional)", id="condition"))
        yield Static(span("Targets (up/down, space ticks):", "bold"), classes="wide-label", id="targets-label")
        for n, c in enumerate(self.targets):
            yield self._target_row(n, c)
        yield row("What (optional)", field(a["label"], "Fireball, a channel's blast, ...", id="label"))
        by = combatant_options(f, "nobody (a trap, a hazard)", standing_first=True)
        yield row("By", Choice(by, self.source, id="by"))
        if any(len(c.health) > 1 for c in self.targets):
            order = self.rules.damage_order
            tracks: list[tuple[str | Text, str]] = [(f"default: {' then '.join(order)}", "")]
            tracks += [(f"{k} first", k) for k in order]
            yield row("Track", Choice(tracks, id="pool"))
        on_save = [("half (rounded down)", False), ("nothing", True)]
        takes = "A save takes" if saver is not None else "A saved target takes"
        yield row(
            takes,
            Choice(on_save, self.ability is not None and self.ability.on_save == "none", id="none"),
            id="row-none",
        )

    def filled(self) -> dict[str, str]:
        """The fields' values from the ability (all empty without one): its damage parts of the
        first part's type (others are dealt by hand: the hint says so), its save, DC and name."""
        a = self.ability
        out = dict.fromkeys(("amount", "type", "save", "dc", "label"), "")
        if a is None:
            return out
        typ = a.damage[0].type if a.damage else ""
        out["amount"] = "+".join(p.dice.replace(" ", "") for p in a.damage if p.type.casefold() in ("", typ.casefold()))
        out["type"] = typ
        out["save"] = save_key(self.fight, a.save)
        dc = dc_of(self.fight, self.source, a)
        out["dc"] = str(dc) if dc else ""
        out["label"] = a.name
        return out

    def _target_row(self, n: int, c: Combatant) -> Horizontal:
        f = self.fight
        label = literal(c.name)
        # several tracks (nine-phase hp and grit) are named, as the damage dialog names them
        many = len(c.health) > 1
        pools = ", ".join(f"{p.key} {p.current}/{p.max}" if many else f"{p.current}/{p.max}" for p in c.health)
        label.append(f"  {pools}" + ("  down" if c.down else ""), style="dim")
        widgets: list = [
            Static("", classes="label mark"),  # where the focus mark goes, for the tick and the field
            ListTick(label, c.id in self.ticked, group=self.target_list, row=n, id=f"hit-{n}"),
            ListTick(Text("saved"), group=self.target_list, row=n, col=1, id=f"saved-{n}", classes="saved"),
        ]
        if self.saves:
            if table_rolls(f, c.id):
                widgets.append(field(placeholder="its save total", id=f"roll-{n}", number=True))
            else:
                widgets.append(Static(span("the app rolls its save", "dim"), classes="rolled", id=f"roll-{n}"))
            resist = c.pool(LEGENDARY_RESISTANCE)
            if resist is not None and resist.current > 0:
                # its choice, should the save fail: one Legendary Resistance turns it into a success
                lr = Text(f"LR {resist.current}")
                widgets.append(ListTick(lr, group=self.target_list, row=n, col=2, id=f"lr-{n}", classes="lr"))
        return Horizontal(*widgets, classes="row target", id=f"target-{n}")

    def on_mount(self) -> None:
        self._show_save_fields()
        self._note_type()
        if self.ability is not None:
            # filled in: what is left is the table's saves, the first of them first (where no save
            # is rolled, the first target's "saved" box, for the GM's call); else enter
            first = [n for n, c in enumerate(self.targets) if c.id in self.ticked]
            for n in first:
                found = self.query(f"#roll-{n}")
                if found and isinstance(found.first(), Input):
                    found.first().focus()
                    return
            if first and not self.query_one(f"#saved-{first[0]}").has_class("hidden"):
                self.query_one(f"#saved-{first[0]}").focus()
                return
            self.query_one("#ok").focus()
            return
        # the field the GM changes every time (the choice above it is "damage" most of the time)
        self.query_one("#amount", Input).focus()

    @on(Input.Submitted)
    def _next_save(self, event: Input.Submitted) -> None:
        """Enter in a target's save field goes on to the next ticked target whose total the table
        still owes (the saves one after another: the total, enter); after the last, it applies."""
        wid = event.input.id or ""
        if not wid.startswith("roll-"):
            return
        for n in range(int(wid.removeprefix("roll-")) + 1, len(self.targets)):
            found = self.query(f"#roll-{n}")
            field = found.first() if found else None
            if isinstance(field, Input) and self.checked(f"hit-{n}") and not field.value.strip():
                event.stop()
                event.prevent_default()  # not the dialog's apply
                field.focus()
                return

    @on(Choice.Changed, "#save")
    @on(Choice.Changed, "#mode")
    def _save_changed(self) -> None:
        self._show_save_fields()
        self._note_type()

    @on(Input.Changed, "#amount")
    @on(Input.Changed, "#type")
    def _note_type(self) -> None:
        """Damage with no type is dealt untyped: said under the field, as the attack dialogs say it."""
        dealt = self.choice("mode") != "heal" and bool(self.value("amount").strip())
        untyped = dealt and not self.value("type").strip()
        note = "No damage type: dealt untyped (no resistance or immunity applies)." if untyped else ""
        self.query_one("#type-note", Static).update(span(note, "bold"))
        self.query_one("#type-note").display = untyped

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
        for w in self.query(".lr"):
            w.set_class(heal or not rolled, "hidden")
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
        condition = self.value("condition").strip() if self.query("#condition") and not heal else ""
        amount: int | None
        if condition and not self.value("amount").strip():
            amount, dice = None, ""  # a save against a condition alone (Hold Person): no damage
        else:
            amount, dice = amount_or_dice(self.value("amount"), what)
        given = parse_given(self.value("given"))
        if given is not None and not dice:
            raise FormError("Table dice go with a dice expression (like 8d6), not a plain number.")
        source = str(self.choice("by") or "")
        self.require_dice(source, dice)
        save = self._save_key()
        dc = optional_int(self.value("dc"), "DC", 1, 100) if save else None
        none = bool(self.choice("none")) and not heal
        targets = self._ticked_targets(heal, save)
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
            **self._ability_fields(condition),
        )

    def _ticked_targets(self, heal: bool, save: str) -> list[AreaTarget]:
        """Each ticked target: with its save (the table's total, Legendary Resistance should it
        fail) or the GM's call that it takes half."""
        targets: list[AreaTarget] = []
        for n, c in enumerate(self.targets):
            if not self.checked(f"hit-{n}"):
                continue
            if heal:
                targets.append(AreaTarget(c.id))
            elif save:
                lr = bool(self.query(f"#lr-{n}")) and self.checked(f"lr-{n}")
                targets.append(AreaTarget(c.id, total=self._table_total(n, c), legendary=lr))
            else:
                targets.append(AreaTarget(c.id, saved=True if self.checked(f"saved-{n}") else None))
        if not targets:
            raise FormError("Tick at least one target (space ticks the one under the cursor).")
        return targets

    def _ability_fields(self, condition: str) -> dict[str, Any]:
        """What the statblock's ability adds: its name for the log, what it spends, its part of the
        turn, the condition it gives those who fail."""
        a = self.ability
        out: dict[str, Any] = {"condition": condition} if condition else {}
        if a is not None:
            out.update(ability=a.name, spend=spend_of(a), act=a.act, cost=a.cost)
        return out

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
