"""Mail in through an MTA's pipe (``judge deliver`` in a .forward file, a
procmail recipe, an aliases entry or a Postfix pipe transport).

The MTA reads our exit status as sysexits.h says: 0 is delivered, 75
(EX_TEMPFAIL) keeps the mail queued and retries it, anything else bounces
it to its sender. So we exit 0 only after the commit, 75 whenever storing
failed for a reason that may pass, and a permanent code only for input that
no retry can make acceptable.
"""

from __future__ import annotations

import logging
import sys
from typing import TextIO

from sqlalchemy.engine import Engine

from judge.config import Config
from judge.intake.store import store_inbound

log = logging.getLogger(__name__)

EX_OK = 0
EX_DATAERR = 65  # the input is not a mail we can take: empty or too large
EX_TEMPFAIL = 75  # try again later: the database could not take it now


def _split_from_line(raw: bytes) -> tuple[bytes, str]:
    """procmail and mbox-style pipes put a 'From sender date' line before the
    header; it is not part of the message, but it names the envelope sender."""
    if not raw.startswith(b"From "):
        return raw, ""
    line, _, rest = raw.partition(b"\n")
    words = line.split()
    sender = words[1].decode("utf-8", "replace") if len(words) > 1 else ""
    return rest, sender


def deliver(engine: Engine, raw: bytes, *, envelope_from: str = "",
            max_message_bytes: int = Config().max_message_bytes,
            err: TextIO | None = None) -> int:
    """Store one mail read from an MTA; the process exit status to return.

    - 0 (EX_OK): stored, or already stored before (a duplicate).
    - 65 (EX_DATAERR): empty input, or more than ``max_message_bytes``
      (pass ``config.max_message_bytes``); the MTA bounces it. sysexits has
      no "too large" status; EX_DATAERR ("input data incorrect") is the
      permanent one that fits, and Postfix reports it as 5.6.0.
    - 75 (EX_TEMPFAIL): storing failed (database down, locked, full...); the
      MTA keeps the mail and retries. Exit 75 too if the database cannot be
      opened before this is called.

    ``envelope_from`` is the envelope sender if the MTA tells it (Postfix
    sets $SENDER for pipes); a leading mbox 'From ' line is dropped and
    names it otherwise.

    A one-line reason for a non-zero status goes to ``err`` (stderr by
    default): MTAs quote it in the bounce or the log.
    """
    out = sys.stderr if err is None else err
    raw, from_line_sender = _split_from_line(bytes(raw))
    if not raw:
        print("judge deliver: empty message, nothing stored", file=out)
        return EX_DATAERR
    if len(raw) > max_message_bytes:
        print(f"judge deliver: message of {len(raw)} bytes is larger than the judge's "
              f"limit of {max_message_bytes} bytes", file=out)
        return EX_DATAERR
    try:
        store_inbound(engine, raw, "deliver", envelope_from or from_line_sender)
    except Exception as exc:  # anything at all: the MTA keeps the mail
        log.exception("judge deliver: could not store the mail")
        print(f"judge deliver: temporary failure, try again later "
              f"({type(exc).__name__})", file=out)
        return EX_TEMPFAIL
    return EX_OK
