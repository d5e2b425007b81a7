"""Units on the board."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.map import UnitKind, province_of


@dataclass(frozen=True, slots=True)
class Unit:
    """A unit on the board: its power, kind and location."""

    power: str
    kind: UnitKind
    location: str  # PAR, or STP/SC for a fleet on a coast
    # Derived from location; stored because the resolver asks for it constantly.
    province: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "province", province_of(self.location))

    def __str__(self) -> str:
        return f"{self.kind} {self.location}"  # a StrEnum formats as its value

    @classmethod
    def parse(cls, power: str, text: str) -> Unit:
        """'A PAR' / 'F STP/SC' in canonical codes (data files, JSON input)."""
        parts = text.upper().replace("(", "/").replace(")", "").split()
        if len(parts) != 2 or parts[0] not in _LETTERS:
            raise ValueError(f"unit {text!r} is not like 'A PAR', 'F STP/SC' or 'W ASW'")
        return cls(power, UnitKind(parts[0]), parts[1])


_LETTERS = frozenset(kind.value for kind in UnitKind)
