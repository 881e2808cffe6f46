"""Issue 11 (hardening), engine side: text that reaches terminals is refused where commands come in,
every text and list field has a cap, combatant ids have one syntax, dice take ASCII digits only, and
a state read from a file is checked where it is decoded."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest

from engine import RuleError, apply, command_union, new_fight, validate_fight
from engine import commands as C
from engine.dice import RNG_LIMIT, Rng, draw, parse, roll
from engine.rules.ninephase.commands import Activity
from engine.state import Duration, Fight, state_hook
from engine.text import is_id
from tests.engine.support import add, play, setup


def refused(f: Fight, cmd: C.Command, match: str = "") -> str:
    """Apply a command that must be refused: the state is untouched, the message is one line."""
    with pytest.raises(RuleError, match=match or None) as err:
        out = apply(f, cmd)
        del out
    message = str(err.value)
    assert message and "\n" not in message
    return message

# what a hostile save or script would carry: OSC 52 (clipboard), OSC 0 (title), CSI 2J, an 8-bit CSI,
# DEL, and the bidi override / isolate / mark characters
BAD = [
    "\x1b]52;c;aGk=\x07",
    "\x1b]0;pwned\x07",
    "\x1b[2J",
    "x\x9b2J",
    "a\x7fb",
    "evil\u202eexe.txt",
    "a\u2066b\u2069",
    "a\u200fb",
    "a\u061cb",
    "a\u2028b",
]


def _no_raw_controls(message: str) -> None:
    assert "\n" not in message
    for ch in message:
        assert ch.isprintable(), repr(message)


@pytest.mark.parametrize("bad", BAD)
def test_control_and_bidi_characters_are_refused_in_names(bad: str) -> None:
    f = setup("d20", add("Orc"))
    for cmd in (
        C.AddCombatant("Orc" + bad),
        C.EditCombatant("c1", name="Orc" + bad),
        C.AddCondition("c1", "Prone" + bad),
        C.Damage("c1", 3, type="fire" + bad),
        C.Roll("d20", label="luck" + bad),
        C.AddCombatant("Orc", flags=("boss" + bad,)),
        C.AddCombatant("Orc", stats=(("luck" + bad, 1),)),
        C.UseAction("c1", "action", name="Attack" + bad),
    ):
        message = refused(f, cmd)
        _no_raw_controls(message)
        assert bad not in message
    with pytest.raises(RuleError):
        new_fight("d20", "Fight" + bad)


@pytest.mark.parametrize("bad", BAD)
def test_notes_keep_newlines_and_tabs_but_no_other_control(bad: str) -> None:
    f = setup("d20", add("Orc"))
    f2, _ = play(f, C.Note("two\nlines\tand a tab"))
    assert f2 == f
    message = refused(f, C.Note("note " + bad))
    _no_raw_controls(message)
    refused(f, C.EditCombatant("c1", note="x" + bad))
    refused(f, C.Note("carriage\rreturn"))


def test_the_rulesets_own_commands_are_checked_too() -> None:
    from engine.rules.cosmere.combat import CosmereAttack
    from engine.rules.d20.combat import D20Attack, Ready
    from engine.rules.ninephase.catalog import DefineActivity, DoActivity, StopChannel
    from engine.rules.warhammer.combat import Attack, Critical

    d = setup("d20", add("A"), add("B"))
    refused(d, D20Attack("c1", "c2", label="axe\x1b[2J"), "control")
    refused(d, D20Attack("c1", "c2", advantage=("Help\u202e",)), "control")
    refused(d, Ready("c1", "Attack", trigger="t" * 201), "at most 200")
    c = setup("cosmere", add("A"), add("B"))
    refused(c, CosmereAttack("c1", ("c2",), action="Strike\x9b"), "control")
    refused(c, CosmereAttack("c1", tuple(f"c{i}" for i in range(1, 60))), "At most 50")
    n = setup("ninephase", add("A"))
    from engine.state import ActivitySpec

    refused(n, DefineActivity(ActivitySpec("Spell\x07")), "control")
    refused(n, DefineActivity(ActivitySpec("Spell", note="x\x1b]0;t\x07")), "control")
    refused(n, DoActivity("c1", "Move\u2066"), "control")
    refused(n, StopChannel("c1", reason="r\x1b"), "control")
    refused(n, Activity("c1", "Charge\u202d"), "control")
    w = setup("warhammer", add("A"), add("B"))
    refused(w, Attack("c1", "c2", weapon="Sword\x1b[31m"), "control")
    refused(w, Critical("c1", source="fall\x9d"), "control")


def test_every_text_and_list_field_of_every_command_has_a_cap() -> None:
    """Long values are refused in every str field and every tuple field of every command type."""
    from engine.limits import STATBLOCK, check_command

    command_union()
    for kind in C.COMMAND_TYPES:
        info = msgspec.inspect.type_info(kind)
        for field in info.fields:  # type: ignore[attr-defined]
            t = field.type
            if isinstance(t, msgspec.inspect.UnionType):
                t = next(x for x in t.types if not isinstance(x, msgspec.inspect.NoneType))
            if isinstance(t, msgspec.inspect.StrType):
                value: object = "x" * 2001 if field.name in ("note", "text") else "x" * 201
                if field.name == "statblock":  # a library statblock as JSON: a cap of its own
                    value = "x" * (STATBLOCK + 1)
            elif isinstance(t, msgspec.inspect.VarTupleType):
                value = ((),) * 1001 if isinstance(t.item_type, msgspec.inspect.TupleType) else (1,) * 1001
                if isinstance(t.item_type, msgspec.inspect.StrType):
                    value = ("c1",) * 1001
                elif isinstance(t.item_type, msgspec.inspect.StructType):
                    value = (None,) * 1001
            else:
                continue
            cmd = _example(kind, field.name, value)
            # an id field is capped by the id syntax itself
            with pytest.raises(RuleError, match="at most|At most|No combatant"):
                check_command(cmd)
    from engine.rules.ninephase.catalog import DefineActivity
    from engine.state import ActivitySpec

    for spec in (ActivitySpec("x" * 81), ActivitySpec("x", note="x" * 2001)):
        with pytest.raises(RuleError, match="at most"):
            check_command(DefineActivity(spec))


def _example(kind: type, name: str, value: object) -> C.Command:
    """An instance of `kind` with its required fields filled and `name` set to `value`."""
    info = msgspec.inspect.type_info(kind)
    args: dict[str, object] = {}
    for f in info.fields:  # type: ignore[attr-defined]
        if f.required:
            t = f.type
            args[f.name] = "c1" if isinstance(t, msgspec.inspect.StrType) else (
                ("c1",) if isinstance(t, msgspec.inspect.VarTupleType) else 0
            )
    args[name] = value
    return _build(kind, args)


def _build(kind: type, args: dict[str, object]) -> C.Command:
    from engine.state import ActivitySpec

    if kind.__name__ == "DefineActivity":
        args.setdefault("activity", ActivitySpec("x"))
        if not isinstance(args["activity"], ActivitySpec):
            args["activity"] = ActivitySpec("x")
    return kind(**args)


@pytest.mark.parametrize("bad", ["bad id", "c0", "C1", "c1 ", "c\u0661", "1", "c-1", "c1\n", "c" + "9" * 19])
def test_combatant_ids_have_one_syntax(bad: str) -> None:
    assert not is_id(bad)
    f = setup("d20", add("A"), add("B"))
    for cmd in (
        C.Damage(bad, 1),
        C.RemoveCombatant(bad),
        C.Note("x", who=bad),
        C.AddCombatant("Pet", owner=bad),
        C.StartFight(surprised=(bad,)),
        C.StartFight(initiative=((bad, (10,)),)),
        C.AddCondition("c1", "Frightened", source=bad),
        C.AddCondition("c1", "Frightened", duration=Duration("turn_end", bad)),
    ):
        message = refused(f, cmd, "No combatant")
        _no_raw_controls(message)
    assert is_id("c1") and is_id("c123456")


@pytest.mark.parametrize("text", ["٣d٦", "1d٦", "d２０", "1d6+٣", "４d6kh٣", "1d6+\u00b2"])
def test_dice_take_ascii_digits_only(text: str) -> None:
    with pytest.raises(RuleError, match="ASCII"):
        parse(text)


def test_unicode_digits_do_not_count_as_feet_or_ranges() -> None:
    from engine.rules.cosmere.combat import RANGE
    from engine.rules.d20.combat import moved_feet

    assert moved_feet("Move ٣٠ ft") == 0 and moved_feet("Move 30 ft") == 30
    assert RANGE.fullmatch("٢٠/٦٠") is None and RANGE.fullmatch("20/60") is not None


def test_one_expression_rolls_at_most_1000_dice() -> None:
    parse("1000d6")
    with pytest.raises(RuleError, match="at most 1000 dice"):
        parse("1000d6+1000d6")


def test_the_random_counter_wraps_below_2_to_the_63() -> None:
    rng = Rng(5, RNG_LIMIT - 1)
    _, after = draw(rng, 6)
    assert 0 <= after.counter < RNG_LIMIT
    r, after = roll("10d6", Rng(RNG_LIMIT - 1, RNG_LIMIT - 3))
    assert after.counter < RNG_LIMIT and len(r.terms[0].rolls) == 10
    # and the state it lands in still encodes to msgpack and decodes under the constraints
    f = msgspec.structs.replace(new_fight("d20"), rng=after)
    assert msgspec.msgpack.decode(msgspec.msgpack.encode(f), type=Fight, dec_hook=state_hook) == f


@pytest.mark.parametrize(
    "bad",
    [
        {"rng": {"type": "rng", "seed": -1}},
        {"rng": {"type": "rng", "counter": 2**63}},
        {"rng": {"type": "rng", "seed": 2**64 - 1}},
        {"next_id": 0},
        {"round": -3},
    ],
)
def test_a_decoded_state_is_bounded_by_its_types(bad: dict) -> None:
    raw = msgspec.to_builtins(new_fight("d20"))
    raw.update(bad)
    with pytest.raises(msgspec.ValidationError):
        msgspec.msgpack.decode(msgspec.msgpack.encode(raw), type=Fight, dec_hook=state_hook)


def test_validate_fight_refuses_ids_the_engine_never_makes() -> None:
    f = setup("d20", add("A"), add("B"))
    f, _ = apply(f, C.StartFight(initiative=(("c1", (10,)), ("c2", (5,)))))
    validate_fight(f)
    raw = msgspec.to_builtins(f)
    for change in (
        lambda r: r["combatants"][0].update(id="bad id"),
        lambda r: r["combatants"][1].update(id="c1"),
        lambda r: r["combatants"][1].update(id="c7"),
        lambda r: r.update(current="\x1b[2J"),
        lambda r: r.update(order=["c1", "c 2"]),
        lambda r: r["combatants"][0].update(owner="x"),
    ):
        r = msgspec.json.decode(msgspec.json.encode(raw))
        change(r)
        bad = msgspec.json.decode(msgspec.json.encode(r), type=Fight, dec_hook=state_hook)
        with pytest.raises(RuleError) as err:
            validate_fight(bad)
        _no_raw_controls(str(err.value))
        assert "bad id" not in str(err.value)


def test_validate_fight_passes_the_golden_saves(tmp_path: Path) -> None:
    import shutil

    from saves.session import Session

    # every format's folder (golden/v<format>/); copies, so an upgrade on opening never touches them
    found = sorted((Path(__file__).parents[1] / "saves" / "golden").glob("v*/*.fracas"))
    assert len(found) >= 8, found  # the four bundled rulesets in formats 1 and 2 at least
    for i, path in enumerate(found):
        copy = tmp_path / str(i) / path.name
        copy.parent.mkdir()
        shutil.copyfile(path, copy)
        s = Session.open(copy, readonly=True)
        try:
            for node in s.history.nodes:
                validate_fight(node.state)
        finally:
            s.close()
