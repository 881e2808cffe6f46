"""The attack dialogs (key `w`) of each ruleset, and the prompt for rolls the table owes.

Each attack is ONE engine command, so one undo takes all of it back. The chance to hit is worked
out by the engine's own preview helpers from the fields as they stand and shown before anything is
rolled. Cosmere and Warhammer decide some things after the roll (graze, critical; deflection,
sudden death, the injury read off the table): "Roll" dry-runs the command (the engine is pure and
the RNG is in the state, so committing rolls the same dice) and a second dialog takes the choices
and commits. Imported on first use, like the other dialogs.
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from msgspec.structs import replace
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Checkbox, Input, Static

from engine import RuleError
from engine.commands import Command
from engine.events import describe
from engine.history import History
from engine.state import Combatant, Due, Fight
from tui.dialogs import (
    Choice,
    Dialog,
    FormError,
    Tick,
    combatant_options,
    field,
    name_of,
    optional_int,
    parse_given,
    parse_int,
    row,
    table_rolls,
    words,
)
from tui.text import clean, literal

if TYPE_CHECKING:
    from tui.main import MainScreen


def pct(p: Fraction) -> str:
    """An exact chance as a percentage: every d20 and d100 chance is a multiple of 1/400."""
    s = f"{float(p) * 100:.2f}".rstrip("0").rstrip(".")
    return f"{s}%"


def attacker_of(f: Fight, selected: str) -> str:
    """The acting combatant attacks, else the selected one."""
    return f.current or selected


MODES: list[tuple[str | Text, str]] = [
    ("worked out from the sources", ""),
    ("normal (GM's call)", "normal"),
    ("advantage (GM's call)", "advantage"),
    ("disadvantage (GM's call)", "disadvantage"),
]

# how far back the attack dialog looks for an attacker's last attack: a long fight has a few hundred
# commands; a fight whose attacker has not attacked in this many is not worth the wait
RECALL_WALK = 5000


def last_attack(history: History, who: str, types: tuple[type, ...], cap: int = RECALL_WALK) -> Any | None:
    """The last command of one of `types` that `who` made, on the path from the history's cursor back
    to the root (what undo would take back, not an undone branch); None if there is none within `cap`
    nodes. Derived from the saved history, so it survives quitting and reopening the fight."""
    nodes = history.nodes
    i = history.cursor
    for _ in range(cap):
        if i < 0:
            break
        node = nodes[i]
        cmd = node.command
        if isinstance(cmd, types) and getattr(cmd, "who", None) == who:
            return cmd
        i = node.parent
    return None


class _AttackBase(Dialog):
    """Shared by the three attack dialogs: the odds line follows every change of a field."""

    OK = "Roll"
    HINT = "enter or ctrl+s: roll · space: tick · esc: cancel · tab: next field"
    DICE = "given"  # the field for the attacker's own roll: required when the table rolls for its side
    # the attacker's own fields, filled from its last attack (never the target, the dice or the situation)
    REMEMBERED: tuple[str, ...] = ()

    def __init__(self, who: str, target: str = "") -> None:
        super().__init__(who)
        self.preset = target if target != who else ""  # the combatant selected in the tracker
        self._recalled: dict[str, dict[str, Any]] = {}  # attacker -> its fields from its last attack
        self._defaults: dict[str, Any] = {}  # each remembered field as composed
        self._filled: dict[str, Any] = {}  # what the dialog last put in each: anything else the GM typed

    # --- the attacker's last attack -------------------------------------------------------------------
    def attack_types(self) -> tuple[type, ...]:
        """The commands that count as this ruleset's attack (the ones `recall` reads)."""
        return ()

    def recall(self, cmd: Any) -> dict[str, Any]:
        """Field id -> value, from one of the attacker's earlier attacks (fields left out: as composed)."""
        return {}

    def recalled(self, who: str) -> dict[str, Any]:
        if who not in self._recalled:
            session = self.fracas.session
            cmd = last_attack(session.history, who, self.attack_types()) if session is not None and who else None
            self._recalled[who] = self.recall(cmd) if cmd is not None else {}
        return self._recalled[who]

    def prefill(self) -> None:
        """Fill the attacker's fields from its last attack in this fight. A field the GM has changed
        since the dialog opened keeps what was typed; the others follow the attacker chosen."""
        if not self.REMEMBERED:
            return
        if not self._defaults:
            for wid in self.REMEMBERED:
                self._defaults[wid] = self._filled[wid] = self.query_one(f"#{wid}").value  # type: ignore[attr-defined]
        values = self.recalled(self.attacker)
        # one odds update at the end, not one per field
        with self.prevent(Input.Changed, Checkbox.Changed, Choice.Changed):
            for wid, default in self._defaults.items():
                w: Any = self.query_one(f"#{wid}")
                if w.value != self._filled[wid]:
                    continue  # the GM's own
                w.value = values.get(wid, default)
                self._filled[wid] = w.value
        self.prefilled()

    def prefilled(self) -> None:
        """After the fields were filled (no Changed messages were sent for them)."""

    def _targets(self) -> list[tuple[str | Text, str]]:
        return combatant_options(self.fight)

    def default_target(self) -> str:
        """The combatant selected in the tracker; else the first one standing on another side than the
        attacker's (a PC's turn usually means an attack on an enemy); else the first other one."""
        if self.preset:
            return self.preset
        me = self.fight.find(self.who)
        others = [c for c in self.fight.combatants if c.id != self.who]
        if me is not None:
            foe = next((c for c in others if c.side != me.side and not c.down), None)
            if foe is not None:
                return foe.id
        return others[0].id if others else ""

    def attacker_row(self) -> Horizontal:
        """The acting combatant by default; another one for a reaction (an opportunity attack,
        a Reactive Strike)."""
        return row("Attacker", Choice(combatant_options(self.fight), self.who, id="attacker"))

    @property
    def attacker(self) -> str:
        return self.choice("attacker") if self.query("#attacker") else self.who

    def heading(self) -> Text:
        return Text("Attack") + self.table_note(self.who)

    @on(Choice.Changed, "#attacker")
    def _attacker_changed(self) -> None:
        # another attacker may be on the other side: the heading says whose dice the table gives
        if self.is_mounted:
            self.query_one("#heading", Static).update(Text("Attack") + self.table_note(self.attacker))
            self.prefill()  # its own weapon, from its last attack
            self._update_odds()

    def require_table_dice(self) -> None:
        """The attacker's side is rolled at the table: no roll without its die (the cursor goes there)."""
        self.require_dice(self.attacker, "attack", self.DICE)

    def action_submit(self) -> None:
        try:
            self.require_table_dice()
        except FormError as exc:
            self.show_error(str(exc))
            return
        super().action_submit()

    def compose(self) -> ComposeResult:
        # the odds sit under the fields, outside their scroll, so they stay in sight while typing
        for w in super().compose():
            if w.id == "error":
                yield Static(id="odds", classes="wide-label")
            yield w

    def on_mount(self) -> None:
        # Textual runs each class's on_mount (subclass first): subclasses hook in via initial_focus
        self.prefill()
        self._update_odds()
        self.initial_focus()

    def initial_focus(self) -> None:
        if table_rolls(self.fight, self.who):
            self.query_one(f"#{self.DICE}", Input).focus()
            return
        if not self.preset and self.query("#target"):
            # no one was picked in the tracker: choosing the target (left/right) comes first
            self.query_one("#target", Choice).focus()
            return
        first = self.query("Input")
        if first:
            first.first().focus()

    @on(Input.Changed)
    @on(Checkbox.Changed)
    @on(Choice.Changed)
    def _changed(self) -> None:
        if self.is_mounted:
            self._update_odds()

    def _update_odds(self) -> None:
        try:
            text = self.odds()
        except (FormError, RuleError) as exc:
            text = Text(str(exc), style="bold")
        for w in self.query("#odds"):
            w.update(text)  # type: ignore[attr-defined]

    def odds(self) -> Text:
        raise NotImplementedError

    def sources_text(self, adv: tuple[str, ...], dis: tuple[str, ...]) -> Text:
        t = Text()
        if adv:
            t.append("\nadvantage: ", style="dim")
            t.append(", ".join(adv))
        if dis:
            t.append("\ndisadvantage: ", style="dim")
            t.append(", ".join(dis))
        return t


