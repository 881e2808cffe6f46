"""One conformance test over every ruleset (issue 2, item 9), in the spirit of OpenSpiel's random sim test.

Random command sequences, valid and invalid, built from the fight's current combatant ids, check after
every step that:

- no exception other than RuleError ever escapes `apply`, and its message is one line;
- a refused command leaves the state (and the history) exactly as it was;
- no health, resource or action-economy count is negative (or a pool above its maximum);
- the fight stays consistent (unique ids; the order and the current combatant exist);
- undo(apply(s)) == s and redo gives the same state again;
- `apply` is pure: the same state and command give the same state and events (no reroll);
- the state, the command and the events survive a msgspec JSON encode -> decode unchanged.

Commands come three ways: `next` (to move the fight on), guided ones that are mostly valid for the
ruleset (so fights get deep), and fuzzed instances of every registered command type, the rulesets'
own included, built from their field types. FRACAS_SOAK=1 runs many more and longer sequences.
"""

from __future__ import annotations

import os
import types
import typing
from typing import Any, Literal, Union

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import History, RuleError, apply, command_union, core, event_union, get_ruleset, new_fight, ruleset_ids
from engine import commands as C
from engine.rules.cosmere.commands import ChooseSpeed, StartTurn
from engine.rules.ninephase.commands import Activity
from engine.rules.warhammer.commands import Fortune
from engine.state import Duration, Fight, state_hook

# every registered ruleset: a fifth one registered before collection is covered as well
RULESETS = ruleset_ids()
SOAK = os.environ.get("FRACAS_SOAK") == "1"
EXAMPLES = 500 if SOAK else 25
STEPS = 120 if SOAK else 60

FIGHT_DEC = msgspec.json.Decoder(Fight, dec_hook=state_hook)
COMMAND_DEC = msgspec.json.Decoder(command_union())
EVENTS_DEC = msgspec.json.Decoder(tuple[event_union(), ...])  # type: ignore[valid-type]

NAMES = ("Goblin", "Kal", "Orc", "[bold]Bob", "Ülf", "", " ", "x" * 81, "Two\nlines")
WORDS = (
    "", "action", "bonus", "move", "reaction", "gambit", "free", "parry", "dodge", "defensive",
    "Attack", "Strike", "Dash", "Dodge", "Move", "Brace", "Reactive Strike", "Banter", "Shout",
    "melee", "ranged", "thrown", "missile", "weapon", "power", "spell", "fast", "slow",
    "phy", "cog", "spi", "str", "dex", "con", "save", "check", "ws", "bs", "half", "three-quarters",
    "full", "push", "prone", "normal", "swift", "lightning", "body", "head", "hp", "grit", "focus",
    "investiture", "fortune", "resolve", "resilience", "wounds", "fire", "cold", "slashing",
    "Weapon attack", "Move", "Opportunity Attack", "Shield Block", "Throw weapon", "Storm",
    "Prone", "Surprised", "Bleeding", "Burning", "Confused", "Stunned", "Slowed", "Concentrating",
    "[red]x", "x" * 300,
)
DICE = ("1d6", "2d4+1", "d20", "1d20+5 adv", "d20 dis", "4d6kh3", "1d8-1d4", "d%", "3", "1d4-10",
        "bad", "", "1d0", "2d6 3", "1000d10000")
KEYS = ("hp", "grit", "focus", "investiture", "fortune", "resolve", "resilience", "wounds", "gambit", "mana")


# --- drawing commands ----------------------------------------------------------------------------
#
# Commands are drawn primitive by primitive (`draw(...)` on small cached strategies) rather than
# composed from `st.builds`: the fight changes every step, and rebuilding strategies each time made the
# test spend nearly all its time inside hypothesis.

Draw = Any  # hypothesis' `data.draw`

BOOL = st.booleans()
SMALL = st.integers(0, 12)
ANY_INT = st.one_of(st.integers(-3, 40), st.sampled_from((10**7, -(10**7), 2**40)))
DIE = st.integers(-1, 101)
NESTED_INT = st.one_of(DIE, DIE, DIE, st.sampled_from((10**9, -(10**9), 2**70)))


