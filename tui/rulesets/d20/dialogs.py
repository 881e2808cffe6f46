"""d20's dialogs: the attack, the parts of the turn (use), Ready and its release, the owed saves.
Imported when one opens."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from msgspec.structs import replace
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Input, Static

import engine.library as L
from engine import apply
from engine import commands as C
from engine.commands import Command
from engine.library.abilities import Ability, spend_of
from engine.rules.d20 import combat
from engine.rules.d20.combat import (
    AttackRolled,
    D20Attack,
    D20Test,
    Grapple,
    Ready,
    Release,
    ShieldBash,
    attack_preview,
    exhaustion,
    mod,
    movement_left,
)
from engine.state import Combatant, Due
from tui.attack import MODES, AttackBase, pct
from tui.dialogs import (
    Choice,
    Dialog,
    FormError,
    RulesDialog,
    Tick,
    UseDialog,
    field,
    optional_int,
    parse_given,
    parse_int,
    row,
    table_rolls,
    words,
)
from tui.recharge import OwedPrompter as BasePrompter
from tui.rulesets.d20.rider import Rider, RiderDialog
from tui.text import literal

if TYPE_CHECKING:
    import engine.library as L
    from tui.main import MainScreen


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


class D20AttackDialog(AttackBase):
    """An attack roll, a Shield Bash, or a grapple / shove."""

    REMEMBERED = ("bonus", "ability", "proficient", "label", "damage", "mod", "type", "kind", "use")
    ON_A_HIT = {
        "damage_given": (
            "each die: 6, or 3 5",
            "on a hit: each die, 6 or 3 5",
            "a hit: each damage die rolled, 6 or 3 5",
        )
    }
    critical = False  # the typed die is a natural 20: the damage dice are rolled twice

    def dice_row(self) -> Horizontal:
        if self.dice_first:
            return row("Table d20", field(placeholder="the d20 rolled: 14, or 20 9", id="given"), id="r-given")
        typed = field(placeholder="empty: the app rolls; 14, or 20 9", id="given")
        return row("Table d20 (optional)", typed, id="r-given")

    def damage_dice_row(self) -> Horizontal:
        hint = self.ON_A_HIT["damage_given"][1 if self.dice_first else 0]
        return row("Table damage dice", field(placeholder=hint, id="damage_given"), id="r-dgiven")

    def hit_hint(self, wid: str) -> str:
        if self.landed and table_rolls(self.fight, self.attacker):
            if self.choice("what") == "attack" and not self.value("damage").strip():
                return "a hit, but no damage dice above: none needed"
            if self.critical:
                return "critical: each die, twice as many: 6 3"
        return super().hit_hint(wid)

    def fields(self) -> ComposeResult:
        kinds: list[tuple[str | Text, str]] = [("Attack", "attack"), ("Shield Bash (bonus action)", "bash")]
        kinds += [("Grapple", "grapple"), ("Shove prone", "prone"), ("Shove 5 ft", "push")]
        if self.dice_first:
            # the table's dice first: hit or miss shows before anything else, and the damage dice
            # (needed on a hit) sit just below, always there, with the attacker and target in sight
            yield self.dice_row()
            yield self.damage_dice_row()
        yield self.weapon_row()
        yield self.attacker_row()
        yield row("Target", Choice(self._targets(), self.default_target(), id="target"))
        # what a GM types for an attack typed by hand comes straight after the target (bonus, tab,
        # damage), the rarely changed choices and modifiers after it
        with Horizontal(classes="row", id="attack-fields"):
            yield Static(Text("Attack bonus"), classes="label")
            yield field(placeholder=BONUS_HINTS["auto"], id="bonus", number=True)
        yield row("Damage dice", field(placeholder="1d8 (empty: no damage)", id="damage"), id="r-damage")
        yield row("Damage type", field(placeholder="slashing (optional)", id="type"), id="r-type")
        yield row("Weapon (for the log)", field(placeholder="longsword", id="label"), id="r-label")
        yield row("What", Choice(kinds, id="what"))
        yield row(
            "Ability",
            Choice(D20_ABILITIES, "auto", id="ability"),
            Tick("proficient", True, id="proficient", compact=True),
            id="r-ability",
        )
        yield row(
            "Damage modifier",
            field(placeholder="empty: the ability's, else +0", id="mod", number=True),
            id="r-mod",
        )
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
        if not self.dice_first:
            yield self.dice_row()
            yield self.damage_dice_row()
        yield row("Their table d20", field(placeholder="the target's d20 (optional)", id="target_given"), id="r-tgiven")

    def on_mount(self) -> None:
        self._show_rows()

    @on(Choice.Changed, "#what")
    def _what_changed(self) -> None:
        if self.is_mounted:
            self._show_rows()
            self._bonus_hint()

    def attack_types(self) -> tuple[type, ...]:
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
        if self.is_mounted:
            self._show_rows()  # a statblock attack sets What back to Attack

    def weapon_values(self, sb: L.Statblock, attack: Any) -> tuple[dict[str, Any], dict[str, Any]]:
        f = L.attack_fields(sb, attack)
        ability = f.get("ability", "")
        found = self.query("#use")  # not there yet while the dialog is being composed
        use = found.first(Choice).value if found else "action"
        if f.get("use") == "power":
            use = "power"
        elif use == "power":
            use = "action"  # a weapon is not paid for as a power; otherwise how it is paid is the moment's
        if self.step:
            use = "none"  # a Multiattack's later attacks: its first paid for the action
        widgets = {
            "what": "attack",
            # with an ability the bonus is what goes on top of it; without, the whole bonus
            "bonus": str(f["bonus"]) if f["bonus"] or not ability else "",
            "ability": ability or "auto",
            "proficient": f.get("proficient", True),
            "label": f["label"],
            "damage": f["damage"],
            "mod": "",
            "type": f["type"],
            "kind": f["kind"],
            "use": use,
        }
        hidden: dict[str, Any] = {"extra": f["extra"]} if "extra" in f else {}
        if getattr(attack, "rider", ""):
            hidden["rider"] = attack.rider  # what else a hit does: shown under the odds, logged on a hit
            # what the app can act on after a hit (tui/rulesets/d20/rider.py)
            hidden.update(rider_save=attack.save, rider_dc=attack.dc, rider_condition=attack.condition)
            hidden.update(rider_damage=tuple((d.dice, d.type) for d in attack.rider_damage))
            hidden.update(rider_half=attack.rider_half)
        return widgets, hidden

    ROLLS_ABILITIES = True

    def rolls(self, a: Ability) -> bool:
        return a.hit is not None and not a.save and not a.attacks

    def ability_values(self, sb: L.Statblock, a: Ability) -> tuple[dict[str, Any], dict[str, Any]]:
        """A statblock's ability with an attack roll (a spell attack): its bonus whole, its damage
        (parts of another type dealt on a hit as their own), what it spends and, when it comes with
        its user's action, the action (a legendary or lair one is paid for by its pool)."""
        typ = a.damage[0].type if a.damage else ""
        main = [p.dice for p in a.damage if p.type.casefold() in ("", typ.casefold())]
        extra = tuple((p.dice, p.type) for p in a.damage if p.type.casefold() not in ("", typ.casefold()))
        widgets = {
            "what": "attack",
            "bonus": str(a.hit),
            "ability": "auto",
            "proficient": True,
            "label": a.name,
            "damage": "+".join(d.replace(" ", "") for d in main),
            "mod": "",
            "type": typ,
            "kind": "ranged" if a.level >= 0 else "melee",
            "use": a.act if a.act in ("action", "bonus") and not self.step else "none",
        }
        hidden: dict[str, Any] = {"spend": spend_of(a)}
        if extra:
            hidden["extra"] = extra
        if a.condition:  # given to the one hit: its words are the rider
            hidden.update(rider=a.text or a.condition, rider_condition=a.condition)
        return widgets, hidden

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

        cmd = self.attack()
        if isinstance(cmd, D20Attack) and not cmd.damage:
            return
        # the d20 typed decides whether damage is rolled at all: a dry run tells (the engine is pure);
        # a miss goes with no damage asked for
        rolled = self.dry_run(cmd)
        if rolled is not None and rolled.outcome != "miss":
            self.landed = True
            self.show_on_hit()
            self.query_one("#damage_given", Input).focus()
            what = "critical: every damage die twice" if rolled.outcome == "critical" else "a hit"
            dice = cmd.damage if isinstance(cmd, D20Attack) else "the bash's"
            raise FormError(f"{what.capitalize()}: now type the damage dice rolled ({dice}).")

    def dry_run(self, cmd: Command) -> Any | None:
        """The attack as the typed die leaves it (its AttackRolled), without doing it."""
        _, events = apply(self.fight, cmd)
        return next((e for e in events if isinstance(e, AttackRolled)), None)

    def landing(self, cmd: Any) -> Text:
        """The typed d20's hit or miss (and critical), shown before anything else is asked for."""
        if cmd.given is None:
            return Text("")
        rolled = self.dry_run(replace(cmd, damage_given=None))
        if rolled is None:
            return Text("")
        self.landed = rolled.outcome != "miss"
        self.critical = rolled.outcome == "critical"
        then = ""
        if table_rolls(self.fight, self.attacker) and getattr(cmd, "damage", "x"):
            if rolled.outcome == "critical":
                then = "type the damage dice, every die twice"
            elif self.landed:
                then = "type the damage dice"
            elif cmd.damage_given is not None:
                then = "no damage: the damage dice typed are not needed, enter sends the miss"
            else:
                then = "no damage: enter sends it"
        outcome = "critical hit" if rolled.outcome == "critical" else rolled.outcome
        against = literal(rolled.target_name) + Text(f"'s AC {rolled.ac}")
        return self.landing_text(f"{rolled.roll.total} (d20 {rolled.natural})", against, outcome, then)

    def extra_parts(self) -> tuple[tuple[str, str], ...]:
        """The chosen statblock attack's damage parts of another type (dealt as their own Damage)."""
        if self.choice("what") != "attack" or not self.weapon_picked:
            return ()
        return tuple(self.picked.get("extra", ()))

    def rider(self) -> Rider | None:
        """The chosen statblock attack's rider, on the target chosen (None: it has none)."""
        text = self.picked.get("rider", "") if self.weapon_picked and self.choice("what") == "attack" else ""
        if not text:
            return None
        p = self.picked
        return Rider(
            self.attacker,
            self.choice("target") or "",
            self.value("label").strip() or "attack",
            text,
            p.get("rider_save", ""),
            p.get("rider_dc", 0),
            p.get("rider_condition", ""),
            tuple(p.get("rider_damage", ())),
            bool(p.get("rider_half", False)),
        )

    def build(self) -> Command | list[Command]:
        """The attack, and on a hit the rider's words in the log (one batch: one undo)."""
        cmds = self._attack_and_parts()
        rider = self.rider()
        if rider is None:
            return cmds
        first = cmds[0] if isinstance(cmds, list) else cmds
        rolled = self.dry_run(first)
        if rolled is None or rolled.outcome == "miss":
            return cmds
        who = self.fight.get(rider.attacker).name
        note = C.Note(f"{who}'s {rider.label} hit {rolled.target_name}: {rider.text}", who=rider.attacker)
        return [*(cmds if isinstance(cmds, list) else [cmds]), note]

    def action_submit(self) -> None:
        """After a hit whose rider names a condition or a save, one key acts on it (the rider dialog,
        over the next attack of a Multiattack)."""
        rider = self.rider() if self.is_mounted else None
        session = self.fracas.session
        before = session.history.cursor if session is not None else -1
        super().action_submit()
        if rider is None or not rider.acts or session is None or session.history.cursor == before:
            return
        nodes, i, events = session.history.nodes, session.history.cursor, []
        while i > before:  # the batch's nodes: the attack, its other damage parts, the rider's note
            events.extend(nodes[i].events)
            i = nodes[i].parent
        if any(isinstance(e, AttackRolled) and e.outcome != "miss" for e in events):
            self.app.push_screen(RiderDialog(rider))

    def _attack_and_parts(self) -> Command | list[Command]:
        """The attack; with a statblock attack's parts of another type, a dry run decides whether it
        hits, and each part follows as its own Damage (doubled dice on a critical)."""
        cmd = self.missed(self.attack())
        extra = self.extra_parts()
        if not extra or table_rolls(self.fight, self.attacker):
            return cmd  # the table rolls them: the odds line says to deal them by hand
        _, events = apply(self.fight, cmd)
        rolled = next((e for e in events if isinstance(e, AttackRolled)), None)
        if rolled is None or rolled.outcome == "miss":
            return cmd
        crit = rolled.outcome == "critical"
        return [cmd] + [
            C.Damage(rolled.target, dice=L.doubled(dice) if crit else dice, type=typ, source=self.attacker)
            for dice, typ in extra
        ]

    def missed(self, cmd: Any) -> Any:
        """The attack without the damage dice typed when the typed d20 misses: the field is always
        there, and keys typed into it for a hit that did not come are not needed (a miss deals none)."""
        if getattr(cmd, "given", None) is None or getattr(cmd, "damage_given", None) is None:
            return cmd
        rolled = self.dry_run(replace(cmd, damage_given=None))
        return replace(cmd, damage_given=None) if rolled is not None and rolled.outcome == "miss" else cmd

    def attack(self) -> Command:
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
            spend=tuple(self.picked.get("spend", ())) if self.weapon_picked else (),
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
        cmd = self.attack()
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
            tired = exhaustion(self.fight.get(cmd.who))
            if tired:
                t.append(f" (Exhaustion -{tired})", style="dim")
        t.append_text(self.sources_text(p.advantages, p.disadvantages))
        t.append_text(self.landing(cmd))
        if isinstance(cmd, D20Attack):
            t.append_text(self.no_damage_note(cmd.damage))
            extra = " + ".join(f"{d} {typ}".strip() for d, typ in self.extra_parts())
            if extra and table_rolls(self.fight, self.attacker):
                t.append(f"\nOn a hit also {extra}: the table rolls it; deal it with the damage key.", style="bold")
            elif extra:
                t.append(f"\nOn a hit also {extra} (dealt as its own damage).", style="dim")
            rider = self.picked.get("rider", "") if self.weapon_picked and self.choice("what") == "attack" else ""
            if rider:
                # the statblock's words for the rest of a hit (a save, a condition): the GM applies it
                t.append("\nOn a hit: ", style="bold")
                t.append_text(literal(rider))
        return t

    def _worked_out(self, cmd: Any) -> str:
        """How the bonus was worked out from the sheet, and what the damage adds."""
        c = self.fight.get(cmd.who)
        m = mod(c.stat(cmd.ability, 10))
        parts = [f"{cmd.ability.capitalize()} {m:+d}"]
        if cmd.proficient:
            parts.append(f"proficiency {c.stat('prof', 2):+d}")
        if cmd.bonus:
            parts.append(f"{cmd.bonus:+d}")

        if exhaustion(c):
            parts.append(f"Exhaustion -{exhaustion(c)}")
        text = ", ".join(parts)
        if cmd.damage and cmd.use != "power":
            add = min(m, 0) if cmd.use == "offhand" else m
            text += f"; damage {add:+d}"
        return text


