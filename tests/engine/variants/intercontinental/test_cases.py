"""Intercontinental's worked examples and the project's own cases for its rules
(tests/engine/variants/intercontinental/data/cases/*.toml), each named by its
section, run by the DATC case runner."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.engine.case_runner import load_cases, run_case


@pytest.mark.parametrize("case", load_cases(Path(__file__).parent / "data" / "cases"))
def test_case(case: dict[str, Any]) -> None:
    run_case(case)
