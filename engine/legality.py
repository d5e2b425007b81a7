"""Whether an order can ever be carried out, judged from the map and the
positions of the units alone (never from other orders).

Each check returns either the order rewritten to the canonical form of the
unit it commands (actual unit kind and coast, destination coast filled in
where only one is possible) or an illegal :class:`Reason`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from itertools import pairwise
from typing import Any

from engine.map import Crossing, GameMap, Reach, Terrain, UnitKind, coast_of, province_of
from engine.orders import (
    Convoy,
    Disband,
    Hold,
    Move,
    MovementOrder,
    Order,
    Remove,
    Retreat,
    SupportHold,
    SupportMove,
    UnitRef,
)
from engine.outcomes import Reason, illegal
from engine.units import Unit

CheckedRetreat = tuple[Retreat | Disband, None] | tuple[None, Reason]
CheckedMovement = tuple[MovementOrder, None] | tuple[None, Reason]


class Occupancy:
    """The units on the board by province, with the questions legality asks."""

    def __init__(self, game_map: GameMap, units: Mapping[str, Unit], closed: frozenset[str],
                 binding_paths: bool = False):
        self.map = game_map
        self.units = units
        self.closed = closed
        # Dissolution §3.10: a convoyed army names its whole path, and only that path counts
        self.binding_paths = binding_paths
        self.barred = game_map.barred
        # the fleets that may convoy: at sea, or in a port (DPJudge's PORT)
        seas = game_map.convoy_seas
        self.fleet_waters = frozenset(
            p for p, u in units.items() if u.kind is UnitKind.FLEET and p in seas
        )
        self._refs: dict[str, UnitRef] = {}
        self._shores: dict[tuple[str, str | None], frozenset[str]] = {}
        self._needed: dict[tuple[str, str], frozenset[str]] = {}

    def ref(self, unit: Unit, written: UnitRef | None = None) -> UnitRef:
        """The canonical reference to a unit; the written one when it already is."""
        if written is not None and written.kind is unit.kind and written.location == unit.location:
            return written
        ref = self._refs.get(unit.province)
        if ref is None:
            ref = self._refs[unit.province] = UnitRef(unit.location, unit.kind)
        return ref

    def convoy_possible(self, src: str, dst: str, without: str | None = None) -> bool:
        """Could fleets now on the board carry an army from src to dst?

        ``without``: a water province whose fleet may not be used.
        """
        src, dst = province_of(src), province_of(dst)
        if self.binding_paths:
            return src != dst and self._carried(src, dst, without)
        if not (self.map.is_coastal(src) and self.map.is_coastal(dst)) or src == dst:
            return False
        if without not in self.fleet_waters:
            without = None  # only a fleet at sea could have carried the army
        key = (src, without)
        shores = self._shores.get(key)
        if shores is None:
            usable = self.fleet_waters - {without} if without else self.fleet_waters
            shores = self._shores[key] = self.map.convoy_shores(src, usable)
        return dst in shores


    def _carried(self, src: str, dst: str, without: str | None) -> bool:
        """With binding paths: could some chain of units now able to convoy
        (fleets at sea, wings) carry an army from src to dst?"""
        army = self.units.get(src)
        if army is None or not self.map.can_stand(army.kind, dst):
            return False
        carriers = [u for p, u in self.units.items()
                    if p not in (src, dst, without)
                    and self.map.convoys_from(u.kind, p)]
        queue = [c for c in carriers
                 if self.map.reaches_province(c.kind, c.location, src)]
        seen = {c.province for c in queue}
        at_dst = self.units.get(dst)
        while queue:
            carrier = queue.pop()
            if self.map.reaches_province(carrier.kind, carrier.location, dst) or (
                    at_dst is not None and _linked(self.map, carrier, at_dst)):
                return True
            for other in carriers:
                if other.province not in seen and _linked(self.map, carrier, other):
                    seen.add(other.province)
                    queue.append(other)
        return False

    def on_some_route(self, water: str, src: str, dst: str) -> bool:
        """Is the fleet in ``water`` necessary to some convoy from src to dst?"""
        key = (src, dst)
        needed = self._needed.get(key)
        if needed is None:
            needed = self._needed[key] = self._necessary_fleets(src, dst)
        return water in needed

    def _necessary_fleets(self, src: str, dst: str) -> frozenset[str]:
        """The seas of every convoy route from src to dst that needs all its fleets.

        DATC 4.E.1 and 6.G.19: a convoy order is illegal when its fleet is
        part of no route that needs it. A route needs all its fleets when it
        has no shortcut: no sea of it touches a later one but the next, the
        first is the only one on src's shore and the last the only one on
        dst's. Routes are few on a real board, so they are listed depth
        first; past a generous bound every fleet is given the benefit of the
        doubt.
        """
        near = self.map.water_neighbours
        seas = self.fleet_waters
        found: set[str] = set()
        budget = [20_000]

        def extend(path: list[str]) -> None:
            budget[0] -= 1
            if budget[0] < 0:
                return
            last = path[-1]
            if last in near[dst]:
                found.update(path)  # the route ends here; any longer one has a shortcut
                return
            for sea in near[last]:
                if sea not in seas or sea in path or sea in near[src]:
                    continue
                if any(sea in near[earlier] for earlier in path[:-1]):
                    continue  # a shortcut past `last`
                path.append(sea)
                extend(path)
                path.pop()

        for first in near[src]:
            if first in seas:
                extend([first])
        return frozenset(seas) if budget[0] < 0 else frozenset(found)

    def move_target(self, unit: Unit, dest: str, support_by: str | None = None,
                    fleet_convoyed: bool = False) -> tuple[str, None] | tuple[None, str]:
        """Where a move of ``unit`` to ``dest`` would go, or why it cannot.

        ``support_by`` is the province of a unit supporting this move: it
        cannot also be one of the convoying fleets (DATC 6.D.31).
        """
        game_map = self.map
        if self.barred and province_of(dest) in self.barred.get(unit.power, ()):
            return None, f"{unit.power} may not enter {province_of(dest)}"
        # the common case first: a plain move to a neighbour
        if unit.kind is UnitKind.ARMY:
            if dest in game_map.army_moves[unit.province] and dest not in self.closed:
                return dest, None
        elif unit.kind is UnitKind.FLEET and not fleet_convoyed \
                and dest in game_map.fleet_moves[unit.location] \
                and province_of(dest) not in self.closed:
            return dest, None
        if not game_map.is_location(dest):
            return None, f"{dest} is not on the map"
        target = province_of(dest)
        if target == unit.province:
            return None, "a unit cannot move to its own province"
        if target in self.closed or target in self.barred.get(unit.power, ()):
            return None, f"{game_map.provinces[target].name} may not be entered"
        terrain = game_map.provinces[target].terrain
        if game_map.traits(unit.kind).follows is Reach.ANY:  # a wing: any neighbour, no coasts
            if fleet_convoyed:
                return None, "only armies can be convoyed"
            if game_map.reaches_province(unit.kind, unit.location, target):
                return target, None
            return None, f"{unit.location} cannot reach {target}"
        if unit.kind is UnitKind.ARMY:
            if fleet_convoyed:
                return None, "only armies can be convoyed"
            if terrain is Terrain.WATER or terrain is Terrain.IMPASSABLE:
                return None, f"an army cannot move to {game_map.provinces[target].name}"
            if game_map.adjacent(UnitKind.ARMY, unit.location, target):
                return target, None
            if self.convoy_possible(unit.location, target, without=support_by):
                return target, None
            return None, f"{target} is not adjacent and no fleets can convoy there"
        # fleets
        if fleet_convoyed:
            return None, "only armies can be convoyed"
        coast = coast_of(dest)
        if coast is not None:
            if game_map.adjacent(UnitKind.FLEET, unit.location, dest):
                return dest, None
            return None, f"a fleet in {unit.location} cannot reach {dest}"
        options = game_map.fleet_destinations(unit.location, target)
        if len(options) == 1:
            return options[0], None  # DATC 4.B.2: the only reachable coast
        if len(options) > 1:
            return None, f"say which coast of {game_map.provinces[target].name}"
        return None, f"a fleet in {unit.location} cannot reach {target}"


def check_movement(board: Occupancy, power: str, order: Order) -> CheckedMovement:
    """Legality of one movement-phase order."""
    check = _MOVEMENT_CHECKS.get(type(order))
    if check is None:
        return None, illegal("not a movement-phase order")
    written = order.unit  # type: ignore[union-attr]  # the table holds movement orders only
    unit = board.units.get(written.province)
    if unit is None:
        return None, illegal(f"no unit in {written.province}")
    if unit.power != power:
        return None, illegal(f"the unit in {unit.province} is not {power}'s")
    me = board.ref(unit, written)
    return check(board, unit, me, order)


def _check_hold(board: Occupancy, unit: Unit, me: UnitRef, order: Hold) -> CheckedMovement:
    return (order if me is order.unit else Hold(me)), None


def _check_move(board: Occupancy, unit: Unit, me: UnitRef, order: Move) -> CheckedMovement:
    dest = order.dest
    if board.binding_paths:
        return _check_binding_move(board, unit, me, order)
    if not order.via_convoy and not order.path and not board.closed and not board.barred and (
        dest in board.map.army_moves[unit.province] if unit.kind is UnitKind.ARMY
        else dest in board.map.fleet_moves.get(unit.location, ())
    ):
        # the common case, a plain move to a neighbour, needs no more checks
        return (order if me is order.unit else Move(me, dest)), None
    convoyed = order.via_convoy or bool(order.path)
    target, why = board.move_target(unit, dest, None, convoyed and unit.kind is UnitKind.FLEET)
    if target is None:
        return None, illegal(why or "")
    if me is order.unit and target == dest and convoyed == order.via_convoy:
        return order, None
    return Move(me, target, convoyed, order.path), None


def _check_binding_move(board: Occupancy, unit: Unit, me: UnitRef, order: Move) -> CheckedMovement:
    """A move where a convoy must name its path (Dissolution §3.10)."""
    if not order.path:
        adjacent = unit.kind is not UnitKind.ARMY or board.map.adjacent(
            UnitKind.ARMY, unit.location, order.dest)
        target, why = board.move_target(unit, order.dest) if adjacent else (None, "")
        if target is not None and not order.via_convoy:
            return (order if me is order.unit and target == order.dest
                    else Move(me, target)), None
        if not board.map.traits(unit.kind).convoyable:
            return None, illegal(why or f"a {unit.kind.noun} cannot be convoyed")
        if why:
            return None, illegal(why)
        return None, illegal(f"a convoyed move must name its convoy path, every convoying "
                             f"unit in order: {unit} - X - ... - {province_of(order.dest)}")
    if not board.map.traits(unit.kind).convoyable:
        return None, illegal(f"a {unit.kind.noun} cannot be convoyed")
    dest = province_of(order.dest)
    why = convoy_path_fault(board, unit, order.path, dest)
    if why:
        return None, illegal(why)
    if me is order.unit and dest == order.dest and not order.via_convoy:
        return order, None
    return Move(me, dest, False, order.path), None


def convoy_path_fault(board: Occupancy, army: Unit, path: tuple[str, ...], dest: str) -> str:
    """Why an army cannot be convoyed along ``path`` to ``dest``, or ''.

    Each place on the path must hold a unit that can convoy there (a fleet
    at sea, a wing anywhere); each must reach the next, the first the
    army's province and the last the destination; a wing reaches every
    other wing (§3.3), so a path may end on a wing's province.
    """
    game_map = board.map
    if not game_map.is_location(dest) or not game_map.can_stand(army.kind, dest):
        return f"an army cannot be convoyed to {dest}"
    if dest in board.closed or dest in board.barred.get(army.power, ()):
        return f"{game_map.provinces[dest].name} may not be entered"
    if len(set(path)) != len(path) or army.province in path or dest in path:
        return "a convoy path names each place once, and not the army's own or its destination"
    carriers: list[Unit] = []
    for place in path:
        carrier = board.units.get(place)
        if carrier is None:
            return f"no unit in {place} to convoy"
        if not game_map.convoys_from(carrier.kind, place):
            return f"the {carrier.kind.noun} in {place} cannot convoy"
        carriers.append(carrier)

    def link(a: Unit, b: Unit) -> bool:
        return _linked(game_map, a, b)

    first, last = carriers[0], carriers[-1]
    if not game_map.reaches_province(first.kind, first.location, army.province):
        return f"{first.province} does not reach {army.province}"
    for a, b in pairwise(carriers):
        if not link(a, b):
            return f"{a.province} does not reach {b.province}"
    at_dest = board.units.get(dest)
    if not (game_map.reaches_province(last.kind, last.location, dest)
            or (at_dest is not None and link(last, at_dest))):
        return f"{last.province} does not reach {dest}"
    return ""


def _linked(game_map: GameMap, a: Unit, b: Unit) -> bool:
    """Can two convoying units pass an army between them? A wing reaches
    every other wing (§3.3); otherwise one must reach the other's province."""
    if a.kind is b.kind and game_map.traits(a.kind).convoy_relay:
        return True
    return (game_map.reaches_province(a.kind, a.location, b.province)
            or game_map.reaches_province(b.kind, b.location, a.province))