# --- using the turn ----------------------------------------------------------------------------

USES: list[tuple[str | Text, str]] = [
    ("Action", "action"),
    ("Bonus action", "bonus"),
    ("Move", "move"),
    ("Reaction", "reaction"),
    ("Gambit", "gambit"),
]


def d20_uses(c: Combatant) -> list[tuple[str | Text, str]]:
    """The d20 parts of the turn, then the named uses that do something, each with what it costs.
    A value is the part used, or "part:Name" for a named use."""
    speed = combat.effective_speed(c)[0]
    stand = f"{max(1, speed // 2)} ft of the move (half)" if speed > 0 else "half the speed (the move)"
    return [
        *USES,
        ("Help: an action (ally gets advantage)", "action:Help"),
        ("Dash: an action (the speed again)", "action:Dash"),
        ("Disengage: an action", "action:Disengage"),
        ("Dodge: an action", "action:Dodge"),
        (f"{combat.STAND_UP}: {stand}", f"move:{combat.STAND_UP}"),
        (f"{combat.PICK_UP}: the move", f"move:{combat.PICK_UP}"),
        (f"{combat.PICK_UP}: an action", f"action:{combat.PICK_UP}"),
        (f"{combat.PUT_OUT}: an action", f"action:{combat.PUT_OUT}"),
    ]


