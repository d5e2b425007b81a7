"""A variant's other board, described for drawing (Dissolution's Favor map):
hexagonal cells in axial coordinates, grouped (a slice), some holding a
piece, and pools that hold any number (a Perimeter). The rules module
builds it (``Rules.other_board``) from the position and what the phase just
adjudicated did there (:class:`Happened`); the judge draws it without
knowing the variant.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.orders import Order
from engine.state import GameState

# what moved a piece, as its arrow is drawn
MOVE = "move"  # its own order (solid when it succeeded, dashed when it failed)
RETREAT = "retreat"  # dislodged, it went where the rules send it
KICK = "kick"  # the rules moved it as a penalty, for a reason told in the legend


@dataclass(frozen=True, slots=True)
class HexCell:
    """One hex of a variant's other board."""

    label: str
    q: int
    r: int
    group: str  # the cell's group (slice letter): its colour and its pool


@dataclass(frozen=True, slots=True)
class HexArrow:
    """A piece's way from one cell (or pool) to another in the phase drawn."""

    power: str
    origin: str  # a cell's label, or a group's pool as its group ('N')
    to: str
    kind: str = MOVE  # MOVE, RETREAT or KICK
    succeeded: bool = True
    why: str = ""  # a kick's reason, for the legend


@dataclass(frozen=True, slots=True)
class Happened:
    """What the phase drawn over the other board did, as the judge has it
    both just after adjudicating and from a stored phase: the position it
    was played from, each order for a piece of the other board with whether
    it succeeded, and each report section's lines as JSON (their facts'
    fields, engine/reports.py)."""

    before: GameState | None = None
    orders: tuple[tuple[str, Order, bool], ...] = ()
    reported: Mapping[str, tuple[Mapping[str, Any], ...]] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class HexBoard:
    """A variant's other board of hexes, as drawn."""

    title: str
    cells: tuple[HexCell, ...]
    groups: Mapping[str, str] = field(default_factory=dict)  # group -> its power, named
    pieces: Mapping[str, str] = field(default_factory=dict)  # cell label -> the power on it
    pools: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # group -> powers there
    pool_labels: Mapping[str, str] = field(default_factory=dict)  # group -> its pool's name
    # the cells each group's pool borders (a Perimeter: the value-1 hexes)
    pool_cells: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    tints: Mapping[str, str] = field(default_factory=dict)  # group -> its fill, '#rrggbb'
    # power -> the letters drawn for it, where they differ from its letter
    names: Mapping[str, str] = field(default_factory=dict)
    arrows: tuple[HexArrow, ...] = ()
