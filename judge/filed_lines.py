"""Lines a power keeps on file for one phase, replaced as a whole by each
new submission: Diplomacy Point bids (:class:`BidRecord`) and Diplomap's
map orders (:class:`MapOrderRecord`). Both tables hold one row per game,
phase and power with the lines as a JSON list; only the column's name
differs.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from sqlalchemy import delete
from sqlmodel import Session, select

from judge.models import BidRecord, Game, MapOrderRecord, utcnow
from parser import OrderError

LinesRecord = type[BidRecord] | type[MapOrderRecord]
T = TypeVar("T")
_COLUMN: dict[LinesRecord, str] = {BidRecord: "bids", MapOrderRecord: "orders"}


def put(session: Session, game: Game, record: LinesRecord, power: str,
        texts: Sequence[str]) -> None:
    """Put a power's lines for the current phase on file, replacing what it
    had; none takes them off file."""
    column = _COLUMN[record]
    row = session.exec(select(record).where(
        record.game_id == game.id, record.phase == game.phase,
        record.power == power)).first()
    if not texts:
        if row is not None:
            session.delete(row)
    elif row is not None:
        setattr(row, column, json.dumps(list(texts)))
        row.submitted_at = utcnow()
        session.add(row)
    else:
        fields: dict[str, Any] = {"game_id": game.id or 0, "phase": game.phase,
                                  "power": power, column: json.dumps(list(texts))}
        session.add(record(**fields))
    session.flush()


def on_file(session: Session, game: Game, record: LinesRecord,
            phase: str | None = None) -> dict[str, list[str]]:
    """Each power's lines on file for the phase (the current one by default)."""
    column = _COLUMN[record]
    rows: Sequence[Any] = session.exec(select(record).where(
        record.game_id == game.id, record.phase == (phase or game.phase))).all()
    return {row.power: list(json.loads(getattr(row, column))) for row in rows}


def drop(session: Session, game: Game, record: LinesRecord, phase: str) -> None:
    """A phase rolled back: its lines go with its orders."""
    session.execute(delete(record).where(
        record.game_id == game.id,  # type: ignore[arg-type]
        record.phase == phase))  # type: ignore[arg-type]


def read(filed: Mapping[str, Sequence[str]], parse: Callable[[str], T | OrderError]
         ) -> tuple[dict[str, list[T]], list[tuple[str, str, str]]]:
    """Lines on file read again at the deadline (orders, bids, map orders):
    each power's values, and (power, line, why) for each that no longer reads."""
    read_: dict[str, list[T]] = {}
    unreadable: list[tuple[str, str, str]] = []
    for power, lines in filed.items():
        for line in lines:
            parsed = parse(line)
            if isinstance(parsed, OrderError):
                unreadable.append((power, line, parsed.message))
            else:
                read_.setdefault(power, []).append(parsed)
    return read_, unreadable
