"""The bench functions run on tiny sizes and return numbers (no timing is asserted: `make bench`
is where the figures are read)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from benchmarks import __main__ as bench_main
from benchmarks import engine_bench, save_bench, tui_bench


@pytest.fixture(autouse=True)
def _own_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FRACAS_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("FRACAS_CONFIG_DIR", str(tmp_path / "config"))


def _finite(*values: float) -> None:
    for v in values:
        assert isinstance(v, float) and math.isfinite(v) and v > 0, v


def test_line_shows_the_target_and_whether_it_is_met() -> None:
    assert bench_main.line("a.b", 1.5, "ms") == "a.b 1.500 ms"
    assert bench_main.line("a.ratio", 2.0, "x", 3.0) == "a.ratio 2.000 x  target <= 3: met"
    assert bench_main.line("a.ratio", 4.0, "x", 3.0).endswith("target <= 3: MISSED")


def test_engine_floor_and_apply_run() -> None:
    start = engine_bench.build_fight()
    ns = engine_bench.time_floor(start)
    assert len(ns) == engine_bench.COMMANDS and all(x >= 0 for x in ns)
    cmds = [engine_bench.C.NextTurn() for _ in range(5)]
    ns = engine_bench.time_apply(start, cmds)
    assert len(ns) == 5 and all(x > 0 for x in ns)


def test_resume_ratio_on_a_small_fight(tmp_path: Path) -> None:
    path = tmp_path / "small.fracas"
    session, times = save_bench.build(path, commands=60)
    session.close()
    assert times
    records = save_bench.decode_floor(path)
    assert records > 60
    assert save_bench.decode_floor(path, decode_payloads=False) == records
    res = save_bench.resume_figures(path, runs=2, commands=60)
    _finite(res["resume_ms"], res["floor_ms"], res["ratio"], res["inflate_ms"], res["vs_inflate"])


def test_keypress_ratio_on_two_samples() -> None:
    res = tui_bench.keypress_figures(2)
    _finite(*(res[k] for k in ("ratio", "next_ratio", "damage_ratio", "floor_next_ms", "floor_cell_ms", "p95_ms")))
    assert res["ratio"] == max(res["next_ratio"], res["damage_ratio"])
