"""One call per phase: ``adjudicate(map, state, orders) -> Resolution``.

This is the engine's front door. It picks the phase's procedure, then moves
the game on: retreats only when something was dislodged, supply centres
change hands after Fall, adjustments only when some power has one to make,
and victory is checked once the centres are counted.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from engine.adjustments import needs_adjustments, resolve_adjustments
from engine.bids import Bid
from engine.diplomap.lines import MAP_ORDERS
from engine.diplomap.values import MapOrder
from engine.lines import BIDS, Lines
from engine.map import GameMap
from engine.movement import resolve_movement
from engine.orders import Convoy, Disband, Hold, Move, Order, SupportHold, SupportMove, UnitRef
from engine.outcomes import OrderResult, Outcome, Reason, Why
from engine.phase import PhaseKind
from engine.phase_context import PhaseContext, phase_context
from engine.reports import Destroyed, ReportSection, destroyed_section, removed_in_disorder
from engine.retreats import resolve_retreats
from engine.rules import Rules
from engine.standing import Standing, standing
from engine.state import Dislodged, GameState, Seat
from engine.units import Unit
from engine.variants import rules_for


@dataclass(frozen=True, slots=True)
class Resolution:
    """A phase adjudicated: its results, the next position and what it reports."""

    state: GameState  # the phase that was adjudicated
    results: tuple[OrderResult, ...]
    next: GameState
    winner: str | None = None  # the winning power (or player, where players win)
    # what the results report besides the orders, in the order found: the
    # bids' fates (secret until the game ends), the variant's own sections
    # (Dissolution's violations and kicks, Diplomap's map orders and the
    # board's changes), the units destroyed without a retreat (engine/reports.py)
    reports: tuple[ReportSection, ...] = ()
    # the scores, adjustments due and Diplomacy Points ``next`` leaves
    standing: Standing = field(default_factory=lambda: Standing({}))

    def report(self, key: str) -> ReportSection | None:
        return next((s for s in self.reports if s.key == key), None)

    def facts(self, key: str) -> tuple[Any, ...]:
        """The typed values a section reports (Dissolution's Violations...)."""
        found = self.report(key)
        return found.facts if found is not None else ()


def adjudicate(
    game_map: GameMap, state: GameState, orders: Mapping[str, Sequence[Order]],
    bids: Mapping[str, Sequence[Bid]] | None = None,
    map_orders: Mapping[str, Sequence[MapOrder]] | None = None, *,
    lines: Lines | None = None, context: PhaseContext | None = None,
) -> Resolution:
    """Resolve one phase. ``lines``: each power's lines of the other kinds
    the rules read (``rules.line_kinds``), by kind name; a kind the rules
    do not read in this phase is not looked at. ``bids`` (Diplomacy Point
    bids) and ``map_orders`` (Diplomap's Draws and Erases) give two of
    them by name, for callers that know which they have. ``context``: the
    phase's map, rules and board, when the caller has worked them out."""
    context = context or phase_context(game_map, state)
    rules = context.rules
    given = _read_now(rules, state.phase.kind, {
        **(lines or {}), **({BIDS.name: bids} if bids is not None else {}),
        **({MAP_ORDERS.name: map_orders} if map_orders is not None else {})})
    resolved = _resolve(game_map, rules, context.board, state, orders, given)
    after = resolved.next
    return replace(resolved,
                   reports=(*resolved.reports,
                            *rules.report_sections(game_map, state, after)),
                   standing=standing(game_map, rules.map_for(game_map, after), rules, after))


def _resolve(
    game_map: GameMap, rules: Rules, phase_map: GameMap, state: GameState,
    orders: Mapping[str, Sequence[Order]], given: Lines,
) -> Resolution:
    kind = state.phase.kind
    if kind is PhaseKind.MOVEMENT:
        moved = resolve_movement(phase_map, state, orders, rules, BIDS.given(given))
        after = moved.state or state  # kicked Embassies move before the retreats
        reports = moved.reports
        if rules.diplomap:  # the board changes after the moves, before the retreats
            moved, after, map_reports, phase_map = rules.map_stage(
                game_map, phase_map, after, moved, MAP_ORDERS.given(given))
            reports = (*reports, *map_reports)
        # unplayed and stationary units are disbanded when dislodged, without
        # a retreat phase
        retreating = tuple(d for d in moved.dislodged if d.unit.power not in state.unplayed
                           and rules.may_retreat(phase_map, d.unit))
        gone: tuple[Destroyed, ...] = ()
        if len(retreating) < len(moved.dislodged):
            results, gone = _destroyed(phase_map, rules, after, moved.results,
                                       moved.dislodged, retreating)
            moved = replace(moved, results=results)
        if retreating:
            return Resolution(state, moved.results, after.evolve(
                units=moved.units, dislodged=retreating, contested=moved.contested,
                phase=state.phase.retreat()), reports=(*reports, *destroyed_section(gone)))
        return _end_of_season(phase_map, rules, state, moved.results, moved.units,
                              reports, gone, after)
    if kind is PhaseKind.RETREAT:
        retreated = resolve_retreats(phase_map, state, rules.retreat_orders(
            phase_map, state, orders))
        return _end_of_season(phase_map, rules, state, retreated.results, retreated.units)
    side_results, side_state, orders = rules.winter_orders(phase_map, state, orders)
    adjusted = resolve_adjustments(phase_map, state, orders)
    after = side_state.evolve(units=adjusted.units, phase=state.phase.following_movement())
    after = rules.after_adjustments(phase_map, after, adjusted.built)
    return Resolution(state, (*adjusted.results, *side_results), after,
                      reports=destroyed_section(removed_in_disorder(adjusted.results)))


def _read_now(rules: Rules, phase: PhaseKind, lines: Lines) -> Lines:
    """The lines of the kinds these rules read in this phase."""
    return {k.name: lines[k.name] for k in rules.line_kinds
            if k.name in lines and k.read_in(phase)}


def _destroyed(game_map: GameMap, rules: Rules, state: GameState,
               results: tuple[OrderResult, ...], dislodged: tuple[Dislodged, ...],
               retreating: tuple[Dislodged, ...],
               ) -> tuple[tuple[OrderResult, ...], tuple[Destroyed, ...]]:
    """Each dislodged unit that is gone without a retreat (a stationary or
    unplayed unit): the results, with a row saying so where the unit's own
    order's result does not (a unit that moved, say, and was dislodged
    meanwhile), and the units destroyed."""
    told = {r.order.unit.location for r in results
            if r.reason is not None and r.reason.why is Why.DISLODGED
            and isinstance(r.order, (Hold, Move, SupportHold, SupportMove, Convoy))}
    extra: list[OrderResult] = []
    gone: list[Destroyed] = []
    for d in dislodged:
        if d in retreating:
            continue
        reason = Reason(Why.DISLODGED, (d.attacker,),
                        detail=rules.why_no_retreat(game_map, state, d.unit))
        row = ""
        if d.unit.location not in told:
            order = Disband(UnitRef(d.unit.location, d.unit.kind))
            extra.append(OrderResult(d.unit.power, order, Outcome.SUCCEEDS, reason))
            row = str(order)
        gone.append(Destroyed(d.unit.power, str(d.unit), reason.describe(), row))
    return (*results, *extra), tuple(gone)


def _end_of_season(
    game_map: GameMap, rules: Rules, state: GameState, results: tuple[OrderResult, ...],
    units: tuple[Unit, ...], reports: tuple[ReportSection, ...] = (),
    gone: tuple[Destroyed, ...] = (), after: GameState | None = None,
) -> Resolution:
    """The board after a season's movement and retreats: on to the next phase.

    ``state`` is the phase adjudicated; ``after`` the position the rules
    left after its moves (kicked Embassies), when they changed it;
    ``gone``: the units already destroyed without a retreat."""
    adjudicated = state
    state = after or state
    phase = state.phase
    destroyed = rules.retaliation(game_map, state, units)
    if destroyed:
        state = rules.after_retaliation(game_map, state, destroyed)
        units = tuple(u for u in units if u not in destroyed)
        hit = [(u, Disband(UnitRef(u.location, u.kind)),
                Reason(Why.RETALIATION, detail=rules.why_retaliation(game_map, state, u)))
               for u in destroyed]
        results = (*results, *(OrderResult(u.power, order, Outcome.SUCCEEDS, why)
                               for u, order, why in hit))
        gone = (*gone, *(Destroyed(u.power, str(u), why.describe(), str(order))
                         for u, order, why in hit))
    reports = (*reports, *destroyed_section(gone))
    if not phase.counts_centres:
        return Resolution(adjudicated, results, state.evolve(
            units=units, dislodged=(), contested=frozenset(),
            phase=phase.following_movement()), None, reports)
    following = state.evolve(units=units, dislodged=(), contested=frozenset(),
                             owners=take_centres(state.owners, units, game_map, rules))
    if following.coin_toss_power and following.coin_toss_year == phase.year:
        following = coin_toss(following)
    scores = rules.scores(game_map, following)
    winner = rules.victor(game_map, following, scores)
    following = rules.end_of_year(game_map, following, scores)
    adjusting = phase.adjustment()  # None in a year whose flow has no adjustments
    if adjusting is not None and (rules.always_winter
                                  or needs_adjustments(game_map, following, scores)):
        following = following.evolve(phase=adjusting)
    else:
        following = following.evolve(phase=phase.following_movement())
    return Resolution(adjudicated, results, following, winner, reports)


def take_centres(
    owners: tuple[tuple[str, str], ...], units: Sequence[Unit], game_map: GameMap,
    rules: Rules | None = None,
) -> tuple[tuple[str, str], ...]:
    """After Fall, a supply centre belongs to the power whose unit stands on
    it (unless that power's units never capture: the US Navy)."""
    rules = rules or rules_for(game_map)
    owner = dict(owners)
    centres = game_map.supply_centres
    everyone_captures = not game_map.non_capturing
    for unit in units:
        if unit.province in centres and (everyone_captures or rules.captures(game_map, unit)):
            owner[unit.province] = unit.power
    return tuple(sorted(owner.items()))


def victor(
    game_map: GameMap, state: GameState, counts: Mapping[str, int] | None = None
) -> str | None:
    """The power (or, when players win, the player) that has won.

    ``counts``: the powers' scores (rules.scores), when already known.
    """
    rules = rules_for(game_map)
    return rules.victor(game_map, state, counts if counts is not None
                        else rules.scores(game_map, state))


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
