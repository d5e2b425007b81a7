"""Things built from a map once and kept while the map lives.

A :class:`GameMap` is immutable, so whatever is derived from it alone (a
grammar, a board with a canal open, the Favor board) stays right for as
long as the map exists. It is kept in the map's own ``__dict__`` (as
``functools.cached_property`` keeps its values), so it goes when the map
goes (a Diplomap board that no phase uses any more), even when it refers
back to the map; and finding it is one dictionary look-up, which the
readers of a phase's JSON make for every unit and place.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TypeVar

from engine.map import GameMap

T = TypeVar("T")


def per_map(build: Callable[[GameMap], T]) -> Callable[[GameMap], T]:
    """``build``, called once per map; later calls return its first result."""
    key = f"per_map:{build.__module__}.{build.__qualname__}"

    @functools.wraps(build)
    def cached(game_map: GameMap) -> T:
        made = game_map.__dict__
        try:
            return made[key]  # type: ignore[no-any-return]
        except KeyError:
            result = made[key] = build(game_map)
            return result

    return cached