# --- d20 -------------------------------------------------------------------------------------------


# the ability an attack's bonus is worked out from: "auto" is Strength (Dexterity for a ranged weapon)
# when the bonus is left empty, and the bonus as typed otherwise
D20_ABILITIES: list[tuple[str | Text, str]] = [
    ("Str, or Dex if ranged", "auto"),
    ("Strength", "str"),
    ("Dexterity (finesse or ranged)", "dex"),
    ("Intelligence (a power)", "int"),
    ("Wisdom (a power)", "wis"),
    ("Charisma (a power)", "cha"),
    ("Constitution (a power)", "con"),
    ("none: the bonus as typed", ""),
]
BONUS_HINTS = {
    "auto": "empty: ability + proficiency; or the whole bonus",
    "": "the whole bonus (empty: +0)",
}
BONUS_ON_TOP = "added on top, like a +1 weapon (empty: none)"


class D20AttackDialog(_AttackBase):
    """An attack roll, a Shield Bash, or a grapple / shove."""

    REMEMBERED = ("bonus", "ability", "proficient", "label", "damage", "mod", "type", "kind", "use")

    def fields(self) -> ComposeResult:
        kinds: list[tuple[str | Text, str]] = [("Attack", "attack"), ("Shield Bash (bonus action)", "bash")]
        kinds += [("Grapple", "grapple"), ("Shove prone", "prone"), ("Shove 5 ft", "push")]
        yield self.attacker_row()
        yield row("Target", Choice(self._targets(), self.default_target(), id="target"))
        yield row("What", Choice(kinds, id="what"))
        with Horizontal(classes="row", id="attack-fields"):
            yield Static(Text("Attack bonus"), classes="label")
            yield field(placeholder=BONUS_HINTS["auto"], id="bonus", number=True)
        yield row(
            "Ability",
            Choice(D20_ABILITIES, "auto", id="ability"),
            Tick("proficient", True, id="proficient", compact=True),
            id="r-ability",
        )
        yield row("Weapon (for the log)", field(placeholder="longsword", id="label"), id="r-label")
        yield row("Damage dice", field(placeholder="1d8 (empty: no damage)", id="damage"), id="r-damage")
        yield row(
            "Damage modifier",
            field(placeholder="empty: the ability's, else +0", id="mod", number=True),
            id="r-mod",
        )
        yield row("Damage type", field(placeholder="slashing (optional)", id="type"), id="r-type")
        yield row("Melee or ranged", Choice([("melee", "melee"), ("ranged", "ranged")], id="kind"), id="r-kind")
        uses: list[tuple[str | Text, str]] = [
            ("action (Attack)", "action"),
            ("bonus action", "bonus"),
            ("off-hand (bonus, after Attack)", "offhand"),
            ("opportunity (reaction)", "opportunity"),
            ("readied (reaction)", "readied"),
            ("action on a power", "power"),
            ("already paid for", "none"),
        ]
        yield row("Spends", Choice(uses, id="use"), id="r-use")
        cover: list[tuple[str | Text, str]] = [
            ("none", ""),
            ("half (+2 AC)", "half"),
            ("three-quarters (+5 AC)", "three-quarters"),
        ]
        yield row("Cover", Choice(cover, id="cover"), id="r-cover")
        yield row(
            "Situation",
            Tick("high ground", id="high_ground", compact=True),
            Tick("flanking", id="flanking", compact=True),
            id="r-situation",
        )
        yield row("More advantage", field(placeholder="Help, ... (commas)", id="adv"), id="r-adv")
        yield row("More disadvantage", field(placeholder="darkness, ... (commas)", id="dis"), id="r-dis")
        yield row("Roll", Choice(MODES, id="mode"), id="r-mode")
        yield row("Their bonus", field("0", id="target_bonus", number=True), id="r-tbonus")
        yield row("Table d20 (optional)", field(placeholder="empty: the app rolls; 14, or 20 9", id="given"))
        yield row("Table damage dice", field(placeholder="each die: 6, or 3 5", id="damage_given"), id="r-dgiven")
        yield row("Their table d20", field(placeholder="the target's d20 (optional)", id="target_given"), id="r-tgiven")

    def on_mount(self) -> None:
        self._show_rows()

    @on(Choice.Changed, "#what")
    def _what_changed(self) -> None:
        if self.is_mounted:
            self._show_rows()
            self._bonus_hint()

    def attack_types(self) -> tuple[type, ...]:
        from engine.rules.d20_combat import D20Attack

        return (D20Attack,)

    def recall(self, cmd: Any) -> dict[str, Any]:
        out: dict[str, Any] = {
            # with an ability the bonus is what goes on top of it; without, the whole bonus
            "bonus": str(cmd.bonus) if cmd.bonus or not cmd.ability else "",
            "ability": cmd.ability or "auto",  # no ability: the bonus was typed whole
            "proficient": cmd.proficient,
            "label": cmd.label,
            "damage": cmd.damage,
            "mod": str(cmd.mod) if cmd.mod else "",
            "type": cmd.type,
            "kind": cmd.kind,
        }
        if cmd.use == "power":  # a power stays a power; how a weapon attack is paid for is the moment's
            out["use"] = "power"
        return out

    def prefilled(self) -> None:
        self._bonus_hint()

    @on(Choice.Changed, "#ability")
    def _bonus_hint(self) -> None:
        """The bonus field says what it means with the ability chosen (a grapple's is Athletics)."""
        if self.is_mounted:
            hint = BONUS_HINTS.get(self.choice("ability"), BONUS_ON_TOP)
            if self.choice("what") != "attack":
                hint = "the Athletics bonus (empty: +0)"
            self.query_one("#bonus", Input).placeholder = hint

    def _show_rows(self) -> None:
        what = self.choice("what")
        attack_only = ("r-ability", "r-label", "r-damage", "r-mod", "r-type", "r-kind", "r-use", "r-dis")
        rolled = ("r-cover", "r-situation", "r-adv", "r-mode", "r-dgiven")
        for rid in attack_only:
            self.query_one(f"#{rid}").set_class(what != "attack", "hidden")
        for rid in rolled:
            self.query_one(f"#{rid}").set_class(what not in ("attack", "bash"), "hidden")
        self.query_one("#r-dis").set_class(what not in ("attack", "bash"), "hidden")
        for rid in ("r-tbonus", "r-tgiven"):
            self.query_one(f"#{rid}").set_class(what in ("attack", "bash"), "hidden")
        self.query_one("#attack-fields").set_class(what == "bash", "hidden")

    def require_table_dice(self) -> None:
        super().require_table_dice()
        if self.choice("what") in ("grapple", "prone", "push"):
            # the target rolls against it: its own side's dice
            self.require_dice(self.choice("target") or "", "contest", "target_given")
            return
        if self.choice("what") not in ("attack", "bash") or not table_rolls(self.fight, self.attacker):
            return
        if self.value("damage_given").strip():
            return
        from engine import apply
        from engine.rules.d20_combat import AttackRolled, D20Attack

        cmd = self.build()
        if isinstance(cmd, D20Attack) and not cmd.damage:
            return
        # the d20 typed decides whether damage is rolled at all: a dry run tells (the engine is pure)
        _, events = apply(self.fight, cmd)
        if any(isinstance(e, AttackRolled) and e.outcome != "miss" for e in events):
            self.require_dice(self.attacker, "damage", "damage_given")

    def build(self) -> Command:
        from engine.rules.d20_combat import D20Attack, Grapple, ShieldBash

        target = self.choice("target") or ""
        if not target:
            raise FormError("Choose a target.")
        what = self.choice("what")
        given = parse_given(self.value("given"))
        if what in ("grapple", "prone", "push"):
            shove = "" if what == "grapple" else what
            return Grapple(
                self.attacker,
                target,
                shove,
                optional_int(self.value("bonus"), "Athletics bonus", -100, 100) or 0,
                parse_int(self.value("target_bonus"), "Their bonus", -100, 100),
                given=given,
                target_given=parse_given(self.value("target_given")),
            )
        common: dict[str, Any] = dict(
            cover=self.choice("cover"),
            high_ground=self.checked("high_ground"),
            flanking=self.checked("flanking"),
            advantage=words(self.value("adv")),
            disadvantage=words(self.value("dis")),
            mode=self.choice("mode"),
            given=given,
            damage_given=parse_given(self.value("damage_given")),
        )
        if what == "bash":
            return ShieldBash(self.attacker, target, **common)
        kind, use = self.choice("kind"), self.choice("use")
        bonus, ability = self._bonus(kind, use)
        proficient = self.checked("proficient")
        if not proficient and not ability:
            raise FormError("A typed bonus is the whole bonus: tick proficient, or choose the ability to work it out.")
        dmg_mod = optional_int(self.value("mod"), "Damage modifier", -100, 100) or 0
        if dmg_mod and ability and use != "power":
            raise FormError("The damage adds the ability's modifier: leave the damage modifier empty.")
        return D20Attack(
            self.attacker,
            target,
            bonus=bonus,
            damage=self.value("damage").strip(),
            mod=dmg_mod,
            type=self.value("type").strip(),
            kind=kind,
            use=use,
            label=self.value("label").strip(),
            ability=ability,
            proficient=proficient,
            **common,
        )

    def _bonus(self, kind: str, use: str) -> tuple[int, str]:
        """The typed bonus and the ability the engine works the rest out from."""
        typed = optional_int(self.value("bonus"), "Attack bonus", -100, 100)
        ability = self.choice("ability")
        if ability != "auto":
            return typed or 0, ability
        if typed is not None:
            return typed, ""  # the statblock's bonus, as typed
        if use == "power":
            raise FormError("A power's attack adds its casting ability: choose it under Ability, or type the bonus.")
        return 0, "dex" if kind == "ranged" else "str"

    def odds(self) -> Text:
        from engine.rules.d20_combat import D20Attack, ShieldBash, attack_preview

        cmd = self.build()
        if not isinstance(cmd, (D20Attack, ShieldBash)):
            return Text("Athletics against Athletics or Acrobatics: the higher total wins.", style="dim")
        p = attack_preview(self.fight, replace(cmd, given=None, damage_given=None))
        t = Text()
        t.append(f"Hit {pct(p.p_hit)}", style="bold")
        t.append(f"  ·  critical {pct(p.p_crit)}", style="bold")
        dice = "d20" if p.mode == "normal" else f"2d20 ({p.mode})"
        t.append(f"   {dice} {p.bonus:+d} vs AC {p.ac}", style="dim")
        if isinstance(cmd, D20Attack) and cmd.ability:
            t.append(f" ({self._worked_out(cmd)})", style="dim")
        else:
            from engine.rules.d20_combat import exhaustion

            tired = exhaustion(self.fight.get(cmd.who))
            if tired:
                t.append(f" (Exhaustion -{tired})", style="dim")
        t.append_text(self.sources_text(p.advantages, p.disadvantages))
        return t

    def _worked_out(self, cmd: Any) -> str:
        """How the bonus was worked out from the sheet, and what the damage adds."""
        from engine.rules.d20_combat import mod

        c = self.fight.get(cmd.who)
        m = mod(c.stat(cmd.ability, 10))
        parts = [f"{cmd.ability.capitalize()} {m:+d}"]
        if cmd.proficient:
            parts.append(f"proficiency {c.stat('prof', 2):+d}")
        if cmd.bonus:
            parts.append(f"{cmd.bonus:+d}")
        from engine.rules.d20_combat import exhaustion

        if exhaustion(c):
            parts.append(f"Exhaustion -{exhaustion(c)}")
        text = ", ".join(parts)
        if cmd.damage and cmd.use != "power":
            add = min(m, 0) if cmd.use == "offhand" else m
            text += f"; damage {add:+d}"
        return text


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


