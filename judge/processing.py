"""Processing one stored mail: its text read, its commands carried out in
order, one reply listing what happened to each, all in one transaction.

If the judge stops half way, the transaction is rolled back and the mail
is still 'new': it is processed again, from the start, when the judge
starts. Automatic mail (bounces, auto-replies, bulk) is marked 'ignored'
and never answered, so two robots can never feed each other.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import bindparam, insert, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DBAPIError, OperationalError
from sqlmodel import Session

from judge import games, signons
from judge.config import Config
from judge.db import reading, run, transaction
from judge.games import GameError, settings_of
from judge.handlers import Context, finish_mail, handle
from judge.intake.redacted import redacted_copy
from judge.mail import in_own_zone, render, reply_subject
from judge.mailtext import MailText, read_mail
from judge.models import AuditEntry, InboundMail, as_utc, utcnow
from judge.outbox import OutgoingMail, is_own_address, queue
from judge.signons import Verdict
from judge.throttle import may_reply, replies_left
from parser.commands import (
    CommandError,
    Create,
    Join,
    Line,
    Observe,
    Orders,
    Replace,
    SetPassword,
    masker,
    parse_commands,
    redacted_source,
    secret_words,
)

log = logging.getLogger(__name__)


# Errors after which the same work, tried again, will very likely succeed:
# PostgreSQL's deadlock and serialization failures (two workers locking the
# same games in a different order), SQLite's lock wait running out, and a
# connection the server closed (a restart: judge.db pings only connections
# that lay unused a while, and the pool has dropped the others since).
_TRANSIENT_PGCODES = frozenset({"40P01", "40001"})
ATTEMPTS = 5


def _transient(exc: Exception) -> bool:
    if isinstance(exc, DBAPIError) and exc.connection_invalidated:
        return True
    if not isinstance(exc, OperationalError):
        return False
    code = getattr(exc.orig, "sqlstate", None) or getattr(exc.orig, "pgcode", None)
    return code in _TRANSIENT_PGCODES or "database is locked" in str(exc.orig)


# The statements of every mail, built once: an order mail is read, locked
# and marked done as plain rows, without the ORM's bookkeeping.
_INBOUND = InboundMail.__table__  # type: ignore[attr-defined]
_READ_MAILS = select(_INBOUND.c.id, _INBOUND.c.status, _INBOUND.c.raw,
                     _INBOUND.c.envelope_from).where(
    _INBOUND.c.id.in_(bindparam("ids", expanding=True)))
_LOCK_MAIL = select(_INBOUND.c.status, _INBOUND.c.received_at).where(
    _INBOUND.c.id == bindparam("id")).with_for_update()
# the raw mail is replaced by its redacted copy as the mail is marked done
_MARK_MAIL = update(_INBOUND).where(_INBOUND.c.id == bindparam("mail")).values(
    status=bindparam("status"), processed_at=bindparam("at"), note=bindparam("why"),
    raw=bindparam("raw"))
_AUDIT = insert(AuditEntry.__table__)  # type: ignore[attr-defined]


@dataclass(frozen=True)
class _Stored:
    """What processing needs of the stored mail's row."""
    id: int
    received_at: datetime


def process_mail(engine: Engine, config: Config, inbound_id: int,
                 now: datetime | None = None) -> str:
    """Process a stored mail; returns its new status (done, ignored, failed)."""
    for attempt in range(1, ATTEMPTS + 1):
        try:
            # Reading the mail and its commands needs no lock: the stored mail
            # never changes. Done first, it keeps the transaction (and on
            # SQLite the database's one write lock) short.
            found = _read(engine, config, [inbound_id], now)[inbound_id]
            if isinstance(found, str):
                return found
            with transaction(engine) as session:
                games.lock_games(session, _games_named([found]))
                return _process_locked(session, config, inbound_id, found, now)
        except Exception as exc:
            if _transient(exc) and attempt < ATTEMPTS:
                log.info("mail %d: %s; trying again", inbound_id, exc.__class__.__name__)
                time.sleep(0.05 * attempt)
                continue
            # A bug must not stop the judge or lose the mail.
            log.exception("mail %d could not be processed", inbound_id)
            break
    return fail_mail(engine, config, inbound_id)


def process_mails(engine: Engine, config: Config, inbound_ids: Sequence[int],
                  now: datetime | None = None) -> dict[int, str]:
    """Process several stored mails, in order, in one transaction: under a
    burst this pays the write lock, the commit and its wait for the disk once
    for all of them. Each mail is still carried out as if alone (its own
    context and reply), and later mails see what earlier ones changed. If
    anything goes wrong, nothing of the batch is kept and each mail is
    processed again on its own, so one bad mail cannot harm the others."""
    if len(inbound_ids) == 1:
        return {inbound_ids[0]: process_mail(engine, config, inbound_ids[0], now)}
    try:
        read = _read(engine, config, inbound_ids, now)
        statuses = {i: r for i, r in read.items() if isinstance(r, str)}
        with transaction(engine) as session:
            games.lock_games(session, _games_named(
                [r for r in read.values() if not isinstance(r, str)]))
            for inbound_id in inbound_ids:
                found = read[inbound_id]
                if not isinstance(found, str):
                    statuses[inbound_id] = _process_locked(session, config, inbound_id,
                                                           found, now)
        return statuses
    except Exception as exc:
        level = logging.INFO if _transient(exc) else logging.WARNING
        log.log(level, "a batch of %d mails failed (%s); each again on its own",
                len(inbound_ids), exc.__class__.__name__)
        return {i: process_mail(engine, config, i, now) for i in inbound_ids}


