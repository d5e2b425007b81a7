"""Dissolution's neutral-orders stage (§5, §9, §11.4.1): Diplomacy Point
bids in, an order for every neutral unit out.

Each bid is checked in turn, and ignored with its reason when

* it names no neutral unit, or its order is illegal on the board;
* the order breaks cohesion (§9.2: a neutral power never attacks, nor
  supports or convoys an attack on, its own units, unless it is mobile like
  the US Navy; and never those of its ``friends``: the US Navy and NATO,
  Israel);
* the order breaks prejudice (§9.3: a nuclear power supports or convoys one
  player's attack on another player's unit, or on another player's empty
  supply centre, only when the attacker's Favor with it is higher);
* the bidder deceives (§9.1: it bids on a stationary neutral power's units
  while its own orders attack, or support or convoy an attack on, any unit
  of that power);
* it would take the bidder past its budget (§5.2) or past its Favor with a
  nuclear power, the most it may spend on that power's units (§11.4.1).
  Bids are taken in the order written: the first ones that fit are counted.

Then each unit gets the legal order with the most points; a tie, or no bid,
gives the default: hold, or for a paired minor with both armies on the
board, support to hold for its partner (§9.2.1).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.bids import Bid, BidResult, bid_target, spend, winning_orders
from engine.legality import Occupancy
from engine.map import GameMap, province_of
from engine.orders import Convoy, Hold, Move, MovementOrder, SupportHold, SupportMove
from engine.rules import NeutralOrders, Rules
from engine.state import GameState
from engine.units import Unit
from engine.variants.dissolution.nuclear import nuclear_powers
from engine.variants.dissolution.state import favor_of, of

MAX_UNIT_POINTS = 4  # §5.2.1
OIL = "oil"  # the centre flag of an oil supply centre (§5.2.2)


def budget(game_map: GameMap, state: GameState, power: str) -> int:
    """§5.2: a point per unit, at most four; one more with any oil centre;
    never less than one. A player in exile has one (§5.3)."""
    if power in of(state).exiles:
        return 1
    units = sum(1 for u in state.units if u.power == power)
    oil = any(p == power and _is_oil(game_map, c) for c, p in state.owners)
    return max(1, min(units, MAX_UNIT_POINTS) + (1 if oil else 0))


def _is_oil(game_map: GameMap, province: str) -> bool:
    centre = game_map.provinces[province].centre
    return centre is not None and OIL in centre.flags


def bidders(game_map: GameMap, state: GameState) -> list[str]:
    """Powers whose players may bid: every played power, and exiles the GM
    has not silenced."""
    return [name for name, power in game_map.powers.items()
            if not power.ordered_by_bids and name not in of(state).silenced]


def neutral_orders(rules: Rules, game_map: GameMap, state: GameState,
                   board: Occupancy, chosen: Mapping[str, MovementOrder],
                   bids: Mapping[str, Sequence[Bid]]) -> NeutralOrders:
    allowed = set(bidders(game_map, state))
    results: list[BidResult] = []
    # the nuclear power whose cap a unit counts against (§11.4.1), by province
    nuclear = nuclear_powers(game_map)
    cap_of = {prov: unit.power for prov, unit in board.units.items()
              if nuclear.is_nuclear(unit.power)}
    for bidder, bidder_bids in bids.items():
        judged = [_judge(rules, game_map, state, board, chosen, bidder, bid, bidder in allowed)
                  for bid in bidder_bids]
        # a bidder who may not bid has nothing to spend, and every bid of its is ignored
        points, caps = rules.bid_allowance(game_map, state, bidder)
        results.extend(spend(judged, points, caps, cap_of))
    orders = winning_orders(r for r in results if r.counted)
    by_bids = frozenset(orders)
    for prov, unit in board.units.items():
        power = game_map.powers.get(unit.power)
        if power is None or not power.ordered_by_bids or prov in orders:
            continue
        orders[prov] = default_order(game_map, board, unit)
    return NeutralOrders(orders, tuple(results), by_bids)


def default_order(game_map: GameMap, board: Occupancy, unit: Unit) -> MovementOrder:
    """Hold; a paired minor with both armies on the board supports its partner."""
    me = board.ref(unit)
    power = game_map.powers[unit.power]
    if power.default_order == "support-partner":
        partners = [u for u in board.units.values() if u.power == unit.power and u != unit]
        if len(partners) == 1 and game_map.reaches_province(
                unit.kind, unit.location, partners[0].province):
            return SupportHold(me, board.ref(partners[0]))
    return Hold(me)


def _judge(rules: Rules, game_map: GameMap, state: GameState, board: Occupancy,
           chosen: Mapping[str, MovementOrder], bidder: str, bid: Bid,
           may_bid: bool) -> BidResult:
    def ignored(why: str, order: MovementOrder | None = None) -> BidResult:
        return BidResult(bidder, bid, False, why, order)

    if not may_bid:
        return ignored(f"{bidder} may not bid")
    target = bid_target(game_map, board, bid)
    if isinstance(target, str):
        return ignored(target)
    unit, checked = target
    why = (_cohesion(game_map, board, unit, checked)
           or _prejudice(game_map, state, board, unit, checked)
           or _deception(game_map, board, chosen, bidder, unit))
    if why:
        return ignored(why, checked)
    return BidResult(bidder, bid, True, "", checked)


def _target(order: MovementOrder) -> str | None:
    """The province an order attacks, or helps to attack."""
    if isinstance(order, (Move, SupportMove, Convoy)):
        return province_of(order.dest)
    return None


def _cohesion(game_map: GameMap, board: Occupancy, unit: Unit, order: MovementOrder) -> str:
    """§9.2: no attack on its own units (unless mobile), nor on its friends'."""
    target = _target(order)
    victim = board.units.get(target) if target else None
    if victim is None:
        return ""
    power = game_map.powers[unit.power]
    if victim.power == unit.power and power.stationary:
        return f"cohesion: {unit.power} does not attack its own units (§9.2)"
    if victim.power in power.friends:
        return f"cohesion: {unit.power} does not attack {victim.power}'s units (§9.2.3)"
    return ""