class CosmereAttackDialog(_AttackBase):
    """One test and one damage roll against one or several targets; the choices come after the roll."""

    REMEMBERED = ("modifier", "damage", "type", "defense", "kind", "label", "range")

    def attack_types(self) -> tuple[type, ...]:
        from engine.rules.cosmere_combat import CosmereAttack

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
        # another attacker: it is not its own target (the box ticked for the first one's foe may be it)
        box = self.box("t", event.choice.value)
        if box is not None:
            box.value = False

    def fields(self) -> ComposeResult:
        from engine.rules.cosmere_combat import DEFENSES

        yield self.attacker_row()
        first = self.default_target()  # the one picked in the tracker, else the first standing foe
        # the boxes' ids are positions: a combatant id comes from a file and need not be a valid id
        self._slots = {c.id: i for i, c in enumerate(self.fight.combatants)}
        for i, c in enumerate(self.fight.combatants):
            yield Horizontal(
                Tick(literal(c.name), c.id == first, id=f"t-{i}", compact=True),
                Tick("cannot sense it", id=f"u-{i}", compact=True),
                classes="row",
            )
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
            Tick("in an enemy's reach", id="in_reach", compact=True),
            Tick("long range", id="long_range", compact=True),
            Tick("unstable", id="unstable", compact=True),
        )
        yield row("Ranged, next to ally", Choice(self._allies(self.who), "", id="ally"))
        yield row("More advantage", field(placeholder="(commas)", id="adv"))
        yield row("More disadvantage", field(placeholder="(commas)", id="dis"))
        yield row("Roll", Choice(MODES, id="mode"))
        yield row("Table d20 (optional)", field(placeholder="empty: the app rolls; 14, or 17 5", id="given"))
        yield row("Table damage dice", field(placeholder="each die: 6, or 3 5", id="damage_given"))

    def box(self, kind: str, cid: str) -> Tick | None:
        """The target box ("t") or cannot-sense box ("u") of combatant `cid`, if it has one."""
        i = getattr(self, "_slots", {}).get(cid)
        found = self.query(f"#{kind}-{i}") if i is not None else None
        return found.first(Tick) if found else None

    def ticked(self, kind: str, cid: str) -> bool:
        box = self.box(kind, cid)
        return box is not None and box.value

    def initial_focus(self) -> None:
        if self.preset or table_rolls(self.fight, self.who):
            super().initial_focus()
            return
        # the targets come first: tick them with space, tab to move on; the cursor starts on the
        # first standing foe's box
        foe = self.box("t", self.default_target())
        boxes = self.query(Checkbox)
        if foe is not None:
            foe.focus()
        elif boxes:
            boxes.first().focus()

    def build(self) -> Command:
        from engine.rules.cosmere_combat import CosmereAttack

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
        from engine.rules.cosmere_combat import attack_preview

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
        if cmd.ally:
            t.append("\nnext to ")
            t.append_text(name_of(self.fight, cmd.ally))
            t.append(": the stakes are raised (plot die); on a miss a Complication may graze them", style="dim")
        return t

    def action_submit(self) -> None:
        from engine import apply
        from engine.rules.cosmere_combat import CosmereAttackRolled, TargetResult

        try:
            self.require_table_dice()
            cmd = self.build()
            # a dry run without the choices (like outcome_preview), keeping the damage roll to show it
            _, events = apply(self.fight, replace(cmd, graze=(), critical=False))  # type: ignore[type-var]
            if any(isinstance(e, CosmereAttackRolled) and e.damage is not None for e in events):
                self.require_dice(self.attacker, "damage", "damage_given")  # the table rolls it too
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
                label = f"graze it: 1 focus (of {have}), {self.dice} damage"
                yield Tick(label, id=f"g-{i}", compact=True)  # a position: ids never come from data
        if any(r.outcome == "hit" for r in self.results):
            yield Tick("critical: spend an Opportunity (damage dice at their maximum)", id="critical", compact=True)
        if self.cmd.ally and self.cmd.damage and any(r.outcome == "miss" for r in self.results):
            ally = self.fight.find(self.cmd.ally)
            label = Text("ally grazed (Complication): ")
            label.append_text(literal(ally.name) if ally is not None else Text("?"))
            label.append(f" takes {self.dice} damage, no focus")
            yield Tick(label, id="ally_graze", compact=True)

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


