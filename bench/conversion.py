"""Converting between the ``diplomacy`` package and this engine.

The package writes orders as strings ('A LON - BEL VIA', 'F NTH C A LON - BEL',
'A PAR D', ...) and a position as unit and centre lists per power. Here they
become ``engine.orders`` values and an ``engine.state.GameState``.

What each engine says happened is also put in one form, so that the two can
be compared: the board as (power, unit) pairs, the dislodged units with their
retreat options, and each order's outcome as succeeds / fails / void.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from engine.game import Resolution
from engine.map import GameMap, UnitKind
from engine.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Remove,
    Retreat,
    SupportHold,
    SupportMove,
    UnitRef,
    Waive,
)
from engine.phase import Phase
from engine.state import GameState
from engine.units import Unit

# ---------------------------------------------------------------------------
# The package's order strings and positions as this engine's values
# ---------------------------------------------------------------------------

def _ref(kind: str, loc: str) -> UnitRef:
    return UnitRef(loc, UnitKind(kind))


def convert_order(text: str, phase_kind: str) -> Order:
    """One order as the package writes it ('A PAR - BUR', 'A LON - BEL VIA',
    'F NTH C A LON - BEL', 'A PAR S A MAR - BUR', 'A PAR S A MAR', 'F BRE H',
    'A MUN R BOH', 'A MUN D', 'F STP/SC B', 'WAIVE') as an engine order value."""
    words = text.split()
    if words == ["WAIVE"]:
        return Waive()
    unit = _ref(words[0], words[1])
    verb = words[2]
    rest = words[3:]
    if verb == "H":
        return Hold(unit)
    if verb == "-":
        return Move(unit, rest[0], via_convoy=len(rest) > 1 and rest[1] == "VIA")
    if verb == "S":
        target = _ref(rest[0], rest[1])
        if len(rest) >= 4 and rest[2] == "-":
            return SupportMove(unit, target, rest[3])
        return SupportHold(unit, target)
    if verb == "C":
        return Convoy(unit, _ref(rest[0], rest[1]), rest[3])
    if verb == "R":
        return Retreat(unit, rest[0])
    if verb == "D":
        return Disband(unit) if phase_kind == "R" else Remove(unit)
    if verb == "B":
        return Build(words[1], UnitKind(words[0]))
    raise ValueError(f"cannot convert order {text!r}")


def engine_state(game_map: GameMap, phase: str, units: Mapping[str, Iterable[str]],
                 centres: Mapping[str, Iterable[str]]) -> GameState:
    """A position given as the package gives it, as an engine GameState."""
    board = tuple(
        Unit(power, UnitKind(u[0]), u[2:])
        for power in sorted(units) for u in units[power] if not u.startswith("*")
    )
    return GameState(
        variant=game_map.name,
        phase=Phase.parse(phase),
        units=board,
        owners=GameState.make_owners({p: list(cs) for p, cs in centres.items()}),
        victory=game_map.victory,
    )


# ---------------------------------------------------------------------------
# What each engine says happened, in one form
# ---------------------------------------------------------------------------

Board = frozenset[tuple[str, str]]  # (power, 'A PAR')
Retreats = dict[tuple[str, str], tuple[str, ...]]  # dislodged unit -> where it may retreat


def package_position(game: Any) -> tuple[Board, Retreats]:
    """The units on the package's board, and its dislodged units with their
    retreat options (a unit with nowhere to go is removed at once)."""
    board = set()
    dislodged = {}
    for name, power in game.powers.items():
        for unit in power.units:
            board.add((name, unit))
        for unit, options in power.retreats.items():
            dislodged[(name, unit)] = tuple(sorted(options))
    return frozenset(board), dislodged


def engine_board(state: GameState) -> Board:
    return frozenset((u.power, str(u)) for u in state.units)


def package_outcomes(results: Mapping[str, Sequence[Any]]) -> dict[str, str]:
    """{unit: 'succeeds' | 'fails' | 'void'} from the package's result codes."""
    out = {}
    for unit, codes in results.items():
        names = {str(c) for c in codes} - {""}
        if "void" in names:
            out[unit] = "void"
        elif names & {"bounce", "cut", "dislodged", "disrupted", "no convoy"}:
            out[unit] = "fails"
        else:
            out[unit] = "succeeds"
    return out


def engine_outcomes(resolution: Resolution) -> dict[str, str]:
    out = {}
    for result in resolution.results:
        unit = getattr(result.order, "unit", None)
        if unit is not None:
            out[str(unit)] = result.outcome.value
    return out


def unit_of(order: str) -> str:
    return " ".join(order.split()[:2])
