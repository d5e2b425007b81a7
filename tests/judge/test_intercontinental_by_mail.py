"""Intercontinental in the judge, by mail: the scenarios of
tests/judge/data/intercontinental/*.toml through the command scenarios'
runner."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.engine import Engine

from tests.judge.test_commands_by_mail import scenarios_in
from tests.judge.test_commands_by_mail import test_scenario as run_scenario

pytestmark = pytest.mark.slow

SCENARIOS = scenarios_in(Path(__file__).parent / "data" / "intercontinental")


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_intercontinental_scenario(db: Engine, scenario: dict[str, Any],
                       monkeypatch: pytest.MonkeyPatch) -> None:
    run_scenario(db, scenario, monkeypatch)
