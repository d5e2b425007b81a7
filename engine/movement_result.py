"""What a movement phase leaves: the results, the board, the units to
retreat and what the rules report. Its own module so that the rules' hooks
(engine/rules.py) can name it without importing the movement phase."""

from __future__ import annotations

from dataclasses import dataclass

from engine.outcomes import OrderResult
from engine.reports import ReportSection
from engine.state import Dislodged, GameState
from engine.units import Unit


@dataclass(frozen=True, slots=True)
class MovementResult:
    """A movement phase resolved: results, board, dislodged units, standoffs."""

    results: tuple[OrderResult, ...]
    units: tuple[Unit, ...]  # the units still on the board
    dislodged: tuple[Dislodged, ...]
    contested: frozenset[str]
    # what the results report of the moves: the bids' fates (secret), and
    # what the rules did after the moves (Dissolution's violations and kicks)
    reports: tuple[ReportSection, ...] = ()
    # the position the retreats start from when the rules changed it after
    # the moves (kicked Embassies)
    state: GameState | None = None