@dataclass(frozen=True)
class _Read:
    """A stored mail as read before its transaction: its text, its
    commands, the words in it that are passwords, and the copy of it to keep."""
    mail: MailText
    lines: list[Line]
    secrets: frozenset[str]
    kept: bytes
    signons: tuple[Verdict, ...]  # its SIGNONs' passwords, checked
    hide: Callable[[str], str]  # a text with this mail's passwords masked


def _read(engine: Engine, config: Config, inbound_ids: Sequence[int],
          now: datetime | None) -> dict[int, _Read | str]:
    """Each new mail's text and commands, or the status of one that is not
    new (or 'missing'). SIGNON passwords are checked here, outside the
    transaction: scrypt must never hold the write lock."""
    found: dict[int, _Read | str] = {}
    with reading(engine) as reader:
        rows = {row.id: row for row in run(reader, _READ_MAILS, {"ids": list(inbound_ids)})}
        for inbound_id in inbound_ids:
            stored = rows.get(inbound_id)
            if stored is None or stored.status != "new":
                found[inbound_id] = stored.status if stored is not None else "missing"
                continue
            mail = read_mail(stored.raw, envelope_from=stored.envelope_from)
            secrets = secret_words(mail.body)
            lines = _commands(mail) if mail.sender and not mail.automatic else []
            verdicts = signons.verify(engine, reader, config,
                                      signons.Sender(mail.sender, mail.subject), lines, now)
            found[inbound_id] = _Read(mail, lines, secrets,
                                      redacted_copy(stored.raw, mail.subject, mail.body,
                                                    secrets),
                                      tuple(verdicts), masker(secrets))
    return found


def _games_named(reads: Sequence[_Read]) -> set[str]:
    """The games the mails' commands name (SIGNON, JOIN...), which their
    transaction will lock."""
    return {name.lower() for read in reads for line in read.lines
            if isinstance(name := getattr(line.command, "game", None), str) and name}


# what a mail program's List-Unsubscribe sends when it fills in only the subject
_UNSUBSCRIBE_SUBJECT = re.compile(r"\s*unsubscribe\s+\S+\s*", re.IGNORECASE)


def _commands(mail: MailText) -> list[Line]:
    lines = parse_commands(mail.body)
    if not lines and _UNSUBSCRIBE_SUBJECT.fullmatch(mail.subject):
        return parse_commands(mail.subject.strip())
    return lines


def _process_locked(session: Session, config: Config, inbound_id: int, read: _Read,
                    now: datetime | None) -> str:
    """Carry out a mail read before, once its row is locked and still new."""
    locked = run(session, _LOCK_MAIL, {"id": inbound_id}).first()
    if locked is None or locked.status != "new":
        return str(locked.status) if locked is not None else "missing"
    row = _Stored(inbound_id, as_utc(locked.received_at))
    status, note = _process(session, config, row, read, now or utcnow())
    run(session, _MARK_MAIL, {"mail": inbound_id, "status": status, "at": utcnow(),
                              "why": note, "raw": read.kept})
    return status


def fail_mail(engine: Engine, config: Config, inbound_id: int) -> str:
    """Set aside a mail whose processing failed: it is marked 'failed' (the
    raw mail stays stored) and its sender is told that nothing was done."""
    with transaction(engine) as session:
        row = session.get(InboundMail, inbound_id)
        if row is None or row.status != "new":
            return "failed"
        row.status = "failed"
        row.processed_at = utcnow()
        row.note = "internal error; see the judge's log"
        mail = read_mail(row.raw, envelope_from=row.envelope_from)
        # not processed, but done with: its passwords go as a processed mail's do
        secrets = secret_words(mail.body)
        row.raw = redacted_copy(row.raw, mail.subject, mail.body, secrets)
        session.add(row)
        if mail.sender and not mail.automatic and not is_own_address(
                config, *mail.authors, mail.sender) and may_reply(
                session, mail.sender, config.limits.replies_per_hour):
            queue(session, OutgoingMail(
                to=(mail.sender,), subject=reply_subject(masker(secrets)(mail.subject)),
                body=render("notice.txt.j2", judge=config.name, address=config.address,
                            game=_NoGame(), deadline_line="",
                            text="The judge could not process your mail because of an "
                                 "error of its own. Nothing in it was carried out. The "
                                 "error has been logged; please try again later or "
                                 "write to the judge keeper."),
                in_reply_to=mail.message_id), config)
    return "failed"


class _NoGame:
    name = "-"
    variant = "-"


