"""`judge serve` killed with SIGKILL at random instants under order mails
(a small run of bench/kill_run.py, which records the full ones): every
mail that got its 250 is processed once and answered once, and no kill
leaves a process or a named semaphore behind."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from types import ModuleType

import pytest

pytestmark = [pytest.mark.postgres, pytest.mark.slow]

BENCH = Path(__file__).resolve().parents[2] / "bench"


def kill_run_module() -> ModuleType:
    """bench/kill_run.py, which imports its neighbours by their bare names."""
    if str(BENCH) not in sys.path:
        sys.path.append(str(BENCH))  # last: its module names must shadow nothing
    return importlib.import_module("kill_run")


def test_kills_lose_nothing_and_double_nothing(db_url: str, tmp_path: Path) -> None:
    judges = 2 if db_url.startswith("postgresql") else 1
    figures = kill_run_module().kill_run(db_url, tmp_path, mails=60, kills=3, judges=judges,
                                         seed=7)
    assert figures.lost_after_250 == 0
    assert figures.processed_twice == 0
    assert figures.acknowledgements_missing == 0
    assert figures.sent_twice == 0
    assert figures.orphans == 0
    assert figures.semaphores_left == 0
