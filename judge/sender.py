"""The sender: delivers the outbox, each mail once, retrying what can be
retried and keeping a record of what could not be sent.

A row goes pending -> sending -> sent. The claim ('sending', signed with
the judge's instance name, judge.instance) commits before delivery starts
and 'sent' commits after it ends, so a crash in between leaves the row
'sending'. The judge takes its own claims back the moment it starts again;
another judge sharing the database takes them only once they are older than
CLAIM_LEASE (their judge never came back).

A claim taken back goes again. Into the Maildir (the sink when no relay is
configured) that is exactly once: a file named after the row shows whether
the mail got there before the crash. Through a relay the judge cannot know,
and of a lost mail and a second copy under the same Message-ID (which the
receiving side can recognise) the second is the lesser harm; the same holds
for a relay whose answer to the message never came.

Rows are claimed, delivered and recorded a batch at a time (BATCH rows),
which is what lets the sender keep up with a burst of replies. A batch is
delivered over up to CONNECTIONS relay connections at once, each mail of a
game over the same one, in order: a mail is a dozen round trips to the
relay, each a wait while the deadline workers keep the processors busy,
and the waits of several connections overlap.
"""

from __future__ import annotations

import json
import logging
import re
import smtplib
import threading
import time
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy.engine import Engine
from sqlalchemy.orm import defer
from sqlmodel import col, select

from judge import models
from judge.config import Config
from judge.db import transaction
from judge.instance import instance_name
from judge.maildir_sink import in_maildir, maildir_name, write_to_maildir
from judge.outbox import OutboxError

log = logging.getLogger(__name__)

MAX_BACKOFF = timedelta(hours=6)
# how long a claim may run before another judge may call it a crash: far
# beyond the time an SMTP delivery can take with its per-step timeouts
CLAIM_LEASE = timedelta(minutes=15)
LOOP_SECONDS = 1.0
RECOVER_EVERY_SECONDS = 60.0
LINGER_SECONDS = 0.05
BATCH = 25  # rows claimed together, delivered together, recorded together
CONNECTIONS = 4  # relay connections a batch is delivered over at once


@dataclass(frozen=True)
class Claimed:
    """A row this sender has marked 'sending' and now delivers."""

    id: int
    message_id: str
    recipients: tuple[str, ...]
    raw: bytes
    attempts: int
    created_at: datetime
    due_at: datetime  # when it was due before the claim (restored if never tried)
    game: str = ""  # a game's mails go over one connection, in order

    @property
    def maildir_name(self) -> str:
        return maildir_name(self.id, self.message_id, self.created_at)


@dataclass(frozen=True)
class Outcome:
    """How one delivery attempt ended. status: sent | temporary | permanent
    | uncertain (the relay may have taken the mail: tried again, as the
    same message).
    relay_down: the relay could not be reached at all, so the other rows
    due now would fail the same way (each after a connect timeout)."""

    status: str
    error: str = ""
    relay_down: bool = False


def _smtp_text(code: int, reply: bytes | str) -> str:
    text = reply.decode("utf-8", "replace") if isinstance(reply, bytes) else reply
    return f"{code} {' '.join(text.split())}"[:500]


def _by_code(code: int, reply: bytes | str, what: str) -> Outcome:
    status = "permanent" if 500 <= code <= 599 else "temporary"
    return Outcome(status, f"{what}: {_smtp_text(code, reply)}")


def retry_delay(first_seconds: float, attempts: int) -> timedelta:
    """The wait after the attempts-th failed attempt: doubling, capped."""
    seconds = first_seconds * 2.0 ** min(max(attempts - 1, 0), 40)
    return min(timedelta(seconds=seconds), MAX_BACKOFF)


def _recipients(stored: str) -> tuple[str, ...]:
    """The row's recipients; none when the column holds something else (a
    row written by hand), which fails that row instead of the whole loop."""
    try:
        value = json.loads(stored)
    except ValueError:
        return ()
    if not isinstance(value, list) or not all(isinstance(a, str) for a in value):
        return ()
    return tuple(value)


