"""Mail processing in worker processes.

Why processes and not threads: processing a mail is Python from end to end
(reading the mail, the commands, the rules engine, the templates). In the
judge's own interpreter it would share one lock with the SMTP listener, the
scheduler and the sender, and the judge would use one core however many the
machine has. A worker process has an interpreter of its own.

The judge hands each stored mail's id to the workers and hears back when it
is done. A worker takes the mails waiting for it in batches, one
transaction each (see judge.processing.process_mails). The database stays
the only record: a mail is 'new' until the transaction that processed it
commits, so a worker that dies mid-mail loses nothing. A new worker takes
the dead one's place. If the dead one held one mail, that mail is set aside
as failed (its sender is told), so that a mail which kills its worker
cannot kill the next one too; if it held a batch, each mail of the batch
goes again in a transaction of its own, which finds the culprit.

Mails to one game never run at the same time: the processing transaction
locks the game's row on PostgreSQL, and holds SQLite's write lock (see
judge.db.transaction). More than one worker helps on PostgreSQL, where mails
to different games then go in parallel.
"""

from __future__ import annotations

import logging
import multiprocessing
import queue
import signal
import threading
from collections.abc import Callable
from multiprocessing.process import BaseProcess
from typing import Any

from sqlalchemy.engine import Engine

from judge.config import Config
from judge.db import make_engine
from judge.intake.store import pending_ids
from judge.processing import fail_mail, process_mails

log = logging.getLogger(__name__)

PICKUP_SECONDS = 2.0  # how often to look for mail stored by `judge deliver`
IDLE = 0  # a worker's 'busy with' value when it holds no mail
# Mails processed in one transaction, at most. A batch forms only when mail
# waits (a burst): then one commit serves many. Larger batches hold SQLite's
# write lock longer, which the listener and the sender wait for.
BATCH = 8

OnDone = Callable[[int, str], None]


def _work(config: Config, inbox: Any, done: Any, busy_with: Any, log_level: int) -> None:
    """A worker process: process the mails whose ids come in, a batch at a
    time: the first that comes, and whatever else is waiting behind it."""
    # Ctrl-C in a terminal reaches every process of the group; the judge
    # itself stops its workers, each after the mails it is on.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    logging.basicConfig(level=log_level,
                        format="%(asctime)s %(processName)s %(name)s: %(message)s")
    engine = make_engine(config.database_url)  # the judge has migrated it already
    try:
        stop = False
        while not stop:
            batch, stop, alone = _take(inbox)
            for ids in ([batch] if batch else []) + [[i] for i in alone]:
                _hold(busy_with, ids)
                try:
                    statuses = process_mails(engine, config, ids)
                except Exception:  # process_mails sets aside what fails; a last guard
                    log.exception("mails %s: processing failed", ids)
                    statuses = {i: "failed" for i in ids}
                _hold(busy_with, [])
                for inbound_id in ids:
                    done.put((inbound_id, statuses.get(inbound_id, "failed")))
    finally:
        engine.dispose()


def _take(inbox: Any) -> tuple[list[int], bool, list[int]]:
    """The next mails to process: (a batch, whether the judge said stop,
    mails to process each on its own). Waits for the first."""
    batch: list[int] = []
    alone: list[int] = []
    item = inbox.get()
    while item is not None:
        inbound_id, by_itself = item
        (alone if by_itself else batch).append(inbound_id)
        if len(batch) + len(alone) >= BATCH:
            return batch, False, alone
        try:
            item = inbox.get_nowait()
        except queue.Empty:
            return batch, False, alone
    return batch, True, alone


def _hold(busy_with: Any, ids: list[int]) -> None:
    """Say which mails this worker holds, for the judge to see if it dies."""
    for slot in range(BATCH):
        busy_with[slot] = ids[slot] if slot < len(ids) else IDLE


