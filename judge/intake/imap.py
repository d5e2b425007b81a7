"""The IMAP poller: mail in from a mailbox, marked seen only once stored.

Why seen-after-commit: the mailbox keeps a message until we say we have it.
We fetch with BODY.PEEK[] (which leaves the \\Seen flag alone), commit the
message to the database, and only then set \\Seen. A crash or a database
failure before that leaves the message unseen, so the next poll fetches it
again; if the commit had in fact happened, the store recognises the copy by
its content hash and the message is simply marked seen then. Nothing is lost
and nothing is processed twice.

Messages larger than the optional ``max_message_bytes`` are not stored:
they stay unseen in the mailbox for a person to look at, tagged with the
keyword ``JudgeTooLarge`` so later polls pass them over.

imaplib blocks; ``ImapPoller`` runs the polls in a thread of its own.
"""

from __future__ import annotations

import contextlib
import imaplib
import logging
import re
import ssl
import threading
from collections.abc import Callable

from sqlalchemy.engine import Engine

from judge.config import ImapConfig
from judge.intake.store import store_inbound

log = logging.getLogger(__name__)

OnStored = Callable[[int, bool], None]

TOO_LARGE_KEYWORD = "JudgeTooLarge"
TIMEOUT_SECONDS = 60.0  # one network operation; a hung server must not hang the poller
_SIZE = re.compile(rb"RFC822\.SIZE (\d+)")


class ImapIntakeError(Exception):
    """A poll did not finish: the server refused something or mails could not be stored."""


def _quote(mailbox: str) -> str:
    # imaplib sends arguments as they are; a quoted string is valid for any name.
    return '"' + mailbox.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _connect(config: ImapConfig) -> imaplib.IMAP4:
    if config.ssl:
        return imaplib.IMAP4_SSL(config.host, config.port,
                                 ssl_context=ssl.create_default_context(),
                                 timeout=TIMEOUT_SECONDS)
    return imaplib.IMAP4(config.host, config.port, timeout=TIMEOUT_SECONDS)


def _check(what: str, typ: str, data: list) -> list:  # type: ignore[type-arg]
    if typ != "OK":
        raise ImapIntakeError(f"IMAP {what}: {typ} {data!r}")
    return data


def _unseen_uids(conn: imaplib.IMAP4) -> list[str]:
    typ, data = conn.uid("SEARCH", "UNSEEN", "UNKEYWORD", TOO_LARGE_KEYWORD)
    words = b" ".join(d for d in _check("SEARCH", typ, data) if isinstance(d, bytes))
    return [w.decode() for w in sorted(words.split(), key=int)]  # arrival order


def _size(conn: imaplib.IMAP4, uid: str) -> int | None:
    typ, data = conn.uid("FETCH", uid, "(RFC822.SIZE)")
    for item in _check("FETCH size", typ, data):
        text = item[0] if isinstance(item, tuple) else item
        if isinstance(text, bytes) and (match := _SIZE.search(text)):
            return int(match.group(1))
    return None  # expunged meanwhile


def _body(conn: imaplib.IMAP4, uid: str) -> bytes | None:
    typ, data = conn.uid("FETCH", uid, "(BODY.PEEK[])")
    for item in _check("FETCH", typ, data):
        # ('1 (UID 7 BODY[] {123}', b'the message'): the literal is the second part
        if isinstance(item, tuple) and len(item) == 2 and isinstance(item[1], bytes):
            return item[1]
    return None  # expunged meanwhile


def _mark(conn: imaplib.IMAP4, uid: str, flag: str) -> None:
    typ, data = conn.uid("STORE", uid, "+FLAGS.SILENT", f"({flag})")
    _check("STORE", typ, data)


