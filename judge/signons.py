"""SIGNON's passwords, checked before a mail's transaction, and the limits
on guessing them.

A password check costs scrypt (tens of milliseconds, on purpose). Inside
the processing transaction it held the database's write lock: one mail of
1,000 wrong SIGNONs kept everyone else's mail waiting 53 s. So every SIGNON
of a mail is checked first, against the games as they are then, and the
verdicts go to the SIGNON handler, which only compares stored hashes.

Limits: a mail may try ``signons_per_mail`` SIGNONs, and a game's power may
be given ``failed_signons_per_hour`` wrong passwords an hour (counted in the
database, so across restarts and worker processes). Past either, SIGNON is
refused without a check.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import func, insert, select
from sqlalchemy.engine import Engine
from sqlmodel import Session

from judge import games
from judge.config import Limits
from judge.db import game_by_name, transaction
from judge.games import MASTER
from judge.models import Game, Member, SignonFailure, utcnow
from judge.passwords import check_password
from parser.commands import Line, Signon

HOUR = timedelta(hours=1)
_FAILURES = SignonFailure.__table__  # type: ignore[attr-defined]


@dataclass(frozen=True)
class Verdict:
    """What the check before the transaction found for one SIGNON."""
    refusal: str = ""  # why it is refused unchecked; '' when it was checked
    checked: frozenset[str] = frozenset()  # the stored hashes its password was checked against
    matched: frozenset[str] = frozenset()  # those it matches


def candidates(session: Session, game: Game,
               power: str) -> tuple[str, list[tuple[str, Member | None]]]:
    """Whom a SIGNON names: its seat as the limits count it, and the stored
    hashes that may match, in the order they are tried (a member, or None
    for the Game Master)."""
    who = power.upper()
    if who in (MASTER, "M", "GM"):
        return MASTER, [(game.master_hash, None)]
    seat = games.resolve_power(game, who)
    found = [m for m in games.members(session, game)
             if (seat and m.power == seat) or m.power == who]
    number = re.fullmatch(r"(?:POWER#?)?(\d{1,2})", who)
    if number and game.status == "forming":
        found = [m for m in games.members(session, game, "player") if not m.power
                 and games.player_number(session, game, m) == int(number[1])]
        return f"POWER#{int(number[1])}", [(m.password_hash, m) for m in found]
    return seat or who, [(m.password_hash, m) for m in found]


def verify(engine: Engine, limits: Limits, lines: Sequence[Line]) -> list[Verdict]:
    """A verdict for each SIGNON of a mail, in order. Wrong passwords are
    recorded (committed) before this returns."""
    signons = [line.command for line in lines if isinstance(line.command, Signon)]
    if not signons:
        return []
    verdicts: list[Verdict] = []
    failed: list[tuple[str, str]] = []  # this mail's wrong passwords: (game, seat)
    now = utcnow()
    with Session(engine) as session:  # reads only: no write lock is taken
        for n, command in enumerate(signons):
            if n >= limits.signons_per_mail:
                verdicts.append(Verdict(
                    refusal=f"a mail may try at most {limits.signons_per_mail} SIGNONs; "
                            "this one was not tried"))
                continue
            game = game_by_name(session, command.game)
            if game is None:
                verdicts.append(Verdict())  # the handler says there is no such game
                continue
            seat, hashes = candidates(session, game, command.power)
            if hashes and (_failures(session, game.name, seat, now - HOUR)
                           + failed.count((game.name, seat))) >= limits.failed_signons_per_hour:
                verdicts.append(Verdict(
                    refusal=f"too many wrong passwords for {seat} in {game.name} in the "
                            "last hour; SIGNON is not tried until they are an hour old"))
                continue
            verdicts.append(_check(command, [stored for stored, _ in hashes]))
            if hashes and not verdicts[-1].matched:
                failed.append((game.name, seat))
    if failed:
        _record(engine, failed, now)
    return verdicts


def _check(command: Signon, hashes: list[str]) -> Verdict:
    checked = []
    for stored in hashes:
        checked.append(stored)
        if check_password(command.password, stored):
            return Verdict(checked=frozenset(checked), matched=frozenset({stored}))
    return Verdict(checked=frozenset(checked))


def _failures(session: Session, game: str, seat: str, since: datetime) -> int:
    return int(session.execute(
        select(func.count()).select_from(_FAILURES).where(
            _FAILURES.c.game == game, _FAILURES.c.power == seat, _FAILURES.c.at >= since)
    ).scalar_one())


def _record(engine: Engine, failed: list[tuple[str, str]], now: datetime) -> None:
    """Committed on their own, before the mail's transaction: a mail that
    fails later must not take its guesses back."""
    with transaction(engine) as session:
        session.connection().execute(insert(_FAILURES), [
            {"game": game, "power": seat[:64], "at": now} for game, seat in failed])
        # the ones no limit looks at any more
        session.connection().execute(_FAILURES.delete().where(_FAILURES.c.at < now - HOUR))
