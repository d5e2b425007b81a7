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

from sqlalchemy import func, insert, select, text
from sqlmodel import Session

from judge.db import run
from judge.models import ReplySent, utcnow

HOUR = timedelta(hours=1)
_SENT = ReplySent.__table__  # type: ignore[attr-defined]
_COUNT = select(func.count()).select_from(_SENT)
_TURN = text("SELECT pg_advisory_xact_lock(hashtext(:address))")


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
    address = address.lower()
    if session.get_bind().dialect.name == "postgresql":
        # two workers answering one address take turns, so neither counts
        # before the other's reply is in (SQLite's one writer does so anyway)
        run(session, _TURN, {"address": address})
    sent = run(session, _COUNT.where(_SENT.c.address == address,
                                     _SENT.c.at >= now - HOUR)).scalar_one()
    if sent >= per_hour:
        return None
    # this address's rows that no count looks at any more
    run(session, _SENT.delete().where(_SENT.c.address == address, _SENT.c.at < now - HOUR))
    run(session, insert(_SENT), {"address": address, "at": now})
    return int(per_hour - sent - 1)
