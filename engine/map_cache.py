"""Things built from a map once and kept while the map lives.

A :class:`GameMap` is immutable, so whatever is derived from it alone (a
grammar, a board with a canal open, the Favor board) stays right for as
long as the map exists; keyed weakly, it goes when the map goes (a
Diplomap board that no phase uses any more).
"""

from __future__ import annotations

import functools
import weakref
from collections.abc import Callable
from typing import TypeVar

from engine.map import GameMap

T = TypeVar("T")


def per_map(build: Callable[[GameMap], T]) -> Callable[[GameMap], T]:
    """``build``, called once per map; later calls return its first result."""
    made: weakref.WeakKeyDictionary[GameMap, T] = weakref.WeakKeyDictionary()

    @functools.wraps(build)
    def cached(game_map: GameMap) -> T:
        try:
            return made[game_map]
        except KeyError:
            result = build(game_map)
            made[game_map] = result
            return result

    return cached