# --- Warhammer -------------------------------------------------------------------------------------


# the GM's ruling on whether the defender knows of this attack (a defender unaware of it cannot defend)
AWARE: list[tuple[str | Text, bool | None]] = [
    ("by the rules (yes, unless Surprised)", None),
    ("no: it cannot defend", False),
    ("yes: it may defend though Surprised", True),
]


class WarhammerAttackDialog(_AttackBase):
    """The d100 attack with the defender's choice; the critical and its prompts come after the roll."""

    DICE = "given_attack"
    REMEMBERED = ("weapon", "kind", "skill", "damage", "impale")

    def attack_types(self) -> tuple[type, ...]:
        from engine.rules.warhammer_combat import Attack

        return (Attack,)

    def recall(self, cmd: Any) -> dict[str, Any]:
        # the weapon and how it is used; the modifier and the multiple-attack option are the moment's
        return {
            "weapon": cmd.weapon,
            "kind": cmd.kind,
            "skill": cmd.skill,
            "damage": str(cmd.damage),
            "impale": cmd.impale,
        }

    def fields(self) -> ComposeResult:
        from engine.rules.warhammer_combat import OPTIONS

        yield self.attacker_row()
        yield row("Target", Choice(self._targets(), self.default_target(), id="target"))
        yield row("Weapon (for the log)", field(placeholder="hand weapon", id="weapon"))
        kinds: list[tuple[str | Text, str]] = [("melee", "melee"), ("thrown", "thrown"), ("missile", "missile")]
        yield row("Weapon kind", Choice(kinds, id="kind"))
        skills: list[tuple[str | Text, str]] = [("WS for melee, BS otherwise", ""), ("WS", "ws"), ("BS", "bs")]
        yield row("Skill", Choice(skills, id="skill"))
        yield row("Modifier", field("0", id="modifier", number=True))
        yield row("Damage bonus", field("0", id="damage", number=True))
        yield row(
            "Weapon",
            Tick("Impale", id="impale", compact=True),
            Tick("thrown or missile, used in melee", id="in_melee", compact=True),
        )
        # a second attack of the turn keeps the option the first one chose (the rules require it)
        me = self.fight.find(self.who)
        option = me.economy.attack_option if me is not None and me.economy.attacks else ""
        yield row("Attacks", Choice([(o.label, k) for k, o in OPTIONS.items()], option, id="option"))
        yield row("Defender aware", Choice(AWARE, None, id="aware"))
        yield row("Defence", Choice([("none", "")], id="defence"))
        yield row("Defence modifier", field("0", id="defence_modifier", number=True))
        yield row("Table d100 attack", field(placeholder="empty: the app rolls", id="given_attack"))
        yield row("Table d100 defence", field(placeholder="(optional)", id="given_defence"))
        yield row("Table d10 damage", field(placeholder="(optional)", id="given_damage"))
        yield row("Table d100 critical", field(placeholder="(optional)", id="given_critical"))

    def _base(self) -> Any:
        from engine.rules.warhammer_combat import Attack

        target = self.choice("target") or ""
        if not target:
            raise FormError("Choose a target.")
        return Attack(
            self.attacker,
            target,
            weapon=self.value("weapon").strip(),
            kind=self.choice("kind"),
            in_melee=self.checked("in_melee"),
            damage=parse_int(self.value("damage"), "Damage bonus", -100, 100),
            impale=self.checked("impale"),
            skill=self.choice("skill"),
            modifier=parse_int(self.value("modifier"), "Modifier", -200, 200),
            option=self.choice("option"),
            defence_modifier=parse_int(self.value("defence_modifier"), "Defence modifier", -200, 200),
            aware=self.choice("aware"),
        )

    def _refresh_defences(self) -> None:
        """The defender's choices follow the weapon (missiles cannot be parried) and its reactions."""
        from engine.rules.warhammer_combat import defence_choices

        ch = self.query_one("#defence", Choice)
        keep = ch.value
        opts: list[tuple[str | Text, str]] = [("none", "")]
        try:
            for what, mod, why in defence_choices(self.fight, self._base()):
                if not why:
                    opts.append((f"{what}{f' ({mod:+d})' if mod else ''}", what))
        except (FormError, RuleError):
            pass
        if [v for _, v in opts] != [v for _, v in ch.options]:
            ch.options = opts
            ch.set_reactive(Choice.index, 0)
            ch.value = keep
            ch.refresh()

    def odds(self) -> Text:
        from engine.rules.warhammer_combat import attack_odds, defence_choices

        self._refresh_defences()
        cmd = replace(self._base(), defence=self.choice("defence"))
        o = attack_odds(self.fight, cmd)
        t = Text()
        t.append(f"Hit {pct(o.hit)}  ·  critical {pct(o.critical)}  ·  fumble {pct(o.fumble)}", style="bold")
        mods = ", ".join(f"{label} {v:+d}" for label, v in o.mods)
        t.append(f"   d100 ≤ {o.need}" + (f" ({mods})" if mods else ""), style="dim")
        if o.lands is not None:
            t.append(f"\nlands through the {cmd.defence}: {pct(o.lands)}", style="bold")
            t.append(f"  ({cmd.defence} ≤ {o.defence_need})", style="dim")
        shut = [f"{w}: {why}" for w, _, why in defence_choices(self.fight, cmd) if why]
        if shut:
            t.append("\n" + "; ".join(shut), style="dim")
        return t

    def build(self) -> Command:
        return replace(
            self._base(),
            defence=self.choice("defence"),
            given_attack=parse_given(self.value("given_attack")),
            given_defence=parse_given(self.value("given_defence")),
            given_damage=parse_given(self.value("given_damage")),
            given_critical=parse_given(self.value("given_critical")),
        )

    def require_table_dice(self) -> None:
        super().require_table_dice()
        if self.choice("defence"):  # the defender's test is rolled by its own side
            self.require_dice(self.choice("target") or "", "defence", "given_defence")

    def action_submit(self) -> None:
        from engine.rules.warhammer_combat import preview_attack

        try:
            self.require_table_dice()
            cmd = self.build()
            report, events = preview_attack(self.fight, cmd)  # type: ignore[arg-type]
        except (FormError, RuleError) as exc:
            self.show_error(str(exc))
            return
        self.dismiss()
        self.app.push_screen(WarhammerOutcomeDialog(cmd, report, events))


