"""The project's own adjudication cases (tests/engine/cases/*.toml), in the
DATC data format: civil disorder variants, retreat corner cases and more."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.engine.case_runner import load_cases, run_case


@pytest.mark.parametrize("case", load_cases(Path(__file__).parent / "cases"))
def test_case(case: dict[str, Any]) -> None:
    run_case(case)
