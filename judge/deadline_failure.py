"""A deadline whose processing fails: when to try again, who is told, and
what STATUS says meanwhile.

Stored data the judge can no longer read (a bid row garbled by hand, say)
makes every attempt at a game's deadline fail the same way. Tried again at
once after every mail (each mail reschedules the games whose moment has
passed), it would hold the database's write lock again and again and fill
the log. So a failing deadline waits: a minute (the next sweep), then twice
as long after each failure, at most six hours. The first failure of a run
tells the game's GM, and the judge keeper if the configuration names one,
by a mail queued in the same transaction that records the failure in the
game's row: a judge killed in between stores neither, a restarted one finds
both, so the notice goes once. An attempt that works, or a GM who moves
the game on (PROCESS, SET DEADLINE, ROLLBACK, RESUME), ends the run.
"""

from __future__ import annotations

import textwrap
from datetime import datetime, timedelta

from judge.config import Config
from judge.games import settings_of
from judge.mail import format_deadline, header, phase_name, render
from judge.models import Game, as_utc
from judge.outbox import OutgoingMail

FIRST_WAIT = timedelta(minutes=1)  # the scheduler's sweep comes round once a minute
LONGEST_WAIT = timedelta(hours=6)
_ERROR_LENGTH = 1000  # of the error's text kept: what the GM needs, not a novel


def wait_after(failures: int) -> timedelta:
    """How long after the ``failures``-th failure in a row the next attempt
    waits: FIRST_WAIT, doubled each time, at most LONGEST_WAIT."""
    if failures >= 20:  # doubled this often, any wait is past the longest
        return LONGEST_WAIT
    return min(FIRST_WAIT * (1 << max(failures - 1, 0)), LONGEST_WAIT)


def describe(error: BaseException) -> str:
    """The error as the GM and STATUS see it: its type and message, not the
    traceback (that goes to the keeper's log)."""
    message = str(error).strip()
    text = f"{type(error).__name__}: {message}" if message else type(error).__name__
    return text[:_ERROR_LENGTH]


def failing(game: Game) -> bool:
    return game.failed_attempts > 0


def waiting(game: Game, now: datetime) -> bool:
    """Whether the game's deadline work waits for its next attempt."""
    return game.retry_at is not None and now < as_utc(game.retry_at)


def held_until(game: Game) -> datetime | None:
    """The next attempt at a failing deadline; None if it is not failing."""
    return as_utc(game.retry_at) if game.retry_at is not None else None


def record(game: Game, config: Config, error: BaseException,
           now: datetime) -> list[OutgoingMail]:
    """Note a failed attempt in the game's row (the caller's transaction
    writes it); the notices to send if it is the first of a run."""
    game.failed_attempts += 1
    game.failed_at = now
    game.failure = describe(error)
    game.retry_at = now + wait_after(game.failed_attempts)
    return notices(game, config) if game.failed_attempts == 1 else []


def clear(game: Game) -> None:
    """The deadline works again, or the GM has moved the game on."""
    game.failed_attempts = 0
    game.failed_at = None
    game.failure = ""
    game.retry_at = None


def status_line(game: Game, zone: str, *, with_error: bool) -> str:
    """What STATUS and LIST say of a failing deadline. The error only to
    the GM: its message may quote what is on file, bids included."""
    assert game.failed_at is not None and game.retry_at is not None
    failed = format_deadline(as_utc(game.failed_at), zone)
    following = format_deadline(as_utc(game.retry_at), zone)
    what = f": {game.failure}" if with_error else " (the GM has been told)"
    return f"Deadline processing failed at {failed}{what}, next attempt {following}."


def notices(game: Game, config: Config) -> list[OutgoingMail]:
    """The mail to the GM, and the keeper's copy if there is a keeper."""
    settings = settings_of(game)
    failed_at, retry_at = game.failed_at, game.retry_at
    assert failed_at is not None and retry_at is not None

    def body(for_keeper: bool) -> str:
        return render("deadline_failed.txt.j2", **header(config, game, settings),
                      phase=game.phase, phase_name=phase_name(game.phase, game.variant),
                      deadline=format_deadline(game.deadline, settings.zone),
                      failed_at=format_deadline(as_utc(failed_at), settings.zone),
                      error=textwrap.indent(textwrap.fill(game.failure, 74), "    "),
                      next_attempt=format_deadline(as_utc(retry_at), settings.zone),
                      longest=f"{LONGEST_WAIT / timedelta(hours=1):g} hours", keeper=config.keeper,
                      master=game.master_address, for_keeper=for_keeper,
                      # the reminders failed, not the phase
                      before_deadline=game.deadline is not None
                      and failed_at < as_utc(game.deadline))

    subject = f"Diplomacy deadline failed {game.name} {game.phase}"
    mails = [OutgoingMail(to=(game.master_address,), subject=subject, body=body(False),
                          kind="notice", game=game.name)]
    if config.keeper and config.keeper.lower() != game.master_address.lower():
        mails.append(OutgoingMail(to=(config.keeper,), subject=subject, body=body(True),
                                  kind="notice", game=game.name))
    return mails
