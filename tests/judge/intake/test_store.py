"""The inbound store: fingerprints, deduplication, races, hostile input."""

from __future__ import annotations

import gc
import threading
import tracemalloc
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from judge.intake.store import fingerprint, pending_ids, store_inbound, store_many
from judge.models import InboundMail
from tests.examples import examples
from tests.judge.intake.mails import fingerprint_cases, hostile_messages, load_mail

pytestmark = pytest.mark.postgres

CASES = fingerprint_cases()


def _rows(engine: Engine) -> list[InboundMail]:
    with Session(engine) as session:
        return list(session.exec(select(InboundMail).order_by(col(InboundMail.id))).all())


def _sides(case: dict[str, Any]) -> tuple[bytes, bytes]:
    return (load_mail(case["a"]),
            load_mail(case["b"], crlf=case.get("crlf", False), suffix=case.get("b_suffix", "")))


@pytest.mark.parametrize("case", CASES["same"], ids=[c["why"] for c in CASES["same"]])
def test_copies_of_one_mail_hash_alike(case: dict[str, Any]) -> None:
    a, b = _sides(case)
    assert a != b or not case.get("crlf")
    assert fingerprint(a) == fingerprint(b)


@pytest.mark.parametrize("case", CASES["different"], ids=[c["why"] for c in CASES["different"]])
def test_different_mails_hash_apart(case: dict[str, Any]) -> None:
    a, b = _sides(case)
    assert fingerprint(a)[1] != fingerprint(b)[1]


@pytest.mark.parametrize("case", CASES["message_id"], ids=[c["file"] for c in CASES["message_id"]])
def test_message_id(case: dict[str, Any]) -> None:
    assert fingerprint(load_mail(case["file"]))[0] == case["expected"]


@pytest.mark.parametrize("case", CASES["hash"], ids=[c["file"] for c in CASES["hash"]])
def test_hash_is_what_earlier_judges_stored(case: dict[str, Any]) -> None:
    raw = load_mail(case["file"], crlf=case.get("crlf", False), suffix=case.get("suffix", ""))
    assert fingerprint(raw)[1] == case["expected"]


def test_a_big_mail_is_hashed_in_one_copy_of_it() -> None:
    """The listener hashes each mail while holding it: for 20 MB, about
    20 MB more at the peak (its LF copy), not a copy per step."""
    raw = load_mail("orders.eml", crlf=True) + b"QmlnIG1haWw=" * 64 * 27_000 + b"\r\n"
    tracemalloc.start()
    try:
        fingerprint(raw)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 1.2 * len(raw), f"{peak / len(raw):.1f} times the mail's size"


def test_a_stored_mail_is_not_kept_in_memory(db: Engine) -> None:
    """Once stored, a mail's text is the database's alone: nothing of the
    store keeps it in the process. SQLAlchemy's statement cache kept the
    first mail stored, whose insert it compiled: here, a big one."""
    tracemalloc.start()
    try:
        store_inbound(db, load_mail("press.eml") + b"QmlnIG1haWw=\r\n" * 300_000, "smtp")
        gc.collect()
        kept = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert kept < 2**20, f"{kept} bytes kept"


@given(st.binary(max_size=4000))
@settings(max_examples=examples(300), deadline=None)
def test_fingerprint_never_raises(raw: bytes) -> None:
    message_id, content_hash = fingerprint(raw)
    assert len(content_hash) == 64
    assert len(message_id) <= 998 and "\x00" not in message_id


@given(st.lists(st.sampled_from([
    b"Received: from x by y; Fri, 21 Nov 2025 09:14:05 +0100\n",
    b"Received: from a\n\tby b with ESMTP\n",
    b"Return-Path: <bounce@example.org>\n",
    b"Delivered-To: judge@example.net\n",
    b"X-Envelope-To: judge@example.net\n",
    b"DKIM-Signature: v=1; d=example.org;\n b=abc\n",
    b"Authentication-Results: mx; spf=pass\n",
]), max_size=6))
@settings(max_examples=examples(100), deadline=None)
def test_any_trace_fields_on_top_keep_the_hash(trace: list[bytes]) -> None:
    raw = load_mail("orders.eml")
    assert fingerprint(b"".join(trace) + raw) == fingerprint(raw)


def test_same_mail_twice_is_one_row(db: Engine) -> None:
    raw = load_mail("orders.eml")
    first = store_inbound(db, raw, "smtp", "anna@example.org")
    second = store_inbound(db, raw, "imap")
    assert first[1] is True and second == (first[0], False)
    [row] = _rows(db)
    assert row.raw == raw and row.status == "new" and row.source == "smtp"
    assert row.envelope_from == "anna@example.org"
    assert row.message_id == "<20251121091402.4411@mail.example.org>"


def test_relayed_copy_is_the_same_mail(db: Engine) -> None:
    mail_id, new = store_inbound(db, load_mail("orders.eml"), "imap")
    assert store_inbound(db, load_mail("orders_relayed.eml", crlf=True), "smtp") == (mail_id,
                                                                                      False)
    assert new and len(_rows(db)) == 1


