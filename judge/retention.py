"""How long processed mail is kept: ``keep_mail_days`` ([limits]), after
which even its redacted copy is deleted.

The row itself stays (with its content hash, status and note): the audit
log refers to it, and a very late copy of the same mail is still known.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from sqlalchemy import func, update
from sqlalchemy.engine import Engine

from judge.db import run, transaction
from judge.models import InboundMail, utcnow

log = logging.getLogger(__name__)

_INBOUND = InboundMail.__table__  # type: ignore[attr-defined]


def forget_old_mail(engine: Engine, days: int, now: datetime | None = None) -> int:
    """Delete the stored text of mail processed more than ``days`` ago; how many."""
    cutoff = (now or utcnow()) - timedelta(days=days)
    with transaction(engine) as session:
        forgotten = run(session, update(_INBOUND).where(
            _INBOUND.c.status != "new", _INBOUND.c.processed_at < cutoff,
            func.length(_INBOUND.c.raw) > 0).values(raw=b"")).rowcount
    if forgotten:
        log.info("retention: the text of %d mails processed before %s deleted",
                 forgotten, cutoff.strftime("%Y-%m-%d"))
    return int(forgotten)
