"""Dissolution's Favor map (§11.1): five slices of a honeycomb, one per
nuclear power, where each player's Embassy stands on a space whose number
is the player's Favor with that power.

A space's label is its slice letter, its Favor value and a sorting letter
(``N1u``, ``B3f``); each slice has 20 hexes (values 1 to 5) and a Perimeter
(``N0z``, value 0) next to every value-1 hex of its slice, which holds any
number of Embassies. Hexes touch where their honeycomb cells touch, across
slice borders too (Embassies support across them, never move).

The board is data, the ``[favor]`` table of the variant file: each hex's
axial coordinates on the honeycomb and the default setup; the slices'
nuclear powers are nuclear.py's. The layout there is a reconstruction (the rule text has only
pictures); ``check`` validates any layout a GM puts in its place.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from engine.map import GameMap
from engine.map_cache import per_map
from engine.variants.dissolution.nuclear import (
    NuclearPowers,
    nuclear_powers,
    read_nuclear,
    sound,
)

PERIMETER_LETTER = "z"
VALUES = range(1, 6)
# the six neighbours of a cell in axial coordinates (q, r)
_STEPS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


@dataclass(frozen=True, slots=True)
class Space:
    label: str  # 'N1u', or 'N0z' for a Perimeter
    slice: str  # the slice letter
    value: int  # the Favor value: 0 for a Perimeter
    letter: str  # the sorting letter

    @property
    def is_perimeter(self) -> bool:
        return self.value == 0


def perimeter(slice_letter: str) -> str:
    return f"{slice_letter}0{PERIMETER_LETTER}"


def parse_label(text: str) -> Space | None:
    """'N1u' (any case) -> its Space; 'N0z' -> a Perimeter; None if not a label."""
    text = text.strip()
    if len(text) != 3 or not text.isascii():
        return None
    letter, value, sort = text[0].upper(), text[1], text[2].lower()
    if not letter.isalpha():
        return None
    if value == "0" and sort == PERIMETER_LETTER:
        return Space(perimeter(letter), letter, 0, PERIMETER_LETTER)
    if value in "12345" and sort.isalpha() and sort != PERIMETER_LETTER:
        return Space(f"{letter}{value}{sort}", letter, int(value), sort)
    return None


@dataclass(frozen=True, eq=False)
class FavorBoard:
    slices: Mapping[str, str]  # slice letter -> nuclear power
    cells: Mapping[str, tuple[int, int]]  # hex label -> axial coordinates
    setups: Mapping[str, Mapping[str, tuple[str, ...]]] = field(default_factory=dict)

    @cached_property
    def spaces(self) -> Mapping[str, Space]:
        out: dict[str, Space] = {}
        for label in self.cells:
            space = parse_label(label)
            assert space is not None
            out[label] = space
        for letter in self.slices:
            out[perimeter(letter)] = Space(perimeter(letter), letter, 0, PERIMETER_LETTER)
        return out

    @cached_property
    def slice_of(self) -> Mapping[str, str]:
        """Nuclear power -> its slice letter."""
        return {nuclear: letter for letter, nuclear in self.slices.items()}

    @cached_property
    def neighbours(self) -> Mapping[str, frozenset[str]]:
        """Every space and the spaces it borders (any slice); a Perimeter
        borders the value-1 hexes of its own slice."""
        at = {xy: label for label, xy in self.cells.items()}
        out: dict[str, set[str]] = {label: set() for label in self.spaces}
        for label, (q, r) in self.cells.items():
            for dq, dr in _STEPS:
                other = at.get((q + dq, r + dr))
                if other is not None:
                    out[label].add(other)
            space = self.spaces[label]
            if space.value == 1:
                out[label].add(perimeter(space.slice))
                out[perimeter(space.slice)].add(label)
        return {label: frozenset(near) for label, near in out.items()}

    def in_slice(self, letter: str) -> list[str]:
        return sorted(label for label, s in self.spaces.items() if s.slice == letter)

    def moves(self, label: str) -> frozenset[str]:
        """Where an Embassy on ``label`` may move: bordering spaces of its slice."""
        letter = self.spaces[label].slice
        return frozenset(n for n in self.neighbours[label] if self.spaces[n].slice == letter)

    def distances(self, label: str) -> Mapping[str, int]:
        """Steps from ``label`` to every hex of its slice, through hexes of
        that slice only (the Perimeter is no short cut)."""
        letter = self.spaces[label].slice
        dist = {label: 0}
        queue = deque([label])
        while queue:
            here = queue.popleft()
            for near in self.neighbours[here]:
                space = self.spaces[near]
                if near not in dist and space.slice == letter and not space.is_perimeter:
                    dist[near] = dist[here] + 1
                    queue.append(near)
        return dist


def closest(board: FavorBoard, origin: str, candidates: Iterable[str]) -> str | None:
    """The candidate hex nearest to ``origin``; ties go to the sorting letter
    first in alphabetical order (§11.7.1, §11.7.3)."""
    dist = board.distances(origin)
    ranked = sorted((dist[c], board.spaces[c].letter, c) for c in candidates if c in dist)
    return ranked[0][2] if ranked else None


# -- reading the [favor] table ---------------------------------------------------

@per_map
def favor_board(game_map: GameMap) -> FavorBoard:
    """The map's Favor board, read from its ``[favor]`` table once."""
    return sound(read_board(game_map))


