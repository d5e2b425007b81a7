"""Opening the database and keeping its schema up to date.

SQLite (a file under the data directory) by default; PostgreSQL when the
configuration names a ``postgresql://`` URL. ``open_database`` brings an
existing database up to the current schema step by step (MIGRATIONS), so
an upgraded judge keeps every game it had.
"""

from __future__ import annotations

import fcntl
import logging
import os
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Column,
    DateTime,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    bindparam,
    event,
    inspect,
    text,
)
from sqlalchemy import select as sa_select
from sqlalchemy.engine import Connection, CursorResult, Engine
from sqlalchemy.exc import DisconnectionError
from sqlalchemy.sql.expression import Executable
from sqlmodel import Session, SQLModel, col, create_engine

from judge import models

log = logging.getLogger(__name__)


def _create_tables(conn: Connection) -> None:
    SQLModel.metadata.create_all(conn)


def _outbox_due_index(conn: Connection) -> None:
    conn.execute(text("CREATE INDEX IF NOT EXISTS ix_outbox_due "
                      "ON outbox (status, next_attempt_at, id)"))


# Step N takes a database at version N-1 to version N. Append new steps;
# never change one that has shipped. A new database is created from the
# models as they are now and stamped with the last version directly.
def _bid_records(conn: Connection) -> None:
    _SHIPPED.tables["bid_record"].create(conn, checkfirst=True)


def _abuse_limits(conn: Connection) -> None:
    for name in ("signon_failure", "reply_sent"):
        SQLModel.metadata.tables[name].create(conn, checkfirst=True)


def _outbox_claimed_by(conn: Connection) -> None:
    conn.execute(text("ALTER TABLE outbox ADD COLUMN claimed_by VARCHAR(300) "
                      "NOT NULL DEFAULT ''"))


def _member_zone(conn: Connection) -> None:
    conn.execute(text("ALTER TABLE member ADD COLUMN zone VARCHAR(64) NOT NULL DEFAULT ''"))


# A seat of several powers is named by all of them ('ALGERIA/FRANCE/MEXICO/IRAN',
# an Intercontinental colour group): wider than one power's 32 characters.
SEAT_LENGTH = 128
_SEAT_COLUMNS = (("member", "power"), ("member", "concede_to"), ("press", "sender"))


def _seat_columns(conn: Connection) -> None:
    if conn.dialect.name == "sqlite":  # SQLite keeps any length in a VARCHAR
        return
    for table, column in _SEAT_COLUMNS:
        conn.execute(text(f"ALTER TABLE {table} ALTER COLUMN {column} "
                          f"TYPE VARCHAR({SEAT_LENGTH})"))


def _map_order_records(conn: Connection) -> None:
    _SHIPPED.tables["map_order_record"].create(conn, checkfirst=True)


# The tables of lines on file before step 9 (a table per kind), as steps 3
# and 8 made them: the models are gone, the steps still run on old databases.
_SHIPPED = MetaData()
Table("game", _SHIPPED, Column("id", Integer, primary_key=True))  # for the foreign keys
for _name, _column in (("order_record", "orders"), ("bid_record", "bids"),
                       ("map_order_record", "orders")):
    Table(_name, _SHIPPED,
          Column("id", Integer, primary_key=True),
          Column("game_id", Integer, ForeignKey("game.id"), nullable=False, index=True),
          Column("phase", String(16), nullable=False),
          Column("power", String(32), nullable=False),
          Column(_column, Text, nullable=False),
          Column("submitted_at", DateTime, nullable=False),
          UniqueConstraint("game_id", "phase", "power"))
# each shipped table, its column of lines, and the kind of line it held
_LINE_TABLES = (("order_record", "orders", "orders"), ("bid_record", "bids", "bids"),
                ("map_order_record", "orders", "map_orders"))


def _filed_lines(conn: Connection) -> None:
    """Every kind of line in one table keyed by kind: each row of the three
    tables is copied over as it is, so running games keep what they have
    on file, and the old tables go."""
    SQLModel.metadata.tables["filed_lines"].create(conn, checkfirst=True)
    for table, column, kind in _LINE_TABLES:
        if not inspect(conn).has_table(table):
            continue
        conn.execute(text(
            "INSERT INTO filed_lines (game_id, phase, power, kind, lines, submitted_at) "
            f"SELECT game_id, phase, power, CAST(:kind AS VARCHAR(32)), {column}, "
            f"submitted_at FROM {table}"), {"kind": kind})
        conn.execute(text(f"DROP TABLE {table}"))


def _players_of_the_variant(conn: Connection) -> None:
    """Games of a variant with a fixed number of players (Dissolution's 10,
    Intercontinental's 8) were stored with the standard game's default of 7,
    which LIST and SUMMARY showed: each such game's settings get the
    variant's count. A variant that no longer loads is left as it is."""
    import json

    from engine.variant_file import VariantError, load_variant
    from engine.ways_to_play import full_count, player_counts

    games = conn.execute(text("SELECT id, variant, settings FROM game")).all()
    for game_id, variant, stored in games:
        try:
            game_map = load_variant(variant)
        except (KeyError, VariantError):
            continue
        settings = json.loads(stored or "{}")
        if settings.get("players", 7) in player_counts(game_map):
            continue
        settings["players"] = full_count(game_map)
        conn.execute(text("UPDATE game SET settings = :settings WHERE id = :id"),
                     {"settings": json.dumps(settings), "id": game_id})


