"""Deadlines, with APScheduler.

The database is the source of truth: ``sync()`` (at start, and after every
mail that may have moved a deadline) gives each running game one job at
its next moment (a reminder, the deadline, or the end of its grace
period). A moment that passed while the judge was down is simply due now,
so it is processed at start. A sweep every minute catches anything a job
missed.

A deadline whose processing fails is not tried again after every mail: the
game's row says when its next attempt is due, and its moment waits until
then (judge.deadline_failure), in the sweep and after each mail alike.

Each job claims its game's row before working on it: on PostgreSQL with
``SELECT ... FOR UPDATE SKIP LOCKED``, so two judges sharing a database
never process the same phase twice; the second finds the row taken, or
the phase already moved on.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from datetime import datetime, timedelta
from functools import partial

from apscheduler.schedulers.background import BackgroundScheduler
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from judge import deadline_failure, games, turns
from judge.config import Config
from judge.db import transaction
from judge.models import Game, as_utc, utcnow
from judge.outbox import queue
from judge.retention import forget_old_mail

log = logging.getLogger(__name__)

# a game's due work at a moment: the number of mails it queued; None when it
# failed and the failure could not be noted (or the game is gone)
Work = Callable[[int, datetime], int | None]
WARM_AHEAD = timedelta(minutes=1)  # how long before a job the scheduler gets ready for it


class StopWork(Exception):
    """The deadline work was not done because the judge is stopping."""


def next_moment(game: Game) -> datetime | None:
    """When a running game next needs the judge's attention: its next
    reminder, deadline or end of grace, or, while its deadline fails, the
    next attempt if that is later."""
    if game.status != "active" or game.deadline is None:
        return None
    moment = _next_event(game)
    held = deadline_failure.held_until(game)
    return max(moment, held) if held is not None else moment


def _next_event(game: Game) -> datetime:
    assert game.deadline is not None
    deadline = as_utc(game.deadline)
    if game.grace_until is not None:
        return as_utc(game.grace_until)
    reminder = deadline - games.settings_of(game).reminder
    if game.reminded != game.phase and reminder < deadline:
        return min(reminder, deadline)
    return deadline


def attend(engine: Engine, config: Config, game_id: int,
           now: datetime | None = None) -> int:
    """Do whatever is due for one game; the number of mails queued."""
    now = now or utcnow()
    with transaction(engine) as session:
        game = _claim(session, game_id)
        if game is None or deadline_failure.waiting(game, now):
            return 0
        mails = []
        if game.status == "active" and game.deadline is not None:
            deadline = as_utc(game.deadline)
            settings = games.settings_of(game)
            if game.reminded != game.phase and deadline - settings.reminder <= now < deadline:
                mails.extend(turns.reminders(session, game, config))
                game.reminded = game.phase
                session.add(game)
            mails.extend(turns.due(session, game, config, now))
        if deadline_failure.failing(game):  # this attempt worked
            log.info("deadline work for game %s works again after %d failed attempts",
                     game.name, game.failed_attempts)
            deadline_failure.clear(game)
            session.add(game)
        for mail in mails:
            queue(session, mail, config)
        return len(mails)


def note_failure(engine: Engine, config: Config, game_id: int, error: BaseException,
                 now: datetime | None = None) -> Game | None:
    """Record a failed attempt at a game's deadline work, and queue the
    GM's (and keeper's) notice if it is the first of a run, in one
    transaction; the game's row as it is now (None if it is gone)."""
    now = now or utcnow()
    with transaction(engine) as session:
        game = session.exec(select(Game).where(Game.id == game_id).with_for_update()).first()
        if game is None:
            return None
        for mail in deadline_failure.record(game, config, error, now):
            queue(session, mail, config)
        session.add(game)
        return game


def work_on(engine: Engine, config: Config, game_id: int, now: datetime) -> int | None:
    """A game's due work (:func:`attend`), or, when it fails, the failure
    noted; the number of mails queued (None: see :func:`failed`)."""
    try:
        return attend(engine, config, game_id, now)
    except Exception as error:
        return failed(engine, config, game_id, error, now)


def failed(engine: Engine, config: Config, game_id: int, error: BaseException,
           now: datetime) -> int | None:
    """Note a failed attempt and log it: the traceback at the first of a
    run, a line at each later one. The mails queued (the notices of a
    first failure); None if the game is gone or the failure could not be
    noted either: then its job is not placed again, and the next sweep
    tries it (placed now, it would fail again at once, and again)."""
    try:
        game = note_failure(engine, config, game_id, error, now)
    except Exception:
        log.exception("deadline work for game %d failed (%s), and noting that failed "
                      "too; tried again at the next sweep", game_id,
                      deadline_failure.describe(error))
        return None
    if game is None:
        return None
    first = game.failed_attempts == 1
    log.error("deadline work for game %s (%s) failed%s: %s; next attempt at %s%s",
              game.name, game.phase,
              "" if first else f" again (attempt {game.failed_attempts})",
              game.failure, game.retry_at and as_utc(game.retry_at).isoformat(),
              "; the GM is told" if first else "", exc_info=error if first else None)
    return 1 if first else 0


