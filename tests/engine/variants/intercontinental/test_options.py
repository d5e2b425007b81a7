"""A game's own settings reach the rules as the map's tables: the Suez year
(§5.2) and the year cap (§2.2), cases in data/options.toml."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from engine.phase import Phase
from engine.state import GameState
from engine.variant_file import load_variant
from engine.variants import rules_for
from engine.variants.intercontinental import suez, victory

CASES = tomllib.loads((Path(__file__).parent / "data" / "options.toml").read_text())["case"]


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_settings_become_tables(case: dict[str, Any]) -> None:
    base = load_variant("intercontinental")
    rules = rules_for(base)
    options = tuple((k, rules.read_option(base, k, v)) for k, v in case["options"])
    game_map = rules.with_options(base, options)
    assert suez.canal(game_map).opens == case["opens"]
    assert (victory.last_year(game_map) or 0) == case["last_year"]
    assert rules.check_tables(game_map) == []
    state = GameState.initial(game_map)
    for phase in case["open_in"]:
        assert suez.is_open(game_map, state.evolve(phase=Phase.parse(phase))), phase
    for phase in case["split_in"]:
        assert not suez.is_open(game_map, state.evolve(phase=Phase.parse(phase))), phase
    # the variant's own map is untouched, and the same settings give the same map
    assert suez.canal(base).opens == 1870
    assert rules.with_options(base, options) is game_map
