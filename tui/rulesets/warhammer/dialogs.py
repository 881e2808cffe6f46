"""Warhammer's dialogs: the attack and its outcome, Fortune, a critical outside an attack and the
Willpower test. Imported when one opens."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from msgspec.structs import replace
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Input, Static

import engine.library as L
from engine import RuleError
from engine.commands import Command
from engine.events import describe
from engine.rules.warhammer.combat import (
    LOCATIONS,
    OPTIONS,
    Attack,
    Critical,
    KeepFighting,
    attack_odds,
    defence_choices,
    may_deflect,
    preview_attack,
    tier,
)
from engine.rules.warhammer.commands import Fortune
from engine.state import Combatant
from tui.attack import AttackBase, pct
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
    row,
    table_rolls,
)
from tui.text import literal, span

if TYPE_CHECKING:
    import engine.library as L

# --- Warhammer -------------------------------------------------------------------------------------


# the GM's ruling on whether the defender knows of this attack (a defender unaware of it cannot defend)
AWARE: list[tuple[str | Text, bool | None]] = [
    ("by the rules (yes, unless Surprised)", None),
    ("no: it cannot defend", False),
    ("yes: it may defend though Surprised", True),
]


class WarhammerAttackDialog(AttackBase):
    """The d100 attack with the defender's choice; the critical and its prompts come after the roll."""

    DICE = "given_attack"
    REMEMBERED = ("weapon", "kind", "skill", "damage", "impale")
    LABEL = "weapon"
    ON_A_HIT = {
        "given_damage": ("(optional)", "on a hit: the d10 rolled", "a hit: the d10 damage die rolled"),
        "given_critical": (
            "(optional)",
            "on a critical: the d100 rolled",
            "a critical: the d100 critical rolled",
        ),
    }
    critical = False  # the typed d100 is a critical: the critical's d100 is needed too

    def dice_row(self) -> Horizontal:
        hint = "the d100 rolled: 34" if self.dice_first else "empty: the app rolls"
        return row("Table d100 attack", field(placeholder=hint, id="given_attack"), id="r-gattack")

    def weapon_values(self, sb: L.Statblock, attack: Any) -> tuple[dict[str, Any], dict[str, Any]]:
        f = L.attack_fields(sb, attack)
        widgets = {
            "weapon": f["weapon"],
            "kind": f["kind"],
            "skill": f["skill"],
            "damage": str(f["damage"]),
            "impale": f["impale"],
        }
        return widgets, {}

    def attack_types(self) -> tuple[type, ...]:
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
        after_hit = [
            row(
                "Table d10 damage", field(placeholder=self.hit_hint("given_damage"), id="given_damage"), id="r-gdamage"
            ),
            row(
                "Table d100 critical",
                field(placeholder=self.hit_hint("given_critical"), id="given_critical"),
                id="r-gcritical",
            ),
        ]
        if self.dice_first:
            # the table's d100 first: hit or miss shows before anything else, the dice a hit needs
            # just below, always there, with the attacker and target still in sight
            yield self.dice_row()
            yield from after_hit
        yield self.weapon_row()
        yield self.attacker_row()
        yield row("Target", Choice(self._targets(), self.default_target(), id="target"))
        # what a GM types for a weapon typed by hand comes straight after the target (its damage, the
        # test's modifier, its name), the rarely changed choices after it
        yield row("Damage bonus", field("0", id="damage", number=True))
        yield row("Modifier", field("0", id="modifier", number=True))
        yield row("Weapon (for the log)", field(placeholder="hand weapon", id="weapon"))
        kinds: list[tuple[str | Text, str]] = [("melee", "melee"), ("thrown", "thrown"), ("missile", "missile")]
        yield row("Weapon kind", Choice(kinds, id="kind"))
        skills: list[tuple[str | Text, str]] = [("WS for melee, BS otherwise", ""), ("WS", "ws"), ("BS", "bs")]
        yield row("Skill", Choice(skills, id="skill"))
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
        if not self.dice_first:
            yield self.dice_row()
        yield row("Table d100 defence", field(placeholder="(optional)", id="given_defence"))
        if not self.dice_first:
            yield from after_hit

    def _base(self) -> Any:
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
        t.append_text(self.landing())
        return t

    def landing(self) -> Text:
        """What the typed d100 did (hit, critical, fumble, miss), before the damage die is asked for."""
        cmd = self.build()
        if cmd.given_attack is None:
            return Text("")
        # the d10 as typed (if it is): whether a hit takes the target past 0 Wounds, and so needs the
        # critical's d100, is known only once the damage die is
        report, _ = preview_attack(self.fight, replace(cmd, given_critical=None))
        self.landed = report.hit and not report.cancelled
        self.damage_typed = cmd.given_damage is not None
        known = report.critical or self.damage_typed  # a double is a critical whatever the d10
        self.critical = bool(self.landed and known and report.critical_total is not None)
        outcome = "critical" if report.hit and report.critical else "hit" if report.hit else "miss"
        if report.fumble:
            outcome = "fumble"
        if report.cancelled:
            outcome += ", the defence cancels it"
        then = ""
        if self.attacker and self._table():
            then = "type the d10 damage die" if self.landed else "no damage: enter sends it"
            if self.landed and self.damage_typed:
                then = "enter sends it" if not self.critical else "type the d100 critical"
            elif self.critical:
                then += " and the d100 critical"
        return self.landing_text(f"{report.roll} (SL {report.sl:+d})", f"{report.need} needed", outcome, then)

    damage_typed = False  # the table's d10 is typed: whether a critical is needed is known

    def hit_hint(self, wid: str) -> str:
        if wid == "given_critical" and self.landed and not self.critical and self._table():
            if self.damage_typed:
                return "a hit, no critical: not needed"
            return "if the d10 takes it past 0 Wounds: the d100"
        return super().hit_hint(wid)

    def _table(self) -> bool:
        return table_rolls(self.fight, self.attacker)

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
        if not self._table():
            return
        # the typed d100 decides whether the damage die (and the critical) are rolled at all
        cmd = self.build()
        report, _ = preview_attack(self.fight, cmd)
        if not report.hit or report.cancelled:
            return  # a miss goes with no damage asked for
        self.landed = True
        self.show_on_hit()
        for wid, needed, what in (
            ("given_damage", True, "the d10 damage die"),
            ("given_critical", report.critical_total is not None, "the d100 critical roll"),
        ):
            if needed and not self.value(wid).strip():
                self.query_one(f"#{wid}", Input).focus()
                raise FormError(f"A hit: now type {what} rolled.")

    def action_submit(self) -> None:
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
        for e in self.events:
            yield Static(Text(describe(e)), classes="wide-label")
        r = self.report
        t = self.defender
        if r.fumble:
            yield row("Fumble result (read)", field(placeholder="what the fumble table says (optional)", id="fumble"))
        if r.critical_total is not None:
            if may_deflect(t):
                # a row with its label, as the critical dialog's: the box's words fit 80 columns
                yield row("Armour", Tick("deflects it (-20 severity, the armour damaged)", id="deflect", compact=True))
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


