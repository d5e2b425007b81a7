"""Orders as values.

An order names its unit the way the player wrote it (:class:`UnitRef`:
unit kind optional, coast optional); the engine matches it to the unit on
the board. ``str(order)`` is the canonical DPJudge-style text.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.map import UnitKind, province_of


@dataclass(frozen=True, slots=True)
class UnitRef:
    """A unit as an order names it: 'A PAR', 'F STP/SC', or just 'PAR'."""

    location: str
    kind: UnitKind | None = None
    # the unit's power, where the place alone does not say whose unit it is
    # (one of several Embassies in a Perimeter of the Favor map)
    power: str | None = None
    # Derived from location; stored because legality and the resolver ask
    # for it of every order (the parser and the board share their refs).
    province: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "province", province_of(self.location))

    def __str__(self) -> str:
        unit = self.location if self.kind is None else f"{self.kind} {self.location}"
        return unit if self.power is None else f"{self.power} {unit}"


@dataclass(frozen=True, slots=True)
class Hold:
    """Stand still, and defend."""

    unit: UnitRef

    def __str__(self) -> str:
        return f"{self.unit} H"


@dataclass(frozen=True, slots=True)
class Move:
    """Move, or attack, to a neighbour or by convoy (``path``: the seas named)."""

    unit: UnitRef
    dest: str
    via_convoy: bool = False
    path: tuple[str, ...] = ()  # water provinces named by the player, in order

    def __str__(self) -> str:
        if self.path:
            return " - ".join([str(self.unit), *self.path, self.dest])
        return f"{self.unit} - {self.dest}" + (" VIA CONVOY" if self.via_convoy else "")


@dataclass(frozen=True, slots=True)
class SupportHold:
    """Support a unit that is not moving."""

    unit: UnitRef
    target: UnitRef

    def __str__(self) -> str:
        return f"{self.unit} S {self.target}"


@dataclass(frozen=True, slots=True)
class SupportMove:
    """Support a unit's move to ``dest``."""

    unit: UnitRef
    target: UnitRef
    dest: str

    def __str__(self) -> str:
        return f"{self.unit} S {self.target} - {self.dest}"


@dataclass(frozen=True, slots=True)
class Convoy:
    """Carry an army from its province to ``dest`` across this fleet's sea."""

    unit: UnitRef
    target: UnitRef
    dest: str

    def __str__(self) -> str:
        return f"{self.unit} C {self.target} - {self.dest}"


@dataclass(frozen=True, slots=True)
class Retreat:
    """A dislodged unit's move to ``dest``."""

    unit: UnitRef
    dest: str

    def __str__(self) -> str:
        return f"{self.unit} R {self.dest}"


@dataclass(frozen=True, slots=True)
class Disband:
    """A dislodged unit taken off the board."""

    unit: UnitRef

    def __str__(self) -> str:
        return f"{self.unit} DISBAND"


@dataclass(frozen=True, slots=True)
class Build:
    """A new unit in a home centre, in winter."""

    location: str
    kind: UnitKind | None = None  # DATC 4.C.3: an army inland if omitted

    def __str__(self) -> str:
        kind = f"{self.kind.value} " if self.kind else ""
        return f"BUILD {kind}{self.location}"


@dataclass(frozen=True, slots=True)
class Remove:
    """A unit taken off the board in winter."""

    unit: UnitRef

    def __str__(self) -> str:
        return f"REMOVE {self.unit}"


@dataclass(frozen=True, slots=True)
class Waive:
    """A build not taken."""

    def __str__(self) -> str:
        return "WAIVE"


MovementOrder = Hold | Move | SupportHold | SupportMove | Convoy
RetreatOrder = Retreat | Disband
AdjustmentOrder = Build | Remove | Waive
Order = MovementOrder | RetreatOrder | AdjustmentOrder
