"""Diplomap in the judge, by mail: the scenarios of
tests/judge/data/diplomap/*.toml through the command scenarios' runner
(the real store, processing and database, one transaction per mail)."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.engine import Engine

from tests.judge.test_commands_by_mail import test_scenario as run_scenario

DATA = Path(__file__).parent / "data" / "diplomap"
SCENARIOS = [pytest.param(s, id=f"{path.stem}: {s['name']}")
             for path in sorted(DATA.glob("*.toml"))
             for s in tomllib.loads(path.read_text())["scenario"]]


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_diplomap_scenario(db: Engine, scenario: dict[str, Any]) -> None:
    run_scenario(db, scenario)
