"""A game-year's flow of phases, as DPJudge's FLOW and BEGIN lines give it.

The standard year is Spring (movement, retreats), Fall (movement, retreats)
and Winter (adjustments), the year going up by one. A DPJudge map may name
other seasons ("A.D.", "B.C."), step the year by more than one or count it
down (``NEWYEAR:5``, ``NEWYEAR:-1``) and play the seasons after an
``IFYEARDIV:n`` gate only in years divisible by n (Hundred's adjustments
every ten years). A phase is abbreviated DPJudge's way: the season's first
letter, the year, the phase type's first letter (``A1425M``, ``B272A``).

This module holds the flow as data and walks it; engine/phase.py's Phase
asks it for names, order and the phases that follow.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum


class Season(StrEnum):
    """The standard flow's seasons, by their letters."""

    SPRING = "S"
    FALL = "F"
    WINTER = "W"


class PhaseKind(StrEnum):
    MOVEMENT = "M"
    RETREAT = "R"
    ADJUSTMENT = "A"


# DPJudge's phase-type words; any other (INCOME) is a phase the engine cannot play
_KIND_WORDS = {"MOVEMENT": PhaseKind.MOVEMENT, "RETREATS": PhaseKind.RETREAT,
               "ADJUSTMENTS": PhaseKind.ADJUSTMENT}
_KIND_NAMES = {PhaseKind.MOVEMENT: "Movement", PhaseKind.RETREAT: "Retreat",
               PhaseKind.ADJUSTMENT: "Adjustment"}
# the shapes of a season the engine plays: retreats follow their movement
_PLAYED_SHAPES = ((PhaseKind.MOVEMENT, PhaseKind.RETREAT), (PhaseKind.ADJUSTMENT,))


class FlowError(ValueError):
    """FLOW or BEGIN words that do not describe a flow."""


@dataclass(frozen=True, slots=True)
class FlowSeason:
    """One FLOW item: a season word and its phases in order."""

    word: str  # DPJudge's, upper case: "SPRING", "A.D."
    kinds: tuple[PhaseKind, ...]

    @property
    def letter(self) -> str:
        return self.word[0]

    @property
    def name(self) -> str:
        """In prose: 'Spring', 'A.D.'."""
        return self.word.title()


@dataclass(frozen=True, slots=True)
class Flow:
    """The seasons of a year, the year's step and the gate of the seasons
    played only in some years. The year changes before the first season
    (DPJudge adds an implicit NEWYEAR there when the flow has none)."""

    seasons: tuple[FlowSeason, ...]
    year_step: int = 1  # NEWYEAR:n; negative counts the years down (B.C.)
    gate: int | None = None  # index of the first season after IFYEARDIV
    divisor: int = 1  # IFYEARDIV:divisor=remainder: the gated seasons' years
    remainder: int = 0
    # why the engine cannot play this flow (an INCOME phase), or None
    unplayable: str | None = None
    # every phase of a year, in order: (season index, letter, kind); made
    # once, since every phase asks for its place in the year
    steps: tuple[tuple[int, str, PhaseKind], ...] = field(
        init=False, compare=False, repr=False, default=())

    def __post_init__(self) -> None:
        object.__setattr__(self, "steps", tuple(
            (n, s.letter, k) for n, s in enumerate(self.seasons) for k in s.kinds))

    # -- the phases of a year -----------------------------------------------

    def position(self, season: str, kind: PhaseKind) -> int:
        """Where a season letter's phase of this kind comes in the year;
        ValueError when the flow has none."""
        for n, (_, letter, step_kind) in enumerate(self.steps):
            if letter == season and step_kind is kind:
                return n
        raise ValueError(f"{self.describe()} has no {_KIND_NAMES[kind].lower()} phase "
                         f"in season {season}")

    def season_named(self, letter: str) -> FlowSeason:
        for season in self.seasons:
            if season.letter == letter:
                return season
        raise ValueError(f"{self.describe()} has no season {letter}")

    def sort_key(self, year: int, season: str, kind: PhaseKind) -> tuple[int, int]:
        """Phases sort in the order they are played: by year (reversed when
        the years count down), then by their place in the year."""
        return (year if self.year_step > 0 else -year), self.position(season, kind)

    def walk(self, year: int, season: str, kind: PhaseKind,
             ) -> Iterator[tuple[int, str, PhaseKind]]:
        """The phases that follow one, for ever, as (year, letter, kind)."""
        steps = self.steps
        at = self.position(season, kind)
        gate_at = next((n for n, (index, _, _) in enumerate(steps) if index == self.gate), None)
        while True:
            at += 1
            if at == gate_at and year % self.divisor != self.remainder:
                at = len(steps)  # the gated seasons wait for another year
            if at >= len(steps):
                at, year = 0, year + self.year_step
            _, letter, step_kind = steps[at]
            yield year, letter, step_kind

    def counts_centres(self, season: str) -> bool:
        """Whether supply centres change hands after this season: the last
        season of the year with movement (Fall in the standard year)."""
        moving = [s for s in self.seasons if PhaseKind.MOVEMENT in s.kinds]
        return bool(moving) and moving[-1].letter == season

    def describe(self) -> str:
        return "the standard year" if self.is_standard else "the flow"

    @property
    def is_standard(self) -> bool:
        return self is STANDARD_FLOW or self == STANDARD_FLOW


STANDARD_FLOW = Flow((FlowSeason("SPRING", (PhaseKind.MOVEMENT, PhaseKind.RETREAT)),
                      FlowSeason("FALL", (PhaseKind.MOVEMENT, PhaseKind.RETREAT)),
                      FlowSeason("WINTER", (PhaseKind.ADJUSTMENT,))))


