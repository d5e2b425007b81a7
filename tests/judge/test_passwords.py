"""Passwords are kept only as slow salted hashes."""

from __future__ import annotations

import smtplib
from email import message_from_bytes, policy
from email.message import Message
from typing import Any

import pytest
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from judge import passwords
from judge.config import Config, Limits
from judge.db import open_database
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


def _mail(sender: str, body: str, n: int, subject: str = "") -> bytes:
    return (f"From: {sender}\r\nSubject: {subject or f'mail {n}'}\r\n"
            f"Message-ID: <guess-{n}@players.test>\r\n\r\n{body}\r\n").encode()


def _process(db: Engine, sender: str, body: str, n: int, subject: str = "") -> str:
    inbound_id, _ = store_inbound(db, _mail(sender, body, n, subject), "smtp")
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
    with Session(db) as session:
        assert len(session.exec(select(SignonFailure)).all()) == LIMITS.failed_signons_per_hour
    # the guesser's address has used its wrong passwords up: even the right
    # one is refused from it, unchecked
    scrypt_runs.clear()
    reply = _process(db, "guesser@players.test", "SIGNON france@g right-pw", 4)
    assert "this address has given 10 wrong passwords for FRANCE in g" in reply
    assert scrypt_runs == []
    # France's player is not shut out by the guesser
    reply = _process(db, "france@players.test", "SIGNON france@g right-pw", 5)
    assert "Signed on as FRANCE in g" in reply
    reply = _process(db, "gm@players.test", "SIGNON master@g gm-pw", 6)
    assert "Signed on as the Game Master of g" in reply


@pytest.mark.slow
def test_wrong_passwords_of_many_mails_are_counted_per_address(
        db: Engine, scrypt_runs: list[str]) -> None:
    _game(db)
    for n in range(LIMITS.failed_signons_per_hour):
        assert "wrong power or password" in _process(
            db, "guesser@players.test", f"SIGNON france@g guess-{n}", 10 + n)
    scrypt_runs.clear()
    reply = _process(db, "guesser@players.test", "SIGNON france@g guess-x", 99)
    assert "not tried, even with the right password" in reply and scrypt_runs == []


@pytest.mark.postgres
def test_the_counts_outlive_the_judge_and_are_shared_by_a_second_one(db_url: str) -> None:
    """Wrong passwords are rows in the database: a judge started again, and
    a second judge on the same database, refuse the guesser as the first did."""
    first = open_database(db_url)
    _game(first)
    body = "\n".join(f"SIGNON france@g guess-{n}" for n in range(LIMITS.signons_per_mail))
    _process(first, "guesser@players.test", body, 3)
    second = open_database(db_url)  # while the first still runs
    assert "not tried, even with the right password" in _process(
        second, "guesser@players.test", "SIGNON france@g right-pw", 4)
    first.dispose()
    second.dispose()
    restarted = open_database(db_url)
    assert "not tried, even with the right password" in _process(
        restarted, "guesser@players.test", "SIGNON france@g right-pw", 5)
    assert "Signed on as FRANCE in g" in _process(
        restarted, "france@players.test", "SIGNON france@g right-pw", 6)
    restarted.dispose()


def _sent_to(db: Engine, address: str, subject: str) -> list[Message]:
    """The mails to ``address`` whose subject holds ``subject``."""
    with Session(db) as session:
        rows = session.exec(select(Outbox).order_by(col(Outbox.id))).all()
    found = [message_from_bytes(row.raw, policy=policy.default) for row in rows
             if address in row.recipients]
    return [m for m in found if subject in str(m["Subject"])]


@pytest.mark.slow
def test_a_guesser_forging_the_players_address_cannot_keep_the_player_out(db: Engine) -> None:
    """The From line is forgeable: a guesser writing as France's player uses
    up the player's own address. The judge mails that address a key, once an
    hour; a mail that answers it (the key in its subject) is heard from any
    address. Without the key, the forged address stays refused."""
    _game(db)
    body = "\n".join(f"SIGNON france@g guess-{n}" for n in range(LIMITS.signons_per_mail))
    _process(db, "france@players.test", body, 3)  # forged: the guesser's
    assert _sent_to(db, "france@players.test", "sign-on key") == []  # none used up yet
    reply = _process(db, "france@players.test", "SIGNON france@g right-pw", 4)
    assert "someone is guessing your password in mails that claim to come from you" in reply
    assert 'mailed this address a key to sign on with meanwhile (subject "Diplomacy ' \
           'sign-on key g FRANCE [...]")' in reply
    _process(db, "france@players.test", "SIGNON france@g right-pw", 5)
    keys = _sent_to(db, "france@players.test", "Diplomacy sign-on key g FRANCE [")
    assert len(keys) == 1  # once an hour
    subject = str(keys[0]["Subject"])
    key = subject[subject.index("[") + 1:subject.index("]")]
    text = keys[0].get_body(("plain",)).get_content()  # type: ignore[union-attr]
    assert f"the key in it, {key}, has your SIGNON tried, from any address" in text
    assert "The Game Master has been warned that FRANCE is being guessed at." in text
    # the guesser cannot forge what it never saw
    assert "not tried, even with the right password" in _process(
        db, "france@players.test", "SIGNON france@g right-pw", 6,
        subject="Re: Diplomacy sign-on key g FRANCE [AAAA-BBBB-CCCC-DDDD]")
    # the key is France's in g, not the GM's, whose address is used up as well
    _process(db, "gm@players.test", body.replace("france@", "master@"), 7)
    assert "not tried, even with the right password" in _process(
        db, "gm@players.test", "SIGNON master@g gm-pw", 7_1, subject=f"Re: {subject}")
    # the player answers the key mail, even from another address
    assert "Signed on as FRANCE in g" in _process(
        db, "france.home@players.test", "SIGNON france@g right-pw", 8, subject=f"Re: {subject}")
    # a wrong password with the key counts for the key, up to its limit
    wrong = "\n".join(f"SIGNON france@g nope-{n}" for n in range(LIMITS.signons_per_mail))
    _process(db, "france@players.test", wrong, 9, subject=f"Re: {subject}")
    assert "the sign-on key for FRANCE in g has been used with 10 wrong passwords" in _process(
        db, "france@players.test", "SIGNON france@g right-pw", 10, subject=f"Re: {subject}")


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
