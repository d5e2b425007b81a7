"""The GM's Diplomap command: RENAME a province the players' Draws and
Erases made (Diplomap ru12 §II.H, by Michael Harvath: the GM names new
provinces by whatever system they like).

Only provinces Diplomap made may be renamed: the base map's names are the
variant's, which every player and every map already knows.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace

from engine.diplomap.in_force import rename
from engine.diplomap.state import DiplomapState, map_changes, of
from engine.state import GameState
from engine.units import Unit
from engine.variant_file import load_variant
from engine.variants import rules_for
from judge import filed_lines, games
from judge.games import GameError
from judge.handlers.common import Context, _gm, _notice
from judge.models import Game
from parser import commands as c


def do_rename(ctx: Context, command: c.RenameProvince) -> str:
    game = _gm(ctx)
    if not rules_for(games.map_of(game)).diplomap:
        raise GameError(f"game {game.name} is not played with Diplomap: its provinces "
                        "keep the variant's names")
    if game.status not in ("active", "paused"):
        raise GameError(f"game {game.name} is not running (it is {game.status})")
    game_map = games.map_of(game)
    state = games.current_state(ctx.session, game)
    board = games.board_of(game_map, state)
    code, new_code = command.code.upper(), command.new_code.upper()
    if code in load_variant(game.variant).provinces and code in board.provinces:
        raise GameError(f"{code} is a province of the base map: only provinces made by "
                        "Draw and Erase orders may be renamed (§II.H)")
    try:
        change = rename(board, code, new_code, command.name.strip())
    except ValueError as exc:
        raise GameError(str(exc)) from None
    renamed = renamed_state(state, code, change.new_code)
    games.replace_position(ctx.session, game,
                           renamed.with_part(DiplomapState((*map_changes(state), change),
                                                           of(state).map_orders_used)))
    _rename_on_file(ctx, game, code, change.new_code)
    said = f"{code} is now called {change.name} ({change.new_code})"
    _notice(ctx, game, "province renamed",
            f"The Game Master has named a new province of {game.name}: {said}. "
            f"Orders may name it {change.new_code}.")
    return f"{said} in {game.name} from {game.phase} on."


def _moved(location: str, code: str, new_code: str) -> str:
    """A location in province ``code`` (or on one of its coasts) under the new code."""
    province, slash, coast = location.partition("/")
    return new_code + slash + coast if province == code else location


def renamed_state(state: GameState, code: str, new_code: str) -> GameState:
    """The position with every place in ``code`` called ``new_code``: the
    units on it, its centre's owner, a dislodged unit's place and choices."""
    def unit(u: Unit) -> Unit:
        return replace(u, location=_moved(u.location, code, new_code))
    return state.evolve(
        units=tuple(unit(u) for u in state.units),
        owners=tuple(sorted((_moved(c, code, new_code), p) for c, p in state.owners)),
        dislodged=tuple(replace(d, unit=unit(d.unit),
                                attacker=_moved(d.attacker, code, new_code),
                                retreats=tuple(_moved(r, code, new_code) for r in d.retreats))
                        for d in state.dislodged),
        contested=frozenset(_moved(c, code, new_code) for c in state.contested))


def _rename_on_file(ctx: Context, game: Game, code: str, new_code: str) -> None:
    """Orders on file that name the province name it by its new code, so
    they still read at the deadline."""
    word = re.compile(rf"(?<![\w+-]){re.escape(code)}(?![\w+-])", re.IGNORECASE)
    for row in filed_lines.rows(ctx.session, game):  # every kind of line names provinces
        lines = [word.sub(new_code, line) for line in json.loads(row.lines)]
        if lines != json.loads(row.lines):
            row.lines = json.dumps(lines)
            ctx.session.add(row)
    ctx.session.flush()  # what was read of the lines on file is forgotten (filed_lines)