def test_different_mails_are_two_rows_in_arrival_order(db: Engine) -> None:
    first, _ = store_inbound(db, load_mail("orders.eml"), "smtp")
    second, new = store_inbound(db, load_mail("orders_new_id.eml"), "smtp")
    assert new and first != second
    assert pending_ids(db) == [first, second]


def test_a_group_with_copies_stores_each_mail_once(db: Engine) -> None:
    orders, press = load_mail("orders.eml"), load_mail("press.eml")
    [(first, new)] = store_many(db, [(orders, "smtp", "")])
    assert new
    stored = store_many(db, [(press, "smtp", ""), (orders, "imap", ""), (press, "smtp", "")])
    assert stored[1] == (first, False)
    assert stored[0][1] and stored[2] == (stored[0][0], False)
    with Session(db) as session:
        assert len(session.exec(select(InboundMail)).all()) == 2


def test_pending_ids_leaves_out_processed_mail(db: Engine) -> None:
    ids = [store_inbound(db, load_mail(name), "smtp")[0]
           for name in ("orders.eml", "press.eml", "no_message_id.eml")]
    with Session(db) as session:
        row = session.get(InboundMail, ids[1])
        assert row is not None
        row.status = "done"
        session.add(row)
        session.commit()
    assert pending_ids(db) == [ids[0], ids[2]]


def test_threads_storing_one_mail_together_make_one_row(db: Engine) -> None:
    mails = [load_mail("orders.eml", suffix=f"round {i}\n") for i in range(10)]
    threads_per_mail = 4
    results: list[tuple[int, bool]] = []
    errors: list[BaseException] = []
    lock = threading.Lock()
    barrier = threading.Barrier(threads_per_mail)

    def store(raw: bytes) -> None:
        try:
            barrier.wait(timeout=30)
            outcome = store_inbound(db, raw, "smtp")
            with lock:
                results.append(outcome)
        except BaseException as exc:  # reported below, not lost in the thread
            errors.append(exc)

    for raw in mails:
        threads = [threading.Thread(target=store, args=(raw,)) for _ in range(threads_per_mail)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
    assert not errors
    rows = _rows(db)
    assert len(rows) == len(mails)
    by_id = {row.id: [new for mail_id, new in results if mail_id == row.id] for row in rows}
    assert all(sorted(news) == [False] * (threads_per_mail - 1) + [True]
               for news in by_id.values())


def test_insert_that_loses_the_race_returns_the_winner(db: Engine) -> None:
    """A writer that looked, found nothing, and then meets the other writer's
    row on insert (IntegrityError) answers with that row."""
    raw = load_mail("press.eml")
    message_id, content_hash = fingerprint(raw)
    inserting = threading.Event()
    outcome: list[tuple[int, bool]] = []
    errors: list[BaseException] = []
    loser: list[int] = []

    @event.listens_for(db, "before_cursor_execute")
    def _watch(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        # the loser's write begins: its INSERT, or on SQLite the BEGIN
        # IMMEDIATE that waits for the winner's write lock before it
        if threading.get_ident() in loser and \
                statement.lstrip().upper().startswith(("INSERT", "BEGIN IMMEDIATE")):
            inserting.set()

    def race() -> None:
        loser.append(threading.get_ident())
        try:
            outcome.append(store_inbound(db, raw, "smtp"))
        except BaseException as exc:
            errors.append(exc)

    with Session(db, expire_on_commit=False) as winner:
        row = InboundMail(message_id=message_id, content_hash=content_hash, raw=raw,
                          source="imap")
        winner.add(row)
        winner.flush()  # inserted, not committed: the other writer cannot see it yet
        thread = threading.Thread(target=race)
        thread.start()
        assert inserting.wait(30), "the second writer never tried its insert"
        winner.commit()
    thread.join(60)
    event.remove(db, "before_cursor_execute", _watch)
    assert not errors
    assert outcome == [(row.id, False)]
    assert len(_rows(db)) == 1


@pytest.mark.parametrize("name", list(hostile_messages()))
def test_hostile_mail_is_stored_as_it_came(db: Engine, name: str) -> None:
    raw = hostile_messages()[name]
    mail_id, new = store_inbound(db, raw, "smtp", "\x00evil\xff@example.org" + "x" * 2000)
    assert new
    [row] = _rows(db)
    assert row.id == mail_id and row.raw == raw
    assert store_inbound(db, raw, "smtp") == (mail_id, False)


def test_empty_mail_is_stored_once(db: Engine) -> None:
    mail_id, new = store_inbound(db, b"", "smtp")
    assert new and store_inbound(db, b"", "smtp") == (mail_id, False)


def test_database_errors_propagate(db: Engine) -> None:
    with db.begin() as conn:
        conn.exec_driver_sql("ALTER TABLE inbound_mail RENAME TO inbound_mail_away")
    with pytest.raises(Exception, match="inbound_mail"):
        store_inbound(db, load_mail("orders.eml"), "smtp")
