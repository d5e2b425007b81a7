"""A player's orders for a phase: read from a mail, checked by the engine
for the player's powers, and kept on file: one order per unit (or build
site), each accepted order replacing the one before for that unit, so a
refused correction never costs the orders already given."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlmodel import Session

from engine.game import adjudicate
from engine.lines import ORDERS
from engine.map import GameMap, province_of
from engine.orders import Build, Hold, Order, Waive
from engine.outcomes import OrderResult, Outcome, Why
from engine.phase import PhaseKind
from engine.phase_context import phase_context
from engine.state import GameState
from engine.variants import rules_for
from judge import filed_lines, kinds
from judge.games import (
    GameError,
    board_of,
    current_state,
    file_orders,
    map_of,
    orders_on_file,
    powers_of,
    powers_to_order,
)
from judge.kinds import Filing, OrderNote
from judge.models import Game, Member
from parser import OrderError, parse_order, parse_orders
from parser.closing import closing_start
from parser.line_kinds import READERS, sort_mail
from parser.orders import written_power


@dataclass(frozen=True)
class OrdersReport:
    notes: tuple[OrderNote, ...]  # one per order line, in line order
    # the first line of the mail's closing, left unread (parser/closing.py)
    closing: tuple[int, str] | None = None


@dataclass(frozen=True)
class AtEnd:
    """Orders that end the mail, where a closing may follow them: the lines
    of the runs of order lines after them, and whether orders came before."""
    later: Sequence[tuple[int, str]]
    after_orders: bool


def _owner(game_map: GameMap, state: GameState, order: Order,
           powers: Sequence[str]) -> str | None:
    """Which of a seat's powers an order is for."""
    if isinstance(order, Waive):
        for power in powers:
            if power in powers_to_order(game_map, state):
                return power
        return powers[0] if powers else None
    if isinstance(order, Build):
        prov = order.location.partition("/")[0]
        board = board_of(game_map, state)  # Diplomap: the sites where the centres are now
        sites = rules_for(board)
        return next((p for p in powers if prov in sites.build_sites(board, state, p)), None)
    other = rules_for(game_map).other_board_units(game_map, state)
    if any(u.location == order.unit.location for u in other):  # the seat's unit there
        return next((u.power for u in other
                     if u.power in powers and u.location == order.unit.location), None)
    prov = order.unit.location.partition("/")[0]
    units = [d.unit for d in state.dislodged] if state.phase.kind is PhaseKind.RETREAT \
        else list(state.units)
    here = [u for u in units if u.province == prov]
    # the seat's own unit first: a dislodged unit shares its province with the attacker
    unit = next((u for u in here if u.power in powers), here[0] if here else None)
    return unit.power if unit is not None else None


def _key(order: Order) -> str | None:
    """What an order is for: a later order for the same key replaces the
    earlier. Builds are for their site; a WAIVE is for no site in particular."""
    if isinstance(order, Waive):
        return None
    if isinstance(order, Build):
        return province_of(order.location)
    return province_of(order.unit.location)


@dataclass
class _OnFile:
    """A power's orders on file while a mail is read: one per unit or site
    (WAIVEs each count for one build), in the order they were first given."""
    orders: list[Order]

    def with_(self, order: Order) -> list[Order]:
        key = _key(order)
        out = list(self.orders)
        for i, old in enumerate(out):
            if key is not None and _key(old) == key:
                out[i] = order
                return out
        out.append(order)
        return out

    def replaced(self, order: Order) -> Order | None:
        key = _key(order)
        return next((o for o in self.orders if key is not None and _key(o) == key), None)


def _on_file(session: Session, game: Game, game_map: GameMap,
             powers: Sequence[str]) -> dict[str, _OnFile]:
    filed = orders_on_file(session, game)
    out: dict[str, _OnFile] = {}
    for power in powers:
        orders = (parse_order(text, game_map) for text in filed.get(power, []))
        out[power] = _OnFile([o for o in orders if not isinstance(o, OrderError)])
    return out


def _refusal(result: OrderResult) -> str | None:
    """Why the engine refuses an order now, or None if it stands: illegal,
    or a build or removal beyond the allowance (said now rather than 'ok'
    and void at the deadline)."""
    if result.outcome is Outcome.ILLEGAL or (
            result.reason is not None and result.reason.why is Why.TOO_MANY):
        return result.reason.describe() if result.reason else "illegal"
    return None


