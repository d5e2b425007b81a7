"""What one order mail asks of the database, pinned: its statements and, on
PostgreSQL, its round trips to the server (BEGIN, COMMIT, ROLLBACK,
DEALLOCATE and pings included), counted by bench/round_trips.py. Each
round trip waits for the server, which on a busy machine costs more than
the statement itself (issue 26: 30 round trips a mail once). A change that
adds one fails here; one that saves one updates the figure."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from types import ModuleType

import pytest

from judge.config import Config
from judge.db import make_engine, migrate
from judge.intake.store import store_inbound
from judge.models import Outbox
from judge.processing import process_mail
from tests.judge.test_commands_by_mail import PRELUDES, _raw

pytestmark = [pytest.mark.postgres, pytest.mark.slow]

BENCH = Path(__file__).resolve().parents[2] / "bench"
CONFIG = Config(address="judge@judge.test")  # the judge's own limits: the throttle counts
ORDERS = "SIGNON france@g pw-france\nSET WAIT\nA PAR - {}\nA MAR - SPA\nF BRE - MAO\nSIGNOFF"

# (statements, round trips) of a warm order mail: signed on, SET WAIT, three
# orders (not those on file), a reply
EXPECTED = {"sqlite": (15, None), "postgresql": (13, 15)}


def round_trips_module() -> ModuleType:
    """bench/round_trips.py (the bench's profile counts with it too)."""
    if str(BENCH) not in sys.path:
        sys.path.append(str(BENCH))  # last: its module names must shadow nothing
    return importlib.import_module("round_trips")


def test_an_order_mail_asks_the_database_no_more_than_it_did(db_url: str) -> None:
    engine = make_engine(db_url)
    counter = round_trips_module().Counter(engine)  # before the first connection
    migrate(engine)
    mails = [(m["from"], m["body"].replace("$settings", "")) for m in PRELUDES["seven"]["mail"]]
    # the first mails pay for what later ones find ready: the first SET WAIT
    # is a change, the password is hashed once, and psycopg prepares a
    # statement (a round trip of its own) at its fifth use
    mails += [("france@players.test", ORDERS.format(to)) for to in ["BUR", "PIC", "GAS"] * 3]
    counts = []
    for number, (sender, body) in enumerate(mails, start=1):
        inbound_id, _ = store_inbound(engine, _raw(sender, "orders", body, number), "smtp")
        with counter.during() as count:
            assert process_mail(engine, CONFIG, inbound_id) == "done"
        counts.append(count[0])
    with engine.connect() as conn:
        reply = conn.execute(Outbox.__table__.select().order_by(  # type: ignore[attr-defined]
            Outbox.id.desc()).limit(1)).one()  # type: ignore[union-attr]
    engine.dispose()
    assert b"Signed on as FRANCE" in reply.raw and b"ERROR" not in reply.raw
    last = counts[-1]
    found = (len(last.statements), last.round_trips)
    assert found == EXPECTED[engine.dialect.name], "\n".join(last.statements)
    # every warm mail costs the same
    assert {(len(c.statements), c.round_trips) for c in counts[-3:]} == {found}
