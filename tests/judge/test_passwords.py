"""Passwords are kept only as slow salted hashes."""

from __future__ import annotations

import smtplib
from typing import Any

import pytest
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from judge import passwords
from judge.config import Config, Limits
from judge.intake.smtp import start_listener
from judge.intake.store import store_inbound
from judge.models import Outbox, SignonFailure
from judge.passwords import check_password, hash_password
from judge.processing import process_mail
from tests.loopback import free_port


def test_hash_checks_and_hides_the_password() -> None:
    stored = hash_password("dip-lomacy")
    assert "dip-lomacy" not in stored and stored.startswith("scrypt$")
    assert check_password("dip-lomacy", stored)
    assert not check_password("Dip-lomacy", stored)


def test_same_password_different_salt() -> None:
    assert hash_password("x") != hash_password("x")


def test_garbage_hash_never_matches() -> None:
    for stored in ("", "plain", "scrypt$1$2$3$zz$zz", "md5$a$b$c$d$e"):
        assert not check_password("plain", stored)


def test_a_remembered_check_is_for_that_hash_and_password_only() -> None:
    first, second = hash_password("same"), hash_password("same")
    assert check_password("same", first) and check_password("same", first)  # remembered
    assert not check_password("Same", first)  # a wrong password is never remembered
    assert check_password("same", second)
    assert not check_password("same", first.replace("scrypt$", "scrypt$1"))


# -- guessing by mail ----------------------------------------------------------

# the guesser here is answered every time: the reply throttle is not under test
CONFIG = Config(name="TESTJUDGE", address="judge@judge.test",
                limits=Limits(replies_per_hour=1000))
LIMITS = CONFIG.limits


def _mail(sender: str, body: str, n: int) -> bytes:
    return (f"From: {sender}\r\nSubject: mail {n}\r\nMessage-ID: <guess-{n}@players.test>\r\n"
            f"\r\n{body}\r\n").encode()


def _process(db: Engine, sender: str, body: str, n: int) -> str:
    inbound_id, _ = store_inbound(db, _mail(sender, body, n), "smtp")
    assert process_mail(db, CONFIG, inbound_id) == "done"
    with Session(db) as session:
        row = session.exec(select(Outbox).order_by(col(Outbox.id).desc())).first()
    assert row is not None
    return row.raw.decode("utf-8", "replace")


def _game(db: Engine) -> None:
    assert "Game g is created" in _process(
        db, "gm@players.test", "CREATE g gm-pw\nvariant standard\nplayers 7\nEND", 1)
    assert "You have joined g as FRANCE" in _process(
        db, "france@players.test", "JOIN france@g right-pw", 2)


@pytest.fixture
def scrypt_runs(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The real scrypt, each run noted (the count is what matters, not time)."""
    runs: list[str] = []
    real = passwords._scrypt_matches

    def counted(password: str, stored: str) -> bool:
        runs.append(password)
        return real(password, stored)

    monkeypatch.setattr(passwords, "_scrypt_matches", counted)
    return runs


@pytest.mark.slow
def test_a_thousand_signons_in_one_mail_cost_a_bounded_number_of_checks(
        db: Engine, scrypt_runs: list[str]) -> None:
    _game(db)
    body = "\n".join(f"SIGNON france@g guess-{n}" for n in range(1000))
    reply = _process(db, "guesser@players.test", body, 3)
    assert len(scrypt_runs) <= LIMITS.signons_per_mail
    assert reply.count("wrong power or password for g") == LIMITS.signons_per_mail
    assert reply.count(f"a mail may try at most {LIMITS.signons_per_mail} SIGNONs") == \
        1000 - LIMITS.signons_per_mail
    # the hour's wrong passwords are used up: even the right one is refused, unchecked
    scrypt_runs.clear()
    reply = _process(db, "france@players.test", "SIGNON france@g right-pw", 4)
    assert "too many wrong passwords for FRANCE in g" in reply
    assert scrypt_runs == []
    with Session(db) as session:
        assert len(session.exec(select(SignonFailure)).all()) == LIMITS.failed_signons_per_hour
    # another power of the game is not shut out by France's guesser
    reply = _process(db, "gm@players.test", "SIGNON master@g gm-pw", 5)
    assert "Signed on as the Game Master of g" in reply


@pytest.mark.slow
def test_wrong_passwords_of_many_mails_are_counted_per_power(
        db: Engine, scrypt_runs: list[str]) -> None:
    _game(db)
    for n in range(LIMITS.failed_signons_per_hour):
        assert "wrong power or password" in _process(
            db, "guesser@players.test", f"SIGNON france@g guess-{n}", 10 + n)
    scrypt_runs.clear()
    reply = _process(db, "guesser@players.test", "SIGNON france@g guess-x", 99)
    assert "too many wrong passwords for FRANCE in g" in reply and scrypt_runs == []


@pytest.mark.postgres
def test_a_mail_is_accepted_while_another_mail_checks_passwords(
        db: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    """While a mail's passwords are being checked, another sender's mail is
    stored and answered 250 by the SMTP listener: the check holds no lock
    that storing needs (on SQLite, the database's one write lock)."""
    _game(db)
    config = CONFIG.with_(smtp_port=free_port())
    controller = start_listener(config, db)
    answers: list[object] = []
    real = passwords._scrypt_matches

    def meanwhile(password: str, stored: str) -> bool:
        if not answers:  # the first check: another mail arrives now
            try:
                with smtplib.SMTP(config.smtp_host, config.smtp_port, timeout=20) as smtp:
                    answers.append(smtp.sendmail("other@players.test", [config.address],
                                                 _mail("other@players.test", "LIST", 50)))
            except (OSError, smtplib.SMTPException) as exc:
                answers.append(exc)
        return real(password, stored)

    monkeypatch.setattr(passwords, "_scrypt_matches", meanwhile)
    try:
        body = "\n".join(f"SIGNON france@g guess-{n}" for n in range(3))
        assert "wrong power or password" in _process(db, "guesser@players.test", body, 3)
    finally:
        controller.stop()
    assert answers == [{}]  # accepted: no recipient refused


@pytest.mark.slow
def test_a_mail_of_many_joins_hashes_a_bounded_number_of_passwords(
        db: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each password set (JOIN, OBSERVE, CREATE, SET PASSWORD, REPLACE) is
    hashed inside the transaction: a mail may set only so many."""
    _game(db)
    hashed: list[bytes] = []
    real = passwords.hashlib.scrypt

    def counted(password: bytes, **options: Any) -> bytes:
        hashed.append(password)
        return real(password, **options)

    monkeypatch.setattr(passwords.hashlib, "scrypt", counted)
    body = "\n".join(f"OBSERVE g watch-{n}" for n in range(200))
    reply = _process(db, "watcher@players.test", body, 3)
    assert len(hashed) <= LIMITS.signons_per_mail
    assert reply.count(f"a mail may set at most {LIMITS.signons_per_mail} passwords") == \
        200 - LIMITS.signons_per_mail
