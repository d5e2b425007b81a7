"""Units on the board."""

from __future__ import annotations

from dataclasses import dataclass

from engine.map import UnitKind, province_of


@dataclass(frozen=True, slots=True)
class Unit:
    power: str
    kind: UnitKind
    location: str  # PAR, or STP/SC for a fleet on a coast

    @property
    def province(self) -> str:
        return province_of(self.location)

    def __str__(self) -> str:
        return f"{self.kind.value} {self.location}"

    @classmethod
    def parse(cls, power: str, text: str) -> Unit:
        """'A PAR' / 'F STP/SC' in canonical codes (data files, JSON input)."""
        parts = text.upper().replace("(", "/").replace(")", "").split()
        if len(parts) != 2 or parts[0] not in ("A", "F"):
            raise ValueError(f"unit {text!r} is not like 'A PAR' or 'F STP/SC'")
        return cls(power, UnitKind(parts[0]), parts[1])
