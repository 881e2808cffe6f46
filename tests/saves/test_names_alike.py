"""Issue 22 item 12: look-alike fight names ("beta" and "beta" + a zero-width space) are one name."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import RuleError, new_fight
from engine.text import name_key, normal_name
from saves import store
from saves.errors import SaveError
from saves.session import Session


@pytest.mark.parametrize(
    "alike",
    ["beta\u200b", "\ufeffbeta", "Beta\u2060", "be\u00adta", " BETA ", "b\u200deta", "beta\u200c"],
)
def test_a_look_alike_of_a_fight_name_is_taken(tmp_path: Path, alike: str) -> None:
    Session.create(tmp_path / "beta.fracas", new_fight("d20", "beta", 1)).close()
    other = Session.create(tmp_path / "gamma.fracas", new_fight("d20", "gamma", 1))
    other.close()
    assert store.name_taken(alike, None, tmp_path) is not None
    with pytest.raises(SaveError, match="is already the name of beta.fracas"):
        store.rename(tmp_path / "gamma.fracas", alike, tmp_path)
    assert store.find_in(alike, store.list_saves(tmp_path), "here") == tmp_path / "beta.fracas"


def test_names_are_kept_in_one_normal_form() -> None:
    assert new_fight("d20", "beta\u200b", 1).name == "beta"
    assert new_fight("d20", "Cafe\u0301", 1).name == "Caf\u00e9"  # NFC: as typed on another keyboard
    with pytest.raises(RuleError, match="cannot be empty"):
        new_fight("d20", "\u200b\u2060", 1)


def test_joiners_that_shape_a_word_are_kept() -> None:
    """Zero-width (non-)joiners between two letters of a script that needs them are part of the name."""
    persian = "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645"
    assert normal_name(persian) == persian
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
    assert normal_name(family) == family
    assert name_key("Beta\u200d") == name_key("beta")