class D20UseDialog(UseDialog):
    """d20's parts of the turn and the named uses that do something; the distance for a move, the
    ally for a Help."""

    def fields(self) -> ComposeResult:
        yield self.user_row()
        yield row("What", Choice(self.what_options(), id="what"))
        # the distance first: for a move it is what the GM types next (tab from What)
        distance = field(placeholder=self._distance_hint(), id="distance", number=True)
        yield row("Distance (ft)", distance, id="row-distance")
        yield row("Name", field(placeholder=self.ui.use_name_hint, id="name"), id="row-name")
        # the ally selected in the tracker is the one helped (the helper's side first otherwise)
        yield row("Helping", Choice(self._allies(), self.preset or None, id="target"), id="row-target")

    def _distance_hint(self) -> str:
        return f"feet moved; empty = all of it ({movement_left(self.target)} ft left)"

    def _allies(self) -> list[tuple[str | Text, str]]:
        """Whom a Help can aid: the helper's own side first, then the others; or nobody (only logged)."""
        f = self.fight
        me = self.target
        # standing first, then the downed (each as added)
        others = sorted((c for c in f.combatants if c.id != me.id), key=lambda c: c.down)
        ranked = [c for c in others if c.side == me.side] + [c for c in others if c.side != me.side]
        return [*((literal(c.name), c.id) for c in ranked), ("nobody (only logged)", "")]

    def uses(self) -> list[tuple[str | Text, Any]]:
        return d20_uses(self.target)

    def user_changed(self) -> None:
        """Another user: its own speed in the named uses and its abilities, what is left of its
        move, its allies."""
        what = self.query_one("#what", Choice)
        keep = what.value
        with self.prevent(Choice.Changed):
            what.options = self.what_options()
            what.set_reactive(Choice.index, 0)
            what.value = keep
        what.refresh()
        self.query_one("#distance", Input).placeholder = self._distance_hint()
        self.retarget("target", self._allies())
        self._show_fields()

    def on_mount(self) -> None:
        self._show_fields()

    @on(Choice.Changed, "#what")
    def _what_changed(self) -> None:
        self._show_fields()

    def _show_fields(self) -> None:
        """The name for a part of the turn, the distance for the move, the ally for a Help."""
        what = str(self.choice("what"))
        if self.chosen_ability() is not None:
            what = "ability:"  # its own name: no name field, no distance, no ally
        self.query_one("#row-name").set_class(":" in what, "hidden")
        self.query_one("#row-distance").set_class(what != "move", "hidden")
        self.query_one("#row-target").set_class(what != "action:Help", "hidden")

    def use(self) -> Command:
        what, _, named = self.choice("what").partition(":")
        name = named or self.value("name").strip()
        cost = 1  # the move's default: a whole speed's worth, or what is left of it
        if what == "move" and not named:
            feet = optional_int(self.value("distance"), "Distance")
            if feet is not None and feet < 2:  # 1 is the engine's "all of it"
                raise FormError("Distance: give the feet moved (5, 10, ...), or leave it empty for all of it.")
            cost = feet or 1
        target = self.choice("target") if named == "Help" else ""
        return C.UseAction(self.who, what, name, cost, target or "")


