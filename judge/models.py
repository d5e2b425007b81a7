"""The judge's tables (sqlmodel). The database is the single source of truth:
mail in, games, orders, results and mail out all live here.

JSON columns are plain text, so the same schema runs on SQLite and
PostgreSQL. Times are timezone-aware, in UTC.
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import Column, Index, LargeBinary, Text, UniqueConstraint
from sqlmodel import Field, SQLModel


def utcnow() -> datetime:
    return datetime.now(UTC)


def as_utc(moment: datetime) -> datetime:
    """A stored time as an aware UTC datetime (SQLite hands times back naive)."""
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


class SchemaVersion(SQLModel, table=True):
    __tablename__ = "schema_version"
    id: int = Field(default=1, primary_key=True)
    version: int


class InboundMail(SQLModel, table=True):
    """A received message, stored before the sender is told it arrived."""

    __tablename__ = "inbound_mail"
    id: int | None = Field(default=None, primary_key=True)
    message_id: str = Field(default="", index=True, max_length=998)
    # sha256 of the Message-ID and the message without its trace headers:
    # the same mail arriving twice (by SMTP and IMAP, or retried) has one row
    content_hash: str = Field(unique=True, max_length=64)
    raw: bytes = Field(sa_column=Column(LargeBinary, nullable=False))
    source: str = Field(default="smtp", max_length=16)  # smtp | imap | deliver
    envelope_from: str = Field(default="", max_length=998)
    received_at: datetime = Field(default_factory=utcnow, index=True)
    # new -> done | ignored (automatic mail, never answered) | failed
    status: str = Field(default="new", index=True, max_length=16)
    processed_at: datetime | None = None
    note: str = Field(default="", sa_column=Column(Text, nullable=False, default=""))


class Outbox(SQLModel, table=True):
    """A mail to send. The complete message is built when the row is written,
    so a retry sends exactly the same bytes with the same Message-ID."""

    __tablename__ = "outbox"
    # the sender's question: the oldest due pending row (schema version 2)
    __table_args__ = (Index("ix_outbox_due", "status", "next_attempt_at", "id"),)
    id: int | None = Field(default=None, primary_key=True)
    message_id: str = Field(unique=True, max_length=998)
    recipients: str = Field(sa_column=Column(Text, nullable=False))  # JSON list
    raw: bytes = Field(sa_column=Column(LargeBinary, nullable=False))
    kind: str = Field(default="reply", max_length=32)  # reply | results | reminder | ...
    game: str = Field(default="", index=True, max_length=64)
    created_at: datetime = Field(default_factory=utcnow)
    # pending -> sending -> sent; failed after the last attempt; uncertain
    # when the last attempt's fate is unknown (the relay may have it)
    status: str = Field(default="pending", index=True, max_length=16)
    attempts: int = 0
    next_attempt_at: datetime = Field(default_factory=utcnow, index=True)
    # the judge that claimed the row last (judge.instance): at its next
    # start it takes back its own claims, and only those, at once
    claimed_by: str = Field(default="", max_length=300)
    sent_at: datetime | None = None
    last_error: str = Field(default="", sa_column=Column(Text, nullable=False, default=""))


class Game(SQLModel, table=True):
    __tablename__ = "game"
    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(unique=True, max_length=64)
    variant: str = Field(default="standard", max_length=64)
    master_hash: str = Field(max_length=256)  # the GM's password, hashed
    master_address: str = Field(max_length=998)
    # forming -> active <-> paused -> finished | terminated
    status: str = Field(default="forming", index=True, max_length=16)
    settings: str = Field(default="{}", sa_column=Column(Text, nullable=False, default="{}"))
    phase: str = Field(default="", max_length=16)  # the phase now being played
    deadline: datetime | None = Field(default=None, index=True)  # UTC
    grace_until: datetime | None = None  # UTC; only set while the grace period runs
    reminded: str = Field(default="", max_length=16)  # the phase whose reminders went out
    seed: int = 0
    result: str = Field(default="", max_length=256)  # how the game ended
    created_at: datetime = Field(default_factory=utcnow)
    # deadline work is claimed by one judge process at a time (row lock)
    claimed_by: str = Field(default="", max_length=64)
    claimed_at: datetime | None = None
    # A deadline whose processing fails (schema version 11): the attempts
    # failed in a row, the last one's time and error (its type and message),
    # and when the next attempt is due. Kept in the row so that a restarted
    # judge neither tells the GM again nor forgets how long to wait; all back
    # to nothing when an attempt works or the GM moves the game on.
    failed_attempts: int = 0
    failed_at: datetime | None = None  # UTC
    failure: str = Field(default="", sa_column=Column(Text, nullable=False, default=""))
    retry_at: datetime | None = None  # UTC


class Member(SQLModel, table=True):
    """A player or an observer of a game."""

    __tablename__ = "member"
    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    role: str = Field(default="player", max_length=16)  # player | observer
    # '' until a seat is assigned; a seat of several powers names them all
    power: str = Field(default="", max_length=128)
    address: str = Field(max_length=998)
    password_hash: str = Field(max_length=256)
    status: str = Field(default="active", max_length=16)  # active | resigned | ejected
    wait: bool = False
    draw: str = Field(default="", max_length=256)  # '' no vote; '*' any draw; else powers
    concede_to: str = Field(default="", max_length=128)
    absence_from: datetime | None = None
    absence_to: datetime | None = None
    joined_at: datetime = Field(default_factory=utcnow)
    # the player's own time zone (SET ZONE): deadlines are shown in it too
    zone: str = Field(default="", max_length=64)


class PhaseRecord(SQLModel, table=True):
    """A phase of a game: the position it started from and, once
    adjudicated, every order's result."""

    __tablename__ = "phase_record"
    __table_args__ = (UniqueConstraint("game_id", "phase"),)
    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    seq: int = 0  # 0, 1, 2... in the order the phases were played
    phase: str = Field(max_length=16)
    state: str = Field(sa_column=Column(Text, nullable=False))  # JSON snapshot
    results: str = Field(default="", sa_column=Column(Text, nullable=False, default=""))
    deadline: datetime | None = None
    adjudicated_at: datetime | None = None


