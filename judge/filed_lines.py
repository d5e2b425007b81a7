"""The lines each power keeps on file for a phase, of every kind the rules
read (orders, bids, map orders: engine/lines.py), in one table keyed by the
kind's name (:class:`judge.models.FiledLines`). A submission replaces a
power's lines of its kind as a whole; none takes them off file.

Plain statements, not the session's objects: orders are filed and read for
every order mail. What a transaction has read is remembered until lines
change in it (a mail asks for the orders on file for its sign-on, its
summary and the early processing check).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from sqlalchemy import bindparam, delete, event
from sqlalchemy import select as sa_select
from sqlalchemy.dialects import postgresql, sqlite
from sqlmodel import Session, col, select

from engine.lines import LineKind
from judge.db import run
from judge.models import FiledLines, Game, utcnow

_TABLE = FiledLines.__table__  # type: ignore[attr-defined]
_READ = "lines on file"  # session.info key prefix: (_READ, game, phase, kind)

# by power: what is on file reaches the rules (and the results' order) in
# one order, however it was filed
_ON_FILE = sa_select(col(FiledLines.power), col(FiledLines.lines)).where(
    col(FiledLines.game_id) == bindparam("game"), col(FiledLines.phase) == bindparam("phase"),
    col(FiledLines.kind) == bindparam("kind")).order_by(col(FiledLines.power))
_DROP_ROW = delete(_TABLE).where(
    _TABLE.c.game_id == bindparam("game"), _TABLE.c.phase == bindparam("phase"),
    _TABLE.c.power == bindparam("power"), _TABLE.c.kind == bindparam("kind"))


def _replace(dialect_insert: Any) -> Any:
    """A power's row added, or replaced if it has one: one statement (both
    databases know ON CONFLICT, each through its own dialect's insert)."""
    add = dialect_insert(_TABLE).values(
        game_id=bindparam("game"), phase=bindparam("phase"), power=bindparam("power"),
        kind=bindparam("kind"), lines=bindparam("lines"), submitted_at=bindparam("at"))
    return add.on_conflict_do_update(
        index_elements=["game_id", "phase", "power", "kind"],
        set_={"lines": add.excluded.lines, "submitted_at": add.excluded.submitted_at})


_REPLACE = {"postgresql": _replace(postgresql.insert), "sqlite": _replace(sqlite.insert)}
_DROP_PHASE = delete(_TABLE).where(_TABLE.c.game_id == bindparam("game"),
                                   _TABLE.c.phase == bindparam("phase"))


def on_file(session: Session, game: Game, kind: LineKind[Any],
            phase: str | None = None) -> dict[str, list[str]]:
    """Each power's lines of ``kind`` on file for the phase (the current one
    by default), as written."""
    phase = phase or game.phase
    if _changed(session):
        session.flush()  # a change not yet written: the flush forgets what was read
    key = (_READ, game.id, phase, kind.name)
    cached = session.info.get(key)
    if cached is None:
        rows = run(session, _ON_FILE, {"game": game.id, "phase": phase,
                                       "kind": kind.name}).all()
        cached = {row.power: json.loads(row.lines) for row in rows}
        session.info[key] = cached
    return {power: list(lines) for power, lines in cached.items()}


def put(session: Session, game: Game, kind: LineKind[Any], power: str,
        texts: Sequence[str]) -> None:
    """Put a power's lines of ``kind`` for the current phase on file,
    replacing what it had; none takes them off file (an empty set of orders
    would count as submitted)."""
    where = {"game": game.id, "phase": game.phase, "power": power, "kind": kind.name}
    lines = list(texts)
    if lines:
        run(session, _REPLACE[session.get_bind().dialect.name],
            {**where, "lines": json.dumps(lines), "at": utcnow()})
    else:
        run(session, _DROP_ROW, where)
    # what the transaction read of the phase's lines holds with these in
    # place (read again, they would cost a statement: an order mail's
    # summary follows its orders)
    key = (_READ, game.id, game.phase, kind.name)
    read = session.info.get(key)
    if read is not None:
        read = {p: held for p, held in read.items() if p != power}
        if lines:
            read[power] = lines
        session.info[key] = dict(sorted(read.items()))


def drop(session: Session, game: Game, phase: str) -> None:
    """A phase rolled back: every kind of line on file for it goes."""
    run(session, _DROP_PHASE, {"game": game.id, "phase": phase})
    forget(session)


def rows(session: Session, game: Game) -> Sequence[FiledLines]:
    """Every row on file for the current phase, to change in place (a
    province renamed under the lines); the session writes them back."""
    return session.exec(select(FiledLines).where(
        FiledLines.game_id == game.id, FiledLines.phase == game.phase)).all()


def forget(session: Session) -> None:
    """Lines changed: what this transaction read of them is stale."""
    for key in [k for k in session.info if isinstance(k, tuple) and k[:1] == (_READ,)]:
        del session.info[key]


def _changed(session: Session) -> bool:
    """Does the session hold rows added, changed or deleted and not yet
    written (or, during a flush, being written)?"""
    return any(isinstance(o, FiledLines) for o in (*session.new, *session.dirty,
                                                   *session.deleted))


@event.listens_for(Session, "after_flush")
def _forget_when_written(session: Session, _context: object) -> None:
    if _changed(session):
        forget(session)