def _supported(board: Occupancy, unit: Unit, order: SupportHold | SupportMove | Convoy
               ) -> tuple[Unit, UnitRef] | Reason:
    """The unit a support or convoy names, and its canonical reference."""
    target_unit = board.units.get(order.target.province)
    if target_unit is None:
        return illegal(f"no unit in {order.target.province}")
    if target_unit is unit:
        verb = "convoy" if isinstance(order, Convoy) else "support"
        return illegal(f"a unit cannot {verb} itself")
    return target_unit, board.ref(target_unit, order.target)


def _check_support_hold(board: Occupancy, unit: Unit, me: UnitRef,
                        order: SupportHold) -> CheckedMovement:
    found = _supported(board, unit, order)
    if isinstance(found, Reason):
        return None, found
    target_unit, target = found
    if not board.map.reaches_province(unit.kind, unit.location, target_unit.province):
        return None, illegal(f"{unit.location} cannot reach {target_unit.province}")
    across = _across(board.map, unit.province, target_unit.province)
    if across:
        return None, illegal(across)
    if me is order.unit and target is order.target:
        return order, None
    return SupportHold(me, target), None


def _across(game_map: GameMap, src: str, dst: str) -> str:
    """Why a unit in src may not support into dst across a restricted
    crossing (Map.html: no support across a weak strait nor the Cape), or ''."""
    crossing = game_map.crossing(src, dst)
    if crossing is None:
        return ""
    what = "weak strait" if crossing is Crossing.WEAK else "Cape of Good Hope crossing"
    return f"support cannot be given across the {what} from {src} to {dst}"