def _signon_sources(conn: Connection) -> None:
    """Wrong passwords are counted by the address that gave them as well,
    so that a guesser is refused and the power's player is not; the judge
    notes the mails it sends about guessing. Rows of before have no address
    and still count for their power."""
    columns = {c["name"] for c in inspect(conn).get_columns("signon_failure")}
    if "address" not in columns:  # step 4 made the table as the models are now
        conn.execute(text("ALTER TABLE signon_failure ADD COLUMN address VARCHAR(998) "
                          "NOT NULL DEFAULT ''"))
    SQLModel.metadata.tables["signon_notice"].create(conn, checkfirst=True)


def _deadline_failures(conn: Connection) -> None:
    """A failing deadline's state in its game's row. Only the columns the
    table lacks are added: a database made from newer models has them."""
    have = {c["name"] for c in inspect(conn).get_columns("game")}
    moment = DateTime().compile(dialect=conn.dialect)  # as the other times of the row
    for name, kind in (("failed_attempts", "INTEGER NOT NULL DEFAULT 0"),
                       ("failed_at", moment),
                       ("failure", "TEXT NOT NULL DEFAULT ''"),
                       ("retry_at", moment)):
        if name not in have:
            conn.execute(text(f"ALTER TABLE game ADD COLUMN {name} {kind}"))


MIGRATIONS: list[Callable[[Connection], None]] = [
    _create_tables,  # 1: the first schema
    _outbox_due_index,  # 2: the sender finds due mail without sorting the outbox
    _bid_records,  # 3: Diplomacy Point bids, a record per power and phase
    _abuse_limits,  # 4: wrong sign-ons and replies sent, counted for the limits
    _outbox_claimed_by,  # 5: whose claim a 'sending' row is, for a restarted judge
    _member_zone,  # 6: a player's own time zone (SET ZONE)
    _seat_columns,  # 7: seats of several powers (Intercontinental's colour groups)
    _map_order_records,  # 8: Diplomap's Draw and Erase orders, a record per power and phase
    _filed_lines,  # 9: orders, bids and map orders in one table keyed by kind of line
    _players_of_the_variant,  # 10: a fixed-count variant's games say its count, not 7
    _signon_sources,  # 11: wrong passwords per address too; notices about guessing
    _deadline_failures,  # 12: a failing deadline backs off, its GM told once
]
SCHEMA_VERSION = len(MIGRATIONS)


def normalise_url(url: str) -> str:
    """postgresql:// and postgres:// mean the psycopg 3 driver."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url


def make_engine(url: str) -> Engine:
    url = normalise_url(url)
    if url.startswith("sqlite"):
        path = url.split("///", 1)[1] if "///" in url else ""
        if path and path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
            # The judge says when a transaction begins (below), not the
            # sqlite3 module, which would begin one only at the first write.
            dbapi_conn.isolation_level = None
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")  # readers do not block the writer
            cur.execute("PRAGMA synchronous=FULL")  # a committed mail survives a power cut
            cur.execute("PRAGMA foreign_keys=ON")
            cur.close()

        @event.listens_for(engine, "begin")
        def _sqlite_begin(conn: Connection) -> None:
            # A unit of work that writes (transaction()) takes SQLite's one
            # write lock at BEGIN: it reads a game and then changes it, and
            # nobody may change that game in between (a mail's orders against
            # a deadline processing the phase, two worker processes). Reads
            # begin deferred and never wait for a writer (WAL); reading()'s
            # do not begin at all.
            options = conn.get_execution_options()
            if options.get(WRITES):
                conn.exec_driver_sql("BEGIN IMMEDIATE")
            elif not options.get(LOOSE):
                conn.exec_driver_sql("BEGIN")

        return engine
    engine = create_engine(url)
    _ping_when_idle(engine)
    return engine


# A pooled connection unused for this long is pinged before it is used again.
IDLE_SECONDS = 5.0
_RETURNED = "judge returned at"  # ConnectionRecord.info key: time.monotonic()


def _ping_when_idle(engine: Engine) -> None:
    """What the pool's pre_ping does, for connections that lay unused a
    while only: a ping at every checkout costs a round trip to the server,
    and a busy judge checks a connection out for every mail. A server that
    went away meanwhile is found at the first statement instead, which
    fails as a disconnect; the pool then drops every connection it holds,
    and the work is tried again (judge.processing) or answered 'try again
    later' (the listener)."""

    @event.listens_for(engine, "connect")
    def _connected(_dbapi_connection: Any, record: Any) -> None:
        record.info[_RETURNED] = time.monotonic()

    @event.listens_for(engine, "checkin")
    def _returned(_dbapi_connection: Any, record: Any) -> None:
        record.info[_RETURNED] = time.monotonic()

    @event.listens_for(engine, "checkout")
    def _ping_if_idle(dbapi_connection: Any, record: Any, _proxy: Any) -> None:
        if time.monotonic() - record.info.get(_RETURNED, 0.0) < IDLE_SECONDS:
            return
        try:
            engine.dialect.do_ping(dbapi_connection)
        except engine.dialect.loaded_dbapi.Error as exc:
            raise DisconnectionError("the connection was closed while unused") from exc


