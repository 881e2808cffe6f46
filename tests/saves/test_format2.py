"""Save format 2: each ruleset's economy is its own tagged struct (issue 12, item 3).

The reader picks an economy's struct by its tag from the registry as it is when the file is read (a
ruleset registered late, like tests/fifth's, is covered by tests/fifth/test_saves.py), refuses one that
is not the fight's own ruleset's, bounds its numbers like every other, and upgrades format 1's one
Economy of every ruleset's fields record by record (the golden files of both formats: test_golden.py).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import msgspec
import pytest

from engine import REGISTRY, RuleError, apply, new_fight, validate_fight
from engine import commands as C
from engine.rules.cosmere.economy import CosmereEconomy
from engine.rules.d20.economy import D20Economy
from engine.state import Economy, register_economy, state_hook
from saves import cli
from saves import format as fmt
from saves.errors import SaveError
from saves.session import Session
from tests.saves.test_hardening import file_of, header_raw, refused

GOLDEN = Path(__file__).resolve().parent / "golden"


def d20_with_one() -> Any:
    f, _ = apply(new_fight("d20", "Format 2", 1), C.AddCombatant("Gob"))
    return f


def test_each_ruleset_has_its_own_economy_with_only_its_fields() -> None:
    tags = {rid: rs.economy_type.__struct_config__.tag for rid, rs in REGISTRY.items()}
    assert len(set(tags.values())) == len(tags), tags
    for rid, rs in REGISTRY.items():
        assert issubclass(rs.economy_type, Economy) and rs.economy_type is not Economy, rid
        assert type(rs.fresh_economy()) is rs.economy_type
    assert "bonus" in {f.name for f in msgspec.structs.fields(D20Economy)}
    names = {f.name for f in msgspec.structs.fields(CosmereEconomy)}
    assert names == {"used", "done", "actions", "reactions", "speed", "ready"}


def test_a_fight_encodes_its_economy_by_its_rulesets_tag() -> None:
    f = d20_with_one()
    raw = msgspec.json.decode(msgspec.json.encode(f))
    assert raw["combatants"][0]["economy"] == {"type": "d20"}
    assert msgspec.json.decode(msgspec.json.encode(f), type=type(f), dec_hook=state_hook) == f


def test_an_economy_tag_can_be_registered_once_only() -> None:
    class Other(Economy, frozen=True, tag="d20"):
        pass

    with pytest.raises(ValueError, match="taken"):
        register_economy(Other)
    assert register_economy(D20Economy) is D20Economy  # the same one again is fine


def test_another_rulesets_economy_in_a_header_is_refused(tmp_path: Path) -> None:
    raw = header_raw(d20_with_one())
    raw["root"]["combatants"][0]["economy"] = {"type": "cosmere", "speed": "fast"}
    refused(tmp_path, file_of(raw), "header", "'cosmere' economy in a d20 fight")
    raw["root"]["combatants"][0]["economy"] = {"type": "economy"}  # the bare base has none of d20's
    refused(tmp_path, file_of(raw), "header", "'economy' economy in a d20 fight")


def test_an_unknown_economy_is_one_clear_line(tmp_path: Path) -> None:
    raw = header_raw(d20_with_one())
    raw["root"]["combatants"][0]["economy"] = {"type": "chess\x1b[2J", "actions": 1}
    text = refused(tmp_path, file_of(raw), "header", "unknown economy")
    assert "\x1b" not in text


@pytest.mark.parametrize("value", [2**62 + 1, -(2**62) - 1])
def test_economy_numbers_are_bounded_in_a_header_and_a_delta(tmp_path: Path, value: int) -> None:
    raw = header_raw(d20_with_one())
    raw["root"]["combatants"][0]["economy"] = {"type": "d20", "actions": value}
    refused(tmp_path, file_of(raw), "header", "out of range")
    setter = {"f": "economy", "v": {"type": "d20", "reactions": value}}
    step = msgspec.msgpack.encode({"p": 0, "c": {"cmd": "note", "text": "x"}, "d": {"p": [{"i": 0, "s": [setter]}]}})
    refused(tmp_path, file_of(header_raw(d20_with_one()), (fmt.STEP, step)), "step record", "out of range")


def test_a_delta_setting_another_rulesets_economy_is_refused(tmp_path: Path) -> None:
    setter = {"f": "economy", "v": {"type": "cosmere", "speed": "slow"}}
    step = msgspec.msgpack.encode({"p": 0, "c": {"cmd": "note", "text": "x"}, "d": {"p": [{"i": 0, "s": [setter]}]}})
    refused(tmp_path, file_of(header_raw(d20_with_one()), (fmt.STEP, step)), "step record", "'cosmere' economy")
    new = {"type": "combatant", "id": "c2", "name": "Gob", "economy": {"type": "warhammer"}}
    delta = {"l": [0, new], "f": [{"f": "next_id", "v": 3}]}
    step = msgspec.msgpack.encode({"p": 0, "c": {"cmd": "note", "text": "x"}, "d": delta})
    refused(tmp_path, file_of(header_raw(d20_with_one()), (fmt.STEP, step)), "step record", "'warhammer' economy")


def test_validate_fight_refuses_an_economy_of_another_ruleset() -> None:
    f = d20_with_one()
    validate_fight(f)
    wrong = msgspec.structs.replace(f.combatants[0], economy=CosmereEconomy(speed="fast"))
    with pytest.raises(RuleError, match="economy"):
        validate_fight(msgspec.structs.replace(f, combatants=(wrong,)))


def test_the_format_1_upgrade_splits_the_economy_by_the_headers_ruleset() -> None:
    ctx: dict[str, Any] = {}
    old_economy = {"type": "economy", "actions": 1, "bonus": 1, "move": 1, "reactions": 1, "used": ["Dash"]}
    header = {"format": 1, "ruleset": "d20", "root": {"type": "fight", "ruleset": "d20", "combatants": [
        {"type": "combatant", "id": "c1", "name": "A", "economy": dict(old_economy)},
        {"type": "combatant", "id": "c2", "name": "B"},  # an all-default economy was left out
    ]}}
    kind, up = fmt.upgrade(fmt.HEADER, header, 1, ctx)
    assert kind == fmt.HEADER and up["format"] == fmt.FORMAT
    a, b = up["root"]["combatants"]
    assert a["economy"] == {"type": "d20", "actions": 1, "bonus": 1, "move": 1, "reactions": 1, "used": ["Dash"]}
    assert b["economy"] == {"type": "d20"}
    step = {"p": 0, "c": {"cmd": "note", "text": "x"}, "d": {
        "l": [0, {"type": "combatant", "id": "c3", "name": "C"}],
        "p": [{"i": 0, "s": [{"f": "economy", "v": {"type": "economy", "speed": "fast", "done": True}}]}],
    }}
    _, up = fmt.upgrade(fmt.STEP, step, 1, ctx)
    assert up["d"]["l"][1]["economy"] == {"type": "d20"}
    assert up["d"]["p"][0]["s"][0]["v"] == {"type": "d20", "done": True}  # cosmere's speed is not d20's
    with pytest.raises(fmt.FormatProblem, match="before the header"):
        fmt.upgrade(fmt.STEP, step, 1, {})


@pytest.mark.parametrize("version", [1, 2])
def test_check_says_ok_for_every_golden_file_of_both_formats(
    version: int, capsys: pytest.CaptureFixture[str]
) -> None:
    for path in sorted((GOLDEN / f"v{version}").glob("*.fracas")):
        assert cli.cmd_check(argparse.Namespace(file=path, repair=False)) == 0, path
        out, err = capsys.readouterr()
        assert out.startswith(f"ok: {path}") and "Traceback" not in err
        assert ("format 1" in err) == (version == 1), err


def test_a_format_1_file_is_rewritten_in_format_2_when_opened_for_writing(tmp_path: Path) -> None:
    copy = tmp_path / "d20.fracas"
    copy.write_bytes((GOLDEN / "v1" / "d20.fracas").read_bytes())
    with Session.open(copy) as s:
        assert any("upgraded to format 2" in n for n in s.notices)
        nodes = len(s.history.nodes)
    back = Session.open(copy, readonly=True)
    assert back.read_format == fmt.FORMAT == 2 and back.notices == [] and len(back.history.nodes) == nodes
    with pytest.raises(SaveError, match="newer Fracas"):
        raw = header_raw()
        raw["format"] = fmt.FORMAT + 1
        (tmp_path / "new.fracas").write_bytes(file_of(raw))
        Session.open(tmp_path / "new.fracas", readonly=True)


def test_a_bad_value_inside_an_economy_says_where_in_one_line(tmp_path: Path) -> None:
    raw = header_raw(d20_with_one())
    raw["root"]["combatants"][0]["economy"] = {"type": "d20", "actions": "x"}
    text = refused(tmp_path, file_of(raw), "header", "Expected `int`, got `str`", "at actions")
    assert "$.root.combatants[0].economy" in text
