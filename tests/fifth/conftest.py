"""Plain list, the fifth ruleset, is a package of its own (tests/plainlist_pkg), installed beside Fracas
by `make test` (`pip install -e tests/plainlist_pkg`): the engine and the app find it through its
entry point in the group `fracas.rulesets`, as they find the bundled four, and nothing here registers
it. Without it installed, the tests here stop at once and say how to install it."""

from __future__ import annotations

import importlib.util

import pytest

if importlib.util.find_spec("plainlist") is None:
    raise RuntimeError(
        "tests/fifth needs the Plain list package installed: `make test` does it, or "
        "`.venv/bin/pip install -e tests/plainlist_pkg`"
    )


@pytest.fixture(autouse=True)
def _isolated(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Never read or write the real settings file or saves folder."""
    monkeypatch.setenv("FRACAS_CONFIG_DIR", str(tmp_path_factory.mktemp("config")))
    monkeypatch.setenv("FRACAS_DATA_DIR", str(tmp_path_factory.mktemp("saves")))