def pick(draw: Draw, items: tuple | list) -> Any:
    return items[draw(st.integers(0, len(items) - 1))]


def ids_of(f: Fight) -> tuple[str, ...]:
    return tuple(c.id for c in f.combatants)


def who(draw: Draw, f: Fight) -> str:
    """Mostly a combatant that is there; sometimes one that is not, or nobody."""
    present = ids_of(f)
    if present and draw(st.integers(0, 9)):
        return pick(draw, present)
    return pick(draw, ("c1", "c999", ""))


def maybe(draw: Draw, value: Any) -> Any:
    return value if draw(BOOL) else None


def some(draw: Draw, item, most: int = 3) -> tuple:
    return tuple(item() for _ in range(draw(st.integers(0, most))))


STAT_KEYS = {
    "d20": ("hp", "dex", "ac", "init", "str", "prof", "gambit", "speed"),
    "cosmere": ("hp", "focus", "investiture", "speed", "phy"),
    "ninephase": ("hp", "grit"),
    "warhammer": ("wounds", "i", "ag", "ws", "fortune", "resolve", "resilience", "t"),
}


def stat_keys(rules: str) -> tuple[str, ...]:
    """The stats worth drawing: the list above, or for another ruleset the ones it names."""
    known = STAT_KEYS.get(rules)
    if known is None:
        rs = get_ruleset(rules)
        known = tuple(s.key for s in rs.stats) + rs.damage_order
    return known


def stats(draw: Draw, rules: str) -> tuple[tuple[str, int], ...]:
    keys = stat_keys(rules) + ("luck", "")
    return some(draw, lambda: (pick(draw, keys), draw(st.one_of(st.integers(0, 30), st.integers(-50, 500)))), 4)


def edge(draw: Draw, value: int) -> int:
    """A number at the edge of `value` (where off-by-one bugs live), or a small one."""
    return pick(draw, (value - 1, value, value + 1, draw(SMALL), 0, 1))


def duration(draw: Draw, f: Fight) -> Duration:
    r = max(f.round, 1)
    kind = pick(draw, ("manual", "turn_start", "turn_end", "phase_end", "round_end"))
    if kind in ("turn_start", "turn_end"):
        return Duration(kind, who(draw, f), draw(st.integers(0, 3)))
    if kind == "phase_end":
        return Duration(kind, round=draw(st.integers(r - 1, r + 2)), phase=draw(st.integers(0, 10)))
    if kind == "round_end":
        return Duration(kind, round=draw(st.integers(r - 1, r + 2)))
    return Duration()


