"""§10: minors' and affiliates' units are stationary. Their orders come from
Diplomacy Point bids (diplomacy_points.py, §11); here the neutral-orders stage
is handed the orders directly, so that these tests reach the combat rules the
variant file's traits (``stationary = true``) give those units."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.bids import Bid
from engine.legality import Occupancy
from engine.map import province_of
from engine.movement import resolve_movement
from engine.movement_result import MovementResult
from engine.orders import MovementOrder
from engine.phase import Phase
from engine.rules import NeutralOrders
from engine.state import GameState
from engine.units import Unit
from engine.variant_file import load_variant
from engine.variants.intercontinental import IntercontinentalRules
from parser import parse_order

MAP = load_variant("intercontinental")


class Given(IntercontinentalRules):
    """The rules with these neutral orders in place of the bids' outcome."""

    def __init__(self, orders: Sequence[str]) -> None:
        self.given = orders

    def neutral_orders(self, game_map: object, state: GameState, board: Occupancy,
                       chosen: Mapping[str, MovementOrder],
                       bids: Mapping[str, Sequence[Bid]]) -> NeutralOrders:
        parsed = [parse_order(text, MAP) for text in self.given]
        return NeutralOrders({province_of(o.unit.location): o for o in parsed})  # type: ignore[union-attr]


def move(units: Mapping[str, Sequence[str]], orders: Mapping[str, Sequence[str]],
         neutral: Sequence[str]) -> MovementResult:
    state = GameState(
        variant="intercontinental", phase=Phase.parse("S1866M"),
        units=tuple(Unit.parse(p, u) for p, us in units.items() for u in us),
        owners=GameState.make_owners({"ALGERIA": ["ALGI", "ORAN"], "FEZ": ["FEZ"],
                                      "TAMANRASSET": ["TAMA"]}))
    given = {p: [parse_order(t, MAP) for t in ts] for p, ts in orders.items()}
    return resolve_movement(MAP, state, given, Given(neutral))  # type: ignore[arg-type]


def where(result: MovementResult, power: str) -> set[str]:
    return {str(u) for u in result.units if u.power == power}


def test_10_1_a_sortie_into_an_empty_province_bounces() -> None:
    result = move({"FEZ": ["A FEZ"]}, {}, ["A FEZ - MARR"])
    assert where(result, "FEZ") == {"A FEZ"}
    assert "MARR" in result.contested  # §10.2: no retreat into it this turn


def test_10_1_a_sortie_protects_an_empty_province() -> None:
    result = move({"FEZ": ["A FEZ"], "ALGERIA": ["A TANG"]}, {"ALGERIA": ["A TANG - MARR"]},
                  ["A FEZ - MARR"])
    assert where(result, "ALGERIA") == {"A TANG"}
    assert where(result, "FEZ") == {"A FEZ"}


def test_10_1_a_sortie_cuts_support() -> None:
    units = {"FEZ": ["A FEZ"], "ALGERIA": ["A ORAN", "A ALGI"], "TAMANRASSET": ["A TAMA"]}
    orders = {"ALGERIA": ["A ALGI - TAMA", "A ORAN S A ALGI - TAMA"]}
    cut = move(units, orders, ["A FEZ - ORAN"])
    assert where(cut, "TAMANRASSET") == {"A TAMA"}  # 1 v 1: the support was cut
    uncut = move(units, orders, ["A FEZ H"])
    assert not where(uncut, "TAMANRASSET")  # 2 v 1: dislodged, and destroyed later


def test_10_1_a_stationary_unit_never_dislodges() -> None:
    units = {"FEZ": ["A FEZ"], "ALGERIA": ["A ORAN"], "TAMANRASSET": ["A TAMA"]}
    result = move(units, {"ALGERIA": ["A ORAN H"]}, ["A FEZ - ORAN", "A TAMA S A FEZ - ORAN"])
    assert where(result, "ALGERIA") == {"A ORAN"}
    assert where(result, "FEZ") == {"A FEZ"}
    assert not result.dislodged
