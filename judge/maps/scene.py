"""What one map shows, as data: a position, and the orders that led to it.

The map of a phase shows the position that phase starts from (units,
centre owners, dislodged units waiting to retreat) and, drawn over it, the
orders of the phase just adjudicated with what became of them. So the map
a results mail carries and the map ``MAP game`` sends for the phase that
followed are the same picture.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.boards import Happened
from engine.game import Resolution
from engine.map import GameMap, UnitKind
from engine.orders import Order, UnitRef
from engine.outcomes import Outcome
from engine.state import GameState
from parser.orders import OrderError, parse_order


@dataclass(frozen=True, slots=True)
class DrawnOrder:
    power: str
    order: Order
    succeeded: bool


@dataclass(frozen=True)
class Scene:
    game: str  # the game's name, for the legend
    position: GameState  # what stands on the board now
    before: GameState | None = None  # the position the orders were given in
    orders: tuple[DrawnOrder, ...] = ()
    # what the phase did on the variant's other board (Dissolution's Embassy
    # moves and kicks on the Favor map), drawn there
    other_board: Happened = field(default_factory=Happened)

    @property
    def phase(self) -> str:
        return str(self.position.phase)


def drawn_orders(results: Iterable[tuple[str, Order, str]]) -> tuple[DrawnOrder, ...]:
    """The orders worth drawing: every adjudicated one but the illegal,
    which may name places the unit could never reach, and those of units
    on another board (Embassies: the Favor map shows where they stand)."""
    return tuple(DrawnOrder(power, order, outcome == Outcome.SUCCEEDS.value)
                 for power, order, outcome in results
                 if outcome in (Outcome.SUCCEEDS.value, Outcome.FAILS.value, Outcome.VOID.value)
                 and not _off_the_board(order))


def _off_the_board(order: Order) -> bool:
    unit = getattr(order, "unit", None)
    # an Embassy's orders are of the Favor map: its kind names its board
    return isinstance(unit, UnitRef) and unit.kind is UnitKind.EMBASSY


def on_the_other_board(before: GameState | None, results: Iterable[tuple[str, Order, str]],
                       reported: Mapping[str, Sequence[Mapping[str, Any]]]) -> Happened:
    """What the other board's picture draws of a phase: the position it was
    played from, the orders of its units that succeeded or failed (an
    Embassy's move), and the public report sections' lines as JSON
    (Dissolution's kicks and their violations)."""
    return Happened(before, tuple((power, order, outcome == Outcome.SUCCEEDS.value)
                          for power, order, outcome in results
                          if outcome in (Outcome.SUCCEEDS.value, Outcome.FAILS.value)
                          and _off_the_board(order)),
                    {key: tuple(lines) for key, lines in reported.items()})


def scene_after(game: str, resolution: Resolution) -> Scene:
    """The map an adjudication's results go with: the new position, and
    the orders that led to it."""
    results = [(r.power, r.order, r.outcome.value) for r in resolution.results]
    return Scene(game, resolution.next, resolution.state, drawn_orders(results),
                 on_the_other_board(resolution.state, results, {
                     s.key: [line.fields() for line in s.lines]
                     for s in resolution.reports if not s.secret_until_end}))


def stored_results(game_map: GameMap, rows: Sequence[Mapping[str, Any]]
                   ) -> list[tuple[str, Order, str]]:
    """A phase record's stored results (canonical order text) as orders."""
    found = []
    for row in rows:
        order = parse_order(str(row["order"]), game_map)
        if not isinstance(order, OrderError):
            found.append((str(row["power"]), order, str(row["outcome"])))
    return found
