"""The values Diplomap's parts share: map orders as players give them,
the changes they make to the board, and their results.

Diplomap (rule text ru12 by Michael Harvath, CC BY-SA 4.0) lets players
redraw the borders of the board during play. A game's board is the base
map of its variant plus the changes so far (``DiplomapState.map_changes``, state.py),
so every phase carries the board it was played on.

Borders are named as the rule text names them: ``Gal/War`` is the border
between Galicia and Warsaw, and ``EDGE`` (spelled ``OTB``, "off the board",
or ``Edge`` by players) stands for the board's edge.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar

EDGE = "EDGE"  # the board's edge in a ring (engine/rings.py uses the same word)


@dataclass(frozen=True, slots=True)
class Side:
    """Which part of a split province is meant: by a compass word
    (``"N"``, ``"SW"``...) or by a neighbour only that part borders."""

    compass: str | None = None
    neighbour: str | None = None

    def __str__(self) -> str:
        """As a player writes it after 'SC': 'in N', 'with BUR', and a
        loop's two parts as the rule text calls them, 'inside' and
        'outside' (§II.G.2), never the parts' code letters 'in I', 'in O'."""
        if self.compass is not None:
            return _LOOP_SIDES.get(self.compass, f"in {self.compass}")
        return f"with {self.neighbour}"


# a loop's parts (engine/diplomap/board.py INNER, OUTER), said as the players say them
_LOOP_SIDES = {"I": "inside", "O": "outside"}


@dataclass(frozen=True, slots=True)
class Draw:
    """``Draw Gal/War - Gal/Bud``: a new border inside the province both
    borders belong to, from the first border to the second (§II.A.1). A
    loop (``Draw Por/Spa - Por/Spa inside Por``) starts and ends on one
    border and names the province it lies in (§II.G.2)."""

    start: tuple[str, str]  # (province, neighbour) as written, location codes
    end: tuple[str, str]
    inside: str | None = None  # a loop's province
    centre: Side | None = None  # where a split supply centre goes (§II.E)

    def __str__(self) -> str:
        text = f"DRAW {'/'.join(self.start)} - {'/'.join(self.end)}"
        if self.inside is not None:
            text += f" INSIDE {self.inside}"
        if self.centre is not None:
            text += f" SC {self.centre}"
        return text


@dataclass(frozen=True, slots=True)
class Erase:
    """``Erase Gal/War``: the border goes and the two provinces become one (§II.A.2)."""

    border: tuple[str, str]

    def __str__(self) -> str:
        return f"ERASE {'/'.join(self.border)}"


MapOrder = Draw | Erase


@dataclass(frozen=True, slots=True)
class Anchor:
    """A point on a border of the *base* map, for drawing: on the border
    between base province ``province`` and ``neighbour`` (a base province,
    ``EDGE``, or ``LINE:n`` for the n-th line drawn in the game), ``at`` a
    fraction 0..1 along that border going clockwise round ``province``."""

    province: str
    neighbour: str
    at: float


@dataclass(frozen=True, slots=True)
class Split:
    """A Draw carried out: ``province`` (a code of the board it was drawn
    on) became ``parts``; the line is the game's ``line``-th."""

    # a change as a report line's fields (engine/reports.py) says its kind
    # by its first key, as its record does (records.py: 'split', 'merge', 'rename')
    json_names: ClassVar[Mapping[str, str]] = {"province": "split"}

    province: str
    parts: tuple[str, str]  # the new provinces' codes
    names: tuple[str, str]  # and their full names
    line: int  # 1, 2, ... in the order lines were drawn in the game
    start: Anchor
    end: Anchor
    base: str  # the base-map province the line crosses (drawing)
    loop: bool = False
    centre: str | None = None  # the part holding the supply centre, if any
    # internal to engine/diplomap: where the line meets each ring, so that
    # replaying the changes gives the same board
    ring_start: int = 0
    ring_end: int = 0

    def __hash__(self) -> int:
        # boards are cached by their changes: a phase hashes every change so
        # far, so hash the few fields that tell changes apart (equal changes
        # still hash alike)
        return hash((self.province, self.parts, self.line))


@dataclass(frozen=True, slots=True)
class Merge:
    """An Erase carried out: ``provinces`` became ``into``."""

    json_names: ClassVar[Mapping[str, str]] = {"provinces": "merge"}

    provinces: tuple[str, str]
    into: str
    name: str
    # the stretches of border that vanished, for drawing: (anchor from, anchor to)
    erased: tuple[tuple[Anchor, Anchor], ...] = ()

    def __hash__(self) -> int:  # as Split's: the fields that tell merges apart
        return hash((self.provinces, self.into))


@dataclass(frozen=True, slots=True)
class Rename:
    """A GM's name for a new province (§II.H): ``code`` is now ``new_code``, ``name``."""

    json_names: ClassVar[Mapping[str, str]] = {"code": "rename", "new_code": "to"}

    code: str
    new_code: str
    name: str


MapChange = Split | Merge | Rename


@dataclass(frozen=True, slots=True)
class MapOrderResult:
    """A map order's fate at the deadline, with its reason when it failed."""

    power: str
    order: MapOrder
    succeeded: bool
    reason: str = ""  # e.g. "two supply centres would be combined (§II.G.3)"
    section: str = ""  # the rule text's section the reason rests on, "II.G.3"

    def describe(self) -> str:
        """The line the results give it, its power first."""
        fate = fate_text(str(self.order), self.succeeded, self.reason, self.section)
        return f"{self.power:<9} {fate}"


def fate_text(order: str, succeeded: bool, reason: str, section: str) -> str:
    """'DRAW BUR/PIC - BUR/MUN: succeeded' or '...: failed: reason (§II.G.3)',
    the section left out where the reason names it already."""
    if succeeded:
        return f"{order}: succeeded"
    where = f" (§{section})" if section and f"§{section}" not in reason else ""
    return f"{order}: failed: {reason or 'invalid'}{where}"