class WarhammerOutcomeDialog(Dialog):
    """The attack as rolled (not yet committed), with what the engine asks of the GM: a fumble's
    result, a critical's deflection, the sudden-death table or the injury read off the table."""

    def __init__(self, cmd: Any, report: Any, events: tuple[Any, ...]) -> None:
        super().__init__(cmd.who)
        self.cmd = cmd
        self.report = report
        self.events = events

    @property
    def defender(self) -> Combatant:
        return self.fight.get(self.cmd.target)

    def heading(self) -> Text:
        return Text("The attack as rolled: settle what the table decides, then apply")

    def fields(self) -> ComposeResult:
        from engine.rules.warhammer_combat import may_deflect, tier

        for e in self.events:
            yield Static(Text(describe(e)), classes="wide-label")
        r = self.report
        t = self.defender
        if r.fumble:
            yield row("Fumble result (read)", field(placeholder="what the fumble table says (optional)", id="fumble"))
        if r.critical_total is not None:
            if may_deflect(t):
                yield Tick(
                    "armour deflects the critical (-20 severity, that location's armour damaged)",
                    id="deflect",
                    compact=True,
                )
            if tier(t) == "minion":
                opts: list[tuple[str | Text, bool]] = [("sudden-death table", True), ("critical injury table", False)]
                yield row("Minion's fate", Choice(opts, id="sudden"))
            yield row("Injury (read)", field(placeholder="what the critical table says (optional)", id="injury"))
        if r.willpower is not None:  # a champion at 0 Wounds tests Willpower: the table may roll it
            yield row("Table d100 Willpower", field(placeholder="empty: as rolled above", id="will"))

    def on_mount(self) -> None:
        self.query_one("#ok").focus()

    def build(self) -> Command:
        cmd = self.cmd
        if self.query("#fumble"):
            cmd = replace(cmd, fumble_result=self.value("fumble").strip())
        if self.query("#deflect"):
            cmd = replace(cmd, deflect=self.checked("deflect"))
        sudden = self.choice("sudden") if self.query("#sudden") else None
        if sudden is not None:
            cmd = replace(cmd, sudden_death=sudden)
        if self.query("#injury"):
            injury = self.value("injury").strip()
            if injury and sudden:
                raise FormError("The sudden-death table gives the result itself: leave the injury empty.")
            cmd = replace(cmd, injury=injury)
        if self.query("#will"):
            cmd = replace(cmd, given_willpower=parse_given(self.value("will")))
        return cmd


