"""Every order written in the DATC case files must be read, as the DATC means it."""

from __future__ import annotations

import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from engine.map import GameMap, UnitKind
from engine.orders import Build, Convoy, Move, Remove, SupportHold, SupportMove, UnitRef
from engine.variant_file import load_variant
from parser import OrderError, parse_order

DATC = Path(__file__).parent.parent / "engine" / "datc"


def _orders(case: dict[str, Any]) -> Iterator[str]:
    for orders in case.get("orders", {}).values():
        for order in orders:
            yield order.split(" | ")[0]
    for then in case.get("then", []):
        yield from _orders(then)


def _all_orders() -> list[str]:
    found: set[str] = set()
    for path in sorted(DATC.glob("*.toml")):
        for case in tomllib.loads(path.read_text(encoding="utf-8")).get("case", []):
            found.update(_orders(case))
    return sorted(found)


ORDERS = _all_orders()


@pytest.fixture(scope="module")
def standard() -> GameMap:
    return load_variant("standard")


def test_datc_files_found() -> None:
    assert len(ORDERS) > 300


@pytest.mark.parametrize("text", ORDERS)
def test_datc_order_parses(standard: GameMap, text: str) -> None:
    result = parse_order(text, standard)
    assert not isinstance(result, OrderError), str(result)


ARMY, FLEET = UnitKind.ARMY, UnitKind.FLEET


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "F North Sea Convoys A Yorkshire - Yorkshire",
            Convoy(UnitRef("NTH", FLEET), UnitRef("YOR", ARMY), "YOR"),
        ),
        (
            "A Prussia Supports Livonia - Prussia",
            SupportMove(UnitRef("PRU", ARMY), UnitRef("LVN"), "PRU"),
        ),
        ("F Portugal - Spain(nc)", Move(UnitRef("POR", FLEET), "SPA/NC")),
        ("A Holland - Yorkshire", Move(UnitRef("HOL", ARMY), "YOR")),
        ("Build A St Petersburg(nc)", Build("STP/NC", ARMY)),
        ("Remove F Gulf of Lyon", Remove(UnitRef("LYO", FLEET))),
        ("A Tunis - Naples via Convoy", Move(UnitRef("TUN", ARMY), "NAP", via_convoy=True)),
        ("F Gascony - Spain(sc)", Move(UnitRef("GAS", FLEET), "SPA/SC")),
        ("F Spain(nc) Supports F Mid-Atlantic Ocean",
         SupportHold(UnitRef("SPA/NC", FLEET), UnitRef("MAO", FLEET))),
        ("A Lon - Nth - Nwy", Move(UnitRef("LON", ARMY), "NWY", path=("NTH",))),
    ],
)
def test_datc_style_values(standard: GameMap, text: str, expected: object) -> None:
    assert parse_order(text, standard) == expected
