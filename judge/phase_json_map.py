"""Diplomap in the JSON form of a phase (`judge adjudicate`, see
docs/cli.md): the switch and the boards displaced units stand on (the
map orders' results are a report section, engine/diplomap/rules.py; the
board's changes and the Draws and Erases used are Diplomap's part of the
position, engine/diplomap/state.py; the map orders themselves are read
with the other lines per power, judge/phase_json.py).

The board a phase's units and orders are written on is the board in force
(``GAL-N`` is a place like any other); a unit displaced by a Draw (§III.B)
still stands in the province that was split, so it is read on the board
before the change, and its retreats are taken as written (they are the
``retreats`` of the phase before's ``next.dislodged``).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import replace
from typing import Any

from engine.diplomap import state as diplomap_state
from engine.diplomap.in_force import with_diplomap
from engine.diplomap.values import MapChange
from engine.map import GameMap
from engine.state import GameState
from engine.variants import rules_for
from parser.map_orders import with_former_names


class MapInputError(ValueError):
    """A Diplomap key that cannot be used; the message names the key."""


def switched_on(game_map: GameMap, data: Mapping[str, Any]) -> GameMap:
    """The map with Diplomap's rules when ``"diplomap": true`` (or when the
    phase has board changes); a variant without rings refuses it."""
    if not data.get("diplomap") and not data.get("map_changes"):
        return game_map
    try:
        return with_diplomap(game_map)
    except ValueError as exc:
        raise MapInputError(f"diplomap: {exc}") from None


def board_for(game_map: GameMap, state: GameState, changes: tuple[MapChange, ...]) -> GameMap:
    """The board in force after ``changes`` in the state's phase."""
    probe = state.with_part(replace(diplomap_state.of(state), map_changes=changes))
    return rules_for(game_map).map_for(game_map, probe)


def displaced_board(game_map: GameMap, board: GameMap, state: GameState,
                    locations: Collection[str]) -> GameMap | None:
    """``board`` (the board in force) that also knows the names of the
    latest board before the last changes that still has every one of
    ``locations``, where displaced units stand (several Draws of one phase
    may have displaced them)."""
    changes = diplomap_state.map_changes(state)
    for cut in range(len(changes) - 1, -1, -1):
        before = board_for(game_map, state, changes[:cut])
        if all(before.is_location(location) for location in locations):
            return with_former_names(board, before)
    return None