# commands that hash a new password (in the transaction: the hash is stored)
_SETS_A_PASSWORD = (Join, Observe, Create, SetPassword, Replace)


def _process(session: Session, config: Config, row: _Stored, read: _Read,
             now: datetime) -> tuple[str, str]:
    """The mail's new status and a note on it for the keeper."""
    mail, lines, hide = read.mail, read.lines, read.hide
    if mail.automatic:
        log.info("mail %d ignored: %s", row.id, mail.automatic)
        return "ignored", f"automatic mail, not answered: {mail.automatic}"
    if not mail.sender:
        log.info("mail %d ignored: no sender address", row.id)
        return "ignored", "no usable sender address"
    if is_own_address(config, *mail.authors, mail.sender):
        # our own mail come back (a forward, a relay's loop, a forged From):
        # answering it would have the judge write to itself without end
        log.info("mail %d ignored: it names the judge's own address", row.id)
        return "ignored", "mail from or for the judge's own address, not answered"
    ctx = Context(session=session, config=config, sender=mail.sender, now=now,
                  inbound_id=row.id, signons=list(read.signons))
    sections: list[dict[str, object]] = []
    audit: list[dict[str, object]] = []  # one row per command, written together
    passwords_set = 0
    for line in lines:
        command = line.command
        if isinstance(command, _SETS_A_PASSWORD):
            passwords_set += 1
        if isinstance(command, CommandError):
            text = f"Not understood: {command.message}"
            if command.suggestion:
                text += f" (did you mean {command.suggestion}?)"
        elif passwords_set > config.limits.signons_per_mail and isinstance(
                command, _SETS_A_PASSWORD):
            # each costs a scrypt hash under the write lock: a mail of a
            # thousand JOINs would hold everyone else's mail for half a minute
            text = (f"Refused: a mail may set at most {config.limits.signons_per_mail} "
                    "passwords; this one was not carried out")
        else:
            text = handle(ctx, command)
        if isinstance(command, (CommandError, Orders)):
            # what the player wrote is quoted back; a password written as
            # a slip ('SIGNON france@g' with the password alone on the next
            # line) would be quoted with it
            text = hide(text)
        written = hide(redacted_source(line.source))
        source = written
        if isinstance(command, Orders):
            source = f"orders ({len(command.lines)} line{'s' * (len(command.lines) != 1)})"
        sections.append({"source": source, "line": line.line, "text": text.rstrip()})
        audit.append({"at": now, "inbound_id": row.id,
                      "game": ctx.game.name if ctx.game else "", "address": mail.sender,
                      "command": written[:500], "outcome": text[:2000]})
    if audit:
        run(session, _AUDIT, audit)
    try:
        early = finish_mail(ctx)
    except GameError as exc:
        early = f"Refused: {exc}"
    if early:
        sections.append({"source": "(after the last command)", "line": 0, "text": early})
    if not lines:
        sections.append({"source": "(nothing)", "line": 0,
                         "text": "This mail held no commands. Send HELP for the list."})
    left = replies_left(session, mail.sender, config.limits.replies_per_hour)
    if left is None:
        for outgoing in ctx.mails:  # game mail: never throttled
            queue(session, outgoing, config)
        return "done", _withheld(session, row.id, mail.sender, config, now)
    if left == 0:  # a person, not a robot, should know why the next mail goes unanswered
        sections.append({"source": "(the judge)", "line": 0, "text": _LAST_REPLY.format(
            limit=config.limits.replies_per_hour)})
    subject = hide(mail.subject)
    reply = render("reply.txt.j2", judge=config.name, address=config.address,
                   received=row.received_at.strftime("%Y-%m-%d %H:%M UTC"),
                   subject=subject, sections=sections, problems=list(mail.problems))
    if ctx.game is not None and ctx.member is not None:  # deadlines in their zone too
        reply = in_own_zone(reply, ctx.game, settings_of(ctx.game), ctx.member.zone)
    queue(session, OutgoingMail(to=(mail.sender,), subject=reply_subject(subject),
                                body=reply, kind="reply", game=ctx.game.name if ctx.game else "",
                                in_reply_to=mail.message_id,
                                attachments=tuple(ctx.attachments)), config)
    for outgoing in ctx.mails:
        queue(session, outgoing, config)
    return "done", ""


_LAST_REPLY = ("This is the last reply to your address for an hour: the judge answers an "
               "address at most {limit} times an hour, so that it can never be caught in "
               "a loop with another program. Mail you send meanwhile is still carried out, "
               "and you can send LIST or STATUS later to see where things stand.")


def _withheld(session: Session, inbound_id: int, sender: str, config: Config,
              now: datetime) -> str:
    """Note (log, audit, the mail's note) a reply the throttle withheld."""
    why = (f"reply withheld: {sender} had {config.limits.replies_per_hour} replies in the "
           "last hour (a robot answering ours?); the mail was carried out")
    log.warning("mail %d: %s", inbound_id, why)
    run(session, _AUDIT, [{"at": now, "inbound_id": inbound_id, "game": "",
                           "address": sender, "command": "(reply)", "outcome": why}])
    return why
