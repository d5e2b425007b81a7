"""The map of a stored phase, read from a game's phase records."""

from __future__ import annotations

import json

from sqlmodel import Session, select

from engine.map import GameMap
from engine.phase_context import phase_context
from engine.reports import DESTROYED_KEY
from judge import games, reported, snapshots
from judge.games import GameError
from judge.maps.scene import (
    Scene,
    drawn_orders,
    losses,
    on_the_other_board,
    stored_destroyed,
    stored_results,
)
from judge.models import Game, PhaseRecord


def stored_scene(session: Session, game: Game, phase: str) -> tuple[GameMap, Scene]:
    """The position ``phase`` started from, with the orders of the phase
    before it (if that one was adjudicated) and the units that phase took
    off the board. GameError for a phase the game does not have."""
    record = games.phase_record(session, game, phase.upper())
    if record is None:
        raise GameError(f"game {game.name} has no phase {phase.upper()}")
    game_map = games.map_of(game)
    position = snapshots.loads(record.state)
    earlier = session.exec(select(PhaseRecord).where(  # phases are numbered without gaps
        PhaseRecord.game_id == game.id, PhaseRecord.seq == record.seq - 1)).first()
    if earlier is None or not earlier.results:
        return game_map, Scene(game.name, position)
    stored = json.loads(earlier.results)
    before = snapshots.loads(earlier.state)
    # the orders were given on that phase's board (Diplomap's provinces of the time)
    results = stored_results(phase_context(game_map, before).reading,
                             stored.get("results", []))
    gone = stored_destroyed(stored.get(DESTROYED_KEY, []))
    sections = {s.key: s.lines for s in reported.public(reported.read(stored))}
    return game_map, Scene(game.name, position, before, drawn_orders(results),
                           lost=losses(before, results, gone),
                           other_board=on_the_other_board(before, results, sections))