def schema_version(conn: Connection) -> int:
    if not inspect(conn).has_table("schema_version"):
        # tables without a version row predate versioning: only version 1 did that
        return 1 if inspect(conn).has_table("game") else 0
    row = conn.execute(text("SELECT version FROM schema_version WHERE id = 1")).first()
    return int(row[0]) if row else 0


def migrate(engine: Engine) -> int:
    """Bring the schema up to SCHEMA_VERSION; the version reached."""
    with engine.begin() as conn:
        if engine.dialect.name == "postgresql":
            # two judges starting together must not migrate at the same time
            conn.execute(text("SELECT pg_advisory_xact_lock(424242)"))
        current = schema_version(conn)
        if current > SCHEMA_VERSION:
            raise RuntimeError(
                f"the database has schema version {current}; this judge knows "
                f"{SCHEMA_VERSION}: upgrade the judge")
        if current == 0:
            _create_tables(conn)
            _stamp(conn, SCHEMA_VERSION)
            return SCHEMA_VERSION
        for version in range(current + 1, SCHEMA_VERSION + 1):
            log.info("database: migrating to schema version %d", version)
            MIGRATIONS[version - 1](conn)
            _stamp(conn, version)
        return max(current, SCHEMA_VERSION)


def _stamp(conn: Connection, version: int) -> None:
    SQLModel.metadata.tables["schema_version"].create(conn, checkfirst=True)
    conn.execute(text("DELETE FROM schema_version"))
    conn.execute(text("INSERT INTO schema_version (id, version) VALUES (1, :v)"), {"v": version})


def open_database(url: str) -> Engine:
    engine = make_engine(url)
    migrate(engine)
    return engine


WRITES = "judge_writes"  # execution option: this connection's transactions write
LOOSE = "judge_loose"  # execution option: each statement on its own, no transaction


@contextmanager
def reading(engine: Engine) -> Iterator[Session]:
    """A session for reads that need no consistent view of the database:
    each statement sees it as it is at that moment, outside any
    transaction. For the reads before a mail's transaction (the stored
    mail, which never changes; the SIGNON checks, which the transaction
    checks again). They cost no BEGIN and no ROLLBACK, each a round trip
    to a PostgreSQL server, and no DEALLOCATE ALL: psycopg forgets its
    prepared statements at every ROLLBACK."""
    options: dict[str, Any] = {LOOSE: True}
    if engine.dialect.name == "postgresql":
        options["isolation_level"] = "AUTOCOMMIT"
    with engine.connect().execution_options(**options) as conn, \
            Session(bind=conn, info={LOOSE: True}) as session:
        yield session


@contextmanager
def transaction(engine: Engine) -> Iterator[Session]:
    """A session whose work commits together at the end, or not at all. On
    SQLite it holds the database's write lock from its first statement."""
    with _writer_turn(engine), \
            Session(engine.execution_options(**{WRITES: True}),
                    expire_on_commit=False) as session:
        try:
            yield session
            session.commit()
        except BaseException:
            session.rollback()
            raise


@contextmanager
def _writer_turn(engine: Engine) -> Iterator[None]:
    """On a SQLite file, wait for this writer's turn on a lock file first.

    SQLite lets one writer in at a time, and a writer that finds the lock
    taken polls for it, sleeping up to tens of milliseconds between looks.
    The judge's writers (the listener, the worker processes, the sender,
    the scheduler) take turns on a file lock instead, which the kernel hands
    on the moment it is released, so no one sleeps while the database is
    free. Each turn opens the file anew: flock() tells threads apart only
    by open file, not by thread."""
    path = _lock_path(engine)
    if path is None:
        yield
        return
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # releases the lock


def _lock_path(engine: Engine) -> str | None:
    if engine.dialect.name != "sqlite":
        return None
    database = engine.url.database
    if not database or database == ":memory:":
        return None
    return database + "-writer.lock"


def run(session: Session, statement: Executable,
        params: Mapping[str, Any] | Sequence[Mapping[str, Any]] | None = None
        ) -> CursorResult[Any]:
    """A plain (Core) statement on the session's connection, in its
    transaction. What the session has pending is written first, as its own
    execute would, but the statement skips the session's per-statement
    machinery, which costs more than a small statement on SQLite."""
    session.flush()
    return session.connection().execute(statement, params)


def game_by_name(session: Session, name: str) -> models.Game | None:
    """The game called ``name`` (to lock it with its members:
    judge.games.game_with_members)."""
    return session.execute(_GAME, {"name": name.lower()}).scalars().first()


# built once: the game of a name
_GAME = sa_select(models.Game).where(col(models.Game.name) == bindparam("name"))
