"""What a Winter asks of a power, in words: how many builds or removals are
due, and why a build is lost when too few home centres are free (a power
builds only on its own, empty home centres)."""

from __future__ import annotations

from collections.abc import Sequence

from engine.adjustments import adjustment_due
from engine.map import GameMap
from engine.orders import Build, Remove, Waive
from engine.state import GameState
from engine.variants import rules_for
from parser import OrderError, parse_order


def free_home_centres(game_map: GameMap, state: GameState, power: str) -> list[str]:
    """The power's build sites it owns and no unit stands on."""
    owned = set(state.centres_of(power))
    occupied = {u.province for u in state.units}
    sites = rules_for(game_map).build_sites(game_map, state, power)
    return sorted(c for c in sites if c in owned and c not in occupied)


def builds_lost(game_map: GameMap, state: GameState, power: str) -> str:
    """Why fewer builds can be made than are due, or ''."""
    return lost_builds_text(power, adjustment_due(game_map, state, power),
                            free_home_centres(game_map, state, power))


def lost_builds_text(power: str, due: int, free: Sequence[str]) -> str:
    """Why fewer builds can be made than are due (``free``: the build sites
    owned and empty), or ''."""
    if due <= len(free):
        return ""
    lost = due - len(free)
    have = (f"{len(free)} free home centre{'s' * (len(free) != 1)} ({' '.join(free)})"
            if free else "no free home centre")
    return (f"{power} has {have} for {due} build{'s' * (due != 1)}: {lost} "
            f"build{'s' * (lost != 1)} lost (a build needs a home centre it owns "
            "with no unit on it)")


def due_lines(game_map: GameMap, state: GameState, powers: Sequence[str],
              on_file: dict[str, list[str]]) -> list[str]:
    """One line per power that builds or removes: how many are due, how
    many are ordered, and what happens to the rest at the deadline."""
    lines = []
    # the board in force: Diplomap's provinces read, its centres counted
    board = rules_for(game_map).map_for(game_map, state)
    for power in powers:
        due = adjustment_due(board, state, power)
        if power in state.unplayed:
            continue
        if due == 0:
            lines.append(f"{power} neither builds nor removes this winter")
            continue
        orders = [parse_order(t, board) for t in on_file.get(power, [])]
        if due > 0:
            possible = min(due, len(free_home_centres(board, state, power)))
            given = sum(isinstance(o, (Build, Waive)) for o in orders)
            line = (f"{power} builds {due}: {given} of {possible} ordered; "
                    "builds not ordered are waived")
            lost = builds_lost(board, state, power)
            if lost:
                line += f"\n  {lost}"
        else:
            given = sum(isinstance(o, Remove) for o in orders
                        if not isinstance(o, OrderError))
            line = (f"{power} removes {-due}: {given} of {-due} ordered; units not ordered "
                    "are removed by the civil disorder rule")
        lines.append(line)
    for power in powers:  # what else the Winter asks (Dissolution's Embassies)
        lines.extend(rules_for(game_map).winter_asks(board, state, power))
    return lines
