"""Processing stored mail: bad input gets a clear reply (automatic mail
none), nothing crashes, the password is never repeated, and a mail is
processed once."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from judge.config import Config
from judge.intake.store import store_inbound
from judge.models import AuditEntry, InboundMail, Outbox
from judge.processing import process_mail

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


def test_processed_once(db: Engine) -> None:
    inbound_id, _ = store_inbound(db, b"From: a@players.test\r\nSubject: x\r\n\r\nLIST\r\n", "smtp")
    assert process_mail(db, CONFIG, inbound_id) == "done"
    assert process_mail(db, CONFIG, inbound_id) == "done"  # already done: nothing again
    assert len(_replies(db)) == 1
    with Session(db) as session:
        row = session.get(InboundMail, inbound_id)
        assert row is not None and row.status == "done"
