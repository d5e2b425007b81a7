"""What can be said of a map order the moment it arrives, on the board in
force (rule text ru12 by Michael Harvath, CC BY-SA 4.0).

A map order is judged at the deadline on the board in force after the
moves (§II.F), and that board cannot change while the phase is open: the
moves change no border. So whatever :func:`engine.diplomap.validity.check_draw`
and :func:`~engine.diplomap.validity.check_erase` refuse there (an Erase of
Switzerland, of land with sea, a split centre with no side for it) is
refused the same way at the deadline, whatever else is ordered, and the
judge can say so on arrival instead of filing an order that must fail and
uses up the power's Draw or Erase for the year (§II.C). What depends on
the other orders or the moves (§II.G.3, G.4, G.5 after the Draws, G.8) is
not checked here.
"""

from __future__ import annotations

from engine.diplomap.in_force import board_of
from engine.diplomap.validity import Verdict, check_draw, check_erase
from engine.diplomap.values import Draw, MapOrder
from engine.map import GameMap


def refusal_on_arrival(board: GameMap, order: MapOrder) -> Verdict | None:
    """Why ``order`` can never succeed on ``board`` (the board in force),
    with the section it rests on; None when it may, depending on the
    other orders and the moves."""
    working = board_of(board)
    verdict = (check_draw(working, order, ()) if isinstance(order, Draw)
               else check_erase(working, order))
    return verdict if isinstance(verdict, Verdict) and not verdict.ok else None
