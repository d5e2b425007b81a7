"""Deadline work in worker processes (judge.deadline_workers): a game's
phase processed in a worker, the maps drawn ahead of the transaction and
taken only for the same scene, and a worker killed in the middle of a game:
nothing lost, nothing sent twice, and a game that kills two workers is a
failing deadline like any other."""

from __future__ import annotations

import fcntl
import json
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from judge import deadline_workers, games, maps, order_entry
from judge.config import Config
from judge.db import transaction
from judge.deadline_workers import DeadlineWorkers, draw_ahead
from judge.models import Game, Outbox, PhaseRecord, as_utc
from judge.scheduler import DeadlineScheduler, StopWork, attend, next_moment
from tests.judge.queued import queued
from tests.judge.test_scheduler import game_row, running_game, submit

pytestmark = pytest.mark.slow  # worker processes start in seconds


def config_for(db_url: str, tmp_path: Path) -> Config:
    return Config(address="judge@judge.test", data_dir=tmp_path, database_url_setting=db_url)


@pytest.fixture
def workers(db_url: str, tmp_path: Path) -> Iterator[DeadlineWorkers]:
    pool = DeadlineWorkers(config_for(db_url, tmp_path), 1)
    pool.start()
    yield pool
    pool.stop()


def due_game(db: Engine, name: str = "clock") -> tuple[int, datetime]:
    """A game with orders on file for France and Germany (the others hold
    by the NMR rule); a moment past its deadline."""
    game_id = running_game(db, nmr="hold", name=name)
    submit(db, game_id, ["FRANCE", "GERMANY"])
    deadline = game_row(db, game_id).deadline
    assert deadline is not None
    return game_id, as_utc(deadline) + timedelta(minutes=1)


def pngs(message: EmailMessage) -> list[bytes]:
    return [part.get_content() for part in message.iter_attachments()
            if part.get_content_type() == "image/png"]


@pytest.mark.postgres
def test_a_worker_process_processes_a_due_game(db: Engine, workers: DeadlineWorkers) -> None:
    game_id, now = due_game(db)
    assert workers.work(game_id, now) == 1  # one message to the players and the GM
    assert game_row(db, game_id).phase == "F1901M"
    [(recipients, message)] = queued(db, "Diplomacy results clock S1901M")
    assert len(recipients) == 8
    assert [p[:8] for p in pngs(message)] == [b"\x89PNG\r\n\x1a\n"]


def test_maps_drawn_ahead_are_taken_for_the_same_scene_only(
        db: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    drawn: list[str] = []
    real = maps.attachments

    def counted(*args: Any, **kwargs: Any) -> tuple[maps.Attachment, ...]:
        drawn.append(args[1].game)
        return real(*args, **kwargs)

    monkeypatch.setattr(maps, "attachments", counted)
    config = Config(address="judge@judge.test")

    same, now = due_game(db, "same")
    draw_ahead(db, same, now)
    assert drawn == ["same"]
    attend(db, config, same, now)
    assert drawn == ["same"]  # the transaction took the map drawn ahead
    [(_, ahead)] = queued(db, "Diplomacy results same S1901M")

    # a game whose orders change after the look ahead gets a map of its own
    changed, now = due_game(db, "changed")
    draw_ahead(db, changed, now)
    with transaction(db) as session:
        game = session.get(Game, changed)
        assert game is not None
        france = next(m for m in games.members(session, game, "player") if m.power == "FRANCE")
        order_entry.submit_orders(session, game, france, [(1, "A PAR - BUR")])
    drawn.clear()
    attend(db, config, changed, now)
    assert drawn == ["changed"]  # drawn again: not the scene drawn ahead
    [(_, mailed)] = queued(db, "Diplomacy results changed S1901M")
    assert pngs(mailed) != pngs(ahead)
    with Session(db) as session:
        record = session.exec(select(PhaseRecord).where(
            PhaseRecord.game_id == changed, PhaseRecord.phase == "S1901M")).one()
    assert {"power": "FRANCE", "order": "A PAR - BUR", "outcome": "succeeds",
            "reason": ""} in json.loads(record.results)["results"]


def _blocked_on_writer_lock() -> set[int]:
    """The processes waiting for a flock (the judge's writer turn, judge.db)."""
    waiting = set()
    for line in Path("/proc/locks").read_text().splitlines():
        fields = line.split()
        if len(fields) > 5 and fields[1] == "->" and fields[2] == "FLOCK":
            waiting.add(int(fields[5]))
    return waiting


def _wait(condition: Callable[[], object], seconds: float = 60) -> None:
    end = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.05)


