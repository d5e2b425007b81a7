"""The Favor map as the judge draws it (engine.boards.HexBoard): every
Embassy on its hex or in its slice's Perimeter, and the ways Embassies
went in the phase just adjudicated: the Winter's moves (§11.5) and the
retreats of the Embassies they dislodged (§11.7.3), and the kicks after a Spring or Autumn movement
(§11.7.1), each kick with the violation that caused it (§11.6).

How it looks is data, the optional ``[favor.drawing]`` table of the
variant file: each slice's tint (``tints``) and each player's letters on
its Embassies (``abbreviations``: three letters, since two are easily
misread: 'UK' for Ukraine reads as the United Kingdom). ``check``
validates it.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Collection, Iterator, Mapping
from typing import Any

from engine.boards import KICK, MOVE, RETREAT, Happened, HexArrow, HexBoard, HexCell
from engine.map import COLOUR, GameMap, UnitKind
from engine.map_cache import per_map
from engine.orders import Move
from engine.state import GameState
from engine.variants.dissolution.favor_board import (
    FavorBoard,
    favor_board,
    parse_label,
    perimeter,
)
from engine.variants.dissolution.nuclear import Problems, sound
from engine.variants.dissolution.state import of
from engine.variants.dissolution.violations import Violation

_LETTERS = re.compile(r"[A-Z]{3}")


def favor_map(game_map: GameMap, state: GameState, happened: Happened | None) -> HexBoard:
    """The Favor map with every Embassy (§11.1) and, over it, what the
    phase in ``happened`` did to them."""
    board = favor_board(game_map)
    tints, names = _drawing(game_map)
    pieces: dict[str, str] = {}
    pools: dict[str, list[str]] = {letter: [] for letter in board.slices}
    for power, _, space in of(state).embassies:
        if board.spaces[space].is_perimeter:
            pools[board.spaces[space].slice].append(power)
        else:
            pieces[space] = power
    return HexBoard(
        title="Favor map",
        cells=tuple(HexCell(label, q, r, label[0])
                    for label, (q, r) in sorted(board.cells.items())),
        groups=dict(board.slices),
        pieces=pieces,
        pools={letter: tuple(sorted(powers)) for letter, powers in pools.items()},
        pool_labels={letter: perimeter(letter) for letter in board.slices},
        pool_cells={letter: tuple(label for label in board.in_slice(letter)
                                  if board.spaces[label].value == 1)
                    for letter in board.slices},
        tints=tints,
        names=names,
        arrows=tuple(arrows(board, state, happened)) if happened is not None else ())


def arrows(board: FavorBoard, state: GameState, happened: Happened) -> Iterator[HexArrow]:
    """The Embassies' moves among the orders, the kicks, then the retreats:
    every other Embassy that stands elsewhere than before the phase."""
    went: set[tuple[str, str]] = set()  # (power, slice) of each Embassy moved or kicked
    for power, order, succeeded in happened.orders:
        unit = getattr(order, "unit", None)
        if isinstance(order, Move) and unit is not None and unit.kind is UnitKind.EMBASSY:
            origin, to = _place(board, unit.location), _place(board, order.dest)
            if origin and to:
                yield HexArrow(power, origin, to, MOVE, succeeded)
                if succeeded:
                    went.add((power, board.spaces[to].slice if to in board.spaces else to))
    for kick in kicks(board, happened.reported):
        went.add((kick.power, kick.to[0]))
        yield kick
    if happened.before is None:
        return
    was = {(p, n): s for p, n, s in of(happened.before).embassies}
    for power, nuclear, space in of(state).embassies:
        old = was.get((power, nuclear))
        if old is None or old == space or (power, board.slice_of[nuclear]) in went:
            continue
        yield HexArrow(power, _place(board, old), _place(board, space), RETREAT)


def kicks(board: FavorBoard, reported: Mapping[str, tuple[Mapping[str, Any], ...]]
          ) -> Iterator[HexArrow]:
    """Each kick reported (kicks.py), with its reason: the violations of one
    player against one nuclear power kick its Embassy once each, in the
    order both are reported (§11.7.1)."""
    reasons: dict[tuple[str, str], list[str]] = defaultdict(list)
    for line in reported.get("violations", ()):
        reasons[str(line["power"]), str(line["nuclear"])].append(_reason(line))
    for line in reported.get("kicks", ()):
        power, nuclear = str(line["power"]), str(line["nuclear"])
        origin, to = _place(board, str(line["from"])), _place(board, str(line["to"]))
        why = reasons[power, nuclear].pop(0) if reasons[power, nuclear] else ""
        if origin and to:
            yield HexArrow(power, origin, to, KICK, True, f"a violation against {nuclear}: "
                                                         f"{why}" if why else "a violation")


def _reason(line: Mapping[str, Any]) -> str:
    """A violation, said without the offender (the arrow's owner)."""
    violation = Violation(str(line["power"]), str(line["nuclear"]), str(line["kind"]),
                          str(line["unit"]), str(line["target"]), line.get("via"))
    return violation.describe().partition(": ")[2]


def _place(board: FavorBoard, text: str) -> str:
    """A space as the drawing names it: a hex by its label, a Perimeter by
    its slice's letter (the board's pool); '' for no space of the map. An
    Embassy in a Perimeter is written ``I0z`` or, to the resolver, ``I0z:POWER``."""
    space = parse_label(text.partition(":")[0])
    if space is None or space.label not in board.spaces:
        return ""
    return space.slice if space.is_perimeter else space.label


# -- the [favor.drawing] table ----------------------------------------------------

@per_map
def _drawing(game_map: GameMap) -> tuple[Mapping[str, str], Mapping[str, str]]:
    """Each slice's tint and each power's letters, read once per map."""
    return sound(read_drawing(game_map, favor_board(game_map).slices))


def read_drawing(game_map: GameMap, slices: Collection[str]
                 ) -> tuple[tuple[dict[str, str], dict[str, str]], Problems]:
    """The ``[favor.drawing]`` table's tints and abbreviations, and every
    problem found in them. The table is optional; so is each part of it,
    but an abbreviations table names every played power."""
    problems: Problems = []
    raw = (game_map.tables.get("favor") or {}).get("drawing", {})
    if not isinstance(raw, dict):
        return ({}, {}), [(("favor", "drawing"), "drawing must be a table")]
    tints: dict[str, str] = {}
    for letter, colour in (raw.get("tints") or {}).items():
        path = ("favor", "drawing", "tints", letter)
        if letter not in slices:
            problems.append((path, f"no slice {letter}"))
        elif not (isinstance(colour, str) and COLOUR.fullmatch(colour)):
            problems.append((path, "a tint is a colour like '#c0cbe9'"))
        else:
            tints[letter] = colour.lower()
    names: dict[str, str] = {}
    given = raw.get("abbreviations")
    if given is not None:
        played = [n for n, p in game_map.powers.items() if not p.ordered_by_bids]
        seen: dict[str, str] = {}
        for power in played:
            text = given.get(power) if isinstance(given, dict) else None
            path = ("favor", "drawing", "abbreviations", power)
            if not (isinstance(text, str) and _LETTERS.fullmatch(text)):
                problems.append((path, f"{power} needs three capital letters, like 'UKR'"))
            elif text in seen:
                problems.append((path, f"{text} is also {seen[text]}'s"))
            else:
                seen[text] = power
                names[power] = text
        for power in given if isinstance(given, dict) else ():
            if power not in played:
                problems.append((("favor", "drawing", "abbreviations", power),
                                 f"{power} is not a played power"))
    return (tints, names), problems