def read_board(game_map: GameMap, nuclear: NuclearPowers | None = None
               ) -> tuple[FavorBoard, list[tuple[tuple[str, ...], str]]]:
    """The board in the map's ``[favor]`` table, and every problem found in
    its hexes and setups (those of the nuclear powers themselves are
    nuclear.py's to report)."""
    problems: list[tuple[tuple[str, ...], str]] = []
    raw = game_map.tables.get("favor")
    if not isinstance(raw, dict):
        return FavorBoard({}, {}), [(("favor",), "a [favor] table is needed")]
    if nuclear is None:
        nuclear = read_nuclear(game_map)[0]
    slices = {letter: power for power, letter in nuclear.slices.items()}
    cells = _cells(raw.get("hexes"), slices, problems)
    board = FavorBoard(slices, cells)
    setups = {}
    for name, setup in (raw.get("setups") or {}).items():
        positions = read_setup(game_map, board, setup, ("favor", "setups", name), problems,
                               nuclear=nuclear)
        setups[name] = positions
    if "default" not in setups:
        problems.append((("favor", "setups"), "a [favor.setups.default] table is needed"))
    return FavorBoard(slices, cells, setups), problems


def _cells(raw: Any, slices: Mapping[str, str],
           problems: list[tuple[tuple[str, ...], str]]) -> dict[str, tuple[int, int]]:
    if not isinstance(raw, dict):
        problems.append((("favor", "hexes"), "hexes: a table LABEL = [q, r]"))
        return {}
    cells: dict[str, tuple[int, int]] = {}
    taken: dict[tuple[int, int], str] = {}
    for label, xy in raw.items():
        path = ("favor", "hexes", label)
        space = parse_label(label)
        if space is None or space.label != label or space.is_perimeter:
            problems.append((path, f"{label!r} is not a hex label like N1u (slice, value "
                                   "1-5, sorting letter)"))
            continue
        if space.slice not in slices:
            problems.append((path, f"no slice {space.slice}"))
            continue
        if not (isinstance(xy, list) and len(xy) == 2 and all(
                isinstance(v, int) and not isinstance(v, bool) for v in xy)):
            problems.append((path, "a hex's place is two whole numbers: [q, r]"))
            continue
        at = (xy[0], xy[1])
        if at in taken:
            problems.append((path, f"{label} and {taken[at]} are on the same cell"))
            continue
        taken[at] = label
        cells[label] = at
    for letter in slices:
        for value in VALUES:
            count = sum(1 for label in cells if label[0] == letter and label[1] == str(value))
            if count == 0:
                problems.append((("favor", "hexes"), f"slice {letter} has no hex of value {value}"))
    return cells


def read_setup(game_map: GameMap, board: FavorBoard, raw: Any, path: tuple[str, ...],
               problems: list[tuple[tuple[str, ...], str]],
               check_values: bool = True, nuclear: NuclearPowers | None = None
               ) -> dict[str, tuple[str, ...]]:
    """A setup: each played power's Embassy spaces, one per slice, on hexes
    of the power's starting Favor values (§11.2); no two on one hex."""
    start = (nuclear or nuclear_powers(game_map)).start
    played = [n for n, p in game_map.powers.items() if not p.ordered_by_bids]
    if not isinstance(raw, dict):
        problems.append((path, "a setup is a table POWER = [space, ...]"))
        return {}
    positions: dict[str, tuple[str, ...]] = {}
    taken: dict[str, str] = {}
    for power in played:
        spaces = raw.get(power)
        if not isinstance(spaces, list | tuple) or not all(isinstance(s, str) for s in spaces):
            problems.append((path, f"{power} needs a list of its Embassies' spaces"))
            continue
        labels = []
        for text in spaces:
            space = parse_label(text)
            if space is None or space.label not in board.spaces:
                problems.append(((*path, power), f"{text!r} is not a space of the Favor map"))
                continue
            labels.append(space.label)
        if sorted(board.spaces[s].slice for s in labels) != sorted(board.slices):
            problems.append(((*path, power), "one Embassy in each slice"))
            continue
        for label in labels:
            space = board.spaces[label]
            with_power = board.slices[space.slice]
            wanted = start.get(power, {}).get(with_power)
            if check_values and wanted is not None and space.value != wanted:
                problems.append(((*path, power), f"{label} is worth {space.value}; {power} "
                                                 f"starts with Favor {wanted} with {with_power}"))
            if not space.is_perimeter:
                if label in taken:
                    problems.append(((*path, power), f"{label} is also {taken[label]}'s"))
                taken[label] = power
        positions[power] = tuple(labels)
    for power in raw:
        if power not in played:
            problems.append(((*path, power), f"{power} is not a played power"))
    return positions
