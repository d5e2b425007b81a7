"""The IMAP poller against a real Dovecot: stored first, marked seen after."""

from __future__ import annotations

import imaplib
import logging
import threading
from collections.abc import Iterator
from dataclasses import replace

import pytest
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from judge.config import ImapConfig
from judge.intake.imap import TOO_LARGE_KEYWORD, ImapIntakeError, ImapPoller, poll_once
from judge.intake.store import store_inbound
from judge.models import InboundMail
from tests.judge.intake.mails import crlf, load_mail
from tests.loopback import free_port

pytestmark = [pytest.mark.postgres, pytest.mark.slow]

THREE = ("orders.eml", "press.eml", "no_message_id.eml")
WAIT = 30.0  # generous: events normally come within one poll interval (0.2 s)


def _rows(engine: Engine) -> list[InboundMail]:
    with Session(engine) as session:
        return list(session.exec(select(InboundMail).order_by(col(InboundMail.id))).all())


def _break(engine: Engine) -> None:
    with engine.begin() as conn:
        conn.exec_driver_sql("ALTER TABLE inbound_mail RENAME TO inbound_mail_away")


def _mend(engine: Engine) -> None:
    with engine.begin() as conn:
        conn.exec_driver_sql("ALTER TABLE inbound_mail_away RENAME TO inbound_mail")


class Folder:
    """The test's own view of its folder, through a connection of its own."""

    def __init__(self, config: ImapConfig) -> None:
        self.name = config.mailbox
        self.conn = imaplib.IMAP4(config.host, config.port, timeout=30)
        self.conn.login(config.user, config.password)
        typ, data = self.conn.select(self.name)
        assert typ == "OK", data

    def append(self, raw: bytes) -> None:
        typ, data = self.conn.append(self.name, "", imaplib.Time2Internaldate(0), raw)
        assert typ == "OK", data

    def uids(self, *criteria: str) -> list[bytes]:
        self.conn.noop()  # take in what the poller's session changed
        typ, data = self.conn.uid("SEARCH", *criteria)
        assert typ == "OK", data
        return data[0].split()

    def peek(self, uid: bytes) -> bytes:
        typ, data = self.conn.uid("FETCH", uid, "(BODY.PEEK[])")
        assert typ == "OK", data
        return data[0][1]

    def close(self) -> None:
        self.conn.logout()


@pytest.fixture
def folder(mailbox: ImapConfig) -> Iterator[Folder]:
    view = Folder(mailbox)
    yield view
    view.close()


def test_poll_stores_unseen_mail_then_marks_it_seen(mailbox: ImapConfig, folder: Folder,
                                                    db: Engine) -> None:
    mails = [crlf(load_mail(name)) for name in THREE]
    for raw in mails:
        folder.append(raw)
    assert len(folder.uids("UNSEEN")) == 3
    stored: list[tuple[int, bool]] = []
    assert poll_once(mailbox, db, on_stored=lambda i, new: stored.append((i, new))) == 3
    rows = _rows(db)
    assert [row.raw for row in rows] == mails  # in arrival order, byte for byte
    assert {row.source for row in rows} == {"imap"}
    assert stored == [(row.id, True) for row in rows]
    assert folder.uids("UNSEEN") == [] and len(folder.uids("SEEN")) == 3
    assert poll_once(mailbox, db) == 0
    assert len(_rows(db)) == 3


def test_mail_that_cannot_be_stored_stays_unseen(mailbox: ImapConfig, folder: Folder,
                                                 db: Engine) -> None:
    for name in THREE:
        folder.append(crlf(load_mail(name)))
    _break(db)
    with pytest.raises(ImapIntakeError, match="3 message"):
        poll_once(mailbox, db)
    assert len(folder.uids("UNSEEN")) == 3
    _mend(db)
    assert poll_once(mailbox, db) == 3
    assert folder.uids("UNSEEN") == []


