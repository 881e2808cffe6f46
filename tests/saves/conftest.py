"""Every saves test runs with FRACAS_DATA_DIR in a temporary folder: the real data dir is never touched."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _data_dir(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FRACAS_DATA_DIR", str(tmp_path_factory.mktemp("data")))
