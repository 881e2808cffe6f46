"""`apply(state, command) -> (state, events)`: the one pure function every change goes through.

A command that breaks a rule raises RuleError before anything is returned; since states are frozen the
old state is untouched by construction, never half-applied.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import NamedTuple

from msgspec.structs import replace

from engine import commands as C
from engine import events as E
from engine import pools
from engine.dice import Rng, parse, roll
from engine.errors import RuleError
from engine.limits import COMPILED, WORD, check_command
from engine.mechanics import EffectRolled, amount_or_roll, deal_damage
from engine.ruleset import REGISTRY, Events, Handler, Ruleset, get_ruleset, remove_condition
from engine.state import Combatant, Condition, Duration, Fight, Pool, put, set_pool
from engine.text import check_line, check_multiline, normal_name, shown

MAX_COMBATANTS = 500
MAX_NAME = 80
MAX_TEXT = 2000


def new_fight(ruleset: str, name: str = "Fight", seed: int = 0) -> Fight:
    clock = get_ruleset(ruleset).clock_type()  # the ruleset's own, at its start (number 0)
    return Fight(ruleset=ruleset, name=clean_name(name, "fight name"), clock=clock, rng=Rng(seed & ((1 << 63) - 1), 0))


def apply(f: Fight, cmd: C.Command) -> tuple[Fight, tuple[E.Event, ...]]:
    # the registry and the compiled checks are read here directly (get_ruleset and check_command
    # on a miss): two calls fewer in every command
    rs = REGISTRY.get(f.ruleset) or get_ruleset(f.ruleset)
    kind = type(cmd)
    handler = _CACHE.get((rs, kind)) or _handler(rs, kind)
    ev: Events = []
    try:
        # caps and character rules for every text and list field, every ruleset
        (COMPILED.get(kind) or check_command)(cmd)
        out = handler(f, cmd, ev)
    except RuleError as err:
        message = str(err)
        if not message.isprintable():
            # a message that quotes what was typed ("Two\nlines") still reads as one line
            raise RuleError("".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in message)) from None
        raise
    return out, tuple(ev)


# keyed by the ruleset object, not its id: a ruleset registered again under an id gets its own handlers
_CACHE: dict[tuple[Ruleset, type], Handler] = {}


def _handler(rs: Ruleset, kind: type) -> Handler:
    key = (rs, kind)
    h = _CACHE.get(key)
    if h is None:
        own = rs.handlers().get(kind)  # type: ignore[arg-type]
        generic = _GENERIC.get(kind)
        if own is None and generic is None:
            name = getattr(kind, "__struct_config__", None)
            tag = name.tag if name else kind.__name__
            raise RuleError(f"{rs.title} has no '{tag}' command.")
        # a generic handler gets the ruleset bound first (partial: no extra Python frame a command)
        h = own if own is not None else partial(generic, rs)  # type: ignore[arg-type]
        _CACHE[key] = h
    return h


# --- validation helpers -----------------------------------------------------------------------


def clean_name(name: str, what: str = "name") -> str:
    """Names are kept as typed (markup and all) but must be non-empty, one line, free of control and
    text-direction characters (they would reach terminals and pages) and not huge."""
    if not isinstance(name, str) or not normal_name(name):
        raise RuleError(f"A {what} cannot be empty.")
    return normal_name(check_line(name, what, MAX_NAME))


def _text(s: str, what: str) -> str:
    return check_multiline(s, what, MAX_TEXT)


def _words(values: tuple[str, ...], what: str) -> tuple[str, ...]:
    """Flags, resistances, vulnerabilities: a short list of short one-line words."""
    if len(values) > 50:
        raise RuleError(f"At most 50 {what}.")
    for v in values:
        if not v.strip() or len(v) > 40 or not v.isprintable():
            raise RuleError(f"Each of the {what} is a word or two on one line (at most 40 characters).")
    return tuple(values)


# the combatant's lists of short words, as AddCombatant and EditCombatant give them
WORD_FIELDS = ("flags", "resist", "vulnerable", "immune", "condition_immune")
MAX_POOLS = 60  # a statblock's limited abilities: nine slot levels, legendary actions, recharges, uses


def _check_resources(rs: Ruleset, pools: tuple[Pool, ...]) -> None:
    """A statblock's limited abilities: named once each, not the ruleset's own resources, full."""
    if len(pools) > MAX_POOLS:
        raise RuleError(f"At most {MAX_POOLS} limited abilities.")
    own = {p.key for p in rs.resources(rs.full_stats(()), C.AddCombatant(name="x"))}
    seen: set[str] = set()
    for p in pools:
        key = p.key.casefold()
        if not p.key.strip() or len(p.key) > WORD or not p.key.isprintable():
            raise RuleError(f"A limited ability needs a short one-line name (at most {WORD} characters).")
        if key in seen or p.key in own:
            raise RuleError(f"{shown(p.key)} is named twice among the resources.")
        if not 0 <= p.current <= p.max <= 99 or p.temp or not 0 <= p.recharge <= 6:
            raise RuleError(f"{shown(p.key)}: uses are 0-99, at most its maximum; a recharge is 1-6.")
        seen.add(key)


def _started(f: Fight) -> None:
    if not f.started:
        raise RuleError("The fight has not started yet: start it first.")
    if f.ended:
        raise RuleError("The fight is over.")


# --- generic handlers -------------------------------------------------------------------------


def _add(rs: Ruleset, f: Fight, cmd: C.AddCombatant, ev: Events) -> Fight:
    name = clean_name(cmd.name)
    if not 1 <= cmd.count <= 50:
        raise RuleError("Add between 1 and 50 combatants at once.")
    if len(f.combatants) + cmd.count > MAX_COMBATANTS:
        raise RuleError(f"A fight can hold at most {MAX_COMBATANTS} combatants.")
    if cmd.owner:
        owner = f.get(cmd.owner)
        if owner.owner:
            raise RuleError(f"{owner.name} is a companion and cannot have companions of its own.")
    _text(cmd.note, "note")
    for field in WORD_FIELDS:
        _words(getattr(cmd, field), field.replace("_", " "))
    _check_resources(rs, cmd.resources)
    joins = _joining(rs, f, cmd)
    _check_together(rs, cmd, joins)
    added = _copies(rs, f, cmd, name)
    f = replace(f, combatants=f.combatants + added, next_id=f.next_id + len(added))
    shared: E.InitiativeRolled | None = None
    if f.started and joins and cmd.together:
        # one roll (or the one given) for all the copies, said once they have joined
        value, r, note, rng = rs.roll_initiative(added[0], joins[0], f.rng)
        _believable(value)
        f = replace(f, rng=rng)
        shared = E.InitiativeRolled(added[0].id, added[0].name, value, r, note, tuple(c.name for c in added))
    for i, c in enumerate(added):
        ev.append(E.Added(c.id, c.name))
        if f.started:
            if shared is not None:
                f = put(f, replace(c, initiative=shared.value))
            elif joins:
                # its initiative first, so the ruleset's joining places it in the order by it
                given = joins[i] if len(joins) > 1 else joins[0]
                value, r, note, rng = rs.roll_initiative(c, given, f.rng)
                _believable(value)
                f = replace(put(f, replace(c, initiative=value)), rng=rng)
                ev.append(E.InitiativeRolled(c.id, c.name, value, r, note))
            f = rs.joined(f, f.get(c.id), ev)
    if shared is not None:
        ev.append(shared)
    return f


def _copies(rs: Ruleset, f: Fight, cmd: C.AddCombatant, name: str) -> tuple[Combatant, ...]:
    """The combatants `cmd` adds, numbered after copies already there, each with its own stats when
    `copies` gives them, and one initiative group when they act together."""
    nid = f.next_id
    group = f"c{nid}" if cmd.together else ""  # the first copy's id: unique, and never reused
    added = []
    # a second batch of Goblins carries on from Goblin 3 rather than repeating Goblin 1
    first = 1 + max((_number_after(c.name, name) for c in f.combatants), default=0)
    if cmd.copies and len(cmd.copies) != cmd.count:
        raise RuleError(f"Give stats for each of the {cmd.count} copies, or for none ({len(cmd.copies)} given).")
    for i in range(cmd.count):
        label = f"{name} {first + i}" if cmd.count > 1 else name
        if len(label) > MAX_NAME:
            raise RuleError(f"A name can be at most {MAX_NAME} characters.")
        own = cmd
        if cmd.copies:
            mine = dict(cmd.copies[i])
            own = replace(cmd, stats=tuple((k, mine.pop(k, v)) for k, v in cmd.stats) + tuple(mine.items()))
        c = rs.make(own, f"c{nid}", label)
        if cmd.statblock or group:
            c = replace(c, statblock=cmd.statblock, group=group)
        nid += 1
        added.append(c)
    return tuple(added)


def _check_together(rs: Ruleset, cmd: C.AddCombatant, joins: tuple[C.Initiative, ...]) -> None:
    """Copies that act together: several of them, in a ruleset whose text allows a shared initiative,
    with their own (not a companion's) and at most one given for all."""
    if not cmd.together:
        return
    if not rs.shared_initiative:
        raise RuleError(f"{rs.title} has no initiative for copies to share: add them without 'together'.")
    if cmd.count < 2:
        raise RuleError("One initiative for all needs several copies (a count of 2 or more).")
    if cmd.owner:
        raise RuleError("A companion acts on its owner's initiative: it shares no other.")
    if len(joins) > 1:
        raise RuleError(f"Copies that act together take one initiative for all ({len(joins)} given).")


def _joining(rs: Ruleset, f: Fight, cmd: C.AddCombatant) -> tuple[C.Initiative, ...]:
    """The initiative each copy joins with (checked before anything is added); () when none is given."""
    if cmd.initiative is None:
        return ()
    if not rs.rolls_initiative():
        raise RuleError(f"{rs.title} has no initiative to roll: a newcomer is added without one.")
    if not f.started:
        raise RuleError("Initiative is rolled when the fight starts: add the combatant without it.")
    if cmd.owner:
        raise RuleError("A companion acts on its owner's initiative: add it without one.")
    if len(cmd.initiative) not in (1, cmd.count):
        given = len(cmd.initiative)
        raise RuleError(f"Give one initiative for all {cmd.count} copies, or one for each ({given} given).")
    for g in cmd.initiative:
        if g.dice is not None and g.total is not None:
            raise RuleError("An initiative is the dice rolled or the total called out, not both.")
    return cmd.initiative


def _number_after(label: str, name: str) -> int:
    """N when `label` is "<name> N", else 0."""
    prefix = name + " "
    if label.startswith(prefix) and label[len(prefix) :].isdigit() and label[len(prefix) :].isascii():
        return int(label[len(prefix) :])
    return 0


def _remove(rs: Ruleset, f: Fight, cmd: C.RemoveCombatant, ev: Events) -> Fight:
    c = f.get(cmd.who)
    kept = tuple(x for x in f.combatants if x.id != c.id)
    # companions of a removed combatant stay, but no longer share its turn
    kept = tuple(replace(x, owner="") if x.owner == c.id else x for x in kept)
    # durations counted on the leaver's turns could never end: they end now, with a line in the log
    cleaned = []
    for x in kept:
        watching = [k for k in x.conditions if k.duration.who == c.id and k.duration.kind in ("turn_start", "turn_end")]
        for k in watching:
            ev.append(E.ConditionEnded(x.id, x.name, k.name, f"{c.name}, whose turns it counted, left the fight"))
        cleaned.append(replace(x, conditions=tuple(k for k in x.conditions if k not in watching)) if watching else x)
    f = replace(f, combatants=tuple(cleaned))
    ev.append(E.Removed(c.id, c.name))
    return rs.left(f, c.id, ev)


def _edit(rs: Ruleset, f: Fight, cmd: C.EditCombatant, ev: Events) -> Fight:
    c = f.get(cmd.who)
    changes: list[str] = []
    new = c
    if cmd.name is not None:
        name = clean_name(cmd.name)
        if name != c.name:
            changes.append(f"renamed from {c.name}")  # the line is headed by the new name
            new = replace(new, name=name)
    if cmd.kind is not None and cmd.kind != c.kind:
        changes.append(f"now {'an' if cmd.kind == 'npc' else 'a'} {cmd.kind.upper()}")
        new = replace(new, kind=cmd.kind)
    if cmd.side is not None and cmd.side != c.side:
        changes.append(f"now on the {cmd.side} side")
        new = replace(new, side=cmd.side)
    if cmd.stats is not None:
        merged = dict(c.stats)
        merged.update(dict(cmd.stats))
        stats = rs.full_stats(tuple(merged.items()))
        if stats != c.stats:
            changes.append(", ".join(f"{rs.stat_label(k)} {v}" for k, v in cmd.stats))
            new = rs.restat(new, stats)
    for field in WORD_FIELDS:
        value = getattr(cmd, field)
        if value is not None and _words(value, field.replace("_", " ")) != getattr(c, field):
            changes.append(_words_changed(field, getattr(c, field), tuple(value)))
            new = replace(new, **{field: tuple(value)})
    if cmd.note is not None and cmd.note != c.note:
        changes.append("note changed")
        new = replace(new, note=_text(cmd.note, "note"))
    if not changes:
        raise RuleError(f"Nothing to change for {c.name}.")
    f = put(f, new)
    ev.append(E.Edited(c.id, new.name, "; ".join(changes)))
    if cmd.stats is not None and f.started:
        f = rs.reorder(f)
    return f


# flags the app and the rulesets act on, as the log says them ("now a minion, hidden from the players")
FLAG_WORDS = {
    "hidden": "hidden from the players",
    "minion": "a minion",
    "champion": "a champion",
    "master": "a master",
    "companion": "a companion",
}
WORD_FIELD_WORDS = {
    "resist": "resistant to",
    "vulnerable": "vulnerable to",
    "immune": "immune to",
    "condition_immune": "immune to the conditions",
}


def _words_changed(field: str, old: tuple[str, ...], new: tuple[str, ...]) -> str:
    """An edit of a list of words in the GM's words: the flags gained and lost one by one, a
    resistance list as what it now is."""
    if field != "flags":
        return f"{WORD_FIELD_WORDS.get(field, field)} {', '.join(new) or 'nothing'}"

    def said(flag: str) -> str:
        return FLAG_WORDS.get(flag.casefold(), f"flagged {flag}")

    gained = [said(x) for x in new if x not in old]
    lost = [said(x) for x in old if x not in new]
    parts = ([f"now {', '.join(gained)}"] if gained else []) + ([f"no longer {', '.join(lost)}"] if lost else [])
    return "; ".join(parts) or f"flags in another order: {', '.join(new)}"


def _start(rs: Ruleset, f: Fight, cmd: C.StartFight, ev: Events) -> Fight:
    if f.started:
        raise RuleError("The fight has already started.")
    if not f.combatants:
        raise RuleError("Add at least one combatant before starting the fight.")
    for cid in cmd.surprised:
        f.get(cid)
    for cid, _ in cmd.initiative:
        f.get(cid)
    if cmd.totals and not rs.rolls_initiative():
        raise RuleError(f"{rs.title} has no initiative total to call out: give the dice rolled.")
    dice = {cid for cid, _ in cmd.initiative}
    for cid, total in cmd.totals:
        c = f.get(cid)
        if cid in dice:
            raise RuleError(f"{c.name}'s initiative: give the die or the total called out, not both.")
        _believable(total)
    _no_rolls(rs, cmd.rolls)
    ev.append(E.FightStarted(f.name))
    f = replace(f, started=True)
    return rs.start(f, cmd, ev)


def _set_initiative(rs: Ruleset, f: Fight, cmd: C.SetInitiative, ev: Events) -> Fight:
    """One combatant's initiative; copies sharing it all take it, unless `alone` splits this one off
    (the last one left of its group is then on its own too)."""
    c = f.get(cmd.who)
    if not rs.has_initiative:
        raise RuleError(f"{rs.title} has no initiative number to set.")
    _believable(cmd.value)
    team = [x for x in f.combatants if x.group == c.group] if c.group else [c]
    if cmd.alone and len(team) < 2:
        raise RuleError(f"{c.name} shares its initiative with no one: set it without 'alone'.")
    if cmd.alone:
        rest = [x for x in team if x.id != c.id]
        if len(rest) == 1:  # a group of one is no group
            f = put(f, replace(rest[0], group=""))
        f = put(f, replace(c, initiative=cmd.value, group=""))
        ev.append(E.InitiativeRolled(c.id, c.name, cmd.value, None, "(set by hand, on its own now)"))
        return rs.reorder(f)
    for x in team:
        f = put(f, replace(x, initiative=cmd.value))
    names = tuple(x.name for x in team) if len(team) > 1 else ()
    ev.append(E.InitiativeRolled(c.id, c.name, cmd.value, None, "(set by hand)", names))
    return rs.reorder(f)


def _believable(value: int) -> None:
    if abs(value) > 10_000:
        raise RuleError(f"{value} is not a believable initiative.")


def _reorder(rs: Ruleset, f: Fight, cmd: C.Reorder, ev: Events) -> Fight:
    c = f.get(cmd.who)
    if c.id not in f.order:
        raise RuleError(f"{rs.title} has no fixed turn order to move {c.name} in.")
    order = [x for x in f.order if x != c.id]
    if not 0 <= cmd.position <= len(order):
        raise RuleError(f"Position {cmd.position} is outside the order: 0 (first) to {len(order)} (last).")
    team = {x.id for x in f.combatants if x.group == c.group} if c.group else {c.id}
    block = [x for x in f.order if x in team]
    first = f.order.index(block[0])
    if len(block) > 1 and not first <= cmd.position < first + len(block):
        # copies sharing one initiative move as one block: the moved one lands where it was put
        rest = [x for x in f.order if x not in team]
        at = max(0, min(len(rest), cmd.position - block.index(c.id)))
        order = rest[:at] + block + rest[at:]
    else:
        order.insert(cmd.position, c.id)
    f = rs.order_changed(replace(f, order=tuple(order)))
    ev.append(E.OrderSet(tuple(f.get(x).name for x in order)))
    return f


def _no_rolls(rs: Ruleset, rolls: tuple[C.GivenRoll, ...]) -> None:
    if rolls and not rs.takes_turn_rolls:
        raise RuleError(f"{rs.title} rolls nothing at the start of a turn: no dice to enter here.")


def _next(rs: Ruleset, f: Fight, cmd: C.NextTurn, ev: Events) -> Fight:
    _started(f)
    _no_rolls(rs, cmd.rolls)
    return rs.advance(f, ev)


def _damage(rs: Ruleset, f: Fight, cmd: C.Damage, ev: Events) -> Fight:
    f.get(cmd.who)  # an unknown combatant is refused before any dice are rolled
    rolled, r, f = amount_or_roll(f, cmd.amount, cmd.dice, cmd.given, "damage")
    # the type needs no check of its own: apply's limits (engine/limits.py) hold it to one short line
    return deal_damage(rs, f, cmd.who, rolled, cmd.type, r, ev, cmd=cmd)


def _heal(rs: Ruleset, f: Fight, cmd: C.Heal, ev: Events) -> Fight:
    c = f.get(cmd.who)
    amount, r, f = amount_or_roll(f, cmd.amount, cmd.dice, cmd.given, "healing")
    key = cmd.pool or (c.health[0].key if c.health else "")
    p = c.pool(key)
    if p is None or p not in c.health:
        raise RuleError(f"{c.name} has no '{key}' track to heal.")
    healed = min(amount, max(0, p.max - p.current))
    new = replace(c, health=set_pool(c.health, replace(p, current=p.current + healed)))
    was_down = c.down
    if was_down and not new.down:
        new = replace(new, dropped=None)
    f = put(f, new)
    first = bool(c.health) and p is c.health[0]
    # a track other than the first (nine-phase grit) is named, with its own value
    ev.append(E.Healed(c.id, c.name, healed, r, new.hp if first else p.current + healed, "" if first else p.key))
    if was_down and not new.down:
        ev.append(E.Revived(c.id, c.name))
    return f


def _temp(rs: Ruleset, f: Fight, cmd: C.TempHealth, ev: Events) -> Fight:
    c = f.get(cmd.who)
    amount, r, f = amount_or_roll(f, cmd.amount, cmd.dice, cmd.given, "temporary health")
    if not c.health:
        raise RuleError(f"{c.name} has no health track.")
    p = c.health[0]
    # temporary health does not stack: the higher of the old and the new is kept
    new_temp = max(p.temp, amount)
    f = put(f, replace(c, health=set_pool(c.health, replace(p, temp=new_temp))))
    ev.append(E.TempGained(c.id, c.name, new_temp, r))
    return f


def check_duration(f: Fight, d: Duration, rs: Ruleset | None = None) -> Duration:
    """Refuse a duration that is already over or never ends; return it with only its meaningful
    fields (a 'manual' one carrying a count of -1 would otherwise be stored as typed)."""
    if rs is not None and d.kind not in rs.durations:
        # a duration the ruleset never counts down would silently last forever
        raise RuleError(rs.durations_help)
    first = max(f.round, 1)  # before the fight starts, round 1 is the earliest there is
    if d.kind in ("turn_start", "turn_end"):
        f.get(d.who)
        if not 1 <= d.count <= 1000:
            raise RuleError("A duration counts between 1 and 1000 turns.")
        return Duration(d.kind, who=d.who, count=d.count)
    if d.kind == "manual":
        return Duration()
    if d.kind == "phase_end":
        if not 1 <= d.phase <= 9:
            raise RuleError("A phase is a number from 1 to 9.")
        if d.round < first or (d.round == f.round and f.phase > d.phase):
            raise RuleError("That duration would already be over.")
    elif d.kind == "round_end":
        if d.round < first:
            raise RuleError("That duration would already be over.")
    if d.round > first + 10_000:
        raise RuleError("A duration can last at most 10,000 rounds.")
    return Duration(d.kind, round=d.round, phase=d.phase if d.kind == "phase_end" else 0)


def _add_condition(rs: Ruleset, f: Fight, cmd: C.AddCondition, ev: Events) -> Fight:
    c = f.get(cmd.who)
    name = clean_name(cmd.name, "condition name")
    duration = check_duration(f, cmd.duration, rs)
    if not 1 <= cmd.level <= 20:
        raise RuleError("A condition level is between 1 and 20.")
    if cmd.source:
        f.get(cmd.source)
    if cmd.dice:
        parse(cmd.dice)
    canonical = _canonical(rs, name)
    low = name.lower()
    if not 0 <= cmd.dc <= 100:
        raise RuleError(f"A save DC is between 1 and 100 (or 0 for none), not {cmd.dc}.")
    if c.condition_immune and not cmd.override:
        for x in c.condition_immune:
            if x.lower() == low:
                raise RuleError(f"{c.name} is immune to {canonical} (its statblock says so); give it anyway?")
    # the note as given: apply's limits (engine/limits.py) checked it as _text would
    cond = Condition(canonical, cmd.level, duration, cmd.source, cmd.note, cmd.dice, cmd.dc)
    earlier = c.condition(canonical)
    if earlier is not None and outlasts(f, earlier.duration, duration):
        # the same condition again (another source): the longer stands whole, with its source and
        # what keeps it up (docs/conditions.md); a shorter one is said, not silently dropped
        longer = duration_text(f, earlier.duration) or "until removed"
        ev.append(E.Info(f"{c.name} stays {canonical} ({longer}): the new one would end sooner", c.id))
        return f
    # `low` is canonical's too; without an earlier one of that name nothing is dropped
    kept = c.conditions if earlier is None else tuple([x for x in c.conditions if x.name.lower() != low])
    new = replace(c, conditions=kept + (cond,))
    f = put(f, new)
    detail = duration_text(f, cmd.duration)
    if cmd.level > 1:
        detail = f"level {cmd.level}" + (f", {detail}" if detail else "")
    # "Orc is Prone", but "Orc has Exhaustion (level 3)": a condition with levels is had, not been
    ev.append(E.ConditionAdded(c.id, c.name, canonical, detail, "has" if cmd.level > 1 else ""))
    return rs.condition_added(f, new, cond, ev)


def _canonical(rs: Ruleset, name: str) -> str:
    """The ruleset's own spelling of a condition it names ("prone" -> "Prone"), else `name`."""
    if name in rs.conditions:
        return name  # spelled as the ruleset does (the usual case): nothing to look for
    low = name.lower()
    for k in rs.conditions:  # a plain loop: a generator's step per name cost a microsecond
        if k.lower() == low:
            return k
    return name


# where in a round a duration's end falls, after every turn's start and end: the end of the round
ROUND_END = 1 << 30


def ends_at(f: Fight, d: Duration) -> tuple[int, int] | None:
    """When `d` ends, as a point two durations of one fight compare by: (rounds from now, its place
    in that round); None: never by itself (until removed, or a kind not counted here). A turn's
    place is its slot in the order where the ruleset keeps one (else the round's start: Cosmere's
    phases are chosen each round), its start before its end; whether this round's turn of the one
    it watches is still to come is read from whose turn it is and who has acted."""
    if d.kind == "round_end":
        return d.round - f.round, ROUND_END
    if d.kind == "phase_end":
        return d.round - f.round, d.phase
    if d.kind not in ("turn_start", "turn_end"):
        return None
    w = f.find(d.who)
    end = d.kind == "turn_end"
    slot = 2 * (f.order.index(d.who) if d.who in f.order else 0) + end
    if not f.started or w is None:
        ahead = True
    elif f.current == d.who:
        ahead = end  # its turn is under way: its start is behind, its end ahead
    else:
        ahead = not w.economy.done
    return (0 if ahead else 1) + max(1, d.count) - 1, slot


def outlasts(f: Fight, a: Duration, b: Duration) -> bool:
    """Whether `a` ends strictly later than `b` (until removed outlasts any end)."""
    ea, eb = ends_at(f, a), ends_at(f, b)
    if ea is None:
        return eb is not None
    return eb is not None and ea > eb


def duration_text(f: Fight, d: Duration) -> str:
    if d.kind == "manual":
        return ""
    if d.kind in ("turn_start", "turn_end"):
        who = f.find(d.who)
        name = who.name if who else "?"
        when = "start" if d.kind == "turn_start" else "end"
        # a turn_end duration set during that combatant's own turn counts the current turn first
        n = d.count - (1 if d.kind == "turn_end" and f.current == d.who else 0)
        if n <= 0:
            return f"until the end of {name}'s current turn"
        if n == 1:
            return f"until the {when} of {name}'s next turn"
        return f"until the {when} of {name}'s turn {n} turns from now"
    if d.kind == "phase_end":
        return f"until the end of phase {d.phase} of round {d.round}"
    return f"until the end of round {d.round}"


def _remove_condition(rs: Ruleset, f: Fight, cmd: C.RemoveCondition, ev: Events) -> Fight:
    c = f.get(cmd.who)
    cond = c.condition(cmd.name)
    if cond is None:
        raise RuleError(f"{c.name} is not {cmd.name}.")
    return end_condition(rs, f, c, cond, "removed", ev)


def end_condition(rs: Ruleset, f: Fight, c: Combatant, cond: Condition, reason: str, ev: Events) -> Fight:
    """End `cond` on `c` as the GM does by hand (the log says `reason`); the ruleset reacts."""
    f = put(f, remove_condition(c, cond.name))
    ev.append(E.ConditionEnded(c.id, c.name, cond.name, reason))
    return rs.condition_removed(f, f.get(c.id), cond, ev)


def _spend(rs: Ruleset, f: Fight, cmd: C.SpendResource, ev: Events) -> Fight:
    c = f.get(cmd.who)
    p = _resource(c, cmd.key)
    if cmd.amount < 1:
        raise RuleError("Spend at least 1.")
    if p.current < cmd.amount:
        raise RuleError(f"{c.name} has only {p.current} {p.key} left, not {cmd.amount}.")
    f = put(f, replace(c, resources=set_pool(c.resources, replace(p, current=p.current - cmd.amount))))
    ev.append(E.ResourceChanged(c.id, c.name, p.key, -cmd.amount, p.current - cmd.amount))
    return f


def _restore(rs: Ruleset, f: Fight, cmd: C.RestoreResource, ev: Events) -> Fight:
    c = f.get(cmd.who)
    p = _resource(c, cmd.key)
    if cmd.amount < 1:
        raise RuleError("Restore at least 1.")
    gained = min(cmd.amount, p.max - p.current)
    if gained <= 0:
        raise RuleError(f"{c.name}'s {p.key} is already full ({p.current}/{p.max}).")
    c = replace(c, resources=set_pool(c.resources, replace(p, current=p.current + gained)))
    if p.current + gained >= p.max:
        c = pools.clear_recharge(c, p.key)  # full again by the GM's hand: no recharge roll owed
    f = put(f, c)
    ev.append(E.ResourceChanged(c.id, c.name, p.key, gained, p.current + gained))
    return f


def _resource(c: Combatant, key: str) -> Pool:
    p = pools.find_pool(c, key)
    if p is not None:
        return p
    have = ", ".join(p.key for p in c.resources) or "none"
    raise RuleError(f"{c.name} has no '{key}' to spend or restore (it has: {have}).")


def _use(rs: Ruleset, f: Fight, cmd: C.UseAction, ev: Events) -> Fight:
    _started(f)
    return rs.use(f, cmd, ev)


def _save(rs: Ruleset, f: Fight, cmd: C.SavingThrow, ev: Events) -> Fight:
    c = f.get(cmd.who)
    if cmd.legendary:
        if cmd.dc is None:
            raise RuleError("Legendary Resistance turns a failed save into a success: give the save's DC.")
        pools.can_resist(c)
    r, rng = roll(cmd.dice, f.rng, cmd.given)
    if cmd.given is None:
        f = replace(f, rng=rng)
    ok = None if cmd.dc is None else r.total >= cmd.dc
    ev.append(E.SaveRolled(c.id, c.name, r, cmd.dc, ok, _text(cmd.label, "label")))
    if ok is False and cmd.legendary:
        f, _ = pools.resist(f, c.id, ev)
    return rs.save_made(f, f.get(c.id), ev)


def _roll(rs: Ruleset, f: Fight, cmd: C.Roll, ev: Events) -> Fight:
    name = f.get(cmd.who).name if cmd.who else ""
    r, rng = roll(cmd.dice, f.rng, cmd.given)
    ev.append(E.Rolled(r, cmd.who, name, _text(cmd.label, "label")))
    return f if cmd.given is not None else replace(f, rng=rng)


def _note(rs: Ruleset, f: Fight, cmd: C.Note, ev: Events) -> Fight:
    name = f.get(cmd.who).name if cmd.who else ""
    if not cmd.text.strip():
        raise RuleError("A note cannot be empty.")
    ev.append(E.Noted(_text(cmd.text, "note"), cmd.who, name))
    return f


SETTINGS = {
    "roll_pc": ("app", "table"),
    "roll_npc": ("app", "table"),
    # the players' view (fracas view / serve): how enemies' health shows, and whether the rolls the GM
    # makes for enemies reach its public log. The first value is the default.
    "view_health": ("band", "numbers", "none"),
    "view_rolls": ("private", "public"),
    # adding from the library: each copy's health the statblock's number, or rolled from its dice
    # (the add and edit dialogs read typed dice, 5d8+5, the same way: the average, or rolled)
    "add_health": ("fixed", "rolled"),
    # the initiative the table gives in the dialogs: the die rolled (the app adds the bonus), or the
    # total the player calls out
    "init_typed": ("die", "total"),
}


def _setting(rs: Ruleset, f: Fight, cmd: C.Setting, ev: Events) -> Fight:
    allowed = SETTINGS.get(cmd.key)
    if allowed is None:
        raise RuleError(f"Unknown setting '{cmd.key}' (known: {', '.join(SETTINGS)}).")
    if cmd.value not in allowed:
        raise RuleError(f"Setting {cmd.key} takes {' or '.join(allowed)}, not '{cmd.value}'.")
    settings = tuple((k, v) for k, v in f.settings if k != cmd.key) + ((cmd.key, cmd.value),)
    ev.append(E.SettingChanged(cmd.key, cmd.value))
    return replace(f, settings=settings)


def _end(rs: Ruleset, f: Fight, cmd: C.EndFight, ev: Events) -> Fight:
    if f.ended:
        raise RuleError("The fight is already over.")
    ev.append(E.FightEnded(f.round))
    return replace(f, ended=True, current="")


_GENERIC: dict[type, Callable[..., Fight]] = {
    C.AddCombatant: _add,
    C.RemoveCombatant: _remove,
    C.EditCombatant: _edit,
    C.StartFight: _start,
    C.SetInitiative: _set_initiative,
    C.Reorder: _reorder,
    C.NextTurn: _next,
    C.Damage: _damage,
    C.Heal: _heal,
    C.TempHealth: _temp,
    C.AddCondition: _add_condition,
    C.RemoveCondition: _remove_condition,
    C.SpendResource: _spend,
    C.RestoreResource: _restore,
    C.UseAction: _use,
    C.SavingThrow: _save,
    C.Roll: _roll,
    C.Note: _note,
    C.Setting: _setting,
    C.EndFight: _end,
}


def register_generic(kind: type[C.Command], fn: Callable[..., Fight]) -> None:
    """A command defined outside this module (engine/area.py, ...) that every ruleset handles the
    same way: `fn(rs, f, cmd, ev)`, unless a ruleset's own handlers() has one for `kind`."""
    _GENERIC[kind] = fn
    for key in [k for k in _CACHE if k[1] is kind]:
        del _CACHE[key]


class RollDue(NamedTuple):
    """A roll a command is about to make on its own: who rolls, for what, and the dice."""

    who: str
    what: str
    expr: str


def rolls_due(f: Fight, cmd: C.Command) -> tuple[RollDue, ...]:
    """The rolls `cmd` would make on its own (start-of-turn effects), found by a dry run.

    `apply` is pure, so this changes nothing: the app calls it before sending NextTurn / StartTurn /
    StartFight, asks the table for these dice when the table rolls, and sends them in `rolls`.
    A command that would be refused gives no rolls (the real command will say why).
    """
    try:
        _, events = apply(f, cmd)
    except RuleError:
        return ()
    return tuple(RollDue(e.who, e.what, e.roll.expr) for e in events if isinstance(e, EffectRolled))
