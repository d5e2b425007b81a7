"""Orders from a game page: signed on with game, power and password, and
sent to the judge as a mail.

Signing on checks the password as a mail's SIGNON is checked
(judge.signons.verify), under the same limits on guessing: the source of a
page's guesses is its client's address, ``web 192.0.2.7``, never the
power's address on file, so a guesser on the web can neither pass for the
player nor use up the player's own address.

What a signed-on page sends (orders, bids, map orders, Embassy orders; the
GM's PROCESS and SET DEADLINE) becomes a mail from the address on file,
``SIGNON power@game password``, the text, ``SIGNOFF``, stored in the inbound
store like any received mail and processed by the same workers: the same
order entry, the same checks, the same reply, mailed to that address (under
its reply throttle) and shown on the page. A crash after the page is told
"stored" loses nothing: the mail is processed when the judge starts.
"""

from __future__ import annotations

import email.utils
import time
from collections.abc import Callable
from dataclasses import dataclass
from email.message import EmailMessage
from email.parser import BytesParser
from email.policy import default as default_policy
from typing import cast

from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from judge import games, signons
from judge.config import Config
from judge.db import reading
from judge.games import MASTER
from judge.intake.store import store_inbound
from judge.models import Game, InboundMail, Outbox
from judge.passwords import check_password
from parser.commands import Line, Orders, Signon, parse_commands

SOURCE = "web"  # the inbound store's source column for a page's mail
MAX_ORDERS_CHARS = 20_000  # a page's orders; a mail of them would be 20 KB


@dataclass(frozen=True)
class SignedOn:
    game: str
    power: str  # the seat's name, or MASTER


@dataclass(frozen=True)
class Refused:
    reason: str


@dataclass(frozen=True)
class Reply:
    """What came of a page's mail: the judge's reply, as mailed, or why
    there is none to show yet."""
    text: str
    processed: bool  # False: stored, but not processed within the wait


def client_source(client: str) -> str:
    """The source a page's wrong passwords are counted under."""
    return f"web {client}"[:120]


def sign_on(engine: Engine, config: Config, game_name: str, power: str, password: str,
            client: str) -> SignedOn | Refused:
    """Check a page's sign-on as a mail's SIGNON is checked."""
    game_name, power = game_name.strip().lower(), power.strip().upper()
    if not game_name or not power or not password:
        return Refused("give the game, your power (or MASTER) and your password")
    if any(c.isspace() for c in password) or len(password) > 200:
        return Refused("a password is one word")
    command = Signon(power, game_name, password)
    line = Line(1, f"SIGNON {power}@{game_name}", command)
    with reading(engine) as reader:
        game = games.game_with_members(reader, game_name)
        if game is None:
            return Refused(f"there is no game called {game_name}")
        verdict = signons.verify(engine, reader, config,
                                 signons.Sender(client_source(client), ""), [line])[0]
        if verdict.refusal:
            return Refused(verdict.refusal)
        seat, hashes = signons.candidates(reader, game, power)
        matched = [member for stored, member in hashes if stored in verdict.matched]
    if not hashes:
        return Refused(f"{power} is not a power of {game_name}")
    if not matched:
        return Refused(f"wrong password for {power} in {game_name}")
    member = matched[0]
    if member is None:
        return SignedOn(game.name, MASTER)
    if member.role != "player" or not member.power:
        return Refused("only a player with a power, or the GM, gives orders from the page; "
                       "an observer reads the game's page without signing on")
    return SignedOn(game.name, seat)


def only_orders(text: str) -> str:
    """'' when every line of a page's text is an order line (orders, bids,
    map orders...: whatever is not a command); else why it is refused. Other
    commands (JOIN, RESIGN, SET PASSWORD...) are mailed to the judge."""
    if len(text) > MAX_ORDERS_CHARS:
        return f"at most {MAX_ORDERS_CHARS} characters of orders at once"
    for line in parse_commands(text):
        if not isinstance(line.command, Orders):
            return (f"line {line.line}, {line.source[:40]!r}, is a command, not an order: "
                    "this page takes orders only; mail the judge for commands")
    return ""


def on_file(session: Session, game: Game, power: str) -> tuple[str, str] | None:
    """The address on file for a seat (or the GM) and its password's hash:
    whom a SIGNON for ``power`` names (judge.signons.candidates)."""
    _, hashes = signons.candidates(session, game, power)
    for stored, member in hashes:
        if member is None:
            return game.master_address, stored
        if member.role == "player":
            return member.address, stored
    return None


def compose(config: Config, game: str, power: str, password: str, address: str,
            text: str) -> tuple[str, bytes]:
    """The mail a page sends: its Message-ID and its bytes."""
    message = EmailMessage()
    message["From"] = address
    message["To"] = config.address
    message["Subject"] = f"{game}: from the game's web page"
    message["Date"] = email.utils.formatdate(localtime=False)
    message_id = email.utils.make_msgid(domain="web.invalid")
    message["Message-ID"] = message_id
    body = f"SIGNON {power}@{game} {password}\n{text.strip()}\nSIGNOFF\n"
    message.set_content(body, charset="utf-8")
    return message_id, message.as_bytes()


def send(engine: Engine, config: Config, game: str, power: str, password: str, text: str,
         hand_over: Callable[[int], None]) -> tuple[int, str] | Refused:
    """Store a page's mail and hand it to the workers; its stored id and
    Message-ID."""
    with reading(engine) as reader:
        found = games.game_with_members(reader, game)
        seat = on_file(reader, found, power) if found is not None else None
    if found is None or seat is None:
        return Refused(f"{power} no longer plays in {game}; sign on again")
    address, stored = seat
    # the password was right at sign-on; changed by mail since, the mail's
    # SIGNON would count a wrong password against the address on file
    if not check_password(password, stored):
        return Refused(f"the password for {power} in {game} has changed since you signed "
                       "on; sign on again")
    message_id, raw = compose(config, found.name, power, password, address, text)
    inbound_id, _ = store_inbound(engine, raw, SOURCE, envelope_from=address)
    hand_over(inbound_id)
    return inbound_id, message_id


def reply_to(engine: Engine, inbound_id: int, message_id: str, wait_seconds: float,
             poll_seconds: float = 0.05) -> Reply:
    """The judge's reply to a page's mail, once it is processed (waiting
    at most ``wait_seconds``): the reply's text as mailed, or the note that
    says why none was sent (the address's reply throttle)."""
    until = time.monotonic() + wait_seconds
    while True:
        with Session(engine) as session:
            mail = session.get(InboundMail, inbound_id)
            if mail is not None and mail.status != "new":
                return _reply(session, mail, message_id)
        if time.monotonic() >= until:
            return Reply("Your mail is stored and will be processed shortly; the judge's "
                         "reply will reach you by mail.", processed=False)
        time.sleep(poll_seconds)


def _reply(session: Session, mail: InboundMail, message_id: str) -> Reply:
    since = mail.received_at
    rows = session.exec(select(Outbox).where(Outbox.kind == "reply",
                                             col(Outbox.created_at) >= since)
                        .order_by(col(Outbox.id))).all()
    for row in rows:
        parsed = BytesParser(policy=default_policy).parsebytes(row.raw)
        if str(parsed.get("In-Reply-To", "")).strip() == message_id:
            part = parsed.get_body(preferencelist=("plain",))
            if part is not None:
                return Reply(cast(str, part.get_content()), processed=True)
    note = mail.note or "the judge sent no reply"
    return Reply(f"Carried out; no reply was mailed: {note}", processed=True)
