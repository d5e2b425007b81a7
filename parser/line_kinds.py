"""How each kind of line the rules declare (engine/lines.py) is read: its
parser, and how a mail's line is told to be of that kind.

The engine names the kinds and the rules list those they read; the text is
the parser's, so the readers live here, keyed by the kind's name (the
engine never imports the parser). A new kind of line adds its reader to
:data:`READERS`.

A mail mixes its kinds of line freely; :func:`sort_mail` hands each line
to the first reader in :data:`READERS` that claims it, and the rest are
orders. Every reader is tried, whether the game's rules read its kind or
not, so the judge can say why a bid or a Draw is refused in a game without
them instead of reading it as a wrong order.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.diplomap.lines import MAP_ORDERS
from engine.lines import BIDS, LineKind
from engine.lines import ORDERS as ORDER_LINES
from engine.map import GameMap
from parser.bids import HEADING as BID_HEADING
from parser.bids import looks_like_bid, parse_bid
from parser.map_orders import is_map_line, parse_map_order
from parser.orders import OrderError, parse_order

Line = tuple[int, str]  # (line number in the mail, text)


@dataclass(frozen=True, slots=True)
class LineReader:
    """How the parser reads one kind of line."""

    kind: LineKind[Any]  # the kind it reads, as the engine declares it
    # one line on the board the phase is read on (its line number for errors)
    parse: Callable[[str, GameMap, int], Any]
    # does a mail's line belong to this kind? None: every line no other claims
    claims: Callable[[str], bool] | None = None
    # a line that only announces the kind's lines ('DP:', 'Bids'): dropped
    heading: re.Pattern[str] | None = None

    def read(self, text: str, board: GameMap, line: int = 1) -> Any:
        """The value, or an OrderError saying why the line does not read."""
        return self.parse(text, board, line)


ORDERS = "orders"  # the kind every mail's unclaimed lines are

# in the order a mail's lines are offered to them: map orders first, so
# that 'Gal/War' is never taken for a province with a coast
READERS: Mapping[str, LineReader] = {
    MAP_ORDERS.name: LineReader(MAP_ORDERS, parse_map_order, is_map_line),
    BIDS.name: LineReader(BIDS, parse_bid, looks_like_bid, BID_HEADING),
    ORDERS: LineReader(ORDER_LINES, parse_order),
}


def reader(kind: LineKind[Any]) -> LineReader:
    """The reader of a kind the rules declare; a kind without one is a
    mistake in the engine's declarations, said by name."""
    found = READERS.get(kind.name)
    if found is None:
        raise KeyError(f"no reader for the kind of line {kind.name!r} (parser/line_kinds.py)")
    return found


def sort_mail(lines: Sequence[Line]) -> dict[str, list[Line]]:
    """A mail's lines by kind name, each kind's in mail order; headings dropped."""
    out: dict[str, list[Line]] = {name: [] for name in READERS}
    for number, text in lines:
        for name, kind in READERS.items():
            if kind.heading is not None and kind.heading.match(text):
                break
            if kind.claims is None or kind.claims(text):
                out[name].append((number, text))
                break
    return out


def read_lines(texts: Mapping[str, Sequence[str]], parse: Callable[[str], Any]
               ) -> tuple[dict[str, list[Any]], list[tuple[str, str, str]]]:
    """Each power's lines read again (on file at the deadline, or given in a
    phase's JSON): the values, and (power, line, why) for each that does not read."""
    values: dict[str, list[Any]] = {}
    unreadable: list[tuple[str, str, str]] = []
    for power, lines in texts.items():
        for line in lines:
            parsed = parse(line)
            if isinstance(parsed, OrderError):
                unreadable.append((power, line, parsed.message))
            else:
                values.setdefault(power, []).append(parsed)
    return values, unreadable
