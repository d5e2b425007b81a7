"""Reading Diplomacy Point bids: ``2: A Aus S War - Pra``.

A bid is a whole number of points, a colon (or ``DP``), and an order for a
neutral unit in any form :mod:`parser.grammar` reads. Whether the unit is
neutral and the order legal is for the engine to say at the deadline.
"""

from __future__ import annotations

import re

from engine.bids import Bid
from engine.map import GameMap
from engine.orders import Build, Disband, Remove, Retreat, Waive
from parser.orders import MAX_LINE, OrderError, parse_order

MAX_POINTS = 99
_BID = re.compile(r"^\s*(\d{1,3})\s*(?:dp\b)?\s*[:=)]?\s*(?=\S)", re.IGNORECASE)


def looks_like_bid(text: str) -> bool:
    """Does the line start with a number of points (``2:``, ``2 DP``)?"""
    return _BID.match(text) is not None and not re.match(r"^\s*\d{1,3}[.)]\s", text)


def parse_bid(text: str, game_map: GameMap, line: int = 1) -> Bid | OrderError:
    """Read one bid; never raises."""
    if not isinstance(text, str):
        return OrderError(line, 1, "", "", "a bid must be text")
    if len(text) > MAX_LINE:
        return OrderError(line, 1, text[:60] + "...", "", f"at most {MAX_LINE} characters")
    found = _BID.match(text)
    if found is None:
        return OrderError(line, 1, text.strip(), "", "a bid is points, a colon and an order: "
                                                     "'2: A Aus S War - Pra'")
    points = int(found.group(1))
    if not 1 <= points <= MAX_POINTS:
        return OrderError(line, 1, text.strip(), found.group(1),
                          f"a bid is 1 to {MAX_POINTS} DP")
    order = parse_order(text[found.end():], game_map, line)
    if isinstance(order, OrderError):
        return OrderError(line, order.column + found.end(), text.strip(), order.word,
                          order.message, order.suggestion)
    if isinstance(order, (Build, Remove, Waive, Retreat, Disband)):
        return OrderError(line, found.end() + 1, text.strip(), "",
                          "a bid is for a neutral unit's movement order")
    return Bid(points, order)
