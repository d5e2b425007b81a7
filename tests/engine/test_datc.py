"""Every DATC 3.0 chapter 6 test case, read from tests/engine/datc/*.toml.

Each case checks every order's outcome, the board afterwards and the units
dislodged (with where their attacker came from). The format is described in
tests/engine/datc/README.md.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.engine.case_runner import load_cases, run_case

CASES = load_cases(Path(__file__).parent / "datc", "6*.toml")


@pytest.mark.parametrize("case", CASES)
def test_datc(case: dict[str, Any]) -> None:
    run_case(case)


def test_every_section_is_present() -> None:
    ids = [p.id for p in CASES]
    assert {i.split(".")[1] for i in ids} == set("ABCDEFGHIJ")
    assert len(ids) >= 160