def test_a_worker_killed_mid_game_loses_nothing_and_two_make_a_failing_deadline(
        db: Engine, db_url: str, tmp_path: Path, workers: DeadlineWorkers) -> None:
    """SQLite: the test holds the writers' turn, so each worker waits in the
    game's transaction, where it is killed."""
    game_id, now = due_game(db)
    config = config_for(db_url, tmp_path)
    scheduler = DeadlineScheduler(db, config, work=workers.work, clock=lambda: now)
    turn = os.open(str(tmp_path / "judge.db-writer.lock"), os.O_RDWR | os.O_CREAT, 0o600)
    fcntl.flock(turn, fcntl.LOCK_EX)
    job = threading.Thread(target=scheduler._run, args=(game_id,))
    job.start()
    killed: list[int] = []
    try:
        for _ in range(2):
            _wait(lambda: set(workers.pids()) & _blocked_on_writer_lock() - set(killed))
            [victim] = set(workers.pids()) & _blocked_on_writer_lock() - set(killed)
            os.kill(victim, signal.SIGKILL)
            killed.append(victim)
    finally:
        os.close(turn)  # the scheduler notes the failure in a transaction of its own
        job.join(60)
    assert workers.pids() == []  # both dead; the next work starts another

    game = game_row(db, game_id)
    assert game.phase == "S1901M" and game.failed_attempts == 1
    assert "WorkerDied" in game.failure
    assert not queued(db, "Diplomacy results")  # the killed transactions queued nothing
    [(to, _)] = queued(db, "Diplomacy deadline failed clock S1901M")
    assert to == ["gm@players.test"]

    # the next attempt, in the worker that replaced the dead ones, works
    assert game.retry_at is not None
    assert workers.work(game_id, as_utc(game.retry_at)) == 1
    assert game_row(db, game_id).phase == "F1901M"
    assert len(queued(db, "Diplomacy results clock S1901M")) == 1


def _ended(pid: int) -> bool:
    stat = Path(f"/proc/{pid}/stat")
    return not stat.exists() or stat.read_text().rpartition(")")[2].split()[0] == "Z"


def test_workers_start_when_needed_and_end_when_idle(
        db_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(deadline_workers, "IDLE_SECONDS", 1.0)
    pool = DeadlineWorkers(config_for(db_url, tmp_path), 2)
    pool.start()
    try:
        assert pool.pids() == []  # no deadline near: no process waiting
        pool.prepare()
        pids = pool.pids()
        assert len(pids) == 2
        pool.prepare()
        assert pool.pids() == pids  # ready already
        _wait(lambda: pool.pids() == [])
        for pid in pids:
            _wait(lambda pid=pid: _ended(pid))
    finally:
        pool.stop()


def test_the_scheduler_readies_the_workers_for_a_deadline_a_minute_ahead(db: Engine) -> None:
    readied: list[str] = []
    game_id, _ = due_game(db)
    moment = next_moment(game_row(db, game_id))  # its reminder
    assert moment is not None
    scheduler = DeadlineScheduler(db, Config(), clock=lambda: moment - timedelta(minutes=2),
                                  warm=lambda: readied.append("ready"))
    scheduler.scheduler.start(paused=True)
    try:
        scheduler.schedule(game_id)
        assert readied == []
        scheduler.clock = lambda: moment - timedelta(seconds=30)
        scheduler.schedule(game_id)
        assert readied == ["ready"]
    finally:
        scheduler.scheduler.shutdown(wait=False)


def test_stopping_ends_the_workers_and_turns_away_work(db_url: str, tmp_path: Path) -> None:
    pool = DeadlineWorkers(config_for(db_url, tmp_path), 2)
    pool.start()
    pool.prepare()
    pids = pool.pids()
    assert len(pids) == 2
    pool.stop()
    for pid in pids:
        _wait(lambda pid=pid: _ended(pid))
    with pytest.raises(StopWork):
        pool.work(1, datetime.now(UTC))


def test_a_judge_killed_in_a_burst_of_deadlines_processes_each_game_once(
        db: Engine, db_url: str, tmp_path: Path) -> None:
    """`judge serve` killed with SIGKILL while its deadline workers are on a
    burst of due games: its workers end with it, and the next start
    processes the rest; every game moves on once, with one results mail
    written to the Maildir once."""
    from tests.judge.test_kill_run import kill_run_module

    # a dozen: the kill comes after the second results mail, with ten more to go
    games_due = [due_game(db, f"g{n}")[0] for n in range(12)]
    with transaction(db) as session:  # all due: their deadlines passed while the judge was down
        for game_id in games_due:
            game = session.get(Game, game_id)
            assert game is not None
            game.deadline = datetime.now(UTC) - timedelta(minutes=1)
            game.reminded = game.phase
    judge = kill_run_module().JudgeProcess(tmp_path / "judge", db_url)
    judge.start()
    try:
        _wait(lambda: len(queued(db, "Diplomacy results")) >= 2, 120)
        judge.kill()
        assert judge.orphans == 0
        killed_at = len(queued(db, "Diplomacy results"))
        judge.start()
        _wait(lambda: all(game_row(db, g).phase == "F1901M" for g in games_due), 300)
        _wait(lambda: len(list((judge.data_dir / "outgoing" / "new").glob("*")))
              >= len(games_due), 60)
    finally:
        judge.stop()
    results = queued(db, "Diplomacy results")
    assert sorted(str(m["Subject"]) for _, m in results) == sorted(
        f"Diplomacy results g{n} S1901M" for n in range(len(games_due)))
    with Session(db) as session:
        assert session.exec(select(Outbox).where(Outbox.status != "sent")).all() == []
    files = list((judge.data_dir / "outgoing" / "new").glob("*"))
    assert len(files) == len(results)  # each written once
    assert 2 <= killed_at < len(games_due)  # the kill came in the middle of the burst
