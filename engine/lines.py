"""The kinds of line a player files for a phase, as the rules declare them.

Every game reads orders. A variant may read more beside them: Diplomacy
Point bids for neutral units (Dissolution, Intercontinental), Diplomap's
Draws and Erases. Each such kind is a :class:`LineKind`, and the rules list
the kinds they read in ``Rules.line_kinds``, as they list their parts of
the position in ``state_parts``. ``adjudicate`` takes the lines of every
kind but orders as one mapping by kind name (:data:`Lines`); the rules pick
out their own with :meth:`LineKind.given`.

A kind here says what the engine needs: its name (the key of
`judge adjudicate`'s JSON and of the judge's table of lines on file), the
values its lines read as, the phases it is read in, and whether it stays
secret until the game ends. How its text is read and recognised in a mail
is the parser's (parser/line_kinds.py, by the kind's name): the parser
builds engine values, so it depends on the engine and never the reverse.
"""

from __future__ import annotations

import types
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from engine.bids import BIDS_KEY, Bid
from engine.orders import Order
from engine.phase import PhaseKind

T = TypeVar("T")

# kind name -> power -> that power's values, as adjudicate takes them
Lines = Mapping[str, Mapping[str, Sequence[object]]]


def _unreadable_line(power: str, text: str, why: str) -> dict[str, Any]:
    """The row of a line of a kind that says nothing more of its own."""
    return {"power": power, "line": text, "why": f"unreadable: {why}"}


@dataclass(frozen=True, slots=True)
class LineKind(Generic[T]):
    """A kind of line the rules read besides orders (bids, map orders)."""

    name: str  # "bids": the JSON key and the kind of the lines on file
    noun: str  # "bids": what players call them, in the judge's replies
    value: type[Any] | types.UnionType  # what one line reads as (Bid, Draw | Erase)
    phases: frozenset[PhaseKind]  # the phases whose lines are read
    secret: bool = False  # seen by no other player until the game ends (bids)
    # where the fate of each line is reported in a phase's results (the
    # orders' results, a report section's key), and the row a line that
    # cannot be read gets there: (power, text, why) -> the row's fields
    reported_in: str = "results"
    unreadable: Callable[[str, str, str], dict[str, Any]] = _unreadable_line
    # how a phase's JSON switches this kind on, where rules that do not read
    # it can be made to (Diplomap's switch); said when such lines are refused
    switched_on_by: str = ""

    def read_in(self, phase: PhaseKind) -> bool:
        return phase in self.phases

    def given(self, lines: Lines) -> Mapping[str, Sequence[T]]:
        """This kind's values in ``lines``, each power's (none when absent).
        A value of another type is a caller's mistake, said at once rather
        than as an odd result deep in the adjudication."""
        mine = lines.get(self.name, {})
        for power, values in mine.items():
            for value in values:
                if not isinstance(value, self.value):
                    raise TypeError(f"{self.name} of {power}: {value!r} is not "
                                    f"{_type_name(self.value)}")
        return mine  # type: ignore[return-value]  # checked above


def _type_name(value: type[Any] | types.UnionType) -> str:
    return str(value) if isinstance(value, types.UnionType) else value.__name__


def _unreadable_order(power: str, text: str, why: str) -> dict[str, Any]:
    return {"power": power, "order": text, "outcome": "illegal", "reason": why,
            "why": {"why": "unreadable"}}


def _unreadable_bid(power: str, text: str, why: str) -> dict[str, Any]:
    return {"bidder": power, "bid": text, "counted": False, "why": f"unreadable: {why}"}


ORDERS: LineKind[Order] = LineKind("orders", "orders", Order, frozenset(PhaseKind),
                                   unreadable=_unreadable_order)
# Diplomacy Points steer neutral units in the moves (engine/bids.py); a
# player's bids are secret until the game ends
BIDS: LineKind[Bid] = LineKind("bids", "bids", Bid, frozenset({PhaseKind.MOVEMENT}),
                               secret=True, reported_in=BIDS_KEY, unreadable=_unreadable_bid)
