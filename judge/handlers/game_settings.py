"""SET commands on settings (njudge's 'SET MOVEMENT 24h', 'SET NMR',
'SET GREY PRESS'...): the GM changes a game's CREATE settings; a player's
SET ZONE is their own time zone, in which deadlines are shown to them too."""

from __future__ import annotations

from engine.layers import LAYERS
from judge import games
from judge.games import GameError
from judge.handlers.common import Context, _notice, _settings, _signed_on
from judge.mail import format_deadline
from judge.models import Game
from judge.outbox import OutboxError, check_address
from judge.settings import parse_settings
from judge.zones import ZoneError, zone_name
from parser import commands as c

# the seats depend on these: they may change only before anyone has joined
_SEATING = ("variant", "players")
# the rules played: they may change only before the game starts
_BEFORE_START = tuple(LAYERS)  # a layer changes the rules of the whole game
# these apply from the next deadline computed on; the current one stays
_PERIODS = ("movement", "retreat", "adjustment", "time", "days")


def do_set_setting(ctx: Context, command: c.SetSetting) -> str:
    game = _signed_on(ctx)
    if not ctx.master:
        if command.key == "zone" and ctx.member is not None:
            return _own_zone(ctx, game, command.value)
        raise GameError("only the Game Master can change the game's settings "
                        "(SIGNON master@game password)")
    if command.key in _SEATING and (game.status != "forming"
                                    or games.members(ctx.session, game, "player")):
        raise GameError(f"{command.key} can change only before anyone has joined")
    if command.key in _BEFORE_START and game.status != "forming":
        raise GameError(f"{command.key} can change only before the game starts")
    settings, problems = parse_settings([(command.key, command.value)], _settings(game))
    if problems:
        raise GameError(problems[0])
    if command.key == "list":
        try:
            check_address(settings.list_address)
        except OutboxError as exc:
            raise GameError(f"list: {exc}") from None
    if command.key == "variant":
        games.check_offered(settings.variant)  # as CREATE: never one whose rules are not played
        game.variant = settings.variant
    game.settings = settings.to_json()
    ctx.session.add(game)
    shown = dict(settings.describe()).get(command.key, "off")  # diplomap off is not listed
    _notice(ctx, game, "settings",
            f"The Game Master has set {command.key} to {shown} in {game.name}.")
    later = " It applies from the next deadline on." if command.key in _PERIODS else ""
    return f"The {command.key} of {game.name} is now {shown}.{later}"


def _own_zone(ctx: Context, game: Game, text: str) -> str:
    assert ctx.member is not None
    try:
        zone = zone_name(text)
    except ZoneError as exc:
        raise GameError(str(exc)) from None
    game_zone = _settings(game).zone
    ctx.member.zone = "" if zone == game_zone else zone
    ctx.session.add(ctx.member)
    if not ctx.member.zone:
        return f"Your zone is the game's, {game_zone}: deadlines are shown in it alone."
    text = (f"Your zone is now {zone}: deadlines are shown in it beside the game's "
            f"zone, {game_zone}.")
    if game.deadline is not None:
        text += f"\nThe current deadline: {format_deadline(game.deadline, game_zone)}."
    return text
