"""Delivery through an MTA pipe: the exit status the MTA acts on."""

from __future__ import annotations

import io

import pytest
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from judge.db import make_engine
from judge.intake.deliver import EX_DATAERR, EX_OK, EX_TEMPFAIL, deliver
from judge.models import InboundMail
from tests.judge.intake.mails import hostile_messages, load_mail
from tests.loopback import free_port

pytestmark = pytest.mark.postgres


def _rows(engine: Engine) -> list[InboundMail]:
    with Session(engine) as session:
        return list(session.exec(select(InboundMail).order_by(col(InboundMail.id))).all())


def test_stored_mail_exits_0(db: Engine) -> None:
    raw = load_mail("orders.eml")
    err = io.StringIO()
    assert deliver(db, raw, err=err) == EX_OK == 0
    [row] = _rows(db)
    assert row.raw == raw and row.source == "deliver" and err.getvalue() == ""


def test_duplicate_exits_0_and_stays_one_row(db: Engine) -> None:
    assert deliver(db, load_mail("orders.eml")) == 0
    assert deliver(db, load_mail("orders_relayed.eml")) == 0
    assert len(_rows(db)) == 1


def test_empty_input_exits_65(db: Engine) -> None:
    err = io.StringIO()
    assert deliver(db, b"", err=err) == EX_DATAERR == 65
    assert "empty" in err.getvalue() and _rows(db) == []


def test_oversize_input_exits_65(db: Engine) -> None:
    raw = load_mail("orders.eml")
    err = io.StringIO()
    assert deliver(db, raw, max_message_bytes=len(raw) - 1, err=err) == EX_DATAERR
    assert "larger" in err.getvalue() and _rows(db) == []
    assert deliver(db, raw, max_message_bytes=len(raw)) == EX_OK


def test_database_failure_exits_75(db: Engine) -> None:
    with db.begin() as conn:
        conn.exec_driver_sql("ALTER TABLE inbound_mail RENAME TO inbound_mail_away")
    err = io.StringIO()
    assert deliver(db, load_mail("orders.eml"), err=err) == EX_TEMPFAIL == 75
    assert "temporary failure" in err.getvalue()


def test_unreachable_database_exits_75() -> None:
    engine = make_engine(f"postgresql://root@127.0.0.1:{free_port()}/test")
    try:
        assert deliver(engine, load_mail("orders.eml"), err=io.StringIO()) == EX_TEMPFAIL
    finally:
        engine.dispose()


def test_mbox_from_line_is_dropped_and_names_the_sender(db: Engine) -> None:
    raw = load_mail("orders.eml")
    assert deliver(db, b"From anna@example.org  Fri Nov 21 09:14:05 2025\n" + raw) == 0
    [row] = _rows(db)
    assert row.raw == raw and row.envelope_from == "anna@example.org"
    assert deliver(db, raw, envelope_from="other@example.org") == 0  # the same mail
    assert len(_rows(db)) == 1


def test_a_from_line_alone_is_empty(db: Engine) -> None:
    assert deliver(db, b"From anna@example.org  Fri Nov 21 09:14:05 2025\n",
                   err=io.StringIO()) == EX_DATAERR


def test_hostile_mails_exit_0(db: Engine) -> None:
    mails = hostile_messages()
    assert [deliver(db, raw) for raw in mails.values()] == [0] * len(mails)
    assert len(_rows(db)) == len(mails)
