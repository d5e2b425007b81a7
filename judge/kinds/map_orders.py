"""Diplomap's map orders by mail: a power's Draw and Erase on file for a
movement phase, read from its orders mail, handed to the engine at the
deadline. Their fates and the board's changes are report sections of the
engine's (engine/diplomap/rules.py, notes.py), told in the results as every
section is.

Rule text: Diplomap ru12 by Michael Harvath (CC BY-SA 4.0). A power gives
at most one Draw and one Erase a year, with the Spring or the Fall moves
(§II.B, §II.C); a later one in the same phase replaces the earlier, and
``DRAW NONE`` / ``ERASE NONE`` withdraw them (an order may be waived,
§II.C). Orders are kept as the player wrote them and read again at the
deadline on the board of the phase, which cannot change meanwhile: so an
order that can never succeed on that board, whatever else is ordered
(engine/diplomap/arrival.py), is refused on arrival, with its section,
and is not filed: it does not use up the power's Draw or Erase for the year.

A seat of several powers (the rulebook's games for fewer players) has a
Draw and an Erase for each: a line starting with a power's name and a colon
(``Germany: Draw Bur/Pic - Bur/Mun``) gives that power's; a line without
one, the seat's first power's.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlmodel import Session

from engine.diplomap import state as diplomap_state
from engine.diplomap.arrival import refusal_on_arrival
from engine.diplomap.gone import gone_place
from engine.diplomap.lines import MAP_ORDERS
from engine.diplomap.sample_orders import sample_orders
from engine.diplomap.state import MAP_ORDER_KINDS
from engine.diplomap.values import Draw, MapOrder
from engine.holdings import OrderForm
from engine.lines import LineKind
from engine.map import GameMap, power_named
from engine.phase import PhaseKind, Season
from engine.phase_context import phase_context
from engine.state import GameState
from engine.variants import rules_for
from judge import filed_lines
from judge.kinds import Filing, Line, OrderNote
from judge.models import Game
from parser import OrderError
from parser.map_orders import WAIVED, parse_map_order, split_map_orders, without_power
from parser.orders import MAP_ORDER_START

KINDS = MAP_ORDER_KINDS

Note = tuple[int, str, str]  # (line, text as written, problem or '' when accepted)


def kind_of(order: MapOrder) -> str:
    return "draw" if isinstance(order, Draw) else "erase"


# -- on file -------------------------------------------------------------------


def on_file(session: Session, game: Game, phase: str | None = None) -> dict[str, list[str]]:
    """Each power's map orders on file for the phase (the current one by default)."""
    return filed_lines.on_file(session, game, MAP_ORDERS, phase)


def file(session: Session, game: Game, power: str, texts: Sequence[str]) -> None:
    """Put a power's map orders for the current phase on file, replacing
    what it had; none takes them off file."""
    filed_lines.put(session, game, MAP_ORDERS, power, texts)


# -- from a mail -----------------------------------------------------------------


def used_this_year(state: GameState) -> frozenset[tuple[str, str]]:
    """(power, kind) of the map orders used this year: the Spring's, in the
    Fall. The state keeps them on into the next year until its Spring is
    played, so in Spring none count (§II.C: a new year starts afresh)."""
    used = diplomap_state.of(state).map_orders_used
    return used if state.phase.season is Season.FALL else frozenset()


def refusal(diplomap: bool, state: GameState, power: str) -> str | None:
    """Why no map order of ``power`` is taken now, whatever it says."""
    if not diplomap:
        return "this game is not played with Diplomap (its GM's CREATE setting 'diplomap on')"
    if state.phase.kind is not PhaseKind.MOVEMENT:
        return ("map orders are given with the Spring and Fall moves (Diplomap §II.B), "
                f"not in the {state.phase.name}")
    if not power:
        return "your seat has no power to give map orders"
    return None


