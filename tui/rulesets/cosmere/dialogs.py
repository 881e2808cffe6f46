"""Cosmere's dialogs: the attack and its outcome, fast or slow, a fall, dangerous terrain and granted
actions. Imported when one opens."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from msgspec.structs import replace
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.widgets import Checkbox, Input, OptionList, Static
from textual.widgets.option_list import Option

import engine.library as L
from engine import RuleError, apply
from engine.commands import Command
from engine.rules.cosmere.combat import (
    DEFENSES,
    CosmereAttack,
    CosmereAttackRolled,
    EnterTerrain,
    Fall,
    Grant,
    TargetResult,
    attack_preview,
)
from engine.rules.cosmere.commands import ChooseSpeed, StartTurn
from tui.attack import MODES, AttackBase, pct
from tui.dialogs import (
    Choice,
    Dialog,
    FormError,
    RulesDialog,
    Tick,
    field,
    name_of,
    parse_given,
    parse_int,
    picker_order,
    row,
    send,
    table_rolls,
    words,
)
from tui.dialogs.fields import ListTick, TickList
from tui.text import clean, literal

if TYPE_CHECKING:
    import engine.library as L

# --- Cosmere ---------------------------------------------------------------------------------------


def parse_feet(text: str) -> tuple[int, ...]:
    """Distances in feet: one number for every target, or one per target ('30 45')."""
    s = text.strip()
    if not s:
        return ()
    parts = [p for p in re.split(r"[\s,]+", s) if p]
    if not all(p.isdigit() for p in parts):
        raise FormError(f"Distance: give feet, like 30, or one per ticked target: 30 45; not '{clean(s)}'.")
    return tuple(int(p) for p in parts)


class TargetTick(ListTick):
    """A box of the targets list (tui/dialogs/fields.py TickList): a target's box, or its cannot-sense
    box beside it. `a` lists the attacker's allies too, or hides them again."""

    BINDINGS = [Binding("a", "screen.allies", "Allies too", show=False, id="target_allies")]


TARGETS_LABEL = "Targets (space)"


