"""The mails about guessing at a power's password, each at most once a
power an hour: the GM's warning, and the sign-on key for the power's own
address when a guesser has used that address up (judge.guessing).

The key is what the From line cannot be: a guesser can write as the
player, but only the player reads the player's mail. It travels in the
subject, so answering the mail carries it back without the player typing
it; only its digest is stored.
"""

from __future__ import annotations

import hashlib
import hmac
import math
import re
import secrets
from datetime import datetime

from sqlalchemy import insert, select
from sqlmodel import Session

from judge.config import Config
from judge.db import game_by_name, run
from judge.games import MASTER, settings_of
from judge.guessing import KEYED, WINDOW, Refusal, Tally
from judge.mail import header, render
from judge.models import SignonNotice
from judge.outbox import OutgoingMail, queue

_NOTICES = SignonNotice.__table__  # type: ignore[attr-defined]
WARNING, KEY = "guessing", "key"

# 16 letters and digits without the look-alikes (0 O 1 I): 80 bits
_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
_KEY = re.compile(r"(?<![A-Z0-9])[A-HJ-NP-Z2-9]{4}(?:-[A-HJ-NP-Z2-9]{4}){3}(?![A-Z0-9])")


def seat_name(seat: str) -> str:
    """A seat as the mails name it."""
    return "the Game Master" if seat == MASTER else seat


def moment(at: datetime) -> str:
    """A time as these mails give it, rounded up to the minute: at the
    minute named the thing is true."""
    minutes = math.ceil(at.timestamp() / 60)
    return datetime.fromtimestamp(minutes * 60, at.tzinfo).strftime("%Y-%m-%d %H:%M UTC")


def key_subject(game: str, seat: str) -> str:
    """The start of the key mail's subject (the key follows it)."""
    return f"Diplomacy sign-on key {game} {seat}"


def carries_key(session: Session, game: str, seat: str, subject: str, now: datetime) -> bool:
    """Whether ``subject`` holds a key mailed for this seat within the window."""
    found = _KEY.findall(subject.upper())
    if not found:  # nearly every mail: no query
        return False
    stored = session.execute(select(_NOTICES.c.digest).where(
        _NOTICES.c.game == game, _NOTICES.c.power == seat, _NOTICES.c.kind == KEY,
        _NOTICES.c.at > now - WINDOW)).scalars().all()
    return any(hmac.compare_digest(_digest(game, seat, key), digest)
               for key in found for digest in stored)


def tell(session: Session, config: Config, game_name: str, seat: str, tally: Tally,
         now: datetime, spent: tuple[str, Refusal] | None) -> None:
    """In the transaction that recorded the seat's wrong passwords: warn the
    GM once they reach ``failed_signons_per_hour`` within the window, and
    mail a key to the seat's own address that ``spent`` names (the address
    and its refusal), unless it had one within the window."""
    game = game_by_name(session, game_name)
    if game is None:
        return
    base = header(config, game, settings_of(game))
    if (len(tally.failures) >= config.limits.failed_signons_per_hour
            and not _sent(session, game_name, seat, WARNING, now)):
        _note(session, game_name, seat, WARNING, "", now)
        queue(session, OutgoingMail(
            to=(game.master_address,),
            subject=f"Diplomacy password guessing {game_name} {seat}",
            body=render("notice.txt.j2", **base, text=_warning(config, game_name, seat, tally)),
            kind="notice", game=game_name), config)
    if spent is not None and not _sent(session, game_name, seat, KEY, now):
        address, refused = spent
        key = "-".join("".join(secrets.choice(_ALPHABET) for _ in range(4)) for _ in range(4))
        _note(session, game_name, seat, KEY, _digest(game_name, seat, key), now)
        text = _key_text(config, game_name, seat, key, refused, now)
        queue(session, OutgoingMail(
            to=(address,), subject=f"{key_subject(game_name, seat)} [{key}]",
            body=render("notice.txt.j2", **base, text=text), kind="notice",
            game=game_name), config)


def forget(session: Session, now: datetime) -> None:
    """The notices no rule looks at any more."""
    run(session, _NOTICES.delete().where(_NOTICES.c.at < now - WINDOW))


def _digest(game: str, seat: str, key: str) -> str:
    return hashlib.sha256(f"{game}\0{seat}\0{key}".encode()).hexdigest()


def _sent(session: Session, game: str, seat: str, kind: str, now: datetime) -> bool:
    return run(session, select(_NOTICES.c.id).where(
        _NOTICES.c.game == game, _NOTICES.c.power == seat, _NOTICES.c.kind == kind,
        _NOTICES.c.at > now - WINDOW).limit(1)).first() is not None


def _note(session: Session, game: str, seat: str, kind: str, digest: str,
          now: datetime) -> None:
    run(session, insert(_NOTICES), {"game": game, "power": seat, "kind": kind,
                                    "digest": digest, "at": now})


_LISTED = 10  # sources named in the GM's warning; the rest are counted


def _warning(config: Config, game: str, seat: str, tally: Tally) -> str:
    named = seat_name(seat)
    sources = tally.sources()
    lines = [f"  {who if who != KEYED else '(the key mailed to its own address)'}: {n}"
             for who, n in list(sources.items())[:_LISTED]]
    if len(sources) > _LISTED:
        lines.append(f"  and {len(sources) - _LISTED} more addresses")
    limits = config.limits
    return (
        f"Someone may be guessing the password of {named} in {game}: it has been given "
        f"{len(tally.failures)} wrong passwords within the hour. By the address each mail "
        "gave (the From line of a mail can be forged):\n" + "\n".join(lines) + "\n\n"
        f"The judge stops trying SIGNONs for {named} from an address once it has given "
        f"{limits.failed_signons_per_hour} wrong passwords within an hour, and from every "
        f"address but the one on file for {named} once {named} has had "
        f"{limits.failed_signons_per_power_hour} within an hour. The password's owner can "
        "always sign on from that address, or, if a guesser forges it and uses it up too, "
        "with a key the judge then mails to it. A short or common password can still be "
        "guessed in days: a longer one (SET PASSWORD) is safer. You get this warning at "
        "most once an hour for each power.")


def _key_text(config: Config, game: str, seat: str, key: str, refused: Refusal,
              now: datetime) -> str:
    named = seat_name(seat)
    told = "" if seat == MASTER else (
        f" The Game Master has been warned that {named} is being guessed at.")
    return (
        f"This address has given {refused.count} wrong passwords for {named} in {game} "
        f"within the hour, so the judge does not try its SIGNONs for {named} until "
        f"{moment(refused.until)}.\n\n"
        "If they were not yours, someone is guessing your password in mails that claim "
        f"to come from you.{told}\n\n"
        "To sign on meanwhile, answer this mail with your SIGNON in it as usual, and keep "
        f"the subject: the key in it, {key}, has your SIGNON tried, from any address, "
        f"until {moment(now + WINDOW)}, for up to {config.limits.failed_signons_per_hour} "
        "wrong passwords. You still need your password. Only this address was sent the "
        "key: do not pass it on.")
