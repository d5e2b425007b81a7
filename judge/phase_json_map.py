"""Diplomap's keys in the JSON form of a phase (`judge adjudicate`, see
docs/cli.md): the switch, the board's changes so far, the Draws and Erases
used this year, and the map orders' results (the map orders themselves
are read with the other lines per power, judge/phase_json.py).

The board a phase's units and orders are written on is the board in force
(``GAL-N`` is a place like any other); a unit displaced by a Draw (§III.B)
still stands in the province that was split, so it is read on the board
before the change, and its retreats are taken as written (they are the
``retreats`` of the phase before's ``next.dislodged``).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any

from engine.diplomap.in_force import with_diplomap
from engine.diplomap.records import change_from_dict, change_to_dict
from engine.diplomap.values import MapChange, MapOrderResult
from engine.map import GameMap
from engine.phase import Phase
from engine.state import GameState
from engine.variant_file import power_named
from engine.variants import rules_for
from judge.map_orders import KINDS
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


def read_changes(data: Mapping[str, Any]) -> tuple[MapChange, ...]:
    raw = data.get("map_changes", [])
    if not isinstance(raw, list):
        raise MapInputError("map_changes must be a list (a phase's next.map_changes)")
    changes = []
    for n, item in enumerate(raw):
        try:
            changes.append(change_from_dict(item))
        except (KeyError, TypeError, ValueError) as exc:
            raise MapInputError(f"map_changes[{n}]: not a board change ({exc!r})") from None
    return tuple(changes)


def read_used(game_map: GameMap, data: Mapping[str, Any]) -> frozenset[tuple[str, str]]:
    raw = data.get("map_orders_used", {})
    if not isinstance(raw, dict):
        raise MapInputError("map_orders_used must be an object: {POWER: [\"draw\", ...]}")
    used = set()
    for name, kinds in raw.items():
        power = power_named(game_map, str(name))
        if power is None:
            raise MapInputError(f"map_orders_used: unknown power {name!r}")
        for kind in kinds if isinstance(kinds, list) else [kinds]:
            if str(kind).lower() not in KINDS:
                raise MapInputError(f"map_orders_used.{power}: {kind!r} is not draw or erase")
            used.add((power, str(kind).lower()))
    return frozenset(used)


def board_for(game_map: GameMap, phase: Phase, changes: tuple[MapChange, ...]) -> GameMap:
    """The board in force in the phase, where its units stand."""
    probe = GameState.initial(game_map).evolve(phase=phase, map_changes=changes)
    return rules_for(game_map).map_for(game_map, probe)


def displaced_board(game_map: GameMap, board: GameMap, phase: Phase,
                    changes: tuple[MapChange, ...], locations: Collection[str]
                    ) -> GameMap | None:
    """``board`` (the board in force) that also knows the names of the
    latest board before the last changes that still has every one of
    ``locations``, where displaced units stand (several Draws of one phase
    may have displaced them)."""
    for cut in range(len(changes) - 1, -1, -1):
        before = board_for(game_map, phase, changes[:cut])
        if all(before.is_location(location) for location in locations):
            return with_former_names(board, before)
    return None


def write_results(results: Sequence[MapOrderResult]) -> list[dict[str, Any]]:
    return [{"power": r.power, "order": str(r.order), "succeeded": r.succeeded,
             **({"reason": r.reason} if r.reason else {}),
             **({"section": r.section} if r.section else {})} for r in results]


def write_board(state: GameState, on: bool) -> dict[str, Any]:
    """The next phase's Diplomap keys, with Diplomap on."""
    if not on:
        return {}
    out: dict[str, Any] = {"diplomap": True}
    if state.map_changes:
        out["map_changes"] = [change_to_dict(c) for c in state.map_changes]
    if state.map_orders_used:
        used: dict[str, list[str]] = {}
        for power, kind in sorted(state.map_orders_used):
            used.setdefault(power, []).append(kind)
        out["map_orders_used"] = used
    return out
