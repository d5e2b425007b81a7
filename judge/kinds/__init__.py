"""The judge's side of each kind of line players file (engine/lines.py):
how a mail's lines of the kind are checked, filed and answered, and what
the ORDERS reply says of those on file. A kind that needs more than the
plain intake has a module here named after it (``bids.py``,
``map_orders.py``), found by name as the engine finds a variant's rules:
nothing else in the judge names a kind but orders.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from types import ModuleType
from typing import Any

from sqlmodel import Session

from engine.holdings import OrderForm
from engine.lines import ORDERS, LineKind
from engine.map import GameMap
from engine.orders import Order
from engine.state import GameState
from engine.variants import rules_for
from judge import filed_lines
from judge.models import Game
from parser import OrderError
from parser.line_kinds import READERS


@dataclass(frozen=True)
class OrderNote:
    line: int
    text: str  # the order as written
    problem: str  # '' when accepted
    # what the player should know of a line read and filed (or refused):
    # filed for another of the seat's powers, the unit type corrected, the
    # bids on file replaced
    remark: str = ""

    def with_remark(self, remark: str) -> OrderNote:
        both = f"{self.remark}; {remark}" if self.remark else remark
        return OrderNote(self.line, self.text, self.problem, both)


@dataclass(frozen=True)
class Filing:
    """What a mail's lines of a kind other than orders are filed against."""

    session: Session
    game: Game
    game_map: GameMap  # the game's map
    board: GameMap  # the board the phase's lines are read on
    state: GameState
    powers: Sequence[str]  # the seat's
    orders: Mapping[str, list[Order]]  # the seat's orders on file, this mail's included


Line = tuple[int, str]


Intake = Callable[[Filing, LineKind[Any], Sequence[Line]], list[OrderNote]]


@cache
def _module(name: str) -> ModuleType | None:
    """The module of the kind called ``name``, if it has one (looked for once:
    every orders mail asks)."""
    path = f"{__name__}.{name}"
    return importlib.import_module(path) if importlib.util.find_spec(path) else None


def intake(kind: LineKind[Any]) -> Intake:
    """How a mail's lines of ``kind`` are checked and filed."""
    module = _module(kind.name)
    found: Intake | None = getattr(module, "intake", None)
    return found or as_read


def summaries(session: Session, game: Game, game_map: GameMap, board: GameMap,
              state: GameState, powers: Sequence[str]) -> list[str]:
    """What the ORDERS reply says of the seat's lines on file of each kind
    the rules read besides orders (each kind's module's ``summary``)."""
    lines: list[str] = []
    for kind in rules_for(game_map).line_kinds:
        summary = getattr(_module(kind.name), "summary", None)
        if summary is not None:
            lines.extend(summary(session, game, game_map, board, state, powers))
    return lines


def forms(game_map: GameMap, state: GameState, powers: Sequence[str]) -> list[OrderForm]:
    """How the seat writes each kind of line the rules read besides orders,
    for the start mail: each kind's module's ``form``, else the kind's noun
    and the phases it is read in."""
    found: list[OrderForm] = []
    for kind in rules_for(game_map).line_kinds:
        if kind.name == ORDERS.name:  # every mail's; the start mail shows one
            continue
        form = getattr(_module(kind.name), "form", None)
        if form is not None:
            found.extend(form(game_map, state, powers, kind))
        else:
            phases = ", ".join(sorted(p.name.lower() for p in kind.phases))
            found.append(OrderForm(kind.noun.capitalize(), f"read in the {phases} phases", ""))
    return found


def not_yours(game_map: GameMap, state: GameState, order: Order, owner: str | None) -> str:
    """How the seat may order a unit that is not its own, where a kind of
    line the rules read is the way (a neutral unit: a bid), or ''
    (each kind's module's ``not_yours``)."""
    for kind in rules_for(game_map).line_kinds:
        hint = getattr(_module(kind.name), "not_yours", None)
        said = hint(game_map, state, order, owner) if hint is not None else ""
        if said:
            return str(said)
    return ""


def unchanged(noun: str) -> str:
    """The note on a mail's lines of a kind none of which reads: a refused
    line changes nothing, as a refused order leaves the order on file."""
    return f"none of this mail's {noun} reads: your {noun} on file are unchanged"


def as_read(filing: Filing, kind: LineKind[Any], lines: Sequence[Line]) -> list[OrderNote]:
    """A kind with no intake of its own: each line read on the phase's board
    and, if the rules read the kind now, the readable ones filed for the
    seat's first power, replacing those on file; the rest answered. A mail
    none of whose lines of the kind reads leaves those on file."""
    if not lines:
        return []
    if kind not in rules_for(filing.game_map).line_kinds:
        return [OrderNote(n, t.strip(), f"this game's rules read no {kind.noun}")
                for n, t in lines]
    if not kind.read_in(filing.state.phase.kind):
        return [OrderNote(n, t.strip(), f"{kind.noun} are not read in the "
                          f"{filing.state.phase.name}") for n, t in lines]
    notes, kept = [], []
    for number, text in lines:
        value = READERS[kind.name].read(text, filing.board, number)
        if isinstance(value, OrderError):
            notes.append(OrderNote(number, text.strip(), value.message))
        else:
            notes.append(OrderNote(number, text.strip(), ""))
            kept.append(str(value))
    if not filing.powers:
        return notes
    if kept:
        filed_lines.put(filing.session, filing.game, kind, filing.powers[0], kept)
    elif filed_lines.on_file(filing.session, filing.game, kind).get(filing.powers[0]):
        notes[0] = notes[0].with_remark(unchanged(kind.noun))
    return notes
