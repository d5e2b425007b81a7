"""Runs Diplomap's cases (tests/engine/diplomap/data/*.toml): units,
movement orders in the players' notation, map orders as data, one phase
through engine.game.adjudicate, and the board and retreats after it."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from engine.diplomap.in_force import apply_changes, with_diplomap
from engine.diplomap.state import DiplomapState
from engine.diplomap.state import of as diplomap
from engine.diplomap.values import Draw, Erase, MapOrder, Side
from engine.game import Resolution, adjudicate
from engine.map import GameMap
from engine.orders import Order
from engine.phase import Phase
from engine.state import GameState
from engine.units import Unit
from engine.variant_file import load_variant
from parser import OrderError, parse_order

DATA = Path(__file__).parent / "data"


def load(name: str) -> list[Any]:
    cases = tomllib.loads((DATA / name).read_text(encoding="utf-8"))["case"]
    return [pytest.param(case, id=case["id"]) for case in cases]


def diplomap_standard() -> GameMap:
    return with_diplomap(load_variant("standard"))


def map_order(raw: dict[str, Any]) -> MapOrder:
    if "erase" in raw:
        one, two = raw["erase"]
        return Erase((one, two))
    start, end = raw["draw"]
    centre = None
    if "centre" in raw:
        centre = Side(compass=raw["centre"])
    elif "centre_with" in raw:
        centre = Side(neighbour=raw["centre_with"])
    return Draw(tuple(start), tuple(end), raw.get("inside"), centre)  # type: ignore[arg-type]


def position(game_map: GameMap, case: dict[str, Any]) -> GameState:
    units = tuple(Unit.parse(power, text) for power, texts in case.get("units", {}).items()
                  for text in texts)
    state = GameState.initial(game_map).evolve(units=units,
                                               phase=Phase.parse(case.get("phase", "S1901M")))
    if "used" in case:  # map orders used earlier this year (§II.C)
        state = state.with_part(DiplomapState(
            map_orders_used=frozenset((p, k) for p, k in case["used"])))
    if "centres" in case:
        state = state.evolve(owners=GameState.make_owners(case["centres"]))
    return state


def orders_of(game_map: GameMap, raw: dict[str, list[str]]) -> dict[str, list[Order]]:
    orders: dict[str, list[Order]] = {}
    for power, texts in raw.items():
        for text in texts:
            order = parse_order(text, game_map)
            assert not isinstance(order, OrderError), (text, order)
            orders.setdefault(power, []).append(order)
    return orders


def run(case: dict[str, Any]) -> tuple[GameMap, Resolution, list[tuple[str, MapOrder]]]:
    game_map = diplomap_standard()
    state = position(game_map, case)
    given = [(raw["power"], map_order(raw)) for raw in case.get("map_orders", [])]
    map_orders: dict[str, list[MapOrder]] = {}
    for power, order in given:
        map_orders.setdefault(power, []).append(order)
    resolution = adjudicate(game_map, state, orders_of(game_map, case.get("orders", {})),
                            map_orders=map_orders)
    return game_map, resolution, given


def board_after(game_map: GameMap, resolution: Resolution) -> GameMap:
    return apply_changes(game_map, diplomap(resolution.next).map_changes)
