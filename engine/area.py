"""Commands that act on several combatants at once, each one undo step, so one undo takes back a
fireball whatever it hit.

- `area`: one roll of damage (or healing) for several targets, each target's share going through its
  ruleset's own Damage (or Heal) command: resistances, temporary health, concentration saves due,
  nine-phase channels broken, Warhammer's zero-Wounds reminders, exactly as if typed one by one. A
  target may save for half (or none): d20 rolls each target's save from its sheet, or takes the
  table's die or total; every ruleset takes the GM's per-target call (`saved`).
- `condition_kept`: a condition that its caster's concentration (the ruleset's sustaining condition)
  keeps up, so the app can offer to end it when the concentration ends (engine.mechanics.kept_up_ended).
- `unconditions`: several conditions ended at once (what an ended concentration kept up).

Decisions where the texts are silent are in docs/area.md.
"""

import msgspec
from msgspec.structs import replace

from engine import commands as C
from engine import events as E
from engine import pools
from engine.commands import Given
from engine.core import apply, clean_name, end_condition, register_generic
from engine.errors import RuleError
from engine.mechanics import AREA_SAVES, SUSTAINING, amount_or_roll
from engine.ruleset import Events, Ruleset
from engine.state import Duration, Fight, put

MAX_DC = 100


class AreaTarget(
    msgspec.Struct, frozen=True, gc=False, omit_defaults=True, tag="area_target", forbid_unknown_fields=True
):
    """One target of an `area` command.

    With a save named (d20), its save is rolled from its sheet unless `given` (the natural d20, two
    with advantage or disadvantage) or `total` (the total called out) is set, or `saved` is the GM's
    call. Without a save (any ruleset), `saved` true is the GM's call that it takes half (none with
    `none_on_save`); left out, it takes the whole amount.
    """

    who: str
    given: Given = None
    total: int | None = None
    saved: bool | None = None
    # a legendary creature's choice: should its save fail, it spends one "Legendary Resistance" and
    # succeeds instead (refused when it has none left)
    legendary: bool = False


@C.register_command
class AreaEffect(C.Command, tag="area"):
    """Damage or heal several combatants with one roll (a fireball, a nine-phase channel's blast).

    `amount` or `dice` (+ `given`: the table's dice) is rolled once. `save`: the ability the targets
    save with (d20: str, dex, con, int, wis, cha), against `dc`; a target that saves takes half
    (rounded down), or nothing with `none_on_save`. Each share then meets the target's own
    resistances. `source`: who made it (for the log and the damage's source).

    A statblock's ability (Fire Breath): `ability` names it for the log ("Red Dragon uses Fire
    Breath (DC 21 Dex): ..."); `spend` ([key, amount]) takes the pools of `source` it uses, all or
    nothing; `act` the part of `source`'s turn it takes, as UseAbility's; `condition` is given to each
    target that fails its save (without a save, to every target not marked `saved`), a target immune
    to it skipped with a line in the log. With a condition, the amount and dice may be left out: a
    save against the condition alone (Binding Word), no damage dealt.
    """

    targets: tuple[AreaTarget, ...] = ()  # none is refused with a message, not a decode error
    amount: int | None = None
    dice: str = ""
    given: Given = None
    type: str = ""
    heal: bool = False
    pool: str = ""
    label: str = ""
    source: str = ""
    save: str = ""
    dc: int | None = None
    none_on_save: bool = False
    ability: str = ""
    spend: tuple[tuple[str, int], ...] = ()
    condition: str = ""
    act: str = ""
    cost: int = 1  # of `act` (Cosmere: a sweep taking two actions)


@C.register_command
class KeptCondition(C.Command, tag="condition_kept"):
    """A condition on `who` that `source`'s `through` condition keeps up (empty: the ruleset's
    concentration, d20's Concentrating). The other fields are AddCondition's."""

    who: str
    name: str
    source: str
    through: str = ""
    duration: Duration = Duration()
    level: int = 1
    dice: str = ""
    note: str = ""
    dc: int = 0
    override: bool = False


@C.register_command
class RemoveConditions(C.Command, tag="unconditions"):
    """End several conditions at once, each `[who, name]`: what an ended concentration kept up.
    `reason` is the log's why ("Mage's concentration ended"); empty: removed."""

    conditions: tuple[tuple[str, str], ...] = ()
    reason: str = ""


# --- area -------------------------------------------------------------------------------------


def _check_targets(f: Fight, targets: tuple[AreaTarget, ...], save: bool) -> None:
    if not targets:
        raise RuleError("Choose at least one target.")
    seen: set[str] = set()
    for t in targets:
        c = f.get(t.who)
        if t.who in seen:
            raise RuleError(f"{c.name} is a target twice: each target takes its share once.")
        seen.add(t.who)
        if t.given is not None and t.total is not None:
            raise RuleError(f"{c.name}'s save: give the dice or the total, not both.")
        if t.saved is not None and (t.given is not None or t.total is not None):
            raise RuleError(f"{c.name}'s save: give its roll or the GM's call, not both.")
        if t.legendary:
            if not save and t.saved is None:
                raise RuleError(f"{c.name} makes no save here: Legendary Resistance has no failure to turn.")
            pools.can_resist(c)


