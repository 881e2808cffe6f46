"""What every ruleset's attack dialog (key `w`) shares: the odds line, the attacker's last attack
recalled, the table's dice. Each ruleset's own attack dialog is in its slice (tui/rulesets/<id>/
dialogs.py, named by the slice's `dialogs["attack"]`).

Each attack is ONE engine command, so one undo takes all of it back. The chance to hit is worked
out by the engine's own preview helpers from the fields as they stand and shown before anything is
rolled. Cosmere and Warhammer decide some things after the roll (graze, critical; deflection,
sudden death, the injury read off the table): "Roll" dry-runs the command (the engine is pure and
the RNG is in the state, so committing rolls the same dice) and a second dialog takes the choices
and commits. Imported on first use, like the other dialogs.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Checkbox, Input, Static

import engine.library as L
from engine import RuleError
from engine.history import History
from engine.library.abilities import Ability
from engine.state import Fight
from tui import abilities as A
from tui.dialogs import (
    Choice,
    Dialog,
    FormError,
    combatant_options,
    picker_order,
    row,
    table_rolls,
)
from tui.dialogs.fields import shown
from tui.text import literal

if TYPE_CHECKING:
    import engine.library as L

OTHER = -1  # the "Attack" row's last option: the GM types the weapon in the fields below


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


class AttackBase(Dialog):
    """Shared by the three attack dialogs: the odds line follows every change of a field."""

    OK = "Roll"
    HINT = "enter or ctrl+s: roll · space: tick · esc: cancel · tab: next field"
    # the fields scroll in what the screen has left: at 80x24 the odds, the table's roll and the
    # buttons stay in sight below them, however many lines those take (Dialog.fit_fields)
    FIELDS_SHARE = 1.0
    DICE = "given"  # the field for the attacker's own roll: required when the table rolls for its side
    # the attacker's own fields, filled from its last attack (never the target, the dice or the situation)
    REMEMBERED: tuple[str, ...] = ()
    LABEL = "label"  # the field naming the weapon: a recalled attack of a statblock weapon picks it again

    def __init__(
        self, who: str, target: str = "", ability: str = "", queue: tuple[str, ...] = (), step: int = 0
    ) -> None:
        super().__init__(who)
        self.preset = target if target != who else ""  # the combatant selected in the tracker
        # a statblock's ability chosen before the dialog opened (a spell attack), or Multiattack's
        # attacks by name: this dialog makes the one at `step`, and the next opens after its result
        self.queue = queue
        self.step = step
        self.first = queue[step] if step < len(queue) else ability
        self._recalled: dict[str, dict[str, Any]] = {}  # attacker -> its fields from its last attack
        self._defaults: dict[str, Any] = {}  # each remembered field as composed
        self._filled: dict[str, Any] = {}  # what the dialog last put in each: anything else the GM typed
        self.picked: dict[str, Any] = {}  # the chosen statblock attack's command fields no widget shows

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

    # --- the attacker's statblock attacks -------------------------------------------------------------
    def statblock(self, who: str) -> L.Statblock | None:
        """The library statblock the combatant was added from (None: typed by hand)."""
        c = self.fight.find(who) if who else None
        return L.statblock_of(self.fight.ruleset, c) if c is not None else None

    def weapons(self, who: str) -> tuple[Any, ...]:
        sb = self.statblock(who)
        return L.attacks(sb) if sb is not None else ()

    def _weapon_options(self, who: str) -> list[tuple[str | Text, Any]]:
        sb = self.statblock(who)
        if sb is None:
            return [("other (type it)", OTHER)]
        opts: list[tuple[str | Text, Any]] = [(literal(L.attack_label(sb, a)), i) for i, a in enumerate(L.attacks(sb))]
        # then its abilities: one with an attack roll is rolled here, the others go on to their own
        # dialog (or are used) on enter (tui/abilities.py)
        return [*opts, *A.options(self.fight, who), ("other (type it)", OTHER)]

    def _default_weapon(self, who: str) -> int:
        """The attacker's first statblock attack; when it has attacked before in this fight, the one
        its last attack was (its fields as recalled), or "other" if that one was typed by hand or
        changed: the GM's last choice wins over the statblock."""
        sb = self.statblock(who)
        options = L.attacks(sb) if sb is not None else ()
        if sb is not None and self.first and who == self.who:
            named = next((i for i, a in enumerate(options) if a.name.casefold() == self.first.casefold()), None)
            found = named if named is not None else A.value_of(self.fight, who, self.first)
            if found is not None:
                return found
        if sb is None or not options:
            return OTHER
        last = self.recalled(who)
        if not last:
            return 0
        for i, a in enumerate(options):
            widgets, _ = self.weapon_values(sb, a)
            shared = [k for k in widgets if k in last]
            if shared and all(widgets[k] == last[k] for k in shared):
                return i
        return OTHER

    # --- the table's dice first ----------------------------------------------------------------------
    # the fields for the dice a hit needs (field id -> its hints: the app rolls; the table does, before
    # its die is typed; on a hit; a miss says MISS_HINT). They are always there, in the same place, so
    # the same keys land in the same fields whatever the die shows; what they are for is said in the
    # field as the die decides it
    ON_A_HIT: dict[str, tuple[str, str, str]] = {}
    MISS_HINT = "a miss: no damage needed, enter sends it"
    landed: bool | None = None  # from the typed die: None (none typed yet), True (a hit), False (a miss)

    @property
    def dice_first(self) -> bool:
        """The opening attacker's side rolls at the table: its die is the first field, above the
        attacker and target (the rest follow, the damage dice just below the die)."""
        return table_rolls(self.fight, self.who)

    def hit_hint(self, wid: str) -> str:
        """What the field for a hit's dice says now: what to type on a hit, that nothing is needed on
        a miss (the app rolls: its usual hint)."""
        app, before, hit = self.ON_A_HIT[wid]
        if not table_rolls(self.fight, self.attacker):
            return app
        if self.landed is None:
            return before
        return hit if self.landed else self.MISS_HINT

    def show_on_hit(self) -> None:
        """The damage dice's fields say what the typed die asks of them (they never come and go)."""
        for wid in self.ON_A_HIT:
            for w in self.query(f"#{wid}").results(Input):
                w.placeholder = self.hit_hint(wid)

    def landing_text(self, total: str, against: str | Text, outcome: str, then: str) -> Text:
        """One line under the odds: what the typed die did ("17 (d20 15) vs Bandit 2's AC 12: HIT")."""
        t = Text("\nThe table's roll ")
        t.append(total)
        t.append(" vs ")
        t.append_text(against if isinstance(against, Text) else Text(against))
        t.append(": ")
        t.append(outcome.upper(), style="bold reverse")
        if then:
            t.append(f" · {then}", style="bold")
        return t

    def weapon_row(self) -> Horizontal:
        """ "Attack": the attacker's statblock attacks, then "other (type it)". Hidden for a combatant
        typed by hand (it has only "other")."""
        ch = Choice(self._weapon_options(self.who), self._default_weapon(self.who), id="weapon_pick")
        r = row("Attack", ch, id="r-weapon")
        r.display = bool(self.weapons(self.who))
        return r

    def weapon_values(self, sb: L.Statblock, attack: Any) -> tuple[dict[str, Any], dict[str, Any]]:
        """(widget id -> value, command fields no widget shows) for one statblock attack."""
        return {}, {}

    def _reload_weapons(self) -> None:
        """The attacker changed (or the dialog opened): its own attacks, its default one chosen."""
        for ch in self.query("#weapon_pick").results(Choice):
            opts = self._weapon_options(self.attacker)
            with self.prevent(Choice.Changed):
                ch.options = opts
                ch.set_reactive(Choice.index, 0)
                ch.value = self._default_weapon(self.attacker)
            ch.refresh()
            self.query_one("#r-weapon").display = len(opts) > 1
        self._pick_weapon()

    @on(Choice.Changed, "#weapon_pick")
    def _weapon_changed(self) -> None:
        if self.is_mounted:
            self._pick_weapon()
            self._update_odds()

    def _pick_weapon(self) -> None:
        """Fill every field of the chosen attack; "other" leaves the fields to the GM."""
        self.picked = {}
        pick = self.query("#weapon_pick")
        sb = self.statblock(self.attacker)
        index = pick.first(Choice).value if pick else OTHER
        if sb is None or index == OTHER:
            return
        ability = A.chosen(self.fight, self.attacker, index)
        if ability is not None:
            if not self.rolls(ability):
                self.picked = {"route": ability}  # enter takes it to its own dialog
                return
            widgets, self.picked = self.ability_values(sb, ability)
        else:
            widgets, self.picked = self.weapon_values(sb, L.attacks(sb)[index])
        with self.prevent(Input.Changed, Checkbox.Changed, Choice.Changed):
            for wid, value in widgets.items():
                w: Any = self.query_one(f"#{wid}")
                w.value = value
                if wid in self._filled:
                    self._filled[wid] = w.value  # the dialog's, not the GM's: the next attacker may change it
        self.prefilled()

    ROLLS_ABILITIES = False  # whether it rolls a statblock ability's attack (and Multiattack's)

    def rolls(self, a: Ability) -> bool:
        """Whether this dialog rolls the ability's attack itself (d20's, which fills its fields)."""
        return False

    def ability_values(self, sb: L.Statblock, a: Ability) -> tuple[dict[str, Any], dict[str, Any]]:
        """(widget id -> value, command fields no widget shows) for an ability with an attack roll."""
        return {}, {}

    @property
    def weapon_picked(self) -> bool:
        pick = self.query("#weapon_pick")
        return bool(pick) and pick.first(Choice).value != OTHER

    def no_damage_note(self, dice: str) -> Text:
        """Said plainly under the odds, before the roll: a hit with no damage dice deals nothing, and
        one with dice but no damage type (where the dialog has that field, shown) is dealt untyped."""
        if not dice.strip():
            return Text("\nNo damage dice: a hit deals no damage (type them above if it should).", style="bold")
        typed = self.query("#type").results(Input)
        field = next(typed, None)
        if field is not None and not field.value.strip() and shown(field):
            return Text("\nNo damage type: a hit is dealt untyped (no resistance or immunity applies).", style="bold")
        return Text("")

    def _targets(self, attacker: str | None = None) -> list[tuple[str | Text, str]]:
        """Everyone but the attacker (no one is its own target), standing first, then the downed."""
        me = self.who if attacker is None else attacker
        return combatant_options(self.fight, exclude=(me,), standing_first=True)

    def default_target(self) -> str:
        """The combatant selected in the tracker; else the first one standing on another side than the
        attacker's (a PC's turn usually means an attack on an enemy); else the first other one."""
        me = self.fight.find(self.who)
        picked = self.fight.find(self.preset) if self.preset else None
        # the selected row, unless it is the attacker's own side down at 0 (left selected after a
        # heal or a check, it made a downed ally the target of the next attack: play-test)
        if picked is not None and not (picked.down and me is not None and picked.side == me.side):
            return picked.id
        others = [c for c in picker_order(self.fight) if c.id != self.who]
        if me is not None:
            foe = next((c for c in others if c.side != me.side and not c.down), None)
            if foe is not None:
                return foe.id
        return others[0].id if others else ""

    def attacker_row(self) -> Horizontal:
        """The acting combatant by default; another one for a reaction (an opportunity attack,
        a Reactive Strike)."""
        return row("Attacker", Choice(combatant_options(self.fight, standing_first=True), self.who, id="attacker"))

    @property
    def attacker(self) -> str:
        return self.choice("attacker") if self.query("#attacker") else self.who

    def heading(self) -> Text:
        return self.attack_title() + self.table_note(self.who)

    def attack_title(self) -> Text:
        """ "Attack", or which of a Multiattack's attacks this is ("Multiattack 2/3: Claw")."""
        if len(self.queue) > 1:
            return Text(f"Multiattack {self.step + 1}/{len(self.queue)}: {self.first}")
        return Text("Attack")

    @on(Choice.Changed, "#attacker")
    def _attacker_changed(self) -> None:
        # another attacker may be on the other side: the heading says whose dice the table gives
        if self.is_mounted:
            self.query_one("#heading", Static).update(self.attack_title() + self.table_note(self.attacker))
            self._retarget()
            self.prefill()  # its own weapon, from its last attack
            self._reload_weapons()  # or from its statblock
            self._update_odds()

    def _retarget(self) -> None:
        """A new attacker: the target list leaves it out; the target stays unless it was the new
        attacker, which then gets the first standing foe of its own (else the first listed)."""
        f = self.fight
        me = f.find(self.attacker)
        for target in self.query("#target").results(Choice):
            keep = target.value
            target.options = self._targets(self.attacker)
            ids = [v for _, v in target.options]
            if keep not in ids:
                standing = [c for c in picker_order(f) if c.id in ids and not c.down]
                foes = [c.id for c in standing if me is None or c.side != me.side]
                keep = foes[0] if foes else (ids[0] if ids else None)
            target.index = ids.index(keep) if keep in ids else 0
            target.refresh()

    def require_table_dice(self) -> None:
        """The attacker's side is rolled at the table: no roll without its die (the cursor goes there)."""
        self.require_dice(self.attacker, "attack", self.DICE)

    def action_submit(self) -> None:
        route = self.picked.get("route") if self.weapon_picked else None
        if route is not None:
            self._use_ability(route)
            return
        try:
            self.require_table_dice()
        except FormError as exc:
            self.show_error(str(exc))
            return
        target = (self.choice("target") if self.query("#target") else self.preset) or ""
        attacker, session = self.attacker, self.fracas.session
        before = session.history.cursor if session is not None else -1
        super().action_submit()
        done = session is not None and session.history.cursor != before
        if done and self.step + 1 < len(self.queue):
            # Multiattack: its next attack, on the same target, once this one's result is in
            self.app.push_screen(type(self)(attacker, target, queue=self.queue, step=self.step + 1))

    def _use_ability(self, a: Ability) -> None:
        """An ability this dialog does not roll: its own dialog instead, or used as it is."""
        target = self.choice("target") if self.query("#target") else self.preset
        try:
            A.check_ready(self.fight, self.attacker, a)
            screen = A.next_screen(self, self.attacker, a, target or "")
            if screen is None:
                self.fracas.commit(A.plain_use(self.attacker, a, target or ""), announce=self.ANNOUNCE)
        except RuleError as exc:
            self.show_error(str(exc))
            self.fracas.dialog_settled(self)
            return
        if screen is None:
            self.dismiss()
            self.fracas.dialog_settled(self)
        else:
            A.go_on(self, screen)
            self.fracas.dialog_settled(self)

    def compose(self) -> ComposeResult:
        # the odds sit under the fields, outside their scroll, so they stay in sight while typing
        for w in super().compose():
            if w.id == "error":
                yield Static(id="odds", classes="wide-label")
            yield w

    def on_mount(self) -> None:
        # Textual runs each class's on_mount (subclass first): subclasses hook in via initial_focus
        self.prefill()
        self._reload_weapons()
        self._update_odds()
        self.initial_focus()

    def initial_focus(self) -> None:
        if table_rolls(self.fight, self.who):
            self.query_one(f"#{self.DICE}", Input).focus()
            return
        if self.query("#target"):
            # the target is what the GM changes most (even one picked in the tracker may be the wrong
            # row); a modifier field first took typed weapon names into the damage modifier
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
        self.landed = None
        try:
            text = self.odds()
        except (FormError, RuleError) as exc:
            text = Text(str(exc), style="bold")
        for w in self.query("#odds"):
            w.update(text)  # type: ignore[attr-defined]
        self.show_on_hit()
        self.call_after_refresh(self.fit_fields)  # the odds' lines come off the fields' room

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
