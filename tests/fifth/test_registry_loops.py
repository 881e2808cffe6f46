"""The tests that loop over the registry cover a fifth ruleset with no edit: Plain list, installed
beside Fracas and found through its entry point, is among the rulesets the engine's conformance and
offers tests and the saves' round trip are run for, in the same run as everything else; and the
golden check asks a golden file of the bundled rulesets only (a golden file is a fixed file of an
earlier version)."""

from __future__ import annotations

from plainlist.rules import ID

import tests.engine.test_conformance as conformance
import tests.saves.test_golden as golden
import tests.saves.util as saves_util
from engine import ruleset_ids


def _params(fn: object) -> list[object]:
    return [v for mark in getattr(fn, "pytestmark", []) if mark.name == "parametrize" for v in mark.args[1]]


def test_the_registry_driven_tests_cover_plain_list() -> None:
    import tests.engine.test_actions_economy as offers
    import tests.saves.test_roundtrip as roundtrip

    assert ID in ruleset_ids()
    assert ID in conformance.RULESETS and ID in saves_util.RULESETS
    assert ID in _params(offers.test_actions_and_economy_agree_with_apply_over_random_fights)
    assert ID in _params(roundtrip.test_save_load_equal)
    assert ID not in golden.bundled()  # no golden file asked of it