def _prejudice(game_map: GameMap, state: GameState, board: Occupancy, unit: Unit,
               order: MovementOrder) -> str:
    """§9.3: a nuclear power helps one player attack another player's unit,
    or empty supply centre, only when the attacker has more Favor with it."""
    if not nuclear_powers(game_map).is_nuclear(unit.power) \
            or not isinstance(order, (SupportMove, Convoy)):
        return ""
    attacker = board.units.get(province_of(order.target.location))
    target = province_of(order.dest)
    if attacker is None or game_map.powers[attacker.power].ordered_by_bids:
        return ""
    occupant = board.units.get(target)
    if occupant is not None:
        defender: str | None = occupant.power
    elif target in game_map.supply_centres:
        defender = state.owner_of.get(target)
    else:
        defender = None
    if defender is None or defender == attacker.power or \
            game_map.powers[defender].ordered_by_bids:
        return ""
    mine = favor_of(game_map, state, attacker.power, unit.power)
    theirs = favor_of(game_map, state, defender, unit.power)
    if mine > theirs:
        return ""
    what = "unit" if occupant is not None else "empty supply centre"
    return (f"prejudice: {unit.power} helps {attacker.power} (Favor {mine}) against "
            f"{defender}'s {what} only with more Favor than {defender}'s {theirs} (§9.3)")


def _deception(game_map: GameMap, board: Occupancy, chosen: Mapping[str, MovementOrder],
               bidder: str, unit: Unit) -> str:
    """§9.1: no bids on a stationary neutral power's units while attacking,
    or supporting or convoying an attack on, one of them."""
    neutral = game_map.powers[unit.power]
    if not neutral.stationary:
        return ""  # the US Navy may move away: deception does not apply (§9.1)
    for prov, order in chosen.items():
        own = board.units.get(prov)
        if own is None or own.power != bidder:
            continue
        target = _target(order)
        victim = board.units.get(target) if target else None
        if victim is not None and victim.power == unit.power:
            return (f"deception: {bidder}'s {own} attacks or helps attack {unit.power}'s "
                    f"unit in {victim.province} (§9.1)")
    return ""
