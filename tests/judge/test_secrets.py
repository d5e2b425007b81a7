"""Passwords never stay in the database: after a game's mails are processed,
no column of any table holds any of its passwords, however a player wrote
them (tests/judge/data/secrets.toml), in the stored mails, the audit log,
the replies or anywhere else."""

from __future__ import annotations

import email
import tomllib
from datetime import timedelta
from email import policy
from email.message import EmailMessage
from pathlib import Path
from string import Template
from typing import Any

import pytest
from sqlalchemy import MetaData
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from judge import processing
from judge.config import Config
from judge.intake.store import store_inbound
from judge.models import InboundMail, utcnow
from judge.processing import process_mail
from judge.retention import forget_old_mail

pytestmark = pytest.mark.slow

DATA = tomllib.loads((Path(__file__).parent / "data" / "secrets.toml").read_text("utf-8"))
CONFIG = Config(name="TESTJUDGE", address="judge@judge.test")
PASSWORDS: dict[str, str] = DATA["passwords"]
SECRETS = [DATA["master"], *PASSWORDS.values()]


def _mail(sender: str, body: str, n: int, subject: str = "orders", mime: str = "") -> bytes:
    msg = EmailMessage(policy=policy.SMTP)
    msg["From"] = sender
    msg["To"] = CONFIG.address
    msg["Subject"] = subject
    msg["Message-ID"] = f"<secret-{n}@players.test>"
    if mime == "html":
        msg.set_content(body, subtype="html")
    elif mime in ("base64", "quoted-printable"):
        msg.set_content(body, cte=mime)
    else:
        msg.set_content(body)
    if mime == "attachment":
        msg.add_attachment(body.encode(), maintype="application", subtype="octet-stream",
                           filename="orders.txt")
    return msg.as_bytes()


def _fill(text: str) -> str:
    return Template(text).substitute(pw=PASSWORDS["france"], gm=DATA["master"])


def _mails() -> list[bytes]:
    mails = [_mail("gm@players.test", _fill(DATA["create"]), 0)]
    mails += [_mail(f"{power}@players.test", f"JOIN {power}@g {password}", n)
              for n, (power, password) in enumerate(PASSWORDS.items(), 1)]
    for n, spelling in enumerate(DATA["spelling"], 100):
        mails.append(_mail("france@players.test", _fill(spelling["body"]), n,
                           _fill(spelling.get("subject", "orders")), spelling.get("mime", "")))
    return mails


def _texts(value: Any) -> list[str]:
    """A column's value as every text a reader could get from it: the value
    itself, and for bytes each part of it decoded as mail would be."""
    if not isinstance(value, bytes):
        return [str(value)]
    texts = [value.decode("utf-8", "replace")]
    for part in email.message_from_bytes(value, policy=policy.compat32).walk():
        payload = part.get_payload(decode=True)
        if isinstance(payload, bytes):
            texts.append(payload.decode("utf-8", "replace"))
    return texts


def _found(db: Engine) -> list[str]:
    tables = MetaData()
    tables.reflect(db)
    found = []
    with db.connect() as conn:
        for table in tables.sorted_tables:
            for row in conn.execute(select(table)):
                for column, value in row._mapping.items():
                    for text in _texts(value):
                        found += [f"{table.name}.{column}: {secret}" for secret in SECRETS
                                  if secret in text]
    return sorted(set(found))


def test_no_table_holds_a_password_after_processing(db: Engine) -> None:
    for raw in _mails():
        inbound_id, new = store_inbound(db, raw, "smtp")
        assert new
        assert process_mail(db, CONFIG, inbound_id) == "done"
    assert _found(db) == []


def test_a_redelivered_copy_is_still_recognised_after_redaction(db: Engine) -> None:
    raw = _mail("gm@players.test", _fill(DATA["create"]), 0)
    inbound_id, _ = store_inbound(db, raw, "smtp")
    process_mail(db, CONFIG, inbound_id)
    assert store_inbound(db, raw, "smtp") == (inbound_id, False)


@pytest.mark.parametrize("spelling", DATA["spelling"], ids=[s["name"] for s in DATA["spelling"]])
def test_each_spelling_is_masked(db: Engine, spelling: dict[str, Any]) -> None:
    raw = _mail("france@players.test", _fill(spelling["body"]), 1,
                _fill(spelling.get("subject", "orders")), spelling.get("mime", ""))
    inbound_id, _ = store_inbound(db, raw, "smtp")
    assert process_mail(db, CONFIG, inbound_id) == "done"
    assert _found(db) == []


def test_processed_mail_is_forgotten_after_the_retention_period(db: Engine) -> None:
    """After keep_mail_days even the redacted copy goes; the row stays (the
    audit refers to it) and a late copy of the mail is still known. Mail
    not yet processed is never touched."""
    raw = _mail("gm@players.test", _fill(DATA["create"]), 0)
    done, _ = store_inbound(db, raw, "smtp")
    process_mail(db, CONFIG, done)
    waiting, _ = store_inbound(db, _mail("a@players.test", "LIST", 1), "smtp")
    days = CONFIG.limits.keep_mail_days
    assert forget_old_mail(db, days) == 0  # processed just now: kept
    later = utcnow() + timedelta(days=days, hours=1)
    assert forget_old_mail(db, days, now=later) == 1
    with Session(db) as session:
        kept = {row.id: row.raw for row in session.exec(select(InboundMail)).all()}
    assert kept[done] == b"" and kept[waiting] != b""
    assert store_inbound(db, raw, "smtp") == (done, False)


def test_a_mail_that_failed_keeps_no_password_either(
        db: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: Any, **kwargs: Any) -> str:
        raise RuntimeError("a bug in the judge")

    raw = _mail("france@players.test", "SIGNON france@g " + PASSWORDS["france"], 1)
    inbound_id, _ = store_inbound(db, raw, "smtp")
    monkeypatch.setattr(processing, "_process", broken)
    assert process_mail(db, CONFIG, inbound_id) == "failed"
    assert _found(db) == []
