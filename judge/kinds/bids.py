"""Diplomacy Point bids by mail (Dissolution, Intercontinental): the bids of
a mail that read replace the seat's bids on file, each answered with its
fate were the phase adjudicated now; a mail none of whose bids reads leaves
those on file, as a refused order does, and DP NONE withdraws them. The
ORDERS reply shows them with the budget: the DP that would count, the DP in
bids that would be ignored, and what is left. Secret until the game ends."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sqlmodel import Session

from engine.bids import Bid, BidResult
from engine.game import adjudicate
from engine.holdings import OrderForm
from engine.lines import LineKind
from engine.map import GameMap
from engine.orders import MovementOrder, Order
from engine.phase import PhaseKind
from engine.state import GameState
from engine.variants import rules_for
from judge.games import bids_on_file, file_bids, orders_on_file
from judge.kinds import Filing, Line, OrderNote, unchanged
from judge.models import Game
from parser import OrderError, parse_order
from parser.bids import WITHDRAWAL, parse_bid


def intake(filing: Filing, kind: LineKind[Any], lines: Sequence[Line]) -> list[OrderNote]:
    """Read the mail's bids, check them against the orders on file, and file
    them for the seat's first power: the bids that read replace the bids on
    file (a bid is no unit's order), which the reply says; a mail without
    bids, or none of whose bids reads, leaves them; DP NONE withdraws them."""
    session, game, game_map, state = filing.session, filing.game, filing.game_map, filing.state
    powers = filing.powers
    rules = rules_for(game_map)
    power = powers[0] if powers else ""
    points, _ = rules.bid_allowance(game_map, state, power)
    if state.phase.kind is not PhaseKind.MOVEMENT or not game_map.bid_powers or points == 0:
        if lines:
            why = "no bids in this game" if not game_map.bid_powers else \
                f"{power} may not bid" if points == 0 else "bids are for Spring and Autumn"
            return [OrderNote(n, t.strip(), why) for n, t in lines]
        return []
    if not lines:  # a mail without bids keeps those on file, as it keeps other orders
        return []
    notes: list[OrderNote] = []
    kept: list[tuple[int, str, Bid]] = []
    withdrawn: list[int] = []  # the lines that say DP NONE
    for number, text in lines:
        if WITHDRAWAL.match(text):
            withdrawn.append(number)
            notes.append(OrderNote(number, text.strip(), ""))
            continue
        bid = parse_bid(text, game_map, number)
        if isinstance(bid, OrderError):
            notes.append(OrderNote(number, text.strip(), bid.message))
        else:
            kept.append((number, text.strip(), bid))
    earlier = len(bids_on_file(session, game).get(power, []))
    if not kept and not withdrawn:  # a refused bid changes nothing, as a refused order
        if earlier:
            notes[0] = notes[0].with_remark(f"{unchanged(kind.noun)} (DP NONE withdraws them)")
        return notes
    fates = _fates(game_map, state, filing.orders, power, [b for _, _, b in kept])
    for (number, text, _), fate in zip(kept, fates, strict=True):
        notes.append(OrderNote(number, text, "" if fate.counted else
                               f"would be ignored now: {fate.why}"))
    file_bids(session, game, power, [str(b) for _, _, b in kept])
    if earlier:  # said where the replacing starts: the first bid filed, else DP NONE
        at = kept[0][0] if kept else withdrawn[0]
        refused = len(lines) - len(kept) - len(withdrawn)
        notes = [n.with_remark(_replaced(earlier, len(kept), refused)) if n.line == at else n
                 for n in notes]
    return notes


def not_yours(game_map: GameMap, state: GameState, order: Order, owner: str | None) -> str:
    """An order for a unit ordered by bids, written as a plain order: the
    way to order it is a bid, in the same mail."""
    power = game_map.powers.get(owner or "")
    if power is None or not power.ordered_by_bids or not isinstance(order, MovementOrder):
        return ""
    if state.phase.kind is not PhaseKind.MOVEMENT:
        return f"that unit is {owner}'s, ordered by bids in Spring and Autumn only"
    return (f"that unit is {owner}'s, ordered by Diplomacy Point bids: bid for it under "
            f"DP as points: order, e.g. '1: {order}'")


def _replaced(earlier: int, filed: int, refused: int) -> str:
    """What became of the bids on file: the mail's bids that read replace
    them all (none, after DP NONE: withdrawn)."""
    them = f"your {earlier} earlier bid{'s' * (earlier != 1)} {'were' if earlier != 1 else 'was'}"
    if not filed:
        return f"{them} withdrawn"
    these = "this one" if filed == 1 else f"these {filed}"
    return (f"{them} replaced by {these}"
            + (f" ({refused} line{'s' * (refused != 1)} that do{'es' * (refused == 1)} not "
               f"read as a bid {'is' if refused == 1 else 'are'} not filed)" if refused else "")
            + ": a mail's bids that read replace all the bids on file")


def _fates(game_map: GameMap, state: GameState, orders: Mapping[str, Sequence[Order]],
           power: str, bids: Sequence[Bid]) -> tuple[BidResult, ...]:
    """What each of the seat's bids would do were the phase adjudicated now,
    beside the seat's orders on file: counted, or ignored and why."""
    if not bids:
        return ()
    found = adjudicate(game_map, state, {p: list(o) for p, o in orders.items()},
                       {power: list(bids)}).facts("bids")
    return tuple(f for f in found if isinstance(f, BidResult))


def summary(session: Session, game: Game, game_map: GameMap, board: GameMap,
            state: GameState, powers: Sequence[str]) -> list[str]:
    """The seat's bids on file, each with its fate were the phase
    adjudicated now; the DP they would count, the DP in bids that would be
    ignored, what is left of the budget; and the caps."""
    if not game_map.bid_powers or state.phase.kind is not PhaseKind.MOVEMENT or not powers:
        return []
    power = powers[0]
    points, caps = rules_for(game_map).bid_allowance(game_map, state, power)
    if points == 0:
        return []
    texts = bids_on_file(session, game).get(power, [])
    bids = [b for b in (parse_bid(t, game_map) for t in texts) if isinstance(b, Bid)]
    filed = orders_on_file(session, game)
    orders = {p: [o for o in (parse_order(t, board) for t in filed.get(p, []))
                  if not isinstance(o, OrderError)] for p in powers}
    fates = _fates(game_map, state, orders, power, bids)
    counted = sum(f.bid.points for f in fates if f.counted)
    ignored = sum(f.bid.points for f in fates if not f.counted)
    tally = f"{counted} DP counted, " + (
        f"{ignored} DP in bids that would be ignored now (reasons beside them), "
        if ignored else "") + f"{max(points - counted, 0)} left"
    lines = [f"Bids on file (secret until the game ends), {points} DP to bid: {tally}"]
    width = max((len(str(f.bid)) for f in fates), default=0)
    lines.extend(f"  {f.bid!s:<{width}}   would be ignored now: {f.why}"
                 if not f.counted else f"  {f.bid}" for f in fates)
    if caps:
        title = rules_for(game_map).caps_title
        lines.append(f"{title[:1].upper()}{title[1:]}: " + ", ".join(
            f"{power} {cap}" for power, cap in sorted(caps.items())))
    return lines


def form(game_map: GameMap, state: GameState, powers: Sequence[str],
         kind: LineKind[Any]) -> list[OrderForm]:
    """How the seat bids, for the start mail: the DP section, with a bid
    for a neutral unit the seat may bid on now as the example."""
    if not game_map.bid_powers or not powers:
        return []
    points, caps = rules_for(game_map).bid_allowance(game_map, state, powers[0])
    if points == 0:
        return []
    unit = next((u for u in state.units if u.power in game_map.bid_powers
                 and caps.get(u.power, 1) > 0), None)
    example = f"DP\n1: {unit} H" if unit is not None else "DP\n1: A Xxx H"
    return [OrderForm(
        "Bids (DP)", "with your moves, after your orders: a line DP, then one bid a line: "
        "points, a colon and an order for a neutral unit (its type optional; a convoyed "
        "move names its whole path). A mail's bids that read replace all your bids on "
        "file; DP NONE withdraws them. Nobody sees them until the game ends", example)]
