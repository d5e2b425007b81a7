"""Dissolution's Winter orders for Embassies (§11.5) and their automatic
retreats (§11.7.3), resolved as if at once with the adjustments (§2.2.3).

An Embassy may hold, move to a bordering space of its own slice, or (from a
hex, never from a Perimeter) support a hold or a move into a bordering
space of any slice. A Perimeter holds any number of Embassies and none of
them can be dislodged; a support for an Embassy in a Perimeter must name its
power (``E I1p S PA I0z - I1q``). Some Embassies must hold (§11.5.3), and a
player moves at most three, or two after a kick this year (§11.5.4).

The moves are resolved by the ordinary resolver on the Favor map's graph:
each Embassy in a Perimeter stands on a place of its own there
(``I0z:PAKISTAN``), so that several share the Perimeter and nobody can
attack them. A dislodged Embassy then goes to the closest vacant hex of
equal or lower value, neither its attacker's origin nor a hex bounced in;
ties by sorting letter; else to the Perimeter; several in one slice one at
a time in alphabetical order of their spaces.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from engine.map import GameMap, UnitKind
from engine.movement import judge_order
from engine.orders import Hold, Move, Order, Retreat, SupportHold, SupportMove, UnitRef
from engine.outcomes import OrderResult, Outcome, Reason, Why, illegal
from engine.resolver import MovementResolver
from engine.state import GameState
from engine.units import Unit
from engine.variants.dissolution.favor_board import FavorBoard, closest, parse_label, perimeter
from engine.variants.dissolution.state import of

MOVES_ALLOWED = 3  # §11.5.4
MOVES_AFTER_A_KICK = 2

EmbassyOrder = Hold | Move | SupportHold | SupportMove


@dataclass(frozen=True, slots=True)
class _Embassy:
    power: str
    nuclear: str
    space: str

    @property
    def key(self) -> str:
        """Its place for the resolver: the space, or the power's own corner of a Perimeter."""
        return _place(self.space, self.power)


def _place(space: str, power: str | None) -> str:
    """A space as the resolver knows it: a hex as itself, a Perimeter as the
    power's own corner of it (``I0z:PAKISTAN``)."""
    return f"{space}:{power}" if space.endswith("0z") else space


def is_embassy_order(order: Order) -> bool:
    unit = getattr(order, "unit", None)
    return isinstance(unit, UnitRef) and unit.kind is UnitKind.EMBASSY


def winter_orders(game_map: GameMap, board: FavorBoard, state: GameState,
                  orders: Mapping[str, Sequence[Order]]
                  ) -> tuple[tuple[OrderResult, ...], GameState, dict[str, list[Order]]]:
    rest: dict[str, list[Order]] = {}
    given: list[tuple[str, Order]] = []
    for power, power_orders in orders.items():
        for order in power_orders:
            if is_embassy_order(order):
                given.append((power, order))
            else:
                rest.setdefault(power, []).append(order)
    embassies = [_Embassy(p, n, s) for p, n, s in of(state).embassies]
    if not embassies:
        return tuple(OrderResult(p, o, Outcome.ILLEGAL, illegal("there are no Embassies"))
                     for p, o in given), state, rest
    checked, chosen = _check(game_map, board, state, embassies, given)
    by_key = {e.key: e for e in embassies}
    units = {e.key: Unit(e.power, UnitKind.EMBASSY, e.key) for e in embassies}
    obeyed = {key: _for_resolver(order, by_key[key]) for key, order in chosen.items()}
    for key in units:
        obeyed.setdefault(key, Hold(UnitRef(key, UnitKind.EMBASSY)))
    resolver = MovementResolver(game_map, units, obeyed, lambda a, b: a == b)
    resolver.run()
    rows: list[OrderResult] = []
    answered: set[str] = set()
    for power, verdict, key in checked:
        if isinstance(verdict, _Illegal):
            reason = illegal(verdict.why) if verdict.outcome is Outcome.ILLEGAL else Reason(
                Why.NOT_MATCHED, detail=verdict.why)
            rows.append(OrderResult(power, verdict.order, verdict.outcome, reason))
            if verdict.outcome is Outcome.VOID:
                # a void order is its Embassy's line, as a void support is
                # on the board: the hold it falls back on is not a second one
                answered.add(key)
        elif chosen[key] is not verdict:
            rows.append(OrderResult(power, verdict, Outcome.VOID, Reason(
                Why.NOT_MATCHED, detail="another order for this Embassy replaces it")))
        else:
            rows.append(_judge(resolver, power, verdict, key, obeyed[key]))
            answered.add(key)
    for key, embassy in sorted(by_key.items(), key=lambda kv: (kv[1].space, kv[1].power)):
        if key not in answered:  # Embassies without a (legal) order hold
            rows.append(_judge(resolver, embassy.power,
                               Hold(UnitRef(embassy.space, UnitKind.EMBASSY)), key, obeyed[key]))
    where = {e.key: e.space for e in embassies}
    dislodged: list[tuple[_Embassy, str]] = []
    for key, embassy in by_key.items():
        attacker = resolver.dislodged_by(key)
        if attacker is not None:
            dislodged.append((embassy, by_key[attacker].space))
        elif key in resolver.moves and resolver.moved(key):
            where[key] = _space(resolver.moves[key])
    bounced = {_space(k) for k in resolver.contested()}
    for embassy, to in _retreats(board, dislodged, where, by_key, bounced):
        rows.append(OrderResult(
            embassy.power, Retreat(UnitRef(embassy.space, UnitKind.EMBASSY), to),
            Outcome.SUCCEEDS, Reason(Why.RETREATED, detail=f"dislodged: to {to} (§11.7.3)")))
    moved = tuple(sorted((e.power, e.nuclear, where[e.key]) for e in embassies))
    return tuple(rows), state.with_part(replace(of(state), embassies=moved)), rest


