"""A deadline whose processing fails, on real games made to fail by real bad
stored data: it is tried again at growing intervals however much mail
comes, its GM (and the judge keeper) told once, even across a restart,
STATUS says so, and other games go on as before. A player's zone gone from
the zone database no longer fails a deadline at all.

Time is the scheduler's clock, moved by the test: the scheduler's jobs are
placed as the judge places them, and run when that clock reaches them."""

from __future__ import annotations

import json
import logging
import tomllib
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from email import policy
from email.message import EmailMessage
from pathlib import Path

import pytest
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from judge import deadline_failure, games
from judge.config import Config, Limits
from judge.db import transaction
from judge.intake.store import store_inbound
from judge.mail import format_deadline
from judge.models import FiledLines, Game, Member, as_utc
from judge.passwords import hash_password
from judge.processing import process_mail
from judge.scheduler import DeadlineScheduler
from judge.settings import parse_settings
from tests.judge.queued import queued

DATA = tomllib.loads((Path(__file__).parent / "data" / "failing_deadline.toml").read_text())
CONFIG = Config(name="TESTJUDGE", address="judge@judge.test", keeper="keeper@judge.test",
                limits=Limits(replies_per_hour=1000))
START = datetime(2026, 11, 21, 12, 0, tzinfo=UTC)
_HASH = hash_password("pw")  # one slow hash for every player
NOTICE = "Diplomacy deadline failed"


class Clock:
    """The scheduler's clock, moved by the test."""

    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


def _game(db: Engine, name: str, variant: str = "standard") -> int:
    """A started game, every seat taken, processed at its deadline (nmr hold)."""
    settings, problems = parse_settings([("variant", variant), ("nmr", "hold")])
    assert not problems
    with transaction(db) as session:
        game = games.create_game(session, name, _HASH, f"gm@{name}.test", settings)
        for seat in games.seat_names(game):
            games.join(session, game, f"{seat.lower()}@{name}.test", _HASH, seat)
        games.start(session, game, START)
        assert game.id is not None
        return game.id


def _garble(db: Engine, game_id: int, power: str, kind: str, line: str) -> None:
    """A row of lines on file that no longer reads: written as plain text,
    not the JSON list the judge stores (as an edit of the database by hand
    would leave it)."""
    with transaction(db) as session:
        game = session.get(Game, game_id)
        assert game is not None
        session.add(FiledLines(game_id=game_id, phase=game.phase, power=power,
                               kind=kind, lines=line))


def _garble_a_bid(db: Engine, game_id: int) -> None:
    _garble(db, game_id, "POLAND", "bids", "1: A Blr S Khk - Mos")


def _row(db: Engine, game_id: int) -> Game:
    with Session(db) as session:
        game = session.get(Game, game_id)
        assert game is not None
        return game


def _deadline(db: Engine, game_id: int) -> datetime:
    deadline = _row(db, game_id).deadline
    assert deadline is not None
    return as_utc(deadline)


def _move_deadline(db: Engine, game_id: int, when: datetime) -> None:
    with transaction(db) as session:
        game = session.get(Game, game_id)
        assert game is not None
        game.deadline = when
        session.add(game)


@pytest.fixture
def clock(db: Engine) -> Clock:
    return Clock(START)


@pytest.fixture
def judge(db: Engine, clock: Clock) -> Iterator[DeadlineScheduler]:
    """The judge's deadline scheduler on the test's clock: its jobs are
    placed as always but never run by the wall clock (see _run_due)."""
    scheduler = DeadlineScheduler(db, CONFIG, clock=clock)
    scheduler.scheduler.start(paused=True)
    yield scheduler
    scheduler.scheduler.shutdown(wait=False)


def _run_due(scheduler: DeadlineScheduler, now: datetime) -> None:
    """Run each game's job due by ``now``, as the scheduler's thread runs
    one when the wall clock reaches it: a date job is gone once run."""
    due = sorted((j for j in scheduler.scheduler.get_jobs()
                  if j.id.startswith("game-") and j.next_run_time <= now),
                 key=lambda j: j.next_run_time)
    for job in due:
        job.remove()
        job.func(*job.args)


def _mail(db: Engine, sender: str, body: str, now: datetime) -> str:
    """A mail stored and processed as the judge does it; its status."""
    msg = EmailMessage(policy=policy.SMTP)
    msg["From"] = sender
    msg["To"] = CONFIG.address
    msg["Subject"] = body.splitlines()[-1]
    msg["Message-ID"] = f"<{now.timestamp()}.{sender}>"
    msg.set_content(body)
    inbound_id, _ = store_inbound(db, msg.as_bytes(), "smtp")
    return process_mail(db, CONFIG, inbound_id, now)


