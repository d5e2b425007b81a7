"""Reading the keys of a phase written as JSON (`judge adjudicate`, docs/cli.md):
the one error for a key that cannot be used, naming the key, and the checks
every reader of such keys makes, the judge's and the variants' alike."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.map import GameMap, power_named


class PhaseInputError(ValueError):
    """A key of a phase's JSON that cannot be used; the message names it."""


def table(data: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    """An object under ``key`` (empty when absent)."""
    value = data.get(key, {})
    if not isinstance(value, dict):
        raise PhaseInputError(f"{key} must be an object")
    return value


def listed(data: Mapping[str, Any], key: str) -> list[Any]:
    """A list under ``key`` (empty when absent)."""
    value = data.get(key, [])
    if not isinstance(value, list):
        raise PhaseInputError(f"{key} must be a list")
    return value


def power_in(game_map: GameMap, name: Any, key: str) -> str:
    """The power ``name`` stands for, in any spelling the map knows."""
    power = power_named(game_map, str(name))
    if power is None:
        raise PhaseInputError(f"{key}: unknown power {name!r}")
    return power
