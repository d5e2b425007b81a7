"""An observer leaving a game: UNSUBSCRIBE (LEAVE, UNOBSERVE), what the
List-Unsubscribe header of the game's mail sends, and RESIGN said by an
observer (njudge lets observers RESIGN).

Leaving goes by the sender's address, as any mailing list's unsubscribe
does: it only ever stops mail, and the one click of a mail program carries
no password. A player cannot leave this way: a seat is given up by RESIGN,
which tells the GM and the other players.
"""

from __future__ import annotations

from judge import games
from judge.games import GameError
from judge.handlers.common import Context, _game
from judge.models import Game, Member
from parser import commands as c


def do_unsubscribe(ctx: Context, command: c.Unsubscribe) -> str:
    if command.game:
        game = _game(ctx, command.game)
    elif ctx.game is not None:
        game = ctx.game
    else:
        raise GameError("name the game: UNSUBSCRIBE mygame")
    mine = [m for m in games.members(ctx.session, game)
            if m.address.lower() == ctx.sender.lower()]
    if ctx.game is game and ctx.member is not None and ctx.member not in mine:
        mine.append(ctx.member)  # signed on from another address
    watching = [m for m in mine if m.role == "observer"]
    if watching:
        return leave(ctx, game, watching)
    playing = [m for m in mine if m.role == "player"]
    if playing:
        seat = playing[0].power or "a seat"
        raise GameError(f"you play {seat} in {game.name}, so the game's mail keeps coming: "
                        "to give up your seat, SIGNON and RESIGN (the GM may then REPLACE "
                        "you)")
    list_note = ""
    if games.settings_of(game).list_address:
        list_note = (f" If its mail reaches you through the list "
                     f"{games.settings_of(game).list_address}, leave that list there.")
    return f"{ctx.sender} does not observe {game.name}: nothing changed.{list_note}"


def leave(ctx: Context, game: Game, observers: list[Member]) -> str:
    for member in observers:
        member.status = "left"
        ctx.session.add(member)
    if ctx.member in observers:
        ctx.game, ctx.member = None, None
    return (f"You no longer observe {game.name}: the judge sends you none of its mail. "
            f"To come back, OBSERVE {game.name} password.")
