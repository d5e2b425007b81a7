"""The running judge: SMTP listener, IMAP poller (if configured), a worker
that processes stored mail, the deadline scheduler and the sender.

Intake only stores; the worker processes. At start the worker takes every
mail left 'new' by an earlier run, the sender sets aside mail a crash left
half-sent, and the scheduler is rebuilt from the database.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from typing import Any

from sqlalchemy.engine import Engine

from judge.config import Config
from judge.db import open_database
from judge.intake.imap import ImapPoller
from judge.intake.smtp import start_listener
from judge.intake.store import pending_ids
from judge.processing import process_mail
from judge.scheduler import DeadlineScheduler
from judge.sender import Sender

log = logging.getLogger(__name__)

PICKUP_SECONDS = 2.0  # how often the worker looks for mail stored by `judge deliver`


class Judge:
    def __init__(self, config: Config, engine: Engine | None = None) -> None:
        self.config = config
        self.engine = engine or open_database(config.database_url)
        self.sender = Sender(config, self.engine)
        self.scheduler = DeadlineScheduler(self.engine, config, after_work=self.sender.wake)
        self.poller = ImapPoller(config.imap, self.engine,
                                 max_message_bytes=config.max_message_bytes) \
            if config.imap else None
        self.listener: Any = None
        self._inbox: queue.Queue[int | None] = queue.Queue()
        self._worker: threading.Thread | None = None
        self.idle = threading.Event()  # set whenever the worker has nothing to do
        self._last_sync = 0.0

    def start(self) -> None:
        self.config.data_dir.mkdir(parents=True, exist_ok=True)
        self.sender.recover()
        self.sender.start()
        self.scheduler.start()
        self._worker = threading.Thread(target=self._work, name="mail-worker", daemon=True)
        self._worker.start()
        for inbound_id in pending_ids(self.engine):  # left over from the last run
            self._inbox.put(inbound_id)
        self.listener = start_listener(self.config, self.engine, self._stored)
        if self.poller is not None:
            self.poller.start(self._stored)
        log.info("judge %s <%s> listening on %s:%d, database %s", self.config.name,
                 self.config.address, self.config.smtp_host, self.config.smtp_port,
                 self.engine.url.render_as_string(hide_password=True))

    def stop(self) -> None:
        if self.listener is not None:
            self.listener.stop()
        if self.poller is not None:
            self.poller.stop()
        self._inbox.put(None)
        if self._worker is not None:
            self._worker.join(timeout=60)
        self.scheduler.stop()
        self.sender.stop()

    def _stored(self, inbound_id: int, new: bool) -> None:
        if new:
            self.idle.clear()
            self._inbox.put(inbound_id)

    def _work(self) -> None:
        while True:
            if self._inbox.empty():
                self.idle.set()
            try:
                inbound_id = self._inbox.get(timeout=PICKUP_SECONDS)
            except queue.Empty:
                # mail stored by another process (`judge deliver` from an MTA pipe)
                for stored in pending_ids(self.engine):
                    self._inbox.put(stored)
                continue
            if inbound_id is None:
                return
            self.idle.clear()
            try:
                process_mail(self.engine, self.config, inbound_id)
            except Exception:  # process_mail records its own failures; this is a last guard
                log.exception("mail %d: processing failed", inbound_id)
            self.sender.wake()
            # A mail may have moved deadlines (SET DEADLINE, a new phase...).
            # Rescheduling reads every running game, so in a burst it is done
            # once the queue is empty or once a second, not after each mail.
            now = time.monotonic()
            if self._inbox.empty() or now - self._last_sync > 1.0:
                self.scheduler.sync()
                self._last_sync = now