def guided(draw: Draw, f: Fight) -> C.Command:
    """A command that is mostly valid for this ruleset and this fight."""
    rules = f.ruleset
    w = who(draw, f)
    c = f.find(w)
    n = draw(st.integers(0, 21 + 6))
    if n >= 22:  # the ruleset's own economy, weighted up so fights use it
        return own(draw, f, f.current if f.current and draw(BOOL) else w)
    if n == 0:
        owner = pick(draw, ("", "", "") + ids_of(f)[:2]) if rules == "d20" else ""
        return C.AddCombatant(
            pick(draw, NAMES[:5]),
            kind=pick(draw, ("pc", "npc")),
            side=pick(draw, ("party", "enemy", "neutral")),
            stats=stats(draw, rules),
            count=draw(st.integers(1, 3)),
            owner=owner,
            flags=some(draw, lambda: pick(draw, ("shield", "offhand", "twohanded", "boss")), 2),
            resist=some(draw, lambda: pick(draw, ("fire", "cold")), 1),
        )
    if n == 1:
        return C.Damage(w, edge(draw, c.hp) if c else draw(SMALL))
    if n == 2:
        return C.Damage(w, dice=pick(draw, DICE[:8]), type=pick(draw, ("", "fire")), pool=pick(draw, ("", "", "hp")))
    if n == 3:
        pool = pick(draw, [p.key for p in c.health] + [""]) if c and draw(BOOL) else pick(draw, ("", "grit", "hp"))
        return C.Heal(w, draw(SMALL), pool=pool)
    if n == 4:
        return C.TempHealth(w, draw(SMALL))
    if n == 5:
        name = pick(draw, ("Prone", "Surprised", "Bleeding", "Stunned", "Slowed", "Marked", "Jam"))
        return C.AddCondition(w, name, duration=duration(draw, f), source=pick(draw, ("",) + ids_of(f)[:1]))
    if n == 6:
        if c and c.conditions and draw(BOOL):
            return C.RemoveCondition(w, pick(draw, c.conditions).name)
        return C.RemoveCondition(w, pick(draw, ("Prone", "Surprised", "Bleeding", "Slowed")))
    if n in (7, 8):
        # mostly a pool it has, by an amount at the edge of what it holds or lacks
        if c and c.resources and draw(st.integers(0, 3)):
            p = pick(draw, c.resources)
            key, much = p.key, edge(draw, p.current if n == 7 else p.max - p.current)
        else:
            key, much = pick(draw, KEYS), draw(st.integers(0, 3))
        return C.SpendResource(w, key, much) if n == 7 else C.RestoreResource(w, key, much)
    if n == 9:
        return C.Roll(pick(draw, DICE), who=pick(draw, ("",) + ids_of(f)[:1]))
    if n == 10:
        return C.SavingThrow(w, pick(draw, ("d20", "1d20+2")), dc=maybe(draw, draw(st.integers(5, 20))))
    if n == 11:
        return C.SetInitiative(w, draw(st.integers(-5, 30)))
    if n == 12:
        return C.Reorder(w, draw(st.integers(-1, 6)))
    if n == 13:
        return C.RemoveCombatant(w)
    if n == 14:
        return C.EditCombatant(w, name=maybe(draw, pick(draw, NAMES[:4])), stats=maybe(draw, stats(draw, rules)))
    if n == 15:
        return C.Note(pick(draw, ("The bridge burns", "")))
    if n == 16:
        return C.Setting(pick(draw, ("roll_pc", "roll_npc", "volume")), pick(draw, ("app", "table", "x")))
    if n == 17:
        return C.StartFight(
            initiative=some(draw, lambda: (who(draw, f), some(draw, lambda: draw(DIE), 2)), 2),
            surprised=some(draw, lambda: who(draw, f), 2),
        )
    if n == 18 and not draw(st.integers(0, 9)):
        return C.EndFight()  # rarely: an ended fight refuses most things
    return C.StartFight()


def own(draw: Draw, f: Fight, w: str) -> C.Command:
    rules = f.ruleset
    if rules == "d20":
        what = pick(draw, ("action", "bonus", "move", "reaction", "gambit", "fly"))
        return C.UseAction(w, what, pick(draw, ("", "Attack", "Dodge")))
    if rules == "cosmere":
        n = draw(st.integers(0, 2))
        if n == 0:
            what = pick(draw, ("action", "free", "reaction", "bonus"))
            name = pick(draw, ("", "Strike", "Move", "Reactive Strike", "Banter"))
            return C.UseAction(w, what, name, cost=draw(st.integers(0, 4)))
        if n == 1:
            return StartTurn(w, pick(draw, ("", "fast", "slow")))
        return ChooseSpeed(w, pick(draw, ("", "fast", "slow")))
    if rules == "warhammer":
        if draw(BOOL):
            what = pick(draw, ("action", "defensive", "parry", "dodge", "bonus"))
            return C.UseAction(w, what, target=pick(draw, ("",) + ids_of(f)))
        return Fortune(w, draw(st.integers(-1, 5)))
    if rules != "ninephase":
        # a ruleset this file does not know: its own commands, and use, filled in from their types
        own_types = tuple(get_ruleset(rules).handlers()) + (C.UseAction,)
        return fuzz_struct(draw, pick(draw, own_types), f)
    return Activity(
        w,
        pick(draw, ("Move", "Loose", "Storm", "Duck", "Shout")),
        cost=maybe(draw, draw(st.integers(-1, 4))),
        earliest=maybe(draw, draw(st.integers(0, 10))),
        lock=draw(BOOL),
        master=draw(BOOL),
        reaction=draw(BOOL),
        channel=draw(BOOL),
        uninterruptible=draw(BOOL),
    )


