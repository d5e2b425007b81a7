"""The board of a season, where terrain changes with the seasons (DPJudge's
``IN SPRING: WATER ARC``; the variant file's [seasonal.X] tables).

A seasonal province has one passable kind (water, land or coastal) and is
impassable in the seasons that say so: then no move enters or leaves it,
and a unit caught there hibernates (DPJudge's HIBERNATE: it may only hold,
engine/flag_rules.py). The standard rules' ``map_for`` asks for the board
of the phase's season (engine/rules.py).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import replace
from weakref import WeakKeyDictionary

from engine.map import GameMap, Seasonal, Terrain, UnitKind, province_of


def unplayable(flags: Collection[str], seasonal: bool) -> str | None:
    """Why a map whose terrain changes with the season (``seasonal``) is not
    offered with these flags in force, or None: without HIBERNATE DPJudge
    destroys a unit whose place closes (Rules.txt), which the engine does not do."""
    if seasonal and "HIBERNATE" not in flags:
        return "terrain that changes with the season is played with DPJudge rule HIBERNATE only"
    return None


_BOARDS: WeakKeyDictionary[GameMap, dict[str, GameMap]] = WeakKeyDictionary()


def in_season(game_map: GameMap, season: str) -> GameMap:
    """The board in phases of ``season`` (a season's letter): the map
    itself when its terrain is the same then."""
    seasonal = game_map.seasonal
    if seasonal is None:
        return game_map
    changes = {p: t for p, t in seasonal.terrain.get(str(season), {}).items()
               if game_map.provinces[p].terrain is not t}
    if not changes:
        return game_map
    boards = _BOARDS.setdefault(game_map, {})
    board = boards.get(str(season))
    if board is None:
        board = boards[str(season)] = _board(game_map, seasonal, changes)
    return board


def may_stand(game_map: GameMap, kind: UnitKind, location: str) -> bool:
    """Whether a unit of this kind may be at this location in some phase:
    on the map, or on a season's board (a fleet that sailed into Loeb9's
    Arctic in Spring hibernates there through the Fall, when it is shut)."""
    if game_map.can_stand(kind, location):
        return True
    seasons = game_map.seasonal.terrain if game_map.seasonal is not None else {}
    return any(in_season(game_map, season).can_stand(kind, location) for season in seasons)


def _board(game_map: GameMap, seasonal: Seasonal, changes: Mapping[str, Terrain]) -> GameMap:
    provinces = {code: replace(prov, terrain=changes[code]) if code in changes else prov
                 for code, prov in game_map.provinces.items()}
    closed = frozenset(p for p, prov in provinces.items()
                       if prov.terrain is Terrain.IMPASSABLE)
    army, fleet = open_moves(seasonal, closed)
    return replace(game_map, provinces=provinces, army_moves=army, fleet_moves=fleet)


def open_moves(seasonal: Seasonal, closed: frozenset[str]
               ) -> tuple[dict[str, frozenset[str]], dict[str, frozenset[str]]]:
    """Every move of the board but those into or out of the ``closed``
    provinces; a closed place keeps its (empty) list, so that the unit
    hibernating there has one."""
    army = {p: frozenset() if p in closed else frozenset(d for d in dsts if d not in closed)
            for p, dsts in seasonal.army.items()}
    fleet = {loc: frozenset() if province_of(loc) in closed
             else frozenset(d for d in dsts if province_of(d) not in closed)
             for loc, dsts in seasonal.fleet.items()}
    return army, fleet
