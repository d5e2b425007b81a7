"""`judge replay GAME`: re-adjudicate every stored phase of a game from its
stored position and orders, and list each phase whose stored result or
following position differs from what the engine gives now (after an engine
upgrade, say). It only reads: a live game is replayed while the judge runs."""

from __future__ import annotations

import json

from sqlalchemy.engine import Engine
from sqlmodel import Session

from judge import adjudicating, games, snapshots
from judge.db import game_by_name
from judge.models import Game


def replay_game(engine: Engine, name: str) -> list[str] | None:
    # A session that is never committed: whatever the adjudication code
    # touches is rolled back when it closes.
    with Session(engine) as session:
        try:
            game = game_by_name(session, name)
            if game is None:
                return None
            # detached: stepping its phase through the records (which
            # adjudicate_phase reads) must never reach the game's row, not
            # even as a flush that would lock it against the running judge
            session.expunge(game)
            return _differences(session, game)
        finally:
            session.rollback()


def _differences(session: Session, game: Game) -> list[str]:
    records = games.phase_records(session, game)
    out: list[str] = []
    for record, following in zip(records, [*records[1:], None], strict=True):
        if not record.results:
            continue
        game.phase = record.phase  # adjudicate_phase reads the game's current phase
        adjudication = adjudicating.adjudicate_phase(session, game)
        stored = json.loads(record.results)
        fresh = adjudicating.results_json(adjudication)
        if _as_set(stored.get("results")) != _as_set(fresh["results"]):
            out.append(f"{record.phase}: order results differ")
        if following is not None and snapshots.loads(following.state) \
                != adjudication.resolution.next:
            out.append(f"{record.phase}: the position after it differs from {following.phase}")
    return out


def _as_set(rows: object) -> list[str]:
    """The result rows in an order of their own: a phase stored before the
    orders on file were read power by power lists the same results in the
    order the database gave them, which is no difference."""
    if not isinstance(rows, list):
        return [json.dumps(rows, sort_keys=True)]
    return sorted(json.dumps(row, sort_keys=True) for row in rows)
