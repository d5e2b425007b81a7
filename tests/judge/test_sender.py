"""The sender against a real SMTP relay on loopback (aiosmtpd) and a real
Maildir, on both databases: each mail delivered once, retried while the
relay defers it, given up when it refuses it; after a crash the Maildir
is never written twice, and a relay gets the same Message-ID again."""

from __future__ import annotations

import asyncio
import email
import logging
import re
import threading
import time
import tomllib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import timedelta
from email import policy
from email.message import EmailMessage
from email.utils import parsedate_to_datetime
from pathlib import Path
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP as SMTPServer
from aiosmtpd.smtp import Envelope
from aiosmtpd.smtp import Session as SMTPSession
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy.engine import Engine

from judge import models
from judge.config import Config
from judge.db import transaction
from judge.outbox import OutgoingMail, queue
from judge.sender import CONNECTIONS, MAX_BACKOFF, Sender, _dot_stuffed, retry_delay
from tests.examples import examples
from tests.loopback import free_port

pytestmark = pytest.mark.postgres

DATA = tomllib.loads((Path(__file__).parent / "data" / "sender.toml").read_text("utf-8"))
JUDGE = "judge@judge.example.org"



@dataclass(frozen=True)
class Received:
    mail_from: str
    rcpt_tos: tuple[str, ...]
    content: bytes

    def message(self) -> EmailMessage:
        msg = email.message_from_bytes(self.content, policy=policy.default)
        assert isinstance(msg, EmailMessage)
        return msg


class Sink:
    """A relay that keeps what it accepts. `replies` maps a stage (mail,
    rcpt, data) to the answer it gives instead of accepting; `once` stages
    give it a single time. `hold`, when set, keeps the answer to DATA back
    until the test releases it."""

    def __init__(self) -> None:
        self.received: list[Received] = []
        self.replies: dict[str, str] = {}
        self.once: set[str] = set()
        self.refuse: dict[str, str] = {}  # recipient -> RCPT answer
        self.hold: threading.Event | None = None
        self.data_seen = 0  # DATA commands whose message came in, taken or not
        self.sessions: set[int] = set()  # the SMTP connections that sent MAIL
        self.delivered: list[tuple[int, str]] = []  # each mail taken: its connection, subject
        self.hang_up_after_data = False  # close the connection after each 250
        self._lock = threading.Lock()
        self._controller: Controller | None = None
        self.port = free_port()

    def _answer(self, stage: str) -> str | None:
        with self._lock:
            reply = self.replies.get(stage)
            if reply is not None and stage in self.once:
                del self.replies[stage]
            return reply

    async def handle_MAIL(self, server: SMTPServer, session: SMTPSession, envelope: Envelope,
                          address: str, mail_options: list[str]) -> str:
        with self._lock:
            self.sessions.add(id(session))
        reply = self._answer("mail")
        if reply:
            return reply
        envelope.mail_from = address
        envelope.mail_options.extend(mail_options)
        return "250 OK"

    async def handle_RCPT(self, server: SMTPServer, session: SMTPSession, envelope: Envelope,
                          address: str, rcpt_options: list[str]) -> str:
        if address in self.refuse:
            return self.refuse[address]
        reply = self._answer("rcpt")
        if reply:
            return reply
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: SMTPServer, session: SMTPSession,
                          envelope: Envelope) -> str:
        with self._lock:
            self.data_seen += 1
        reply = self._answer("data")
        if reply:
            return reply
        if self.hold is not None:
            await asyncio.get_running_loop().run_in_executor(None, self.hold.wait, 60)
        content = envelope.content
        assert isinstance(content, bytes) and envelope.mail_from is not None
        with self._lock:
            self.received.append(Received(envelope.mail_from, tuple(envelope.rcpt_tos), content))
            self.delivered.append((id(session), str(self.received[-1].message()["Subject"])))
        if self.hang_up_after_data:
            transport = server.transport
            assert transport is not None
            # closed once the 250 is written: before the sender's next MAIL
            asyncio.get_running_loop().call_soon(transport.close)
        return "250 OK queued"

    def start(self) -> None:
        self._controller = Controller(self, hostname="127.0.0.1", port=self.port)
        self._controller.start()

    def stop(self) -> None:
        if self._controller is not None:
            self._controller.stop()
            self._controller = None