class FiledLines(SQLModel, table=True):
    """The lines of one kind (orders, bids, map orders: the rules' line
    kinds, engine/lines.py) one power has on file for one phase, as a JSON
    list, replaced as a whole by each new submission. One table for every
    kind, so a variant's new kind of line needs no table of its own
    (schema version 9; before it, a table per kind)."""

    __tablename__ = "filed_lines"
    __table_args__ = (UniqueConstraint("game_id", "phase", "power", "kind"),)
    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    phase: str = Field(max_length=16)
    power: str = Field(max_length=32)
    kind: str = Field(max_length=32)  # the line kind's name: "orders", "bids", "map_orders"
    lines: str = Field(sa_column=Column(Text, nullable=False))  # JSON list of lines
    submitted_at: datetime = Field(default_factory=utcnow)


class Press(SQLModel, table=True):
    __tablename__ = "press"
    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    phase: str = Field(max_length=16)
    sender: str = Field(max_length=128)  # seat, or 'GM' for official messages
    recipients: str = Field(sa_column=Column(Text, nullable=False))  # JSON list or ["ALL"]
    grey: bool = False
    body: str = Field(sa_column=Column(Text, nullable=False))
    sent_at: datetime = Field(default_factory=utcnow)


class AuditEntry(SQLModel, table=True):
    """Every command the judge carried out or refused, and for whom."""

    __tablename__ = "audit_log"
    id: int | None = Field(default=None, primary_key=True)
    at: datetime = Field(default_factory=utcnow, index=True)
    inbound_id: int | None = Field(default=None, foreign_key="inbound_mail.id")
    game: str = Field(default="", index=True, max_length=64)
    address: str = Field(default="", max_length=998)
    command: str = Field(sa_column=Column(Text, nullable=False))
    outcome: str = Field(sa_column=Column(Text, nullable=False))


class SignonFailure(SQLModel, table=True):
    """A SIGNON whose password was wrong: counted per game and power and per
    address that gave it, so guessing stops after a few tries an hour
    (schema version 4; the address since version 11)."""

    __tablename__ = "signon_failure"
    __table_args__ = (Index("ix_signon_failure_seat", "game", "power", "at"),)
    id: int | None = Field(default=None, primary_key=True)
    game: str = Field(max_length=64)
    power: str = Field(max_length=64)  # as resolved: a seat, MASTER, OBSERVER1, POWER#3...
    # the sender's address, or judge.guessing.KEYED for a mail carrying the
    # power's sign-on key; '' for the rows of before version 11
    address: str = Field(default="", max_length=998)
    at: datetime = Field(default_factory=utcnow)


class SignonNotice(SQLModel, table=True):
    """A mail the judge sent about guessing at a power's password: the GM's
    warning ('guessing'), or a sign-on key mailed to the power's own address
    ('key', with the key's digest). At most one of each per power an hour
    (schema version 11)."""

    __tablename__ = "signon_notice"
    __table_args__ = (Index("ix_signon_notice_seat", "game", "power", "kind", "at"),)
    id: int | None = Field(default=None, primary_key=True)
    game: str = Field(max_length=64)
    power: str = Field(max_length=64)
    kind: str = Field(max_length=16)
    digest: str = Field(default="", max_length=64)  # sha256 hex of a key; '' for a warning
    at: datetime = Field(default_factory=utcnow)


class ReplySent(SQLModel, table=True):
    """A reply the judge mailed to an address: counted per address, so a
    robot that answers every reply is answered only a few times an hour
    (schema version 4)."""

    __tablename__ = "reply_sent"
    __table_args__ = (Index("ix_reply_sent_address", "address", "at"),)
    id: int | None = Field(default=None, primary_key=True)
    address: str = Field(max_length=998)
    at: datetime = Field(default_factory=utcnow)