class CosmereAttackDialog(AttackBase):
    """One test and one damage roll against one or several targets; the choices come after the roll."""

    REMEMBERED = ("modifier", "damage", "type", "defense", "kind", "label", "range")
    # a miss may still graze: the damage dice are needed whenever the dry run rolls them
    ON_A_HIT = {
        "damage_given": (
            "each die: 6, or 3 5",
            "on a hit or a graze: each die, 6 or 3 5",
            "a hit or a graze: each damage die rolled, 6 or 3 5",
        )
    }
    HINT = "enter: roll · up/down, space: targets · a: allies · tab: next · esc: cancel"

    def dice_row(self) -> Horizontal:
        if self.dice_first:
            return row("Table d20", field(placeholder="the d20 rolled: 14, or 17 5", id="given"), id="r-given")
        typed = field(placeholder="empty: the app rolls; 14, or 17 5", id="given")
        return row("Table d20 (optional)", typed, id="r-given")

    def attack_types(self) -> tuple[type, ...]:
        return (CosmereAttack,)

    def recall(self, cmd: Any) -> dict[str, Any]:
        return {
            "modifier": str(cmd.modifier),
            "damage": cmd.damage,
            "type": cmd.type,
            "defense": cmd.defense,
            "kind": cmd.kind,
            "label": cmd.label,
            "range": cmd.range,
        }

    def weapon_values(self, sb: L.Statblock, attack: Any) -> tuple[dict[str, Any], dict[str, Any]]:
        f = L.attack_fields(sb, attack)
        widgets = {
            "modifier": str(f["modifier"]),
            "damage": f["damage"],
            "type": f["type"],
            "defense": f["defense"],
            "kind": f["kind"],
            "range": f["range"],
            "label": f["label"],
        }
        return widgets, {"action": f["action"], "cost": f["cost"]}

    def _allies(self, who: str) -> list[tuple[str | Text, str]]:
        """Who can be the ally next to the target: the others on the attacker's side."""
        me = self.fight.find(who)
        side = me.side if me is not None else None
        out: list[tuple[str | Text, str]] = [("none", "")]
        out += [(literal(c.name), c.id) for c in self.fight.combatants if c.side == side and c.id != who]
        return out

    def prefilled(self) -> None:
        # the ally is someone on the attacker's side: the list follows the attacker
        ch = self.query_one("#ally", Choice)
        opts = self._allies(self.attacker)
        if [v for _, v in opts] != [v for _, v in ch.options]:
            keep = ch.value
            with self.prevent(Choice.Changed):
                ch.options = opts
                ch.set_reactive(Choice.index, 0)
                ch.value = keep
            ch.refresh()

    @on(Choice.Changed, "#attacker")
    def _not_self(self, event: Choice.Changed) -> None:
        # another attacker: it is not its own target (the box ticked for the first one's foe may be
        # it), and its foes are others: the rows follow; with no target left, its first standing foe
        box = self.box("t", event.choice.value)
        if box is not None:
            box.value = False
        self._show_rows()
        if not any(b.value for b in self.target_boxes("t")):
            first = self.box("t", self.first_foe(self.attacker))
            if first is not None:
                first.value = True

    # --- the targets: the attacker's foes, its allies only when the GM asks (key a) ----------------
    show_allies = False

    def is_ally(self, cid: str, attacker: str | None = None) -> bool:
        """On the attacker's side (the attacker itself is no target at all)."""
        me = self.fight.find(attacker or self.attacker)
        c = self.fight.find(cid)
        return me is not None and c is not None and c.side == me.side

    def first_foe(self, attacker: str) -> str:
        return next((c.id for c in picker_order(self.fight) if not c.down and not self.is_ally(c.id, attacker)), "")

    def row_shown(self, cid: str, attacker: str | None = None) -> bool:
        who = attacker or self.attacker
        return cid != who and (self.show_allies or not self.is_ally(cid, who))

    def _show_rows(self) -> None:
        """The rows shown follow the attacker and the allies key; a row that goes is unticked (a
        hidden box must not make anyone a target unseen)."""
        for cid in self._slots:
            box = self.box("t", cid)
            if box is None or box.parent is None:
                continue
            shown = self.row_shown(cid)
            box.parent.display = shown
            if not shown:
                for b in box.parent.query(TargetTick).results(TargetTick):
                    b.value = False
        self.query_one("#allies-note", Static).update(self._allies_note())
        self._label_targets()

    def _allies_note(self, attacker: str | None = None) -> Text:
        who = attacker or self.attacker
        n = sum(1 for cid in self._slots if cid != who and self.is_ally(cid, who))
        if not n:
            return Text("")
        if self.show_allies:
            return Text("  the attacker's allies are listed too (a on the list hides them)", style="dim")
        return Text(f"  {n} of the attacker's allies not listed (a on the list lists them)", style="dim")

    def action_allies(self) -> None:
        self.show_allies = not self.show_allies
        self._show_rows()
        focused = self.focused
        if isinstance(focused, TargetTick) and not focused.parent.display:  # type: ignore[union-attr]
            stop = self.target_list.stop()  # its row went: the list's first box shown
            if stop is not None:
                stop.focus()

    def _label_targets(self) -> None:
        first = True
        for r in self.query(".target-row"):
            label = r.query_one(".label", Static)
            text = Text(TARGETS_LABEL if first and r.display else "")
            if r.display:
                first = False
            marked = getattr(self, "_marked", None)
            if marked is not None and marked[0] is label:  # the focused row's label: keep the mark on it
                self._marked = (label, text)
                label.update(Text(self.FOCUS_MARK) + text)
            elif str(label.content) != text.plain:
                label.update(text)

    def target_boxes(self, kind: str = "t") -> list[Tick]:
        """The boxes of one kind ("t" target, "u" cannot sense) in the rows shown, top to bottom."""
        return [
            box
            for r in self.query(".target-row")
            if r.display
            for box in r.query(TargetTick).results(TargetTick)
            if (box.id or "").startswith(f"{kind}-")
        ]

    def fields(self) -> ComposeResult:
        hint = self.ON_A_HIT["damage_given"][1 if self.dice_first else 0]
        dgiven = row("Table damage dice", field(placeholder=hint, id="damage_given"), id="r-dgiven")
        if self.dice_first:
            # the table's dice first: whom it hits shows before anything else, the damage dice (needed
            # on a hit or a graze) just below, always there, with the attacker and targets in sight
            yield self.dice_row()
            yield dgiven
        yield self.weapon_row()
        yield self.attacker_row()
        first = self.default_target()  # the one picked in the tracker, else the first standing foe
        # the boxes' ids are positions: a combatant id comes from a file and need not be a valid id
        self._slots = {c.id: i for i, c in enumerate(self.fight.combatants)}
        # the foes are listed, the attacker's allies only when the GM asks (or picked one in the tracker)
        self.show_allies = bool(first) and self.is_ally(first, self.who)
        self.target_list = TickList()  # one tab stop; up/down between the rows, left/right in a row
        labelled = False
        # the foes first, standing then downed; the allies (listed on `a`) after them, not among them
        listed = sorted(picker_order(self.fight), key=lambda c: self.is_ally(c.id, self.who))
        for n, c in enumerate(listed):
            i = self._slots[c.id]
            shown = self.row_shown(c.id, self.who)
            row_of = Horizontal(
                # the first row shown says what the boxes are; each row's label carries the focus mark
                Static(Text(TARGETS_LABEL if shown and not labelled else ""), classes="label"),
                TargetTick(literal(c.name), c.id == first, group=self.target_list, row=n, id=f"t-{i}"),
                TargetTick("cannot sense it", group=self.target_list, row=n, col=1, id=f"u-{i}"),
                classes="row target-row",
            )
            labelled = labelled or shown
            row_of.display = shown
            yield row_of
        yield Static(self._allies_note(self.who), id="allies-note", classes="wide-label")
        yield row("Skill modifier", field("0", id="modifier", number=True))
        yield row("Damage dice", field(placeholder="1d8 (empty: no damage)", id="damage"))
        yield row("Damage type", field(placeholder="keen, impact, ... (optional)", id="type"))
        yield row("Against", Choice([(f"{v} defense", k) for k, v in DEFENSES.items()], id="defense"))
        yield row("Melee or ranged", Choice([("melee", "melee"), ("ranged", "ranged")], id="kind"))
        yield row("Range or reach (ft)", field(placeholder="empty: reach 5 (melee); ranged: 20/60", id="range"))
        yield row("Distance (ft)", field(placeholder="empty: not judged; 30, or one per target: 30 45", id="distance"))
        uses: list[tuple[str | Text, str]] = [
            ("Strike (1 action)", "action"),
            ("Reactive Strike (reaction, 1 focus)", "reaction"),
            ("already paid for", "none"),
        ]
        yield row("Spends", Choice(uses, id="use"))
        yield row("Weapon (for the log)", field(placeholder="spear", id="label"))
        yield row(
            "Ranged, and",
            Tick("in a foe's reach", id="in_reach", compact=True),
            Tick("long range", id="long_range", compact=True),
            Tick("unstable", id="unstable", compact=True),
        )
        yield row("Ranged, next to ally", Choice(self._allies(self.who), "", id="ally"))
        yield row("More advantage", field(placeholder="(commas)", id="adv"))
        yield row("More disadvantage", field(placeholder="(commas)", id="dis"))
        yield row("Roll", Choice(MODES, id="mode"))
        if not self.dice_first:
            yield self.dice_row()
            yield dgiven

    def box(self, kind: str, cid: str) -> Tick | None:
        """The target box ("t") or cannot-sense box ("u") of combatant `cid`, if it has one."""
        i = getattr(self, "_slots", {}).get(cid)
        found = self.query(f"#{kind}-{i}") if i is not None else None
        return found.first(Tick) if found else None

    def ticked(self, kind: str, cid: str) -> bool:
        box = self.box(kind, cid)
        return box is not None and box.value

    def initial_focus(self) -> None:
        if table_rolls(self.fight, self.who):
            super().initial_focus()
            return
        # the targets come first: tick them with space, tab to move on; the cursor starts on the
        # first standing foe's box
        foe = self.box("t", self.default_target())
        first = foe if foe is not None and self.row_shown(self.default_target()) else self.target_list.stop()
        if first is not None:
            first.focus()

    def build(self) -> Command:
        everyone = [c.id for c in self.fight.combatants]
        targets = tuple(cid for cid in everyone if self.ticked("t", cid))
        if not targets:
            raise FormError("Tick at least one target.")
        unsensed = tuple(cid for cid in targets if self.ticked("u", cid))
        return CosmereAttack(
            self.attacker,
            targets,
            defense=self.choice("defense"),
            modifier=parse_int(self.value("modifier"), "Skill modifier", -100, 100),
            damage=self.value("damage").strip(),
            type=self.value("type").strip(),
            kind=self.choice("kind"),
            use=self.choice("use"),
            # a statblock attack names its action and cost (a Strike costs 1); typed: a Strike
            action=self.picked.get("action", "Strike") if self.weapon_picked else "Strike",
            cost=self.picked.get("cost", 1) if self.weapon_picked else 1,
            label=self.value("label").strip(),
            in_reach=self.checked("in_reach"),
            long_range=self.checked("long_range"),
            unstable=self.checked("unstable"),
            unsensed=unsensed,
            advantage=words(self.value("adv")),
            disadvantage=words(self.value("dis")),
            mode=self.choice("mode"),
            given=parse_given(self.value("given")),
            damage_given=parse_given(self.value("damage_given")),
            range=self.value("range").strip(),
            distance=parse_feet(self.value("distance")),
            ally=self.choice("ally") or "",
        )

    def odds(self) -> Text:
        cmd: Any = replace(self.build(), given=None, damage_given=None)  # type: ignore[type-var]
        odds = attack_preview(self.fight, cmd)  # refuses a target out of reach or range
        feet = cmd.distance * len(cmd.targets) if len(cmd.distance) == 1 else cmd.distance
        far = dict(zip(cmd.targets, feet, strict=False))
        t = Text()
        for i, o in enumerate(odds):
            if i:
                t.append("\n")
            t.append_text(literal(o.name))
            if o.target in far:
                t.append(f" at {far[o.target]} ft", style="dim")
            t.append(f": hit {pct(o.p_hit)}", style="bold")
            t.append(f" vs {o.defense}", style="dim")
            if o.mode != "normal":
                t.append(f" ({o.mode})", style="dim")
            if not o.can_graze:
                t.append(", no graze", style="dim")
            t.append_text(self.sources_text(o.advantages, o.disadvantages))
        t.append_text(self.landing())
        t.append_text(self.no_damage_note(cmd.damage))
        if cmd.ally:
            t.append("\nnext to ")
            t.append_text(name_of(self.fight, cmd.ally))
            t.append(": the stakes are raised (plot die); on a miss a Complication may graze them", style="dim")
        return t

    def dry_run(self, cmd: Any) -> tuple[Any, ...]:
        """The attack's events as the typed dice leave them, without the after-roll choices."""
        _, events = apply(self.fight, replace(cmd, graze=(), critical=False))
        return events

    def landing(self) -> Text:
        """Whom the typed d20 hits, shown before the damage dice are asked for (only if it hits or
        may graze: otherwise the attack goes with no damage roll)."""
        cmd = self.build()
        if cmd.given is None:
            return Text("")
        events = self.dry_run(replace(cmd, damage_given=None))
        rolled = next((e for e in events if isinstance(e, CosmereAttackRolled)), None)
        self.landed = rolled is not None and rolled.damage is not None
        t = Text(f"\nThe table's roll {rolled.test.total if rolled else '?'}: ")
        for i, r in enumerate(e for e in events if isinstance(e, TargetResult)):
            if i:
                t.append(", ")
            t.append_text(literal(r.target_name))
            t.append(" ")
            t.append(r.outcome.upper(), style="bold reverse")
        if table_rolls(self.fight, self.attacker) and cmd.damage:
            then = "type the damage dice" if self.landed else "no damage: enter sends it"
            t.append(f" · {then}", style="bold")
        return t

    def action_submit(self) -> None:
        try:
            self.require_table_dice()
            cmd = self.build()
            # a dry run without the choices (like outcome_preview), keeping the damage roll to show it
            events = self.dry_run(cmd)
            damage = any(isinstance(e, CosmereAttackRolled) and e.damage is not None for e in events)
            if damage and not self.value("damage_given").strip() and table_rolls(self.fight, self.attacker):
                self.landed = True
                self.show_on_hit()
                self.query_one("#damage_given", Input).focus()
                raise FormError(f"It hits (or may graze): now type the damage dice rolled ({cmd.damage}).")
        except (FormError, RuleError) as exc:
            self.show_error(str(exc))
            return
        results = tuple(e for e in events if isinstance(e, TargetResult))
        rolled = next((e for e in events if isinstance(e, CosmereAttackRolled)), None)
        dice = rolled.damage.total if rolled is not None and rolled.damage is not None else 0
        self.dismiss()
        self.app.push_screen(CosmereOutcomeDialog(cmd, results, dice))


