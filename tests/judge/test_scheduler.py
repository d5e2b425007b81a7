"""Deadlines: reminders before, processing at the deadline, the grace
period for late powers, a deadline missed while the judge was down, and
two judges sharing one database processing a phase once."""

from __future__ import annotations

import json
import threading
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from judge import games, order_entry
from judge.config import Config
from judge.db import make_engine, transaction
from judge.models import Game, Outbox, PhaseRecord
from judge.passwords import hash_password
from judge.scheduler import DeadlineScheduler, attend, next_moment
from judge.settings import parse_settings

CONFIG = Config(address="judge@judge.test")
START = datetime(2026, 11, 21, 12, 0, tzinfo=UTC)
POWERS = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]
_HASH = hash_password("pw")  # one slow hash for every player


def running_game(engine: Engine, nmr: str = "wait", name: str = "clock") -> int:
    settings, problems = parse_settings([("nmr", nmr), ("grace", "1h"), ("reminder", "6h")])
    assert not problems
    with transaction(engine) as session:
        game = games.create_game(session, name, _HASH, "gm@players.test", settings)
        for power in POWERS:
            games.join(session, game, f"{power.lower()}@players.test", _HASH, power)
        games.start(session, game, START)
        assert game.id is not None
        return game.id


def submit(engine: Engine, game_id: int, powers: list[str]) -> None:
    with transaction(engine) as session:
        game = session.get(Game, game_id)
        assert game is not None
        state = games.current_state(session, game)
        for member in games.members(session, game, "player"):
            if member.power in powers:
                holds = [(n, f"{u} H") for n, u in enumerate(state.units_of(member.power), 1)]
                order_entry.submit_orders(session, game, member, holds)


def mails(engine: Engine, subject_start: str) -> list[Outbox]:
    with Session(engine) as session:
        rows = session.exec(select(Outbox)).all()
    from email import message_from_bytes, policy
    return [r for r in rows if str(message_from_bytes(r.raw, policy=policy.default)["Subject"])
            .startswith(subject_start)]


def reached(engine: Engine, subject_start: str) -> list[str]:
    """Every address the mails of this subject go to (one mail may reach many)."""
    return [a for r in mails(engine, subject_start) for a in json.loads(r.recipients)]


def game_row(engine: Engine, game_id: int) -> Game:
    with Session(engine) as session:
        game = session.get(Game, game_id)
        assert game is not None
        return game


def test_reminder_then_grace_then_processing(db: Engine) -> None:
    game_id = running_game(db)
    deadline = game_row(db, game_id).deadline
    assert deadline is not None
    deadline = deadline.astimezone(UTC)
    assert deadline == START + timedelta(hours=48)
    submit(db, game_id, POWERS[:-1])  # Turkey is late

    assert attend(db, CONFIG, game_id, deadline - timedelta(hours=7)) == 0  # too early
    assert attend(db, CONFIG, game_id, deadline - timedelta(hours=5)) == 1
    reminders = mails(db, "Diplomacy reminder clock S1901M")
    assert len(reminders) == 1 and b"turkey@players.test" in reminders[0].recipients.encode()
    assert attend(db, CONFIG, game_id, deadline - timedelta(hours=4)) == 0  # reminded once

    attend(db, CONFIG, game_id, deadline + timedelta(minutes=1))
    game = game_row(db, game_id)
    assert game.phase == "S1901M" and game.grace_until is not None
    assert len(reached(db, "Diplomacy late notice clock S1901M")) >= 7

    attend(db, CONFIG, game_id, deadline + timedelta(minutes=30))  # still in grace
    assert game_row(db, game_id).phase == "S1901M"
    attend(db, CONFIG, game_id, deadline + timedelta(hours=1, minutes=1))
    assert game_row(db, game_id).phase == "F1901M"
    assert len(reached(db, "Diplomacy results clock S1901M")) == 8  # 7 players and the GM


