"""The board in force: a variant's base map with a game's changes applied.

Every phase's board is the base map plus the changes kept in Diplomap's
part of the position (state.py); the same changes on the same base give
the same GameMap object (cached), so the adjacency caches of a map in
force are built once per board, not per phase.
"""

from __future__ import annotations

import weakref
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import replace

from engine.diplomap import changes as do
from engine.diplomap.board import WorkingBoard
from engine.diplomap.values import MapChange, Merge, Rename, Split
from engine.map import GameMap, normalise_name

# The working board behind each map in force, for the next changes to start from.
_BOARDS: weakref.WeakKeyDictionary[GameMap, WorkingBoard] = weakref.WeakKeyDictionary()
_BASES: dict[int, GameMap] = {}


def board_of(game_map: GameMap) -> WorkingBoard:
    """The working board a map stands for (a fresh one for a base map)."""
    board = _BOARDS.get(game_map)
    if board is None:
        board = WorkingBoard.of(game_map)
        _BOARDS[game_map] = board
    return board


def share_board(game_map: GameMap, like: GameMap) -> None:
    """``game_map`` is ``like`` with something added that changes no province
    (canals opened): it stands for the same board."""
    if game_map not in _BOARDS:
        _BOARDS[game_map] = board_of(like)


def apply_changes(base: GameMap, changes: Sequence[MapChange]) -> GameMap:
    """The board after ``changes``, in order; the same (base, changes) give
    the same object. A phase's board is usually the last one's plus a
    change or two, so a board is built from the longest cached one before it."""
    if not changes:
        return base
    changes = tuple(changes)
    # Hashing a long tuple of changes costs more than the rest of a lookup:
    # the very tuple asked for last time is recognised by identity first.
    seen = _SAME.get(id(changes))
    if seen is not None and seen[0] is changes and seen[1] is base:
        return seen[2]
    found = _cached(base, changes)
    if found is not None:
        return found
    start, before = 0, base
    for back in (1, 2, 3):  # the last phase's board, or one a few changes back
        if len(changes) > back:
            cached = _CACHE.get((id(base), changes[:-back]))
            if cached is not None:
                start, before = len(changes) - back, cached
                break
    board = board_of(before).copy()
    for change in changes[start:]:  # no recursion: a long game has hundreds
        apply_one(board, change)
    return _keep(base, changes, board)


def adopt(base: GameMap, changes: Sequence[MapChange], board: WorkingBoard) -> GameMap:
    """The board after ``changes`` when ``board`` has just carried them out
    (a phase's own working board): the same map :func:`apply_changes`
    would build, without carrying the changes out again."""
    changes = tuple(changes)
    return _cached(base, changes) or _keep(base, changes, board)


def _cached(base: GameMap, changes: tuple[MapChange, ...]) -> GameMap | None:
    found = _CACHE.get((id(base), changes))
    if found is not None:
        _remember(base, changes, found)
    return found


def _keep(base: GameMap, changes: tuple[MapChange, ...], board: WorkingBoard) -> GameMap:
    """The map of a board that carries out ``changes``, cached for them."""
    _BASES[id(base)] = base  # keeps the id meaningful while the cache holds it
    result = board.game_map()
    _BOARDS[result] = board
    _CACHE[(id(base), changes)] = result
    if len(_CACHE) > _CACHE_SIZE:
        _CACHE.popitem(last=False)  # the oldest board built
    _remember(base, changes, result)
    return result


def forget(base: GameMap, changes: Sequence[MapChange]) -> None:
    """Drop the board after ``changes`` from the cache (benchmarks: a
    deadline meets the board after its own changes for the first time)."""
    changes = tuple(changes)
    found = _CACHE.pop((id(base), changes), None)
    for known, seen in list(_SAME.items()):
        if seen[2] is found or seen[0] == changes:
            del _SAME[known]


def _remember(base: GameMap, changes: tuple[MapChange, ...], result: GameMap) -> None:
    if len(_SAME) > 64:
        _SAME.clear()
    _SAME[id(changes)] = (changes, base, result)


_CACHE: OrderedDict[tuple[int, tuple[MapChange, ...]], GameMap] = OrderedDict()
_CACHE_SIZE = 512
# id of a changes tuple -> (that tuple, kept alive so the id stays its own, base, board)
_SAME: dict[int, tuple[tuple[MapChange, ...], GameMap, GameMap]] = {}


def apply_one(board: WorkingBoard, change: MapChange) -> None:
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