class CosmereOutcomeDialog(Dialog):
    """The roll is made (not yet committed): graze missed targets for focus, crit with an Opportunity."""

    def __init__(self, cmd: Any, results: tuple[Any, ...], dice: int = 0) -> None:
        super().__init__(cmd.who)
        self.cmd = cmd
        self.results = results
        self.dice = dice  # the damage dice's total: what a graze deals

    def heading(self) -> Text:
        return Text("The roll: choose graze and critical, then apply")

    def fields(self) -> ComposeResult:
        a = self.target
        focus = a.pool("focus")
        have = focus.current if focus else 0
        for i, r in enumerate(self.results):
            line = literal(r.target_name)
            line.append(f": {r.total} vs {r.defense} (d20 {r.natural}) ")
            line.append("HIT" if r.outcome == "hit" else "miss", style="bold")
            if r.outcome == "hit":
                line.append(f", {r.damage} damage")
            yield Static(line, classes="wide-label")
            if r.outcome == "miss" and r.sensed and self.cmd.damage:
                # each box in a labelled row: the label carries the focus mark like any field's
                label = f"graze it: 1 focus (of {have}), {self.dice} damage"
                yield row("Graze", Tick(label, id=f"g-{i}", compact=True))  # a position: ids never come from data
        if any(r.outcome == "hit" for r in self.results):
            yield row("Critical", Tick("spend an Opportunity: the dice at maximum", id="critical", compact=True))
        if self.cmd.ally and self.cmd.damage and any(r.outcome == "miss" for r in self.results):
            ally = self.fight.find(self.cmd.ally)
            label = literal(ally.name) if ally is not None else Text("?")
            label.append(f" takes {self.dice} damage, no focus (a Complication)")
            yield row("Ally grazed", Tick(label, id="ally_graze", compact=True))

    def on_mount(self) -> None:
        boxes = self.query(Checkbox)
        if boxes:
            boxes.first().focus()
        else:
            self.query_one("#ok").focus()

    def graze_box(self, cid: str) -> Tick | None:
        """The graze box of target `cid` (ids are positions in the results)."""
        i = next((i for i, r in enumerate(self.results) if r.target == cid), None)
        found = self.query(f"#g-{i}") if i is not None else None
        return found.first(Tick) if found else None

    def build(self) -> Command:
        graze = tuple(r.target for i, r in enumerate(self.results) if self.query(f"#g-{i}") and self.checked(f"g-{i}"))
        critical = bool(self.query("#critical")) and self.checked("critical")
        ally_graze = bool(self.query("#ally_graze")) and self.checked("ally_graze")
        return replace(self.cmd, graze=graze, critical=critical, ally_graze=ally_graze)


