"""Reading Diplomacy Point bids: ``2: A Aus S War - Pra``.

A bid is a whole number of points, a colon (or ``DP``), and an order for a
neutral unit in any form :mod:`parser.grammar` reads. Whether the unit is
neutral and the order legal is for the engine to say at the deadline.

A mail's bids may stand under a heading (``DP``, ``Bids:``); the heading
with ``none`` (``DP NONE``) withdraws every bid on file, as ``DRAW NONE``
withdraws a Draw.
"""

from __future__ import annotations

import re

from engine.bids import Bid
from engine.map import GameMap
from engine.orders import Build, Disband, Remove, Retreat, Waive
from parser.orders import MAX_LINE, OrderError, parse_order

MAX_POINTS = 99
_BID = re.compile(r"^\s*(\d{1,3})\s*(?:dp\b)?\s*[:=)]?\s*(?=\S)", re.IGNORECASE)
# points below zero ('-1: A Blr H'): a bid gone wrong, not an order
_NEGATIVE = re.compile(r"^\s*[-\u2013\u2014]\s*(\d{1,3})\s*(?:dp\b)?\s*[:=]\s*(?=\S)",
                       re.IGNORECASE)
# what players put between the points and the order instead of a colon ('1 - A Tkm H')
_WRONG_SEPARATOR = re.compile(r"^[-\u2013\u2014.,;/>]+\s*")
FORM = "points, a colon and an order"
_SECTION = r"^\s*(?:dp|diplomacy points|bids?)\s*:?\s*"
# a line that only announces the bids below it ('DP', 'Bids:')
HEADING = re.compile(_SECTION + r"$", re.IGNORECASE)
# 'DP NONE': every bid on file withdrawn
WITHDRAWAL = re.compile(_SECTION + r"none\s*$", re.IGNORECASE)


def looks_like_bid(text: str) -> bool:
    """Does the line start with a number of points (``2:``, ``2 DP``, or
    below zero: ``-1:``), or withdraw the bids (``DP NONE``)?"""
    if _NEGATIVE.match(text) or WITHDRAWAL.match(text):
        return True
    return _BID.match(text) is not None and not re.match(r"^\s*\d{1,3}[.)]\s", text)


def _form(points: int, rest: str, game_map: GameMap) -> str:
    """The bid form, with the player's own order when it reads."""
    order = parse_order(rest, game_map)
    example = f"{max(1, min(points, MAX_POINTS))}: {order}" if not isinstance(
        order, OrderError) else "2: A Aus S War - Pra"
    return f"a bid is {FORM}, 1 to {MAX_POINTS} DP: write '{example}'"


def parse_bid(text: str, game_map: GameMap, line: int = 1) -> Bid | OrderError:
    """Read one bid; never raises."""
    if not isinstance(text, str):
        return OrderError(line, 1, "", "", "a bid must be text")
    if len(text) > MAX_LINE:
        return OrderError(line, 1, text[:60] + "...", "", f"at most {MAX_LINE} characters")
    negative = _NEGATIVE.match(text)
    if negative is not None:
        return OrderError(line, 1, text.strip(), "-" + negative.group(1), _form(
            int(negative.group(1)), text[negative.end():], game_map))
    found = _BID.match(text)
    if found is None:
        return OrderError(line, 1, text.strip(), "", f"a bid is {FORM}: "
                                                     "'2: A Aus S War - Pra'")
    points = int(found.group(1))
    rest = text[found.end():]
    if not 1 <= points <= MAX_POINTS:
        return OrderError(line, 1, text.strip(), found.group(1), _form(points, rest, game_map))
    order = parse_order(rest, game_map, line)
    if isinstance(order, OrderError):
        wrong = _WRONG_SEPARATOR.match(rest)
        if wrong is not None:  # '1 - A Tkm H': the order is there, the colon is not
            return OrderError(line, found.end() + 1, text.strip(), wrong.group().strip(),
                              _form(points, rest[wrong.end():], game_map))
        return OrderError(line, order.column + found.end(), text.strip(), order.word,
                          order.message, order.suggestion)
    if isinstance(order, (Build, Remove, Waive, Retreat, Disband)):
        return OrderError(line, found.end() + 1, text.strip(), "",
                          "a bid is for a neutral unit's movement order")
    return Bid(points, order)
