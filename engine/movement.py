"""A movement phase: orders checked, resolved, and the board that follows."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from functools import partial

from engine.bids import Bid, bid_section
from engine.legality import CheckedMovement, check_movement
from engine.map import GameMap, UnitKind, province_of
from engine.movement_result import MovementResult
from engine.neutral_report import neutral_section
from engine.order_sets import OrderSet
from engine.orders import Convoy, Hold, Move, MovementOrder, Order, SupportHold, SupportMove
from engine.outcomes import OrderResult, Outcome, Reason, Why, illegal
from engine.reports import ReportSection
from engine.resolver import MovementResolver
from engine.rules import STANDARD, NeutralOrders, Rules
from engine.state import Dislodged, GameState
from engine.units import Unit


def resolve_movement(
    game_map: GameMap, state: GameState, orders: Mapping[str, Sequence[Order]],
    rules: Rules = STANDARD, bids: Mapping[str, Sequence[Bid]] | None = None,
) -> MovementResult:
    units = {u.province: u for u in state.units}
    board = rules.occupancy(game_map, state, units)
    by_bids = game_map.bid_powers

    def check(power: str, order: Order) -> CheckedMovement:
        if power in state.unplayed:
            return None, illegal(f"{power} is not played: its units hold")
        if power in by_bids:
            return None, illegal(f"{power} is neutral: its orders come from bids")
        refusal = rules.order_refusal(game_map, state, power, order)
        if refusal:
            return None, illegal(refusal)
        return check_movement(board, power, order)

    # every power orders its own units (the standard game): no power to turn
    # away, nor any DPJudge rule flag that refuses orders (engine/flag_rules.py)
    checker = check if state.unplayed or by_bids or game_map.flags \
        else partial(check_movement, board)
    order_set: OrderSet[MovementOrder] = OrderSet(orders, checker)
    chosen = order_set.chosen
    neutral = rules.neutral_orders(game_map, state, board, dict(chosen), bids or {}) \
        if by_bids else _NO_NEUTRALS
    chosen.update(neutral.orders)
    for prov, unit in units.items():
        if prov not in chosen:
            chosen[prov] = Hold(board.ref(unit))

    players = rules.sides(state)
    resolver = MovementResolver(
        game_map, units, chosen,
        lambda a, b: players.get(a, a) == players.get(b, b),
        rules.combat(game_map, units),
    )
    resolver.run()

    dislodgers = {prov: resolver.dislodged_by(prov) for prov in resolver.attackers
                  if prov in units}
    results, answered = order_set.answer(
        lambda power, prov, order: judge_order(resolver, prov, order, power, dislodgers.get(prov)))
    # units without a legal order hold; list them so result mails show every unit
    for prov, unit in units.items():
        if prov not in answered:
            results.append(judge_order(resolver, prov, chosen[prov], unit.power,
                                  dislodgers.get(prov)))

    after, reports = rules.after_movement(game_map, state, resolver, chosen)
    neutrals = neutral_section(results, by_bids, neutral.from_bids, resolver.attackers) \
        if by_bids else ()
    moved = _after(game_map, after, units, chosen, resolver, dislodgers, tuple(results), rules,
                   (*bid_section(neutral.bids), *neutrals, *reports))
    return replace(moved, state=after) if after is not state else moved


def judge_order(
    resolver: MovementResolver, prov: str, order: MovementOrder, power: str,
    dislodger: str | None,
) -> OrderResult:
    kind = type(order)
    if kind is Move:
        if resolver.moved(prov):
            return OrderResult(power, order, Outcome.SUCCEEDS)
        return OrderResult(power, order, Outcome.FAILS, resolver.move_failure(prov))
    if kind is not Hold and prov not in resolver.matched:
        assert isinstance(order, (SupportHold, SupportMove, Convoy))
        return OrderResult(power, order, Outcome.VOID, Reason(
            Why.NOT_MATCHED, (order.target.location,),
            detail=_NOT_CONVOYED if kind is Convoy and province_of(order.target.location)
            in resolver.moves else ""))
    if dislodger is not None:
        return OrderResult(power, order, Outcome.FAILS, Reason(Why.DISLODGED, (dislodger,)))
    disabler = resolver.disabled_by(prov) \
        if resolver.can_disable and resolver.attackers.get(prov) else None
    if disabler is not None:
        return OrderResult(power, order, Outcome.FAILS, Reason(Why.DISABLED, (disabler,)))
    if kind is Convoy:
        if prov in resolver.paradox_held:
            return OrderResult(power, order, Outcome.FAILS, Reason(Why.PARADOX))
    elif kind is not Hold and not resolver.succeeded(prov):
        cutter = resolver.cut_by(prov)
        return OrderResult(power, order, Outcome.FAILS,
                           Reason(Why.CUT, (cutter,) if cutter else ()))
    return OrderResult(power, order, Outcome.SUCCEEDS)


_NOT_CONVOYED = "the army does not go by convoy"
_NO_NEUTRALS = NeutralOrders()


def _after(
    game_map: GameMap,
    state: GameState,
    units: Mapping[str, Unit],
    chosen: Mapping[str, MovementOrder],
    resolver: MovementResolver,
    dislodgers: Mapping[str, str | None],
    results: tuple[OrderResult, ...],
    rules: Rules,
    reports: tuple[ReportSection, ...],
) -> MovementResult:
    board: list[Unit] = []
    dislodged: list[tuple[Unit, str]] = []
    for prov, unit in units.items():
        order = chosen[prov]
        if isinstance(order, Move) and resolver.moved(prov):
            board.append(Unit(unit.power, unit.kind, order.dest))
            continue
        attacker = dislodgers.get(prov)
        if attacker is None:
            board.append(unit)
        else:
            dislodged.append((unit, attacker))
    contested = frozenset(resolver.contested())
    occupied = {u.province for u in board}
    out: list[Dislodged] = []
    for unit, attacker in dislodged:
        by_convoy = attacker in resolver.convoyed
        barred = rules.retreat_barred(game_map, state, unit)
        options = retreat_options(game_map, unit, attacker, by_convoy, occupied, contested,
                                  barred) if rules.may_retreat(game_map, unit) else ()
        out.append(Dislodged(unit, attacker, by_convoy, options))
    return MovementResult(results, tuple(board), tuple(out), contested, reports)


def retreat_options(
    game_map: GameMap,
    unit: Unit,
    attacker: str,
    by_convoy: bool,
    occupied: set[str] | frozenset[str],
    contested: frozenset[str],
    closed: frozenset[str],
) -> tuple[str, ...]:
    """Where a dislodged unit may go: not occupied, not contested, not closed,
    not where its attacker came from unless the attacker was convoyed."""
    options = []
    for loc in sorted(game_map.neighbours(unit.kind, unit.location)):
        prov = province_of(loc)
        if unit.kind is not UnitKind.FLEET and not game_map.can_stand(unit.kind, prov):
            continue
        if prov in occupied or prov in contested or prov in closed:
            continue
        if prov == attacker and not by_convoy:
            continue
        options.append(loc)
    return tuple(options)