def _dot_stuffed(raw: bytes) -> bytes:
    """The DATA payload: CRLF line ends, leading dots doubled, the final dot.
    A results mail carries maps (hundreds of kilobytes, in lines that never
    start with a dot): counting and plain replacing keep the cost of its
    mostly untouched bytes low, where regular expressions took milliseconds."""
    data = raw
    crlf = data.count(b"\r\n")
    if data.count(b"\n") != crlf or data.count(b"\r") != crlf:  # some bare CR or LF
        data = re.sub(rb"\r\n|\r|\n", b"\r\n", data)
    data = data.replace(b"\n.", b"\n..")
    if data.startswith(b"."):
        data = b"." + data
    if not data.endswith(b"\r\n"):
        data += b"\r\n"
    return data + b".\r\n"


class Sender:
    def __init__(self, config: Config, engine: Engine, *, smtp_timeout: float = 30.0) -> None:
        self.config = config
        self.engine = engine
        self.smtp_timeout = smtp_timeout
        self.claimant = instance_name(config)
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    # -- the loop ------------------------------------------------------------

    def start(self) -> None:
        """Deliver in a background thread: every second, and at once after
        wake()."""
        if self._thread is not None and self._thread.is_alive():
            return
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="outbox-sender", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 60.0) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None

    def wake(self) -> None:
        """Tell the loop there is new mail (call after the commit)."""
        self._wake.set()

    def _run(self) -> None:
        last_recover: float | None = None
        while not self._stop.is_set():
            self._wake.clear()
            busy = False
            try:
                if last_recover is None or time.monotonic() - last_recover >= RECOVER_EVERY_SECONDS:
                    # another judge on the same database may have died mid-send
                    self.recover(own=False)
                    last_recover = time.monotonic()
                claimed, _sent = self._send_batch(models.utcnow(), 100)
                busy = claimed >= 100
            except Exception:
                # the database may be away for a while; the loop must outlive it
                log.exception("outbox: sending failed; trying again shortly")
            if not busy and self._wake.wait(LOOP_SECONDS):
                # woken by new mail: a moment more lets the rest of a burst
                # join it in one batch (one claim, one connection, one record)
                self._stop.wait(LINGER_SECONDS)

    # -- one pass ------------------------------------------------------------

    def send_due(self, now: datetime | None = None, limit: int = 100) -> int:
        """Deliver every pending row due at `now` (at most `limit`); how many
        were sent."""
        return self._send_batch(now or models.utcnow(), limit)[1]

    def _send_batch(self, now: datetime, limit: int) -> tuple[int, int]:
        claimed = sent = 0
        while claimed < limit:
            rows = self._claim(now, min(BATCH, limit - claimed))
            if not rows:
                break
            claimed += len(rows)
            outcomes = self._deliver_all(rows)
            self._record(rows, outcomes, now)
            sent += sum(o is not None and o.status == "sent" for o in outcomes)
            if any(o is not None and o.relay_down for o in outcomes):
                break  # the rest stay pending, their attempts untouched
        return claimed, sent

    def _claim(self, now: datetime, count: int) -> list[Claimed]:
        """Take up to ``count`` due rows for this sender alone, in a
        transaction of its own that commits before delivery starts. Another
        judge on PostgreSQL skips the rows this one holds; on SQLite the
        transaction holds the write lock (judge.db.transaction)."""
        table = models.Outbox
        due = (select(table)
               .where(table.status == "pending", table.next_attempt_at <= now)
               .order_by(col(table.next_attempt_at), col(table.id))
               .limit(count).with_for_update(skip_locked=True))
        with transaction(self.engine) as session:
            taken = []
            for row in session.exec(due).all():
                due_at = row.next_attempt_at
                row.status = "sending"
                row.claimed_by = self.claimant
                row.attempts += 1
                # while a row is 'sending' its next_attempt_at records the claim,
                # so recover() can tell a crashed claim from a running one
                row.next_attempt_at = models.utcnow()
                taken.append(self._claimed(row, due_at))
            return taken

    @staticmethod
    def _claimed(row: models.Outbox, due_at: datetime) -> Claimed:
        assert row.id is not None
        return Claimed(id=row.id, message_id=row.message_id,
                       recipients=_recipients(row.recipients), raw=row.raw,
                       attempts=row.attempts, created_at=row.created_at, due_at=due_at,
                       game=row.game)

    def _record(self, rows: list[Claimed], outcomes: list[Outcome | None],
                now: datetime) -> None:
        """Write down how each row's delivery ended; a row never tried
        (the relay went away first) is pending again, as it was."""
        with transaction(self.engine) as session:
            # the messages themselves are not needed to record their fate
            # (the ignore: sqlmodel types a column as its value)
            stored_rows = session.exec(select(models.Outbox).options(
                defer(models.Outbox.raw)).where(  # type: ignore[arg-type]
                col(models.Outbox.id).in_([r.id for r in rows]))).all()
            by_id = {stored.id: stored for stored in stored_rows}
            for row, outcome in zip(rows, outcomes, strict=True):
                stored = by_id.get(row.id)
                if stored is None:
                    log.error("outbox %d vanished while being sent (%s)", row.id,
                              outcome.status if outcome else "not tried")
                    continue
                if outcome is None:
                    stored.status = "pending"
                    stored.attempts = row.attempts - 1
                    stored.next_attempt_at = row.due_at
                    continue
                self._record_one(stored, row, outcome, now)

    def _record_one(self, stored: models.Outbox, row: Claimed, outcome: Outcome,
                    now: datetime) -> None:
        if stored.status != "sending":
            log.warning("outbox %d was marked %r while this sender delivered it",
                        row.id, stored.status)
        stored.last_error = outcome.error
        if outcome.status == "sent":
            stored.status = "sent"
            stored.sent_at = now
        elif outcome.status == "uncertain" and row.attempts < self.config.relay_max_attempts:
            stored.status = "pending"
            stored.next_attempt_at = now + self.backoff(row.attempts)
            log.warning("outbox %d to %s (%s) may or may not have been sent: %s; "
                        "sent again with the same Message-ID at %s", row.id,
                        ", ".join(row.recipients), row.message_id, outcome.error,
                        stored.next_attempt_at.isoformat())
        elif outcome.status == "uncertain":
            stored.status = "uncertain"
            log.error("outbox %d to %s (%s) may or may not have been sent after %d "
                      "attempt(s): %s; not tried again", row.id, ", ".join(row.recipients),
                      row.message_id, row.attempts, outcome.error)
        elif outcome.status == "temporary" and row.attempts < self.config.relay_max_attempts:
            stored.status = "pending"
            stored.next_attempt_at = now + self.backoff(row.attempts)
            log.info("outbox %d: attempt %d failed (%s); next at %s", row.id,
                     row.attempts, outcome.error, stored.next_attempt_at.isoformat())
        else:
            stored.status = "failed"
            log.error("outbox %d to %s failed after %d attempt(s): %s", row.id,
                      ", ".join(row.recipients), row.attempts, outcome.error)

    def backoff(self, attempts: int) -> timedelta:
        return retry_delay(self.config.relay_first_retry_seconds, attempts)

    # -- recovery ------------------------------------------------------------

    def recover(self, now: datetime | None = None, *, own: bool = True) -> int:
        """Take back claims a crash left 'sending'; how many. This judge's
        own (``own``: it has just started, so whoever made them is dead) at
        once; any other judge's once older than CLAIM_LEASE. A row whose
        mail is in the Maildir becomes 'sent'; any other is due again."""
        now = now or models.utcnow()
        table = models.Outbox
        crashed = table.next_attempt_at <= now - CLAIM_LEASE
        if own:
            crashed = crashed | (table.claimed_by == self.claimant)
        settled = 0
        with transaction(self.engine) as session:
            query = select(table).where(table.status == "sending", crashed)
            # skip_locked: rows another judge is recording right now are its own
            for row in session.exec(query.with_for_update(skip_locked=True)).all():
                claimed = self._claimed(row, row.next_attempt_at)
                if not self.config.relay_host and in_maildir(
                        self.config.maildir, claimed.maildir_name, look_in_cur=True):
                    row.status = "sent"
                    row.sent_at = now
                    log.info("outbox %d was in the Maildir already: sent", claimed.id)
                else:
                    row.status = "pending"
                    row.next_attempt_at = now
                    row.last_error = "the judge stopped while sending this mail; sent again"
                    log.warning("outbox %d to %s (%s) was being sent when the judge that "
                                "claimed it (%s) stopped; sent again", claimed.id,
                                ", ".join(claimed.recipients), claimed.message_id,
                                row.claimed_by or "unknown")
                settled += 1
        return settled

    # -- delivery ------------------------------------------------------------

    def _deliver_all(self, rows: list[Claimed]) -> list[Outcome | None]:
        """Deliver a batch over up to CONNECTIONS relay connections at once,
        the mails of one game in order over one; None for the rows not tried
        because the relay could not be reached. The other connections open
        once the first mail has reached the relay: a relay that is down is
        found out by one connection, not by each."""
        outcomes: list[Outcome | None] = [None] * len(rows)
        shares: list[list[int]] = [[] for _ in range(min(CONNECTIONS, len(rows)))]
        by_game: dict[str, int] = {}
        for index, row in enumerate(rows):
            # a game's mails share a connection; other mails take turns
            share = by_game.setdefault(row.game, len(by_game)) if row.game else index
            shares[share % len(shares)].append(index)
        shares = [share for share in shares if share]
        if not shares:
            return outcomes

        def deliver(share: list[int], relay: _RelayConnection) -> None:
            try:
                for index in share:
                    outcome = self._deliver(rows[index], relay)
                    outcomes[index] = outcome
                    if outcome.relay_down:
                        break
            finally:
                relay.close()

        first = _RelayConnection(self.config, self.smtp_timeout)
        first_row, *rest = shares[0]
        outcome = outcomes[first_row] = self._deliver(rows[first_row], first)
        if outcome.relay_down:
            first.close()
            return outcomes
        threads = [threading.Thread(
            target=deliver, args=(share, _RelayConnection(self.config, self.smtp_timeout)),
            name="outbox-connection", daemon=True) for share in shares[1:]]
        for thread in threads:
            thread.start()
        deliver(rest, first)  # the sender's own thread goes on with its share
        for thread in threads:
            thread.join()
        return outcomes

    def _deliver(self, row: Claimed, relay: _RelayConnection) -> Outcome:
        if not row.recipients:
            return Outcome("permanent", "the row names no recipient the sender can read")
        try:
            if self.config.relay_host:
                return self._deliver_smtp(row, relay)
            return self._deliver_maildir(row)
        except Exception as exc:
            # a fault of our own: whether the mail left is unknown, so never resend
            log.exception("outbox %d: unexpected error while delivering", row.id)
            relay.drop()
            return Outcome("uncertain", f"unexpected error: {exc!r}"[:500])

    def _deliver_smtp(self, row: Claimed, relay: _RelayConnection) -> Outcome:
        for reused in (relay.is_open(), False):
            try:
                smtp = relay.get()
            except smtplib.SMTPResponseException as exc:
                refused = _by_code(exc.smtp_code, exc.smtp_error, "relay greeting")
                return Outcome(refused.status, refused.error, relay_down=True)
            except (smtplib.SMTPException, OSError) as exc:
                return Outcome("temporary", f"relay {self.config.relay_host}:"
                                            f"{self.config.relay_port}: {exc!r}"[:500],
                               relay_down=True)
            try:
                outcome = self._mail_transaction(smtp, row)
            except smtplib.SMTPServerDisconnected as exc:
                relay.drop()
                if reused:
                    # a reused connection the relay had closed meanwhile:
                    # nothing of this mail was taken, so once more on a new one
                    continue
                return Outcome("temporary", f"relay: {exc!r}"[:500])
            except smtplib.SMTPResponseException as exc:
                relay.drop()
                return _by_code(exc.smtp_code, exc.smtp_error, "relay")
            except (smtplib.SMTPException, OSError) as exc:
                relay.drop()
                return Outcome("temporary", f"relay: {exc!r}"[:500])
            if outcome.status == "uncertain":
                relay.drop()  # the session is in an unknown state
            return outcome
        raise AssertionError("unreachable")

    def _mail_transaction(self, smtp: smtplib.SMTP, row: Claimed) -> Outcome:
        """One SMTP mail transaction, step by step, so that the one moment
        where the outcome is unknown (the data went, the reply did not come)
        is told apart from failures that are safe to retry."""
        smtp.ehlo_or_helo_if_needed()
        code, reply = smtp.mail(self.config.address)
        if code != 250:
            smtp.rset()
            return _by_code(code, reply, "MAIL FROM")
        refused: dict[str, str] = {}
        for address in row.recipients:
            code, reply = smtp.rcpt(address)
            if code not in (250, 251):
                refused[address] = _smtp_text(code, reply)
        if len(refused) == len(row.recipients):
            smtp.rset()
            everyone = "; ".join(f"{a}: {r}" for a, r in refused.items())
            permanent = all(r.startswith("5") for r in refused.values())
            return Outcome("permanent" if permanent else "temporary",
                           f"all recipients refused: {everyone}"[:2000])
        code, reply = smtp.docmd("DATA")
        if code != 354:
            smtp.rset()
            return _by_code(code, reply, "DATA")
        smtp.send(_dot_stuffed(row.raw))
        try:
            code, reply = smtp.getreply()
        except (smtplib.SMTPException, OSError) as exc:
            return Outcome("uncertain", f"no answer after the message was sent: {exc!r}"[:500])
        if code != 250:
            return _by_code(code, reply, "end of data")
        note = ""
        if refused:
            note = "refused: " + "; ".join(f"{a}: {r}" for a, r in refused.items())
            log.warning("outbox %d: %s", row.id, note)
        log.info("outbox %d (%s) handed to %s:%d for %s", row.id, row.message_id,
                 self.config.relay_host, self.config.relay_port,
                 ", ".join(a for a in row.recipients if a not in refused))
        return Outcome("sent", note[:2000])

    # -- the Maildir ---------------------------------------------------------

    def _deliver_maildir(self, row: Claimed) -> Outcome:
        root = self.config.maildir
        try:
            # a row claimed before (attempts > 1) may have reached the Maildir
            # and been read since; a fresh one can only be in new/ by a crash
            if in_maildir(root, row.maildir_name, look_in_cur=row.attempts > 1):
                log.info("outbox %d is in %s already: not written again", row.id, root)
                return Outcome("sent")
            final = write_to_maildir(root, row.maildir_name, row.recipients, row.raw)
        except OutboxError as exc:
            return Outcome("permanent", str(exc)[:500])
        except OSError as exc:
            return Outcome("temporary", f"Maildir {root}: {exc!r}"[:500])
        log.info("outbox %d (%s) for %s written to %s", row.id, row.message_id,
                 ", ".join(row.recipients), final)
        return Outcome("sent")


class _RelayConnection:
    """One SMTP connection to the relay, opened when first needed and kept
    for the mails of a batch (each its own mail transaction)."""

    def __init__(self, config: Config, timeout: float) -> None:
        self.config = config
        self.timeout = timeout
        self._smtp: smtplib.SMTP | None = None

    def is_open(self) -> bool:
        return self._smtp is not None

    def get(self) -> smtplib.SMTP:
        if self._smtp is None:
            self._smtp = smtplib.SMTP(self.config.relay_host, self.config.relay_port,
                                      timeout=self.timeout)
        return self._smtp

    def drop(self) -> None:
        """Forget a connection in an unknown state (closed, not QUIT)."""
        if self._smtp is not None:
            self._smtp.close()
            self._smtp = None

    def close(self) -> None:
        if self._smtp is None:
            return
        try:
            self._smtp.quit()
        except (smtplib.SMTPException, OSError):
            self._smtp.close()
        self._smtp = None
