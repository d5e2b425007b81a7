"""SET GROUP: a GM's own assignment of powers to the players' seats instead
of the variant's draw (Intercontinental's colour groups, §3), a group at a
time, before anyone has a seat. The rules module checks the assignment
(Rules.setup_problems); START refuses one that is still incomplete or broken."""

from __future__ import annotations

from dataclasses import replace

from engine.map import GameMap, power_named
from engine.variants import rules_for
from judge import games
from judge.games import GameError
from judge.handlers.common import Context, _gm
from parser import commands as c

# problems of an assignment still being written, a group at a time: START
# refuses them, SET GROUP does not
_UNFINISHED = ("has no powers", "is in no colour group")


def do_set_group(ctx: Context, command: c.SetGroup) -> str:
    game = _gm(ctx)
    if game.status != "forming":
        raise GameError(f"game {game.name} has started: its seats are fixed")
    if any(m.power for m in games.members(ctx.session, game, "player")):
        raise GameError("players already have seats: set the groups before anyone "
                        "joins a named group")
    game_map = games.map_of(game)
    rules = rules_for(game_map)
    # a group is a seat with a name of its own, not just its powers'
    groups = {seat.player.upper(): seat.player for seat in games.opening(game).seats
              if seat.named}
    if not groups:
        raise GameError(f"{game.name}'s seats are its powers: there are no groups to set")
    group = groups.get(command.group.upper())
    if group is None:
        raise GameError(f"{command.group} is not a group of {game.name}; the groups are "
                        + ", ".join(sorted(groups.values())))
    codes = tuple(_code(game_map, word) for word in command.powers)
    settings = games.settings_of(game)
    setup = {**dict(settings.setup), group: codes}
    problems = rules.setup_problems(game_map, setup)
    own = [p for p in problems if group in p and not p.endswith(_UNFINISHED)]
    if own:
        raise GameError(f"{group} cannot have those powers: " + "; ".join(own))
    settings = replace(settings, setup=tuple(sorted(setup.items())))
    game.settings = settings.to_json()
    ctx.session.add(game)
    left = [p for p in problems if p not in own]
    return (f"{group}: {' '.join(codes)}. The groups set: {settings.setup_text()}"
            + (". Not complete yet (START refuses it so): " + "; ".join(left)
               if left else ". Complete: START seats the players by it."))


def _code(game_map: GameMap, word: str) -> str:
    """A power as the rules module's assignment names it (its letter, the
    §6 code), from the code itself or any name of the power."""
    majors = {p.letter.upper(): p.letter for p in game_map.powers.values()
              if not p.ordered_by_bids}
    if word.upper() in majors:
        return majors[word.upper()]
    name = power_named(game_map, word)
    if name is None or game_map.powers[name].ordered_by_bids:
        raise GameError(f"{word} is not a power a player may have")
    return game_map.powers[name].letter