# --- Ready ---------------------------------------------------------------------------------------


class D20ReadyDialog(RulesDialog):
    OK = "Ready"
    TITLE = "Ready an action (spends the action; taken as a reaction when the trigger comes)"

    def fields(self) -> ComposeResult:
        yield self.who_row()
        yield row("Action held", field(placeholder="Attack, Dash, a power", id="action"))
        yield row("Trigger", field(placeholder="when the door opens (optional)", id="trigger"))

    def build(self) -> Command:
        action = self.value("action").strip()
        if not action:
            raise FormError("Ready which action? Name it.")
        return Ready(self.subject, action, self.value("trigger").strip())


class D20ReleaseDialog(RulesDialog):
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
        return Release(self.subject)


# --- owed rolls ------------------------------------------------------------------------------------

ABILITY_CHOICES: list[tuple[str | Text, str]] = [
    ("Wisdom", "wis"),
    ("Constitution", "con"),
    ("Strength", "str"),
    ("Dexterity", "dex"),
    ("Intelligence", "int"),
    ("Charisma", "cha"),
]


class OwedRollDialog(Dialog):
    """A save the rules made due: roll it, enter the table's die or total, or waive it."""

    OK = "Settle"
    HINT = "enter: settle · esc: later (it stays owed) · tab: next field"
    RAISED = True

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


class OwedPrompter(BasePrompter):
    """d20's owed saves (concentration, Confused) besides the recharge rolls every ruleset owes."""

    def other(self, c: Combatant, d: Due) -> Any | None:
        return OwedRollDialog(c.id, d)


def settle_owed(screen: MainScreen, who: str) -> None:
    """ "Settle an owed roll" (the palette): ask for the first owed roll now, even one escaped before."""
    screen.settle_owed()