def submit_orders(session: Session, game: Game, member: Member,
                  lines: Sequence[tuple[int, str]], at_end: AtEnd | None = None
                  ) -> OrdersReport:
    """Read a mail's orders for the member's powers. Each accepted order
    replaces the one on file for the same unit (or build site); a refused
    order changes nothing; orders for other units stay. Orders are read on
    the board in force (Diplomap's new provinces have codes of their own);
    Draw and Erase lines are taken out first, so 'Gal/War' is never read
    as a province with a coast. Orders at the mail's end (``at_end``) lose
    their closing ('Regards,', a name: parser/closing.py) unread."""
    if game.status != "active":
        raise GameError(f"game {game.name} is not running (it is {game.status})")
    game_map = map_of(game)
    state = current_state(session, game)
    board = phase_context(game_map, state).reading
    powers = powers_of(member)
    closing = None
    if at_end is not None:
        start = closing_start([*lines, *at_end.later], board, at_end.after_orders)
        if start is not None and start < len(lines):
            closing = lines[start]
            lines = lines[:start]
        if not lines:
            return OrdersReport((), closing)
    by_kind = sort_mail(lines)
    lines = by_kind.pop(ORDERS.name)
    text = "\n".join(t for _, t in lines)
    first_line = {i + 1: n for i, (n, _) in enumerate(lines)}
    parsed = parse_orders(text, board)
    notes: list[OrderNote] = []
    candidates: list[tuple[int, str, str, Order]] = []
    remarks: dict[tuple[int, str], str] = {}  # (line, order as written): what it was read as
    rules = rules_for(game_map)
    for item in parsed.orders:
        line = first_line.get(item.line, item.line)
        refused = rules.other_board_refusal(game_map, state, item.order)
        if refused:  # an Embassy order outside Winter: no unit's to look for
            notes.append(OrderNote(line, item.source, refused))
            continue
        power = _owner(game_map, state, item.order, powers)
        if power is None or power not in powers:
            notes.append(OrderNote(line, item.source, kinds.not_yours(
                game_map, state, item.order, power) or _not_yours(
                    state, item.order, power, powers)))
            continue
        candidates.append((line, item.source, power, item.order))
        remark = "; ".join(r for r in (
            _written_for(board, item.source, item.order, power),
            _written_kind(state, item.order, power)) if r)
        if remark:
            remarks[line, item.source] = remark
    filed = _on_file(session, game, board, powers)
    before = {p: list(f.orders) for p, f in filed.items()}
    if state.phase.kind is PhaseKind.ADJUSTMENT:
        notes.extend(_one_by_one(game_map, state, candidates, filed))
    else:
        notes.extend(_together(game_map, state, candidates, filed))
    for error in parsed.errors:  # the rules may know better why (a province gone)
        problem = rules.why_unreadable(game_map, state, error.source, error.word,
                                       error.column) or str(error).split(": ", 1)[-1]
        notes.append(OrderNote(first_line.get(error.line, error.line), error.source,
                               _kept(problem, _stays(board, error.source, filed))))
    merged = {p: f.orders for p, f in filed.items()}
    filing = Filing(session, game, game_map, board, state, powers, merged)
    for name, given in by_kind.items():  # the mail's other kinds of line, each its own way
        kind = READERS[name].kind
        notes.extend(kinds.intake(kind)(filing, kind, given))
    notes = [n.with_remark(remarks[n.line, n.text]) if (n.line, n.text) in remarks else n
             for n in notes]
    notes.sort(key=lambda n: n.line)
    for power in powers:
        if merged[power] != before[power]:
            file_orders(session, game, power, [str(o) for o in merged[power]])
    return OrdersReport(tuple(notes), closing)


def _written_for(board: GameMap, source: str, order: Order, power: str) -> str:
    """A line that names a power before its order ('Canada: F Nort S ...')
    is filed for the power whose unit it orders (a seat of several powers
    orders them all): said when that is not the power written."""
    written = written_power(source, board)
    if written is None or written == power or isinstance(order, (Build, Waive)):
        return ""
    return (f"you wrote {written}; the unit in {province_of(order.unit.location)} is "
            f"{power}'s: filed for {power}")


def _written_kind(state: GameState, order: Order, power: str) -> str:
    """The unit type written is not the unit's: the order stands for the
    unit there (as every judge reads it), and the player is told."""
    if isinstance(order, (Build, Waive)) or order.unit.kind is None:
        return ""
    prov = province_of(order.unit.location)
    units = [d.unit for d in state.dislodged] if state.phase.kind is PhaseKind.RETREAT \
        else list(state.units)
    unit = next((u for u in units if u.province == prov and u.power == power), None)
    if unit is None or unit.kind is order.unit.kind:
        return ""
    noun = unit.kind.noun
    return (f"you wrote {order.unit.kind.value}; the unit in {prov} is "
            f"{'an' if noun[0] in 'aeiou' else 'a'} {noun}")


def _not_yours(state: GameState, order: Order, power: str | None,
               powers: Sequence[str]) -> str:
    if isinstance(order, (Build, Waive)):
        return "not a home centre of yours"
    if state.phase.kind is PhaseKind.RETREAT:
        prov = province_of(order.unit.location)
        standing = next((u for u in state.units if u.province == prov and u.power in powers),
                        None)
        if standing is not None:  # the player's own unit, which has nothing to do now
            yours = [f"{d.unit}" for d in state.dislodged if d.unit.power in powers]
            return (f"your {standing} was not dislodged: in a retreat phase only dislodged "
                    "units are ordered (" + (f"yours: {', '.join(yours)}" if yours
                                             else "you have none") + ")")
    if power is None:
        return f"there is no unit in {order.unit.location.partition('/')[0]}" + (
            " to retreat" if state.phase.kind is PhaseKind.RETREAT else "")
    return "that unit is not yours"