def _space(key: str) -> str:
    return key.partition(":")[0]


@dataclass(frozen=True, slots=True)
class _Illegal:
    """An order refused before resolution, and why (void: legal in form, but
    naming no Embassy it could help)."""

    order: Order
    why: str
    outcome: Outcome = Outcome.ILLEGAL


def _check(game_map: GameMap, board: FavorBoard, state: GameState,
           embassies: list[_Embassy], given: list[tuple[str, Order]]
           ) -> tuple[list[tuple[str, Order | _Illegal, str]], dict[str, EmbassyOrder]]:
    """Each order's unit found and checked: (power, order as given or an
    illegal marker, its embassy key), and the order each Embassy obeys."""
    mine = {(e.power, e.space): e for e in embassies}
    in_perimeter: dict[str, list[_Embassy]] = {}
    for e in embassies:
        if e.space.endswith("0z"):
            in_perimeter.setdefault(e.space, []).append(e)
    moves_made: dict[str, int] = {}
    checked: list[tuple[str, Order | _Illegal, str]] = []
    chosen: dict[str, EmbassyOrder] = {}
    for power, order in given:
        assert isinstance(order, (Hold, Move, SupportHold, SupportMove))
        space = parse_label(order.unit.location)
        embassy = mine.get((power, space.label)) if space else None
        if embassy is None:
            checked.append((power, _Illegal(order, f"{power} has no Embassy in "
                                                   f"{order.unit.location}"), ""))
            continue
        held = _must_hold(game_map, state, embassy) if not isinstance(order, Hold) else ""
        if held:
            checked.append((power, _Illegal(order, f"this Embassy must hold: {held} (§11.5.3)"),
                            embassy.key))
            continue
        unnamed = _unnamed(order)
        if unnamed:
            checked.append((power, _Illegal(order, _say_whose(
                game_map, power, order, in_perimeter.get(unnamed, [])), Outcome.VOID),
                embassy.key))
            continue
        why = _fault(game_map, board, state, embassy, order, in_perimeter)
        if not why and isinstance(order, Move):
            limit = move_limit(state, power)
            if moves_made.get(power, 0) >= limit:
                why = (f"{power} may move at most {limit} Embassies this Winter (§11.5.4"
                       + (": kicked this year)" if limit == MOVES_AFTER_A_KICK else ")"))
            else:
                moves_made[power] = moves_made.get(power, 0) + 1
        if why:
            checked.append((power, _Illegal(order, why), embassy.key))
            continue
        chosen[embassy.key] = order
        checked.append((power, order, embassy.key))
    return checked, chosen


def _fault(game_map: GameMap, board: FavorBoard, state: GameState, embassy: _Embassy,
           order: EmbassyOrder, in_perimeter: Mapping[str, list[_Embassy]]) -> str:
    if isinstance(order, Hold):
        return ""
    if isinstance(order, Move):
        dest = parse_label(order.dest)
        if dest is None or dest.label not in board.moves(embassy.space):
            return f"{embassy.space} does not border {order.dest} in its slice"
        return ""
    if embassy.space.endswith("0z"):
        return "an Embassy in a Perimeter cannot support (§11.5.2)"
    target = parse_label(order.target.location)
    if target is None or target.label not in board.spaces:
        return f"{order.target.location} is not a space of the Favor map"
    if target.is_perimeter:
        named = [e for e in in_perimeter.get(target.label, ()) if e.power == order.target.power]
        if not named:
            return f"{order.target.power} has no Embassy in {target.label}"
    into = target if isinstance(order, SupportHold) else parse_label(order.dest)
    if into is None or into.label not in board.neighbours[embassy.space]:
        where = order.target.location if isinstance(order, SupportHold) else order.dest
        return f"{embassy.space} does not border {where}"
    return ""


def _unnamed(order: EmbassyOrder) -> str:
    """The Perimeter of a supported Embassy the support does not say whose
    (§11.5.2), or ''."""
    if not isinstance(order, (SupportHold, SupportMove)) or order.target.power is not None:
        return ""
    target = parse_label(order.target.location)
    return target.label if target is not None and target.is_perimeter else ""


