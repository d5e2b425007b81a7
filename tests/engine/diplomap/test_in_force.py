"""The boards in force: built once per (base map, changes), the phase's own
working board adopted for its changes, and nothing kept alive once no map
needs it (a judge runs for months)."""

from __future__ import annotations

import gc

from engine.diplomap import in_force
from engine.diplomap.adjudication import adjudicate_map_orders
from engine.diplomap.in_force import adopt, apply_changes
from engine.diplomap.values import Draw, Erase, MapChange, Side
from engine.state import GameState
from tests.engine.diplomap.runner import diplomap_standard

# a Draw across Galicia, then an Erase of Moscow and Livonia, one phase each
ORDERS = ({"AUSTRIA": [Draw(("GAL", "WAR"), ("GAL", "BUD"), None, Side(compass="N"))]},
          {"RUSSIA": [Erase(("MOS", "LVN"))]})


def _play(adopting: bool) -> tuple[MapChange, ...]:
    game_map = diplomap_standard()
    state = GameState.initial(game_map).evolve(units=())
    changes: tuple[MapChange, ...] = ()
    for orders in ORDERS:
        board = apply_changes(game_map, changes)
        outcome = adjudicate_map_orders(board, state, (), orders)
        assert outcome.changes
        changes = (*changes, *outcome.changes)
        if adopting:
            adopt(game_map, changes, outcome.board)
    return changes


def test_the_same_changes_give_the_same_board() -> None:
    changes = _play(adopting=True)
    game_map = diplomap_standard()
    assert apply_changes(game_map, changes) is apply_changes(game_map, tuple(changes))
    assert {"GAL-E", "GAL-W", "MOS+LVN"} <= set(apply_changes(game_map, changes).provinces)


def test_boards_go_when_the_cache_lets_them_go() -> None:
    in_force._CACHE.clear()
    in_force._SAME.clear()
    gc.collect()
    before = len(in_force._BOARDS)
    for _ in range(3):
        _play(adopting=True)
        _play(adopting=False)
        in_force._CACHE.clear()
        in_force._SAME.clear()
    gc.collect()
    # a board must not hold its own map (nor its parent's) strongly: the weak
    # table of boards would then keep every board ever built
    assert len(in_force._BOARDS) <= before
