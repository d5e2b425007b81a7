"""The running judge: SMTP listener, IMAP poller (if configured), the web
view (judge.web, unless switched off), worker
processes that process stored mail (judge.workers), the deadline scheduler
with its worker processes (judge.deadline_workers) and the sender.

Intake only stores; the workers process. At start the workers take every
mail left 'new' by an earlier run, the sender takes back the mail this
judge was sending when it stopped (judge.instance), and the scheduler is rebuilt from the database.
"""

from __future__ import annotations

import logging
import sys
import threading
import time
from typing import Any

from sqlalchemy.engine import Engine

from judge.config import Config
from judge.db import open_database
from judge.deadline_workers import DeadlineWorkers
from judge.instance import InstanceLock
from judge.intake.imap import ImapPoller
from judge.intake.smtp import start_listener
from judge.scheduler import DeadlineScheduler
from judge.sender import Sender
from judge.workers import MailWorkers

log = logging.getLogger(__name__)

# In a burst of mail, rescheduling (which reads every running game) is done
# at most this often, and once the burst is over.
SYNC_SECONDS = 1.0
SWITCH_SECONDS = 0.0005


class Judge:
    def __init__(self, config: Config, engine: Engine | None = None) -> None:
        self.config = config
        self.engine = engine or open_database(config.database_url)
        self.sender = Sender(config, self.engine)
        self.deadline_workers = DeadlineWorkers(config, config.deadline_worker_count)
        self.scheduler = DeadlineScheduler(self.engine, config, after_work=self.sender.wake,
                                           work=self.deadline_workers.work,
                                           warm=self.deadline_workers.prepare)
        self.poller = ImapPoller(config.imap, self.engine,
                                 max_message_bytes=config.max_message_bytes) \
            if config.imap else None
        self.workers = MailWorkers(config, self.engine, config.mail_worker_count, self._processed)
        self.listener: Any = None
        self.web: Any = None  # judge.web.server.WebServer, when the web view is on
        self.instance_lock = InstanceLock(config)
        self._sync_lock = threading.Lock()
        self._last_sync = 0.0

    @property
    def idle(self) -> threading.Event:
        """Set whenever no stored mail waits for a worker."""
        return self.workers.idle

    def start(self) -> None:
        self.config.data_dir.mkdir(parents=True, exist_ok=True)
        # first: the sender's recover() takes back this judge's claims, which
        # is only safe while no other judge runs under the same name
        self.instance_lock.acquire()
        # The listener's and the sender's threads hand the database's write
        # lock around. A thread that holds it and waits for the interpreter
        # lock keeps every writer waiting, up to the whole switch interval
        # (5 ms by default); a shorter one gives the lock back sooner.
        sys.setswitchinterval(SWITCH_SECONDS)
        self.sender.recover()
        self.sender.start()
        self.deadline_workers.start()
        self.scheduler.start()
        self.workers.start()
        self.listener = start_listener(self.config, self.engine, self._stored)
        if self.poller is not None:
            self.poller.start(self._stored)
        if self.config.web.enabled:
            from judge.web.server import WebServer  # Starlette and uvicorn only when served
            self.web = WebServer(self.config, self.engine, self.workers.submit)
            self.web.start()
        log.info("judge %s <%s> listening on %s:%d, database %s, %d mail worker(s), "
                 "%d deadline worker(s)", self.config.name, self.config.address,
                 self.config.smtp_host, self.config.smtp_port,
                 self.engine.url.render_as_string(hide_password=True), self.workers.count,
                 self.deadline_workers.count)

    def stop(self) -> None:
        if self.web is not None:
            self.web.stop()
        if self.listener is not None:
            self.listener.stop()
        if self.poller is not None:
            self.poller.stop()
        self.workers.stop()
        self.scheduler.stop()  # waits for the deadline work under way
        self.deadline_workers.stop()
        self.sender.stop()
        self.instance_lock.release()

    def _stored(self, inbound_id: int, new: bool) -> None:
        if new:
            self.workers.submit(inbound_id)

    def _processed(self, inbound_id: int, status: str) -> None:
        self.sender.wake()
        # A mail may have moved deadlines (SET DEADLINE, a new phase...).
        now = time.monotonic()
        with self._sync_lock:
            if not self.workers.idle.is_set() and now - self._last_sync < SYNC_SECONDS:
                return
            self._last_sync = now
        self.scheduler.sync()