# --- the rulesets' other commands (from the palette) ------------------------------------------------


class _RulesDialog(Dialog):
    """One ruleset command for one combatant (the selected one by default); a roll in it is the
    table's when the fight's setting says so for that combatant's side."""

    TITLE = ""
    WHO = "Who"

    def heading(self) -> Text:
        return Text(self.TITLE) + self.table_note(self.who)

    def who_row(self) -> Horizontal:
        return row(self.WHO, Choice(combatant_options(self.fight), self.who, id="who"))

    @property
    def subject(self) -> str:
        return self.choice("who") or ""

    @on(Choice.Changed, "#who")
    def _who_changed(self) -> None:
        if self.is_mounted:
            self.query_one("#heading", Static).update(Text(self.TITLE) + self.table_note(self.subject))

    def on_mount(self) -> None:
        self.initial_focus()  # subclasses hook in here: Textual runs every class's on_mount

    def initial_focus(self) -> None:
        given = self.query("#given")
        if given and table_rolls(self.fight, self.subject):
            given.first().focus()
            return
        first = self.query(Input)
        if first:
            first.first().focus()
        else:
            self.query_one("#ok").focus()

    def given_or_total(self, expr: str) -> tuple[tuple[int, ...] | None, int | None]:
        """The table's dice or the total it called out (not both); one of them when the table rolls."""
        given = parse_given(self.value("given"))
        total = optional_int(self.value("total"), "Total", 0, 100_000) if self.query("#total") else None
        if given is not None and total is not None:
            raise FormError("Give the dice or the total, not both.")
        if total is None:
            self.require_dice(self.subject, expr, "given")
        return given, total


