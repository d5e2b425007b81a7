"""What a Winter reply says of builds and removals due, and of builds lost
for want of a free home centre: cases in data/winter_notes.toml, read by
the real standard map and the engine's own allowance rules."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from judge.phase_json import read_state
from judge.winter_notes import builds_lost, due_lines

CASES = tomllib.loads((Path(__file__).parent / "data" / "winter_notes.toml").read_text())


@pytest.mark.parametrize("case", CASES["case"], ids=lambda c: c["name"])
def test_winter_lines(case: dict[str, Any]) -> None:
    game_map, state = read_state(case["position"])
    text = "\n".join(due_lines(game_map, state, case["powers"], case.get("orders", {})))
    for line in case["lines"]:
        assert line in text, text
    for line in case.get("lacks", []):
        assert line not in text, text


def test_no_loss_said_when_every_build_has_a_site() -> None:
    game_map, state = read_state(CASES["case"][0]["position"])
    assert builds_lost(game_map, state, "FRANCE") == ""
