"""What an Intercontinental colour group is told it holds when the game
starts (Rules.holdings): the affiliates it sponsors, read from
data/holdings.toml; every affiliate has exactly one sponsoring group."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from engine.variant_file import load_variant
from engine.variants import rules_for
from engine.variants.intercontinental.diplomacy_points import sponsors
from engine.ways_to_play import setup

DATA = Path(__file__).parent / "data" / "holdings.toml"
CASES = tomllib.loads(DATA.read_text(encoding="utf-8"))["case"]
MAP = load_variant("intercontinental")
RULES = rules_for(MAP)


@pytest.mark.parametrize("case", CASES, ids=[c["about"] for c in CASES])
def test_a_groups_sponsored_affiliates(case: dict[str, Any]) -> None:
    assert RULES.setup_problems(MAP, case["groups"]) == []
    state = RULES.with_setup(MAP, RULES.opening(MAP, setup(MAP, 8)), case["groups"])
    told: dict[str, list[str]] = {}
    for seat in state.seats:
        held = RULES.holdings(MAP, state, seat.powers)
        assert held.orders == ()
        told[seat.player] = [line.text for s in held.sections for line in s.lines]
    for group, affiliates in case["sponsored"].items():
        assert told[group] == affiliates, group
    # with every group seated, each affiliate is told to exactly one group
    named = sorted(text.split(" (")[0] for texts in told.values() for text in texts)
    assert named == sorted(sponsors(MAP))