@pytest.fixture
def sink() -> Iterator[Sink]:
    relay = Sink()
    relay.start()
    yield relay
    if relay.hold is not None:
        relay.hold.set()
    relay.stop()


def relay_config(tmp_path: Path, port: int, **changes: Any) -> Config:
    return Config(name="Test Judge", address=JUDGE, data_dir=tmp_path / "data",
                  relay_host="127.0.0.1", relay_port=port, **changes)


def maildir_config(tmp_path: Path) -> Config:
    return Config(name="Test Judge", address=JUDGE, data_dir=tmp_path / "data")


def put(db: Engine, config: Config, *to: str, subject: str = "Orders received",
        body: str = "Your orders were received.\n") -> int:
    with transaction(db) as session:
        return queue(session, OutgoingMail(to=to or ("player@example.com",), subject=subject,
                                           body=body), config)


def row_of(db: Engine, outbox_id: int) -> models.Outbox:
    with transaction(db) as session:
        row = session.get(models.Outbox, outbox_id)
    assert row is not None
    return row


def set_row(db: Engine, outbox_id: int, **values: Any) -> None:
    with transaction(db) as session:
        row = session.get(models.Outbox, outbox_id)
        assert row is not None
        for key, value in values.items():
            setattr(row, key, value)


def wait_for(condition: Callable[[], bool], seconds: float = 20.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "condition not reached in time"
        time.sleep(0.05)


# -- through a relay ----------------------------------------------------------


def test_one_mail_arrives_with_its_headers(db: Engine, sink: Sink, tmp_path: Path) -> None:
    config = relay_config(tmp_path, sink.port)
    body = "Orders for S1901M:\n.\n..two dots\nA PAR - BUR\n"
    outbox_id = put(db, config, "player@example.com", "gm@example.net", body=body)
    assert Sender(config, db).send_due() == 1

    [got] = sink.received
    row = row_of(db, outbox_id)
    assert row.status == "sent" and row.attempts == 1 and row.sent_at is not None
    assert row.last_error == ""
    assert got.mail_from == JUDGE
    assert got.rcpt_tos == ("player@example.com", "gm@example.net")
    assert got.content.replace(b"\r\n", b"\n") == row.raw.replace(b"\r\n", b"\n")
    msg = got.message()
    assert msg["From"] == f"Test Judge <{JUDGE}>"
    assert msg["To"] == "player@example.com, gm@example.net"
    assert msg["Subject"] == "Orders received"
    assert msg["Message-ID"] == row.message_id
    assert msg["Auto-Submitted"] == "auto-replied"
    assert parsedate_to_datetime(msg["Date"]).utcoffset() is not None
    assert msg.get_content().replace("\r\n", "\n") == body  # dot lines survive SMTP
    assert Sender(config, db).send_due() == 0  # and it is sent once
    assert len(sink.received) == 1


def test_a_batch_goes_over_a_few_connections_a_games_mails_in_order_over_one(
        db: Engine, sink: Sink, tmp_path: Path) -> None:
    config = relay_config(tmp_path, sink.port)
    for n in range(5):
        put(db, config, f"player{n}@example.com")
    assert Sender(config, db).send_due() == 5
    assert sorted(r.rcpt_tos[0] for r in sink.received) == \
        [f"player{n}@example.com" for n in range(5)]
    assert len(sink.sessions) == CONNECTIONS

    sink.received.clear()
    sink.sessions.clear()
    sink.delivered.clear()
    for phase in ("S1901M", "F1901M", "W1901A"):
        for game in ("one", "two"):
            with transaction(db) as session:
                queue(session, OutgoingMail(to=(f"{game}@example.com",), body="results\n",
                                            subject=f"results {game} {phase}", kind="results",
                                            game=game), config)
    assert Sender(config, db).send_due() == 6
    for game in ("one", "two"):
        subjects = [subject for _, subject in sink.delivered if f" {game} " in subject]
        assert subjects == [f"results {game} {p}" for p in ("S1901M", "F1901M", "W1901A")]
        assert len({session for session, subject in sink.delivered
                    if f" {game} " in subject}) == 1


def test_a_relay_that_hangs_up_between_mails_is_called_again(
        db: Engine, sink: Sink, tmp_path: Path) -> None:
    config = relay_config(tmp_path, sink.port)
    sink.hang_up_after_data = True
    ids = [put(db, config, f"player{n}@example.com") for n in range(3)]
    assert Sender(config, db).send_due() == 3
    assert len(sink.received) == 3 and sink.data_seen == 3 and len(sink.sessions) == 3
    assert all(row_of(db, i).status == "sent" and row_of(db, i).attempts == 1 for i in ids)


def test_hostile_subject_adds_no_header_and_no_recipient(
        db: Engine, sink: Sink, tmp_path: Path) -> None:
    config = relay_config(tmp_path, sink.port)
    put(db, config, subject="Re: hi\r\nBcc: thief@example.net\r\n\r\nforged body")
    assert Sender(config, db).send_due() == 1
    [got] = sink.received
    assert got.rcpt_tos == ("player@example.com",)
    msg = got.message()
    assert "Bcc" not in msg
    assert msg["Subject"] == "Re: hi Bcc: thief@example.net forged body"
    assert msg.get_content().replace("\r\n", "\n") == "Your orders were received.\n"


def test_relay_down_then_up(db: Engine, tmp_path: Path) -> None:
    relay = Sink()  # its port is free: nothing listens yet
    config = relay_config(tmp_path, relay.port)
    before = models.utcnow()
    first = put(db, config)
    second = put(db, config, "other@example.com")
    sender = Sender(config, db)
    now = models.utcnow()
    assert sender.send_due(now) == 0
    row = row_of(db, first)
    assert row.status == "pending" and row.attempts == 1
    assert row.next_attempt_at == now + timedelta(seconds=config.relay_first_retry_seconds)
    assert "refused" in row.last_error.lower()
    # with the relay unreachable the pass stops: the next mail is not tried
    assert (row_of(db, second).status, row_of(db, second).attempts) == ("pending", 0)

    relay.start()
    try:
        assert sender.send_due(before) == 0  # neither is due yet
        assert relay.received == []
        later = now + timedelta(seconds=config.relay_first_retry_seconds + 1)
        assert sender.send_due(later) == 2
        assert sender.send_due(later + timedelta(hours=1)) == 0
        assert len(relay.received) == 2
        assert (row_of(db, first).status, row_of(db, first).attempts) == ("sent", 2)
        assert (row_of(db, second).status, row_of(db, second).attempts) == ("sent", 1)
    finally:
        relay.stop()


@pytest.mark.parametrize("case", DATA["reply"], ids=lambda c: c["name"])
def test_relay_answers(db: Engine, sink: Sink, tmp_path: Path, case: dict[str, str]) -> None:
    config = relay_config(tmp_path, sink.port)
    sink.replies[case["stage"]] = case["reply"]
    outbox_id = put(db, config)
    now = models.utcnow()
    assert Sender(config, db).send_due(now) == 0
    row = row_of(db, outbox_id)
    assert row.status == case["status"] and row.attempts == 1
    assert case["error"] in row.last_error
    assert sink.received == []
    if case["status"] == "pending":
        assert row.next_attempt_at > now


def test_deferred_mail_is_sent_on_retry(db: Engine, sink: Sink, tmp_path: Path) -> None:
    config = relay_config(tmp_path, sink.port)
    sink.replies["data"] = "451 4.3.0 Try again later"
    sink.once.add("data")
    outbox_id = put(db, config)
    sender = Sender(config, db)
    now = models.utcnow()
    assert sender.send_due(now) == 0
    assert row_of(db, outbox_id).status == "pending"
    assert sender.send_due(now + timedelta(minutes=1)) == 1
    assert len(sink.received) == 1
    row = row_of(db, outbox_id)
    assert row.status == "sent" and row.attempts == 2 and row.last_error == ""


@pytest.mark.slow
def test_backoff_doubles_then_gives_up(db: Engine, sink: Sink, tmp_path: Path) -> None:
    config = relay_config(tmp_path, sink.port, relay_max_attempts=4,
                          relay_first_retry_seconds=10.0)
    sink.replies["data"] = "451 4.3.0 Try again later"
    outbox_id = put(db, config)
    sender = Sender(config, db)
    now = models.utcnow()
    waits = []
    for _ in range(3):
        assert sender.send_due(now) == 0
        row = row_of(db, outbox_id)
        assert row.status == "pending"
        waits.append((row.next_attempt_at - now).total_seconds())
        now = row.next_attempt_at
    assert waits == [10, 20, 40]
    assert sender.send_due(now) == 0
    row = row_of(db, outbox_id)
    assert row.status == "failed" and row.attempts == 4 and "451" in row.last_error
    assert sender.send_due(now + timedelta(days=30)) == 0
    assert sink.received == []


def test_backoff_is_capped_at_six_hours() -> None:
    assert retry_delay(30.0, 1) == timedelta(seconds=30)
    assert retry_delay(30.0, 10) == timedelta(seconds=30 * 512)
    assert retry_delay(30.0, 11) == MAX_BACKOFF == timedelta(hours=6)
    assert retry_delay(30.0, 10_000) == MAX_BACKOFF


def test_partial_refusal_sends_to_the_others(db: Engine, sink: Sink, tmp_path: Path) -> None:
    config = relay_config(tmp_path, sink.port)
    sink.refuse["gone@example.com"] = "550 5.1.1 User unknown"
    outbox_id = put(db, config, "player@example.com", "gone@example.com")
    assert Sender(config, db).send_due() == 1
    [got] = sink.received
    assert got.rcpt_tos == ("player@example.com",)
    row = row_of(db, outbox_id)
    assert row.status == "sent"
    assert "gone@example.com" in row.last_error and "550" in row.last_error


@pytest.mark.slow
def test_lost_answer_after_data_is_sent_again_with_the_same_message_id(
        db: Engine, sink: Sink, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """The message went but the relay's answer did not come: it may have been
    taken or lost. A lost mail cannot be got back; a second copy under the
    same Message-ID can be recognised by whoever gets it: so it goes again."""
    config = relay_config(tmp_path, sink.port)
    sink.hold = threading.Event()
    outbox_id = put(db, config)
    sender = Sender(config, db, smtp_timeout=2.0)
    now = models.utcnow()
    with caplog.at_level(logging.WARNING, logger="judge.sender"):
        assert sender.send_due(now) == 0
    row = row_of(db, outbox_id)
    assert row.status == "pending" and row.attempts == 1 and row.next_attempt_at > now
    assert f"outbox {outbox_id}" in caplog.text and "player@example.com" in caplog.text
    assert sink.data_seen == 1
    sink.hold.set()
    assert sender.send_due(row.next_attempt_at) == 1
    assert row_of(db, outbox_id).status == "sent"
    assert sink.data_seen == 2
    assert [r.message()["Message-ID"] for r in sink.received][-1] == row.message_id


def claim_and_die(db: Engine, config: Config, *, deliver: bool) -> list[int]:
    """What a judge killed mid-send leaves: rows it claimed (and, with
    ``deliver``, handed over) without writing down how it went."""
    dead = Sender(config, db)
    rows = dead._claim(models.utcnow(), 25)
    if deliver:
        dead._deliver_all(rows)
    return [row.id for row in rows]


def test_a_restarted_judge_sends_its_own_crashed_claims_again_at_once(
        db: Engine, sink: Sink, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Killed after the relay took the mail, before 'sent' was written: at
    the next start (at once, on PostgreSQL too) the mail goes again with
    the same Message-ID rather than never."""
    config = relay_config(tmp_path, sink.port)
    crashed = put(db, config, "crashed@example.com")
    [claimed] = claim_and_die(db, config, deliver=True)
    assert claimed == crashed and row_of(db, crashed).status == "sending"
    waiting = put(db, config, "waiting@example.com")
    restarted = Sender(config, db)
    with caplog.at_level(logging.WARNING, logger="judge.sender"):
        assert restarted.recover() == 1
    assert f"outbox {crashed}" in caplog.text and "crashed@example.com" in caplog.text
    assert row_of(db, crashed).status == "pending"
    assert restarted.send_due() == 2
    assert row_of(db, crashed).status == row_of(db, waiting).status == "sent"
    copies = [r.message()["Message-ID"] for r in sink.received if "crashed@example.com"
              in r.rcpt_tos]
    assert copies == [row_of(db, crashed).message_id] * 2
    assert restarted.recover() == 0


def test_another_judges_running_claims_are_left_alone(
        db: Engine, sink: Sink, tmp_path: Path) -> None:
    """Two judges share the database: one starting must not take the other's
    claims (that one is sending them now); only a claim older than the lease
    counts as that judge's crash."""
    running = relay_config(tmp_path / "one", sink.port)
    starting = relay_config(tmp_path / "two", sink.port)
    outbox_id = put(db, running)
    claim_and_die(db, running, deliver=False)
    other = Sender(starting, db)
    assert other.recover() == 0
    assert other.send_due() == 0
    assert row_of(db, outbox_id).status == "sending"
    assert other.recover(models.utcnow() + timedelta(hours=1)) == 1
    assert row_of(db, outbox_id).status == "pending"
    assert other.send_due(models.utcnow() + timedelta(hours=1)) == 1
    assert len(sink.received) == 1


def test_two_senders_deliver_each_mail_once(db: Engine, sink: Sink, tmp_path: Path) -> None:
    config = relay_config(tmp_path, sink.port)
    ids = [put(db, config, f"player{n}@example.com") for n in range(40)]
    senders = [Sender(config, db), Sender(config, db)]
    start = threading.Barrier(len(senders))
    counts: list[int] = []
    errors: list[BaseException] = []

    def run(sender: Sender) -> None:
        try:
            start.wait(30)
            counts.append(sender.send_due(limit=1000))
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(s,)) for s in senders]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert errors == []
    assert sum(counts) == 40
    rows = [row_of(db, i) for i in ids]
    assert all(r.status == "sent" and r.attempts == 1 for r in rows)
    message_ids = [r.message()["Message-ID"] for r in sink.received]
    assert len(message_ids) == 40
    assert sorted(message_ids) == sorted(r.message_id for r in rows)


def test_background_thread_sends_on_wake(db: Engine, sink: Sink, tmp_path: Path) -> None:
    config = relay_config(tmp_path, sink.port)
    sender = Sender(config, db)
    sender.start()
    try:
        outbox_id = put(db, config)
        sender.wake()
        wait_for(lambda: row_of(db, outbox_id).status == "sent")
        second = put(db, config, "other@example.com")
        sender.wake()
        wait_for(lambda: row_of(db, second).status == "sent")
    finally:
        sender.stop()
    assert [r.rcpt_tos for r in sink.received] == [("player@example.com",),
                                                   ("other@example.com",)]


def test_background_thread_survives_a_broken_row(
        db: Engine, sink: Sink, tmp_path: Path) -> None:
    config = relay_config(tmp_path, sink.port)
    broken = put(db, config)
    set_row(db, broken, recipients="not json")
    sender = Sender(config, db)
    sender.start()
    try:
        good = put(db, config, "other@example.com")
        sender.wake()
        wait_for(lambda: row_of(db, good).status == "sent")
    finally:
        sender.stop()
    assert row_of(db, broken).status == "failed"
    assert [r.rcpt_tos for r in sink.received] == [("other@example.com",)]


# -- into a Maildir -----------------------------------------------------------


def maildir_files(config: Config, sub: str = "new") -> list[Path]:
    return sorted((config.maildir / sub).iterdir())


def test_maildir_gets_one_file_per_mail(
        db: Engine, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    config = maildir_config(tmp_path)
    ids = [put(db, config, f"p{n}@example.com") for n in range(3)]
    sender = Sender(config, db)
    with caplog.at_level(logging.INFO, logger="judge.sender"):
        assert sender.send_due() == 3
    assert sender.send_due() == 0
    files = maildir_files(config)
    assert len(files) == 3 and maildir_files(config, "tmp") == []
    rows = [row_of(db, i) for i in ids]
    assert sorted(f.read_bytes().split(b"\n", 1)[1] for f in files) == sorted(
        r.raw.replace(b"\r\n", b"\n") for r in rows)
    assert all(r.status == "sent" for r in rows)
    for f in files:
        assert str(f) in caplog.text


def test_maildir_crash_after_rename_is_not_written_twice(db: Engine, tmp_path: Path) -> None:
    config = maildir_config(tmp_path)
    outbox_id = put(db, config)
    claim_and_die(db, config, deliver=True)  # died after the rename, before 'sent'
    assert len(maildir_files(config)) == 1
    sender = Sender(config, db)
    assert sender.recover() == 1
    assert row_of(db, outbox_id).status == "sent"
    assert sender.send_due(models.utcnow() + timedelta(days=1)) == 0
    assert len(maildir_files(config)) == 1


def test_maildir_row_left_pending_after_the_rename_is_not_written_twice(
        db: Engine, tmp_path: Path) -> None:
    config = maildir_config(tmp_path)
    outbox_id = put(db, config)
    sender = Sender(config, db)
    assert sender.send_due() == 1
    set_row(db, outbox_id, status="pending", sent_at=None,
            next_attempt_at=models.utcnow() - timedelta(hours=1))
    assert sender.send_due() == 1
    assert row_of(db, outbox_id).status == "sent"
    assert len(maildir_files(config)) == 1


def test_maildir_mail_already_read_is_not_written_again(db: Engine, tmp_path: Path) -> None:
    config = maildir_config(tmp_path)
    outbox_id = put(db, config)
    sender = Sender(config, db)
    assert sender.send_due() == 1
    [written] = maildir_files(config)
    written.rename(config.maildir / "cur" / (written.name + ":2,S"))  # a reader saw it
    set_row(db, outbox_id, status="pending", sent_at=None)
    assert sender.send_due() == 1
    assert maildir_files(config) == []
    assert len(maildir_files(config, "cur")) == 1


def test_maildir_crash_before_rename_is_written_once_at_restart(
        db: Engine, tmp_path: Path) -> None:
    config = maildir_config(tmp_path)
    outbox_id = put(db, config)
    claim_and_die(db, config, deliver=False)
    restarted = Sender(config, db)
    assert restarted.recover() == 1
    assert row_of(db, outbox_id).status == "pending"
    assert restarted.send_due() == 1
    assert row_of(db, outbox_id).status == "sent"
    assert len(maildir_files(config)) == 1


def test_maildir_files_have_lf_line_ends_and_name_their_recipients(
        db: Engine, tmp_path: Path) -> None:
    """A Maildir holds mail with LF line ends (CRLF shows as ^M in mutt),
    and each file says whom it is for, even a mail to a whole game whose
    To line names only the group."""
    config = maildir_config(tmp_path)
    with transaction(db) as session:
        outbox_id = queue(session, OutgoingMail(
            to=("a@example.com", "b@example.org"), subject="Results", body="Spring 1901\n",
            group="Players of mygame"), config)
    assert Sender(config, db).send_due() == 1
    [written] = maildir_files(config)
    content = written.read_bytes()
    assert b"\r" not in content
    head = content.split(b"\n\n", 1)[0].split(b"\n")
    assert head[:2] == [b"X-Envelope-To: a@example.com", b"X-Envelope-To: b@example.org"]
    assert b"To: Players of mygame:;" in head
    raw = row_of(db, outbox_id).raw
    assert content == b"".join(head[:2][i] + b"\n" for i in range(2)) + raw.replace(b"\r\n",
                                                                                      b"\n")


def test_maildir_unwritable_is_retried(db: Engine, tmp_path: Path) -> None:
    config = maildir_config(tmp_path)
    config.data_dir.mkdir(parents=True)
    config.maildir.write_text("a file where the Maildir should be")
    outbox_id = put(db, config)
    sender = Sender(config, db)
    now = models.utcnow()
    assert sender.send_due(now) == 0
    row = row_of(db, outbox_id)
    assert row.status == "pending" and row.attempts == 1 and row.next_attempt_at > now
    assert "Maildir" in row.last_error
    config.maildir.unlink()
    assert sender.send_due(row.next_attempt_at) == 1
    assert len(maildir_files(config)) == 1


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(st.sampled_from([b".", b"..", b"\r", b"\n", b"\r\n", b"a", b" "]),
                max_size=40).map(b"".join))
def test_data_is_sent_in_crlf_lines_with_leading_dots_doubled(raw: bytes) -> None:
    """What goes after DATA: the message's lines (any line end read as one),
    each ending in CRLF, a dot at a line's start doubled, and the final dot."""
    data = _dot_stuffed(raw)
    assert data.endswith(b"\r\n.\r\n")
    sent = data[:-len(b".\r\n")].split(b"\r\n")[:-1]
    assert all(b"\r" not in line and b"\n" not in line for line in sent)
    assert all(line[:1] != b"." or line[:2] == b".." for line in sent)
    lines = re.split(rb"\r\n|\r|\n", raw)
    if lines[-1] == b"" and len(lines) > 1:
        lines.pop()  # the message ended in a line end (an empty one is one empty line)
    assert [line[1:] if line[:1] == b"." else line for line in sent] == lines
