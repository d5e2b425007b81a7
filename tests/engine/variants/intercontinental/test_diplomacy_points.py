"""Intercontinental's Diplomacy Points (§11): the worked examples
(data/cases/examples.toml) and the project's own cases for each rule
(data/cases/rules.toml), run by the DATC case runner on the provisional
board.

The variant's rules module does not name these hooks yet (the coordinator
wires them into it), so the cases play on the board with a rules object
that has exactly the two hooks of engine/variants/intercontinental/
diplomacy_points.py and the standard game's everything else; the seats are
data/seats.toml, or a case's own `seats`."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from engine.bids import Bid
from engine.map import GameMap
from engine.state import GameState
from engine.variant_file import load_variant
from tests.engine.case_runner import load_cases, run_case

DATA = Path(__file__).parent / "data"
SEATS: dict[str, list[str]] = tomllib.loads((DATA / "seats.toml").read_text(encoding="utf-8"))
@pytest.fixture(scope="module")
def board() -> GameMap:
    return load_variant("intercontinental")


def seated(board: GameMap, seats: Mapping[str, Sequence[str]]) -> GameMap:
    return replace(board,
                   seats=tuple((name, tuple(powers)) for name, powers in seats.items()))


@pytest.mark.parametrize("case", load_cases(DATA / "cases"))
def test_case(board: GameMap, case: dict[str, Any]) -> None:
    assert re.match(r"§?\d+(\.\d+)* ", case["id"]), "each case names its section"
    run_case(case, seated(board, SEATS))  # a case's own "seats" replace these


def test_bids_stay_secret(board: GameMap) -> None:
    """§1.4, §11.0: the results of §11.4 name the neutral units' orders,
    under the neutral powers, and nothing of who bid what; the bids'
    fates go to the game master's record only (Resolution.reports, secret until the end)."""
    import json

    from engine.game import adjudicate
    from parser import OrderError, parse_order
    from parser.bids import parse_bid

    game_map = seated(board, SEATS)
    state = GameState.initial(game_map)
    written = {"SIBERIA": ["A Irku - Urga", "A Yaku - Amur"], "CHINA": ["A Peki - Mukd"]}
    orders = {p: [o for o in (parse_order(t, game_map) for t in ts)
                  if not isinstance(o, OrderError)] for p, ts in written.items()}
    lines = {"SIBERIA": ["2: A Mukd S Irku - Urga"], "CHINA": ["1: A Urga S Peki - Mukd"]}
    bids = {p: [b for b in (parse_bid(t, game_map) for t in ts) if isinstance(b, Bid)]
            for p, ts in lines.items()}
    assert sum(map(len, orders.values())) == 3 and sum(map(len, bids.values())) == 2
    resolution = adjudicate(game_map, state, orders, bids)
    neutral = [r for r in resolution.results if r.power in game_map.bid_powers]
    assert {str(r.order) for r in neutral} >= {"A MUKD S A IRKU - URGA", "A URGA S A PEKI - MUKD"}
    public = json.dumps([r.to_json() for r in neutral])
    assert "SIBERIA" not in public and "CHINA" not in public and "Olive" not in public
    assert [(b.bidder, b.counted) for b in resolution.facts("bids")] == \
        [("SIBERIA", True), ("CHINA", True)]
