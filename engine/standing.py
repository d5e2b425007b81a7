"""Where each power stands after a phase: its score, the builds or removals
due in the Winter that follows, and its Diplomacy Points for the orders
phase that follows. Computed once, with the phase, by the rules that
resolved it (engine/game.py), so that the results need not ask the rules
again.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from engine.adjustments import free_sites
from engine.map import GameMap
from engine.phase import PhaseKind
from engine.rules import Rules
from engine.state import GameState


@dataclass(frozen=True, slots=True)
class AdjustmentDue:
    """A power that builds or removes in the coming Winter."""

    power: str
    score: int  # its centres at their values (the rules' scores)
    units: int
    due: int  # builds (positive) or removals (negative)
    free_sites: tuple[str, ...] = ()  # the owned, empty centres it may build in

    @property
    def builds_lost(self) -> int:
        """Builds due that no free site can take (a build needs one)."""
        return max(0, self.due - len(self.free_sites))


@dataclass(frozen=True, slots=True)
class Budget:
    """A player's Diplomacy Points for the coming orders phase, filed under
    its seat's first power (one pool per player), and the most it may bid
    on each group of neutral units (Dissolution's Favor caps)."""

    power: str
    points: int
    caps: tuple[tuple[str, int], ...] = ()  # (power, most DP), by power


@dataclass(frozen=True, slots=True)
class Standing:
    """Where the powers stand after a phase: scores, adjustments, budgets."""

    scores: Mapping[str, int]  # every power's score
    adjustments: tuple[AdjustmentDue, ...] = ()  # when a Winter follows
    budgets: tuple[Budget, ...] = ()  # when an orders phase with bids follows


def standing(game_map: GameMap, board: GameMap, rules: Rules, state: GameState) -> Standing:
    """``state``'s standing; ``board``: the map in force in it (Diplomap's
    provinces), where the centres are counted and the builds made."""
    scores = rules.scores(board, state)
    adjusting: tuple[AdjustmentDue, ...] = ()
    if state.phase.kind is PhaseKind.ADJUSTMENT:
        adjusting = _adjustments(board, rules, state, scores)
    budgets: tuple[Budget, ...] = ()
    if game_map.bid_powers and state.phase.kind is PhaseKind.MOVEMENT:
        budgets = _budgets(game_map, rules, state)
    return Standing(scores, adjusting, budgets)


def _adjustments(board: GameMap, rules: Rules, state: GameState,
                 scores: Mapping[str, int]) -> tuple[AdjustmentDue, ...]:
    out = []
    counts = state.unit_counts()
    occupied = {u.province for u in state.units}
    for name, power in board.powers.items():
        if name in state.unplayed or not rules.builds(power, state):
            continue
        units = counts.get(name, 0)
        due = rules.allowance(board, state, name, scores) - units
        if due:
            sites = tuple(sorted(free_sites(board, state, name, occupied))) if due > 0 else ()
            out.append(AdjustmentDue(name, scores.get(name, 0), units, due, sites))
    return tuple(out)


def _budgets(game_map: GameMap, rules: Rules, state: GameState) -> tuple[Budget, ...]:
    # one pool per player: a seat of several powers (a colour group) bids
    # under its first power
    pooled = {p for seat in state.seats if len(seat.powers) > 1 for p in seat.powers[1:]}
    out = []
    for power in game_map.powers:
        if power in pooled:
            continue
        points, caps = rules.bid_allowance(game_map, state, power)
        if points:
            out.append(Budget(power, points, tuple(sorted(caps.items()))))
    return tuple(out)