def poll_once(config: ImapConfig, engine: Engine, *, on_stored: OnStored | None = None,
              max_message_bytes: int | None = None) -> int:
    """Store every unseen message of the mailbox, marking each seen after its
    commit; the number of messages newly stored (duplicates not counted).

    Raises on connection or protocol errors, and ImapIntakeError after the
    poll if some messages could not be stored (they stay unseen; the others
    are stored and marked). ``on_stored(id, new)`` is called after each commit.
    It blocks on the network: from asyncio, call it through asyncio.to_thread.
    """
    conn = _connect(config)
    try:
        _check("LOGIN", *conn.login(config.user, config.password))
        _check("SELECT", *conn.select(_quote(config.mailbox)))
        stored = 0
        failures = 0
        for uid in _unseen_uids(conn):
            if max_message_bytes is not None:
                size = _size(conn, uid)
                if size is not None and size > max_message_bytes:
                    log.warning("imap intake: message UID %s of %s is %d bytes, over the "
                                "limit of %d: left unseen, tagged %s", uid,
                                config.mailbox, size, max_message_bytes, TOO_LARGE_KEYWORD)
                    # a server without keywords refuses: it is passed over again next time
                    with contextlib.suppress(ImapIntakeError):
                        _mark(conn, uid, TOO_LARGE_KEYWORD)
                    continue
            raw = _body(conn, uid)
            if raw is None:
                continue
            try:
                mail_id, new = store_inbound(engine, raw, "imap")
            except Exception:
                log.exception("imap intake: could not store UID %s; left unseen", uid)
                failures += 1
                continue
            _mark(conn, uid, "\\Seen")
            stored += new
            if on_stored is not None:
                try:
                    on_stored(mail_id, new)
                except Exception:
                    log.exception("imap intake: on_stored(%d) failed", mail_id)
        if failures:
            raise ImapIntakeError(f"{failures} message(s) could not be stored; left unseen")
        return stored
    finally:
        with contextlib.suppress(imaplib.IMAP4.error, OSError):
            conn.logout()


class ImapPoller:
    """Polls a mailbox every ``interval_seconds`` in a background thread.

    Failures (server down, login refused, database down) are logged, never
    raised, and the wait before the next poll doubles after each failure in a
    row, up to ``max_backoff_seconds``.
    """

    def __init__(self, config: ImapConfig, engine: Engine, *,
                 max_message_bytes: int | None = None,
                 max_backoff_seconds: float = 600.0) -> None:
        self.config = config
        self.engine = engine
        self.max_message_bytes = max_message_bytes
        self.max_backoff_seconds = max_backoff_seconds
        self._stop = threading.Event()
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self, on_stored: OnStored | None = None) -> None:
        if self._thread is not None:
            raise RuntimeError("the IMAP poller is already running")
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, args=(on_stored,),
                                        name="imap-intake", daemon=True)
        self._thread.start()

    def poll_soon(self) -> None:
        """Poll now rather than at the end of the current wait."""
        self._wake.set()

    def stop(self, timeout: float = TIMEOUT_SECONDS + 5) -> None:
        """Stop polling and wait for a poll under way to finish."""
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None

    def _delay(self, failures: int) -> float:
        base = max(float(self.config.interval_seconds), 0.1)
        return min(base * 2.0 ** min(failures, 20), max(self.max_backoff_seconds, base))

    def _run(self, on_stored: OnStored | None) -> None:
        failures = 0
        where = f"{self.config.host}:{self.config.port}/{self.config.mailbox}"
        while not self._stop.is_set():
            self._wake.clear()  # a wake during the poll below triggers the next one at once
            try:
                count = poll_once(self.config, self.engine, on_stored=on_stored,
                                  max_message_bytes=self.max_message_bytes)
                if count:
                    log.info("imap intake: %d new mail(s) from %s", count, where)
                failures = 0
            except Exception as exc:
                failures += 1
                log.warning("imap intake: poll of %s failed (%s: %s); retrying in %.0f s",
                            where, type(exc).__name__, exc, self._delay(failures))
            self._wake.wait(self._delay(failures))
