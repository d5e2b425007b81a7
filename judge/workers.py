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

Each worker talks to the judge over a pipe of its own (multiprocessing
Pipe): no multiprocessing Queue, Lock or shared Array, which are named
POSIX semaphores in /dev/shm that a killed judge would leave behind. A
worker ends when the judge does, however the judge ends: it sees its pipe
close, or (while busy) its parent change.

Mails to one game never run at the same time: the processing transaction
locks the game's row on PostgreSQL, and holds SQLite's write lock (see
judge.db.transaction). More than one worker helps on PostgreSQL, where mails
to different games then go in parallel.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import os
import pickle
import signal
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from multiprocessing.context import SpawnContext
from multiprocessing.process import BaseProcess

from sqlalchemy.engine import Engine

from judge.config import Config
from judge.db import make_engine
from judge.intake.store import pending_ids
from judge.processing import fail_mail, process_mails
from judge.worker_start import run

log = logging.getLogger(__name__)

PICKUP_SECONDS = 2.0  # how often to look for mail stored by `judge deliver`
# Mails processed in one transaction, at most. A batch forms only when mail
# waits (a burst): then one commit serves many. Larger batches hold SQLite's
# write lock longer, which the listener and the sender wait for.
BATCH = 8
# Mails handed to one worker and not yet done, at most: enough for a full
# batch to wait behind the one it is on, few enough that an idle worker is
# not left without work while a busy one holds it, and that the pipe never
# fills (a full pipe would block the judge's thread that writes to it).
WINDOW = 2 * BATCH

OnDone = Callable[[int, str], None]
# judge -> worker: (mail id, alone) or None for "stop";
# worker -> judge: ("holding", [ids]) before a transaction, ("done", id, status) after


def _work(config: Config, conn: Connection, judge_pid: int, log_level: int) -> None:
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
            batch, stop, alone = _take(conn)
            for ids in ([batch] if batch else []) + [[i] for i in alone]:
                conn.send(("holding", ids))  # for the judge to see if this worker dies
                try:
                    statuses = process_mails(engine, config, ids)
                except Exception:  # process_mails sets aside what fails; a last guard
                    log.exception("mails %s: processing failed", ids)
                    statuses = {i: "failed" for i in ids}
                for inbound_id in ids:
                    conn.send(("done", inbound_id, statuses.get(inbound_id, "failed")))
    except (EOFError, OSError):
        pass  # the judge is gone: its mails stay 'new' for the next judge
    finally:
        engine.dispose()


def _take(conn: Connection) -> tuple[list[int], bool, list[int]]:
    """The next mails to process: (a batch, whether the judge said stop,
    mails to process each on its own). Waits for the first; EOFError when
    the judge is gone."""
    batch: list[int] = []
    alone: list[int] = []
    item = conn.recv()
    while item is not None:
        inbound_id, by_itself = item
        (alone if by_itself else batch).append(inbound_id)
        if len(batch) + len(alone) >= BATCH or not conn.poll(0):
            return batch, False, alone
        item = conn.recv()
    return batch, True, alone


def start_worker(context: SpawnContext, target: Callable[..., None], name: str,
                 config: Config) -> tuple[BaseProcess, Connection]:
    """A worker process running ``target(config, its pipe end, the judge's
    pid, the log level)``, and the judge's end of its pipe. The process
    watches for the judge's end before it imports ``target``'s module (see
    judge.worker_start)."""
    mine, theirs = context.Pipe()
    process = context.Process(
        target=run, name=name, daemon=True,
        args=(f"{target.__module__}.{target.__qualname__}", pickle.dumps(config), theirs,
              os.getpid(), logging.getLogger().getEffectiveLevel()))
    process.start()
    theirs.close()  # the worker's end is the worker's: its death closes the pipe
    return process, mine


