"""Reading the keys of a phase written as JSON (`judge adjudicate`, docs/cli.md):
the one error for a key that cannot be used, naming the key, and the checks
every reader of such keys makes, the judge's and the variants' alike."""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from typing import Any

from engine.map import GameMap, normalise_name, power_named, province_of
from engine.map_cache import per_map


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


def place_code(game_map: GameMap, text: str) -> str:
    """The code of the place ``text`` names, by any alias the map knows,
    else as written (``stp(nc)`` is ``STP/NC``); unchecked."""
    code = game_map.aliases.get(normalise_name(text))
    return code if code is not None else text.upper().replace("(", "/").replace(")", "")


@per_map
def _codes_read(game_map: GameMap) -> set[str]:
    """The places read on a map that were written as their codes: a phase's
    JSON names the same places again and again (a set no bigger than the map)."""
    return set()


def place_in(game_map: GameMap, text: str, key: str) -> str:
    """The place ``text`` names on the map (a province or a coast)."""
    known = _codes_read(game_map)
    if text in known:
        return text
    code = place_code(game_map, text)
    if not game_map.is_location(code):
        raise PhaseInputError(f"{key}: unknown place {text!r}")
    if code == text:
        known.add(code)
    return code


def power_in(game_map: GameMap, name: Any, key: str) -> str:
    """The power ``name`` stands for, in any spelling the map knows; also
    the name of the province a power is named after (Dissolution's minors:
    "United Arab Emirates", "Baltic States", "Khm"), which orders read as
    the province but a key of powers can only mean the power."""
    power = power_named(game_map, str(name)) or _named_after(game_map, str(name))
    if power is None:
        raise PhaseInputError(f"{key}: unknown power {name!r} (the powers of "
                              f"{game_map.name}: {', '.join(game_map.powers)})")
    return power


def _named_after(game_map: GameMap, text: str) -> str | None:
    """The power bearing the name (or code) of the home province ``text`` names."""
    code = game_map.aliases.get(normalise_name(text))
    province = game_map.provinces.get(province_of(code)) if code else None
    if province is None:
        return None
    names = {_letters(province.name), _letters(province.code)}
    return next((power.name for power in game_map.powers.values()
                 if province.code in power.home
                 and names & {_letters(power.name), _letters(power.adjective)}), None)


def _letters(name: str) -> str:
    """A name compared by its letters alone: "St. John's" is ST_JOHNS, "Macão" MACAO."""
    plain = unicodedata.normalize("NFKD", name)
    return "".join(c for c in plain if c.isalnum()).lower()
