"""Hostile import files (issue 22): every importer is linear in its input, and a number out of the
ruleset's bounds (1e308, -3, NaN, 2.5) is refused with one line naming the entry and the field, never
clamped or rounded into something the file did not say.

Linearity is never asserted as a time bound (the suite runs on slow, busy machines): the time of an
input with a run of N characters is compared with the same input with 8N, the best of a few runs, and
a ratio under 30 passes where a quadratic regular expression gives 64 (the importers took 1 s at 10k
digits and a minute at 80k before). The soak-marked fuzz runs a short sample in the normal suite and
every field with every payload under FRACAS_SOAK=1 (make soak)."""

from __future__ import annotations

import copy
import gc
import json
import random
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from engine.errors import RuleError
from engine.library.importers import ImportProblem, run
from tests.library.test_storage_and_import import FOUNDRY_COSMERE, FOUNDRY_WFRP, II_MONSTER, SRD_MONSTER
from tests.saves.util import SOAK

SAMPLES: dict[str, Any] = {
    "ii": [II_MONSTER],
    "srd": [SRD_MONSTER],
    "wfrp": FOUNDRY_WFRP,
    "cosmere": FOUNDRY_COSMERE,
}
GROWTH = 8  # N against 8N: linear is about 8x, quadratic 64x
LINEAR = 30  # the ratio a linear importer stays under, however busy the machine
FLOOR = 0.002  # seconds: a smaller time is taken as this much, so noise on a tiny time is no ratio


def _import(data: Any) -> str:
    """What an import does: "ok", or "refused" (ImportProblem or RuleError); anything else raises."""
    try:
        run(data)
    except (ImportProblem, RuleError) as exc:
        assert "\n" not in str(exc), repr(str(exc)[:200])
        return "refused"
    return "ok"


def _best(data: Any, tries: int = 3) -> float:
    best = float("inf")
    gc.disable()  # a collection in the middle of one run is no part of the importer's time
    try:
        for _ in range(tries):
            start = time.perf_counter()
            _import(data)
            best = min(best, time.perf_counter() - start)
    finally:
        gc.enable()
    return best


def _ratio(make: Callable[[int], Any], n: int, tries: int = 3) -> float:
    """How much longer an input with 8N characters takes than with N (the best of `tries` runs)."""
    small, big = make(n), make(n * GROWTH)
    return _best(big, tries) / max(_best(small, tries), FLOOR)


def _linear(make: Callable[[int], Any], n: int) -> float:
    """The ratio, measured again (up to 3 times) while it looks quadratic: a busy moment is no failure."""
    ratio = _ratio(make, n)
    for _ in range(2):
        if ratio < LINEAR:
            break
        ratio = min(ratio, _ratio(make, n, tries=5))
    return ratio


def _ii(**over: Any) -> list[dict[str, Any]]:
    return [{**copy.deepcopy(II_MONSTER), **over}]


def _ii_action(content: str) -> list[dict[str, Any]]:
    return _ii(Actions=[{"Name": "Claw", "Content": content}])


def _srd(**over: Any) -> list[dict[str, Any]]:
    return [{**copy.deepcopy(SRD_MONSTER), **over}]


def _srd_action(desc: str) -> list[dict[str, Any]]:
    return _srd(actions=[{"name": "Claw", "desc": desc, "attack_bonus": 3, "damage": []}])


def _wfrp_damage(value: str) -> dict[str, Any]:
    actor = copy.deepcopy(FOUNDRY_WFRP)
    actor["items"][0]["system"]["damage"]["value"] = value
    return actor