# --- the turn and the rest ----------------------------------------------------------------------


class SpeedDialog(Dialog):
    OK = "Choose"
    HINT = "enter: choose the highlighted one · esc: cancel"
    CHOICES = (
        ("Fast turn (2 actions)", "fast", False),
        ("Slow turn (3 actions)", "slow", False),
        ("Undecided", "", False),
        ("Fast, and take the turn now", "fast", True),
        ("Slow, and take the turn now", "slow", True),
    )

    def heading(self) -> Text:
        return Text("Fast or slow this round: ") + literal(self.target.name)

    def fields(self) -> ComposeResult:
        # in a labelled row: the label carries the focus mark like any other field's
        speeds = OptionList(*[Option(label, id=str(i)) for i, (label, _, _) in enumerate(self.CHOICES)], id="speeds")
        yield row("This round", speeds)

    def on_mount(self) -> None:
        ol = self.query_one("#speeds", OptionList)
        current = self.target.economy.speed
        if not current:
            # undecided: offer what is still possible (fast turns pass once the fast phases have)
            fast_phase = 0 if self.target.kind == "pc" else 1
            current = "fast" if self.fight.phase <= fast_phase else "slow"
        ol.highlighted = next((i for i, (_, s, now) in enumerate(self.CHOICES) if s == current and not now), 0)
        ol.focus()

    @on(OptionList.OptionSelected)
    def _picked(self) -> None:
        self.action_submit()

    def build(self) -> Command:
        i = self.query_one("#speeds", OptionList).highlighted or 0
        _, speed, now = self.CHOICES[i]
        if now:
            return StartTurn(self.who, speed)  # type: ignore[arg-type]
        return ChooseSpeed(self.who, speed)  # type: ignore[arg-type]