def kind_name(kind: PhaseKind) -> str:
    return _KIND_NAMES[kind]


def read_flow(lines: Sequence[str]) -> Flow:
    """A flow from DPJudge's FLOW lines (the words after FLOW, each line one
    or more ``season:phase,phase`` items); FlowError for words that make no
    flow. A phase the engine cannot play leaves the flow ``unplayable``."""
    items = [item for line in lines for item in line.upper().split()]
    seasons: list[FlowSeason] = []
    step: int | None = None
    gate: tuple[int, int, int] | None = None
    unplayable: list[str] = []
    for item in items:
        word, colon, rest = item.partition(":")
        if word == "NEWYEAR":
            step = _new_year(rest if colon else "1", step, bool(seasons), unplayable)
        elif word == "IFYEARDIV":
            if gate is not None:
                unplayable.append("a FLOW with two IFYEARDIV gates is not supported yet")
                continue
            gate = (len(seasons), *_divisor(rest))
        elif not colon or not rest:
            raise FlowError(f"FLOW {item}: a season needs its phases after a colon")
        else:
            seasons.append(FlowSeason(word, _kinds(item, rest.split(","), unplayable)))
    _check_seasons(seasons, unplayable)
    flow = Flow(tuple(seasons), step if step is not None else 1,
                None if gate is None or gate[0] >= len(seasons) else gate[0],
                gate[1] if gate else 1, gate[2] if gate else 0)
    if gate is not None and gate[0] >= len(seasons):
        unplayable.append("a FLOW ending with IFYEARDIV is not supported yet")
    if gate is not None and gate[0] == 0:  # DPJudge would go back to the gate for ever
        unplayable.append("a FLOW opening with IFYEARDIV is not supported yet")
    reason = "; ".join(dict.fromkeys(unplayable)) or None
    return replace(flow, unplayable=reason)


def _new_year(text: str, step: int | None, after_season: bool, unplayable: list[str]) -> int:
    try:
        years = int(text)
    except ValueError:
        raise FlowError(f"FLOW NEWYEAR:{text}: the years must be a number") from None
    if years == 0:
        raise FlowError("FLOW NEWYEAR:0: the year must change")
    if step is not None:
        unplayable.append("a FLOW with two NEWYEAR steps is not supported yet")
    if after_season:  # the year would change in mid-flow: not how the engine sorts phases
        unplayable.append("a FLOW with NEWYEAR after a season is not supported yet")
    return years


def _divisor(text: str) -> tuple[int, int]:
    divisor, equals, remainder = text.partition("=")
    try:
        div, mod = int(divisor), int(remainder) if equals else 0
    except ValueError:
        raise FlowError(f"FLOW IFYEARDIV:{text}: not a divisor (n or n=m)") from None
    if div <= 0 or not 0 <= mod < div:
        raise FlowError(f"FLOW IFYEARDIV:{text}: the divisor must be above 0 and the "
                        "remainder below it")
    return div, mod


def _kinds(item: str, words: list[str], unplayable: list[str]) -> tuple[PhaseKind, ...]:
    kinds: list[PhaseKind] = []
    for word in words:
        kind = _KIND_WORDS.get(word)
        if kind is None:
            if not word or word[0] in "MRA":  # DPJudge reserves these letters
                raise FlowError(f"FLOW {item}: unknown phase {word!r}")
            unplayable.append(f"DPJudge phase {word} is not supported yet")
        elif kind in kinds:
            raise FlowError(f"FLOW {item}: phase {word} twice")
        else:
            kinds.append(kind)
    return tuple(kinds)


def _check_seasons(seasons: list[FlowSeason], unplayable: list[str]) -> None:
    if not seasons:
        raise FlowError("FLOW names no season")
    words: dict[str, str] = {}
    seen: set[tuple[str, PhaseKind]] = set()
    for season in seasons:
        other = words.setdefault(season.letter, season.word)
        if other != season.word:  # the abbreviations would not tell them apart
            raise FlowError(f"FLOW seasons {other} and {season.word} begin with the same "
                            "letter")
        for kind in season.kinds:
            if (season.letter, kind) in seen:
                raise FlowError(f"FLOW {season.word}: its {kind_name(kind).lower()} "
                                "phase twice")
            seen.add((season.letter, kind))
        if season.kinds and season.kinds not in _PLAYED_SHAPES:
            unplayable.append(f"a FLOW season of {', '.join(k.name for k in season.kinds)} "
                              "is not supported yet (only MOVEMENT,RETREATS or ADJUSTMENTS)")
    if not any(PhaseKind.MOVEMENT in s.kinds for s in seasons):
        raise FlowError("FLOW has no movement phase")


def read_begin(text: str, flow: Flow) -> str:
    """DPJudge's BEGIN words ('A.D. 1425 MOVEMENT') as the phase's
    abbreviation in this flow ('A1425M'); FlowError if the flow has no such phase."""
    words = text.upper().split()
    if len(words) != 3 or not words[1].isdigit():
        raise FlowError(f"BEGIN {text!r} is not 'season year phase'")
    season, year, kind_word = words
    kind = _KIND_WORDS.get(kind_word)
    if kind is None:
        raise FlowError(f"BEGIN {text!r}: the game cannot begin with phase {kind_word}")
    if not any(s.word == season and kind in s.kinds for s in flow.seasons):
        raise FlowError(f"BEGIN {text!r}: the flow has no {kind_word} phase in {season}")
    return f"{season[0]}{int(year)}{kind.value}"
