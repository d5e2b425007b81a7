"""Processing stored mail: bad input gets a clear reply (automatic mail
none), nothing crashes, the password is never repeated, and a mail is
processed once."""

from __future__ import annotations

import contextlib
import json
import logging
import threading
import tomllib
from pathlib import Path
from typing import Any

import psycopg
import pytest
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from judge import processing
from judge.config import Config, Limits
from judge.db import open_database
from judge.intake.store import store_inbound
from judge.models import AuditEntry, Game, InboundMail, Outbox
from judge.processing import process_mail, process_mails

CASES = tomllib.loads((Path(__file__).parent / "data" / "bad_mail.toml").read_text())["mail"]
CONFIG = Config(address="judge@judge.test")


def _raw(case: dict[str, Any]) -> bytes:
    if "raw_hex" in case:
        return bytes.fromhex(case["raw_hex"])
    return case["raw"].replace("\n", "\r\n").encode()


def _replies(engine: Engine) -> list[tuple[list[str], str]]:
    from email import message_from_bytes, policy
    with Session(engine) as session:
        rows = session.exec(select(Outbox)).all()
        out = []
        for row in rows:
            msg = message_from_bytes(row.raw, policy=policy.default)
            body = msg.get_body(("plain",))
            out.append((json.loads(row.recipients), body.get_content() if body else ""))
        return out


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_bad_mail(db: Engine, case: dict[str, Any]) -> None:
    inbound_id, _ = store_inbound(db, _raw(case), "smtp")
    assert process_mail(db, CONFIG, inbound_id) == case["status"]
    replies = _replies(db)
    if not case["reply"]:
        assert replies == []
        return
    assert len(replies) == 1
    _, body = replies[0]
    for text in case["reply"]:
        assert text in body, body
    assert "verysecret" not in body
    with Session(db) as session:
        for entry in session.exec(select(AuditEntry)).all():
            assert "verysecret" not in entry.command


@pytest.mark.postgres
def test_processed_once(db: Engine) -> None:
    inbound_id, _ = store_inbound(db, b"From: a@players.test\r\nSubject: x\r\n\r\nLIST\r\n", "smtp")
    assert process_mail(db, CONFIG, inbound_id) == "done"
    assert process_mail(db, CONFIG, inbound_id) == "done"  # already done: nothing again
    assert len(_replies(db)) == 1
    with Session(db) as session:
        row = session.get(InboundMail, inbound_id)
        assert row is not None and row.status == "done"