# --- Fortune and the rest -----------------------------------------------------------------------


class FortuneDialog(Dialog):
    OK = "Spend Fortune"

    def heading(self) -> Text:
        c = self.target
        p = c.pool("fortune")
        t = literal(c.name)
        t.append(f" spends a Fortune point ({p.current if p else 0} left) to act at a chosen place this round.")
        return t

    def fields(self) -> ComposeResult:
        f = self.fight
        order = span("Order now: ", "dim")
        for i, cid in enumerate(f.order):
            if i:
                order.append(", ", style="dim")
            order.append(f"{i + 1}. ", style="dim")
            order.append_text(name_of(f, cid))
        yield Static(order, classes="wide-label")
        yield row(f"Place (1-{len(f.order)})", field("1", id="position", number=True))

    def build(self) -> Command:
        pos = parse_int(self.value("position"), "Place", 1, max(1, len(self.fight.order)))
        return Fortune(self.who, pos - 1)


class WarhammerCriticalDialog(RulesDialog):
    OK = "Roll"
    TITLE = "A critical injury outside an attack (damage past 0 Wounds, a fall, a trap)"

    def fields(self) -> ComposeResult:
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


class WarhammerWillpowerDialog(RulesDialog):
    OK = "Test"
    TITLE = "A champion at 0 Wounds tests Willpower to keep fighting"

    def fields(self) -> ComposeResult:
        yield self.who_row()
        yield row("Modifier", field("0", "the rule says +0", id="modifier", number=True))
        yield row("Table d100 (optional)", field(placeholder="empty: the app rolls", id="given"))

    def build(self) -> Command:
        given = parse_given(self.value("given"))
        self.require_dice(self.subject, "d100", "given")
        return KeepFighting(self.subject, parse_int(self.value("modifier"), "Modifier", -100, 100), given)
