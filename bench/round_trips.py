"""What a piece of work asks of the database: the statements SQLAlchemy
sends and, on PostgreSQL, the round trips to the server.

A round trip is every time the client waits for the server's
ReadyForQuery. Besides the statements, these are the BEGIN that psycopg
sends before a transaction's first statement, COMMIT, ROLLBACK, the
DEALLOCATE ALL that psycopg sends after a ROLLBACK once it has prepared
statements, and the pool's pings: SQLAlchemy's events see none of them, so
they are read from libpq's trace of the protocol (PostgreSQL 14 and
later). SQLite has no server; there only statements are counted (its
BEGINs are statements the judge sends itself).

Used by bench/mail_intake.py's --profile and by the test that pins an
order mail's statements (tests/judge/test_round_trips.py).
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import IO, Any

from sqlalchemy import event
from sqlalchemy.engine import Engine


@dataclass(frozen=True)
class Count:
    """What was sent between two readings of a Counter."""
    statements: tuple[str, ...]  # each statement's first line
    round_trips: int | None  # None: not known on this database (SQLite)


@dataclass
class Counter:
    """Counts every statement and round trip of one engine from the moment
    it is made: install it on a new engine, before its first connection,
    so that every connection's protocol is traced."""

    engine: Engine
    _statements: list[str] = field(default_factory=list)
    _traced: list[tuple[Any, IO[str]]] = field(default_factory=list)

    def __post_init__(self) -> None:
        event.listen(self.engine, "before_cursor_execute", self._statement)
        if self.engine.dialect.name == "postgresql":
            event.listen(self.engine, "connect", self._trace)

    def _statement(self, _conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        self._statements.append(statement.strip().split("\n", 1)[0])

    def _trace(self, dbapi_connection: Any, _record: Any) -> None:
        trace = tempfile.TemporaryFile("w+")  # noqa: SIM115 (kept open while traced)
        self._traced.append((dbapi_connection.pgconn, trace))
        self._start(dbapi_connection.pgconn, trace)

    @staticmethod
    def _start(pgconn: Any, trace: IO[str]) -> None:
        from psycopg import pq
        pgconn.trace(trace.fileno())
        pgconn.set_trace_flags(pq.Trace.SUPPRESS_TIMESTAMPS | pq.Trace.REGRESS_MODE)

    def _round_trips(self) -> int | None:
        if self.engine.dialect.name != "postgresql":
            return None
        total = 0
        for pgconn, trace in self._traced:
            if pgconn.status == 0:  # CONNECTION_OK: the trace goes on after the reading
                pgconn.untrace()  # writes out what libpq holds in its buffer
                self._start(pgconn, trace)
            trace.seek(0)
            total += sum(1 for line in trace if "\tReadyForQuery\t" in line)
            trace.seek(0, 2)
        return total

    def reading(self) -> Count:
        """Everything sent so far."""
        return Count(tuple(self._statements), self._round_trips())

    @contextmanager
    def during(self) -> Iterator[list[Count]]:
        """What the block sends: the list it yields holds one Count once
        the block is over."""
        before = self.reading()
        out: list[Count] = []
        yield out
        after = self.reading()
        trips = None if after.round_trips is None or before.round_trips is None \
            else after.round_trips - before.round_trips
        out.append(Count(after.statements[len(before.statements):], trips))
