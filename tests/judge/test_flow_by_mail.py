"""A game in another flow of phases played by mail (Hundred's: a season
every five years, adjustments every ten): the scenarios of
tests/judge/data/flows/, run by the command scenarios' runner on a variant
the judge finds in a JUDGE_VARIANTS folder, the standard board with
Hundred's FLOW and BEGIN lines."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.engine import Engine

from tests.engine.test_flow_games import DATA as GAMES
from tests.engine.test_flow_games import flow_variant_text
from tests.judge.test_commands_by_mail import scenarios_in
from tests.judge.test_commands_by_mail import test_scenario as run_scenario

pytestmark = pytest.mark.slow

HUNDRED = next(g for g in GAMES["game"] if g["start"] == "A1425M")


@pytest.fixture
def hundred_variant(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text = flow_variant_text([*HUNDRED["edits"], ['name = "standard"', 'name = "hundredflow"']])
    (tmp_path / "hundredflow.toml").write_text(text, encoding="utf-8")
    monkeypatch.setenv("JUDGE_VARIANTS", str(tmp_path))


@pytest.mark.parametrize("scenario", scenarios_in(Path(__file__).parent / "data" / "flows"))
def test_flow_scenario(db: Engine, scenario: dict[str, Any], hundred_variant: None) -> None:
    run_scenario(db, scenario)