def _say_whose(game_map: GameMap, power: str, order: EmbassyOrder,
               there: Sequence[_Embassy]) -> str:
    """Why a support of an Embassy in a Perimeter that names no power is
    void, with the powers whose Embassies are there and the order written
    for one of them: the player's own if it is there (most often the one
    meant), else the first; the player's own when the Perimeter is empty."""
    assert isinstance(order, (SupportHold, SupportMove))  # only a support names a unit
    owners = sorted({_abbreviation(game_map, e.power) for e in there})
    mine = _abbreviation(game_map, power)
    example = mine if mine in owners or not owners else owners[0]
    named = replace(order, target=UnitRef(order.target.location, None, example))
    if len(owners) > 1:
        who = f" ({', '.join(owners[:-1])} or {owners[-1]})"
    elif not owners:
        who = " (none is there now)"
    else:
        who = ""
    return f"say whose Embassy in {order.target.location} is supported{who}: {named} (§11.5.2)"


def _abbreviation(game_map: GameMap, power: str) -> str:
    """How an order names a power, as the rules' examples do (§11.5.2: "PA"):
    its shortest spelling, upper case."""
    spellings = [s for s, p in game_map.power_aliases.items() if p == power and s.isalpha()]
    return min(spellings, key=lambda s: (len(s), s)).upper() if spellings else power


def move_limit(state: GameState, power: str) -> int:
    """§11.5.4: how many Embassies a player may move this Winter."""
    kicked = any(p == power for p, _ in of(state).kicked)
    return MOVES_AFTER_A_KICK if kicked else MOVES_ALLOWED


def must_hold(game_map: GameMap, state: GameState, power: str, nuclear: str) -> str:
    """§11.5.3: why the player's Embassy with ``nuclear`` must hold this Winter, or ''."""
    space = of(state).embassy_of(power, nuclear)
    return _must_hold(game_map, state, _Embassy(power, nuclear, space)) if space else ""


def _must_hold(game_map: GameMap, state: GameState, embassy: _Embassy) -> str:
    """§11.5.3: why this Embassy must hold this Winter, or ''."""
    if (embassy.power, embassy.nuclear) in of(state).kicked:
        return f"kicked by {embassy.nuclear} this year"
    territory = game_map.powers[embassy.nuclear].territory
    if any(u.power == embassy.power and u.province in territory for u in state.units):
        return f"{embassy.power} has units in {embassy.nuclear}'s territory"
    if (embassy.power, embassy.nuclear) in of(state).retaliated:
        return f"{embassy.nuclear} retaliated against {embassy.power} this year"
    return ""


def _for_resolver(order: EmbassyOrder, embassy: _Embassy) -> EmbassyOrder:
    """The order with every space written as the resolver's place."""
    me = UnitRef(embassy.key, UnitKind.EMBASSY)
    if isinstance(order, Hold):
        return Hold(me)
    if isinstance(order, Move):
        dest = parse_label(order.dest)
        assert dest is not None
        # every Embassy moving into a Perimeter has a corner of its own there
        return Move(me, _place(dest.label, embassy.power))
    target = parse_label(order.target.location)
    assert target is not None
    them = UnitRef(_place(target.label, order.target.power), UnitKind.EMBASSY)
    if isinstance(order, SupportHold):
        return SupportHold(me, them)
    dest = parse_label(order.dest)
    assert dest is not None
    return SupportMove(me, them, dest.label)


def _judge(resolver: MovementResolver, power: str, order: Order, key: str,
           obeyed: EmbassyOrder) -> OrderResult:
    result = judge_order(resolver, key, obeyed, power, resolver.dislodged_by(key))
    return OrderResult(power, order, result.outcome, _spaces(result.reason))


def _spaces(reason: Reason | None) -> Reason | None:
    """A reason with the resolver's places written as spaces again."""
    if reason is None:
        return None
    return Reason(reason.why, tuple(_space(u) for u in reason.units), reason.strength,
                  reason.against, reason.detail)


def _retreats(board: FavorBoard, dislodged: list[tuple[_Embassy, str]],
              where: dict[str, str], by_key: Mapping[str, _Embassy],
              bounced: set[str]) -> list[tuple[_Embassy, str]]:
    """§11.7.3, in alphabetical order of the sorting letters of the spaces
    the dislodged Embassies stand on; each retreat in the order dislodged."""
    order = sorted(range(len(dislodged)),
                   key=lambda i: (board.spaces[dislodged[i][0].space].letter,
                                  dislodged[i][0].power))
    destination: dict[int, str] = {}
    for i in order:
        embassy, origin = dislodged[i]
        letter = board.spaces[embassy.space].slice
        value = board.spaces[embassy.space].value
        taken = {space for key, space in where.items()
                 if by_key[key].nuclear == embassy.nuclear and key != embassy.key}
        taken |= {destination[j] for j in destination}
        eligible = [label for label in board.in_slice(letter)
                    if 0 < board.spaces[label].value <= value and label not in taken
                    and label != origin and label not in bounced]
        to = closest(board, embassy.space, eligible) or perimeter(letter)
        destination[i] = to
        where[embassy.key] = to
    return [(dislodged[i][0], destination[i]) for i in range(len(dislodged))]
