"""Nine-phase's dialog: an activity in the current phase (its attack dialog is in attack.py). Imported
when it opens."""

from __future__ import annotations

from typing import Any, cast

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Input, OptionList
from textual.widgets.option_list import Option

import engine.library as L
from engine.commands import Command
from engine.rules.ninephase import catalog
from engine.rules.ninephase.commands import Activity
from engine.rules.ninephase.ruleset import NinePhase
from tui.dialogs import (
    ActingDialog,
    Choice,
    FormError,
    Tick,
    field,
    optional_int,
    row,
)
from tui.text import literal


def out_of_it(dialog: ActingDialog, cid: str) -> str:
    """Why `cid` cannot act at all now, in one line ("" when it may): one dropped in this very phase
    still completes it (the text's goblin and archer), so only one out of the fight is refused here;
    everything else (one turn a phase, actions left) is the engine's, said when it is sent."""
    f = dialog.fight
    c = f.find(cid) if cid else None
    if c is None:
        return "Select the combatant who acts first."
    rules = cast(NinePhase, dialog.rules)
    return rules.phase_refusal(f, c) if rules.out(f, c) else ""


class ActivityDialog(ActingDialog):
    """Nine-phase: act or react in the current phase, from the fight's catalog or ad hoc."""

    DEFAULT_CSS = """
    ActivityDialog #adhoc-fields { height: auto; }
    """
    OK = "Take"
    HINT = "enter: take the activity · ↑↓ in the list · esc: cancel"

    def why_not(self, cid: str) -> str:
        return out_of_it(self, cid)

    def heading(self) -> Text:
        c = self.target
        f = self.fight
        t = literal(c.name)
        t.append(f" in phase {f.phase}   ({self.rules.describe_economy(c)})", style="dim")
        return t

    def _options(self) -> list[Option]:
        """The user's activities: its statblock's first (the first of them is enter), the fight's
        catalog, its channels to stop, then one typed in below."""
        f = self.fight
        opts = []
        # option ids are positions, never names: two entries (or two channels) of one name are possible
        # option id -> "sb:<index>" / "cat:<name>" / "stop:<channel index>" / "adhoc"
        self._picks: dict[str, str] = {}
        sb = L.statblock_of(f.ruleset, self.target)
        for i, act in enumerate(L.attacks(sb) if sb is not None else ()):
            t = literal(L.attack_label(sb, act), "bold")  # type: ignore[arg-type]
            opts.append(Option(t, id=f"sb-{i}"))
            self._picks[f"sb-{i}"] = f"sb:{i}"
        for i, a in enumerate(catalog.catalog(f)):
            t = literal(a.name, "bold")
            t.append(f"  {catalog.spec_text(a)}", style="dim")
            opts.append(Option(t, id=f"cat-{i}"))
            self._picks[f"cat-{i}"] = f"cat:{a.name}"
        live = [ch.activity for ch in self.target.channels if getattr(ch, "status", "") == ""]
        for i, ch in enumerate(self.target.channels):
            if getattr(ch, "status", "") == "":
                label = Text("Stop the channel: ") + literal(ch.activity)
                if live.count(ch.activity) > 1:  # one ran on from last round: say which is which
                    label.append(f" (begun in phase {_begun(ch)})", style="dim")
                opts.append(Option(label, id=f"stop-{i}"))
                self._picks[f"stop-{i}"] = f"stop:{i}"
        opts.append(Option(Text("Another activity (fill in below)"), id="adhoc"))
        self._picks["adhoc"] = "adhoc"
        return opts

    def _spends(self) -> list[tuple[str | Text, str]]:
        """What beginning the activity may spend besides its actions (a spell slot, ki), with what is left."""
        spends: list[tuple[str | Text, str]] = [("none", "")]
        for p in self.target.resources:
            label = literal(p.key)
            label.append(f": {p.current} of {p.max} left", style="" if p.current else "dim")
            spends.append((label, p.key))
        return spends

    def fields(self) -> ComposeResult:
        yield self.user_row()
        yield OptionList(*self._options(), id="activities")
        yield row(
            "Weapon Speed Factor",
            field(placeholder="1-9, for a Weapon activity", id="speed", number=True),
            id="row-speed",
        )
        with Vertical(id="adhoc-fields"):
            yield row("Name", field(placeholder="Cast Fireball", id="name"))
            yield row("Cost (actions)", Choice([("1", 1), ("2", 2), ("3", 3), ("0", 0)], 1, id="cost"))
            yield row("Earliest phase", field(placeholder="1-9, blank = any phase", id="earliest", number=True))
            yield Horizontal(
                Tick(Text("Reaction"), id="reaction", compact=True),
                Tick(Text("Master"), id="master", compact=True),
                Tick(Text("Phase Lock"), id="lock", compact=True),
                Tick(Text("Channel"), id="channel", compact=True),
                Tick(Text("Uninterruptible"), id="uninterruptible", compact=True),
                classes="row",
            )
            yield Horizontal(
                Tick(Text("Repeatable in a round"), id="repeatable", compact=True),
                Tick(Text("Channel may finish next round"), id="across_rounds", compact=True),
                classes="row",
            )
            yield Tick(Text("Also keep it in this fight's catalog"), id="keep", compact=True)
        if self.target.resources:
            yield from self._resource_rows()

    def _resource_rows(self) -> list[Horizontal]:
        """What beginning the activity spends and how much: only for a user with resources."""
        return [
            row("Spends", Choice(self._spends(), "", id="resource"), id="row-resource"),
            row("Amount", field(placeholder="1 (the default)", id="amount", number=True), id="row-amount"),
        ]

    def user_changed(self) -> None:
        """Another user: its own activities, channels and resources."""
        ol = self.query_one("#activities", OptionList)
        ol.clear_options()
        ol.add_options(self._options())
        ol.highlighted = 0
        self.call_later(self._swap_resource_rows)
        self._update()

    async def _swap_resource_rows(self) -> None:
        """Its own resources' rows, or none (asked for nothing it does not have)."""
        await self.query("#row-resource, #row-amount").remove()
        if self.target.resources:
            await self.query_one("#fields").mount_all(self._resource_rows())
        self._update()

    def on_mount(self) -> None:
        ol = self.query_one("#activities", OptionList)
        ol.highlighted = 0
        ol.focus()
        self._update()

    @on(OptionList.OptionHighlighted)
    def _moved(self) -> None:
        self._update()

    @on(OptionList.OptionSelected)
    def _picked(self) -> None:
        oid = self._picked_id()
        if oid == "adhoc":
            self.query_one("#name", Input).focus()
            return
        if self._needs_speed(oid) and not self.value("speed").strip():
            self.query_one("#speed", Input).focus()
            return
        self.action_submit()

    def _picked_id(self) -> str:
        """What the highlighted option stands for: "cat:<name>", "stop:<channel index>", "adhoc" or ""."""
        opt = self.query_one("#activities", OptionList).highlighted_option
        return self._picks.get(opt.id or "", "") if opt is not None else ""

    def _spec(self, oid: str) -> Any:
        return catalog.find(self.fight, oid[4:]) if oid.startswith("cat:") else None

    def _statblock_activity(self, oid: str) -> dict[str, Any] | None:
        """The Activity fields of the statblock activity picked (its Speed Factor already in `earliest`)."""
        if not oid.startswith("sb:"):
            return None
        sb = L.statblock_of(self.fight.ruleset, self.target)
        options = L.attacks(sb) if sb is not None else ()
        i = int(oid[3:])
        return L.attack_fields(sb, options[i]) if sb is not None and i < len(options) else None

    def _needs_speed(self, oid: str) -> bool:
        spec = self._spec(oid)
        return bool(spec is not None and spec.weapon)

    def _update(self) -> None:
        oid = self._picked_id()
        self.query_one("#adhoc-fields").set_class(oid != "adhoc", "hidden")
        self.query_one("#row-speed").set_class(not self._needs_speed(oid), "hidden")
        for wid in ("#row-resource", "#row-amount"):
            for r in self.query(wid):
                r.set_class(oid.startswith("stop:"), "hidden")

    def _resource(self) -> tuple[str, int]:
        """The resource spent to begin the activity and how much: ("", 1) for none."""
        if not self.query("#resource"):
            return "", 1
        key = self.choice("resource") or ""
        typed = self.value("amount")
        amount = optional_int(typed, "Amount", 1, 1_000_000)
        if amount is not None and not key:
            self.query_one("#resource", Choice).focus()
            raise FormError("Amount: choose the resource it is spent from (Spends), or leave the amount empty.")
        return key, amount or 1

    def use(self) -> Command | list[Command]:
        oid = self._picked_id()
        picked = self._statblock_activity(oid)
        if picked is not None:
            if self.query("#resource") and self.choice("resource"):
                resource, amount = self._resource()  # the GM's choice of what it spends wins
                picked = {**picked, "resource": resource, "amount": amount}
            return Activity(self.who, **picked)
        if oid.startswith("cat:"):
            speed = optional_int(self.value("speed"), "Speed Factor", 1, 9) if self._needs_speed(oid) else None
            resource, amount = self._resource()
            return catalog.DoActivity(self.who, oid[4:], speed, resource, amount)
        if oid.startswith("stop:"):
            ch = self.target.channels[int(oid[5:])]
            twins = [x for x in self.target.channels if x.status == "" and x.activity == ch.activity]
            return catalog.StopChannel(self.who, ch.activity, start=_begun(ch) if len(twins) > 1 else None)
        name = self.value("name").strip()
        if not name:
            raise FormError("Name the activity.")
        earliest = optional_int(self.value("earliest"), "Earliest phase", 1, 9)
        resource, amount = self._resource()
        cmd = Activity(
            self.who,
            name,
            cost=self.choice("cost"),
            earliest=earliest,
            lock=self.checked("lock"),
            master=self.checked("master"),
            reaction=self.checked("reaction"),
            channel=self.checked("channel"),
            uninterruptible=self.checked("uninterruptible"),
            repeatable=self.checked("repeatable"),
            resource=resource,
            amount=amount,
            across_rounds=self.checked("across_rounds"),
        )
        if self.checked("keep"):
            spec = catalog.as_spec(cmd)  # the same entry the engine makes of an ad-hoc activity
            return [catalog.DefineActivity(spec), catalog.DoActivity(self.who, name, resource=resource, amount=amount)]
        return cmd


def _begun(ch: Any) -> int:
    """The phase (1-9) a channel began in; one carried from last round counts back from phase 1."""
    return int(ch.start) if ch.start >= 1 else int(ch.start) + 9
