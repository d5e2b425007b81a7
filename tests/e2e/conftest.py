"""A whole judge on loopback for end-to-end tests: its own SMTP listener,
a real aiosmtpd sink as its outgoing relay, and a database (through the
``db_url`` fixture: SQLite, and PostgreSQL too for tests marked postgres)."""

from __future__ import annotations

import email
import email.policy
import smtplib
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from sqlmodel import Session, select

from judge.config import Config, WebConfig
from judge.models import InboundMail, Outbox
from judge.service import Judge
from tests.loopback import free_port


@dataclass
class Received:
    to: str
    message: EmailMessage

    @property
    def subject(self) -> str:
        return str(self.message["Subject"])

    @property
    def body(self) -> str:
        part = self.message.get_body(("plain",))
        return part.get_content().replace("\r\n", "\n") if part is not None else ""


@dataclass
class Sink:
    """The relay: collects every mail the judge sends, per recipient."""

    mails: list[Received] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        message = email.message_from_bytes(envelope.original_content or envelope.content,
                                           policy=email.policy.default)
        with self.lock:
            for rcpt in envelope.rcpt_tos:
                self.mails.append(Received(rcpt.lower(), message))  # type: ignore[arg-type]
        return "250 OK"

    def count(self) -> int:
        with self.lock:
            return len(self.mails)

    def take(self) -> list[Received]:
        with self.lock:
            out, self.mails = self.mails, []
        return out


@pytest.fixture
def sink() -> Iterator[tuple[Sink, int]]:
    handler = Sink()
    port = free_port()
    controller = Controller(handler, hostname="127.0.0.1", port=port)
    controller.start()
    yield handler, port
    controller.stop()


class Harness:
    def __init__(self, judge: Judge, sink: Sink) -> None:
        self.judge = judge
        self.sink = sink
        self.sent = 0

    def send(self, sender: str, body: str, subject: str = "orders",
             headers: dict[str, str] | None = None) -> None:
        msg = EmailMessage()
        msg["From"] = sender
        msg["To"] = self.judge.config.address
        msg["Subject"] = subject
        msg["Message-ID"] = email.utils.make_msgid(domain="players.test")
        for key, value in (headers or {}).items():
            msg[key] = value
        msg.set_content(body)
        self.send_raw(sender, msg.as_bytes())

    def send_raw(self, sender: str, raw: bytes) -> None:
        with smtplib.SMTP(self.judge.config.smtp_host, self.judge.config.smtp_port,
                          timeout=30) as smtp:
            smtp.sendmail(sender, [self.judge.config.address], raw)
        self.sent += 1

    def settle(self, timeout: float = 60.0) -> list[Received]:
        """Wait until every stored mail is processed and the outbox is empty,
        then return (and forget) what the sink received."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with Session(self.judge.engine) as session:
                new = session.exec(select(InboundMail).where(InboundMail.status == "new")).all()
                waiting = session.exec(select(Outbox).where(
                    Outbox.status.in_(["pending", "sending"]))).all()  # type: ignore[attr-defined]
            if not new and not waiting and self.judge.idle.is_set():
                return self.sink.take()
            self.judge.sender.wake()
            time.sleep(0.05)
        raise AssertionError("the judge did not settle in time")


@pytest.fixture
def harness(db_url: str, sink: tuple[Sink, int], tmp_path: Path) -> Iterator[Harness]:
    handler, relay_port = sink
    config = Config(name="TESTJUDGE", address="judge@judge.test", data_dir=tmp_path,
                    smtp_port=free_port(), relay_host="127.0.0.1", relay_port=relay_port,
                    relay_first_retry_seconds=1, database_url_setting=db_url,
                    web=WebConfig(port=free_port()))
    judge = Judge(config)
    judge.start()
    yield Harness(judge, handler)
    judge.stop()
    judge.engine.dispose()
