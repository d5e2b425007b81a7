"""A variant's other board, described for drawing (Dissolution's Favor map):
hexagonal cells in axial coordinates, grouped (a slice), some holding a
piece, and pools that hold any number (a Perimeter). The rules module
builds it (``Rules.other_board``); the judge draws it without knowing the
variant.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class HexCell:
    label: str
    q: int
    r: int
    group: str  # the cell's group (slice letter): its colour and its pool


@dataclass(frozen=True, slots=True)
class HexBoard:
    title: str
    cells: tuple[HexCell, ...]
    groups: Mapping[str, str] = field(default_factory=dict)  # group -> its power, named
    pieces: Mapping[str, str] = field(default_factory=dict)  # cell label -> the power on it
    pools: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # group -> powers there
