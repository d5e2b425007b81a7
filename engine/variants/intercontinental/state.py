"""Intercontinental's part of a position: the additional home centre each
major power has named by building there (§9.1), kept after the power is
gone; with its key in a phase's JSON (`judge adjudicate`, docs/cli.md):
``"additional_homes": {"Russia": "GURY"}``. Rule text by W. Alex Ronke
(CC BY-SA 4.0)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from engine.phase_input import PhaseInputError, place_code, power_in
from engine.state import StatePart

if TYPE_CHECKING:
    from engine.map import GameMap
    from engine.state import GameState


@dataclass(frozen=True, slots=True)
class IntercontinentalState(StatePart):
    key: ClassVar[str] = "intercontinental"
    # (power, centre), sorted: at most one per power, ever (§9.1 rule 2)
    additional_homes: tuple[tuple[str, str], ...] = ()

    @classmethod
    def read_phase(cls, game_map: GameMap, data: Mapping[str, Any],
                   opening: GameState) -> IntercontinentalState:
        given = data.get("additional_homes", {})
        if not isinstance(given, dict):
            raise PhaseInputError('additional_homes must be an object: {"POWER": "CENTRE"}')
        homes: dict[str, str] = {}
        for name, text in given.items():
            power = power_in(game_map, name, "additional_homes")
            code = place_code(game_map, str(text))
            if code not in game_map.supply_centres:
                raise PhaseInputError(f"additional_homes.{power}: {text!r} is not a supply centre")
            if code in homes.values():
                raise PhaseInputError(f"additional_homes: {code} is named twice")
            homes[power] = code
        return cls(tuple(sorted(homes.items())))

    def write_phase(self, game_map: GameMap) -> dict[str, Any]:
        return {"additional_homes": dict(self.additional_homes)} if self.additional_homes \
            else {}


def of(state: GameState) -> IntercontinentalState:
    """Intercontinental's part of a position."""
    return state.part(IntercontinentalState)
