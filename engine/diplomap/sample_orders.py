"""A Draw and an Erase a seat could give on the board as it stands, each
valid on its own (rule text ru12 §II, Michael Harvath, CC BY-SA 4.0): the
examples the start mail shows a player, drawn on the player's own home
provinces so that they read as moves it might make. Whether an order
succeeds also depends on the other orders of its phase; these are only
checked alone, with engine/diplomap/validity.py's checks."""

from __future__ import annotations

from collections.abc import Collection, Iterator, Sequence

from engine.diplomap.board import WorkingBoard
from engine.diplomap.in_force import board_of
from engine.diplomap.validity import DrawPlan, ErasePlan, check_draw, check_erase, check_merge
from engine.diplomap.values import EDGE, Draw, Erase, Side
from engine.map import GameMap


def sample_orders(game_map: GameMap, powers: Sequence[str], occupied: Collection[str] = ()
                  ) -> tuple[Draw | None, Erase | None]:
    """The first valid Draw and Erase across the home provinces of
    ``powers`` in order, on ``game_map`` (the board in force), with units
    in the ``occupied`` provinces; None where none of them allows one."""
    board = board_of(game_map)
    draw = next((d for code in _homes(game_map, board, powers) for d in _draws(board, code)
                 if isinstance(check_draw(board, d, ()), DrawPlan)), None)
    erase = next((e for code in _homes(game_map, board, powers) for e in _erases(board, code)
                  if isinstance(check_erase(board, e), ErasePlan)
                  and check_merge(board, (e.border[0], e.border[1]), occupied) is None), None)
    return draw, erase


def _homes(game_map: GameMap, board: WorkingBoard, powers: Sequence[str]) -> Iterator[str]:
    for power in powers:
        found = game_map.powers.get(power)
        for code in found.home if found is not None else ():
            if code in board.rings:
                yield code


def _single(ring: Sequence[str]) -> list[int]:
    """Ring positions of neighbours met once (a border named by them is unambiguous)."""
    return [k for k, n in enumerate(ring) if n != EDGE and ring.count(n) == 1]


def _draws(board: WorkingBoard, code: str) -> Iterator[Draw]:
    """Draws across ``code`` from one border to another two or more apart,
    the centre (if any) with the neighbour just after the first border."""
    ring = board.rings[code]
    once = _single(ring)
    centre = board.provinces[code].centre is not None
    for i in once:
        for j in once:
            if j - i < 2 or (i + len(ring)) - j < 2:
                continue
            side = ring[i + 1]
            if centre and (side == EDGE or ring.count(side) != 1):
                continue
            yield Draw((code, ring[i]), (code, ring[j]),
                       centre=Side(neighbour=side) if centre else None)


def _erases(board: WorkingBoard, code: str) -> Iterator[Erase]:
    ring = board.rings[code]
    for k in _single(ring):
        yield Erase((code, ring[k]))