def test_hold_policy_processes_at_the_deadline(db: Engine) -> None:
    game_id = running_game(db, nmr="hold")
    deadline = game_row(db, game_id).deadline
    assert deadline is not None
    attend(db, CONFIG, game_id, deadline.astimezone(UTC) + timedelta(seconds=1))
    assert game_row(db, game_id).phase == "F1901M"
    assert not mails(db, "Diplomacy late notice")


def test_missed_deadline_is_processed_at_start(db: Engine) -> None:
    game_id = running_game(db, nmr="hold")
    with transaction(db) as session:  # the judge was down when this passed
        game = session.get(Game, game_id)
        assert game is not None
        game.deadline = datetime.now(UTC) - timedelta(hours=3)
        session.add(game)
    assert next_moment(game_row(db, game_id)) is not None
    done = threading.Event()
    scheduler = DeadlineScheduler(db, CONFIG, after_work=done.set)
    scheduler.start()
    try:
        assert done.wait(30), "the missed deadline was not processed"
    finally:
        scheduler.stop()
    assert game_row(db, game_id).phase == "F1901M"


@pytest.mark.postgres
def test_two_judges_process_a_phase_once(db: Engine, db_url: str) -> None:
    game_id = running_game(db, nmr="hold")
    deadline = game_row(db, game_id).deadline
    assert deadline is not None
    late = deadline.astimezone(UTC) + timedelta(minutes=1)
    engines = [make_engine(db_url) for _ in range(2)]  # two judge processes' connections
    barrier = threading.Barrier(2)
    errors: list[BaseException] = []

    def judge(engine: Engine) -> None:
        barrier.wait()
        try:
            attend(engine, CONFIG, game_id, late)
        except Exception as exc:  # SQLite: the loser's commit is refused, nothing is stored
            errors.append(exc)

    threads = [threading.Thread(target=judge, args=(e,)) for e in engines]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    for engine in engines:
        engine.dispose()
    if db.dialect.name == "postgresql":
        assert errors == []
    with Session(db) as session:
        records = session.exec(select(PhaseRecord).where(PhaseRecord.game_id == game_id)).all()
    assert sorted(r.phase for r in records) == ["F1901M", "S1901M"]
    assert len(reached(db, "Diplomacy results clock S1901M")) == 8


def _text(row: Outbox) -> str:
    from email import message_from_bytes, policy
    part = message_from_bytes(row.raw, policy=policy.default).get_body(("plain",))
    assert part is not None
    return str(part.get_content())


def test_a_players_own_zone_in_reminders_and_late_notices(db: Engine) -> None:
    """SET ZONE: the reminder and the late notice show a player the deadline
    and the end of the grace period in their zone beside the game's."""
    game_id = running_game(db)
    with transaction(db) as session:
        game = session.get(Game, game_id)
        assert game is not None
        turkey = next(m for m in games.members(session, game, "player") if m.power == "TURKEY")
        turkey.zone = "Asia/Tokyo"
        session.add(turkey)
    submit(db, game_id, POWERS[:-1])  # Turkey is late
    deadline = START + timedelta(hours=48)  # Mon 23 Nov 2026 12:00 UTC

    attend(db, CONFIG, game_id, deadline - timedelta(hours=5))
    (reminder,) = mails(db, "Diplomacy reminder clock S1901M")
    assert "Mon 23 Nov 2026 12:00 UTC (Mon 23 Nov 2026 21:00 JST for you)" in _text(reminder)

    attend(db, CONFIG, game_id, deadline + timedelta(minutes=1))
    notices = {json.loads(r.recipients)[0] if len(json.loads(r.recipients)) == 1 else "all":
               _text(r) for r in mails(db, "Diplomacy late notice clock S1901M")}
    assert "Mon 23 Nov 2026 13:00 UTC (Mon 23 Nov 2026 22:00 JST for you)" in \
        notices["turkey@players.test"]
    assert "for you" not in notices["all"] and "Mon 23 Nov 2026 13:00 UTC" in notices["all"]