def _check_support_move(board: Occupancy, unit: Unit, me: UnitRef,
                        order: SupportMove) -> CheckedMovement:
    found = _supported(board, unit, order)
    if isinstance(found, Reason):
        return None, found
    target_unit, target = found
    dest_prov = province_of(order.dest)
    if dest_prov == unit.province:
        return None, illegal("a unit cannot support a move into its own province")
    if dest_prov in board.closed or not board.map.reaches_province(
        unit.kind, unit.location, dest_prov
    ):
        return None, illegal(f"{unit.location} cannot reach {dest_prov}")
    across = _across(board.map, unit.province, dest_prov)
    if across:
        return None, illegal(across)
    if target_unit.kind is UnitKind.ARMY and order.dest in board.map.army_moves[
            target_unit.province]:
        # the common case: support of an army's move to a neighbour
        if me is order.unit and target is order.target:
            return order, None
        return SupportMove(me, target, dest_prov), None
    # DATC 4.B.4: a coast named in a support must be reachable; coasts only
    # matter for a supported fleet.
    fleet = target_unit.kind is UnitKind.FLEET
    dest = order.dest if fleet else dest_prov
    supported, why = board.move_target(target_unit, dest, unit.province, False)
    if supported is None and fleet and coast_of(dest) is None \
            and board.map.fleet_destinations(target_unit.location, dest_prov):
        supported = dest_prov  # both coasts reachable: the support covers either
    if supported is None:
        return None, illegal(f"the supported move is impossible: {why}")
    if coast_of(dest) is None:
        supported = dest_prov
    if me is order.unit and target is order.target and supported == order.dest:
        return order, None
    return SupportMove(me, target, supported), None