@pytest.mark.postgres
def test_a_batch_with_a_failing_mail_is_undone_and_each_mail_processed_alone(
        db: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    ids = [store_inbound(db, f"From: p{n}@players.test\r\nSubject: {subject}\r\n"
                             f"Message-ID: <b{n}@players.test>\r\n\r\nLIST\r\n".encode(),
                         "smtp")[0]
           for n, subject in enumerate(["first", "poison", "third"])]
    render = processing.render

    def failing_render(template: str, **values: Any) -> str:
        if values.get("subject") == "poison":
            raise RuntimeError("a bug met in the middle of a batch")
        return render(template, **values)

    monkeypatch.setattr(processing, "render", failing_render)
    assert process_mails(db, CONFIG, ids) == {ids[0]: "done", ids[1]: "failed", ids[2]: "done"}
    bodies = [body for _, body in _replies(db)]
    # one reply each: nothing of the undone batch was kept
    assert len(bodies) == 3
    assert sum("could not process your mail" in body for body in bodies) == 1
    assert process_mails(db, CONFIG, ids) == {ids[0]: "done", ids[1]: "failed", ids[2]: "done"}
    assert len(_replies(db)) == 3  # already processed: nothing again


@pytest.mark.postgres
def test_a_batch_is_processed_in_order_in_one_go(db: Engine) -> None:
    ids = [store_inbound(db, f"From: p{n}@players.test\r\nSubject: m{n}\r\n"
                             f"Message-ID: <o{n}@players.test>\r\n\r\nLIST\r\n".encode(),
                         "smtp")[0] for n in range(4)]
    assert process_mails(db, CONFIG, ids) == {i: "done" for i in ids}
    with Session(db) as session:
        replies = session.exec(select(Outbox).order_by(Outbox.id)).all()  # type: ignore[arg-type]
    assert [json.loads(r.recipients) for r in replies] == [[f"p{n}@players.test"]
                                                          for n in range(4)]


# -- the reply throttle ----------------------------------------------------------


def _from(sender: str, body: str, n: int) -> bytes:
    return (f"From: {sender}\r\nSubject: mail {n}\r\nMessage-ID: <t{n}@players.test>\r\n"
            f"\r\n{body}\r\n").encode()


@pytest.mark.slow
def test_a_robot_is_answered_only_so_often_and_its_mail_still_counts(db: Engine) -> None:
    """A robot answering every reply (no Auto-Submitted) sends 25 mails: it
    gets the hour's replies and no more; every mail is carried out (the
    game it creates exists) and the withheld replies are in the audit."""
    limit = CONFIG.limits.replies_per_hour
    ids = [store_inbound(db, _from("robot@robots.test", "LIST", n), "smtp")[0]
           for n in range(24)]
    ids.append(store_inbound(db, _from("robot@robots.test",
                                       "CREATE late gm-pw\nvariant standard\nEND", 24),
                             "smtp")[0])
    assert {process_mail(db, CONFIG, i) for i in ids} == {"done"}
    assert len(_replies(db)) == limit
    with Session(db) as session:
        notes = [session.get(InboundMail, i).note for i in ids]  # type: ignore[union-attr]
        withheld = session.exec(select(AuditEntry).where(AuditEntry.command == "(reply)")).all()
        assert session.exec(select(Game).where(Game.name == "late")).first() is not None
    assert notes[:limit] == [""] * limit
    (_, last), (_, before) = _replies(db)[-1], _replies(db)[-2]
    assert "last reply to your address for an hour" in " ".join(last.split())  # a person knows
    assert "last reply" not in before
    assert all(note.startswith("reply withheld: robot@robots.test") for note in notes[limit:])
    assert len(withheld) == 25 - limit
    # another address is answered as ever
    other = store_inbound(db, _from("person@players.test", "LIST", 99), "smtp")[0]
    process_mail(db, CONFIG, other)
    assert len(_replies(db)) == limit + 1


@pytest.mark.postgres
def test_the_throttle_holds_across_a_restart(db_url: str) -> None:
    config = CONFIG.with_(limits=Limits(replies_per_hour=2))
    for n in range(3):
        engine = open_database(db_url)  # a judge started anew for each mail
        process_mail(engine, config, store_inbound(engine, _from("r@robots.test", "LIST", n),
                                                   "smtp")[0])
        replies = len(_replies(engine))
        engine.dispose()
    assert replies == 2


def test_game_mail_is_never_throttled(db: Engine) -> None:
    """The GM, out of replies, still gets the game's mail (the start notice)."""
    config = CONFIG.with_(limits=Limits(replies_per_hour=1))
    mails = [("gm@players.test", "CREATE duo gm-pw\nvariant standard\nplayers 2\nEND"),
             ("gm@players.test", "LIST")]  # withheld: the hour's one reply went out
    mails += [(f"p{n}@players.test", f"JOIN duo pw{n}") for n in range(2)]
    for n, (sender, body) in enumerate(mails):
        process_mail(db, config, store_inbound(db, _from(sender, body, n), "smtp")[0])
    to_gm = [body for recipients, body in _replies(db) if "gm@players.test" in recipients]
    assert len(to_gm) >= 2 and any("duo" in body and "started" in body for body in to_gm[1:])


@pytest.mark.postgres
def test_the_throttle_counts_across_concurrent_workers(db: Engine) -> None:
    """Two workers (threads, each with its own connections, as processes
    would be) answering one robot at once send the hour's replies, not more."""
    limit = CONFIG.limits.replies_per_hour
    ids = [store_inbound(db, _from("robot@robots.test", "LIST", n), "smtp")[0]
           for n in range(2 * limit)]
    start = threading.Barrier(2)

    def worker(mine: list[int]) -> None:
        start.wait()
        for inbound_id in mine:
            process_mail(db, CONFIG, inbound_id)

    threads = [threading.Thread(target=worker, args=(ids[n::2],)) for n in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert len(_replies(db)) == limit


@pytest.mark.postgres
def test_two_batches_naming_two_games_in_opposite_orders_never_deadlock(
        db: Engine, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """Two workers, each with a batch that joins both games, in opposite
    orders, each pausing after its first mail (when the other would have
    locked its first game): the batch's games are locked together, in one
    order, so the second worker waits for the first instead of both waiting
    for each other (which PostgreSQL ends after a second by undoing one)."""
    for n, name in enumerate(["east", "west"]):
        process_mail(db, CONFIG, store_inbound(db, _from(
            f"gm-{name}@players.test", f"CREATE {name} gm-pw\nvariant standard\nEND", n),
            "smtp")[0])
    batches = [[store_inbound(db, _from(f"{who}-{game}@players.test",
                                        f"JOIN {game} pw", 10 + 2 * n + m), "smtp")[0]
                for m, game in enumerate(games)]
               for n, (who, games) in enumerate([("a", ["east", "west"]),
                                                 ("b", ["west", "east"])])]
    first = {batch[0] for batch in batches}
    # both past their first mail, or the other is waiting for this one's games
    together = threading.Barrier(2, timeout=3)
    locked = processing._process_locked

    def pausing(session: Any, config: Config, inbound_id: int, *rest: Any) -> str:
        status = locked(session, config, inbound_id, *rest)
        if inbound_id in first:
            with contextlib.suppress(threading.BrokenBarrierError):
                together.wait()
        return status

    monkeypatch.setattr(processing, "_process_locked", pausing)
    caplog.set_level(logging.INFO, logger="judge.processing")
    done: dict[int, str] = {}
    threads = [threading.Thread(target=lambda b=batch: done.update(process_mails(db, CONFIG, b)))
               for batch in batches]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert done == {i: "done" for batch in batches for i in batch}
    assert not [r for r in caplog.records if "failed" in r.getMessage()]


@pytest.mark.postgres
def test_a_connection_the_server_closed_costs_a_retry_not_the_mail(db: Engine) -> None:
    """A pooled connection is pinged only after lying unused a while
    (judge.db): one the server closed a moment ago fails at the mail's
    first statement, and the mail is tried again on a new one."""
    inbound_id = store_inbound(db, _from("p@players.test", "LIST", 1), "smtp")[0]
    db.dispose()  # so that the pool holds only the one closed below
    with db.connect() as conn:
        dbapi = conn.connection.dbapi_connection
        assert dbapi is not None
        if db.dialect.name == "postgresql":
            with psycopg.connect(conninfo(db), autocommit=True) as other:
                other.execute("SELECT pg_terminate_backend(%s)", [dbapi.info.backend_pid])
        else:
            dbapi.close()
    assert process_mail(db, CONFIG, inbound_id) == "done"
    assert len(_replies(db)) == 1


def conninfo(engine: Engine) -> str:
    """A libpq connection string for the engine's database and schema."""
    url = engine.url.set(drivername="postgresql")
    return url.render_as_string(hide_password=False)