def _check_ability(f: Fight, cmd: "AreaEffect") -> str:
    """The ability's checks before anything is rolled: who uses it, the condition's name. Returns
    the condition's name ("" without one)."""
    if (cmd.ability or cmd.spend or cmd.act) and not cmd.source:
        what = cmd.ability or cmd.label or "it"
        raise RuleError(f"Name who uses {what} (source): what it spends and takes is that combatant's.")
    return clean_name(cmd.condition, "condition name") if cmd.condition.strip() else ""


def _save_name(rs: Ruleset, f: Fight, cmd: AreaEffect) -> str:
    """The save's name for the log ("" without one), after refusing what cannot be."""
    key = cmd.save.strip().lower()
    if cmd.heal:
        if key or cmd.dc is not None or cmd.none_on_save or cmd.type:
            raise RuleError("Healing has no save and no damage type: leave them out.")
        if any(t.saved is not None or t.given is not None or t.total is not None for t in cmd.targets):
            raise RuleError("Healing has no save: every target heals the whole amount.")
        return ""
    if not key:
        if cmd.dc is not None:
            raise RuleError("A DC goes with a save: name the save, or leave the DC out.")
        for t in cmd.targets:
            if t.given is not None or t.total is not None:
                raise RuleError(f"There is no save to roll for {f.get(t.who).name}: name the save first.")
        return ""
    saver = AREA_SAVES.get(f.ruleset)
    if saver is None:
        raise RuleError(f"{rs.title} has no save for several targets: mark the ones that take half instead.")
    name = saver.name(key)
    if cmd.dc is None:
        raise RuleError(f"Give the DC of the {name} save.")
    if not 1 <= cmd.dc <= MAX_DC:
        raise RuleError(f"A DC is between 1 and {MAX_DC}, not {cmd.dc}.")
    return name


def _with_detail(events: tuple[E.Event, ...], who: str, note: str) -> list[E.Event]:
    """The target's own damage line, headed by how its save went."""
    out = list(events)
    if not note:
        return out
    for i, e in enumerate(out):
        if isinstance(e, E.Damaged) and e.who == who:
            out[i] = replace(e, detail=note + (f"; {e.detail}" if e.detail else ""))
            break
    return out


def _area(rs: Ruleset, f: Fight, cmd: AreaEffect, ev: Events) -> Fight:
    source = f.get(cmd.source) if cmd.source else None
    save = _save_name(rs, f, cmd)
    _check_targets(f, cmd.targets, bool(save))
    condition = _check_ability(f, cmd)
    # a save against a condition alone deals nothing (no amount, no dice: not "0 damage to each")
    harmless = bool(condition) and cmd.amount is None and not cmd.dice and not cmd.heal
    if harmless:
        if cmd.given is not None or cmd.type:
            raise RuleError("Dice or a damage type need the damage's dice or amount.")
        amount, r = 0, None
    else:
        amount, r, f = amount_or_roll(f, cmd.amount, cmd.dice, cmd.given, "healing" if cmd.heal else "damage")
    names = tuple(f.get(t.who).name for t in cmd.targets)
    ev.append(
        E.AreaRolled(
            amount, r, cmd.type, cmd.heal, cmd.label, cmd.source, source.name if source else "",
            names, save, cmd.dc, cmd.none_on_save, cmd.ability.strip(), condition if harmless else "",
        )
    )
    if source is not None:
        f = _pay(rs, f, cmd, source.id, ev)
    for t in cmd.targets:
        c = f.get(t.who)
        saved, note, f = _target_save(rs, f, cmd, t, save, ev)
        if harmless:
            if note:
                ev.append(E.Info(f"{c.name}: {note}", c.id))
        else:
            f = _share(f, cmd, c.id, amount, saved, note, ev)
        if condition and not saved:
            f = _give_condition(f, c.id, condition, cmd.source, ev)
    return f


def _pay(rs: Ruleset, f: Fight, cmd: AreaEffect, who: str, ev: Events) -> Fight:
    """The part of the user's turn the ability takes, then its pools, all or nothing with the effect."""
    if cmd.act:
        name = cmd.ability.strip() or cmd.label.strip() or "Area effect"
        f = rs.pay_ability(f, C.UseAbility(who, name, spend=cmd.spend, act=cmd.act, cost=cmd.cost), ev)
    return pools.spend(rs, f, who, cmd.spend, ev)


def _share(f: Fight, cmd: AreaEffect, who: str, amount: int, saved: bool | None, note: str, ev: Events) -> Fight:
    """One target's share of the roll, through the ruleset's own Damage (or Heal), as if the GM had
    typed it for this target."""
    share = amount
    if saved:
        share = 0 if cmd.none_on_save else amount // 2
        note += ", none" if cmd.none_on_save else f", half of {amount}"
    sub: C.Command
    if cmd.heal:
        sub = C.Heal(who, share, pool=cmd.pool)
    else:
        sub = C.Damage(who, share, type=cmd.type, pool=cmd.pool, source=cmd.source)
    f, sub_events = apply(f, sub)
    ev.extend(_with_detail(sub_events, who, note))
    return f


