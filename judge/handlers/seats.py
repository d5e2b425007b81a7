"""Taking part: OBSERVE, JOIN (and taking over a vacant seat), SIGNON, SIGNOFF."""

from __future__ import annotations

from engine.variants import rules_for
from judge import games, turns
from judge.games import MASTER, GameError
from judge.handlers.common import Context, _game, _identity, _notice, board_notice_line
from judge.handlers.playing import _orders_summary
from judge.models import Game, Member
from judge.passwords import hash_password, remembered
from judge.seating import seat_told
from judge.signons import Verdict, candidates
from parser import commands as c


def do_observe(ctx: Context, command: c.Observe) -> str:
    game = _game(ctx, command.game)
    member = games.observe(ctx.session, game, ctx.sender, hash_password(command.password),
                           command.name)
    ctx.game, ctx.member, ctx.master = game, member, False
    return (f"You observe {game.name} as {member.power}: you will receive its results and "
            f"broadcast press. Sign on with SIGNON {member.power.lower()}@{game.name} "
            "password.")


def do_join(ctx: Context, command: c.Join) -> str:
    game = _game(ctx, command.game)
    if game.status != "forming":
        return _take_over(ctx, game, command)
    member = games.join(ctx.session, game, ctx.sender, hash_password(command.password),
                        command.power)
    ctx.game, ctx.member, ctx.master = game, member, False
    players = len(games.members(ctx.session, game, "player"))
    wanted = len(games.seat_names(game))
    text = (f"You have joined {game.name}"
            + (f" as {member.power}" if member.power else "")
            + f". {players} of {wanted} players.")
    if board_notice_line(game):
        text += "\n" + board_notice_line(game)
    settings = games.settings_of(game)
    if settings.setup:  # those who join see the setup in force (Dissolution §11.2)
        rules = rules_for(games.map_of(game))
        text += (f"\nThe GM's {rules.setup_title} ({rules.setup_default}): "
                 + settings.setup_text() + ".")
    if games.is_full(ctx.session, game):
        # the last seat taken: the game starts now and this player's seat is
        # known, so the reply names it and the SIGNON line to use (a POWER#n
        # number would be stale before the mail is read)
        chose = bool(member.power)
        state = games.start(ctx.session, game, ctx.now)
        ctx.mails.extend(turns.started_mails(ctx.session, game, ctx.config))
        text += f"\nThe game is full and has started: {game.phase}."
        seat, signon = seat_told(state, member.power)
        if not chose:
            text += f"\nYou were given {seat}."
        text += (f"\nSign on with SIGNON {signon}@{game.name} and the password you "
                 "joined with.")
    elif not member.power:
        number = games.player_number(ctx.session, game, member)
        text += (f"\nYou are {_identity(ctx, game, member)} until the game starts and gives "
                 f"you a power; sign on meanwhile with SIGNON {number}{game.name} password.")
    return text


def _take_over(ctx: Context, game: Game, command: c.Join) -> str:
    """Joining a running game: a seat left vacant by RESIGN, EJECT or REPLACE."""
    if game.status not in ("active", "paused") or not command.power:
        raise GameError(f"game {game.name} is not taking players (it is {game.status})")
    seat = games.resolve_power(game, command.power)
    if seat is None:
        raise GameError(f"{command.power} is not a power of {game.name}")
    players = games.members(ctx.session, game, "player")
    if any(m.power == seat for m in players):
        raise GameError(f"{seat} is played by someone else")
    if any(m.address.lower() == ctx.sender.lower() for m in players):
        raise GameError(f"{ctx.sender} already plays or observes {game.name}")
    reserved = games.reservation(ctx.session, game, seat)
    if reserved is not None and reserved.address.lower() != ctx.sender.lower():
        raise GameError(f"{seat} is kept for the replacement the GM named")
    member = reserved or Member(game_id=game.id or 0, role="player", power=seat,
                                address=ctx.sender, password_hash="")
    member.password_hash = hash_password(command.password)
    member.status = "active"
    ctx.session.add(member)
    ctx.session.flush()
    ctx.game, ctx.member, ctx.master = game, member, False
    _notice(ctx, game, "replacement", f"{seat} in {game.name} is now played by a new player.")
    return f"You now play {seat} in {game.name} ({game.phase})."


def do_signon(ctx: Context, command: c.Signon) -> str:
    # a failed SIGNON must not leave an earlier one in force
    ctx.game, ctx.member, ctx.master = None, None, False
    # checked before the transaction (judge.signons): here only compared
    verdict = ctx.signons.pop(0) if ctx.signons else Verdict(
        refusal="the password could not be checked; please send the mail again")
    if verdict.refusal:
        raise GameError(verdict.refusal)
    game = _game(ctx, command.game)
    _, hashes = candidates(ctx.session, game, command.power)
    for stored, member in hashes:
        if not _matches(verdict, command.password, stored):
            continue
        if member is None:
            ctx.game, ctx.member, ctx.master = game, None, True
            return f"Signed on as the Game Master of {game.name}."
        ctx.game, ctx.member, ctx.master = game, member, False
        text = f"Signed on as {_identity(ctx, game, member)} in {game.name}."
        if game.status == "active" and member.role == "player":
            text += "\n" + _orders_summary(ctx, game, member)
        return text
    if command.power.upper() in (MASTER, "M", "GM"):
        raise GameError("wrong password for the Game Master")
    raise GameError(f"wrong power or password for {game.name}")


def _matches(verdict: Verdict, password: str, stored: str) -> bool:
    if stored in verdict.checked:
        return stored in verdict.matched
    # not there when checked: made by this mail (JOIN, then SIGNON) it is
    # known without scrypt; changed by another meanwhile, it does not match
    return remembered(password, stored)


def do_signoff(ctx: Context, command: c.Signoff) -> str:
    ctx.game, ctx.member, ctx.master = None, None, False
    return "Signed off. Anything after this is ignored."
