"""The map of a stored phase, read from a game's phase records."""

from __future__ import annotations

import json

from sqlmodel import Session

from engine.map import GameMap
from judge import games, snapshots
from judge.games import GameError
from judge.maps.scene import Scene, drawn_orders, stored_results
from judge.models import Game


def stored_scene(session: Session, game: Game, phase: str) -> tuple[GameMap, Scene]:
    """The position ``phase`` started from, with the orders of the phase
    before it (if that one was adjudicated). GameError for a phase the
    game does not have."""
    records = games.phase_records(session, game)
    found = [n for n, record in enumerate(records) if record.phase == phase.upper()]
    if not found:
        played = ", ".join(r.phase for r in records) or "none yet"
        raise GameError(f"game {game.name} has no phase {phase.upper()} (its phases: {played})")
    index = found[0]
    game_map = games.map_of(game)
    position = snapshots.loads(records[index].state)
    earlier = records[index - 1] if index > 0 else None
    if earlier is None or not earlier.results:
        return game_map, Scene(game.name, position)
    rows = json.loads(earlier.results).get("results", [])
    return game_map, Scene(game.name, position, snapshots.loads(earlier.state),
                           drawn_orders(stored_results(game_map, rows)))