# the inputs that were quadratic (or worse) before, and their neighbours: a cue a pattern looks for,
# then a long run of what its quantifiers take; with the N each is measured at (N and 8N). Before the
# fix the first ones took, at 8N: "HP notes" 20 s, "Melee and spaces" 9 s, "hit: 1 (" (cubic) 11 s at
# 2000 characters, the Foundry damage of spaces (cubic) 108 s at 2000.
HOSTILE: dict[str, tuple[Callable[[int], Any], int]] = {
    "II HP notes: ( and digits": (lambda n: _ii(HP={"Value": 5, "Notes": "(" + "1" * n}), 4_000),
    "II action: Melee and spaces": (lambda n: _ii_action("Melee" + " " * n), 4_000),
    "SRD action: Melee and spaces": (lambda n: _srd_action("Melee" + " " * n), 4_000),
    "II hit: 1 ( and spaces": (lambda n: _ii_action("Melee Attack: +4 to hit. Hit: 1 (" + " " * n + "x"), 500),
    "II hit: ( and spaces": (lambda n: _ii_action("Melee Attack: +4 to hit. Hit: (" + " " * n + "x"), 500),
    "Foundry wfrp damage: spaces": (lambda n: _wfrp_damage(" " * n + "x"), 250),
    "Foundry wfrp damage: SB and spaces": (lambda n: _wfrp_damage("SB" + " " * n + "x"), 4_000),
    "II action: Melee Weapon and spaces": (lambda n: _ii_action("Melee Weapon" + " " * n + "x"), 4_000),
    "II hit: digits and spaces": (lambda n: _ii_action("Melee Attack: +4 to hit. Hit: 1" + " " * n + "x"), 4_000),
    "II hit: parts without end": (
        lambda n: _ii_action("Melee Attack: +4. Hit: " + "1 (1d4) fire damage and " * (n // 24)),
        4_000,
    ),
    "II reach: digits": (lambda n: _ii_action("Melee Attack: +4, reach " + "1" * n + " x. Hit: 1 damage."), 4_000),
    "II range: digit and spaces": (
        lambda n: _ii_action("Ranged Attack: +4, range 1" + " " * n + "x. Hit: 1 damage."),
        4_000,
    ),
    "II resistances: and and spaces": (lambda n: _ii(DamageResistances=["and" + " " * n + "x"]), 4_000),
    "SRD hit dice: digits": (lambda n: _srd(hit_dice="1" * n + "x", hit_points_roll=None), 4_000),
    "SRD hit dice: spaces": (lambda n: _srd(hit_dice="1d4" + " " * n + "x", hit_points_roll=None), 4_000),
}


@pytest.mark.parametrize("case", list(HOSTILE))
def test_a_long_run_in_a_field_is_read_in_linear_time(case):
    make, n = HOSTILE[case]
    ratio = _linear(make, n)
    assert ratio < LINEAR, f"{case}: {GROWTH}x the text took {ratio:.0f}x the time (quadratic is {GROWTH**2}x)"


# --- numbers out of range: refused with one line naming the entry and the field ---------------------


def _set(data: Any, path: tuple[Any, ...], value: Any) -> Any:
    out = copy.deepcopy(data)
    where = out
    for key in path[:-1]:
        where = where[key]
    where[path[-1]] = value
    return out


BAD_NUMBERS = [
    # (sample, where, value, what the one line says)
    ("ii", (0, "HP", "Value"), 1e308, "HP 1e+308 is out of range (0 to 9999)"),
    ("ii", (0, "HP", "Value"), -3, "HP -3 is out of range (0 to 9999)"),
    ("ii", (0, "HP", "Value"), "1" * 5000, "HP 11111111111111111... is out of range (0 to 9999)"),
    ("ii", (0, "AC", "Value"), float("nan"), "AC is not a number (NaN)"),
    ("ii", (0, "AC", "Value"), 61, "AC 61 is out of range (0 to 60)"),
    ("ii", (0, "InitiativeModifier"), 2.5, "InitiativeModifier 2.5 is not a whole number"),
    ("ii", (0, "InitiativeModifier"), 10**12, "InitiativeModifier 1000000000000 is out of range (-20 to 40)"),
    ("ii", (0, "Abilities", "Str"), 0, "Str score 0 is out of range (1 to 40)"),
    ("ii", (0, "Saves", 0, "Modifier"), 99, "Con save 99 is out of range (-20 to 40)"),
    ("ii", (0, "Speed", 0), "1e9 ft.", "Speed 1e+09 is out of range (0 to 500)"),
    (
        "ii",
        (0, "Actions", 0, "Content"),
        "Melee Weapon Attack: +99 to hit. Hit: 1 damage.",
        "Greatclub's attack bonus 99",
    ),
    ("ii", (0, "Actions", 0, "Content"), "Melee Attack: +1, reach 5000 ft. Hit: 1 damage.", "Greatclub's reach 5000"),
    (
        "ii",
        (0, "Actions", 1, "Content"),
        "Ranged Attack: +1, range 80/99999 ft. Hit: 1 damage.",
        "Javelin's range 99999",
    ),
    ("srd", (0, "hit_points"), float("inf"), "hit_points inf is out of range (0 to 9999)"),
    ("srd", (0, "armor_class", 0, "value"), 1e308, "armor_class 1e+308 is out of range (0 to 60)"),
    ("srd", (0, "strength"), 41.0, "strength 41 is out of range (1 to 40)"),
    ("srd", (0, "proficiency_bonus"), -1, "proficiency_bonus -1 is out of range (0 to 10)"),
    ("srd", (0, "proficiencies", 0, "value"), 1.5, "saving-throw-con 1.5 is not a whole number"),
    ("srd", (0, "actions", 0, "attack_bonus"), 41, "Bite's attack_bonus 41 is out of range (-20 to 40)"),
    ("wfrp", ("system", "status", "wounds", "max"), 1e308, "wounds 1e+308 is out of range (0 to 999)"),
    ("wfrp", ("system", "characteristics", "ws", "advances"), 500, "characteristic ws 530 is out of range (0 to 200)"),
    ("wfrp", ("system", "characteristics", "bs", "initial"), float("nan"), "bs initial is not a number (NaN)"),
    ("wfrp", ("items", 0, "system", "damage", "value"), "SB+51", "Spear's damage 51 is out of range (-20 to 50)"),
    ("wfrp", ("items", 1, "system", "range", "value"), 2001, "Crossbow's range 2001 is out of range (0 to 2000)"),
    ("wfrp", ("items", 2, "system", "AP", "body"), 31, "armour body 31 is out of range (0 to 30)"),
    ("cosmere", ("system", "attributes", "str", "value"), 11, "attribute str 11 is out of range (0 to 10)"),
    ("cosmere", ("system", "defenses", "phy", "value"), 30.5, "defense phy 30.5 is not a whole number"),
    ("cosmere", ("system", "resources", "hea", "max", "value"), 1e308, "hp 1e+308 is out of range (0 to 9999)"),
    ("cosmere", ("system", "resources", "foc", "max", "value"), 100, "focus 100 is out of range (0 to 99)"),
    ("cosmere", ("items", 1, "system", "attack", "range", "long"), 10**6, "Shortbow's long range 1000000"),
    ("cosmere", ("system", "skills", "hwp", "mod", "value"), 41, "Axe's attack bonus 41 is out of range (-20 to 40)"),
]


@pytest.mark.parametrize(("sample", "path", "value", "said"), BAD_NUMBERS, ids=lambda v: str(v)[:30])
def test_a_number_out_of_range_is_refused_not_coerced(sample, path, value, said):
    # a second entry, so the line must name which one
    first = SAMPLES[sample][0] if isinstance(SAMPLES[sample], list) else SAMPLES[sample]
    second = {**copy.deepcopy(first), ("Name" if sample == "ii" else "name"): "Goblin"}
    data = [copy.deepcopy(first), second]
    path = (1, *path[1:]) if isinstance(SAMPLES[sample], list) else (1, *path)
    with pytest.raises(ImportProblem) as exc:
        run(_set(data, path, value))
    line = str(exc.value)
    assert line.startswith("entry 2 ('Goblin'): ") and said in line and "\n" not in line, line


@pytest.mark.parametrize(
    ("sample", "path", "value", "field", "taken"),
    [
        ("ii", (0, "HP", "Value"), 12.0, "hp", 12),
        ("ii", (0, "AC", "Value"), "15 (natural armor)", "ac", 15),
        ("srd", (0, "hit_points"), 12.0, "hp", 12),
        ("srd", (0, "strength"), 18.0, "abilities", 18),
    ],
)
def test_a_whole_float_in_range_is_taken(sample, path, value, field, taken):
    sb = run(_set(SAMPLES[sample], path, value)).creatures[0]
    got = getattr(sb, field)
    assert (got.str if field == "abilities" else got) == taken


def test_foundry_whole_floats_and_plain_integer_texts_are_taken():
    actor = _set(FOUNDRY_COSMERE, ("system", "resources", "hea", "max", "value"), 20.0)
    actor = _set(actor, ("system", "attributes", "str", "value"), "3")
    sb = run(actor).creatures[0]
    assert sb.hp == 20 and sb.attributes.str == 3


# --- the fuzz: a long run of digits, spaces or punctuation in every field -------------------------

RUNS = ("1", " ", "(", ")", ".", ",", ";", "-", "+", "/", "d", "a", "1 ", "( ", "1d", "\t", "\n", "\u2212")
# cues the patterns look for, put before the run so each pattern gets as far as its quantifiers
CUES = ("", "(", "Melee", "Melee Weapon Attack: +", "Hit: 1 (", "Hit: 1", "reach ", "range 1", "SB", "and", "1d4")


def _leaves(data: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """The path to every string and number in `data` (its text and number fields)."""
    items = data.items() if isinstance(data, dict) else enumerate(data) if isinstance(data, list) else ()
    for key, value in items:
        if isinstance(value, dict | list):
            yield from _leaves(value, (*path, key))
        elif isinstance(value, str | int | float) and not isinstance(value, bool):
            yield (*path, key)


def _cases() -> list[tuple[str, tuple[Any, ...], str, str]]:
    """Under soak: every field with every cue before every run. In the normal suite: one of those,
    drawn at random (seeded), for every field of every format."""
    rng = random.Random(22)
    cases = []
    for name, sample in SAMPLES.items():
        for path in _leaves(sample):
            each = [(cue, ch) for cue in CUES for ch in RUNS]
            for cue, ch in each if SOAK else [rng.choice(each)]:
                cases.append((name, path, cue, ch))
    return cases


@pytest.mark.soak
def test_fuzz_long_runs_in_every_field_import_or_refuse_and_stay_linear():
    cases = _cases()
    n = 12_500 if SOAK else 10_000  # the long run: N and 8N (100k characters under soak, 80k in the suite)
    slow = []
    for name, path, cue, ch in cases:
        sample = SAMPLES[name]

        def make(size: int, sample=sample, path=path, cue=cue, ch=ch) -> Any:
            return _set(sample, path, cue + ch * size)

        for size in (n, n * GROWTH):
            _import(make(size))  # an import or a one-line refusal: any other exception fails here
        ratio = _ratio(make, n, tries=1)
        if ratio >= LINEAR:
            ratio = _linear(make, n)
            if ratio >= LINEAR:
                slow.append(f"{name} {path} {cue!r}+{ch!r}*N: {ratio:.0f}x")
    assert not slow, f"{GROWTH}x the text took (quadratic is {GROWTH**2}x): " + "; ".join(slow)


def test_the_ii_export_object_with_a_long_string_value_is_linear():
    # the app's export object holds statblocks as JSON strings: a long one that is no statblock
    def make(n: int) -> Any:
        return {"Creatures.x": json.dumps(II_MONSTER), "Settings": "{" + " " * n}

    assert _linear(make, 4_000) < LINEAR
