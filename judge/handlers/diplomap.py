"""The GM's Diplomap command: RENAME a province the players' Draws and
Erases made (Diplomap ru12 §II.H, by Michael Harvath: the GM names new
provinces by whatever system they like).

Only provinces Diplomap made may be renamed: the base map's names are the
variant's, which every player and every map already knows.
"""

from __future__ import annotations

from engine.diplomap.in_force import rename
from engine.variant_file import load_variant
from judge import games
from judge.games import GameError
from judge.handlers.common import Context, _gm, _notice
from parser import commands as c


def do_rename(ctx: Context, command: c.RenameProvince) -> str:
    game = _gm(ctx)
    if not games.settings_of(game).diplomap:
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
    games.replace_position(ctx.session, game,
                           state.evolve(map_changes=(*state.map_changes, change)))
    said = f"{code} is now called {change.name} ({change.new_code})"
    _notice(ctx, game, "province renamed",
            f"The Game Master has named a new province of {game.name}: {said}. "
            f"Orders may name it {change.new_code}.")
    return f"{said} in {game.name} from {game.phase} on."
