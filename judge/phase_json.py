"""The JSON form of one phase, as read and written by `judge adjudicate`.

The contract is documented in docs/cli.md. Input errors raise
:class:`PhaseInputError` with a message that names the offending key.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.game import Resolution, adjudicate
from engine.map import GameMap
from engine.movement import retreat_options
from engine.orders import Order
from engine.phase import Phase
from engine.state import Dislodged, GameState
from engine.units import Unit
from engine.variant_file import load_variant, normalise_name
from parser import OrderError, parse_order


class PhaseInputError(ValueError):
    pass


def _power(game_map: GameMap, name: Any, key: str) -> str:
    power = game_map.power_aliases.get(normalise_name(str(name)))
    if power is None:
        raise PhaseInputError(f"{key}: unknown power {name!r}")
    return power


def _location(game_map: GameMap, text: str, key: str) -> str:
    code = game_map.aliases.get(normalise_name(text))
    if code is None:
        code = text.upper().replace("(", "/").replace(")", "")
    if not game_map.is_location(code):
        raise PhaseInputError(f"{key}: unknown place {text!r}")
    return code


def _unit(game_map: GameMap, power: str, text: Any, key: str) -> Unit:
    parts = str(text).split(None, 1)
    if len(parts) != 2 or parts[0].upper() not in ("A", "F"):
        raise PhaseInputError(f"{key}: unit {text!r} is not like 'A PAR' or 'F STP/SC'")
    unit = Unit.parse(power, f"{parts[0]} {_location(game_map, parts[1], key)}")
    if not game_map.can_stand(unit.kind, unit.location):
        raise PhaseInputError(f"{key}: a {unit.kind.noun} cannot stand on {unit.location}")
    return unit


def _dict(data: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    value = data.get(key, {})
    if not isinstance(value, dict):
        raise PhaseInputError(f"{key} must be an object")
    return value


def read_state(data: Mapping[str, Any]) -> tuple[GameMap, GameState]:
    if not isinstance(data, dict):
        raise PhaseInputError("the phase must be a JSON object")
    try:
        game_map = load_variant(str(data.get("variant", "standard")))
    except KeyError as exc:
        raise PhaseInputError(f"variant: {exc.args[0]}") from None
    try:
        phase = Phase.parse(str(data.get("phase", "")))
    except ValueError as exc:
        raise PhaseInputError(f"phase: {exc}") from None
    units: list[Unit] = []
    for name, texts in _dict(data, "units").items():
        power = _power(game_map, name, "units")
        units.extend(_unit(game_map, power, t, f"units.{power}") for t in texts)
    seen: set[str] = set()
    for unit in units:
        if unit.province in seen:
            raise PhaseInputError(f"units: two units in {unit.province}")
        seen.add(unit.province)
    centres: dict[str, list[str]] = {}
    for name, provs in _dict(data, "centers").items():
        power = _power(game_map, name, "centers")
        centres[power] = [_location(game_map, str(p), f"centers.{power}") for p in provs]
    contested = frozenset(_location(game_map, str(p), "contested")
                          for p in data.get("contested", []))
    occupied = {u.province for u in units}
    dislodged = []
    for name, entries in _dict(data, "dislodged").items():
        power = _power(game_map, name, "dislodged")
        for text, info in entries.items():
            unit = _unit(game_map, power, text, f"dislodged.{power}")
            attacker = _location(game_map, str(info.get("attacker", "")),
                                 f"dislodged.{power}.{text}.attacker")
            by_convoy = bool(info.get("by_convoy", False))
            dislodged.append(Dislodged(unit, attacker, by_convoy, retreat_options(
                game_map, unit, attacker, by_convoy, occupied, contested, frozenset())))
    state = GameState(
        variant=game_map.name,
        phase=phase,
        units=tuple(units),
        owners=GameState.make_owners(centres),
        dislodged=tuple(dislodged),
        contested=contested,
        victory=game_map.victory,
    )
    return game_map, state


def read_orders(
    game_map: GameMap, data: Mapping[str, Any]
) -> tuple[dict[str, list[Order]], list[dict[str, Any]]]:
    """Parse the "orders" key; orders that cannot be read become illegal result rows."""
    orders: dict[str, list[Order]] = {}
    unreadable: list[dict[str, Any]] = []
    for name, texts in _dict(data, "orders").items():
        power = _power(game_map, name, "orders")
        if isinstance(texts, str):
            texts = [texts]
        for text in texts:
            parsed = parse_order(str(text), game_map)
            if isinstance(parsed, OrderError):
                unreadable.append({"power": power, "order": str(text), "outcome": "illegal",
                                   "reason": str(parsed), "why": {"why": "unreadable"}})
            else:
                orders.setdefault(power, []).append(parsed)
    return orders, unreadable


def _units_json(units: tuple[Unit, ...]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for unit in units:
        out.setdefault(unit.power, []).append(str(unit))
    return out


def write_state(state: GameState) -> dict[str, Any]:
    centres: dict[str, list[str]] = {}
    for centre, power in state.owners:
        centres.setdefault(power, []).append(centre)
    dislodged: dict[str, dict[str, Any]] = {}
    for d in state.dislodged:
        entry: dict[str, Any] = {"attacker": d.attacker, "retreats": list(d.retreats)}
        if d.by_convoy:
            entry["by_convoy"] = True
        dislodged.setdefault(d.unit.power, {})[str(d.unit)] = entry
    return {
        "variant": state.variant,
        "phase": str(state.phase),
        "units": _units_json(state.units),
        "centers": centres,
        "dislodged": dislodged,
        "contested": sorted(state.contested),
    }


def write_resolution(
    resolution: Resolution, unreadable: list[dict[str, Any]] | None = None
) -> dict[str, Any]:
    results = list(unreadable or [])
    for result in resolution.results:
        results.append({
            "power": result.power,
            "order": str(result.order),
            "outcome": result.outcome.value,
            "reason": result.reason.describe() if result.reason else None,
            **({"why": result.reason.to_json()} if result.reason else {}),
        })
    out: dict[str, Any] = {
        "phase": str(resolution.state.phase),
        "results": results,
        "next": write_state(resolution.next),
    }
    if resolution.winner:
        out["winner"] = resolution.winner
    return out


def adjudicate_json(data: Mapping[str, Any]) -> dict[str, Any]:
    game_map, state = read_state(data)
    orders, unreadable = read_orders(game_map, data)
    return write_resolution(adjudicate(game_map, state, orders), unreadable)