def test_crash_between_commit_and_seen_is_a_duplicate(mailbox: ImapConfig, folder: Folder,
                                                      db: Engine) -> None:
    folder.append(crlf(load_mail("orders.eml")))
    [uid] = folder.uids("UNSEEN")
    # what a poll that crashed right after its commit leaves behind
    mail_id, _ = store_inbound(db, folder.peek(uid), "imap")
    assert folder.uids("UNSEEN") == [uid]
    stored: list[tuple[int, bool]] = []
    assert poll_once(mailbox, db, on_stored=lambda i, new: stored.append((i, new))) == 0
    assert stored == [(mail_id, False)]
    assert folder.uids("UNSEEN") == [] and len(_rows(db)) == 1


def test_mail_already_taken_over_smtp_is_not_stored_again(mailbox: ImapConfig,
                                                          folder: Folder, db: Engine) -> None:
    store_inbound(db, crlf(load_mail("orders.eml")), "smtp")
    folder.append(crlf(load_mail("orders_relayed.eml")))
    assert poll_once(mailbox, db) == 0
    assert [row.source for row in _rows(db)] == ["smtp"]
    assert folder.uids("UNSEEN") == []


def test_oversize_mail_is_left_unseen_and_tagged(mailbox: ImapConfig, folder: Folder,
                                                 db: Engine) -> None:
    small, big = crlf(load_mail("press.eml")), crlf(load_mail("orders.eml")) * 20
    folder.append(big)
    folder.append(small)
    assert poll_once(mailbox, db, max_message_bytes=len(small) + 10) == 1
    assert [row.raw for row in _rows(db)] == [small]
    [left] = folder.uids("UNSEEN")
    assert folder.uids("KEYWORD", TOO_LARGE_KEYWORD) == [left]
    assert poll_once(mailbox, db, max_message_bytes=len(small) + 10) == 0


def test_wrong_password_raises(mailbox: ImapConfig, db: Engine) -> None:
    with pytest.raises(imaplib.IMAP4.error):
        poll_once(replace(mailbox, password="wrong"), db)


def test_missing_mailbox_raises(mailbox: ImapConfig, db: Engine) -> None:
    with pytest.raises(ImapIntakeError, match="SELECT"):
        poll_once(replace(mailbox, mailbox="no such folder"), db)


def test_poller_picks_up_new_mail(mailbox: ImapConfig, folder: Folder, db: Engine) -> None:
    arrived = threading.Event()
    stored: list[tuple[int, bool]] = []

    def on_stored(mail_id: int, new: bool) -> None:
        stored.append((mail_id, new))
        arrived.set()

    poller = ImapPoller(mailbox, db)
    poller.start(on_stored)
    try:
        folder.append(crlf(load_mail("orders.eml")))
        assert arrived.wait(WAIT), "the poller did not store the new mail"
        [row] = _rows(db)
        assert stored[0] == (row.id, True)
        arrived.clear()
        folder.append(crlf(load_mail("press.eml")))
        assert arrived.wait(WAIT), "the poller did not store the second mail"
    finally:
        poller.stop()
    assert len(_rows(db)) == 2


class _Records(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.failed = threading.Event()

    def emit(self, record: logging.LogRecord) -> None:
        if "poll of" in record.getMessage():
            self.failed.set()


def test_poller_survives_an_unreachable_server(db: Engine) -> None:
    config = ImapConfig(host="127.0.0.1", port=free_port(), user="x", password="y",
                        interval_seconds=0.05)
    records = _Records()
    logger = logging.getLogger("judge.intake.imap")
    logger.addHandler(records)
    poller = ImapPoller(config, db, max_backoff_seconds=0.2)
    try:
        poller.start()
        assert records.failed.wait(WAIT), "no failure was logged"
        records.failed.clear()
        assert records.failed.wait(WAIT), "the poller stopped trying after a failure"
    finally:
        poller.stop()
        logger.removeHandler(records)
    assert _rows(db) == []


def test_poller_starts_once(mailbox: ImapConfig, db: Engine) -> None:
    poller = ImapPoller(mailbox, db)
    poller.start()
    try:
        with pytest.raises(RuntimeError):
            poller.start()
    finally:
        poller.stop()