def _sent(db: Engine, subject_start: str) -> list[tuple[list[str], str]]:
    """Each queued mail whose subject starts so: its recipients and text."""
    out = []
    for recipients, message in queued(db, subject_start):
        part = message.get_body(("plain",))
        assert part is not None
        out.append((recipients, str(part.get_content())))
    return out


def _failures(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    """What the scheduler logged of failed deadline work, one per attempt."""
    return [r for r in caplog.records
            if r.name == "judge.scheduler" and r.levelno >= logging.ERROR]


def test_the_wait_doubles_from_a_minute_to_six_hours() -> None:
    for failures, seconds in DATA["waits"]:
        assert deadline_failure.wait_after(failures) == timedelta(seconds=seconds), failures


def test_a_failing_deadline_backs_off_however_much_mail_comes(
        db: Engine, clock: Clock, judge: DeadlineScheduler,
        caplog: pytest.LogCaptureFixture) -> None:
    busy = DATA["busy"]
    caplog.set_level(logging.INFO, logger="judge.scheduler")
    broken = _game(db, "broken", "dissolution")
    _garble_a_bid(db, broken)
    deadline = _deadline(db, broken)
    other = _game(db, "other")
    _move_deadline(db, other, deadline + timedelta(seconds=busy["other_deadline"]))
    clock.now = deadline

    judge.sync()  # as at the judge's start
    _run_due(judge, clock.now)
    attempts = [0] * len(_failures(caplog))
    other_moved_at = None
    for n in range(1, busy["span"] // busy["step"] + 1):
        clock.advance(busy["step"])
        elapsed = n * busy["step"]
        if elapsed % busy["sweep"] == 0:
            judge.sync()  # the sweep
        if n % 2:  # a player of the other game files orders, somebody asks about the broken one
            sender, body = "england@other.test", "SIGNON england@other pw\nF LON H\nF EDI H"
        else:
            sender, body = "watcher@players.test", "LIST broken"
        assert _mail(db, sender, body, clock.now) == "done"
        judge.sync()  # as the judge does after every mail it processed (judge.service)
        _run_due(judge, clock.now)
        attempts += [elapsed] * (len(_failures(caplog)) - len(attempts))
        if other_moved_at is None and _row(db, other).phase != "S1901M":
            other_moved_at = elapsed

    assert attempts == busy["attempts"]
    first, *later = _failures(caplog)
    assert first.exc_info is not None  # the traceback, once
    assert later and all(r.exc_info is None for r in later)
    assert "JSONDecodeError" in first.getMessage()
    # the other game's deadline passed on time, its mail was answered (above)
    assert other_moved_at == busy["other_deadline"]
    assert len(_sent(db, "Diplomacy results other S1901M")) >= 1
    assert _sent(db, "Diplomacy results broken") == []
    # the GM and the keeper, each told once
    notices = _sent(db, f"{NOTICE} broken S1992M")
    assert sorted(to for to, _ in notices) == [["gm@broken.test"], ["keeper@judge.test"]]
    gm_text = " ".join(next(text for to, text in notices if to == ["gm@broken.test"]).split())
    assert "could not process Spring 1992 Movement (S1992M)" in gm_text
    assert "JSONDecodeError: " in gm_text and "Traceback" not in gm_text
    assert f"tries again at {format_deadline(deadline + timedelta(seconds=60), 'UTC')}" \
        in gm_text

    # STATUS: the GM sees the error, a player why no results came
    last = deadline + timedelta(seconds=busy["attempts"][-1])
    following = last + deadline_failure.wait_after(len(busy["attempts"]))
    assert _mail(db, "gm@broken.test", "SIGNON master@broken pw\nSTATUS", clock.now) == "done"
    (_, reply), = [m for m in _sent(db, "Re: STATUS") if m[0] == ["gm@broken.test"]]
    assert (f"Deadline processing failed at {format_deadline(last, 'UTC')}: JSONDecodeError: "
            in reply)
    assert f"next attempt {format_deadline(following, 'UTC')}." in reply
    assert _mail(db, "watcher@players.test", "LIST broken", clock.now) == "done"
    listed = _sent(db, "Re: LIST broken")[-1][1]
    assert "Deadline processing failed at" in listed and "JSONDecodeError" not in listed

    # a restarted judge keeps the wait and tells nobody again (the first
    # one's jobs are never run again)
    restarted = DeadlineScheduler(db, CONFIG, clock=clock)
    restarted.scheduler.start(paused=True)
    try:
        restarted.sync()
        job = restarted.scheduler.get_job(f"game-{broken}")
        assert job is not None and job.next_run_time == following
        clock.now = following
        _run_due(restarted, clock.now)
    finally:
        restarted.scheduler.shutdown(wait=False)
    assert len(_failures(caplog)) == len(busy["attempts"]) + 1
    assert _failures(caplog)[-1].exc_info is None
    assert len(_sent(db, NOTICE)) == 2
    assert _row(db, broken).failed_attempts == len(busy["attempts"]) + 1


def test_an_attempt_that_works_ends_the_failure(
        db: Engine, clock: Clock, judge: DeadlineScheduler) -> None:
    broken = _game(db, "broken", "dissolution")
    _garble_a_bid(db, broken)
    clock.now = _deadline(db, broken)
    judge.sync()
    _run_due(judge, clock.now)
    failed = _row(db, broken)
    assert failed.failed_attempts == 1 and failed.retry_at is not None
    with transaction(db) as session:  # the keeper mends the row
        row = session.exec(select(FiledLines).where(FiledLines.kind == "bids")).one()
        row.lines = json.dumps(["1: A Blr S Khk - Mos"])
        session.add(row)
    clock.now = as_utc(failed.retry_at)
    judge.sync()
    _run_due(judge, clock.now)
    mended = _row(db, broken)
    assert mended.phase != "S1992M"
    assert (mended.failed_attempts, mended.failure, mended.retry_at) == (0, "", None)
    assert _sent(db, "Diplomacy results broken S1992M")
    assert len(_sent(db, NOTICE)) == 2  # the one notice of the run, no more


def test_set_deadline_ends_the_failure(db: Engine, clock: Clock,
                                       judge: DeadlineScheduler) -> None:
    broken = _game(db, "broken", "dissolution")
    _garble_a_bid(db, broken)
    clock.now = _deadline(db, broken)
    judge.sync()
    _run_due(judge, clock.now)
    assert _row(db, broken).failed_attempts == 1
    assert _mail(db, "gm@broken.test", "SIGNON master@broken pw\nSET DEADLINE +3d",
                 clock.now) == "done"
    moved = _row(db, broken)
    assert (moved.failed_attempts, moved.failure, moved.retry_at) == (0, "", None)
    judge.sync()
    job = judge.scheduler.get_job(f"game-{broken}")
    # next: the reminder before the new deadline, not a retry
    assert moved.deadline is not None and job is not None
    assert job.next_run_time == as_utc(moved.deadline) - games.settings_of(moved).reminder
    assert job.next_run_time > clock.now + timedelta(days=1)
    assert _mail(db, "gm@broken.test", "SIGNON master@broken pw\nSTATUS", clock.now) == "done"
    assert "Deadline processing failed" not in _sent(db, "Re: STATUS")[-1][1]


def test_a_zone_gone_from_the_zone_database_falls_back_to_the_games(
        db: Engine, clock: Clock, judge: DeadlineScheduler) -> None:
    """US/Pacific-New left the zone database in 2020: a player who chose it
    before gets the deadlines in the game's zone, with a note, and the
    deadline is processed."""
    game_id = _game(db, "zones")
    with transaction(db) as session:
        turkey = session.exec(select(Member).where(Member.power == "TURKEY")).one()
        turkey.zone = "US/Pacific-New"
        session.add(turkey)
    clock.now = _deadline(db, game_id)
    judge.sync()
    _run_due(judge, clock.now)
    game = _row(db, game_id)
    assert game.phase == "F1901M" and game.failed_attempts == 0
    results = dict((to[0] if len(to) == 1 else "all", text)
                   for to, text in _sent(db, "Diplomacy results zones S1901M"))
    shown = f":: Deadline: F1901M {format_deadline(game.deadline, 'UTC')}"
    lines = results["turkey@zones.test"].splitlines()
    assert lines[lines.index(shown) + 1].startswith(
        "(Your time zone, US/Pacific-New, is no longer known to the judge")
    assert "SET ZONE" in results["turkey@zones.test"]
    assert "US/Pacific-New" not in results["all"]


def test_failing_reminders_are_told_as_such(db: Engine, clock: Clock,
                                            judge: DeadlineScheduler) -> None:
    """Before the deadline it is the reminders that fail (they read the
    orders on file): the GM is told that, not that the phase failed."""
    game_id = _game(db, "early")
    _garble(db, game_id, "FRANCE", "orders", "A PAR - BUR")
    deadline = _deadline(db, game_id)
    clock.now = deadline - games.settings_of(_row(db, game_id)).reminder + timedelta(minutes=1)
    judge.sync()
    _run_due(judge, clock.now)
    assert _row(db, game_id).failed_attempts == 1
    (_, text), = [m for m in _sent(db, f"{NOTICE} early S1901M") if m[0] == ["gm@early.test"]]
    text = " ".join(text.split())
    assert "could not send the reminders for Spring 1901 Movement (S1901M) of early" in text
    assert "has passed" not in text
