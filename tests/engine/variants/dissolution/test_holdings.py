"""What a Dissolution player is told it holds when the game starts
(Rules.holdings): its Embassies and their Favor, and the Winter's Embassy
orders, read from data/holdings.toml. The example move must be one the
Favor map allows and one that gains Favor."""

from __future__ import annotations

import tomllib
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from engine.variant_file import load_variant
from engine.variants import rules_for
from engine.variants.dissolution.favor_board import favor_board
from engine.variants.dissolution.state import of
from engine.ways_to_play import setup

DATA = Path(__file__).parent / "data" / "holdings.toml"
CASES = tomllib.loads(DATA.read_text(encoding="utf-8"))["case"]
MAP = load_variant("dissolution")
RULES = rules_for(MAP)


@pytest.mark.parametrize("case", CASES, ids=[c["about"] for c in CASES])
def test_a_players_holdings(case: dict[str, Any]) -> None:
    state = RULES.opening(MAP, setup(MAP, 10))
    if "setup" in case:
        state = RULES.with_setup(MAP, state, case["setup"])
    held = RULES.holdings(MAP, state, (case["power"],))
    (section,) = held.sections
    assert [line.text for line in section.lines] == case["embassies"]
    assert {line.power for line in section.lines} == {case["power"]}
    (form,) = held.orders
    assert form.example == case["example"]
    _, space, _, target = form.example.split()
    board = favor_board(MAP)
    assert target in board.moves(space)
    assert board.spaces[target].value > board.spaces[space].value


def test_a_player_without_embassies_is_told_of_none() -> None:
    """An exile has no Embassies (§4.1): nothing to say, no Embassy orders."""
    state = RULES.opening(MAP, setup(MAP, 10))
    part = of(state)
    state = state.with_part(replace(part, embassies=tuple(
        e for e in part.embassies if e[0] != "EGYPT")))
    held = RULES.holdings(MAP, state, ("EGYPT",))
    assert held.sections == () and held.orders == ()