def _check_convoy(board: Occupancy, unit: Unit, me: UnitRef, order: Convoy) -> CheckedMovement:
    if not board.map.convoys_from(unit.kind, unit.province):
        kinds = [k for k in board.map.kinds if board.map.traits(k).convoys_from]
        if kinds == [UnitKind.FLEET]:
            at_sea = "at sea or in a port" if board.map.convoy_seas - board.map.water_provinces \
                else "at sea"
            return None, illegal(f"only a fleet {at_sea} can convoy")
        return None, illegal(f"a {unit.kind.noun} in {unit.province} cannot convoy")
    found = _supported(board, unit, order)
    if isinstance(found, Reason):
        return None, found
    target_unit, target = found
    if not board.map.traits(target_unit.kind).convoyable:
        return None, illegal("only armies can be convoyed")
    dest_prov = province_of(order.dest)
    if not board.map.is_location(dest_prov):
        return None, illegal(f"{order.dest} is not on the map")
    reachable = (board.map.can_stand(target_unit.kind, dest_prov) if board.binding_paths
                 else board.map.is_coastal(dest_prov))
    if dest_prov == target_unit.province or not reachable:
        return None, illegal(f"an army cannot be convoyed to {dest_prov}")
    if dest_prov in board.closed:
        return None, illegal(f"{dest_prov} may not be entered")
    if not board.binding_paths and not board.on_some_route(
            unit.province, target_unit.province, dest_prov):
        return None, illegal(f"{unit.province} cannot be part of any convoy route from "
                             f"{target_unit.province} to {dest_prov}")
    if me is order.unit and target is order.target and dest_prov == order.dest:
        return order, None
    return Convoy(me, target, dest_prov), None