def _target_save(
    rs: Ruleset, f: Fight, cmd: AreaEffect, t: AreaTarget, save: str, ev: Events
) -> tuple[bool | None, str, Fight]:
    """How one target's save went: rolled (d20), the GM's call, or none made (None); a failure that
    Legendary Resistance turns into a success. Returns (saved, the note for its damage line, fight)."""
    c = f.get(t.who)
    saved = t.saved
    note = ""
    if save and saved is None:
        assert cmd.dc is not None  # _save_name refused a save without one
        saved, shown, f = AREA_SAVES[f.ruleset].roll(f, c, cmd.save.strip().lower(), cmd.dc, t.given, t.total)
        note = f"{shown}: {'saved' if saved else 'failed'}"
    elif saved is not None:
        note = "saved (the GM's call)" if saved else "failed its save (the GM's call)"
    if saved is False and t.legendary:
        f, left = pools.resist(f, c.id, ev)
        saved = True
        note += f", Legendary Resistance: a success instead ({left} left)"
    if saved is not None:
        f = rs.save_made(f, f.get(c.id), ev)  # a save made (nine-phase: it interrupts a channel)
    return saved, note, f


def _give_condition(f: Fight, who: str, name: str, source: str, ev: Events) -> Fight:
    """The effect's condition on a target that did not save; one immune to it is skipped, said in
    the log (the GM can still give it by hand, overriding)."""
    c = f.get(who)
    low = name.casefold()
    if any(x.strip().casefold() == low for x in c.condition_immune):
        ev.append(E.Info(f"{c.name} is immune to {name}: not given", c.id))
        return f
    f, events = apply(f, C.AddCondition(who, name, source=source))
    ev.extend(events)
    return f


# --- what concentration keeps up ----------------------------------------------------------------


def sustaining(ruleset: str) -> str:
    """The condition a caster holds while keeping effects up in this ruleset ("" = none)."""
    return SUSTAINING.get(ruleset, ("", ""))[0]


def sustained_by(ruleset: str, caster: str, through: str) -> str:
    """How the log says what keeps a condition up: "Mage's concentration", or "Mage's Rage"."""
    name, word = SUSTAINING.get(ruleset, ("", ""))
    return f"{caster}'s {word if word and through.lower() == name.lower() else through}"


def _kept(rs: Ruleset, f: Fight, cmd: KeptCondition, ev: Events) -> Fight:
    if not cmd.source:
        raise RuleError("Name the caster whose concentration keeps the condition up.")
    caster = f.get(cmd.source)
    through = cmd.through.strip() or sustaining(f.ruleset)
    if not through:
        raise RuleError(f"{rs.title} has no concentration: name {caster.name}'s condition that keeps it up.")
    held = caster.condition(through)
    if held is None:
        raise RuleError(f"{caster.name} is not {through}: nothing keeps the condition up.")
    if cmd.who == caster.id and clean_name(cmd.name, "condition name").lower() == held.name.lower():
        raise RuleError(f"{held.name} cannot keep itself up.")
    add = C.AddCondition(
        cmd.who, cmd.name, cmd.duration, cmd.level, caster.id, cmd.dice, cmd.note, cmd.dc, cmd.override
    )
    f, events = apply(f, add)
    out = list(events)
    added = next((e for e in out if isinstance(e, E.ConditionAdded) and e.who == cmd.who), None)
    target = f.get(cmd.who)
    cond = target.condition(added.condition) if added is not None else None
    if added is not None and cond is not None:
        kept = replace(cond, through=held.name)
        f = put(f, replace(target, conditions=tuple(kept if x is cond else x for x in target.conditions)))
        i = out.index(added)
        why = f"kept up by {sustained_by(f.ruleset, caster.name, held.name)}"
        out[i] = replace(added, detail=f"{added.detail}, {why}" if added.detail else why)
    ev.extend(out)
    return f


def _remove_many(rs: Ruleset, f: Fight, cmd: RemoveConditions, ev: Events) -> Fight:
    if not cmd.conditions:
        raise RuleError("Name at least one condition to end.")
    seen: set[tuple[str, str]] = set()
    for who, name in cmd.conditions:
        c = f.get(who)
        if (who, name.lower()) in seen:
            raise RuleError(f"{c.name}'s {name} is named twice.")
        seen.add((who, name.lower()))
    reason = cmd.reason.strip() or "removed"
    for who, name in cmd.conditions:
        c = f.get(who)
        cond = c.condition(name)
        if cond is None:
            raise RuleError(f"{c.name} is not {name} any more.")
        f = end_condition(rs, f, c, cond, reason, ev)  # as the Remove condition command does
    return f


register_generic(AreaEffect, _area)
register_generic(KeptCondition, _kept)
register_generic(RemoveConditions, _remove_many)
