"""Phases in DPJudge notation: S1901M, F1901R, W1901A (and, in the flow of
a map with seasons of its own, A1425M or B272A: engine/flow.py)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import total_ordering

from engine.flow import STANDARD_FLOW, Flow, PhaseKind, Season, kind_name

__all__ = ["Phase", "PhaseKind", "Season"]

_PHASE = re.compile(r"^([A-Z])(\d+)([A-Z])$")


@total_ordering
@dataclass(frozen=True, slots=True)
class Phase:
    """A phase; phases sort in the order they are played (S1901M < S1901R <
    F1901M < F1901R < W1901A < S1902M), not by their letters.

    ``season`` is the season's letter: a :class:`Season` in the standard
    flow. ``flow`` is the game's flow of phases; two phases are equal by
    their letters and year alone."""

    year: int
    season: str
    kind: PhaseKind
    flow: Flow = field(default=STANDARD_FLOW, compare=False, repr=False)

    @property
    def sort_key(self) -> tuple[int, int]:
        return self.flow.sort_key(self.year, self.season, self.kind)

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Phase):
            return NotImplemented
        return self.sort_key < other.sort_key

    @classmethod
    def parse(cls, text: str, flow: Flow = STANDARD_FLOW) -> Phase:
        """A phase of ``flow`` from its abbreviation; ValueError when the
        text is no phase of that flow."""
        match = _PHASE.match(text.strip().upper())
        if not match:
            raise ValueError(f"phase {text!r} is not like S1901M, F1901R or W1901A")
        letter, year, kind_letter = match.groups()
        if kind_letter not in PhaseKind.__members__.values():
            raise ValueError(f"phase {text!r}: {kind_letter} is no phase type (M, R or A)")
        kind = PhaseKind(kind_letter)
        if flow.is_standard and letter in Season.__members__.values():
            if (letter == Season.WINTER) != (kind is PhaseKind.ADJUSTMENT):
                raise ValueError(f"phase {text!r}: adjustments happen in winter, and only then")
            return cls(int(year), Season(letter), kind, flow)
        try:
            flow.position(letter, kind)
        except ValueError as exc:
            raise ValueError(f"phase {text!r}: {exc}") from None
        return cls(int(year), letter, kind, flow)

    def __str__(self) -> str:
        return f"{self.season}{self.year}{self.kind.value}"

    @property
    def name(self) -> str:
        """Human form: 'Spring 1901 Movement', 'A.D. 1425 Adjustment'."""
        season = self.flow.season_named(self.season).name
        return f"{season} {self.year} {kind_name(self.kind)}"

    @property
    def opens_year(self) -> bool:
        """Whether this is the year's first movement phase (Spring's)."""
        first = next(s for s in self.flow.seasons if PhaseKind.MOVEMENT in s.kinds)
        return self.kind is PhaseKind.MOVEMENT and self.season == first.letter

    @property
    def counts_centres(self) -> bool:
        """Whether supply centres change hands once this season is played
        (after Fall's movement and retreats in the standard year)."""
        return self.flow.counts_centres(self.season)

    def retreat(self) -> Phase:
        return Phase(self.year, self.season, PhaseKind.RETREAT, self.flow)

    def following(self) -> Phase:
        """The phase after this one in the flow, whether played or not."""
        return next(self._walk())

    def following_movement(self) -> Phase:
        """The next movement phase: S->F, F/W -> next spring."""
        return next(p for p in self._walk() if p.kind is PhaseKind.MOVEMENT)

    def adjustment(self) -> Phase | None:
        """The adjustment phase this season leads to before the next
        movement (the year's Winter), or None: a Hundred year not divisible
        by ten has none."""
        following = next(p for p in self._walk() if p.kind is not PhaseKind.RETREAT)
        return following if following.kind is PhaseKind.ADJUSTMENT else None

    def _walk(self) -> Iterator[Phase]:
        for year, letter, kind in self.flow.walk(self.year, self.season, self.kind):
            season = Season(letter) if self.flow.is_standard else letter
            yield Phase(year, season, kind, self.flow)
