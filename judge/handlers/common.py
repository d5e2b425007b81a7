"""What every command handler shares: the mail's context (who is signed on
to which game) and the checks and notices they all use."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlmodel import Session

from engine.variant_file import variant_notice
from judge import games, turns
from judge.config import Config
from judge.games import GameError
from judge.mail import (
    header,
    render,
    to_game,
)
from judge.models import Game, Member
from judge.outbox import OutboxError, OutgoingMail, check_address
from judge.signons import Verdict


@dataclass
class Context:
    session: Session
    config: Config
    sender: str
    now: datetime
    inbound_id: int | None = None
    game: Game | None = None  # the game signed on to
    member: Member | None = None  # the player or observer signed on as
    master: bool = False  # signed on as the game's GM
    mails: list[OutgoingMail] = field(default_factory=list)
    # a game whose orders changed: processed early, at the end of the mail,
    # if every power then has orders (so corrections later in the mail count)
    early: list[Game] = field(default_factory=list)
    # files for the reply to this mail (MAP's maps)
    attachments: list[tuple[str, str, bytes]] = field(default_factory=list)
    # the verdicts on this mail's SIGNONs, checked before its transaction
    signons: list[Verdict] = field(default_factory=list)



# -- helpers -------------------------------------------------------------------


def _game(ctx: Context, name: str) -> Game:
    game = games.game_with_members(ctx.session, name, lock=True)
    if game is None:
        raise GameError(f"there is no game called {name.lower()}; send LIST for the games")
    return game


def _signed_on(ctx: Context) -> Game:
    if ctx.game is None:
        raise GameError("SIGNON first (SIGNON power@game password)")
    return ctx.game


def _player(ctx: Context) -> tuple[Game, Member]:
    game = _signed_on(ctx)
    if ctx.member is None or ctx.member.role != "player":
        raise GameError("only a player can do that; SIGNON as your power")
    if ctx.member.status != "active":
        raise GameError(f"you are no longer a player of {game.name}")
    return game, ctx.member


def _gm(ctx: Context) -> Game:
    game = _signed_on(ctx)
    if not ctx.master:
        raise GameError("only the Game Master can do that (SIGNON master@game password)")
    return game


def _settings(game: Game) -> Any:
    return games.settings_of(game)


def _notice(ctx: Context, game: Game, subject: str, text: str) -> None:
    settings = _settings(game)
    body = render("notice.txt.j2", **header(ctx.config, game, settings), text=text)
    ctx.mails.extend(to_game(game, settings, ctx.config, turns.everyone(ctx.session, game),
                             f"Diplomacy {subject} {game.name}", body, "notice"))


def _after_change(ctx: Context, game: Game) -> str:
    """Early processing is looked at once the whole mail is read
    (:func:`finish_mail`)."""
    if all(g is not game for g in ctx.early):
        ctx.early.append(game)
    return ""


def finish_mail(ctx: Context) -> str:
    """After the last command of a mail: process early each game the mail
    gave orders to, if every power now has orders and nobody waits. The text
    for the reply, if any."""
    done = []
    for game in ctx.early:
        if turns.all_orders_in(ctx.session, game):
            phase = game.phase
            ctx.mails.extend(turns.process(ctx.session, game, ctx.config, ctx.now))
            where = f" in {game.name}" if len(ctx.early) > 1 else ""
            done.append(f"Every power has orders{where}: {phase} has been processed; "
                        "results are mailed.")
    return "\n".join(done)


def _mailable(address: str) -> str:
    """An address the judge can mail, checked before it is stored: a bad
    one would make every later mail to the game fail to build."""
    if "," in address:
        raise GameError("give one address (the judge mails one address per player)")
    try:
        return check_address(address)
    except OutboxError as exc:
        raise GameError(str(exc)) from None

def board_notice_line(game: Game) -> str:
    """A line for each reply that shows a game's board (CREATE, JOIN, LIST,
    MAP) when its variant has a notice about the board ('Variant
    intercontinental: provisional board, not the official map.'); else ''."""
    notice = variant_notice(game.variant)
    return f"Variant {game.variant}: {notice}." if notice else ""


def _identity(ctx: Context, game: Game, member: Member) -> str:
    """Who a member is in replies: a power, an observer's name, or POWER#n;
    a seat with a name of its own by that name ('Blue (CAPE_COLONY/...)')."""
    if "/" in member.power:  # only seats of several powers may have a name
        name = next((s.player for s in games.opening(game).seats
                     if "/".join(s.powers) == member.power), member.power)
        return member.power if name == member.power else f"{name} ({member.power})"
    if member.power:
        return member.power
    return f"POWER#{games.player_number(ctx.session, game, member)}"
