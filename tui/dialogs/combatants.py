"""Adding combatants (typed, or from the library) and editing one: stats, health dice, flags, note."""

from __future__ import annotations

import functools
import logging
import re
from typing import Any

from msgspec.structs import replace as replace_struct
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Checkbox, Input, OptionList, Static
from textual.widgets.option_list import Option

import engine.library as L
from engine import RuleError, apply
from engine import commands as C
from engine import events as E
from engine.commands import Command
from engine.dice import Rng, roll
from engine.state import Combatant
from saves import library as S
from saves.errors import SaveError
from tui.dialogs.base import Dialog, _settling, combatant_options, field, row
from tui.dialogs.fields import Choice, LibrarySearch, Tick
from tui.dialogs.forms import (
    HEALTH_DICE,
    FormError,
    dice_average,
    initiative_unit,
    number_or_dice,
    parse_int,
    typed_initiative,
    words,
)
from tui.text import clean, literal

log = logging.getLogger("fracas.tui")


# --- combatants --------------------------------------------------------------------------------

KINDS = [("NPC", "npc"), ("PC", "pc")]
Stats = tuple[tuple[str, int], ...]
SIDES = [("enemy", "enemy"), ("party", "party"), ("neutral", "neutral")]


class _CombatantForm(Dialog):
    """Fields shared by adding and editing a combatant."""

    def _stat_grid(self, values: dict[str, int]) -> Grid:
        cells: list[Widget] = []
        for spec in self.rules.stats:
            cells.append(Static(Text(spec.label), classes="label"))
            cells.append(field(str(values.get(spec.key, spec.default)), id=f"stat-{spec.key}", number=True))
        grid = Grid(*cells, id="stats")
        grid.styles.grid_size_columns = 4
        grid.styles.grid_columns = "18 1fr 18 1fr"
        grid.styles.height = "auto"
        grid.styles.grid_rows = "1"
        grid.styles.grid_gutter_horizontal = 1
        return grid

    def _stats(self) -> tuple[tuple[str, int], ...]:
        stats, _ = self._stats_per_copy(1)
        return stats

    # --- dice in the health fields: "5d8+5" is its average or rolled (the fight's add_health) ------
    @functools.cached_property
    def _seed(self) -> int:
        """The app's own dice for rolled health (the fight's are not spent on it), fixed while the
        dialog is open: what the note shows is what is added."""
        import secrets

        return secrets.randbits(62)

    def _health_dice(self) -> dict[str, str]:
        """Health fields holding dice: stat key -> the dice typed."""
        keys = set(self.rules.damage_order)
        out = {}
        for spec in self.rules.stats:
            if spec.key in keys:
                _, dice = number_or_dice(self.value(f"stat-{spec.key}"), spec.label, spec.low, spec.high)
                if dice:
                    out[spec.key] = dice
        return out

    @property
    def health_mode(self) -> str:
        """"fixed" (the average of typed dice, the statblock's number) or "rolled"."""
        return str(self.choice("health")) if self.query("#health") else self.fight.setting("add_health", "fixed")

    def _stats_per_copy(self, count: int) -> tuple[Stats, tuple[Stats, ...]]:
        """The stats, and per copy the health rolled from typed dice (empty: every copy the same)."""
        health = self._health_dice()
        shared: list[tuple[str, int]] = []
        rolled: dict[str, list[int]] = {}
        rng = Rng(seed=self._seed)
        for spec in self.rules.stats:
            text = self.value(f"stat-{spec.key}")
            dice = health.get(spec.key)
            if not dice:
                shared.append((spec.key, parse_int(text, spec.label, spec.low, spec.high)))
                continue
            if self.health_mode != "rolled":
                value = dice_average(dice)
            else:
                values = []
                for _ in range(count):
                    r, rng = roll(dice, rng)
                    values.append(max(1, r.total))
                rolled[spec.key] = values
                value = values[0]
            if not spec.low <= value <= spec.high:
                raise FormError(f"{spec.label}: {dice} gives {value}, outside {spec.low} to {spec.high}.")
            shared.append((spec.key, value))
        if count == 1 or not rolled:
            return tuple(shared), ()
        copies = tuple(tuple((k, v[i]) for k, v in rolled.items()) for i in range(count))
        return tuple(shared), copies

    def health_note(self, count: int) -> Text:
        """What typed health dice give, shown before the GM confirms: "Hit points 5d8+5: rolled 31"."""
        try:
            health = self._health_dice()
            if not health:
                return Text("")
            stats, copies = self._stats_per_copy(count)
        except (FormError, RuleError) as exc:
            return Text(str(exc), style="bold")
        labels = {spec.key: spec.label for spec in self.rules.stats}
        t = Text()
        for key, dice in health.items():
            if t.plain:
                t.append("\n")
            t.append(f"{labels[key]} {dice}: ")
            if copies:
                t.append("rolled " + ", ".join(str(dict(c)[key]) for c in copies), style="bold")
            else:
                how = "rolled" if self.health_mode == "rolled" else "average"
                t.append(f"{how} {dict(stats)[key]}", style="bold")
        t.append("  (ctrl+r: average or rolled)", style="dim")
        return t

    def remembered(self) -> list[Command]:
        """Dice typed in a health field: the average-or-rolled choice is the fight's for next time."""
        try:
            typed = bool(self._health_dice())
        except FormError:
            typed = False
        if typed and self.health_mode != self.fight.setting("add_health", "fixed"):
            return [C.Setting("add_health", self.health_mode)]
        return []

    def action_health(self) -> None:
        self.query_one("#health", Choice).action_move(1)
        self._dice_shown()

    def _dice_shown(self) -> None:
        """The health choice and the note follow what the fields hold (hooked by each form)."""

    def _extra_fields(self, c: Combatant | None) -> ComposeResult:
        ui = self.ui
        yield row("Flags", field(", ".join(c.flags) if c else "", ui.flag_hint, id="flags"))
        if ui.damage_types:
            yield row("Resists", field(", ".join(c.resist) if c else "", "damage types, comma separated", id="resist"))
            yield row("Vulnerable to", field(", ".join(c.vulnerable) if c else "", "damage types", id="vulnerable"))
        yield row("Note", field(c.note if c else "", "(optional)", id="note"))

    @on(Choice.Changed, "#kind")
    def _kind(self, event: Choice.Changed) -> None:
        # a PC is usually on the party's side; only nudge a side the GM has not touched
        side = self.query("#side")
        if side and not getattr(self, "_side_touched", False):
            self.query_one("#side", Choice).value = "party" if event.choice.value == "pc" else "enemy"
            self._side_touched = False

    @on(Choice.Changed, "#side")
    def _side(self, event: Choice.Changed) -> None:
        if self.query_one("#side", Choice).has_focus:
            self._side_touched = True