def submit(session: Session, game: Game, game_map: GameMap, board: GameMap, state: GameState,
           powers: Sequence[str], lines: Sequence[tuple[int, str]], diplomap: bool
           ) -> list[Note]:
    """Read a mail's map orders for the seat's ``powers`` and file them,
    each line for the power it names or else the first. ``board``: the
    board the phase's lines are read on; ``game_map``: the game's map."""
    notes: list[Note] = []
    by_power: dict[str, list[tuple[int, str]]] = {}
    named_on: dict[int, str] = {}  # line -> the power's name as written there
    for number, text in lines:
        named, order = without_power(text)
        power = power_named(board, named) if named else (powers[0] if powers else "")
        if named and (power is None or power not in powers):
            notes.append((number, text.strip(), f"{named} is not " + (
                "a power of this game" if power is None else "one of your powers")))
            continue
        if named:
            named_on[number] = named
        by_power.setdefault(power or "", []).append((number, order))
    for power, given in by_power.items():
        notes.extend((n, f"{named_on[n]}: {t}" if n in named_on else t, why)
                     for n, t, why in _submit_for(session, game, game_map, board, state,
                                                  power, given, diplomap))
    return notes


def _submit_for(session: Session, game: Game, game_map: GameMap, board: GameMap,
                state: GameState, power: str, lines: Sequence[tuple[int, str]],
                diplomap: bool) -> list[Note]:
    """Read one power's map orders and file them: each accepted Draw or
    Erase replaces the one of its kind on file; a refused one changes
    nothing. A mail without map orders leaves those on file."""
    refused = refusal(diplomap, state, power)
    if refused is not None:
        return [(n, t.strip(), refused) for n, t in lines]
    kept: dict[str, str | None] = {}  # kind -> the order on file, as written
    for text in on_file(session, game).get(power, []):
        parsed = parse_map_order(text, board, 1)
        if not isinstance(parsed, OrderError):
            kept[kind_of(parsed)] = text
    in_force = phase_context(game_map, state).board  # the board the deadline judges on
    notes: list[Note] = []
    # several on one line as the rule text writes them: 'Erase Lvn/StP. Draw StP/Fin - StP/Lvn'
    for number, text in [(n, piece.strip(" .;,")) for n, line in lines
                         for _, piece in split_map_orders(line)]:
        waived = WAIVED.match(text)
        if waived:
            kind = waived.group(1).lower()
            kept[kind] = None
            notes.append((number, text, ""))
            continue
        parsed = parse_map_order(text, board, number)
        if isinstance(parsed, OrderError):
            gone = gone_place(game_map, board, diplomap_state.map_changes(state), text,
                              parsed.word, parsed.column)
            written = MAP_ORDER_START.match(text)  # a Draw or an Erase, as far as it reads
            kind = written.group("k").lower() if written else ""
            notes.append((number, text, (gone or parsed.message + (
                f" (did you mean {parsed.suggestion}?)" if parsed.suggestion else ""))
                + _stays(kind, kept.get(kind))))
            continue
        kind = kind_of(parsed)
        if (power, kind) in used_this_year(state):
            notes.append((number, text, f"{power} has given its {kind.title()} this year: "
                          "one Draw and one Erase a year (Diplomap §II.C)"
                          + _stays(kind, kept.get(kind))))
            continue
        never = refusal_on_arrival(in_force, parsed)
        if never is not None:
            notes.append((number, text, _never(never.reason, never.section, kind)
                          + _stays(kind, kept.get(kind))))
            continue
        kept[kind] = text  # replaces the one before, as a unit's later order does
        notes.append((number, text, ""))
    file(session, game, power, [found for kind in KINDS
                                if (found := kept.get(kind)) is not None])
    return notes


def _never(reason: str, section: str, kind: str) -> str:
    """The refusal of a map order that can never succeed: why, and that it
    costs nothing (§II.C counts the orders given, and this one is not)."""
    return (f"{reason} (Diplomap §{section}): this {kind.title()} cannot succeed on the "
            f"board in force, so it is not filed and does not use up your {kind.title()} "
            "for the year")


