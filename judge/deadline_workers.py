"""Deadline work in worker processes.

Why processes: a deadline's work is Python from end to end (adjudicating,
the templates, and drawing the maps, most of it). In the judge's own
interpreter the scheduler's job threads share one lock, and 500 games due
at one moment keep one core busy however many the machine has. Each worker
process has an interpreter of its own.

The scheduler's job thread hands the game's id (and its clock's time) to a
free worker and waits for the answer: the number of mails queued. The
worker does what the thread would have done (judge.scheduler.work_on): the
game's due work in one transaction, or its failure noted. The database
stays the only record: a worker that dies mid-game has committed nothing
(no next phase, no mail queued), so nothing is lost and nothing goes out
twice. Another worker takes its place and the game is tried once more; a
game whose work kills a second worker too is a failing deadline
(judge.deadline_failure: tried again later, its GM told), so that it cannot
kill workers for ever.

Drawing ahead: on SQLite one transaction writes at a time, and a deadline's
transaction holds that lock from its start; drawing the maps inside it
would make the workers take turns. So a worker first looks at the game
without the write lock and, if its phase is to be processed now,
adjudicates it and draws its maps (judge.maps.draw_ahead). The transaction
then adjudicates again (a few milliseconds) and takes those maps if its
scene is the same; were a mail to change the orders in between, it would
draw its own.

The workers start when a deadline is near (the scheduler calls
:meth:`DeadlineWorkers.prepare` when it places a job less than a minute
ahead), or at the latest when work comes, and a worker idle for
IDLE_SECONDS ends: a judge whose games are days from their deadlines does
not keep a process per core, with the maps' libraries in each, waiting.

Each worker talks to the judge over a pipe of its own, as the mail workers
do (judge.workers): no multiprocessing Queue or Lock, whose named
semaphores a killed judge would leave behind; a worker ends when the judge
does.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import signal
import threading
import time
from dataclasses import dataclass, field
from datetime import datetime
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess

from sqlalchemy.engine import Engine
from sqlmodel import Session

from judge import adjudicating, deadline_failure, games, maps, turns
from judge.config import Config
from judge.db import make_engine
from judge.maps.scene import scene_after
from judge.models import Game
from judge.scheduler import StopWork, work_on
from judge.workers import start_worker

log = logging.getLogger(__name__)

TRIES = 2  # workers a game's work may kill before it counts as a failing deadline
IDLE_SECONDS = 300.0  # a worker without work this long ends; the next deadline starts it again


class WorkerDied(Exception):
    """The game's deadline work killed the worker processes it was given to."""


