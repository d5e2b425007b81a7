"""Phases in DPJudge notation: S1901M, F1901R, W1901A."""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from functools import total_ordering

_PHASE = re.compile(r"^([SFW])(\d{4})([MRA])$")


class Season(StrEnum):
    SPRING = "S"
    FALL = "F"
    WINTER = "W"


class PhaseKind(StrEnum):
    MOVEMENT = "M"
    RETREAT = "R"
    ADJUSTMENT = "A"


_SEASON_ORDER = {Season.SPRING: 0, Season.FALL: 1, Season.WINTER: 2}
_KIND_ORDER = {PhaseKind.MOVEMENT: 0, PhaseKind.RETREAT: 1, PhaseKind.ADJUSTMENT: 2}


@total_ordering
@dataclass(frozen=True, slots=True)
class Phase:
    """A phase; phases sort in the order they are played (S1901M < S1901R <
    F1901M < F1901R < W1901A < S1902M), not by their letters."""

    year: int
    season: Season
    kind: PhaseKind

    @property
    def sort_key(self) -> tuple[int, int, int]:
        return self.year, _SEASON_ORDER[self.season], _KIND_ORDER[self.kind]

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Phase):
            return NotImplemented
        return self.sort_key < other.sort_key

    @classmethod
    def parse(cls, text: str) -> Phase:
        match = _PHASE.match(text.strip().upper())
        if not match:
            raise ValueError(f"phase {text!r} is not like S1901M, F1901R or W1901A")
        season, year, kind = match.groups()
        phase = cls(int(year), Season(season), PhaseKind(kind))
        if (phase.season is Season.WINTER) != (phase.kind is PhaseKind.ADJUSTMENT):
            raise ValueError(f"phase {text!r}: adjustments happen in winter, and only then")
        return phase

    def __str__(self) -> str:
        return f"{self.season.value}{self.year}{self.kind.value}"

    @property
    def name(self) -> str:
        """Human form: 'Spring 1901 Movement'."""
        seasons = {"S": "Spring", "F": "Fall", "W": "Winter"}
        kinds = {"M": "Movement", "R": "Retreat", "A": "Adjustment"}
        return f"{seasons[self.season.value]} {self.year} {kinds[self.kind.value]}"

    def retreat(self) -> Phase:
        return Phase(self.year, self.season, PhaseKind.RETREAT)

    def following_movement(self) -> Phase:
        """The movement phase that follows this season: S->F, F/W -> next spring."""
        if self.season is Season.SPRING:
            return Phase(self.year, Season.FALL, PhaseKind.MOVEMENT)
        return Phase(self.year + 1, Season.SPRING, PhaseKind.MOVEMENT)

    def adjustment(self) -> Phase:
        return Phase(self.year, Season.WINTER, PhaseKind.ADJUSTMENT)
