"""Games in other flows of phases played by mail (Hundred's: a season
every five years, adjustments every ten; Chaos's opening Winter of builds):
the scenarios of tests/judge/data/flows/, run by the command scenarios'
runner on variants the judge finds in a JUDGE_VARIANTS folder, the standard
board with those maps' FLOW and BEGIN lines."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.engine import Engine

from tests.judge.flow_variants import CHAOS_EDITS, HUNDRED_EDITS, install
from tests.judge.test_commands_by_mail import scenarios_in
from tests.judge.test_commands_by_mail import test_scenario as run_scenario

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("scenario", scenarios_in(Path(__file__).parent / "data" / "flows"))
def test_flow_scenario(db: Engine, scenario: dict[str, Any], tmp_path: Path,
                       monkeypatch: pytest.MonkeyPatch) -> None:
    install(tmp_path, monkeypatch, "hundredflow", HUNDRED_EDITS)
    install(tmp_path, monkeypatch, "chaosflow", CHAOS_EDITS)
    run_scenario(db, scenario, monkeypatch)
