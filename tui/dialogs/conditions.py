"""Adding a condition (searching the ruleset's catalog, ranked by what the GM reaches for) and
removing one."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Input, OptionList
from textual.widgets.option_list import Option

from engine import RuleError
from engine import commands as C
from engine.area import KeptCondition, sustaining
from engine.commands import Command
from engine.state import Duration
from tui.dialogs.base import Dialog, combatant_options, field, row
from tui.dialogs.fields import CatalogSearch, Choice
from tui.dialogs.forms import FormError, parse_int
from tui.text import literal, span
from tui.views import remaining

# --- conditions --------------------------------------------------------------------------------

DURATION_LABELS = {
    "manual": "Until removed",
    "turn_end": "Until the end of a turn",
    "turn_start": "Until the start of a turn",
    "round_end": "Until the end of a round",
    "phase_end": "Until the end of a phase",
    "rounds": "For a number of rounds",
    "seconds": "For a time (seconds)",
    "rest": "For the rest of this round",
}


USED_LOOKBACK = 2000  # commands of the fight's history read for what it used (the latest ones)


class Used(NamedTuple):
    count: int  # how many times the GM put it on someone
    last: int  # when last: higher is later
    name: str  # as the GM last typed it


def conditions_used(history: Any, lookback: int = USED_LOOKBACK) -> dict[str, Used]:
    """The conditions the GM put on someone in this fight (the condition dialog's commands on the
    history's current path, the latest `lookback` of them), by lower-cased name. Conditions the
    rules put on by themselves (Surprised at the start, a Warhammer wound) are not the GM's choice
    and do not count."""
    used: dict[str, Used] = {}
    nodes = history.nodes
    i, n = history.cursor, 0
    while i >= 0 and n < lookback:
        cmd = nodes[i].command
        if isinstance(cmd, C.AddCondition | KeptCondition):
            name = cmd.name.strip()
            seen = used.get(name.lower())
            # walking back from the latest: the first seen is the latest, in its latest spelling
            used[name.lower()] = Used(1, -n, name) if seen is None else seen._replace(count=seen.count + 1)
        i, n = nodes[i].parent, n + 1
    return used


def rank_conditions(names: Sequence[str], used: dict[str, Used], common: Sequence[str]) -> list[str]:
    """`names` in the order the condition dialog offers them: those used in this fight (more often
    first, then more recently), then the ruleset's common ones in their order, then the rest as given."""
    common_at = {n.lower(): i for i, n in enumerate(common)}
    at = {n: i for i, n in enumerate(names)}

    def key(name: str) -> tuple[int, int, int]:
        low = name.lower()
        if low in used:
            return (0, -used[low].count, -used[low].last)
        if low in common_at:
            return (1, common_at[low], 0)
        return (2, at[name], 0)

    return sorted(names, key=key)


def condition_matches(query: str, names: dict[str, str]) -> tuple[list[str], list[str]]:
    """What a typed query finds in `names` (name -> description), both lists keeping `names`' order:
    by name (exactly, then at its start, then at a later word's start, then anywhere) and by
    description only."""
    q = query.strip().lower()
    if not q:
        return list(names), []
    groups: list[list[str]] = [[], [], [], []]
    described = []
    for n, d in names.items():
        low = n.lower()
        if low == q:
            groups[0].append(n)
        elif low.startswith(q):
            groups[1].append(n)
        elif any(w.startswith(q) for w in low.split()[1:]):
            groups[2].append(n)
        elif q in low:
            groups[3].append(n)
        elif q in d.lower():
            described.append(n)
    return [n for g in groups for n in g], described


class ConditionDialog(Dialog):
    """Search the ruleset's conditions (or type a new name) and give a duration.

    The list under the name shows what was found, best first, and "→" marks what enter takes
    (docs/conditions.md: the ones used in this fight, then the ruleset's common ones)."""

    BINDINGS = [
        Binding("down", "list(1)", show=False, id="catalog_down"),
        Binding("up", "list(-1)", show=False, id="catalog_up"),
    ]
    OK = "Add"
    PICK_MARK = "→ "
    # a condition the target is immune to was refused: enter again gives it anyway (the GM's call)
    override = False
    # a new name (in no catalog, not used in this fight) was asked about: enter again makes it
    confirmed_new = ""
    # up or down landed on "New condition: ...": chosen on purpose, not asked about
    chose_new = False

    def heading(self) -> Text:
        return Text("Condition on ") + literal(self.target.name)

    def _kinds(self) -> list[str]:
        rs = self.rules
        kinds = list(getattr(rs, "durations", ("manual", "turn_start", "turn_end", "round_end", "phase_end")))
        kinds = self.ui.condition_durations(self.fight, kinds)
        return [k for k in dict.fromkeys(kinds) if k in DURATION_LABELS]

    def fields(self) -> ComposeResult:
        f = self.fight
        yield row("Condition", field(placeholder="type to search, or a new name", id="search", kind=CatalogSearch))
        yield OptionList(id="catalog")
        yield row("Duration", Choice([(DURATION_LABELS[k], k) for k in self._kinds()], id="kind"))
        # the count first: "2 turns" is what the GM changes, whose turn rarely (README's recipe)
        yield row("How many turns", field("1", id="count", number=True), id="row-count")
        # counted on the turns of the one getting it (the README's recipe), not whoever is acting
        yield row("Whose turn", Choice(combatant_options(f), self.who, id="whose"), id="row-whose")
        yield row("Round", field(str(max(1, f.round)), id="round", number=True), id="row-round")
        yield row("Phase (1-9)", field(str(max(1, f.phase)), id="phase", number=True), id="row-phase")
        yield row("Rounds", field("1", id="rounds", number=True), id="row-rounds")
        yield row("Seconds", field("6", id="seconds", number=True), id="row-seconds")
        yield row("Level", field("1", id="level", number=True))
        per_turn = row("Damage each turn", field(placeholder="dice, e.g. 1d4 (optional)", id="dice"))
        # only some rulesets' conditions deal damage at the start of a turn (d20's Bleeding, Burning)
        per_turn.display = self.ui.condition_dice
        yield per_turn
        yield row("Note", field(placeholder="(optional)", id="note"))

    def on_mount(self) -> None:
        # the list follows the search field (up/down there move it); tab skips it
        self.query_one("#catalog", OptionList).can_focus = False
        self._ranked = self._rank()
        self._filter("")
        self._show_duration_fields()

    def _catalog(self) -> dict[str, str]:
        return dict(self.rules.conditions)

    def _rank(self) -> dict[str, str]:
        """The catalog, and the names the GM typed in this fight that it lacks, in the order offered
        (worked out once, as the dialog opens)."""
        names = self._catalog()
        session = self.fracas.session
        used = conditions_used(session.history) if session is not None else {}
        known = {n.lower() for n in names}
        for low, u in used.items():  # a condition of the GM's own, used here before: offered again
            if low not in known:
                names[u.name] = "used in this fight"
        rid = self.fight.ruleset
        common = self.ui.common_conditions  # the slice's own list (tui/rulesets/base.py)

        lead = sustaining(rid)
        common = ((lead,) if lead else ()) + tuple(common)
        return {n: names[n] for n in rank_conditions(list(names), used, common)}

    def _refilter(self) -> None:
        """The list for what the field holds now, unless it is listed already. In a burst the field's
        Changed messages come after its keys, up and down among them, each with the text of its
        moment: the list follows the field itself, not them (see OwnKeys)."""
        typed = self.value("search")
        if typed != getattr(self, "_filtered", None):
            self._filter(typed)

    def _filter(self, query: str) -> None:
        self._filtered = query
        self.chose_new = False
        ol = self.query_one("#catalog", OptionList)
        ol.clear_options()
        q = query.strip().lower()
        names = getattr(self, "_ranked", None) or self._catalog()
        # option ids are counters, never names (a name need not be unique or a valid id)
        self._names: dict[str, str] = {}
        self._prompts: list[Text] = []

        def entry(name: str, desc: str) -> Option:
            t = span(name, "bold")
            t.append(f"  {desc}", style="dim")
            oid = f"cat-{len(self._names)}"
            self._names[oid] = name
            return Option(t, id=oid)

        # names that match what was typed (exactly, at the start, at a word's start, inside), in the
        # ranked order within each; then a new name; then conditions whose description mentions it
        found, described = condition_matches(query, names)
        custom = []
        if q and not any(n.lower() == q for n in names):
            custom = [Option(Text("New condition: ", no_wrap=True) + literal(query.strip()), id="custom")]
        options = [entry(n, names[n]) for n in found] + custom + [entry(n, names[n]) for n in described]
        if not options:
            note = "Type a name: this ruleset has no catalog of conditions."
            options = [Option(span(note, "dim"), id="none", disabled=True)]
        pick = next((i for i, o in enumerate(options) if not o.disabled), None)
        for i, o in enumerate(options):
            prompt = o.prompt if isinstance(o.prompt, Text) else Text(str(o.prompt))
            self._prompts.append(prompt)
            if not o.disabled:
                o._set_prompt(Text(self.PICK_MARK if i == pick else "  ") + prompt)
        self._marked_at = pick
        ol.add_options(options)
        ol.highlighted = pick

    def _mark_pick(self, index: int | None) -> None:
        """The mark on the option enter takes, so it is plain without colour (a highlight is not)."""
        ol = self.query_one("#catalog", OptionList)
        old = getattr(self, "_marked_at", None)
        if old == index:
            return
        for i, mark in ((old, "  "), (index, self.PICK_MARK)):
            if i is not None and 0 <= i < min(ol.option_count, len(self._prompts)):
                if not ol.get_option_at_index(i).disabled:
                    ol.replace_option_prompt_at_index(i, Text(mark) + self._prompts[i])
        self._marked_at = index

    @on(OptionList.OptionHighlighted, "#catalog")
    def _highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self._mark_pick(event.option_index)

    @on(Input.Changed, "#search")
    def _search(self, event: Input.Changed) -> None:
        self._refilter()

    def action_list(self, delta: int) -> None:
        self._refilter()
        ol = self.query_one("#catalog", OptionList)
        if ol.option_count:
            ol.highlighted = max(0, min(ol.option_count - 1, (ol.highlighted or 0) + delta))
            self._mark_pick(ol.highlighted)
            picked = ol.highlighted_option
            self.chose_new = picked is not None and picked.id == "custom"

    @on(OptionList.OptionSelected, "#catalog")
    def _picked(self, event: OptionList.OptionSelected) -> None:
        self.action_submit()

    @on(Choice.Changed, "#kind")
    def _kind_changed(self) -> None:
        self._show_duration_fields()

    def _show_duration_fields(self) -> None:
        kind = self.choice("kind")
        visible = {
            "turn_end": {"whose", "count"},
            "turn_start": {"whose", "count"},
            "round_end": {"round"},
            "phase_end": {"round", "phase"},
            "rounds": {"rounds"},
            "seconds": {"seconds"},
        }.get(kind, set())
        for name in ("whose", "count", "round", "phase", "rounds", "seconds"):
            self.query_one(f"#row-{name}").set_class(name not in visible, "hidden")

    def _condition_name(self) -> str:
        self._refilter()
        ol = self.query_one("#catalog", OptionList)
        opt = ol.highlighted_option
        typed = self.value("search").strip()
        if opt is not None and opt.id in getattr(self, "_names", {}):
            return self._names[opt.id]
        if typed:
            self._ask_new(typed)
            return typed
        raise FormError("Which condition? Type a name or pick one from the list.")

    def _ask_new(self, name: str) -> None:
        """A name the ruleset and this fight do not know (a typo of one, often: "pro" where nine-phase
        has no Prone) is made only on a second enter, unless up or down chose it in the list."""
        if self.chose_new or self.confirmed_new == name.casefold():
            return
        self.confirmed_new = name.casefold()
        raise FormError(f"New condition '{name}'? enter again to make it")

    def _duration(self) -> Duration:
        kind = self.choice("kind")
        f = self.fight
        if kind in ("turn_end", "turn_start"):
            whose = self.choice("whose") or self.who
            return Duration(kind=kind, who=whose, count=parse_int(self.value("count"), "Turns", 1, 1000))
        if kind == "round_end":
            return Duration(kind="round_end", round=parse_int(self.value("round"), "Round", 1, 100_000))
        if kind == "phase_end":
            return Duration(
                kind="phase_end",
                round=parse_int(self.value("round"), "Round", 1, 100_000),
                phase=parse_int(self.value("phase"), "Phase", 1, 9),
            )
        if kind in ("rounds", "seconds", "rest"):
            # durations in the ruleset's own time (nine-phase counts them from the current phase)
            amount = 0
            if kind == "rounds":
                amount = parse_int(self.value("rounds"), "Rounds", 1, 10_000)
            elif kind == "seconds":
                amount = parse_int(self.value("seconds"), "Seconds", 1, 60_000)
            made = self.ui.duration(kind, f, amount)
            if made is not None:
                return made
        return Duration()

    def build(self) -> Command:
        return C.AddCondition(
            self.who,
            self._condition_name(),
            self._duration(),
            level=parse_int(self.value("level"), "Level", 1, 20),
            dice=self.value("dice").strip(),
            note=self.value("note"),
            override=self.override,
        )

    def action_submit(self) -> None:
        """After the engine's refusal of a condition the target is immune to, its line stays and
        says that enter again gives it anyway (override)."""
        super().action_submit()
        if self.override or not self.is_attached or self.app.screen is not self:
            return
        err = self.query("#error")
        if not err or not err.first().has_class("-shown"):
            return
        try:
            name = self._condition_name()
        except (FormError, RuleError):
            return
        if any(x.casefold() == name.casefold() for x in self.target.condition_immune):
            who = self.target.name
            self.show_error(f"{who} is immune to {name} (its statblock says so): enter again gives it anyway.")
            self.override = True

    @on(Input.Changed)
    @on(Choice.Changed)
    def _not_overridden(self) -> None:
        self.override = False  # a changed form is another condition: asked again


class RemoveConditionDialog(Dialog):
    OK = "Remove"
    HINT = "enter: remove the highlighted one · esc: cancel"

    def heading(self) -> Text:
        return Text("End a condition on ") + literal(self.target.name)

    def fields(self) -> ComposeResult:
        f = self.fight

        opts = []
        # positions, not names: two conditions of one name (from a file) must not clash
        self._names = [cond.name for cond in self.target.conditions]
        for i, cond in enumerate(self.target.conditions):
            t = literal(cond.name, "bold")
            t.append(f"  {remaining(f, cond)}", style="dim")
            opts.append(Option(t, id=f"cond-{i}"))
        yield OptionList(*opts, id="conditions")

    def on_mount(self) -> None:
        ol = self.query_one("#conditions", OptionList)
        if ol.option_count:
            ol.highlighted = 0
        ol.focus()

    @on(OptionList.OptionSelected)
    def _picked(self, event: OptionList.OptionSelected) -> None:
        self.action_submit()

    def build(self) -> Command:
        i = self.query_one("#conditions", OptionList).highlighted
        if i is None or not 0 <= i < len(self._names):
            raise FormError("Pick the condition to end.")
        return C.RemoveCondition(self.who, self._names[i])


