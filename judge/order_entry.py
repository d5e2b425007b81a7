"""A player's orders for a phase: read from a mail, checked by the engine
for the player's powers, and kept on file (each mail's orders replace the
ones before, as on DPJudge)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from sqlmodel import Session

from engine.bids import Bid
from engine.game import adjudicate
from engine.map import GameMap, UnitKind
from engine.orders import Build, Order, Waive
from engine.outcomes import Outcome, Why
from engine.phase import PhaseKind
from engine.state import GameState
from engine.variants import rules_for
from judge.games import (
    GameError,
    current_state,
    file_bids,
    file_orders,
    map_of,
    powers_of,
    powers_to_order,
)
from judge.models import Game, Member
from parser import OrderError, parse_order, parse_orders
from parser.bids import looks_like_bid, parse_bid


@dataclass(frozen=True)
class OrderNote:
    line: int
    text: str  # the order as written
    problem: str  # '' when accepted


@dataclass(frozen=True)
class OrdersReport:
    notes: tuple[OrderNote, ...]  # one per order line, in line order


def _owner(game_map: GameMap, state: GameState, order: Order,
           powers: Sequence[str]) -> str | None:
    """Which of a seat's powers an order is for."""
    if isinstance(order, Waive):
        for power in powers:
            if power in powers_to_order(game_map, state):
                return power
        return powers[0] if powers else None
    if isinstance(order, Build):
        prov = order.location.partition("/")[0]
        sites = rules_for(game_map)
        return next((p for p in powers if prov in sites.build_sites(game_map, state, p)), None)
    if order.unit.kind is UnitKind.EMBASSY:  # the seat's Embassy on that space
        return next((p for p, _, space in state.embassies
                     if p in powers and space == order.unit.location), None)
    prov = order.unit.location.partition("/")[0]
    units = [d.unit for d in state.dislodged] if state.phase.kind is PhaseKind.RETREAT \
        else list(state.units)
    unit = next((u for u in units if u.province == prov), None)
    return unit.power if unit is not None else None


def submit_orders(session: Session, game: Game, member: Member,
                  lines: Sequence[tuple[int, str]]) -> OrdersReport:
    """Read a mail's orders for the member's powers. They replace every
    order the member had on file for this phase (DPJudge semantics)."""
    if game.status != "active":
        raise GameError(f"game {game.name} is not running (it is {game.status})")
    game_map = map_of(game)
    state = current_state(session, game)
    powers = powers_of(member)
    lines, bid_lines = split_bids(lines)
    text = "\n".join(t for _, t in lines)
    first_line = {i + 1: n for i, (n, _) in enumerate(lines)}
    parsed = parse_orders(text, game_map)
    notes: list[OrderNote] = []
    accepted: dict[str, list[Order]] = {p: [] for p in powers}
    for error in parsed.errors:
        notes.append(OrderNote(first_line.get(error.line, error.line), error.source, str(
            error).split(": ", 1)[-1]))
    candidates: list[tuple[int, str, str, Order]] = []
    for item in parsed.orders:
        line = first_line.get(item.line, item.line)
        power = _owner(game_map, state, item.order, powers)
        if power is None or power not in powers:
            if isinstance(item.order, (Build, Waive)):
                problem = "not a home centre of yours"
            elif power is None:
                problem = f"there is no unit in {item.order.unit.location.partition('/')[0]}" + (
                    " to retreat" if state.phase.kind is PhaseKind.RETREAT else "")
            else:
                problem = "that unit is not yours"
            notes.append(OrderNote(line, item.source, problem))
            continue
        candidates.append((line, item.source, power, item.order))
    # legality, judged by the engine on this seat's orders alone
    for power in powers:
        mine = [c for c in candidates if c[2] == power]
        if not mine:
            continue
        results = [r for r in adjudicate(game_map, state, {power: [c[3] for c in mine]}).results
                   if r.power == power][:len(mine)]
        for (line, source, _, _order), result in zip(mine, results, strict=False):
            # builds or removals beyond the allowance are void: say so now,
            # as for an illegal order, rather than 'ok' and void at the deadline
            if result.outcome is Outcome.ILLEGAL or (
                    result.reason is not None and result.reason.why is Why.TOO_MANY):
                reason = result.reason.describe() if result.reason else "illegal"
                notes.append(OrderNote(line, source, reason))
            else:
                accepted[power].append(result.order)
                notes.append(OrderNote(line, source, ""))
    notes.extend(_bids(session, game, game_map, state, powers, accepted, bid_lines))
    notes.sort(key=lambda n: n.line)
    for power in powers:
        # nothing usable for a power leaves it with no orders on file
        file_orders(session, game, power, [str(o) for o in accepted[power]])
    return OrdersReport(tuple(notes))


