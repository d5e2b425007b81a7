"""Diplomap's kind of line: a power's Draw and Erase, filed with its Spring
and Fall moves (§II.B) and adjudicated after them (§II.F). Its own module,
so the engine's front door names it without loading Diplomap's geometry."""

from __future__ import annotations

from typing import Any

from engine.diplomap.values import Draw, Erase, MapOrder
from engine.lines import LineKind
from engine.phase import PhaseKind


def _unreadable(power: str, text: str, why: str) -> dict[str, Any]:
    return {"power": power, "order": text, "succeeded": False, "reason": f"unreadable: {why}"}


MAP_RESULTS_KEY = "map_results"  # the report section of the map orders' fates
MAP_ORDERS: LineKind[MapOrder] = LineKind(
    "map_orders", "map orders", Draw | Erase, frozenset({PhaseKind.MOVEMENT}),
    reported_in=MAP_RESULTS_KEY, unreadable=_unreadable,
    switched_on_by='Diplomap is not on (add "diplomap": true)')
