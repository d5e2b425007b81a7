"""Games played in other flows of phases (Hundred's, Classical's, Chaos's
opening builds) through the engine, phase by phase: data/flow_games.toml."""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from engine.adjustments import needs_adjustments
from engine.game import adjudicate
from engine.map import GameMap
from engine.orders import Order
from engine.state import GameState
from engine.variant_file import parse_variant
from engine.ways_to_play import setup
from parser import OrderError, parse_order

ROOT = Path(__file__).resolve().parents[2]
DATA = tomllib.loads((Path(__file__).parent / "data" / "flow_games.toml")
                    .read_text(encoding="utf-8"))


def flow_variant_text(edits: list[list[str]]) -> str:
    """The standard board's file with the edits made."""
    text = (ROOT / "engine" / "variants" / "standard.toml").read_text(encoding="utf-8")
    for old, new in edits:
        assert old in text, f"edit {old!r} no longer applies to standard.toml"
        text = text.replace(old, new, 1)
    return text


def flow_variant(edits: list[list[str]]) -> GameMap:
    """The standard board with the edits to its file made."""
    return parse_variant(flow_variant_text(edits), "flow.toml")


def _orders(game_map: GameMap, raw: Mapping[str, list[str]]) -> dict[str, list[Order]]:
    orders: dict[str, list[Order]] = {}
    for power, lines in raw.items():
        for line in lines:
            order = parse_order(line, game_map)
            assert not isinstance(order, OrderError), f"{line!r}: {order}"
            orders.setdefault(power, []).append(order)
    return orders


def _check(state: GameState, phase: Mapping[str, Any]) -> None:
    for power, units in phase.get("units", {}).items():
        assert sorted(str(u) for u in state.units if u.power == power) == sorted(units), power
    for power, centres in phase.get("centres", {}).items():
        assert sorted(state.centres_of(power)) == sorted(centres), power


@pytest.mark.parametrize("game", DATA["game"], ids=lambda g: g["about"])
def test_a_game_follows_its_flow(game: dict[str, Any]) -> None:
    game_map = flow_variant(game["edits"])
    assert game_map.start == game["start"]
    state = setup(game_map, len(game_map.powers))
    assert str(state.phase) == game["start"]
    for phase in game["phase"]:
        assert str(state.phase) == phase["phase"]
        resolution = adjudicate(game_map, state, _orders(game_map, phase["orders"]))
        state = resolution.next
        assert str(state.phase) == phase["next"], phase["phase"]
        assert state.phase.flow == game_map.flow
        _check(state, phase)


def test_an_opening_with_builds_has_adjustments_due() -> None:
    """Chaos's W1900A: the powers own their home centres and have no unit."""
    chaos = next(g for g in DATA["game"] if g["start"] == "W1900A")
    game_map = flow_variant(chaos["edits"])
    state = setup(game_map, len(game_map.powers))
    assert state.units == ()
    assert needs_adjustments(game_map, state)
    assert state.phase.name == "Winter 1900 Adjustment"
