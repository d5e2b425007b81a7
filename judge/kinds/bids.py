"""Diplomacy Point bids by mail (Dissolution, Intercontinental): a mail's
bids replace the seat's bids on file, each answered with its fate were the
phase adjudicated now; the ORDERS reply shows them with the budget left.
Secret until the game ends."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlmodel import Session

from engine.bids import Bid
from engine.game import adjudicate
from engine.holdings import OrderForm
from engine.lines import LineKind
from engine.map import GameMap
from engine.phase import PhaseKind
from engine.state import GameState
from engine.variants import rules_for
from judge.games import bids_on_file, file_bids
from judge.kinds import Filing, Line, OrderNote
from judge.models import Game
from parser import OrderError
from parser.bids import parse_bid


def intake(filing: Filing, kind: LineKind[Any], lines: Sequence[Line]) -> list[OrderNote]:
    """Read the mail's bids, check them against the orders on file, and file
    them for the seat's first power: a mail's bids replace the bids on file
    (a bid is no unit's order); a mail without bids leaves them."""
    session, game, game_map, state = filing.session, filing.game, filing.game_map, filing.state
    powers, accepted = filing.powers, filing.orders
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
    for number, text in lines:
        bid = parse_bid(text, game_map, number)
        if isinstance(bid, OrderError):
            notes.append(OrderNote(number, text.strip(), bid.message))
        else:
            kept.append((number, text.strip(), bid))
    fates = adjudicate(game_map, state, {p: list(o) for p, o in accepted.items()},
                       {power: [b for _, _, b in kept]}).facts("bids")
    for (number, text, _), fate in zip(kept, fates, strict=True):
        notes.append(OrderNote(number, text, "" if fate.counted else
                               f"would be ignored now: {fate.why}"))
    file_bids(session, game, power, [str(b) for _, _, b in kept])
    return notes


def summary(session: Session, game: Game, game_map: GameMap, board: GameMap,
            state: GameState, powers: Sequence[str]) -> list[str]:
    """The seat's bids on file, its budget used and left, and its caps."""
    if not game_map.bid_powers or state.phase.kind is not PhaseKind.MOVEMENT or not powers:
        return []
    power = powers[0]
    points, caps = rules_for(game_map).bid_allowance(game_map, state, power)
    if points == 0:
        return []
    bids = bids_on_file(session, game).get(power, [])
    used = sum(int(text.split(":", 1)[0]) for text in bids)
    lines = [f"Bids on file (secret until the game ends): {used} of {points} DP bid, "
             f"{max(points - used, 0)} left"]
    lines.extend(f"  {text}" for text in bids)
    if caps:
        lines.append("At most, by your Favor: " + ", ".join(
            f"{nuclear} {cap}" for nuclear, cap in sorted(caps.items())))
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
        "move names its whole path). A mail with bids replaces all your bids on file; "
        "nobody sees them until the game ends", example)]
