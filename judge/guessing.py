"""Whose SIGNONs for a power are still tried: the rule against guessing
passwords that never locks the power's player out.

A limit per power alone is a weapon: a rival's ten wrong guesses kept the
player's own right password out for an hour, and so forced a missed turn.
So the guesser is slowed, not the power (as OWASP advises for logins:
throttle per source and per account, never lock the account itself):

- an address that gave ``failed_signons_per_hour`` wrong passwords for a
  power within the hour is not heard for that power until the oldest of
  them is an hour old, whatever it sends, the right password too (hearing
  the right one would tell the guesser which guess was right, so the limit
  would stop nothing);
- a guesser can write from endless addresses, so once a power has had
  ``failed_signons_per_power_hour`` wrong passwords from all of them, only
  the power's address on file is heard for it;
- the From line can be forged, so a guesser can use up the power's own
  address too: the judge then mails that address a key
  (judge.signon_notices), and a mail carrying it is heard as a source of
  its own, ``KEYED``, from any address. Only whoever reads the player's
  mail has it.

Nothing here reads the database: the counts come in a ``Tally``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from judge.config import Limits

WINDOW = timedelta(hours=1)
KEYED = "(key)"  # the source of a SIGNON in a mail that carries the power's sign-on key


@dataclass(frozen=True)
class Tally:
    """The wrong passwords given for one power within the window: the
    source of each (an address, or KEYED) and when."""
    failures: tuple[tuple[str, datetime], ...] = ()

    def of(self, source: str) -> list[datetime]:
        return [at for who, at in self.failures if who == source]

    def sources(self) -> dict[str, int]:
        """Each source and how many wrong passwords it gave, most first."""
        counts: dict[str, int] = {}
        for who, _ in self.failures:
            counts[who] = counts.get(who, 0) + 1
        return dict(sorted(counts.items(), key=lambda item: -item[1]))

    def with_failure(self, source: str, at: datetime) -> Tally:
        return replace(self, failures=(*self.failures, (source, at)))


@dataclass(frozen=True)
class Refusal:
    """Why a SIGNON is not tried, and when its source is heard again."""
    limit: str  # SOURCE_SPENT or POWER_SPENT
    count: int  # the wrong passwords that reached the limit
    until: datetime


SOURCE_SPENT = "source"  # this address (or the key) gave its wrong passwords
POWER_SPENT = "power"  # the power had its wrong passwords from all addresses


def refusal(tally: Tally, source: str, on_file: bool, limits: Limits) -> Refusal | None:
    """None when a SIGNON from ``source`` for the tallied power is tried;
    ``on_file`` says whether the source is the power's address on file."""
    own = tally.of(source)
    if len(own) >= limits.failed_signons_per_hour:
        return Refusal(SOURCE_SPENT, len(own), heard_again(own, limits.failed_signons_per_hour))
    everyone = [at for _, at in tally.failures]
    if (not on_file and source != KEYED
            and len(everyone) >= limits.failed_signons_per_power_hour):
        return Refusal(POWER_SPENT, len(everyone),
                       heard_again(everyone, limits.failed_signons_per_power_hour))
    return None


def heard_again(times: list[datetime], limit: int) -> datetime:
    """When fewer than ``limit`` of ``times`` are within the window: the
    moment the one that keeps the count at the limit turns a window old."""
    return sorted(times)[len(times) - limit] + WINDOW
