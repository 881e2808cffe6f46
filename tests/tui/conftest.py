"""Settings and saves of every app test live in temporary folders."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Never read or write the real settings file or saves folder."""
    monkeypatch.setenv("FRACAS_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("FRACAS_DATA_DIR", str(tmp_path / "saves"))