@dataclass
class _Worker:
    """A worker process as the judge sees it."""

    process: BaseProcess
    conn: Connection  # the judge's end of its pipe
    handed: dict[int, bool] = field(default_factory=dict)  # id -> alone, not done yet
    holding: list[int] = field(default_factory=list)  # the transaction it is in


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
        self._workers: list[_Worker] = []
        self._waiting: dict[int, bool] = {}  # submitted, not yet handed to a worker
        self._outstanding: set[int] = set()
        self._lock = threading.Lock()  # the three above, and writing to the pipes
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        self.idle = threading.Event()  # set whenever no mail is handed out
        self.idle.set()

    def start(self) -> None:
        with self._lock:
            self._workers = [self._spawn() for _ in range(self.count)]
            self._hand_out()
        self._thread = threading.Thread(target=self._listen, name="mail-workers", daemon=True)
        self._thread.start()
        self.submit_pending()  # left over from the last run

    def _spawn(self) -> _Worker:
        return _Worker(*start_worker(self._context, _work, "mail-worker", self.config))

    def submit(self, inbound_id: int, alone: bool = False) -> None:
        """Have a worker process this mail (once, however often it is asked);
        ``alone``: in a transaction of its own, not in a batch."""
        with self._lock:
            if inbound_id in self._outstanding:
                return
            self._outstanding.add(inbound_id)
            self.idle.clear()
            self._waiting[inbound_id] = alone
            self._hand_out()

    def _hand_out(self) -> None:
        """Give waiting mails to the least busy live workers (lock held)."""
        while self._waiting and not self._stopping.is_set():
            live = [w for w in self._workers if len(w.handed) < WINDOW]
            if not live:
                return
            worker = min(live, key=lambda w: len(w.handed))
            inbound_id, alone = next(iter(self._waiting.items()))
            try:
                worker.conn.send((inbound_id, alone))
            except OSError:
                return  # a dead worker: the listener replaces it and hands out again
            del self._waiting[inbound_id]
            worker.handed[inbound_id] = alone

    def submit_pending(self) -> None:
        for inbound_id in pending_ids(self.engine):
            self.submit(inbound_id)

    def stop(self, timeout: float = 60.0) -> None:
        """Let each worker finish the mails it is on, then end it."""
        self._stopping.set()
        with self._lock:
            for worker in self._workers:
                with contextlib.suppress(OSError):  # dead already
                    worker.conn.send(None)
        for worker in self._workers:
            worker.process.join(timeout)
            if worker.process.is_alive():
                log.error("a mail worker did not stop in %.0f s; terminated", timeout)
                worker.process.terminate()
                worker.process.join(5)
        if self._thread is not None:
            self._thread.join(timeout)
        for worker in self._workers:
            worker.conn.close()

    # -- the judge's side ------------------------------------------------------

    def _listen(self) -> None:
        while not self._stopping.is_set():
            workers = list(self._workers)
            ready = wait([w.conn for w in workers] + [w.process.sentinel for w in workers],
                         timeout=PICKUP_SECONDS)
            if not ready:
                self._look_after()
                continue
            for worker in workers:
                dead = not self._read(worker) or worker.process.sentinel in ready
                if dead and not self._stopping.is_set():
                    self._replace(worker)

    def _read(self, worker: _Worker) -> bool:
        """Take in what the worker said; False when its pipe closed."""
        try:
            while worker.conn.poll():
                message = worker.conn.recv()
                if message[0] == "holding":
                    worker.holding = message[1]
                else:
                    self._finished(worker, message[1], message[2])
        except (EOFError, OSError):
            return False
        return True

    def _finished(self, worker: _Worker, inbound_id: int, status: str) -> None:
        with self._lock:
            worker.handed.pop(inbound_id, None)
            if inbound_id in worker.holding:
                worker.holding.remove(inbound_id)
            self._outstanding.discard(inbound_id)
            if not self._outstanding:
                self.idle.set()
            self._hand_out()
        try:
            self.on_done(inbound_id, status)
        except Exception:
            log.exception("mail %d: after-processing step failed", inbound_id)

    def _look_after(self) -> None:
        """Every quiet moment: take mail that `judge deliver` stored from an
        MTA's pipe."""
        try:
            self.submit_pending()
        except Exception:  # the database may be away for a while
            log.exception("mail workers: looking for mail failed; trying again shortly")

    def _replace(self, dead: _Worker) -> None:
        dead.process.join(5)
        held = list(dead.holding)
        log.error("a mail worker died (exit code %s) while on mail %s; starting another",
                  dead.process.exitcode, ", ".join(map(str, held)) or "none")
        dead.conn.close()
        with self._lock:
            if self._stopping.is_set():
                return  # stop() is ending the workers; its mails stay 'new'
            self._workers[self._workers.index(dead)] = self._spawn()
            # what it had been handed goes out again (a mail already done
            # is skipped when it comes round)
            again = dict(dead.handed)
            for inbound_id in again:
                self._outstanding.discard(inbound_id)
        if len(held) == 1:
            # alone, it is the one that killed the worker
            del again[held[0]]
            try:
                status = fail_mail(self.engine, self.config, held[0])
            except Exception:  # the database may be away; the mail stays 'new'
                log.exception("mail %d: could not be set aside", held[0])
                status = "new"
            self._after(held[0], status)
        for inbound_id, alone in again.items():
            # one of a batch did: each goes again on its own, to find which
            self.submit(inbound_id, alone=alone or inbound_id in held)
        with self._lock:
            if not self._outstanding:
                self.idle.set()

    def _after(self, inbound_id: int, status: str) -> None:
        with self._lock:
            if not self._outstanding:
                self.idle.set()
        try:
            self.on_done(inbound_id, status)
        except Exception:
            log.exception("mail %d: after-processing step failed", inbound_id)
