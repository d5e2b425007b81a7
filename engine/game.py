"""One call per phase: ``adjudicate(map, state, orders) -> Resolution``.

This is the engine's front door. It picks the phase's procedure, then moves
the game on: retreats only when something was dislodged, supply centres
change hands after Fall, adjustments only when some power has one to make,
and victory is checked once the centres are counted.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from engine.adjustments import centre_counts, needs_adjustments, resolve_adjustments
from engine.map import GameMap
from engine.movement import resolve_movement
from engine.orders import Order
from engine.outcomes import OrderResult
from engine.phase import PhaseKind, Season
from engine.retreats import resolve_retreats
from engine.state import GameState, Seat
from engine.units import Unit


@dataclass(frozen=True, slots=True)
class Resolution:
    state: GameState  # the phase that was adjudicated
    results: tuple[OrderResult, ...]
    next: GameState
    winner: str | None = None  # the winning power (or player, where players win)


def adjudicate(
    game_map: GameMap, state: GameState, orders: Mapping[str, Sequence[Order]]
) -> Resolution:
    year_map = game_map.with_canals_for(state.phase.year)
    kind = state.phase.kind
    if kind is PhaseKind.MOVEMENT:
        moved = resolve_movement(year_map, state, orders)
        # units of unplayed powers are disbanded when dislodged, without a retreat phase
        retreating = tuple(d for d in moved.dislodged if d.unit.power not in state.unplayed)
        if retreating:
            return Resolution(state, moved.results, state.evolve(
                units=moved.units, dislodged=retreating, contested=moved.contested,
                phase=state.phase.retreat()))
        return _end_of_season(year_map, state, moved.results, moved.units)
    if kind is PhaseKind.RETREAT:
        retreated = resolve_retreats(year_map, state, orders)
        return _end_of_season(year_map, state, retreated.results, retreated.units)
    adjusted = resolve_adjustments(year_map, state, orders)
    after = state.evolve(units=adjusted.units, phase=state.phase.following_movement())
    return Resolution(state, adjusted.results, after)


def _end_of_season(
    game_map: GameMap, state: GameState, results: tuple[OrderResult, ...],
    units: tuple[Unit, ...],
) -> Resolution:
    """The board after a season's movement and retreats: on to the next phase."""
    phase = state.phase
    if phase.season is Season.SPRING:
        return Resolution(state, results, state.evolve(
            units=units, dislodged=(), contested=frozenset(),
            phase=phase.following_movement()))
    after = state.evolve(units=units, dislodged=(), contested=frozenset(),
                         owners=take_centres(state.owners, units, game_map))
    if after.coin_toss_power and after.coin_toss_year == phase.year:
        after = coin_toss(after)
    counts = centre_counts(game_map, after)
    winner = victor(game_map, after, counts)
    if needs_adjustments(game_map, after, counts):
        after = after.evolve(phase=phase.adjustment())
    else:
        after = after.evolve(phase=phase.following_movement())
    return Resolution(state, results, after, winner)


def take_centres(
    owners: tuple[tuple[str, str], ...], units: Sequence[Unit], game_map: GameMap
) -> tuple[tuple[str, str], ...]:
    """After Fall, a supply centre belongs to the power whose unit stands on it."""
    owner = dict(owners)
    for unit in units:
        if unit.province in game_map.supply_centres:
            owner[unit.province] = unit.power
    return tuple(sorted(owner.items()))


def victor(
    game_map: GameMap, state: GameState, counts: Mapping[str, int] | None = None
) -> str | None:
    """The power (or, when players win, the player) holding enough centres.

    ``counts``: the powers' centre counts (centre_counts), when already known.
    """
    if counts is None:
        counts = centre_counts(game_map, state)
    tallies: Mapping[str, int] = counts
    if state.victory_by_player:
        tallies = {seat.player: sum(counts.get(p, 0) for p in seat.powers)
                   for seat in state.seats}
    best = max(tallies.items(), key=lambda kv: kv[1], default=None)
    if best is not None and best[1] >= state.victory:
        return best[0]
    return None


def coin_toss(state: GameState) -> GameState:
    """The two-player game: a neutral power joins the winner of a coin toss.

    The toss is drawn from the game's seed, so replaying a game gives the
    same result.
    """
    power = state.coin_toss_power
    assert power is not None
    players = sorted(seat.player for seat in state.seats if power not in seat.powers)
    winner = random.Random(f"{state.seed}:{power}:{state.coin_toss_year}").choice(players)
    seats = tuple(
        Seat(seat.player, (*seat.powers, power)) if seat.player == winner else seat
        for seat in state.seats
    )
    return state.evolve(
        seats=seats,
        unplayed=state.unplayed - {power},
        closed=frozenset(),
        coin_toss_power=None,
        notes=(*state.notes, f"coin toss: {power} joins {winner}"),
    )