class CosmereFallDialog(RulesDialog):
    OK = "Fall"
    TITLE = "A fall: 1d6 impact per full 10 ft, Prone if it hurts"

    def fields(self) -> ComposeResult:
        yield self.who_row()
        yield row("Feet", field(placeholder="how far: 30", id="feet", number=True))
        yield row("Table d6s (optional)", field(placeholder="one per full 10 ft: 4 2 6", id="given"))
        yield row("Or the total", field(placeholder="the total called out (optional)", id="total", number=True))

    def initial_focus(self) -> None:
        self.query_one("#feet", Input).focus()  # the height says how many dice: it comes first

    def build(self) -> Command:
        feet = parse_int(self.value("feet"), "Feet", 0, 10_000)
        given, total = self.given_or_total(f"{feet // 10}d6" if feet >= 10 else "")
        return Fall(self.subject, feet, given, total)


class CosmereTerrainDialog(RulesDialog):
    OK = "Move in"
    TITLE = "Into dangerous terrain: its damage now and at the start of each turn there"

    def fields(self) -> ComposeResult:
        yield self.who_row()
        yield row("Damage dice", field(placeholder="the terrain's damage: 1d4", id="damage"))
        yield row("Terrain (for the log)", field(placeholder="dangerous terrain", id="label"))
        yield row("Table dice (optional)", field(placeholder="the damage dice rolled: 3", id="given"))
        yield row("Or the total", field(placeholder="the total called out (optional)", id="total", number=True))

    def initial_focus(self) -> None:
        self.query_one("#damage", Input).focus()  # the dice to roll come before the dice rolled

    def build(self) -> Command:
        damage = self.value("damage").strip()
        if not damage:
            raise FormError("The terrain's damage: give dice like 1d4.")
        given, total = self.given_or_total(damage)
        label = self.value("label").strip() or "dangerous terrain"
        return EnterTerrain(self.subject, damage, label, given, total)


class CosmereGrantDialog(RulesDialog):
    OK = "Grant"
    TITLE = "A talent grants more actions (on its own turn) or reactions"

    def fields(self) -> ComposeResult:
        counts: list[tuple[str | Text, int]] = [(str(n), n) for n in range(4)]
        mine = self.fight.current == self.who  # actions are gained on one's own turn, reactions any time
        yield self.who_row()
        yield row("More actions", Choice(counts, 1 if mine else 0, id="actions"))
        yield row("More reactions", Choice(counts, 0 if mine else 1, id="reactions"))
        yield row("Talent (for the log)", field(placeholder="what grants them (optional)", id="label"))

    def initial_focus(self) -> None:
        self.query_one("#actions", Choice).focus()

    def build(self) -> Command:
        return Grant(self.subject, self.choice("actions"), self.choice("reactions"), self.value("label").strip())


def take_turn(screen: Any, who: str) -> None:
    """ "Take the turn now" opens nothing: the command goes (asking first for the start-of-turn dice
    the table rolls)."""
    send(screen.fracas, StartTurn(who))
