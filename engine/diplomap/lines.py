"""Diplomap's kind of line: a power's Draw and Erase, filed with its Spring
and Fall moves (§II.B) and adjudicated after them (§II.F). Its own module,
so the engine's front door names it without loading Diplomap's geometry."""

from __future__ import annotations

from engine.diplomap.values import Draw, Erase, MapOrder
from engine.lines import LineKind
from engine.phase import PhaseKind

MAP_ORDERS: LineKind[MapOrder] = LineKind("map_orders", "map orders", Draw | Erase,
                                          frozenset({PhaseKind.MOVEMENT}))
