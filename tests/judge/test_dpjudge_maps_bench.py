"""bench/dpjudge_maps.py in a quick mode (the full run's figures are in
bench/README.md): it measures a small map end to end, and stops with no
figure when a map that ship imports no longer imports."""

from __future__ import annotations

import importlib
import json
import shutil
import sys
from pathlib import Path
from types import ModuleType

import pytest

pytestmark = pytest.mark.slow  # it runs `judge adjudicate` as processes

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "bench"
QUICK = ["--rounds", "1", "--years", "1", "--repeat", "1", "--runs", "1", "--variants", "pure"]


def bench_module() -> ModuleType:
    """bench/dpjudge_maps.py, which imports its neighbours by their bare names."""
    if str(BENCH) not in sys.path:
        sys.path.append(str(BENCH))  # last: its module names must shadow nothing
    return importlib.import_module("dpjudge_maps")


def test_a_quick_run_measures_a_small_map(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    shutil.copy(ROOT / "tools" / "dpjudge_maps" / "pure.map", tmp_path)
    assert bench_module().main(["--sources", str(tmp_path), *QUICK]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["import"]["maps"] == 1
    pure = figures["movement phases"]["pure"]
    assert pure["provinces"] == 7
    assert pure["orders a phase (median)"] == pure["units a phase (median)"] == 7
    assert pure["adjudicate()"]["calls"] == pure["movement phases"] == 2


def test_a_shipped_map_that_no_longer_imports_stops_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "pure.map").write_text("POWERLESS\n", encoding="utf-8")
    assert bench_module().main(["--sources", str(tmp_path), *QUICK]) == 1
    out = capsys.readouterr()
    assert out.out == ""
    assert "maps ship imports gave no variant: pure" in out.err
