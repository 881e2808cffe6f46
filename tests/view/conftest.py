"""The players' view tests: settings and saves in temporary folders, never the user's."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FRACAS_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("FRACAS_DATA_DIR", str(tmp_path / "saves"))