class CosmereFallDialog(_RulesDialog):
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
        from engine.rules.cosmere_combat import Fall

        feet = parse_int(self.value("feet"), "Feet", 0, 10_000)
        given, total = self.given_or_total(f"{feet // 10}d6" if feet >= 10 else "")
        return Fall(self.subject, feet, given, total)


class CosmereTerrainDialog(_RulesDialog):
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
        from engine.rules.cosmere_combat import EnterTerrain

        damage = self.value("damage").strip()
        if not damage:
            raise FormError("The terrain's damage: give dice like 1d4.")
        given, total = self.given_or_total(damage)
        label = self.value("label").strip() or "dangerous terrain"
        return EnterTerrain(self.subject, damage, label, given, total)


class CosmereGrantDialog(_RulesDialog):
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
        from engine.rules.cosmere_combat import Grant

        return Grant(self.subject, self.choice("actions"), self.choice("reactions"), self.value("label").strip())


class D20ReadyDialog(_RulesDialog):
    OK = "Ready"
    TITLE = "Ready an action (spends the action; taken as a reaction when the trigger comes)"

    def fields(self) -> ComposeResult:
        yield self.who_row()
        yield row("Action held", field(placeholder="Attack, Dash, a power", id="action"))
        yield row("Trigger", field(placeholder="when the door opens (optional)", id="trigger"))

    def build(self) -> Command:
        from engine.rules.d20_combat import Ready

        action = self.value("action").strip()
        if not action:
            raise FormError("Ready which action? Name it.")
        return Ready(self.subject, action, self.value("trigger").strip())


class D20ReleaseDialog(_RulesDialog):
    OK = "Take it"
    TITLE = "The trigger came: take the readied action (spends the reaction)"

    def fields(self) -> ComposeResult:
        yield self.who_row()
        yield Static(id="held", classes="wide-label")
        yield Static(
            Text("A readied attack is rolled from the attack dialog (k), spending 'readied (reaction)'.", style="dim"),
            classes="wide-label",
        )

    def initial_focus(self) -> None:
        self._show_held()
        self.query_one("#ok").focus()

    @on(Choice.Changed, "#who")
    def _show_held(self) -> None:
        c = self.fight.find(self.subject)
        held = c.economy.ready if c is not None else ""
        for w in self.query("#held"):
            w.update(Text(f"Readied: {held}" if held else "Nothing readied."))  # type: ignore[attr-defined]

    def build(self) -> Command:
        from engine.rules.d20_combat import Release

        return Release(self.subject)


class WarhammerCriticalDialog(_RulesDialog):
    OK = "Roll"
    TITLE = "A critical injury outside an attack (damage past 0 Wounds, a fall, a trap)"

    def fields(self) -> ComposeResult:
        from engine.rules.warhammer_combat import LOCATIONS

        yield self.who_row()
        yield row("Location", Choice([(label, key) for key, label, _, _ in LOCATIONS], id="location"))
        yield row("Modifier", field("0", "+5 per point of damage beyond 0 Wounds", id="modifier", number=True))
        yield row("Armour", Tick("deflects it (-20 severity, the armour damaged)", id="deflect", compact=True))
        tables: list[tuple[str | Text, Any]] = [
            ("sudden death for minions, else injury", None),
            ("sudden-death table", True),
            ("critical injury table", False),
        ]
        yield row("Table", Choice(tables, id="sudden"))
        yield row("Injury (read)", field(placeholder="what the critical table says (optional)", id="injury"))
        yield row("Cause (for the log)", field(placeholder="a fall, a trap (optional)", id="source"))
        yield row("Table d100 (optional)", field(placeholder="empty: the app rolls", id="given"))

    def build(self) -> Command:
        from engine.rules.warhammer_combat import Critical

        given = parse_given(self.value("given"))
        self.require_dice(self.subject, "d100", "given")
        return Critical(
            self.subject,
            location=self.choice("location"),
            modifier=parse_int(self.value("modifier"), "Modifier", -200, 500),
            deflect=self.checked("deflect"),
            sudden_death=self.choice("sudden"),
            injury=self.value("injury").strip(),
            given=given,
            source=self.value("source").strip(),
        )