def _claim(session: Session, game_id: int) -> Game | None:
    query = select(Game).where(Game.id == game_id)
    if session.get_bind().dialect.name == "postgresql":
        query = query.with_for_update(skip_locked=True)
    return session.exec(query).first()


def due_games(engine: Engine) -> list[tuple[int, datetime]]:
    """Each running game and its next moment. A read: no write lock, so
    that placing jobs never waits for the deadline workers' transactions."""
    with Session(engine) as session:
        running = session.exec(select(Game).where(Game.status == "active",
                                                  col(Game.deadline).is_not(None))).all()
        out = []
        for game in running:
            moment = next_moment(game)
            if moment is not None and game.id is not None:
                out.append((game.id, moment))
        return out


class DeadlineScheduler:
    def __init__(self, engine: Engine, config: Config,
                 after_work: Callable[[], None] | None = None,
                 clock: Callable[[], datetime] = utcnow,
                 work: Work | None = None, warm: Callable[[], None] | None = None) -> None:
        self.engine = engine
        self.config = config
        self.after_work = after_work  # e.g. wake the sender
        self.clock = clock  # the time jobs are placed and run at (a test's own)
        # a game's due work, with its failure noted: in the job's own thread,
        # or handed to a worker process (judge.deadline_workers)
        self.work: Work = work or partial(work_on, engine, config)
        self.warm = warm  # called when a job is placed less than WARM_AHEAD ahead
        self.scheduler = BackgroundScheduler(timezone="UTC", job_defaults={
            "coalesce": True, "max_instances": 1, "misfire_grace_time": None})
        # APScheduler's shutdown holds its job-store lock while it waits for
        # running jobs; a job that adds jobs then would wait for ever. So no
        # sync may run once stopping starts, and stop waits for one under way.
        self._sync_lock = threading.Lock()
        self._stopping = False

    def start(self) -> None:
        self.scheduler.start()
        self.sync()
        self.scheduler.add_job(self.sync, "interval", seconds=60, id="sweep",
                               replace_existing=True)
        # processed mail is kept [limits] keep_mail_days, then its text deleted
        self.scheduler.add_job(self._forget, "interval", hours=1, id="retention",
                               next_run_time=utcnow(), replace_existing=True)

    def stop(self) -> None:
        with self._sync_lock:
            self._stopping = True
        self.scheduler.shutdown(wait=True)

    def sync(self) -> None:
        """One job per running game, at its next moment (now if it passed)."""
        with self._sync_lock:
            if self._stopping:
                return
            wanted = set()
            for game_id, moment in due_games(self.engine):
                wanted.add(self._place(game_id, moment))
            for job in self.scheduler.get_jobs():
                if job.id.startswith("game-") and job.id not in wanted:
                    job.remove()

    def schedule(self, game_id: int) -> None:
        """(Re)schedule one game's job from its row, or drop it."""
        with self._sync_lock:
            if self._stopping:
                return
            with Session(self.engine) as session:  # a read, as due_games
                game = session.get(Game, game_id)
                moment = next_moment(game) if game is not None else None
            if moment is not None:
                self._place(game_id, moment)
            elif self.scheduler.get_job(f"game-{game_id}") is not None:
                self.scheduler.remove_job(f"game-{game_id}")

    def _place(self, game_id: int, moment: datetime) -> str:
        """The game's one job, at ``moment`` (now if it passed); its id."""
        job_id = f"game-{game_id}"
        now = self.clock()
        if self.warm is not None and moment <= now + WARM_AHEAD:
            self.warm()  # e.g. start the deadline workers, for the work to come
        self.scheduler.add_job(self._run, "date", run_date=max(moment, now),
                               args=[game_id], id=job_id, replace_existing=True)
        return job_id

    def _forget(self) -> None:
        try:
            forget_old_mail(self.engine, self.config.limits.keep_mail_days)
        except Exception:
            log.exception("deleting old mail failed; tried again in an hour")

    def _run(self, game_id: int) -> None:
        now = self.clock()
        try:
            queued = self.work(game_id, now)
        except StopWork:
            return  # the judge is stopping: the game waits for its next start
        except Exception as error:  # the work itself failed where work_on could not note it
            queued = failed(self.engine, self.config, game_id, error, now)
        if queued is None:
            return  # gone, or the failure not even noted: the next sweep tries again
        if queued and self.after_work:
            self.after_work()
        self.schedule(game_id)  # only this game moved on (or waits)
