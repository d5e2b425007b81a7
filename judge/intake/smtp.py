"""The SMTP listener: mail in over SMTP, stored before it is accepted.

Why store before 250: once a client has our 250 it deletes its copy, so the
250 must mean "committed to the database". The handler therefore commits
first and answers after; if the commit fails it answers 451 (a temporary
failure), and the client keeps the mail and retries later. If we crash after
the commit but before the 250 reaches the client, the client retries and
the store recognises the copy: nothing is lost and nothing is processed
twice.

Refusals the client sees:
- 552 when the message is larger than ``max_message_bytes`` (announced in
  EHLO as SIZE; aiosmtpd refuses at MAIL FROM when the client states the
  size, otherwise ``smtp_data`` does after reading the data). Nothing is
  stored.
- 500 for a line longer than RFC 5321's 1000 characters (aiosmtpd's limit).
  The text after DATA is read by ``smtp_data.read_data``, not by aiosmtpd,
  which holds a mail as one object per line: 4 times its size for lines of
  base64, 80 times for empty lines.
- 500 and the connection closed when more than ``MAX_UNENDED_BYTES`` come
  without a line end: aiosmtpd discards such a line's text but keeps its
  pieces until the line ends, so one endless line grew the process by its
  size.
- 452 past 100 recipients (the judge is one mailbox; more is abuse).
- 451 to DATA when ``max_mails_at_once`` mails are being read and stored
  and none of them ends within ``busy_wait_seconds``. A mail is held whole
  in memory from its DATA to its commit, so without a cap, mails arriving
  together grow the process without bound. The client keeps its mail and
  tries again; a mail that waits for its turn has not started sending, so
  it costs nothing meanwhile. Ceiling: the idle listener plus
  ``max_mails_at_once`` x about 3 x ``max_message_bytes`` (measured in
  bench/README.md, "Big mails arriving together").
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Callable
from typing import Any, AnyStr

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, Envelope, Session
from sqlalchemy.engine import Engine

from judge.config import Config
from judge.intake.smtp_data import take_mail
from judge.intake.store import store_many

log = logging.getLogger(__name__)

MAX_RECIPIENTS = 100
TEMPORARY_FAILURE = "451 4.3.0 temporary failure, try again later"
BUSY = "451 4.3.2 too many mails at once, try again later"

OnStored = Callable[[int, bool], None]

# No line of SMTP is this long (1000 at most, RFC 5321 4.5.3.1.6); a client
# sending this much without a line end is broken or hostile.
MAX_UNENDED_BYTES = 64 * 1024
LINE_WITHOUT_END = b"500 5.5.2 line without end, closing the connection\r\n"


class Turns:
    """The mails the listener reads and stores at once: at most ``at_once``;
    one more waits up to ``wait_seconds`` for a turn to end."""

    def __init__(self, at_once: int, wait_seconds: float) -> None:
        self.at_once = at_once
        self.wait_seconds = wait_seconds
        # asyncio binds it to the listener's loop when a mail first waits
        self._free = asyncio.Semaphore(at_once)

    async def take(self) -> bool:
        """A turn, or False when none came free in time."""
        try:
            async with asyncio.timeout(self.wait_seconds):
                await self._free.acquire()
        except TimeoutError:
            return False
        return True

    def give_back(self) -> None:
        self._free.release()


class _BoundedSMTP(SMTP):
    """aiosmtpd's SMTP with a bound on the bytes it takes without a line end,
    counted as they arrive, before aiosmtpd buffers any of them, and on the
    mails it holds at once (``Turns``)."""

    _unended = 0  # bytes since the last line end

    def __init__(self, handler: IntakeHandler, turns: Turns, **kwargs: Any) -> None:
        super().__init__(handler, **kwargs)
        self._turns = turns

    async def smtp_DATA(self, arg: str) -> None:
        # aiosmtpd's own checks, in its order, before any turn is taken
        if await self.check_helo_needed() or await self.check_auth_needed("DATA"):
            return
        assert self.envelope is not None
        if not self.envelope.rcpt_tos:
            await self.push("503 Error: need RCPT command")
            return
        if arg:
            await self.push("501 Syntax: DATA")
            return
        if not await self._turns.take():
            log.warning("smtp intake: %d mails at once; %r told to try again later",
                        self._turns.at_once, self.session.peer if self.session else "?")
            await self.push(BUSY)
            return
        # The turn lasts until the mail is stored and answered, and ends
        # however the DATA ends: a client gone half way cancels this coroutine.
        try:
            await take_mail(self)
        finally:
            self._turns.give_back()

    def data_received(self, data: bytes) -> None:
        end = data.rfind(b"\n")
        self._unended = len(data) - end - 1 if end >= 0 else self._unended + len(data)
        if self._unended > MAX_UNENDED_BYTES:
            transport = self.transport
            if isinstance(transport, asyncio.WriteTransport) and not transport.is_closing():
                log.warning("smtp intake: %r sent %d bytes without a line end; closed",
                            self.session.peer if self.session else "?", self._unended)
                transport.write(LINE_WITHOUT_END)
                transport.close()
            return
        super().data_received(data)


    async def push(self, status: AnyStr) -> None:
        # aiosmtpd's 552 ('Error: Too much mail data') does not say how much
        # is allowed; a player whose photo was refused should not have to guess.
        if isinstance(status, str) and status.startswith("552 ") and self.data_size_limit:
            await super().push(f"552 5.3.4 mail too big: this judge takes mails up to "
                               f"{self.data_size_limit // 2**20} MB "
                               f"({self.data_size_limit} bytes) in all")
            return
        await super().push(status)


class _Controller(Controller):
    def __init__(self, handler: IntakeHandler, turns: Turns, **kwargs: Any) -> None:
        super().__init__(handler, **kwargs)
        self.turns = turns  # one for all the listener's connections

    def factory(self) -> SMTP:
        return _BoundedSMTP(self.handler, self.turns, **self.SMTP_kwargs)


class ListenError(Exception):
    """The listener could not start (the port is taken, the address is not
    this machine's...)."""


class IntakeHandler:
    """aiosmtpd handler: every recipient is the judge; DATA is stored, then answered.

    ``on_stored(id, new)`` is called after each commit, on the listener's
    event loop thread: keep it cheap and thread-safe (set an event, queue
    the id); the SMTP sessions wait while it runs.
    """

    def __init__(self, engine: Engine, on_stored: OnStored | None = None,
                 max_recipients: int = MAX_RECIPIENTS) -> None:
        self.engine = engine
        self.on_stored = on_stored
        self.max_recipients = max_recipients
        # mails whose DATA is in and which wait for the next commit
        self._waiting: list[tuple[bytes, str, asyncio.Future[tuple[int, bool]]]] = []
        self._store_task: asyncio.Future[None] | None = None  # committing them

    async def handle_RCPT(self, server: SMTP, session: Session, envelope: Envelope,
                          address: str, rcpt_options: list[str]) -> str:
        if len(envelope.rcpt_tos) >= self.max_recipients:
            return "452 4.5.3 Too many recipients"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        raw = envelope.original_content
        if raw is None:
            content = envelope.content
            raw = content.encode("utf-8", "surrogateescape") if isinstance(content, str) \
                else (content or b"")
        sender = envelope.mail_from or ""
        stored: asyncio.Future[tuple[int, bool]] = asyncio.get_running_loop().create_future()
        self._waiting.append((bytes(raw), sender, stored))
        if self._store_task is None or self._store_task.done():
            self._store_task = asyncio.ensure_future(self._store_waiting())
        try:
            mail_id, new = await stored
        except Exception:
            log.exception("smtp intake: could not store a mail from %r; answered 451", sender)
            return TEMPORARY_FAILURE
        if self.on_stored is not None:
            try:
                self.on_stored(mail_id, new)
            except Exception:  # the mail is safe; a failing listener must not undo the 250
                log.exception("smtp intake: on_stored(%d) failed", mail_id)
        return f"250 OK stored as {mail_id}"

    async def _store_waiting(self) -> None:
        """Commit the waiting mails, a group at a time: every mail whose
        DATA came in while the last commit ran goes into the next one
        (group commit). The commit blocks (disk sync, network), so it runs
        off the event loop and other sessions go on meanwhile."""
        while self._waiting:
            group, self._waiting = self._waiting, []
            mails = [(raw, "smtp", sender) for raw, sender, _ in group]
            try:
                results = await asyncio.to_thread(store_many, self.engine, mails)
            except Exception as exc:
                for _, _, stored in group:
                    if not stored.done():
                        stored.set_exception(exc)
                continue
            for (_, _, stored), result in zip(group, results, strict=True):
                # a client gone meanwhile: its mail is stored all the same,
                # and its retry will find the copy
                if not stored.done():
                    stored.set_result(result)


def _server_hostname(config: Config) -> str:
    # Named explicitly: aiosmtpd's default asks the resolver for our FQDN,
    # which can stall for seconds on a machine without DNS.
    domain = config.address.rpartition("@")[2].strip()
    return domain or "localhost"


def start_listener(config: Config, engine: Engine,
                   on_stored: OnStored | None = None) -> Controller:
    """Start the listener on config.smtp_host:smtp_port in a thread of its own;
    returns once it accepts connections. Stop it with ``.stop()``."""
    kwargs: dict[str, Any] = {
        "hostname": config.smtp_host,
        "port": config.smtp_port,
        "ready_timeout": 10.0,
        "server_hostname": _server_hostname(config),
        "data_size_limit": config.max_message_bytes,
        "enable_SMTPUTF8": True,
        "decode_data": False,
    }
    turns = Turns(config.max_mails_at_once, config.busy_wait_seconds)
    controller = _Controller(IntakeHandler(engine, on_stored), turns, **kwargs)
    try:
        controller.start()
    except OSError as exc:  # the keeper's mistake, not the judge's: say it in one line
        reason = os.strerror(exc.errno).lower() if exc.errno else str(exc)
        raise ListenError(f"cannot listen on {config.smtp_host}:{config.smtp_port}: "
                          f"{reason}") from None
    log.info("smtp intake: listening on %s:%d", config.smtp_host, config.smtp_port)
    return controller
