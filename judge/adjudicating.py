"""The current phase resolved from what is on file: each power's lines of
every kind the rules read in this phase (orders; bids; with Diplomap, map
orders: rules.line_kinds) read on the phase's board, and the engine's
resolution with whatever could not be read. Nothing is stored here:
`advance` stores an adjudication, previews and `judge replay` only look at it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import partial

from sqlmodel import Session

from engine.bids import BIDS_KEY, bid_line
from engine.game import Resolution, adjudicate
from engine.lines import ORDERS
from engine.phase_context import phase_context
from judge import deadline_failure, filed_lines, reported, snapshots
from judge.games import (
    current_state,
    enter_phase,
    map_of,
    phase_record,
    powers_to_order,
)
from judge.models import Game, PhaseRecord, utcnow
from parser.line_kinds import read_lines, reader


@dataclass(frozen=True)
class Adjudication:
    resolution: Resolution
    # (power, line, why): stored text that no longer reads, of the kinds
    # whose lines are shown with the results (orders, map orders)
    unreadable: tuple[tuple[str, str, str], ...]
    late: tuple[str, ...]  # powers that had no orders on file
    # the same of the secret kinds (bids): kept with them, for the end of the game
    unreadable_bids: tuple[tuple[str, str, str], ...] = ()


def adjudicate_phase(session: Session, game: Game) -> Adjudication:
    """The current phase resolved from the lines on file (nothing stored)."""
    game_map = map_of(game)
    state = current_state(session, game)
    context = phase_context(game_map, state)  # the phase's rules and boards, once
    board = context.reading
    lines: dict[str, Mapping[str, Sequence[object]]] = {}
    unreadable: list[tuple[str, str, str]] = []
    unreadable_secret: list[tuple[str, str, str]] = []
    ordered: set[str] = set()
    for kind in context.rules.line_kinds:
        if not kind.read_in(state.phase.kind):
            continue
        texts = filed_lines.on_file(session, game, kind)
        lines[kind.name], not_read = read_lines(texts, partial(reader(kind).read, board=board))
        (unreadable_secret if kind.secret else unreadable).extend(not_read)
        if kind is ORDERS:
            ordered = set(texts)
    orders = ORDERS.given(lines)  # the engine takes orders apart from the other kinds
    lines.pop(ORDERS.name, None)
    late = tuple(p for p in powers_to_order(game_map, state) if p not in ordered)
    resolution = adjudicate(game_map, state, orders, lines=lines, context=context)
    return Adjudication(resolution, tuple(unreadable), late, tuple(unreadable_secret))


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
        # each report section under its key (Diplomap's board changes among
        # them); bids stay secret until the game ends
        **reported.to_json(adjudication.resolution.reports, {BIDS_KEY: [
            {"power": p, "bidder": p, "bid": text, "counted": False,
             "why": f"unreadable: {why}", "text": bid_line(p, text, False, f"unreadable: {why}")}
            for p, text, why in adjudication.unreadable_bids]}),
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
    deadline_failure.clear(game)  # the phase is processed, whatever failed before
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
