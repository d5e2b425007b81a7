"""Diplomap's part of a position: the changes to the board so far, in
order (the board in force is the base map with these applied), and the map
orders each power has used this year (§II.C); with its keys in a phase's
JSON (`judge adjudicate`, docs/cli.md). Rule text ru12 by Michael Harvath
(CC BY-SA 4.0)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from engine.diplomap.records import change_from_dict, change_to_dict
from engine.diplomap.values import MapChange
from engine.phase_input import PhaseInputError, power_in
from engine.state import StatePart

if TYPE_CHECKING:
    from engine.map import GameMap
    from engine.state import GameState

MAP_ORDER_KINDS = ("draw", "erase")  # in the order they are kept on file and shown


@dataclass(frozen=True, slots=True)
class DiplomapState(StatePart):
    key: ClassVar[str] = "diplomap"
    map_changes: tuple[MapChange, ...] = ()
    map_orders_used: frozenset[tuple[str, str]] = frozenset()  # (power, "draw" | "erase")

    @classmethod
    def read_phase(cls, game_map: GameMap, data: Mapping[str, Any],
                   opening: GameState) -> DiplomapState:
        return cls(read_changes(data), _read_used(game_map, data))

    def write_phase(self, game_map: GameMap) -> dict[str, Any]:
        out: dict[str, Any] = {"diplomap": True}
        if self.map_changes:
            out["map_changes"] = [change_to_dict(c) for c in self.map_changes]
        if self.map_orders_used:
            used: dict[str, list[str]] = {}
            for power, kind in sorted(self.map_orders_used):
                used.setdefault(power, []).append(kind)
            out["map_orders_used"] = used
        return out


def of(state: GameState) -> DiplomapState:
    """Diplomap's part of a position."""
    return state.part(DiplomapState)


def map_changes(state: GameState) -> tuple[MapChange, ...]:
    """The changes to the board so far (none without Diplomap)."""
    return state.part(DiplomapState).map_changes


def read_changes(data: Mapping[str, Any]) -> tuple[MapChange, ...]:
    """A phase's ``map_changes`` (its phase before's ``next.map_changes``)."""
    raw = data.get("map_changes", [])
    if not isinstance(raw, list):
        raise PhaseInputError("map_changes must be a list (a phase's next.map_changes)")
    changes = []
    for n, item in enumerate(raw):
        try:
            changes.append(change_from_dict(item))
        except (KeyError, TypeError, ValueError) as exc:
            raise PhaseInputError(f"map_changes[{n}]: not a board change ({exc!r})") from None
    return tuple(changes)


def _read_used(game_map: GameMap, data: Mapping[str, Any]) -> frozenset[tuple[str, str]]:
    raw = data.get("map_orders_used", {})
    if not isinstance(raw, dict):
        raise PhaseInputError("map_orders_used must be an object: {POWER: [\"draw\", ...]}")
    used = set()
    for name, kinds in raw.items():
        power = power_in(game_map, name, "map_orders_used")
        for kind in kinds if isinstance(kinds, list) else [kinds]:
            if str(kind).lower() not in MAP_ORDER_KINDS:
                raise PhaseInputError(f"map_orders_used.{power}: {kind!r} is not draw or erase")
            used.add((power, str(kind).lower()))
    return frozenset(used)
