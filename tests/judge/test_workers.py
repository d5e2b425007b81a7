"""Mail worker processes: mail is processed in them; a worker killed in the
middle of a mail is replaced and that mail set aside with a reply (killed
in the middle of a batch, each mail of it goes again alone); mails that
lock the same games in a different order both get through."""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event, text
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from judge import games
from judge.config import Config
from judge.db import WRITES, transaction
from judge.intake.store import store_inbound
from judge.models import InboundMail, Outbox
from judge.passwords import hash_password
from judge.processing import process_mail
from judge.settings import GameSettings
from judge.workers import BATCH, MailWorkers, _take


def _config(db_url: str, tmp_path: Path) -> Config:
    return Config(address="judge@judge.test", data_dir=tmp_path, database_url_setting=db_url)


def _mail(n: int, body: str = "LIST") -> bytes:
    return (f"From: p{n}@players.test\r\nSubject: mail {n}\r\nMessage-ID: <m{n}@players.test>"
            f"\r\n\r\n{body}\r\n").encode()


def _wait(condition: Callable[[], bool], timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def _status(db: Engine, inbound_id: int) -> str:
    with Session(db) as session:
        row = session.get(InboundMail, inbound_id)
        assert row is not None
        return row.status


def _reply_bodies(db: Engine) -> list[bytes]:
    with Session(db) as session:
        return [row.raw for row in session.exec(select(Outbox)).all()]


@contextmanager
def _holding(db: Engine, inbound_id: int) -> Iterator[None]:
    """Hold what a worker must lock to process the mail: the mail's row on
    PostgreSQL, the database's write lock on SQLite."""
    # on SQLite a connection for writing takes the write lock as it begins
    with db.execution_options(**{WRITES: True}).connect() as conn:
        conn.execute(text("SELECT id FROM inbound_mail WHERE id = :i FOR UPDATE")
                     if db.dialect.name == "postgresql" else text("SELECT :i"),
                     {"i": inbound_id})
        try:
            yield
        finally:
            conn.rollback()


@pytest.mark.postgres
@pytest.mark.slow
def test_mail_is_processed_in_a_worker_process(db: Engine, db_url: str,
                                               tmp_path: Path) -> None:
    done: list[tuple[int, str]] = []
    workers = MailWorkers(_config(db_url, tmp_path), db, 2, lambda i, s: done.append((i, s)))
    workers.start()
    try:
        ids = [store_inbound(db, _mail(n), "smtp")[0] for n in range(6)]
        for inbound_id in ids:
            workers.submit(inbound_id)
        workers.submit(ids[0])  # asked twice, processed once
        _wait(lambda: len(done) == 6 and workers.idle.is_set())
        assert sorted(done) == [(i, "done") for i in ids]
        assert all(w.process.pid != os.getpid() for w in workers._workers)
    finally:
        workers.stop()
    assert len(_reply_bodies(db)) == 6


@pytest.mark.postgres
@pytest.mark.slow
def test_a_worker_killed_mid_mail_is_replaced_and_the_mail_set_aside(
        db: Engine, db_url: str, tmp_path: Path) -> None:
    done: list[tuple[int, str]] = []
    workers = MailWorkers(_config(db_url, tmp_path), db, 1, lambda i, s: done.append((i, s)))
    workers.start()
    try:
        first, _ = store_inbound(db, _mail(1), "smtp")
        with _holding(db, first):
            workers.submit(first)
            worker = workers._workers[0]
            process = worker.process
            _wait(lambda: worker.holding == [first])  # the worker is inside the mail
            os.kill(process.pid or 0, signal.SIGKILL)
            process.join(10)
        _wait(lambda: (first, "failed") in done)
        assert _status(db, first) == "failed"
        [reply] = _reply_bodies(db)
        assert b"could not process your mail" in reply
        # the new worker takes the next mail
        second, _ = store_inbound(db, _mail(2), "smtp")
        workers.submit(second)
        _wait(lambda: (second, "done") in done)
        assert workers._workers[0].process.pid != process.pid
    finally:
        workers.stop()


@pytest.mark.postgres
@pytest.mark.slow
def test_a_worker_killed_mid_batch_is_replaced_and_each_mail_goes_again_alone(
        db: Engine, db_url: str, tmp_path: Path) -> None:
    done: list[tuple[int, str]] = []
    workers = MailWorkers(_config(db_url, tmp_path), db, 1, lambda i, s: done.append((i, s)))
    ids = [store_inbound(db, _mail(n), "smtp")[0] for n in range(3)]
    with _holding(db, ids[0]):
        for inbound_id in ids:  # queued before the worker starts: it takes them as one batch
            workers.submit(inbound_id)
        workers.start()
        try:
            worker = workers._workers[0]
            process = worker.process
            _wait(lambda: worker.holding == ids)  # the worker is inside the batch
            os.kill(process.pid or 0, signal.SIGKILL)
            process.join(10)
        except BaseException:
            workers.stop()
            raise
    try:
        # no mail is blamed: each, processed on its own, gets through
        _wait(lambda: len(done) == 3 and workers.idle.is_set())
        assert sorted(done) == [(i, "done") for i in ids]
        assert workers._workers[0].process.pid != process.pid
        assert len(_reply_bodies(db)) == 3
    finally:
        workers.stop()


def test_a_batch_is_taken_from_what_waits_and_alone_mails_stay_alone() -> None:
    judge_end, worker_end = multiprocessing.Pipe()
    for item in [(1, False), (2, True), (3, False), *[(n, False) for n in range(4, 4 + BATCH)],
                 None]:
        judge_end.send(item)
    first = _take(worker_end)
    assert first == ([1, 3, *range(4, 4 + BATCH - 3)], False, [2])
    rest = _take(worker_end)
    assert rest == (list(range(4 + BATCH - 3, 4 + BATCH)), True, [])


@pytest.mark.postgres
@pytest.mark.slow
def test_mails_locking_two_games_in_opposite_orders_both_get_through(
        db: Engine, db_url: str, tmp_path: Path) -> None:
    """Each mail waits, once it holds its first game, until the other holds
    one too (or a while): on PostgreSQL each takes both its games first,
    together, in name order, so the second waits for the first rather than
    the two for each other; should they still deadlock, the server ends one
    transaction, which is tried again. On SQLite the second mail waits for
    the first."""
    with transaction(db) as session:
        for name in ("alpha", "beta"):
            games.create_game(session, name, hash_password("gm"), "gm@players.test",
                              GameSettings())
    ids = [store_inbound(db, _mail(1, "LIST alpha\nLIST beta"), "smtp")[0],
           store_inbound(db, _mail(2, "LIST beta\nLIST alpha"), "smtp")[0]]
    first_locks = threading.Barrier(2, timeout=3)
    locked: dict[int, int] = {}

    @event.listens_for(db, "after_cursor_execute")
    def _after(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        # after each mail's first game lock, wait until both have one
        if "FOR UPDATE" in statement and "FROM game" in statement:
            me = threading.get_ident()
            locked[me] = locked.get(me, 0) + 1
            if locked[me] == 1 and db.dialect.name == "postgresql":
                with contextlib.suppress(threading.BrokenBarrierError):  # the other waits
                    first_locks.wait()

    statuses: list[str] = []
    threads = [threading.Thread(target=lambda i=i: statuses.append(
        process_mail(db, _config(db_url, tmp_path), i))) for i in ids]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    event.remove(db, "after_cursor_execute", _after)
    assert statuses == ["done", "done"]
    for raw in _reply_bodies(db):
        assert b"could not process" not in raw


@pytest.mark.slow
def test_killing_the_judge_leaves_no_worker_and_no_semaphore_behind(tmp_path: Path) -> None:
    """kill -9 of `judge serve`: its worker processes (and multiprocessing's
    helper) end with it, and it leaves nothing in /dev/shm."""
    from tests.judge.test_kill_run import kill_run_module

    kill_run = kill_run_module()
    judge = kill_run.JudgeProcess(tmp_path, f"sqlite:///{tmp_path / 'judge.db'}", workers=2)
    judge.start()
    try:
        assert judge.process is not None
        pid = judge.process.pid
        _wait(lambda: len(kill_run.descendants(pid)) >= 2)  # the workers and their helper
    finally:
        judge.kill()  # SIGKILL; counts (and ends) what lives on
    assert judge.orphans == 0
    assert judge.semaphores_left == 0