_HINTS: dict[type, dict[str, Any]] = {}
ID_FIELDS = ("who", "target", "source", "owner", "attacker", "defender")
ID_LISTS = ("targets", "surprised", "unsensed", "graze", "advantage", "disadvantage")


def fuzz_value(draw: Draw, tp: Any, name: str, f: Fight, depth: int = 0) -> Any:
    """A value for one field of a command, from its type; ids, dice and words where names say so."""
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if tp is type(None):
        return None
    if origin is Literal:
        return pick(draw, args)
    if origin in (Union, types.UnionType):
        return fuzz_value(draw, pick(draw, args), name, f, depth)
    if tp is bool:
        return draw(BOOL)
    if tp is int:
        return draw(ANY_INT) if depth == 0 else draw(NESTED_INT)
    if tp is str:
        if name in ID_FIELDS:
            return who(draw, f)
        if "dice" in name or name == "damage":
            return pick(draw, DICE + WORDS[:5])
        return pick(draw, WORDS + NAMES)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            if args[0] is str and name in ID_LISTS:
                return some(draw, lambda: who(draw, f) if draw(BOOL) else pick(draw, WORDS[:12]))
            return some(draw, lambda: fuzz_value(draw, args[0], name, f, depth + 1))
        return tuple(fuzz_value(draw, a, name, f, depth + 1) for a in args)
    if isinstance(tp, type) and issubclass(tp, msgspec.Struct):
        return fuzz_struct(draw, tp, f, depth + 1)
    raise AssertionError(f"no way to fuzz a {tp} yet: teach fuzz_value")


def fuzz_struct(draw: Draw, cls: type, f: Fight, depth: int = 0) -> Any:
    hints = _HINTS.get(cls)
    if hints is None:
        hints = _HINTS[cls] = typing.get_type_hints(cls)
    kw = {}
    for x in msgspec.structs.fields(cls):
        # required fields always; optional ones about half the time (their defaults matter too)
        if x.required or draw(BOOL):
            kw[x.name] = fuzz_value(draw, hints[x.name], x.name, f, depth)
    return cls(**kw)


_HANDLED: dict[str, tuple[type, ...]] = {}


def handled(rules: str) -> tuple[type, ...]:
    """The command types this ruleset knows (the others are refused at once: less to learn from)."""
    known = _HANDLED.get(rules)
    if known is None:
        rs = get_ruleset(rules)
        known = tuple(
            t for t in C.COMMAND_TYPES if (t in rs.handlers() or t in core._GENERIC) and t is not C.EndFight
        )
        _HANDLED[rules] = known
    return known


def fuzzed(draw: Draw, f: Fight) -> C.Command:
    """Any registered command type (the rulesets' own too), its fields filled from their types."""
    types_ = handled(f.ruleset) if draw(st.integers(0, 4)) else tuple(C.COMMAND_TYPES)
    return fuzz_struct(draw, pick(draw, types_), f)


def step(draw: Draw, f: Fight) -> C.Command:
    n = draw(st.integers(0, 5))
    if n < 2:
        return C.NextTurn()
    if n < 5:
        return guided(draw, f)
    return fuzzed(draw, f)


# --- invariants --------------------------------------------------------------------------------


ECONOMY_COUNTS = ("actions", "bonus", "move", "reactions", "parries", "defensive", "gambit")


def check_invariants(f: Fight) -> None:
    ids = ids_of(f)
    assert len(set(ids)) == len(ids), "combatant ids repeat"
    assert f.round >= 0
    assert f.current == "" or f.current in ids, f"current {f.current!r} is not in the fight"
    assert len(set(f.order)) == len(f.order), "someone is in the order twice"
    assert set(f.order) <= set(ids), "the order names someone who is not in the fight"
    for c in f.combatants:
        for p in c.health + c.resources:
            assert p.current >= 0 and p.max >= 0 and p.temp >= 0, f"{c.name}: negative {p}"
            assert p.current <= p.max, f"{c.name}: {p.key} above its maximum: {p}"
        assert type(c.economy) is get_ruleset(f.ruleset).economy_type, f"{c.name}: {c.economy} is not its ruleset's"
        for name in ECONOMY_COUNTS:  # the counts this ruleset's economy has (each has only its own)
            n = getattr(c.economy, name, 0)
            assert n >= 0, f"{c.name}: negative {name} in {c.economy}"
        for x in c.conditions:
            assert x.level >= 1
            assert x.duration.count >= 0


