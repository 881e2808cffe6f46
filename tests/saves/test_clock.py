"""Save format 2: each ruleset's clock (its meaning of round and phase) is its own tagged struct
(issue 12, item 3), read by its tag like the economy, refused when it is not the fight's ruleset's,
bounded like every number, and upgraded from format 1's one shared `Fight.phase` int."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec
import pytest

from engine import REGISTRY, RuleError, apply, new_fight, validate_fight
from engine import commands as C
from engine.rules.cosmere.clock import CosmereClock
from engine.rules.d20.clock import D20Clock
from engine.rules.ninephase.clock import NinePhaseClock
from engine.rules.warhammer.clock import WarhammerClock
from engine.state import Clock, Fight, register_clock, state_hook
from saves import format as fmt
from saves.session import Session
from tests.saves.test_hardening import file_of, header_raw, refused

NOTE = {"cmd": "note", "text": "x"}


def started(rules: str, nexts: int = 1) -> Fight:
    f = new_fight(rules, "Clock", 3)
    for name in ("Ann", "Bob", "Cid"):
        f, _ = apply(f, C.AddCombatant(name))
    f, _ = apply(f, C.StartFight())
    for _ in range(nexts):
        f, _ = apply(f, C.NextTurn())
    return f


def test_each_ruleset_has_its_own_clock_with_fields_named_for_what_they_mean() -> None:
    tags = {rid: rs.clock_type.__struct_config__.tag for rid, rs in REGISTRY.items()}
    assert len(set(tags.values())) == len(tags), tags
    for rid, rs in REGISTRY.items():
        assert issubclass(rs.clock_type, Clock) and rs.clock_type is not Clock, rid
        assert type(new_fight(rid).clock) is rs.clock_type and new_fight(rid).phase == 0, rid
    names = {cls: tuple(f.name for f in msgspec.structs.fields(cls))
             for cls in (D20Clock, WarhammerClock, CosmereClock, NinePhaseClock)}
    assert names == {D20Clock: ("slot",), WarhammerClock: ("slot",), CosmereClock: ("group",),
                     NinePhaseClock: ("phase",)}


def test_fight_phase_reads_the_clock_as_the_old_int_and_cannot_be_set() -> None:
    # the numbers the shared field held: d20 the slot acting, Cosmere the group, nine-phase the phase
    assert started("d20", 0).clock == D20Clock(0) and started("d20", 2).phase == 2
    assert started("d20", 3).phase == 0  # round 2 begins with the first slot again
    assert started("cosmere", 0).clock == CosmereClock(0)
    assert started("ninephase", 4).clock == NinePhaseClock(5) and started("ninephase", 4).phase == 5
    w = started("warhammer", 1)
    assert type(w.clock) is WarhammerClock and w.phase == w.clock.slot
    for rid in REGISTRY:
        f = started(rid, 2)
        assert f.clock.with_number(f.phase) == f.clock, rid
        with pytest.raises(TypeError):
            msgspec.structs.replace(f, phase=1)  # type: ignore[call-arg]


def test_a_fight_encodes_its_clock_by_its_rulesets_tag() -> None:
    f = started("d20", 1)
    raw = msgspec.json.decode(msgspec.json.encode(f))
    assert raw["clock"] == {"type": "d20", "slot": 1} and "phase" not in raw
    assert msgspec.json.decode(msgspec.json.encode(f), type=Fight, dec_hook=state_hook) == f


def test_a_clock_tag_can_be_registered_once_only() -> None:
    class Other(Clock, frozen=True, tag="cosmere"):
        pass

    with pytest.raises(ValueError, match="clock tag 'cosmere' is taken"):
        register_clock(Other)
    class NotAClock(msgspec.Struct, frozen=True, tag="not_a_clock"):
        slot: int = 0

    with pytest.raises(TypeError, match="subclass engine.state.Clock"):
        register_clock(NotAClock)  # type: ignore[arg-type]
    assert register_clock(CosmereClock) is CosmereClock  # the same one again is fine


def test_another_rulesets_clock_in_a_header_is_refused(tmp_path: Path) -> None:
    raw = header_raw()
    raw["root"]["clock"] = {"type": "cosmere", "group": 2}
    refused(tmp_path, file_of(raw), "header", "clock is a 'cosmere' one, not a d20 fight's ('d20')")
    raw["root"]["clock"] = {"type": "clock"}  # the bare base keeps no slot
    refused(tmp_path, file_of(raw), "header", "'clock'", "d20")
    del raw["root"]["clock"]  # none at all: the base, as well
    refused(tmp_path, file_of(raw), "header", "'clock'", "d20")


def test_an_unknown_clock_is_one_clear_line(tmp_path: Path) -> None:
    raw = header_raw()
    raw["root"]["clock"] = {"type": "chess\x1b[2J", "move": 1}
    text = refused(tmp_path, file_of(raw), "header", "unknown clock")
    assert "\x1b" not in text
    raw["root"]["clock"] = 3
    refused(tmp_path, file_of(raw), "header", "a clock must be a map")


def test_a_bad_value_inside_a_clock_says_where_in_one_line(tmp_path: Path) -> None:
    raw = header_raw()
    raw["root"]["clock"] = {"type": "d20", "slot": "x"}
    text = refused(tmp_path, file_of(raw), "header", "Expected `int`, got `str`", "in its clock, at slot")
    assert "$.root.clock" in text


@pytest.mark.parametrize("value", [2**62 + 1, -(2**62) - 1])
def test_clock_numbers_are_bounded_in_a_header_and_a_delta(tmp_path: Path, value: int) -> None:
    raw = header_raw()
    raw["root"]["clock"] = {"type": "d20", "slot": value}
    refused(tmp_path, file_of(raw), "header", "out of range")
    setter = {"f": "clock", "v": {"type": "d20", "slot": value}}
    step = msgspec.msgpack.encode({"p": 0, "c": NOTE, "d": {"f": [setter]}})
    refused(tmp_path, file_of(header_raw(), (fmt.STEP, step)), "step record", "out of range")


def test_a_delta_or_a_full_state_with_another_rulesets_clock_is_refused(tmp_path: Path) -> None:
    setter = {"f": "clock", "v": {"type": "ninephase", "phase": 4}}
    step = msgspec.msgpack.encode({"p": 0, "c": NOTE, "d": {"f": [setter]}})
    refused(tmp_path, file_of(header_raw(), (fmt.STEP, step)), "step record", "'ninephase'")
    state = header_raw()["root"]
    state["clock"] = {"type": "warhammer", "slot": -1}
    step = msgspec.msgpack.encode({"p": 0, "c": NOTE, "s": state})
    refused(tmp_path, file_of(header_raw(), (fmt.STEP, step)), "step record", "'warhammer'")


def test_validate_fight_refuses_a_clock_of_another_ruleset() -> None:
    f = started("d20")
    validate_fight(f)
    for wrong in (CosmereClock(1), Clock()):
        with pytest.raises(RuleError, match="clock"):
            validate_fight(msgspec.structs.replace(f, clock=wrong))


@pytest.mark.parametrize(
    ("rules", "phase", "clock"),
    [
        ("d20", -1, {"type": "d20", "slot": -1}),
        ("warhammer", -2, {"type": "warhammer", "slot": -2}),
        ("cosmere", 3, {"type": "cosmere", "group": 3}),
        ("ninephase", 9, {"type": "ninephase", "phase": 9}),
    ],
)
def test_the_format_1_upgrade_moves_phase_into_the_headers_rulesets_clock(
    rules: str, phase: int, clock: dict[str, Any]
) -> None:
    ctx: dict[str, Any] = {}
    header = {"format": 1, "ruleset": rules, "root": {"type": "fight", "ruleset": rules, "round": 2, "phase": phase}}
    _, up = fmt.upgrade(fmt.HEADER, header, 1, ctx)
    assert up["root"]["clock"] == clock and "phase" not in up["root"] and up["root"]["round"] == 2
    # a full state that left a phase of 0 out, and a delta that set it
    step = {"p": 0, "c": NOTE, "s": {"type": "fight", "ruleset": rules}}
    _, up = fmt.upgrade(fmt.STEP, step, 1, ctx)
    assert up["s"]["clock"] == {"type": clock["type"]}  # number 0, the default, left out again
    step = {"p": 0, "c": NOTE, "d": {"f": [{"f": "round", "v": 3}, {"f": "phase", "v": phase}]}}
    _, up = fmt.upgrade(fmt.STEP, step, 1, ctx)
    assert up["d"]["f"] == [{"f": "round", "v": 3}, {"f": "clock", "v": clock}]
    own = REGISTRY[rules].clock_type
    assert msgspec.convert(up["d"]["f"][1]["v"], own) == own().with_number(phase)


def test_a_format_1_phase_that_is_not_a_number_is_one_line(tmp_path: Path) -> None:
    raw = header_raw()
    raw["format"] = 1
    del raw["root"]["clock"]
    for bad in ("two", 1.5, True, None):
        raw["root"]["phase"] = bad
        refused(tmp_path, file_of(raw), "header", "phase is not a whole number")
    raw["root"]["phase"] = 2
    good = tmp_path / "v1.fracas"
    good.write_bytes(file_of(raw))
    s = Session.open(good, readonly=True)
    assert s.state.clock == D20Clock(2) and s.state.phase == 2
