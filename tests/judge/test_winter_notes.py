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


def test_the_results_adjustment_table_says_why_a_build_is_lost() -> None:
    from engine.standing import standing
    from engine.variants import rules_for
    from judge.mail import adjustment_table, render

    game_map, state = read_state(CASES["case"][1]["position"])
    # the Winter's standing, as the resolution of the Fall before carries it
    due = standing(game_map, game_map, rules_for(game_map), state).adjustments
    rows = adjustment_table(due)
    text = render("results.txt.j2", judge="J", address="j@x", game={"name": "g",
                  "variant": "standard"}, deadline_line="", phase="F1901M",
                  phase_name="Fall 1901 Movement", orders=[], late=[], dislodged=[], notes=[],
                  sections=[], budgets=[], centres=[], groups=[], adjustments=rows,
                  score_unit="centres",
                  next_name="Winter 1901 Adjustment", next_phase="W1901A",
                  next_deadline="not set", ending="")
    assert "FRANCE     5 centres, 3 units: builds 2" in text
    assert "FRANCE has 1 free home centre (BRE) for 2 builds: 1 build lost" in text
