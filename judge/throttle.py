"""The reply throttle: an address is answered at most ``replies_per_hour``
times an hour, as vacation programs do.

A robot that ignores Auto-Submitted and answers every reply with a mail of
its own would otherwise get a reply to each (25 of 25 in the report that
led here), and the two would write to each other for ever. Past the limit
the mail is still carried out (orders count); only the reply is withheld,
and the log and the audit say so. The counts are rows in the database, so
they hold across restarts and worker processes. The judge's game mail
(results, notices, press) is never throttled: it is not a reply.
"""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import Select, bindparam, func, insert, select, text
from sqlmodel import Session

from judge.db import run
from judge.models import ReplySent, utcnow

HOUR = timedelta(hours=1)
_SENT = ReplySent.__table__  # type: ignore[attr-defined]
_MINE = _SENT.c.address == bindparam("address")
_COUNT = select(func.count()).select_from(_SENT).where(_MINE, _SENT.c.at >= bindparam("since"))
# this address's rows that no count looks at any more
_FORGET = _SENT.delete().where(_MINE, _SENT.c.at < bindparam("since"))
_ADD = insert(_SENT).values(address=bindparam("address"), at=bindparam("now"))
_TURN = text("SELECT pg_advisory_xact_lock(hashtext(:address))")


def _count_and_add() -> Select[tuple[int]]:
    """On PostgreSQL the three steps are one statement, one round trip: the
    hour's replies counted, the older rows dropped, and this reply added if
    it is within the limit (the count is of the rows before the statement)."""
    sent = _COUNT.with_only_columns(func.count().label("n")).cte("sent")
    forgotten = _FORGET.cte("forgotten")
    added = insert(_SENT).from_select(
        ["address", "at"],
        select(bindparam("address", type_=_SENT.c.address.type),
               bindparam("now", type_=_SENT.c.at.type)).where(
            sent.c.n < bindparam("limit"))).cte("added")
    return select(sent.c.n).add_cte(forgotten, added)


_COUNT_AND_ADD = _count_and_add()


def may_reply(session: Session, address: str, per_hour: int) -> bool:
    """Whether one more reply to ``address`` is within the limit; if it is,
    it is counted (in the caller's transaction)."""
    return replies_left(session, address, per_hour) is not None


def replies_left(session: Session, address: str, per_hour: int) -> int | None:
    """None when a reply to ``address`` would pass the limit; otherwise the
    reply is counted (in the caller's transaction) and this says how many
    more the hour allows, so that the last one can tell a person why the
    next mails will go unanswered."""
    now = utcnow()
    where = {"address": address.lower(), "since": now - HOUR, "now": now, "limit": per_hour}
    if session.get_bind().dialect.name == "postgresql":
        # two workers answering one address take turns, so neither counts
        # before the other's reply is in (SQLite's one writer does so anyway)
        run(session, _TURN, where)
        sent = int(run(session, _COUNT_AND_ADD, where).scalar_one())
    else:
        sent = int(run(session, _COUNT, where).scalar_one())
        if sent < per_hour:
            run(session, _FORGET, where)
            run(session, _ADD, where)
    return None if sent >= per_hour else per_hour - sent - 1
