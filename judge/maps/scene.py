"""What one map shows, as data: a position, and the orders that led to it.

The map of a phase shows the position that phase starts from (units,
centre owners, dislodged units waiting to retreat) and, drawn over it, the
orders of the phase just adjudicated with what became of them, and the
units that phase took off the board (:class:`Lost`). So the map a results
mail carries and the map ``MAP game`` sends for the phase that followed are
the same picture.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.boards import Happened
from engine.game import Resolution
from engine.map import GameMap, UnitKind, province_of
from engine.orders import Disband, Order, Remove, Retreat, UnitRef
from engine.outcomes import Outcome
from engine.reports import DESTROYED_KEY, Destroyed
from engine.state import GameState
from engine.units import Unit
from parser.orders import OrderError, parse_order


@dataclass(frozen=True, slots=True)
class DrawnOrder:
    power: str
    order: Order
    succeeded: bool


@dataclass(frozen=True, slots=True)
class Lost:
    """A unit the phase took off the board (destroyed, disbanded or
    removed), where it stood when it went, and why in the results' words."""

    unit: Unit
    why: str


@dataclass(frozen=True)
class Scene:
    game: str  # the game's name, for the legend
    position: GameState  # what stands on the board now
    before: GameState | None = None  # the position the orders were given in
    orders: tuple[DrawnOrder, ...] = ()
    lost: tuple[Lost, ...] = ()  # the units the orders' phase took off the board
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


def losses(before: GameState, results: Iterable[tuple[str, Order, str]],
           destroyed: Iterable[Destroyed]) -> tuple[Lost, ...]:
    """The units a phase took off the board: those its 'Units destroyed'
    section names (dislodged where they may not retreat, retaliation, civil
    disorder), and those its results remove, disband or whose retreat
    failed (two retreats to one province). Each once, where it stood: a
    dislodged unit in its province beside the unit that took it."""
    found: dict[tuple[str, str], Lost] = {}

    def add(unit: Unit, why: str) -> None:
        if unit.kind is not UnitKind.EMBASSY:  # Embassies stand on the Favor map
            found.setdefault((unit.power, unit.province), Lost(unit, why))

    for gone in destroyed:
        try:
            add(Unit.parse(gone.power, gone.unit), gone.why)
        except ValueError:
            continue  # a line stored by another version, naming no unit
    # the units the orders may name, by owner and province (a dislodged
    # unit shares its province with its attacker, another power's)
    standing = {(u.power, u.province): u for u in before.units}
    standing |= {(d.unit.power, d.unit.province): d.unit for d in before.dislodged}
    for power, order, outcome in results:
        match order:
            case Remove(unit=ref) if outcome == Outcome.SUCCEEDS.value:
                why = "removed"
            case Disband(unit=ref) if outcome == Outcome.SUCCEEDS.value:
                why = "disbanded"
            case Retreat(unit=ref) if outcome == Outcome.FAILS.value:
                why = "disbanded: its retreat failed"
            case _:
                continue
        unit = standing.get((power, province_of(ref.location)))
        if unit is None or ref.kind not in (None, unit.kind):
            # not there when the orders were given (it moved in), or 'A PAR' without its coast
            if ref.kind is None:
                continue
            unit = Unit(power, ref.kind, ref.location)
        add(unit, why)
    return tuple(found.values())


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
    """The map an adjudication's results go with: the new position, the
    orders that led to it and the units lost on the way."""
    results = [(r.power, r.order, r.outcome.value) for r in resolution.results]
    return Scene(game, resolution.next, resolution.state, drawn_orders(results),
                 lost=losses(resolution.state, results, resolution.facts(DESTROYED_KEY)),
                 other_board=on_the_other_board(resolution.state, results, {
                     s.key: [line.fields() for line in s.lines]
                     for s in resolution.reports if not s.secret_until_end}))


def stored_destroyed(rows: Sequence[Mapping[str, Any]]) -> tuple[Destroyed, ...]:
    """A phase record's stored 'Units destroyed' lines as the facts they say."""
    return tuple(Destroyed(str(row.get("power", "")), str(row.get("unit", "")),
                           str(row.get("why", "")), str(row.get("order", "")))
                 for row in rows)


def stored_results(game_map: GameMap, rows: Sequence[Mapping[str, Any]]
                   ) -> list[tuple[str, Order, str]]:
    """A phase record's stored results (canonical order text) as orders."""
    found = []
    for row in rows:
        order = parse_order(str(row["order"]), game_map)
        if not isinstance(order, OrderError):
            found.append((str(row["power"]), order, str(row["outcome"])))
    return found
