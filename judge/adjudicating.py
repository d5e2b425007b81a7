"""The current phase resolved from what is on file: each power's orders,
bids and (with Diplomap) map orders read on the phase's board, and the
engine's resolution with whatever could not be read. Nothing is stored
here: `advance` stores an adjudication, previews and
`judge replay` only look at it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime

from sqlmodel import Session

from engine.bids import BIDS_KEY, Bid, bid_line
from engine.game import Resolution, adjudicate
from engine.orders import Order
from engine.phase import PhaseKind
from judge import filed_lines, map_orders, reported, snapshots
from judge.games import (
    bids_on_file,
    current_state,
    enter_phase,
    map_of,
    orders_on_file,
    phase_record,
    powers_to_order,
    reading_board,
    settings_of,
)
from judge.models import Game, PhaseRecord, utcnow
from parser import parse_order
from parser.bids import parse_bid


@dataclass(frozen=True)
class Adjudication:
    resolution: Resolution
    unreadable: tuple[tuple[str, str, str], ...]  # (power, order, why) stored text not read
    late: tuple[str, ...]  # powers that had no orders on file
    unreadable_bids: tuple[tuple[str, str, str], ...] = ()  # (power, bid, why)
    map_changes: tuple[str, ...] = ()  # Diplomap: the board's changes, in words


def adjudicate_phase(session: Session, game: Game) -> Adjudication:
    """The current phase resolved from the orders and bids on file (nothing stored)."""
    game_map = map_of(game)
    state = current_state(session, game)
    board = reading_board(session, game, game_map, state)
    texts = orders_on_file(session, game)
    read_orders: tuple[dict[str, list[Order]], list[tuple[str, str, str]]] = filed_lines.read(
        texts, lambda line: parse_order(line, board))
    orders, unreadable = read_orders
    read_bids: tuple[dict[str, list[Bid]], list[tuple[str, str, str]]] = ({}, [])
    if state.phase.kind is PhaseKind.MOVEMENT:
        read_bids = filed_lines.read(bids_on_file(session, game),
                                     lambda line: parse_bid(line, board))
    bids, unreadable_bids = read_bids
    late = tuple(p for p in powers_to_order(game_map, state) if p not in texts)
    if not settings_of(game).diplomap:
        return Adjudication(adjudicate(game_map, state, orders, bids), tuple(unreadable), late,
                            tuple(unreadable_bids))
    # Diplomap: the Draws and Erases on file, adjudicated after the moves (§II.F)
    drawn, unreadable_maps = map_orders.read_on_file(session, game, board, state)
    resolution = adjudicate(game_map, state, orders, bids, map_orders=drawn)
    # the changes in words, named on the board they were made on
    changes = map_orders.change_notes(board, map_orders.new_changes(state, resolution.next))
    return Adjudication(resolution, (*unreadable, *unreadable_maps), late,
                        tuple(unreadable_bids), tuple(changes))


def results_json(adjudication: Adjudication) -> dict[str, object]:
    return {
        "results": [
            {"power": r.power, "order": str(r.order), "outcome": r.outcome.value,
             "reason": r.reason.describe() if r.reason else ""}
            for r in adjudication.resolution.results
        ],
        "unreadable": [list(u) for u in adjudication.unreadable],
        "late": list(adjudication.late),
        "winner": adjudication.resolution.winner,
        # each report section under its key; bids stay secret until the game ends
        **reported.to_json(adjudication.resolution.reports, {BIDS_KEY: [
            {"power": p, "bidder": p, "bid": text, "counted": False,
             "why": f"unreadable: {why}", "text": bid_line(p, text, False, f"unreadable: {why}")}
            for p, text, why in adjudication.unreadable_bids]}),
        **({"map_changes": list(adjudication.map_changes)} if adjudication.map_changes else {}),
    }


def advance(session: Session, game: Game, adjudication: Adjudication,
            now: datetime | None = None) -> None:
    """Store an adjudication: the results on this phase, the next phase,
    and the end of the game when someone won."""
    now = now or utcnow()
    record = phase_record(session, game)
    assert record is not None
    resolution = adjudication.resolution
    record.results = json.dumps(results_json(adjudication))
    record.adjudicated_at = now
    session.add(record)
    # a rule's draw (Intercontinental's year cap, §2.2) ends the game as a
    # draw by vote does
    drawn = resolution.next.drawn if not resolution.winner else ()
    if resolution.winner or drawn:
        game.status = "finished"
        game.result = f"solo victory: {resolution.winner}" if resolution.winner \
            else f"draw among {', '.join(drawn)}"
        game.deadline = None
        game.grace_until = None
        session.add(game)
        session.add(PhaseRecord(game_id=game.id or 0, seq=record.seq + 1,
                                phase=str(resolution.next.phase),
                                state=snapshots.dumps(resolution.next)))
        game.phase = str(resolution.next.phase)
        return
    enter_phase(session, game, resolution.next, now, record.seq + 1)