_DP_HEADING = re.compile(r"^(dp|diplomacy points|bids?)\s*:?$", re.IGNORECASE)


def split_bids(lines: Sequence[tuple[int, str]]
                ) -> tuple[list[tuple[int, str]], list[tuple[int, str]]]:
    """The order lines and the bid lines ('2: A Aus S War - Pra'), without a
    'DP' heading line."""
    orders: list[tuple[int, str]] = []
    bids: list[tuple[int, str]] = []
    for number, text in lines:
        if _DP_HEADING.match(text.strip()):
            continue
        (bids if looks_like_bid(text) else orders).append((number, text))
    return orders, bids


def _bids(session: Session, game: Game, game_map: GameMap, state: GameState,
          powers: Sequence[str], accepted: dict[str, list[Order]],
          lines: Sequence[tuple[int, str]]) -> list[OrderNote]:
    """Read the mail's bids, check them against its orders, and file them
    for the seat's first power (replacing its bids, as orders are)."""
    rules = rules_for(game_map)
    power = powers[0] if powers else ""
    points, _ = rules.bid_allowance(game_map, state, power)
    if state.phase.kind is not PhaseKind.MOVEMENT or not game_map.bid_powers or points == 0:
        if lines:
            why = "no bids in this game" if not game_map.bid_powers else \
                f"{power} may not bid" if points == 0 else "bids are for Spring and Autumn"
            return [OrderNote(n, t.strip(), why) for n, t in lines]
        return []
    notes: list[OrderNote] = []
    kept: list[tuple[int, str, Bid]] = []
    for number, text in lines:
        bid = parse_bid(text, game_map, number)
        if isinstance(bid, OrderError):
            notes.append(OrderNote(number, text.strip(), bid.message))
        else:
            kept.append((number, text.strip(), bid))
    fates = adjudicate(game_map, state, {p: list(o) for p, o in accepted.items()},
                       {power: [b for _, _, b in kept]}).bids
    for (number, text, _), fate in zip(kept, fates, strict=True):
        notes.append(OrderNote(number, text, "" if fate.counted else
                               f"would be ignored now: {fate.why}"))
    file_bids(session, game, power, [str(b) for _, _, b in kept])
    return notes


def clear_orders(session: Session, game: Game, member: Member) -> None:
    for power in powers_of(member):
        file_orders(session, game, power, [])


def unordered_units(game_map: GameMap, state: GameState, powers: Sequence[str],
                    on_file: dict[str, list[str]]) -> list[str]:
    ordered: set[str] = set()
    for texts in on_file.values():
        for text in texts:
            order = parse_order(text, game_map)
            unit = getattr(order, "unit", None)
            if unit is not None:
                ordered.add(unit.location.partition("/")[0])
    kind = state.phase.kind
    if kind is PhaseKind.MOVEMENT:
        units = [u for u in state.units if u.power in powers]
    elif kind is PhaseKind.RETREAT:
        units = [d.unit for d in state.dislodged if d.unit.power in powers]
    else:
        return [p for p in powers if p in powers_to_order(game_map, state)
                and not on_file.get(p)]
    return [f"{u.power} {u}" for u in units if u.province not in ordered]
