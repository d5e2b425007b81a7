"""The results' notes of Intercontinental's own changes (§9.1's additional
homes, §5.2's canal), cases in data/reports.toml."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from engine.phase import Phase
from engine.state import GameState
from engine.variant_file import load_variant
from engine.variants import rules_for
from engine.variants.intercontinental.state import IntercontinentalState

CASES = tomllib.loads((Path(__file__).parent / "data" / "reports.toml").read_text())["case"]


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_phase_notes(case: dict[str, Any]) -> None:
    base = load_variant("intercontinental")
    rules = rules_for(base)
    options = tuple((k, rules.read_option(base, k, v)) for k, v in case.get("options", []))
    game_map = rules.with_options(base, options)
    start = GameState.initial(game_map)

    def at(phase: str, homes: dict[str, str]) -> GameState:
        return start.evolve(phase=Phase.parse(phase)).with_part(
            IntercontinentalState(tuple(sorted(homes.items()))))

    before = at(case["before"], case.get("homes_before", {}))
    after = at(case["after"], case.get("homes_after", {}))
    notes = [line.text for s in rules.report_sections(game_map, before, after) for line in s.lines]
    assert notes == case["notes"]
