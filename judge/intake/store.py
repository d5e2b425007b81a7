"""The inbound store: every received mail, kept raw and durable, once.

Each way a mail comes in (the SMTP listener, the IMAP poller, an MTA's pipe
to ``judge deliver``) hands the raw bytes to ``store_inbound`` and tells its
sender "received" only after that call returns, because it returns only
after the row is committed. What happens to the mail afterwards (parsing,
commands, replies) works from the stored row, so a crash after the commit
loses nothing.

The same mail may arrive more than once: an MTA retries when our answer got
lost, a mail sent to the judge's mailbox may also reach the listener, the
IMAP poller may crash between storing a message and marking it seen. Each
copy has the same ``content_hash`` (the Message-ID and the message without
the trace headers that relays add), and the table holds one row per hash,
so the second copy finds the first and is not processed again.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from itertools import chain

from sqlalchemy import insert
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from judge.db import transaction
from judge.models import InboundMail, utcnow

# Header fields that relays and mailbox servers add or rewrite on the way.
# They differ between copies of one mail, so the hash leaves them out.
_TRACE_FIELDS = frozenset({
    b"received", b"x-received", b"received-spf", b"return-path", b"delivered-to",
    b"x-original-to", b"authentication-results", b"dkim-signature",
    b"x-google-dkim-signature", b"domainkey-signature",
})
_TRACE_PREFIXES = (b"x-envelope-", b"arc-", b"x-spam-")

_FIELD_NAME = re.compile(rb"^([!-9;-~]+)[ \t]*:")  # printable ASCII but ':' (RFC 5322 2.2)
_TEXT_LIMIT = 998  # the columns' max_length: one line of mail at most
_UNPRINTABLE = re.compile(r"[\x00-\x1f\x7f]")
_PIECE = 1 << 20  # a body is hashed this much at a time


def _text(value: bytes | str) -> str:
    """A column-safe string: decoded, without control characters (PostgreSQL
    refuses NUL in text), at most one mail line long."""
    if isinstance(value, bytes):
        value = value.decode("utf-8", errors="replace")
    return _UNPRINTABLE.sub("", value).strip()[:_TEXT_LIMIT]


def _split_fields(header: list[bytes]) -> list[list[bytes]]:
    """Header lines grouped into fields: a line starting with white space
    continues the field before it."""
    fields: list[list[bytes]] = []
    for line in header:
        if line[:1] in (b" ", b"\t") and fields:
            fields[-1].append(line)
        else:
            fields.append([line])
    return fields


def _field_name(field: list[bytes]) -> bytes:
    match = _FIELD_NAME.match(field[0])
    return match.group(1).lower() if match else b""


def _is_trace(name: bytes) -> bool:
    return name in _TRACE_FIELDS or name.startswith(_TRACE_PREFIXES)


def fingerprint(raw: bytes) -> tuple[str, str]:
    """(Message-ID, content hash) of a raw message. Never raises.

    The hash is sha256 (hex) over the Message-ID and the message with its
    trace header fields removed and its line ends made LF, so copies that
    came by different ways (SMTP gives CRLF, a Maildir holds LF) or through
    different relays hash alike. The Message-ID is '' when there is none.

    Memory: one copy of the message (its line ends made LF) and a piece of
    the body at a time; a 25 MB mail is hashed in about 25 MB more, not in
    four copies of it (issue 25).
    """
    data = bytes(raw).replace(b"\r\n", b"\n")
    end_of_head = data.find(b"\n\n")
    head = data if end_of_head < 0 else data[:end_of_head]
    sep = b"" if end_of_head < 0 else b"\n\n"
    body = memoryview(data)[len(head) + len(sep):]
    fields = _split_fields(head.split(b"\n")) if head else []
    message_id = ""
    kept: list[bytes] = []
    for field in fields:
        name = _field_name(field)
        if name == b"message-id" and not message_id:
            message_id = _text(b" ".join(line.strip() for line in field).split(b":", 1)[1])
        if not _is_trace(name):
            kept.extend(field)
    pieces = (bytes(body[at:at + _PIECE]) for at in range(0, len(body), _PIECE))
    content_hash = _hash_without_trailing_lf(message_id.encode("utf-8") + b"\0",
                                             chain((b"\n".join(kept), sep), pieces))
    return message_id, content_hash


def _hash_without_trailing_lf(prefix: bytes, pieces: Iterable[bytes]) -> str:
    """sha256 of the prefix and the pieces as one text, without the line
    ends at its end: trailing line ends are the part of a message most often
    changed in transit. A piece's own trailing line ends are held back until
    something else follows them."""
    digest = hashlib.sha256(prefix)
    held = 0
    for piece in pieces:
        kept = piece.rstrip(b"\n")
        if kept:
            digest.update(b"\n" * held)
            digest.update(kept)
            held = len(piece) - len(kept)
        else:
            held += len(piece)
    return digest.hexdigest()


def _existing_id(engine: Engine, content_hash: str) -> int | None:
    with Session(engine) as session:
        return session.exec(
            select(InboundMail.id).where(InboundMail.content_hash == content_hash)
        ).first()


def store_inbound(engine: Engine, raw: bytes, source: str,
                  envelope_from: str = "") -> tuple[int, bool]:
    """Store a received mail; (its InboundMail id, True if it is new).

    Returns only after the row is committed. A mail already stored (same
    content hash, also when another thread or process stores it at the same
    moment) gives the existing row's id and False. Any other database error
    propagates: the caller must then answer a temporary failure so the
    sender tries again.
    """
    return store_many(engine, [(raw, source, envelope_from)])[0]


def store_many(engine: Engine, mails: list[tuple[bytes, str, str]]) -> list[tuple[int, bool]]:
    """Store several received mails (raw, source, envelope sender) in one
    transaction, as store_inbound does one: one commit for a whole group of
    mails that arrived together, which is what lets the SMTP listener keep
    up with many clients at once."""
    rows = []
    for given, source, envelope_from in mails:
        raw = bytes(given)
        message_id, content_hash = fingerprint(raw)
        rows.append({"message_id": message_id, "content_hash": content_hash,
                     "raw": raw, "source": _text(source)[:16],
                     "envelope_from": _text(envelope_from), "status": "new", "note": ""})
    try:
        # straight to the inserts: the unique content hash finds a copy (rare)
        with transaction(engine) as session:
            stored = []
            for row in rows:
                # the row as parameters, not .values(): SQLAlchemy caches a
                # statement's compiled form, and with it the first mail's text
                inserted = session.connection().execute(
                    insert(InboundMail), {**row, "received_at": utcnow()})
                key = inserted.inserted_primary_key
                assert key is not None
                stored.append((int(key[0]), True))
            return stored
    except IntegrityError:
        if len(rows) > 1:
            # some copy among them: each on its own, to tell which
            return [store_many(engine, [mail])[0] for mail in mails]
        # A copy stored before, or by another writer a moment ago.
        found = _existing_id(engine, str(rows[0]["content_hash"]))
        if found is None:
            raise
        return [(found, False)]


def pending_ids(engine: Engine) -> list[int]:
    """Ids of the stored mails not yet processed, oldest first."""
    with Session(engine) as session:
        ids = session.exec(
            select(InboundMail.id).where(InboundMail.status == "new")
            .order_by(col(InboundMail.id))
        ).all()
    return [i for i in ids if i is not None]
