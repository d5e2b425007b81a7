"""Timing the two engines, and the ``--replay`` mode.

Each call is timed once with ``time.perf_counter_ns()``, with the garbage
collector disabled during the call. The package's inner ``Game._process()``
is timed through a subclass of its ``Game``. This engine's order intake is
``parser.parse_order`` on each order's DPJudge text.

``replay`` times this engine alone on the movement phases saved with
``--save-phases``, back to back (the package is not needed). ``machine``
describes where the figures were measured.
"""

from __future__ import annotations

import gc
import json
import math
import os
import platform
import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from importlib import metadata
from pathlib import Path
from typing import Any

from conversion import convert_order, engine_state
from cpu import cpu_model
from package_games import PackageGame

from engine.game import Resolution, adjudicate
from engine.map import GameMap
from engine.orders import Order
from engine.state import GameState
from engine.variant_file import load_variant

try:
    from parser import OrderError, parse_order
except ImportError:  # pragma: no cover - the parser may not be there yet
    parse_order = None
    OrderError = None

PARSER_AVAILABLE = parse_order is not None


INNER_PROCESS_NS: list[int] = []  # times of the package's inner Game._process()
_TIMED_GAME: Any = None


def timed_game_class() -> Any:
    """The package's Game, timing its inner ``_process()`` (the class uses
    slots: an instance's method cannot be replaced)."""
    global _TIMED_GAME
    if _TIMED_GAME is None:
        class TimedGame(PackageGame):  # type: ignore[misc, valid-type]
            def _process(self) -> None:
                start = time.perf_counter_ns()
                super()._process()
                INNER_PROCESS_NS.append(time.perf_counter_ns() - start)

        _TIMED_GAME = TimedGame
    return _TIMED_GAME


def timed(call: Callable[[], Any]) -> tuple[Any, int]:
    """``call()`` and the nanoseconds it took, with the garbage collector off."""
    gc.disable()
    try:
        start = time.perf_counter_ns()
        value = call()
        return value, time.perf_counter_ns() - start
    finally:
        gc.enable()


def parse_orders(game_map: GameMap, texts: Mapping[str, Sequence[str]]) -> dict[str, list[Order]]:
    """This engine's order intake: each order's text through ``parser.parse_order``."""
    assert parse_order is not None
    parsed: dict[str, list[Order]] = {}
    for power, lines in texts.items():
        out = parsed.setdefault(power, [])
        for line in lines:
            order = parse_order(line, game_map)
            if not isinstance(order, OrderError):
                out.append(order)
    return parsed


def parse_and_adjudicate(game_map: GameMap, state: GameState,
                         texts: Mapping[str, Sequence[str]]) -> Resolution:
    return adjudicate(game_map, state, parse_orders(game_map, texts))


def machine() -> dict[str, Any]:
    """Where the figures were measured."""
    try:
        package_version = metadata.version("diplomacy")
    except metadata.PackageNotFoundError:
        package_version = "?"
    return {"cpus": os.cpu_count(), "cpu": cpu_model(),
            "python": platform.python_version(), "diplomacy": package_version}


def replay(path: Path) -> dict[str, Any]:
    """Time this engine alone on saved movement phases."""
    game_map = load_variant("standard")
    phases = json.loads(path.read_text())
    engine_ns: list[int] = []
    parse_ns: list[int] = []
    for saved in phases:
        state = engine_state(game_map, saved["phase"], saved["units"], saved["centres"])
        orders = {p: [convert_order(o, "M") for o in os] for p, os in saved["orders"].items()}
        _, ns = timed(lambda: adjudicate(game_map, state, orders))  # noqa: B023
        engine_ns.append(ns)
        if parse_order is not None:
            texts = {p: [str(o) for o in os] for p, os in orders.items()}
            _, ns = timed(lambda: parse_and_adjudicate(game_map, state, texts))  # noqa: B023
            parse_ns.append(ns)
    return {
        "phases": len(phases),
        "median_ms_engine_adjudicate": round(statistics.median(engine_ns) / 1e6, 4)
        if engine_ns else None,
        "median_ms_engine_parse_and_adjudicate": round(statistics.median(parse_ns) / 1e6, 4)
        if parse_ns else None,
        "machine": machine(),
    }


def timed_ns(call: Callable[[], Any]) -> int:
    """Nanoseconds ``call()`` took, with the garbage collector off."""
    gc.disable()
    try:
        start = time.perf_counter_ns()
        call()
        return time.perf_counter_ns() - start
    finally:
        gc.enable()


def figures(ns: Sequence[int]) -> dict[str, float]:
    """Median, 95th percentile and maximum of some timings, in milliseconds."""
    ordered = sorted(ns)
    return {"median_ms": round(statistics.median(ordered) / 1e6, 4),
            "p95_ms": round(ordered[math.ceil(0.95 * len(ordered)) - 1] / 1e6, 4),
            "max_ms": round(ordered[-1] / 1e6, 4),
            "calls": len(ordered)}


def write_json(path: Path | None, data: Any) -> None:
    """A benchmark's figures as JSON (``--json``), when it was asked for."""
    if path is None:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=1, default=str) + "\n")