def _work(config: Config, conn: Connection, judge_pid: int, log_level: int) -> None:
    """A worker process: each game id that comes in, its due work done;
    the number of mails queued goes back."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the judge stops its workers itself
    logging.basicConfig(level=log_level,
                        format="%(asctime)s %(processName)s %(name)s: %(message)s")
    engine = make_engine(config.database_url)  # the judge has migrated it already
    ahead = engine.dialect.name == "sqlite"  # where the write lock is the whole database's
    try:
        while (request := conn.recv()) is not None:
            game_id, now = request
            if ahead:
                draw_ahead(engine, game_id, now)
            conn.send(work_on(engine, config, game_id, now))
    except (EOFError, OSError):
        pass  # the judge is gone
    finally:
        engine.dispose()


def draw_ahead(engine: Engine, game_id: int, now: datetime) -> None:
    """If the game's phase is to be processed at ``now``, adjudicate it and
    draw its maps, in a read-only look that takes no write lock. Only a
    head start: whatever fails here is met again, and dealt with, in the
    transaction."""
    try:
        with Session(engine) as session:
            game = session.get(Game, game_id)
            if (game is None or deadline_failure.waiting(game, now)
                    or not turns.processes_now(session, game, now)):
                return
            adjudication = adjudicating.adjudicate_phase(session, game)
            game_map, name = games.map_of(game), game.name
        maps.draw_ahead(game_map, scene_after(name, adjudication.resolution))
    except Exception:
        log.debug("game %d: drawing its maps ahead failed", game_id, exc_info=True)


@dataclass
class _Worker:
    process: BaseProcess
    conn: Connection  # the judge's end of its pipe
    idle_since: float = field(default_factory=time.monotonic)


class DeadlineWorkers:
    """Up to ``count`` worker processes that the scheduler's job threads
    hand games to, each game to a free one (:meth:`work`)."""

    def __init__(self, config: Config, count: int) -> None:
        self.config = config
        self.count = max(1, count)
        # spawn: the judge already runs threads, which a fork would copy half-way
        self._context = multiprocessing.get_context("spawn")
        self._free: list[_Worker] = []
        self._busy: list[_Worker] = []
        self._turn = threading.Condition()  # the two lists above, and stopping
        self._stopping = threading.Event()
        self._retiring: threading.Thread | None = None

    def start(self) -> None:
        """Get ready to start workers (none starts before it is needed)."""
        self._stopping.clear()
        self._retiring = threading.Thread(target=self._retire_idle, name="deadline-workers",
                                          daemon=True)
        self._retiring.start()

    def prepare(self) -> None:
        """Have every worker started, ready for a deadline that is near."""
        with self._turn:
            while (not self._stopping.is_set()
                   and len(self._free) + len(self._busy) < self.count):
                self._free.append(self._spawn())

    def _spawn(self) -> _Worker:
        return _Worker(*start_worker(self._context, _work, "deadline-worker", self.config))

    def pids(self) -> list[int]:
        """The worker processes' ids, for the keeper's tools and the tests."""
        with self._turn:
            return [w.process.pid or 0 for w in self._free + self._busy]

    def work(self, game_id: int, now: datetime) -> int | None:
        """The game's due work, done by a worker (this thread waits for it);
        what judge.scheduler.work_on says. WorkerDied if it killed TRIES
        workers, StopWork if the judge is stopping."""
        for _ in range(TRIES):
            worker = self._take()
            try:
                worker.conn.send((game_id, now))
                queued = worker.conn.recv()
            except (EOFError, OSError):
                self._lost(worker, game_id)
                continue
            self._give_back(worker)
            return None if queued is None else int(queued)
        raise WorkerDied(f"the deadline worker processes died while on it {TRIES} times")

    def _take(self) -> _Worker:
        """A free worker, started if none is and there is room for one."""
        with self._turn:
            while True:
                if self._stopping.is_set():
                    raise StopWork
                while self._free and not self._free[-1].process.is_alive():
                    gone = self._free.pop()  # killed while it waited
                    log.warning("a deadline worker had ended (exit code %s) while idle",
                                gone.process.exitcode)
                    gone.conn.close()
                if self._free:
                    worker = self._free.pop()
                    break
                if len(self._busy) < self.count:
                    worker = self._spawn()
                    break
                self._turn.wait()
            self._busy.append(worker)
            return worker

    def _give_back(self, worker: _Worker) -> None:
        with self._turn:
            self._busy.remove(worker)
            worker.idle_since = time.monotonic()
            self._free.append(worker)
            self._turn.notify_all()

    def _lost(self, dead: _Worker, game_id: int) -> None:
        """A worker died on a game: its place is free for another."""
        dead.process.join(5)
        dead.conn.close()
        log.error("a deadline worker died (exit code %s) while on game %d",
                  dead.process.exitcode, game_id)
        with self._turn:
            self._busy.remove(dead)
            self._turn.notify_all()

    def _retire_idle(self) -> None:
        while not self._stopping.wait(IDLE_SECONDS / 4):
            with self._turn:
                idle = [w for w in self._free
                        if time.monotonic() - w.idle_since >= IDLE_SECONDS]
                for worker in idle:
                    self._free.remove(worker)
            for worker in idle:
                _end(worker, 60.0)

    def stop(self, timeout: float = 60.0) -> None:
        """End every worker, each after the game it is on (the judge stops
        the scheduler first, which waits for those)."""
        with self._turn:
            self._stopping.set()
            self._turn.notify_all()  # threads waiting for a worker give up
            self._turn.wait_for(lambda: not self._busy, timeout)
            workers = self._free + self._busy
            self._free = []
        if self._retiring is not None:
            self._retiring.join(timeout)
        for worker in workers:
            _end(worker, timeout)


def _end(worker: _Worker, timeout: float) -> None:
    """Tell a worker to end, and wait for it."""
    with contextlib.suppress(OSError):  # dead already
        worker.conn.send(None)
    worker.process.join(timeout)
    if worker.process.is_alive():
        log.error("a deadline worker did not stop in %.0f s; terminated", timeout)
        worker.process.terminate()
        worker.process.join(5)
    worker.conn.close()