class MailWorkers:
    """``count`` worker processes and the thread in the judge that feeds
    them, hears what they finished, and replaces any that die."""

    def __init__(self, config: Config, engine: Engine, count: int, on_done: OnDone) -> None:
        self.config = config
        self.engine = engine
        self.count = max(1, count)
        self.on_done = on_done
        # spawn: the judge already runs threads, which a fork would copy half-way
        self._context = multiprocessing.get_context("spawn")
        self._inbox: Any = self._context.Queue()
        self._done: Any = self._context.Queue()
        self._processes: list[tuple[BaseProcess, Any]] = []
        self._outstanding: set[int] = set()
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        self.idle = threading.Event()  # set whenever no mail is handed out
        self.idle.set()

    def start(self) -> None:
        for _ in range(self.count):
            self._processes.append(self._spawn())
        self._thread = threading.Thread(target=self._listen, name="mail-workers", daemon=True)
        self._thread.start()
        self.submit_pending()  # left over from the last run

    def _spawn(self) -> tuple[BaseProcess, Any]:
        busy_with = self._context.Array("q", BATCH)
        process = self._context.Process(
            target=_work, name="mail-worker", daemon=True,
            args=(self.config, self._inbox, self._done, busy_with,
                  logging.getLogger().getEffectiveLevel()))
        process.start()
        return process, busy_with

    def submit(self, inbound_id: int, alone: bool = False) -> None:
        """Have a worker process this mail (once, however often it is asked);
        ``alone``: in a transaction of its own, not in a batch."""
        with self._lock:
            if inbound_id in self._outstanding:
                return
            self._outstanding.add(inbound_id)
            self.idle.clear()
        self._inbox.put((inbound_id, alone))

    def submit_pending(self) -> None:
        for inbound_id in pending_ids(self.engine):
            self.submit(inbound_id)

    def stop(self, timeout: float = 60.0) -> None:
        """Let each worker finish the mails it is on, then end it."""
        self._stopping.set()
        for _ in self._processes:
            self._inbox.put(None)
        for process, _busy in self._processes:
            process.join(timeout)
            if process.is_alive():
                log.error("a mail worker did not stop in %.0f s; terminated", timeout)
                process.terminate()
                process.join(5)
        if self._thread is not None:
            self._thread.join(timeout)
        self._inbox.close()
        self._done.close()

    # -- the judge's side ------------------------------------------------------

    def _listen(self) -> None:
        while not self._stopping.is_set():
            try:
                inbound_id, status = self._done.get(timeout=PICKUP_SECONDS)
            except queue.Empty:
                self._look_after()
                continue
            except (EOFError, OSError):
                return  # the queue closed: the judge is stopping
            with self._lock:
                self._outstanding.discard(inbound_id)
                if not self._outstanding:
                    self.idle.set()
            try:
                self.on_done(inbound_id, status)
            except Exception:
                log.exception("mail %d: after-processing step failed", inbound_id)

    def _look_after(self) -> None:
        """Every quiet moment: replace dead workers, and take mail that
        `judge deliver` stored from an MTA's pipe."""
        try:
            self._replace_dead()
            self.submit_pending()
        except Exception:  # the database may be away for a while
            log.exception("mail workers: looking for mail failed; trying again shortly")

    def _replace_dead(self) -> None:
        died = False
        suspects: set[int] = set()
        for index, (process, busy_with) in enumerate(self._processes):
            if process.is_alive() or self._stopping.is_set():
                continue
            died = True
            held = [i for i in busy_with[:] if i != IDLE]
            log.error("a mail worker died (exit code %s) while on mail %s; starting another",
                      process.exitcode, ", ".join(map(str, held)) or "none")
            self._processes[index] = self._spawn()
            if len(held) == 1:
                # alone, it is the one that killed the worker
                status = fail_mail(self.engine, self.config, held[0])
                with self._lock:
                    self._outstanding.discard(held[0])
                self.on_done(held[0], status)
            else:
                # one of a batch did: each goes again on its own, to find which
                suspects.update(held)
        if not died:
            return
        with self._lock:
            # an id the dead worker had taken from the queue, but not yet
            # marked as held, would wait for ever: hand every id out again
            # (a mail already done is skipped when it comes round)
            again = set(self._outstanding)
            self._outstanding.clear()
            if not again:
                self.idle.set()
        for inbound_id in sorted(again):
            self.submit(inbound_id, alone=inbound_id in suspects)
