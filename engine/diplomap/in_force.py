"""The board in force: a variant's base map with a game's changes applied.

Every phase's board is the base map plus ``state.map_changes``; the same
changes on the same base give the same GameMap object (cached), so the
adjacency caches of a map in force are built once per board, not per phase.
"""

from __future__ import annotations

import weakref
from collections.abc import Sequence
from dataclasses import replace
from functools import lru_cache

from engine.diplomap import changes as do
from engine.diplomap.board import Board
from engine.diplomap.values import MapChange, Merge, Rename, Split
from engine.map import GameMap

# The working board behind each map in force, for the next changes to start from.
_BOARDS: weakref.WeakKeyDictionary[GameMap, Board] = weakref.WeakKeyDictionary()
_BASES: dict[int, GameMap] = {}


def board_of(game_map: GameMap) -> Board:
    """The working board a map stands for (a fresh one for a base map)."""
    board = _BOARDS.get(game_map)
    if board is None:
        board = Board.of(game_map)
        _BOARDS[game_map] = board
    return board


def apply_changes(base: GameMap, changes: Sequence[MapChange]) -> GameMap:
    """The board after ``changes``, in order; cached by (base, changes)."""
    if not changes:
        return base
    _BASES[id(base)] = base  # keeps the id meaningful while the cache holds it
    return _apply(id(base), tuple(changes))


@lru_cache(maxsize=256)
def _apply(base_id: int, changes: tuple[MapChange, ...]) -> GameMap:
    base = _BASES[base_id]
    before = apply_changes(base, changes[:-1]) if len(changes) > 1 else base
    board = board_of(before).copy()
    apply_one(board, changes[-1])
    result = board.game_map()
    _BOARDS[result] = board
    return result


def apply_one(board: Board, change: MapChange) -> None:
    """Carry out one recorded change on a working board."""
    if isinstance(change, Split):
        do.split(board, change.province, change.ring_start, change.ring_end, change.parts,
                 change.names, change.centre)
    elif isinstance(change, Merge):
        do.merge(board, *change.provinces, change.into, change.name)
    elif isinstance(change, Rename):
        do.rename(board, change.code, change.new_code, change.name)


def rename(game_map: GameMap, code: str, new_code: str, name: str) -> Rename:
    """A GM's name for a province of the board in force (§II.H), checked:
    ValueError when the province is unknown or the code or name is taken."""
    from engine.variant_file import normalise_name
    board = board_of(game_map)
    code = code.upper()
    new_code = new_code.strip().upper()
    if code not in board.provinces:
        raise ValueError(f"no province {code} on the board")
    if not new_code or any(c in new_code for c in " /") or not name.strip():
        raise ValueError("a province needs a code without spaces or slashes, and a name")
    for spelling in (new_code, name):
        owner = board.aliases.get(normalise_name(spelling))
        if (spelling == new_code and new_code in board.provinces and new_code != code) or (
                owner is not None and owner.partition("/")[0] != code):
            raise ValueError(f"{spelling!r} already names {owner or new_code}")
    return Rename(code, new_code, name.strip())


def with_diplomap(game_map: GameMap) -> GameMap:
    """The map with Diplomap's rules switched on (``CREATE ... diplomap on``)."""
    if not game_map.rings:
        raise ValueError(f"variant {game_map.name} has no [rings]: Diplomap needs them")
    if game_map.tables.get("diplomap"):
        return game_map
    # one object per base map, so the boards in force cached for it are found again
    known = _DIPLOMAP.get(id(game_map))
    if known is None or known[0] is not game_map:
        known = (game_map, replace(game_map, tables={**game_map.tables, "diplomap": True}))
        _DIPLOMAP[id(game_map)] = known
    return known[1]


_DIPLOMAP: dict[int, tuple[GameMap, GameMap]] = {}
