"""The board a Diplomap phase's lines are read on (§III.B): the board in
force, which also knows the names of the provinces split since the phase
before, where displaced units still stand until they choose their part
(``A Bur R Bur-N``)."""

from __future__ import annotations

import weakref
from dataclasses import replace

from engine.map import GameMap, province_of

_WITH_FORMER: weakref.WeakKeyDictionary[GameMap, tuple[weakref.ref[GameMap], GameMap]] = (
    weakref.WeakKeyDictionary())


def with_former_names(board: GameMap, before: GameMap) -> GameMap:
    """A map for *reading* orders on ``board`` that also knows the places of
    ``before`` that are gone: in the retreat phase after a Draw, a displaced
    unit still stands in the province that was split (``A Bur R Bur-N``,
    §III.B), which the board in force no longer has. The names of ``board``
    win where both have one. Only for parsing: adjudicate on ``board``.
    Cached per pair, so the grammar is built once."""
    if board is before:
        return board
    cached = _WITH_FORMER.get(board)
    if cached is not None and cached[0]() is before:
        return cached[1]
    gone = {code: p for code, p in before.provinces.items() if code not in board.provinces}
    names = {key: loc for key, loc in before.aliases.items() if province_of(loc) in gone}
    both = replace(board, provinces={**board.provinces, **gone},
                   aliases={**names, **board.aliases})
    _WITH_FORMER[board] = (weakref.ref(before), both)
    return both
