"""The mails a test's judge has queued, read back from the outbox."""

from __future__ import annotations

import json
from email import message_from_bytes, policy
from email.message import EmailMessage

from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from judge.models import Outbox


def queued(db: Engine, subject_start: str) -> list[tuple[list[str], EmailMessage]]:
    """Each queued mail whose subject starts so, oldest first: its
    recipients and its message."""
    with Session(db) as session:
        rows = session.exec(select(Outbox).order_by(Outbox.id)).all()  # type: ignore[arg-type]
    found = []
    for row in rows:
        message = message_from_bytes(row.raw, policy=policy.default)
        if str(message["Subject"]).startswith(subject_start):
            found.append((json.loads(row.recipients), message))
    return found
