"""The order parser: players' order text to :mod:`engine.orders` values.

See :mod:`parser.grammar` for the grammar and :mod:`parser.orders` for the API.
"""

from parser.orders import (
    MAX_LINE,
    OrderError,
    OrdersParse,
    ParsedOrder,
    parse_order,
    parse_orders,
)

__all__ = [
    "MAX_LINE",
    "OrderError",
    "OrdersParse",
    "ParsedOrder",
    "parse_order",
    "parse_orders",
]
