"""What can be said of a map order, or of a place it names, the moment it
arrives, on the board in force (rule text ru12 by Michael Harvath,
CC BY-SA 4.0).

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

import re

from engine.diplomap.board import WORDS
from engine.diplomap.in_force import board_of
from engine.diplomap.validity import Verdict, check_draw, check_erase
from engine.diplomap.values import Draw, MapOrder
from engine.map import GameMap, normalise_name, province_of


def refusal_on_arrival(board: GameMap, order: MapOrder) -> Verdict | None:
    """Why ``order`` can never succeed on ``board`` (the board in force),
    with the section it rests on; None when it may, depending on the
    other orders and the moves."""
    working = board_of(board)
    verdict = (check_draw(working, order, ()) if isinstance(order, Draw)
               else check_erase(working, order))
    return verdict if isinstance(verdict, Verdict) and not verdict.ok else None


# A part of a split province is named by the base province's code and its
# side (engine/diplomap/changes.py part_names: 'MUN-N', 'SPA-I', a digit when
# taken); two provinces made one by the codes of both ('MOS+LVN').
_SIDES = "|".join(sorted(WORDS, key=len, reverse=True))  # 'NE' before 'N'
_PART = re.compile(rf"(?P<base>[A-Za-z][\w.]*)-(?P<side>{_SIDES})\d*(?![\w+-])", re.IGNORECASE)
_MERGED = re.compile(r"(?P<one>[A-Za-z][\w.]*(?:-\w+)?)\+(?P<two>[A-Za-z][\w.]*(?:-\w+)?)"
                     r"(?![\w+-])")
_CANDIDATE = re.compile(r"(?<![\w+-])[A-Za-z][\w.]*(?:[-+][\w.]+)+(?![\w+-])")


def gone_place(board: GameMap, text: str) -> str | None:
    """Where a line that could not be read names a province Diplomap makes
    (a part of a split, two provinces made one) that the board in force
    does not have, what the board has there instead: 'there is no province
    MUN-N now: Munich (MUN) is not split'. A rollback takes a change's
    provinces away with it (and a player may guess a name); None when the
    line names no such place."""
    for found in _CANDIDATE.finditer(text):
        written = found.group()
        if _known(board, written):
            continue
        said = _part_gone(board, written) or _merge_gone(board, written)
        if said is not None:
            return said
    return None


def _known(board: GameMap, written: str) -> str | None:
    """The province of ``board`` a name stands for, if any."""
    if written.upper() in board.provinces:
        return written.upper()
    location = board.aliases.get(normalise_name(written))
    return None if location is None else province_of(location)


def _part_gone(board: GameMap, written: str) -> str | None:
    part = _PART.fullmatch(written)
    if part is None:
        return None
    whole = _known(board, part.group("base"))
    if whole is None:
        return None
    name = board.provinces[whole].name
    return (f"there is no province {written.upper()} now: {name} ({whole}) is not split "
            "on the board in force")


def _merge_gone(board: GameMap, written: str) -> str | None:
    merged = _MERGED.fullmatch(written)
    if merged is None:
        return None
    one, two = _known(board, merged.group("one")), _known(board, merged.group("two"))
    if one is None or two is None or one == two:
        return None
    return (f"there is no province {written.upper()} now: {board.provinces[one].name} "
            f"({one}) and {board.provinces[two].name} ({two}) are two provinces on the "
            "board in force")
