"""A mail's closing after its orders: 'Regards,', a name, 'Sent from my
iPhone'. Such lines are no orders, and a player should not get an ERROR
for each of them.

The rule: the closing is the run of lines at the end of the mail's orders
(followed by nothing but SIGNOFF or the mail's end) of which no line reads
as an order, a bid or a map order, and none looks like an order gone
wrong, when at least one line before it reads or looks like one. A line
looks like an order gone wrong when its first word reads (a unit type, a
province, a power's name: 'A Pra - Vei'), when it starts with a unit type
or an order word ('Buidl' does not: 'Buidl A Par' at the very end is read
as a closing, and said so), or when it has a move arrow between spaces or an
order word ('Pari - Bur', 'Hold'). So a mistyped order among the orders,
or as the last line, is still an ERROR; only what follows the last line
that could be an order is left unread.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from engine.map import GameMap
from parser.line_kinds import ORDERS, READERS
from parser.orders import OrderError, parse_orders
from parser.words import HOLD_WORDS, MOVE_WORDS, SUPPORT_WORDS

Line = tuple[int, str]

# the words that make a line an order, whatever else it says: long enough
# not to be prose ('to', 'by', 'a', 's' are)
_ORDER_WORDS = frozenset(w for w in (
    *HOLD_WORDS, *SUPPORT_WORDS, *MOVE_WORDS, "convoy", "convoys", "retreat", "retreats",
    "disband", "disbands", "remove", "removes", "build", "builds", "waive", "waives")
    if len(w) > 2)
_UNIT_WORDS = frozenset({"a", "f", "w", "army", "fleet", "wing"})
_ARROW = re.compile(r"\s(?:-+>?|=>|[\u2013\u2014\u2192>])\s")
_WORD = re.compile(r"[^\W\d_]+")


def closing_start(lines: Sequence[Line], board: GameMap, after_orders: bool) -> int | None:
    """The index in ``lines`` (the orders at the end of a mail) where its
    closing starts, or None when it has none. ``after_orders``: lines that
    read or look like orders came earlier in the mail."""
    start = len(lines)
    while start and not _order_like(lines[start - 1][1], board):
        start -= 1
    if start == len(lines) or (start == 0 and not after_orders):
        return None
    return start


def _order_like(text: str, board: GameMap) -> bool:
    """Does the line read as an order (or a bid, a map order), or look like
    one gone wrong?"""
    for name, reader in READERS.items():
        if name == ORDERS:
            break
        if (reader.heading is not None and reader.heading.match(text)) or (
                reader.claims is not None and reader.claims(text)):
            return True  # a line of another kind's form, readable or not
    parsed = parse_orders(text, board)
    if parsed.orders:
        return True
    if not parsed.errors:
        return False  # a power's name alone ('Germany', signing off), a comment
    return _gone_wrong(text, parsed.errors[0])


def _gone_wrong(text: str, first: OrderError) -> bool:
    """``first``: the error of the line's first order (its others' columns
    say nothing of how the line starts: 'Love, Mum')."""
    words = [w.lower() for w in _WORD.findall(text)]
    begins = len(text) - len(text.lstrip()) + 1
    return (first.column > begins or (bool(words) and words[0] in _UNIT_WORDS | _ORDER_WORDS)
            or _ARROW.search(f" {text} ") is not None
            or any(w in _ORDER_WORDS for w in words))