def _stays(kind: str, on_file: str | None) -> str:
    """What a refused map order leaves: the one of its kind on file, said as
    a refused unit order says the order on file stays."""
    return f"; the {kind.title()} on file stays: {on_file}" if kind and on_file else ""


def summary(session: Session, game: Game, game_map: GameMap, board: GameMap,
            state: GameState, powers: Sequence[str]) -> list[str]:
    """The seat's map orders on file, and which it has used this year."""
    filed = on_file(session, game)
    lines: list[str] = []
    for power in powers:
        for text in filed.get(power, []):
            parsed = parse_map_order(text, board, 1)
            shown = text if isinstance(parsed, OrderError) else str(parsed)
            lines.append(f"  {power:<9} {shown}")
    used = sorted(f"{p} {k.title()}" for p, k in used_this_year(state) if p in powers)
    if not lines and not used:
        return []
    out = ["Map orders on file (Diplomap):", *(lines or ["  (none)"])]
    if used:
        out.append("Used this year: " + ", ".join(used))
    return out


def intake(filing: Filing, kind: LineKind[Any],
                lines: Sequence[Line]) -> list[OrderNote]:
    """Diplomap: each of the seat's powers has its own Draw and Erase."""
    return [OrderNote(*note) for note in submit(
        filing.session, filing.game, filing.game_map, filing.board, filing.state,
        filing.powers, lines,
        MAP_ORDERS in rules_for(filing.game_map).line_kinds)]


def form(game_map: GameMap, state: GameState, powers: Sequence[str],
         kind: LineKind[Any]) -> list[OrderForm]:
    """How the seat gives map orders, for the start mail: the example a
    Draw and an Erase across its own home provinces that the board in force
    allows (engine/diplomap/sample_orders.py), else their general form."""
    several = (f"; each of your powers has its own: a line that starts with a power's "
               f"name and a colon is that power's, one without is {powers[0]}'s"
               if len(powers) > 1 else "")
    occupied = {u.province for u in state.units}
    draw, erase = sample_orders(game_map, powers, occupied)
    if len(powers) > 1:  # the other power's Erase, as the line's prefix says
        erase = sample_orders(game_map, powers[-1:], occupied)[1]
    draw_text = _written(draw) if draw is not None else "Draw Xxx/Aaa - Xxx/Bbb, SC with Ccc"
    erase_text = _written(erase) if erase is not None else "Erase Xxx/Yyy"
    if len(powers) > 1:
        erase_text = f"{powers[-1].title()}: {erase_text}"
    return [OrderForm(
        "Draw and Erase (Diplomap map orders)",
        "with your Spring or Fall moves, each power at most one Draw and one Erase a "
        "year (Diplomap §II.B, §II.C). Draw Xxx/Aaa - Xxx/Bbb splits province Xxx in "
        "two, along a line from its border with Aaa to its border with Bbb; ', SC with "
        "Ccc' gives its supply centre to the part that borders Ccc. Erase Xxx/Yyy joins "
        "Xxx and Yyy into one province. DRAW NONE or ERASE NONE takes one back"
        f"{several}. One that can never succeed on the board as it stands is refused "
        "at once; the rest are judged at the deadline",
        f"{draw_text}\n{erase_text}")]


def _written(order: MapOrder) -> str:
    """A map order as a player writes it: 'Draw Par/Pic - Par/Gas, SC with Bur'."""
    def border(pair: tuple[str, str]) -> str:
        return "/".join(code.title() for code in pair)
    if isinstance(order, Draw):
        text = f"Draw {border(order.start)} - {border(order.end)}"
        return text + (f", SC with {order.centre.neighbour.title()}"
                       if order.centre is not None and order.centre.neighbour else "")
    return f"Erase {border(order.border)}"