def _stays(board: GameMap, source: str, filed: dict[str, _OnFile]) -> Order | None:
    """The order on file for the unit an unreadable line starts with, which
    the line leaves in place: the shortest start of the line that reads as
    that unit holding ('A Par - Xyz' as 'A Par H', 'E B1q - B9z' as 'E B1q H')."""
    words = source.split()
    for length in range(1, min(len(words), _UNIT_WORDS) + 1):
        held = parse_order(" ".join([*words[:length], "H"]), board)
        if isinstance(held, Hold):
            return next((o for f in filed.values() if (o := f.replaced(held)) is not None),
                        None)
    return None


# the most words a unit is written in before its order: a power, a type, a
# place of two words with a coast ('Canada: F St Petersburg nc')
_UNIT_WORDS = 6


def _kept(problem: str, old: Order | None) -> str:
    return problem + (f"; the order on file stays: {old}" if old is not None else "")


def _together(game_map: GameMap, state: GameState,
              candidates: Sequence[tuple[int, str, str, Order]],
              filed: dict[str, _OnFile]) -> list[OrderNote]:
    """Movement and retreats: each order is legal or not by itself, so the
    engine judges the mail's orders for a power in one go."""
    notes: list[OrderNote] = []
    for power, on_file in filed.items():
        mine = [c for c in candidates if c[2] == power]
        if not mine:
            continue
        results = [r for r in adjudicate(game_map, state, {power: [c[3] for c in mine]}).results
                   if r.power == power][:len(mine)]
        for (line, source, _, order), result in zip(mine, results, strict=False):
            problem = _refusal(result)
            if problem is not None:
                notes.append(OrderNote(line, source, _kept(problem, on_file.replaced(order))))
                continue
            on_file.orders = on_file.with_(result.order)
            notes.append(OrderNote(line, source, ""))
    return notes


def _result_for(results: Sequence[OrderResult], power: str,
                order: Order) -> OrderResult | None:
    """The engine's answer to one order (the engine may answer others first:
    waived builds, civil disorder removals)."""
    mine = [r for r in results if r.power == power]
    return next((r for r in mine if r.order == order), None) or next(
        (r for r in mine if type(r.order) is type(order) and _key(r.order) == _key(order)),
        mine[0] if mine else None)


def _one_by_one(game_map: GameMap, state: GameState,
                candidates: Sequence[tuple[int, str, str, Order]],
                filed: dict[str, _OnFile]) -> list[OrderNote]:
    """Winter: whether a build or removal fits depends on the others on file
    (no more than are due), so each is tried on the set it would join."""
    notes: list[OrderNote] = []
    for line, source, power, order in candidates:
        on_file = filed[power]
        alone = _result_for(adjudicate(game_map, state, {power: [order]}).results, power, order)
        problem = _refusal(alone) if alone else "illegal"
        chosen = alone.order if alone else order
        if problem is None:
            trial = on_file.with_(chosen)
            over = [r for r in adjudicate(game_map, state, {power: trial}).results
                    if r.power == power and _refusal(r) is not None]
            if over:
                problem = _refusal(over[0]) or "illegal"
                problem += "; to order this one instead, CLEAR and send the set again"
            else:
                on_file.orders = trial
        notes.append(OrderNote(line, source, "" if problem is None
                               else _kept(problem, on_file.replaced(chosen))))
    return notes


def clear_orders(session: Session, game: Game, member: Member) -> None:
    """Every line of the seat's powers on file for this phase, of every
    kind (bids and map orders too)."""
    kinds = rules_for(map_of(game)).line_kinds
    for kind in kinds:
        on_file = filed_lines.on_file(session, game, kind)
        for power in powers_of(member):
            if power in on_file:
                filed_lines.put(session, game, kind, power, [])


def unordered_units(game_map: GameMap, state: GameState, powers: Sequence[str],
                    on_file: dict[str, list[str]], board: GameMap | None = None) -> list[str]:
    """The units of ``powers`` without an order on file; ``board``: the board
    the orders are read on, if not the board in force (PhaseContext.reading)."""
    ordered: set[str] = set()
    board = board or board_of(game_map, state)
    for texts in on_file.values():
        for text in texts:
            order = parse_order(text, board)
            unit = getattr(order, "unit", None)
            if unit is not None:
                ordered.add(unit.location.partition("/")[0])
    kind = state.phase.kind
    if kind is PhaseKind.MOVEMENT:
        units = [u for u in state.units if u.power in powers]
    elif kind is PhaseKind.RETREAT:
        units = [d.unit for d in state.dislodged if d.unit.power in powers]
    else:
        return [p for p in powers if p in powers_to_order(game_map, state)
                and not on_file.get(p)]
    return [f"{u.power} {u}" for u in units if u.province not in ordered]
