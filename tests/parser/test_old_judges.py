"""DPJudge's and njudge's spellings (PROCESS!, STATUS, SET MOVEMENT, SET NMR...):
vectors in data/old_judges.toml, in the format of data/commands.toml."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from tests.parser.test_commands import test_vector as check_vector

CASES: list[dict[str, Any]] = tomllib.loads(
    (Path(__file__).parent / "data" / "old_judges.toml").read_text("utf-8"))["case"]


@pytest.mark.parametrize("case", CASES, ids=[c["about"] for c in CASES])
def test_old_judge_spelling(case: dict[str, Any]) -> None:
    check_vector(case)