# "Goblin x4" (or "Goblin ×4", "goblin x 4"): four of them
_COUNT_SUFFIX = re.compile(r"^(.*?\S)\s+[x×]\s*(\d+)$", re.IGNORECASE)
LIBRARY_SHOWN = 6  # matches listed as the GM types (the list scrolls for more)
HEALTH_MODES: list[tuple[str | Text, str]] = [
    ("the statblock's number", "fixed"),
    ("rolled from its dice", "rolled"),
]


def split_count(text: str) -> tuple[str, int | None]:
    """"Goblin x4" -> ("Goblin", 4); a name without a count -> (name, None)."""
    m = _COUNT_SUFFIX.match(text.strip())
    if m and m.group(1).strip():
        return m.group(1).strip(), int(m.group(2)) if len(m.group(2)) <= 3 else 1000
    return text.strip(), None


def _word_prefixes(query: str, name: str) -> bool:
    """Every word typed starts a word of the name: "gob" or "bug bear" pick the entry outright;
    a looser match ("gbln") is listed but the typed name stays a new combatant."""
    words_of = name.casefold().split()
    return all(any(w.startswith(q) for w in words_of) for q in query.casefold().split())


class AddDialog(_CombatantForm):
    """Type a name: the library (the starter bestiary and the GM's own) is searched as you type;
    enter adds the highlighted creature ("Goblin x4": four, numbered), each copy keeping its
    statblock. A new combatant is the last option, and also what is added once any field below the
    name was changed: custom combatants work as they always did."""

    BINDINGS = [
        Binding("down", "list(1)", show=False, id="library_down"),
        Binding("up", "list(-1)", show=False, id="library_up"),
        Binding("ctrl+r", "health", show=False, id="library_health"),
        Binding("ctrl+t", "together", show=False, id="library_together"),
    ]
    DEFAULT_CSS = """
    AddDialog #library { max-height: 6; }
    AddDialog #library-note { height: auto; color: $text-muted; }
    """
    OK = "Add"
    HINT = "enter: add · ↑↓: library · ctrl+r: health · esc: cancel · tab: next field"

    def heading(self) -> Text:
        return Text(f"Add combatants ({self.rules.title})")

    @property
    def joins(self) -> bool:
        """Added to a fight under way in a ruleset with initiative: it is asked for (or rolled)."""
        f = self.fight
        return f.started and not f.ended and self.rules.rolls_initiative()

    def fields(self) -> ComposeResult:
        yield row("Name", field(placeholder="Goblin, or search the library: gob x4", id="name", kind=LibrarySearch))
        yield OptionList(id="library")
        yield Static(id="library-note")
        if self.joins:
            # the fight is under way: the newcomer's place in the order, the first field after the name
            mode = self.fight.setting("init_typed", "die")
            yield row(
                "Initiative",
                field(placeholder="empty: rolled; 14, or one each", id="join_init"),
                Choice([("die", "die"), ("total", "total")], mode, id="join_typed"),
                id="r-join",
            )
        health = self.fight.setting("add_health", "fixed")
        ch = Choice(HEALTH_MODES, health, id="health")
        ch.can_focus = False  # ctrl+r (or a click) changes it: the tab order stays as it was
        yield row("Health (ctrl+r)", ch, id="r-health")
        yield row("How many", field("1", id="count", number=True))
        if self.rules.shared_initiative:
            # ctrl+t (or a click) ticks it: the tab order stays as it was
            tick = Tick(Text("one initiative for all: they act together"), id="together", compact=True)
            tick.can_focus = False
            yield row("Together (ctrl+t)", tick, id="r-together")
        yield row("PC or NPC", Choice(KINDS, "npc", id="kind"))
        yield row("Side", Choice(SIDES, "enemy", id="side"))
        yield self._stat_grid({})
        f = self.fight
        if self.ui.companions:
            leaders = [c.id for c in f.combatants if c.owner]
            yield row("Companion of", Choice(combatant_options(f, "nobody (own initiative)", leaders), "", id="owner"))
        yield from self._extra_fields(None)

    def on_mount(self) -> None:
        self._entries: list[Any] = []  # engine.library Entry values, loaded once
        self._shown: list[Any] = []  # the matches listed, in order
        self._library_problem = ""
        try:
            # a damaged entry of the GM's costs that entry; a file that cannot be read, only itself
            self._entries, problem = S.load_usable(self.fight.ruleset)
            self._library_problem = clean(problem)
        except (RuleError, OSError, SaveError) as exc:  # the starter bestiary still serves

            self._library_problem = clean(str(exc))
            try:
                self._entries = [L.Entry(sb) for sb in L.starter(self.fight.ruleset)]
            except RuleError:
                self._entries = []
        self.query_one("#library", OptionList).can_focus = False  # up/down in the name field move it
        # what a custom combatant's fields hold as composed: changed ones mean "my own, not the library's"
        self._composed = self._custom_values()
        self._filter("")
        self.query_one("#name", Input).focus()

    def _custom_values(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for w in self.query("Input").results(Input):
            if w.id not in ("name", "count", "join_init"):  # its initiative is the moment's, not its own
                out[w.id or ""] = w.value
        for c in self.query(Choice).results(Choice):
            if c.id not in ("health", "owner", "join_typed"):  # a library companion is still the library's
                out[c.id or ""] = c.value
        return out

    def _custom_edited(self) -> bool:
        return self._custom_values() != getattr(self, "_composed", {})

    def _refilter(self) -> None:
        """The library list for what the name holds now (as ConditionDialog._refilter)."""
        typed = self.value("name")
        if typed != getattr(self, "_filtered", None):
            self._filter(typed)

    def _filter(self, typed: str) -> None:
        self._filtered = typed
        ol = self.query_one("#library", OptionList)
        ol.clear_options()
        query, _ = split_count(typed)
        self._shown = L.search(self._entries, query, limit=50) if query else []
        options: list[Option] = []
        for i, e in enumerate(self._shown):
            sb = e.statblock
            kind = L.kind_of(sb)
            t = literal(sb.name, "bold")
            dice = kind.health_dice(sb)
            bits = [sb.type, f"{kind.health(sb)} health" + (f" ({dice})" if dice else ""), self._origin(e)]
            t.append_text(literal("  " + " · ".join(b for b in bits if b), "dim"))
            options.append(Option(t, id=f"lib-{i}"))
        if query:
            options.append(Option(Text("New combatant: ", no_wrap=True) + literal(query), id="custom"))
        ol.add_options(options)
        ol.display = bool(options)
        first_is_it = bool(self._shown) and _word_prefixes(query, self._shown[0].statblock.name)
        ol.highlighted = (0 if first_is_it else len(options) - 1) if options else None
        self._note()

    def _origin(self, e: Any) -> str:
        """Where a listed entry comes from: the starter bestiary, or the GM's library (the import it
        came in by, if any), which takes the place of a starter entry of the same name: said so."""
        if e.origin != "user":
            return str(e.origin)
        sb = e.statblock
        mine = f"imported ({clean(sb.source)})" if sb.source else "your library"
        if not hasattr(self, "_starter_keys"):
            try:
                self._starter_keys = {L.Entry(x).name_key for x in L.starter(self.fight.ruleset)}
            except RuleError:
                self._starter_keys = set()
        return mine + (", in place of the starter one" if e.name_key in self._starter_keys else "")

    def _picked(self) -> Any | None:
        """The library entry enter would add (None: a new combatant, as typed)."""
        ol = self.query_one("#library", OptionList)
        opt = ol.highlighted_option
        if opt is None or not (opt.id or "").startswith("lib-") or self._custom_edited():
            return None
        i = int((opt.id or "")[4:])
        return self._shown[i] if i < len(self._shown) else None

    def _note(self) -> None:
        """One line under the list: what enter adds."""
        entry = self._picked()
        dice = L.kind_of(entry.statblock).health_dice(entry.statblock) if entry is not None else ""
        typed = Text("") if entry is not None else self.health_note(self._count_or_one())
        # nothing to roll: no choice to offer; the choice's words follow what is rolled
        ch = self.query_one("#health", Choice)
        want = HEALTH_MODES if entry is not None else HEALTH_DICE
        if ch.options != want:
            ch.options = list(want)
            ch.refresh()
        self.query_one("#r-health").display = bool(dice) or bool(typed.plain)
        t = Text()
        if self._library_problem:
            t.append(self._library_problem + "\n", style="bold")
        if entry is not None:
            sb = entry.statblock
            _, count = split_count(self.value("name"))
            t.append("enter adds ")
            t.append_text(literal(f"{sb.name} x{count}" if count else sb.name, "bold"))
            t.append(" from the library, with its attacks; change a field below for your own", style="dim")
        elif self._shown and self._custom_edited():
            t.append("a new combatant (a field below was changed)", style="dim")
        for extra in (typed, self._join_note()):
            if extra.plain:
                if t.plain:
                    t.append("\n")
                t.append_text(extra)
        note = self.query_one("#library-note", Static)
        note.update(t)
        note.display = bool(t.plain)

    @on(Input.Changed, "#name")
    def _search(self, event: Input.Changed) -> None:
        self._refilter()

    @on(Input.Changed)
    @on(Choice.Changed)
    def _maybe_custom(self, event: Message) -> None:
        if self.is_mounted and getattr(event, "control", None) is not self.query_one("#name"):
            self._note()

    @on(OptionList.OptionHighlighted, "#library")
    def _moved(self) -> None:
        self._note()

    @on(OptionList.OptionSelected, "#library")
    def _chosen(self) -> None:
        self.action_submit()

    def action_list(self, delta: int) -> None:
        self._refilter()
        ol = self.query_one("#library", OptionList)
        if ol.option_count:
            ol.highlighted = max(0, min(ol.option_count - 1, (ol.highlighted or 0) + delta))

    def _dice_shown(self) -> None:
        self._note()

    def remembered(self) -> list[Command]:
        out = super().remembered()  # the choice for dice typed in a health field
        mode = self.health_mode
        if not out and self._picked() is not None and mode != self.fight.setting("add_health", "fixed"):
            out.append(C.Setting("add_health", mode))  # the fight remembers it for the next add
        if self.query("#join_typed") and self.value("join_init").strip():
            mode = self.choice("join_typed")
            if mode != self.fight.setting("init_typed", "die"):
                out.append(C.Setting("init_typed", mode))
        return out

    def action_together(self) -> None:
        for tick in self.query("#together").results(Tick):
            tick.value = not tick.value

    @on(Checkbox.Changed, "#together")
    def _together_changed(self) -> None:
        self._note()  # the initiative the newcomers join with: one for all now, or one each

    def _together(self, count: int) -> bool:
        """The copies share one initiative: ticked, and more than one of them."""
        return count > 1 and bool(self.query("#together")) and self.checked("together")

    def _count_or_one(self) -> int:
        try:
            return self._count()
        except FormError:
            return 1

    def _join_initiative(self, count: int) -> tuple[C.Initiative, ...] | None:
        """What the newcomers join the order with: typed (one for all, or one per copy), else rolled
        by the ruleset, one each. None: not asked (before the start, a companion, no initiative)."""
        owner = self.choice("owner") if self.query("#owner") else ""
        if not self.query("#join_init") or owner:
            return None
        text = self.value("join_init").strip()
        if not text:
            return (C.Initiative(),)  # the ruleset rolls for each copy, in the same command
        parts = [p for p in re.split(r"[\s,]+", text) if p]
        if len(parts) not in (1, count):
            raise FormError(f"Initiative: one for all, or one for each of the {count} ({len(parts)} given).")
        mode = self.choice("join_typed")
        label = "Initiative total" if mode == "total" else "Initiative die"
        out = []
        for p in parts:
            given = typed_initiative(p, mode, label)
            assert given is not None  # parts are never empty
            out.append(given)
        return tuple(out)

    def _join_note(self) -> Text:
        """The initiative each newcomer gets and where it goes, worked out by a dry run of the one
        command enter sends (rolled ones included: the engine is pure, so they fall the same)."""
        if not self.query("#join_init") or not self.is_mounted:
            return Text("")

        try:
            cmds = self.build()
            cmd = cmds if isinstance(cmds, Command) else cmds[0]
            _, events = apply(self.fight, cmd)
        except (FormError, RuleError) as exc:
            return Text(str(exc), style="bold") if self.value("join_init").strip() else Text("")
        rolled = [e for e in events if isinstance(e, E.InitiativeRolled)]
        if not rolled:
            return Text("")
        unit = initiative_unit(self.ui)
        t = Text("Initiative: ")
        for i, e in enumerate(rolled[:6]):
            if i:
                t.append(", ")
            t.append_text(literal(E.together_label(e.names) if e.names else e.name))
            t.append(f" {unit} {e.value:+d}" if unit else f" {e.value}", style="bold")
        if len(rolled) > 6:
            t.append(f", +{len(rolled) - 6} more")
        how = "typed" if self.value("join_init").strip() else "rolled"
        t.append(f" ({how}; placed in the order)", style="dim")
        return t

    def _count(self) -> int:
        _, suffix = split_count(self.value("name"))
        if suffix is not None:
            if not 1 <= suffix <= 50:
                raise FormError("How many: between 1 and 50 at once.")
            return suffix
        return parse_int(self.value("count"), "How many", 1, 50)

    def build(self) -> Command | list[Command]:
        self._refilter()
        entry = self._picked()
        owner = self.choice("owner") if self.query("#owner") else ""
        if entry is not None:
            return self._from_library(entry.statblock, owner or "")
        name, _ = split_count(self.value("name"))
        if not name:
            raise FormError("Give the combatant a name.")
        count = self._count()
        stats, copies = self._stats_per_copy(count)
        return C.AddCombatant(
            name,
            kind=self.choice("kind"),
            side=self.choice("side"),
            stats=stats,
            count=count,
            copies=copies,
            initiative=self._join_initiative(count),
            together=self._together(count),
            owner=owner or "",
            flags=words(self.value("flags")),
            resist=words(self.value("resist")) if self.query("#resist") else (),
            vulnerable=words(self.value("vulnerable")) if self.query("#vulnerable") else (),
            note=self.value("note"),
        )

    def _from_library(self, sb: Any, owner: str) -> list[Command]:
        """The one AddCombatant of the copies (each keeps the statblock); a changed health choice is
        sent before it (remembered), so one undo takes the copies back."""
        mode = self.choice("health")
        count = self._count()
        # the rolled numbers go into the command, so a replay never rerolls; a seed of the app's own
        # (the fight's dice are not spent on it), the same while the dialog is open
        cmd, _ = L.to_add(sb, count, mode, Rng(seed=self._seed))
        if owner:
            cmd = replace_struct(cmd, owner=owner)
        cmd = replace_struct(cmd, initiative=self._join_initiative(count), together=self._together(count))
        return [cmd]  # the health choice, if changed, is remembered (remembered) before it


class EditDialog(_CombatantForm):
    BINDINGS = [Binding("ctrl+r", "health", show=False, id="library_health")]
    OK = "Save"

    def heading(self) -> Text:
        return Text("Edit ") + literal(self.target.name)

    def fields(self) -> ComposeResult:
        c = self.target
        self._side_touched = True  # editing: never change the side behind the GM's back
        yield row("Name", field(c.name, id="name"))
        yield row("PC or NPC", Choice(KINDS, c.kind, id="kind"))
        yield row("Side", Choice(SIDES, c.side, id="side"))
        yield self._stat_grid(dict(c.stats))
        # dice typed in a health field (5d8+5): its average or rolled, as the add dialog does
        ch = Choice(HEALTH_DICE, self.fight.setting("add_health", "fixed"), id="health")
        ch.can_focus = False  # ctrl+r (or a click) changes it: the tab order stays as it was
        r = row("Health (ctrl+r)", ch, id="r-health")
        r.display = False
        yield r
        yield Static(id="dice-note", classes="wide-label")
        yield from self._extra_fields(c)
        kept = L.statblock_of(self.fight.ruleset, c)
        # the statblock's own name ("Goblin", not "Goblin 3"): saving it again replaces that entry
        yield row(
            "Library",
            Tick("save to the library as", id="save_library", compact=True),
            field(kept.name if kept is not None else c.name, id="library_name"),
        )

    @_settling
    def action_submit(self) -> None:
        """The edit (if any field changed), then the save to the library when ticked: one line says
        where it went."""
        save = self.checked("save_library")
        try:
            name = self.value("library_name").strip()
            if save and not name:
                raise FormError("Save to the library as: give the entry a name.")
            cmd = self.build()
            changed = any(getattr(cmd, f) is not None for f in cmd.__struct_fields__ if f != "who")
            if changed or not save:
                self.fracas.commit([cmd, *self.remembered()], announce=self.ANNOUNCE)
            if save:
                rid = self.fight.ruleset
                sb = S.save_combatant(rid, self.fight.get(self.who), name=name)
                where = S.library_path(rid)
                self.fracas.notify(clean(f"Saved {sb.name} to your {rid} library ({where})."), markup=False)
        except (FormError, RuleError, OSError, SaveError) as exc:
            self.show_error(str(exc))
            return
        self.dismiss()

    @on(Input.Changed)
    def _dice_shown(self) -> None:
        """Dice in a health field: the average-or-rolled choice shows, and what they give."""
        if not self.is_mounted:
            return
        note = self.health_note(1)
        self.query_one("#r-health").display = bool(note.plain)
        self.query_one("#dice-note", Static).update(note)

    def build(self) -> C.EditCombatant:
        c = self.target
        name = self.value("name").strip()
        old = dict(c.stats)
        changed = tuple((k, v) for k, v in self._stats() if old.get(k) != v)
        new_words = {key: words(self.value(key)) for key in ("flags", "resist", "vulnerable") if self.query(f"#{key}")}
        note = self.value("note")
        return C.EditCombatant(
            c.id,
            name=name if name != c.name else None,
            kind=self.choice("kind") if self.choice("kind") != c.kind else None,
            side=self.choice("side") if self.choice("side") != c.side else None,
            stats=changed or None,
            flags=new_words["flags"] if new_words.get("flags", c.flags) != c.flags else None,
            resist=new_words["resist"] if "resist" in new_words and new_words["resist"] != c.resist else None,
            vulnerable=(
                new_words["vulnerable"]
                if "vulnerable" in new_words and new_words["vulnerable"] != c.vulnerable
                else None
            ),
            note=note if note != c.note else None,
        )