_MOVEMENT_CHECKS: dict[type, Callable[[Occupancy, Unit, UnitRef, Any], CheckedMovement]] = {
    Hold: _check_hold,
    Move: _check_move,
    SupportHold: _check_support_hold,
    SupportMove: _check_support_move,
    Convoy: _check_convoy,
}


def check_retreat(
    units: Mapping[str, Unit],
    options: Mapping[str, tuple[str, ...]],
    power: str,
    order: Order,
    game_map: GameMap,
) -> CheckedRetreat:
    """Legality of one retreat-phase order; ``units`` are the dislodged units."""
    if isinstance(order, Remove):
        order = Disband(order.unit)  # "remove" a dislodged unit: it disbands
    if not isinstance(order, (Retreat, Move, Disband)):
        return None, illegal("only retreats and disbands are allowed in a retreat phase")
    unit = units.get(province_of(order.unit.location))
    if unit is None:
        return None, illegal(f"no dislodged unit in {province_of(order.unit.location)}")
    if unit.power != power:
        return None, illegal(f"the unit in {unit.province} is not {power}'s")
    me = UnitRef(unit.location, unit.kind)
    if isinstance(order, Disband):
        return Disband(me), None
    if isinstance(order, Move) and (order.via_convoy or order.path):
        return None, illegal("a retreat cannot be convoyed")
    dest = order.dest
    allowed = options.get(unit.province, ())
    if unit.kind is UnitKind.ARMY:
        dest = province_of(dest)
    elif coast_of(dest) is None:
        matching = [d for d in allowed if province_of(d) == dest]
        dest = matching[0] if len(matching) == 1 else dest
    if dest not in allowed:
        if not game_map.is_location(dest) or not game_map.adjacent(unit.kind, unit.location, dest):
            return None, illegal(f"{unit.location} cannot retreat to {dest}: not adjacent")
        return None, illegal(f"{unit.location} cannot retreat to {dest}: occupied, contested "
                             "or where the attack came from")
    return Retreat(me, dest), None

