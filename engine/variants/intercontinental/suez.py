"""§5.2, the Suez Canal: Suez has two coasts, north on the East Mediterranean
and south on the Red Sea, until the canal opens; from Spring of the opening
year it is a canal with one coast, and a fleet on either coast stands in Suez.

The base board (intercontinental.toml) is the split form. The canal form is
the ``[suez_canal]`` table, because the format's ``[[canals]]`` can neither
merge two coasts nor drop adjacencies: ``opens`` (the year; 1870 by the text,
which lets a GM pick another for shorter games), ``province`` and ``fleet``,
the canal's fleet neighbours.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from engine.map import GameMap, Province, province_of
from engine.map_cache import per_map
from engine.state import GameState
from engine.units import Unit

TABLE = "suez_canal"


@dataclass(frozen=True, slots=True)
class Canal:
    """The ``[suez_canal]`` table, read."""

    opens: int
    province: str
    fleet: tuple[str, ...]


def read_canal(game_map: GameMap) -> tuple[Canal | None, list[tuple[tuple[str, ...], str]]]:
    """The canal table and its problems, each with its key path."""
    raw: Any = game_map.tables.get(TABLE)
    if raw is None:
        return None, [((TABLE,), "missing [suez_canal] table (§5.2)")]
    problems: list[tuple[tuple[str, ...], str]] = []
    opens = raw.get("opens") if isinstance(raw, dict) else None
    if not isinstance(opens, int) or isinstance(opens, bool):
        problems.append(((TABLE, "opens"), "opens is the year the canal opens"))
        opens = 0
    province = str(raw.get("province", "")) if isinstance(raw, dict) else ""
    prov = game_map.provinces.get(province)
    if prov is None or len(prov.coasts) < 2:
        problems.append(((TABLE, "province"), f"{province!r} is not a province with coasts"))
    fleet = raw.get("fleet", []) if isinstance(raw, dict) else []
    for place in fleet:
        if not game_map.is_location(str(place)) or province_of(str(place)) == province:
            problems.append(((TABLE, "fleet"), f"{place!r} is not a location beside {province}"))
    if problems:
        return None, problems
    return Canal(opens, province, tuple(str(p) for p in fleet)), []


def canal(game_map: GameMap) -> Canal:
    """The table as check_tables passed it on loading (unchecked here: on the
    canal form of the board Suez no longer has its coasts)."""
    raw: Any = game_map.tables[TABLE]
    return Canal(int(raw["opens"]), str(raw["province"]), tuple(str(p) for p in raw["fleet"]))


def is_open(game_map: GameMap, state: GameState) -> bool:
    """From Spring of the opening year: Winter of the year before is still split."""
    return state.phase.year >= canal(game_map).opens


@per_map  # the canal form of each base board, built once
def opened(game_map: GameMap) -> GameMap:
    """The board with the canal open: Suez without coasts, its fleet moves
    the canal's, and every neighbour's move to a coast of Suez a move to Suez."""
    suez = canal(game_map)
    code = suez.province
    coasts = set(game_map.locations_of(code)) - {code}
    fleet: dict[str, set[str]] = {}
    for loc, dsts in game_map.fleet_moves.items():
        if loc in coasts:
            continue
        fleet[loc] = {code if d in coasts else d for d in dsts}
    fleet[code] = set(suez.fleet)
    for place in suez.fleet:  # both directions, whichever coast touched it before
        fleet.setdefault(place, set()).add(code)
    provinces: dict[str, Province] = dict(game_map.provinces)
    provinces[code] = replace(provinces[code], coasts=())
    aliases: Mapping[str, str] = {
        spelling: code if location in coasts else location
        for spelling, location in game_map.aliases.items()}
    return replace(game_map, provinces=provinces, aliases=aliases,
                   fleet_moves={loc: frozenset(d) for loc, d in fleet.items()})


def shift_fleets(game_map: GameMap, units: tuple[Unit, ...]) -> tuple[Unit, ...]:
    """§5.2: a fleet on either coast of Suez when the canal opens stands in Suez."""
    code = canal(game_map).province
    return tuple(Unit(u.power, u.kind, code) if u.province == code and u.location != code
                 else u for u in units)
