"""The rulebook's 2-6 player games: seats, neutral powers, the two-player game."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from engine.game import adjudicate, victor
from engine.orders import Order
from engine.state import GameState
from engine.variant_file import load_variant
from engine.ways_to_play import setup
from parser import OrderError, parse_order

DATA = tomllib.loads((Path(__file__).parent / "data" / "ways_to_play.toml").read_text())


@pytest.mark.parametrize("case", DATA["setup"], ids=lambda c: f"{c['players']} players")
def test_setup(case: dict[str, Any]) -> None:
    state = setup(load_variant("standard"), case["players"], seed=1)
    assert [s.player for s in state.seats] == case["seats"]
    assert state.unplayed == frozenset(case["neutral"])
    assert str(state.phase) == case["phase"]
    assert state.victory == case["victory"]
    assert state.victory_by_player == case.get("by_player", False)
    assert state.closed == frozenset(case.get("closed", []))
    # every power keeps its own units and centres, whoever plays it
    assert len(state.units) == 22 and len(state.owners) == 22


def _play(state: GameState, phase: dict[str, Any]) -> GameState:
    game_map = load_variant("standard")
    orders: dict[str, list[Order]] = {}
    wanted: list[tuple[str, str, str]] = []
    for power, lines in phase.get("orders", {}).items():
        for line in lines:
            text, _, outcome = line.rpartition("|")
            order = parse_order(text.strip(), game_map)
            assert not isinstance(order, OrderError), order
            orders.setdefault(power, []).append(order)
            wanted.append((power, text.strip(), outcome.strip()))
    resolution = adjudicate(game_map, state, orders)
    for power in orders:
        got = [r for r in resolution.results if r.power == power]
        want = [w for w in wanted if w[0] == power]
        for (_, text, outcome), result in zip(want, got, strict=False):
            assert result.outcome.value == outcome, (text, result)
    state = resolution.next
    while state.phase.kind.value != "M":  # nobody orders retreats or builds here
        state = adjudicate(game_map, state, {}).next
    return state


def _units(state: GameState, power: str) -> set[str]:
    return {str(u) for u in state.units_of(power)}


@pytest.mark.parametrize("game", DATA["game"], ids=lambda g: g["name"])
def test_game(game: dict[str, Any]) -> None:
    state = setup(load_variant("standard"), game["players"], seed=7)
    for phase in game["phase"]:
        state = _play(state, phase)
        for power, units in phase.get("expect_units", {}).items():
            assert set(units) == _units(state, power)
        for power, centres in phase.get("expect_centres", {}).items():
            assert sorted(state.centres_of(power)) == sorted(centres)
        for note in phase.get("expect_notes", []):
            assert any(n.startswith(note) for n in state.notes), state.notes
        if "expect_closed" in phase:
            assert state.closed == frozenset(phase["expect_closed"])
        if "expect_neutral" in phase:
            assert state.unplayed == frozenset(phase["expect_neutral"])


def test_two_player_coin_toss_is_reproducible_and_joins_a_side() -> None:
    game_map = load_variant("standard")
    winners = set()
    for seed in range(12):
        state = setup(game_map, 2, seed=seed)
        state = adjudicate(game_map, state, {}).next  # S1914M
        again = adjudicate(game_map, setup(game_map, 2, seed=seed), {}).next
        state = adjudicate(game_map, state, {}).next  # F1914M: the toss
        again = adjudicate(game_map, again, {}).next
        assert state.notes == again.notes
        seat = next(s for s in state.seats if "ITALY" in s.powers)
        winners.add(seat.player)
        assert str(state.phase) == "S1915M"
        assert "ITALY" not in state.unplayed
    assert winners == {"ENGLAND/FRANCE/RUSSIA", "AUSTRIA/GERMANY/TURKEY"}


def test_two_player_victory_counts_the_players_powers() -> None:
    game_map = load_variant("standard")
    state = setup(game_map, 2, seed=3)
    side = ("ENGLAND", "FRANCE", "RUSSIA")
    centres = sorted(game_map.supply_centres - set(game_map.powers["ITALY"].home))
    # centres spread over the side's three powers, none near 18 alone
    for count, winner in ((23, None), (24, "ENGLAND/FRANCE/RUSSIA")):
        owners = {c: side[i % 3] for i, c in enumerate(centres[:count])}
        assert victor(game_map, state.evolve(owners=tuple(sorted(owners.items())))) == winner
    seven = load_variant("standard")
    lone = GameState.initial(seven)
    owners = {c: "FRANCE" for c in sorted(seven.supply_centres)[:18]}
    assert victor(seven, lone.evolve(owners=tuple(sorted(owners.items())))) == "FRANCE"
