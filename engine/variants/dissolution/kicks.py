"""Dissolution §11.7.1-§11.7.2: violations kick Embassies down the Favor map.

After a Spring or Autumn movement, before its retreats, each violation
against a nuclear power kicks the offender's Embassy in that power's slice
(a violation against NATO kicks the US Navy Embassy too: the violation list
already has it twice). A kicked Embassy goes to the closest vacant hex of
lower Favor value in its slice, ties to the sorting letter first in
alphabetical order; with none, to the Perimeter; one already in the
Perimeter stays, kicked all the same. Several kicks in one slice are made
one at a time, in alphabetical order of the sorting letters of the spaces
the Embassies stand on; an Embassy kicked twice goes back in the queue at
the space its first kick left it on.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import ClassVar

from engine.state import GameState
from engine.variants.dissolution.favor_board import FavorBoard, closest, perimeter
from engine.variants.dissolution.state import of
from engine.variants.dissolution.violations import Violation


@dataclass(frozen=True, slots=True)
class Kick:
    """An Embassy moved down the Favor map for a violation (§11.7.1)."""

    power: str
    nuclear: str
    origin: str  # the space it stood on
    to: str  # the space it was kicked to (the same Perimeter when already there)

    json_names: ClassVar[Mapping[str, str]] = {"origin": "from"}  # 'from' is Python's

    def describe(self) -> str:
        if self.origin == self.to:
            return f"{self.power}'s Embassy with {self.nuclear} stays in {self.to} (kicked)"
        return f"{self.power}'s Embassy with {self.nuclear} kicked {self.origin} - {self.to}"


def apply_kicks(board: FavorBoard, state: GameState,
                violations: tuple[Violation, ...]) -> tuple[GameState, tuple[Kick, ...]]:
    part = of(state)
    if not violations or not part.embassies:
        return state, ()
    where = {(power, nuclear): space for power, nuclear, space in part.embassies}
    pending = Counter((v.power, v.nuclear) for v in violations
                      if (v.power, v.nuclear) in where)
    kicks: list[Kick] = []
    for letter, nuclear in board.slices.items():
        queue = {power: count for (power, whom), count in pending.items() if whom == nuclear}
        while queue:
            power = min(queue, key=lambda p: (board.spaces[where[p, nuclear]].letter, p))
            origin = where[power, nuclear]
            target = _kicked_to(board, letter, origin, where, nuclear)
            where[power, nuclear] = target
            kicks.append(Kick(power, nuclear, origin, target))
            queue[power] -= 1
            if queue[power] == 0:
                del queue[power]
    embassies = tuple(sorted((p, n, s) for (p, n), s in where.items()))
    kicked = part.kicked | {(k.power, k.nuclear) for k in kicks}
    return state.with_part(replace(part, embassies=embassies, kicked=kicked)), tuple(kicks)


def _kicked_to(board: FavorBoard, letter: str, origin: str,
               where: dict[tuple[str, str], str], nuclear: str) -> str:
    value = board.spaces[origin].value
    if value == 0:
        return origin
    taken = {space for (_, whom), space in where.items() if whom == nuclear}
    lower = [label for label in board.in_slice(letter)
             if 0 < board.spaces[label].value < value and label not in taken]
    return closest(board, origin, lower) or perimeter(letter)