class WarhammerWillpowerDialog(_RulesDialog):
    OK = "Test"
    TITLE = "A champion at 0 Wounds tests Willpower to keep fighting"

    def fields(self) -> ComposeResult:
        yield self.who_row()
        yield row("Modifier", field("0", "the rule says +0", id="modifier", number=True))
        yield row("Table d100 (optional)", field(placeholder="empty: the app rolls", id="given"))

    def build(self) -> Command:
        from engine.rules.warhammer_combat import KeepFighting

        given = parse_given(self.value("given"))
        self.require_dice(self.subject, "d100", "given")
        return KeepFighting(self.subject, parse_int(self.value("modifier"), "Modifier", -100, 100), given)


# palette action -> (ruleset, dialog)
RULES_DIALOGS: dict[str, tuple[str, type[_RulesDialog]]] = {
    "fall": ("cosmere", CosmereFallDialog),
    "terrain": ("cosmere", CosmereTerrainDialog),
    "grant": ("cosmere", CosmereGrantDialog),
    "ready": ("d20", D20ReadyDialog),
    "release": ("d20", D20ReleaseDialog),
    "wh_critical": ("warhammer", WarhammerCriticalDialog),
    "willpower": ("warhammer", WarhammerWillpowerDialog),
}


DIALOGS: dict[str, type[_AttackBase]] = {
    "d20": D20AttackDialog,
    "cosmere": CosmereAttackDialog,
    "warhammer": WarhammerAttackDialog,
}


# --- owed rolls ------------------------------------------------------------------------------------

ABILITY_CHOICES: list[tuple[str | Text, str]] = [
    ("Wisdom", "wis"),
    ("Constitution", "con"),
    ("Strength", "str"),
    ("Dexterity", "dex"),
    ("Intelligence", "int"),
    ("Charisma", "cha"),
]


def owed(f: Fight) -> list[tuple[Combatant, Due]]:
    """Every roll the table owes, oldest first per combatant (only d20 rules make saves due)."""
    if f.ruleset != "d20":
        return []
    return [(c, d) for c in f.combatants for d in c.due]


class OwedRollDialog(Dialog):
    """A save the rules made due: roll it, enter the table's die or total, or waive it."""

    OK = "Settle"
    HINT = "enter: settle · esc: later (it stays owed) · tab: next field"

    def __init__(self, who: str, due: Due) -> None:
        super().__init__(who)
        self.due = due

    @property
    def concentration(self) -> bool:
        return self.due.what == "concentration"

    def heading(self) -> Text:
        t = literal(self.target.name) + Text(" owes a save: ")
        if self.concentration:
            t.append("Constitution, to keep concentrating")
        else:
            t.append(f"against {self.due.what}")
        if self.due.dc:
            t.append(f" (DC {self.due.dc})")
        if self.due.detail:
            t.append(f"\n{self.due.detail}", style="dim")
        return t

    def fields(self) -> ComposeResult:
        how: list[tuple[str | Text, str]] = [("roll it (or enter the table's roll)", "roll"), ("waive it", "waive")]
        yield row("Settle by", Choice(how, id="how"))
        if not self.concentration:
            yield row("Ability", Choice(ABILITY_CHOICES, id="ability"))
        yield row("DC", field(str(self.due.dc) if self.due.dc else "", "the save's DC", id="dc", number=True))
        yield row("Bonus", field(placeholder="empty: from the sheet", id="bonus", number=True))
        yield row("Table d20 (optional)", field(placeholder="the natural die(s): 12, or 12 7", id="given"))
        yield row("Or the total", field(placeholder="the total called out (optional)", id="total", number=True))

    def on_mount(self) -> None:
        self.query_one("#given", Input).focus()

    def build(self) -> Command:
        from engine.rules.d20_combat import D20Test

        resolves = self.due.what
        if self.choice("how") == "waive":
            return D20Test(self.who, resolves=resolves, waive=True)
        dc = optional_int(self.value("dc"), "DC", 1, 100)
        if self.concentration and self.due.dc and dc != self.due.dc:
            raise FormError(f"The concentration save's DC is {self.due.dc}, set by the damage taken.")
        given = parse_given(self.value("given"))
        total = optional_int(self.value("total"), "Total", -100, 200)
        if given is not None and total is not None:
            raise FormError("Give the d20 or the total, not both.")
        ability = "con" if self.concentration else self.choice("ability")
        return D20Test(
            self.who,
            ability=ability,
            dc=dc,
            bonus=optional_int(self.value("bonus"), "Bonus", -100, 100),
            given=given,
            total=total,
            resolves=resolves,
        )


class OwedPrompter:
    """Prompts once for each owed roll as it appears; escape leaves it owed (the palette's "Settle
    an owed roll" brings it back)."""

    def __init__(self) -> None:
        self.asked: set[tuple[str, int, Due]] = set()

    def check(self, screen: MainScreen, force: bool = False) -> None:
        app = screen.app
        if app.screen is not screen:
            return  # a dialog is up: asked again when the main screen is back on top
        f = screen.fight
        live = {(c.id, i, d) for c in f.combatants for i, d in enumerate(c.due)} if f.ruleset == "d20" else set()
        self.asked &= live  # a save settled (or undone) can be asked again if it comes back
        for c, d in owed(f):
            key = (c.id, next(i for i, x in enumerate(c.due) if x is d), d)
            if force or key not in self.asked:
                self.asked.add(key)
                app.push_screen(OwedRollDialog(c.id, d))
                return
        if force:
            screen.notify("No rolls are owed.", markup=False)
