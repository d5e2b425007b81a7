"""Shrinking a movement phase where the engines differ to a small position.

For the examples of a run (``--examples``): units are dropped, then orders
turned into holds, while the comparison keeps showing what was asked for (an
unexplained difference, or exactly one known difference) and every order
stays legal for both engines.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from conversion import convert_order, engine_state, package_position
from differences import Verdict, judge_movement, position_differences
from package_games import package_adjudicate

from engine.game import adjudicate
from engine.map import GameMap
from engine.outcomes import Outcome


def minimise(game_map: GameMap, phase: str, units: Mapping[str, Sequence[str]],
             orders: Mapping[str, Sequence[str]],
             keep: Callable[[Verdict], bool], budget: int = 400) -> dict[str, Any] | None:
    """Drop units, then turn orders into holds, while ``keep`` holds for the
    comparison and every order stays legal for both engines."""
    entries = []  # (power, unit, order)
    for power, power_units in units.items():
        for unit in power_units:
            given = next((o for o in orders.get(power, ()) if o.split()[:2] == unit.split()),
                         f"{unit} H")
            entries.append((power, unit, given))
    tries = 0

    def build(candidate: list[tuple[str, str, str]]
              ) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
        present = {u.split()[1][:3] for _, u, _ in candidate}
        cu: dict[str, list[str]] = {}
        co: dict[str, list[str]] = {}
        for power, unit, order in candidate:
            words = order.split()
            if words[2] in ("S", "C") and words[4][:3] not in present:
                order = f"{unit} H"
            cu.setdefault(power, []).append(unit)
            co.setdefault(power, []).append(order)
        return cu, co

    def verdict(candidate: list[tuple[str, str, str]]) -> Verdict | None:
        nonlocal tries
        tries += 1
        cu, co = build(candidate)
        game, errors, data = package_adjudicate(phase, cu, {}, co)
        if errors:
            return None
        state = engine_state(game_map, phase, cu, {})
        resolution = adjudicate(game_map, state, {
            p: [convert_order(o, "M") for o in os] for p, os in co.items()})
        if any(r.outcome is Outcome.ILLEGAL for r in resolution.results):
            return None
        return judge_movement(game_map, phase, cu, {}, co, resolution,
                              package_position(game), data.results)

    def still(candidate: list[tuple[str, str, str]]) -> bool:
        v = verdict(candidate)
        return v is not None and keep(v)

    if not still(entries):
        return None
    changed = True
    while changed and tries < budget:
        changed = False
        for i in range(len(entries) - 1, -1, -1):
            if i < len(entries) and tries < budget:
                trial = entries[:i] + entries[i + 1:]
                if still(trial):
                    entries, changed = trial, True
        for i, (power, unit, order) in enumerate(entries):
            if order.split()[2] != "H" and tries < budget:
                trial = list(entries)
                trial[i] = (power, unit, f"{unit} H")
                if still(trial):
                    entries, changed = trial, True
    out_units, out_orders = build(entries)
    game, _, data = package_adjudicate(phase, out_units, {}, out_orders)
    state = engine_state(game_map, phase, out_units, {})
    resolution = adjudicate(game_map, state, {
        p: [convert_order(o, "M") for o in os] for p, os in out_orders.items()})
    pkg_board, pkg_dislodged = package_position(game)
    return {
        "phase": phase,
        "units": out_units,
        "orders": {p: [o for o in os if not o.endswith(" H")] for p, os in out_orders.items()},
        "differences": position_differences((pkg_board, pkg_dislodged), resolution.next),
        "package_results": {u: [str(c) for c in cs] for u, cs in data.results.items()
                            if {str(c) for c in cs} - {""}},
        "engine_results": [f"{r.order}: {r.outcome.value}"
                           + (f" ({r.reason.describe()})" if r.reason else "")
                           for r in resolution.results if r.outcome is not Outcome.SUCCEEDS],
        "tries": tries,
    }