def roundtrip(f: Fight, cmd: C.Command, events: tuple) -> None:
    assert FIGHT_DEC.decode(msgspec.json.encode(f)) == f, "the state does not survive save -> load"
    assert COMMAND_DEC.decode(msgspec.json.encode(cmd)) == cmd, "the command does not survive the journal"
    assert EVENTS_DEC.decode(msgspec.json.encode(events)) == events, "the events do not survive the journal"


def opening(draw: Draw, rules: str) -> list[C.Command]:
    """A few combatants and, mostly, the start of the fight: the random steps then begin mid-fight."""
    cmds: list[C.Command] = []
    for i in range(draw(st.integers(2, 5))):
        kind = pick(draw, ("pc", "npc"))
        cmds.append(
            C.AddCombatant(
                f"{kind.upper()} {i}",
                kind=kind,
                side="party" if kind == "pc" else pick(draw, ("enemy", "enemy", "party")),
                stats=stats(draw, rules),
                count=draw(st.integers(1, 2)),
                flags=some(draw, lambda: pick(draw, ("shield", "offhand", "twohanded")), 1),
            )
        )
    if draw(st.integers(0, 4)) != 4:
        surprised = ("c1",) if draw(st.integers(0, 3)) == 3 else ()
        cmds.append(C.StartFight(surprised=surprised if rules != "ninephase" else ()))
    return cmds


def run_sequence(data: st.DataObject, rules: str, steps: int) -> None:
    seed = data.draw(st.integers(0, 2**63 - 1))
    f0 = new_fight(rules, "Conformance", seed)
    h = History.start(f0)
    applied: list[C.Command] = []
    first = opening(data.draw, rules)
    for i in range(len(first) + steps):
        s = h.state
        cmd = first[i] if i < len(first) else step(data.draw, s)
        snapshot = msgspec.json.encode(s)
        nodes = len(h.nodes)
        try:
            s2, events = apply(s, cmd)
        except RuleError as err:
            message = str(err)
            assert message.strip() and "\n" not in message, f"unclear message {message!r} for {cmd}"
            assert msgspec.json.encode(s) == snapshot, f"{cmd} was refused but changed the state"
            with pytest.raises(RuleError):
                h.apply(cmd)
            assert h.state is s and len(h.nodes) == nodes, "a refused command changed the history"
            continue
        # pure: the same state and command give the same outcome, dice included
        again, events_again = apply(s, cmd)
        assert again == s2 and events_again == events, f"{cmd} is not deterministic"
        assert msgspec.json.encode(s) == snapshot, f"{cmd} changed the state it was applied to"
        check_invariants(s2)
        roundtrip(s2, cmd, events)
        assert h.apply(cmd) == events and h.state == s2
        h.undo()
        assert h.state is s, "undo(apply(s)) is not s"
        h.redo()
        assert h.state is s2 or h.state == s2, "redo does not give the same state"
        applied.append(cmd)
    # the whole fight replays from its commands to the same state
    replay = f0
    for cmd in applied:
        replay, _ = apply(replay, cmd)
    assert replay == h.state


@pytest.mark.parametrize("rules", RULESETS)
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
)
@given(data=st.data())
def test_conformance_random_command_sequences(rules, data):
    run_sequence(data, rules, STEPS)


@pytest.mark.soak
@pytest.mark.skipif(not SOAK, reason="set FRACAS_SOAK=1 (make soak) for the long run")
@pytest.mark.parametrize("rules", RULESETS)
@settings(max_examples=1000, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_conformance_soak(rules, data):
    run_sequence(data, rules, 150)
