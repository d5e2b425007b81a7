"""The SMTP listener against a real client (smtplib) on loopback: 250 only
after the commit, 451 when the database fails, 552 for oversize mail."""

from __future__ import annotations

import smtplib
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

import pytest
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from judge.config import Config
from judge.db import make_engine
from judge.intake.smtp import start_listener
from judge.models import InboundMail
from tests.judge.intake.mails import crlf, hostile_messages, load_mail
from tests.loopback import free_port

pytestmark = pytest.mark.postgres

LIMIT = 200_000  # above every hostile sample (the 1000-line header is 77 kB)
SENDER = "anna@example.org"
JUDGE = "judge@example.net"


@dataclass
class Listener:
    config: Config
    stored: list[tuple[int, bool]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def on_stored(self, mail_id: int, new: bool) -> None:
        with self.lock:
            self.stored.append((mail_id, new))

    def client(self) -> smtplib.SMTP:
        smtp = smtplib.SMTP(self.config.smtp_host, self.config.smtp_port, timeout=30)
        smtp.ehlo("client.example.org")
        return smtp


@contextmanager
def _listening(db: Engine, **settings: Any) -> Iterator[Listener]:
    config = Config(address="judge@example.net", smtp_port=free_port(),
                    max_message_bytes=LIMIT).with_(**settings)
    state = Listener(config)
    controller = start_listener(config, db, on_stored=state.on_stored)
    try:
        yield state
    finally:
        controller.stop()


@pytest.fixture
def listener(db: Engine) -> Iterator[Listener]:
    with _listening(db) as state:
        yield state


def _rows(db_url: str) -> list[InboundMail]:
    """The committed rows, read through a connection of its own."""
    engine = make_engine(db_url)
    try:
        with Session(engine) as session:
            return list(session.exec(select(InboundMail).order_by(col(InboundMail.id))).all())
    finally:
        engine.dispose()


def _send(smtp: smtplib.SMTP, raw: bytes, sender: str = SENDER) -> tuple[int, bytes]:
    """MAIL, RCPT, DATA by hand, without a SIZE parameter: the reply to DATA."""
    options: list[str] = []
    if not sender.isascii():
        smtp.command_encoding = "utf-8"
        options.append("SMTPUTF8")
    code, reply = smtp.mail(sender, options)
    assert code == 250, reply
    code, reply = smtp.rcpt(JUDGE)
    assert code == 250, reply
    return smtp.data(raw)


def test_mail_is_committed_before_250(listener: Listener, db_url: str) -> None:
    raw = crlf(load_mail("orders.eml"))
    with listener.client() as smtp:
        code, reply = _send(smtp, raw)
        # the client has its 250: the row must already be readable by anyone
        rows = _rows(db_url)
    assert code == 250
    [row] = rows
    assert reply == f"OK stored as {row.id}".encode()
    assert row.raw == raw and row.source == "smtp" and row.envelope_from == SENDER
    assert listener.stored == [(row.id, True)]


def test_sendmail_accepts_and_stores(listener: Listener, db_url: str) -> None:
    raw = crlf(load_mail("press.eml"))
    with listener.client() as smtp:
        assert smtp.sendmail(SENDER, [JUDGE, "judge@elsewhere.example"], raw) == {}
        rows = _rows(db_url)
    assert [row.raw for row in rows] == [raw]


def test_resent_mail_gets_the_same_id_and_one_row(listener: Listener, db_url: str) -> None:
    with listener.client() as smtp:
        first = _send(smtp, crlf(load_mail("orders.eml")))
        again = _send(smtp, crlf(load_mail("orders_relayed.eml")))
    assert first == again and first[0] == 250
    [row] = _rows(db_url)
    assert listener.stored == [(row.id, True), (row.id, False)]


def test_many_clients_at_once_each_get_their_own_row(listener: Listener, db_url: str) -> None:
    """Mails whose DATA arrive together are committed together (one group);
    each client still gets the id of its own mail, and a copy sent by two
    clients at once is one row."""
    base = crlf(load_mail("orders.eml"))
    raws = [base.replace(b"Subject:", f"X-Client: {n}\r\nSubject:".encode(), 1)
            for n in range(12)]
    raws.append(raws[0])  # the same mail from a second client
    replies: dict[int, tuple[int, bytes]] = {}
    start = threading.Barrier(len(raws) + 1)

    def client(n: int) -> None:
        with listener.client() as smtp:
            start.wait()
            replies[n] = _send(smtp, raws[n])

    threads = [threading.Thread(target=client, args=(n,)) for n in range(len(raws))]
    for thread in threads:
        thread.start()
    start.wait()
    for thread in threads:
        thread.join(30)
    rows = {row.raw: row.id for row in _rows(db_url)}
    assert len(rows) == 12
    for n, raw in enumerate(raws):
        code, reply = replies[n]
        assert code == 250
        assert reply == f"OK stored as {rows[raw]}".encode()


def test_oversize_mail_announced_with_size_gets_552(listener: Listener, db_url: str) -> None:
    raw = crlf(load_mail("orders.eml")) + (b"x" * 70 + b"\r\n") * (LIMIT // 70 + 1)
    with listener.client() as smtp, pytest.raises(smtplib.SMTPSenderRefused) as refused:
        smtp.sendmail(SENDER, [JUDGE], raw)
    assert refused.value.smtp_code == 552
    assert _rows(db_url) == []


def test_oversize_mail_without_size_gets_552_after_data(listener: Listener,
                                                         db_url: str) -> None:
    raw = crlf(load_mail("orders.eml")) + (b"x" * 70 + b"\r\n") * (LIMIT // 70 + 1)
    with listener.client() as smtp:
        code, _ = _send(smtp, raw)
        assert code == 552
        # the session goes on: a mail of the right size after it is taken
        assert _send(smtp, crlf(load_mail("press.eml")))[0] == 250
    assert [row.raw for row in _rows(db_url)] == [crlf(load_mail("press.eml"))]


def test_database_failure_answers_451_and_the_retry_is_stored(listener: Listener, db: Engine,
                                                              db_url: str) -> None:
    raw = crlf(load_mail("orders.eml"))
    with db.begin() as conn:
        conn.exec_driver_sql("ALTER TABLE inbound_mail RENAME TO inbound_mail_away")
    with listener.client() as smtp:
        with pytest.raises(smtplib.SMTPDataError) as failed:
            smtp.sendmail(SENDER, [JUDGE], raw)
        assert failed.value.smtp_code == 451
        assert b"temporary failure" in failed.value.smtp_error
        assert listener.stored == []
        with db.begin() as conn:
            conn.exec_driver_sql("ALTER TABLE inbound_mail_away RENAME TO inbound_mail")
        smtp.rset()
        assert smtp.sendmail(SENDER, [JUDGE], raw) == {}
    assert [row.raw for row in _rows(db_url)] == [raw]


def test_database_unreachable_answers_451() -> None:
    # nothing listens on this port: every connection attempt is refused
    engine = make_engine(f"postgresql://root@127.0.0.1:{free_port()}/test")
    config = Config(smtp_port=free_port())
    controller = start_listener(config, engine)
    try:
        with smtplib.SMTP(config.smtp_host, config.smtp_port, timeout=30) as smtp, \
                pytest.raises(smtplib.SMTPDataError) as failed:
            smtp.sendmail(SENDER, [JUDGE], crlf(load_mail("orders.eml")))
        assert failed.value.smtp_code == 451
    finally:
        controller.stop()
        engine.dispose()


def test_more_than_100_recipients_are_refused(listener: Listener, db_url: str) -> None:
    recipients = [f"judge+{i}@example.net" for i in range(101)]
    with listener.client() as smtp:
        refused = smtp.sendmail(SENDER, recipients, crlf(load_mail("orders.eml")))
    assert list(refused) == [recipients[-1]] and refused[recipients[-1]][0] == 452
    assert len(_rows(db_url)) == 1


@pytest.mark.parametrize("name", list(hostile_messages()))
def test_hostile_mail_is_stored_as_it_came(listener: Listener, db_url: str, name: str) -> None:
    raw = hostile_messages()[name]
    with listener.client() as smtp:
        code, reply = _send(smtp, raw, sender="\u00e9vil@example.org")
    assert code == 250, reply
    assert [row.raw for row in _rows(db_url)] == [raw]


def test_line_over_1000_characters_gets_500(listener: Listener, db_url: str) -> None:
    raw = crlf(load_mail("orders.eml")) + b"y" * 1200 + b"\r\n"
    with listener.client() as smtp:
        code, _ = _send(smtp, raw)
    assert code == 500
    assert _rows(db_url) == []


def _numbered(n: int) -> bytes:
    """A mail of its own for client n (copies of one mail would be one row)."""
    return crlf(load_mail("orders.eml")).replace(b"Subject:", b"X-Client: %d\r\nSubject:" % n, 1)


def _begin_data(smtp: smtplib.SMTP, raw: bytes) -> tuple[int, bytes]:
    """MAIL, RCPT, DATA, and when DATA is answered 354, the mail's first
    half (the client is sending it): the reply to DATA."""
    assert smtp.mail(SENDER)[0] == 250 and smtp.rcpt(JUDGE)[0] == 250
    code, reply = smtp.docmd("DATA")
    if code == 354:
        smtp.send(raw[:len(raw) // 2])
    return code, reply


def _answered_within(smtp: smtplib.SMTP, seconds: float) -> bool:
    """Whether the listener says something within ``seconds`` (read nothing)."""
    assert smtp.sock is not None
    smtp.sock.settimeout(seconds)
    try:
        return bool(smtp.sock.recv(1, socket.MSG_PEEK))
    except TimeoutError:
        return False
    finally:
        smtp.sock.settimeout(30)


def _end_data(smtp: smtplib.SMTP, raw: bytes) -> tuple[int, bytes]:
    smtp.send(raw[len(raw) // 2:] + b".\r\n")
    return smtp.getreply()


def test_mails_past_the_cap_are_told_to_try_again_and_none_is_lost(db: Engine,
                                                                   db_url: str) -> None:
    """Two mails being sent hold both turns: a third is answered 451 at
    DATA (a temporary refusal: its client keeps it), the two are stored,
    and the third, sent again once they are, is stored too."""
    raws = [_numbered(n) for n in range(3)]
    with _listening(db, max_mails_at_once=2, busy_wait_seconds=0.3) as listener, \
            listener.client() as first, listener.client() as second, \
            listener.client() as third:
        assert _begin_data(first, raws[0])[0] == 354
        assert _begin_data(second, raws[1])[0] == 354
        code, reply = _begin_data(third, raws[2])
        assert (code, reply) == (451, b"4.3.2 too many mails at once, try again later")
        assert _end_data(first, raws[0])[0] == 250
        assert _end_data(second, raws[1])[0] == 250
        assert third.data(raws[2])[0] == 250  # its MAIL and RCPT still stand
    assert sorted(row.raw for row in _rows(db_url)) == sorted(raws)


def test_a_mail_waits_for_its_turn_rather_than_being_refused(db: Engine,
                                                            db_url: str) -> None:
    """With the one turn taken, DATA is not answered until the turn ends,
    then the waiting mail goes through."""
    raws = [_numbered(n) for n in range(2)]
    with _listening(db, max_mails_at_once=1, busy_wait_seconds=30) as listener, \
            listener.client() as first, listener.client() as waiting:
        assert _begin_data(first, raws[0])[0] == 354
        assert waiting.mail(SENDER)[0] == 250 and waiting.rcpt(JUDGE)[0] == 250
        waiting.putcmd("DATA")
        assert not _answered_within(waiting, 0.5), "DATA answered while the only turn was taken"
        assert _end_data(first, raws[0])[0] == 250
        assert waiting.getreply()[0] == 354
        waiting.send(raws[1] + b".\r\n")
        assert waiting.getreply()[0] == 250
    assert sorted(row.raw for row in _rows(db_url)) == sorted(raws)


def test_a_client_gone_in_the_middle_of_data_gives_its_turn_back(db: Engine,
                                                                 db_url: str) -> None:
    raw = _numbered(1)
    with _listening(db, max_mails_at_once=1, busy_wait_seconds=5) as listener:
        with listener.client() as gone:
            assert _begin_data(gone, _numbered(0))[0] == 354
            gone.close()  # half a mail, then the connection drops
        with listener.client() as smtp:
            assert _send(smtp, raw)[0] == 250
    assert [row.raw for row in _rows(db_url)] == [raw]


def _memory_kb(field_name: str) -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field_name + ":"):
            return int(line.split()[1])
    raise AssertionError(f"no {field_name} in /proc/self/status")


def _up_to_data(conn: socket.socket, reader: BinaryIO) -> None:
    """HELO, MAIL, RCPT and DATA on a raw connection, each answered as it should be."""
    for command, code in ((b"HELO client.example.org", b"250"),
                          (f"MAIL FROM:<{SENDER}>".encode(), b"250"),
                          (f"RCPT TO:<{JUDGE}>".encode(), b"250"), (b"DATA", b"354")):
        conn.sendall(command + b"\r\n")
        assert reader.readline().startswith(code)


@pytest.mark.parametrize("where", ["command", "data"])
def test_a_line_without_end_is_refused_without_growing_memory(
        listener: Listener, db_url: str, where: str) -> None:
    """20 MB with no line end: the listener closes the connection long before
    the end, and the process (listener and test in one) grows by a few MB at
    most, not by the line's size (peak RSS, reset first)."""
    chunk = b"x" * 65536
    conn = socket.create_connection((listener.config.smtp_host, listener.config.smtp_port),
                                    timeout=30)
    reader = conn.makefile("rb")
    assert reader.readline().startswith(b"220")
    if where == "data":
        _up_to_data(conn, reader)
    Path("/proc/self/clear_refs").write_text("5")  # VmHWM starts again from VmRSS
    before = _memory_kb("VmRSS")
    refused = False
    try:
        for _ in range(20 * 2**20 // len(chunk)):
            conn.sendall(chunk)
        conn.sendall(b"\r\n.\r\n")
        conn.shutdown(socket.SHUT_WR)
        # without the bound, the listener answers (500) and waits for more
        refused = reader.readline() == b"" or reader.readline() == b""
    except OSError:
        refused = True  # reset by the listener while we were still sending
    finally:
        reader.close()
        conn.close()
    grown = _memory_kb("VmHWM") - before
    assert refused
    assert grown < 8 * 1024, f"the process grew by {grown} kB"
    assert _rows(db_url) == []
    with listener.client() as smtp:  # the listener is still there for others
        assert _send(smtp, crlf(load_mail("orders.eml")))[0] == 250


def test_a_mail_of_empty_lines_costs_about_its_size(db: Engine, db_url: str) -> None:
    """A line is not an object of its own: 2 MB of empty lines (a million
    of them, within the size limit) grow the process (listener and test in
    one) by a few MB, not by the 160 MB aiosmtpd's own reading took."""
    raw = b"Subject: blank\r\nMessage-ID: <blank@example.org>\r\n\r\n" + b"\r\n" * 2**20
    with _listening(db, max_message_bytes=len(raw)) as listener:
        conn = socket.create_connection((listener.config.smtp_host,
                                         listener.config.smtp_port), timeout=60)
        with conn, conn.makefile("rb") as reader:
            assert reader.readline().startswith(b"220")
            _up_to_data(conn, reader)
            Path("/proc/self/clear_refs").write_text("5")  # VmHWM starts again from VmRSS
            before = _memory_kb("VmRSS")
            conn.sendall(raw + b".\r\n")
            reply = reader.readline()
            grown = _memory_kb("VmHWM") - before
    assert reply.startswith(b"250 "), reply
    assert grown < 24 * 1024, f"the process grew by {grown} kB"
    assert [row.raw for row in _rows(db_url)] == [raw]
