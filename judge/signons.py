"""SIGNON's passwords, checked before a mail's transaction, and the limits
on guessing them.

A password check costs scrypt (tens of milliseconds, on purpose). Inside
the processing transaction it held the database's write lock: one mail of
1,000 wrong SIGNONs kept everyone else's mail waiting 53 s. So every SIGNON
of a mail is checked first, against the games as they are then, and the
verdicts go to the SIGNON handler, which only compares stored hashes.

Limits: a mail may try ``signons_per_mail`` SIGNONs; past that they are
refused unchecked. Wrong passwords are counted in the database (so across
restarts, worker processes and judges) per power and per address that
gave them, and judge.guessing says whose SIGNONs are still tried.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import bindparam, insert, select, text
from sqlalchemy.engine import Engine
from sqlmodel import Session

from judge import games, signon_notices
from judge.config import Config
from judge.db import run, transaction
from judge.games import MASTER
from judge.guessing import KEYED, POWER_SPENT, WINDOW, Refusal, Tally, refusal
from judge.models import Game, Member, SignonFailure, as_utc, utcnow
from judge.passwords import check_password
from parser.commands import Line, Signon

_FAILURES = SignonFailure.__table__  # type: ignore[attr-defined]
# two judges recording wrong passwords for one power take turns, so that
# the GM's warning and the key go out once (SQLite's one writer does so anyway)
_TURN = text("SELECT pg_advisory_xact_lock(hashtext(:seat))")


@dataclass(frozen=True)
class Verdict:
    """What the check before the transaction found for one SIGNON."""
    refusal: str = ""  # why it is refused unchecked; '' when it was checked
    checked: frozenset[str] = frozenset()  # the stored hashes its password was checked against
    matched: frozenset[str] = frozenset()  # those it matches


@dataclass(frozen=True)
class Sender:
    """What a mail says of where it comes from, as the limits read it."""
    address: str  # the address replies go to, lower case
    subject: str  # may carry a sign-on key


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


def verify(engine: Engine, session: Session, config: Config, sender: Sender,
           lines: Sequence[Line], now: datetime | None = None) -> list[Verdict]:
    """A verdict for each SIGNON of a mail, in order, from what ``session``
    reads (the reads before the mail's transaction: judge.db.reading).
    Wrong passwords are recorded (committed) before this returns, with the
    mails they call for."""
    signons = [line.command for line in lines if isinstance(line.command, Signon)]
    if not signons:
        return []
    now = now or utcnow()
    limits = config.limits
    verdicts: list[Verdict] = []
    tallies: dict[tuple[str, str], Tally] = {}  # each seat tried, with this mail's failures
    failed: list[tuple[str, str, str]] = []  # this mail's wrong passwords: game, seat, source
    spent: dict[tuple[str, str], tuple[str, Refusal]] = {}  # own addresses used up
    for n, command in enumerate(signons):
        if n >= limits.signons_per_mail:
            verdicts.append(Verdict(
                refusal=f"a mail may try at most {limits.signons_per_mail} SIGNONs; "
                        "this one was not tried"))
            continue
        game = games.game_with_members(session, command.game)
        if game is None:
            verdicts.append(Verdict())  # the handler says there is no such game
            continue
        seat, hashes = candidates(session, game, command.power)
        if not hashes:  # nothing to guess: the handler says the power is wrong
            verdicts.append(Verdict())
            continue
        where = (game.name, _seat_key(seat))
        if where not in tallies:
            tallies[where] = _tally(session, *where, now)
        on_file = sender.address in _addresses(game, hashes)
        source = (KEYED if signon_notices.carries_key(session, *where, sender.subject, now)
                  else sender.address)
        refused = refusal(tallies[where], source, on_file, limits)
        if refused is not None:
            verdicts.append(Verdict(refusal=_refusal_text(game.name, seat, source, on_file,
                                                          refused)))
            if on_file and source != KEYED:  # a guesser may be forging it
                spent[where] = (sender.address, refused)
            continue
        verdicts.append(_check(command, [stored for stored, _ in hashes]))
        if not verdicts[-1].matched:
            failed.append((*where, source))
            tallies[where] = tallies[where].with_failure(source, now)
    if failed or spent:
        _record(engine, config, failed, spent, now)
    return verdicts


def _addresses(game: Game, hashes: list[tuple[str, Member | None]]) -> set[str]:
    """The addresses on file for what a SIGNON names."""
    return {(member.address if member else game.master_address).lower()
            for _, member in hashes}


def _seat_key(seat: str) -> str:
    return seat[:64]  # the counts' column width: stored and looked up alike


def _refusal_text(game: str, seat: str, source: str, on_file: bool, refused: Refusal) -> str:
    named = signon_notices.seat_name(seat)
    until = signon_notices.moment(refused.until)
    if refused.limit == POWER_SPENT:
        return (f"{named} in {game} has been given {refused.count} wrong passwords within "
                f"the hour, so until {until} SIGNONs for {named} are tried only from the "
                "address on file for it.")
    if source == KEYED:
        return (f"the sign-on key for {named} in {game} has been used with {refused.count} "
                f"wrong passwords within the hour; it is not tried again until {until}")
    text = (f"this address has given {refused.count} wrong passwords for {named} in {game} "
            f"within the hour, so its SIGNONs for {named} are not tried, even with the right "
            f"password, until {until}.")
    if on_file:
        return text + (
            " If they were not yours, someone is guessing your password in mails that claim "
            "to come from you: the judge has mailed this address a key to sign on with "
            f"meanwhile (subject \"{signon_notices.key_subject(game, seat)} [...]\").")
    return text + f" SIGNONs for {named} from the address on file for it are still tried."


def _check(command: Signon, hashes: list[str]) -> Verdict:
    checked = []
    for stored in hashes:
        checked.append(stored)
        if check_password(command.password, stored):
            return Verdict(checked=frozenset(checked), matched=frozenset({stored}))
    return Verdict(checked=frozenset(checked))


# built once: every SIGNON reads its seat's wrong passwords
_SEAT_FAILURES = select(_FAILURES.c.address, _FAILURES.c.at).where(
    _FAILURES.c.game == bindparam("game"), _FAILURES.c.power == bindparam("seat"),
    # a failure a window old no longer counts: heard_again's moment
    _FAILURES.c.at > bindparam("since")).order_by(_FAILURES.c.at)


def _tally(session: Session, game: str, seat: str, now: datetime) -> Tally:
    rows = run(session, _SEAT_FAILURES, {"game": game, "seat": seat,
                                         "since": now - WINDOW}).all()
    return Tally(tuple((row.address, as_utc(row.at)) for row in rows))


def _record(engine: Engine, config: Config, failed: list[tuple[str, str, str]],
            spent: dict[tuple[str, str], tuple[str, Refusal]], now: datetime) -> None:
    """Committed on their own, before the mail's transaction: a mail that
    fails later must not take its guesses back."""
    with transaction(engine) as session:
        seats = sorted({(game, seat) for game, seat, _ in failed} | set(spent))
        if session.get_bind().dialect.name == "postgresql":
            for game, seat in seats:  # in one order: two judges cannot wait on each other
                run(session, _TURN, {"seat": f"signon {game} {seat}"})
        if failed:
            run(session, insert(_FAILURES), [
                {"game": game, "power": seat, "address": source[:998], "at": now}
                for game, seat, source in failed])
        # the ones no limit looks at any more
        run(session, _FAILURES.delete().where(_FAILURES.c.at < now - WINDOW))
        signon_notices.forget(session, now)
        for game, seat in seats:
            # counted again under the turn: another judge's may be in since
            signon_notices.tell(session, config, game, seat, _tally(session, game, seat, now),
                                now, spent.get((game, seat)))
