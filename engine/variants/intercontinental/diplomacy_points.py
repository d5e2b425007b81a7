"""Intercontinental's Diplomacy Points (§11, with §1.4, §1.6, §8 and §10
where they bear on bids): bids in, an order for every minor and affiliate
unit out.

The bidder is a *player*, a colour group of four major powers (§1.6,
§11.2). The engine's bids arrive keyed by power (the judge files a seat's
bids under the seat's first power); :func:`players` turns the game's seats
into players, and every power of a seat bids for the same player: one pool,
one cap per order, one group whose attacks void its bids. A major power in
no seat is a player of its own (a game not yet assigned to colours).

* pool (§11.1): each of the player's powers gives one DP per supply centre
  it owns, at most three; a player with no centre but units on the board
  still has one. Centres change hands only after Autumn, so the pool is the
  same in Spring and Autumn of a year (it is read from the owners of the
  position, which the engine changes only then);
* a player puts at most 2 DP on one order (§11.3), in one bid or several;
* a bid is void when any unit of the player's group attacks the unit's
  power, or supports an attack on it (§11.2, the Attacking & Allocating
  Rule); orders written for the player's own units as they stand at the
  deadline;
* bids are taken in the order written while they fit the pool; ignored
  bids cost nothing;
* an affiliate counts each DP of its sponsor's bids twice (§11.3): the
  sponsor is the player of the affiliate's colour, or, for the Dutch
  affiliates, Chihuahua, Oaxaca and Muscat, the player of the major power
  they follow (§8.9, §8.10);
* each unit takes the order with strictly the most weighted DP; a tie, or
  no bid, and it holds (§11.0). The bids themselves stay with the game
  master: results show only the orders given (engine/bids.py).

:func:`bid_allowance` and :func:`neutral_orders` have the signatures of the
hooks of :class:`engine.rules.Rules` (without ``self``); the judge checks a
player's bids in its reply through the same two (judge/order_entry.py).
:func:`allocate` takes the players and sponsors as arguments instead.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from engine.bids import Bid, BidResult, bid_target, winning_orders
from engine.legality import Occupancy
from engine.map import GameMap, province_of
from engine.orders import Hold, Move, MovementOrder, SupportMove
from engine.rules import NeutralOrders
from engine.state import GameState
from engine.units import Unit
from engine.variants.intercontinental.facts import load_facts

MAX_ORDER_POINTS = 2  # §11.3: a player's DP on one order
MAX_POWER_POINTS = 3  # §11.1.2: a power's share of its player's pool
SPONSOR_FACTOR = 2  # §11.3: an affiliate's sponsor's DP count double


@dataclass(frozen=True, slots=True)
class Player:
    """A player: a colour group and the major powers it plays (§1.6)."""

    name: str
    colour: str | None  # None when its powers name no colour (no preassigned power)
    powers: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Sponsor:
    """Who an affiliate counts double: a colour (§8.1-8.8), or the player of
    the major power it follows (§8.9's Dutch affiliates, §8.10)."""

    colour: str | None = None
    follows: str | None = None  # a major power's name on the board


# -- who bids -------------------------------------------------------------------

def players(game_map: GameMap, state: GameState) -> tuple[Player, ...]:
    """The game's players: its seats of major powers, and each unseated major
    power alone. A colour belongs to the one seat that claims it; where
    several do (a seat per power, before the colour groups are drawn) none
    has it: no group exists yet to sponsor an affiliate."""
    majors = {name for name, power in game_map.powers.items() if not power.ordered_by_bids}
    seats = [(s.player, tuple(p for p in s.powers if p in majors)) for s in state.seats]
    seats = [(name, powers) for name, powers in seats if powers]
    seated = {p for _, powers in seats for p in powers}
    seats += [(name, (name,)) for name in game_map.powers if name in majors - seated]
    claims = [_colour(game_map, name, powers) for name, powers in seats]
    return tuple(Player(name, colour if claims.count(colour) == 1 else None, powers)
                 for (name, powers), colour in zip(seats, claims, strict=True))


def _colour(game_map: GameMap, name: str, powers: Sequence[str]) -> str | None:
    """A seat's colour: its name when that is a colour; else the colour that
    a preassigned power of the seat fixes (§3.1: every colour has one)."""
    groups = load_facts().groups
    if name in groups:
        return name
    letters = {game_map.powers[p].letter for p in powers if p in game_map.powers}
    colours = {colour for colour, group in groups.items()
               if letters & set(group.preassigned.values())}
    return colours.pop() if len(colours) == 1 else None


def player_of(found: Sequence[Player], power: str) -> Player | None:
    for player in found:
        if power in player.powers:
            return player
    return None


# -- sponsors -------------------------------------------------------------------

def sponsors(game_map: GameMap) -> dict[str, Sponsor]:
    """Each affiliate power on the board (by name) and its sponsor, from the
    facts file (the board's power tables do not reach the engine's map)."""
    facts = load_facts()
    by_home = {power.home: name for name, power in game_map.powers.items()
               if power.ordered_by_bids}
    by_letter = {power.letter: name for name, power in game_map.powers.items()
                 if not power.ordered_by_bids}
    found: dict[str, Sponsor] = {}
    for affiliate in facts.affiliates:
        home = (facts.abbreviations[affiliate.centre].upper(),)
        if home not in by_home:
            continue  # a board without this affiliate (a GM's own map)
        follows = by_letter.get(affiliate.sponsor_follows or "")
        found[by_home[home]] = Sponsor(affiliate.sponsor, follows)
    return found


def sponsor_of(found: Sequence[Player], sponsor: Sponsor | None) -> Player | None:
    """The player an affiliate counts double: none when no player has the
    colour, or the power it follows is in no seat (a player without a colour)."""
    if sponsor is None:
        return None
    if sponsor.follows is not None:
        player = player_of(found, sponsor.follows)
        return player if player is not None and player.colour is not None else None
    return next((p for p in found if p.colour is not None and p.colour == sponsor.colour),
                None)


# -- pools ----------------------------------------------------------------------

def pool(state: GameState, player: Player) -> int:
    """§11.1: one DP per centre of each power, at most three a power; a
    surviving player (units but, for now, no centres) has at least one."""
    centres = Counter(owner for _, owner in state.owners)
    points = sum(min(centres[p], MAX_POWER_POINTS) for p in player.powers)
    if points == 0 and any(u.power in player.powers for u in state.units):
        return 1
    return points


def bid_allowance(game_map: GameMap, state: GameState,
                  power: str) -> tuple[int, dict[str, int]]:
    """The pool of the power's player this phase; no caps on groups of
    units (the 2 DP cap is per order, checked with the bids)."""
    if power not in game_map.powers or game_map.powers[power].ordered_by_bids:
        return 0, {}
    player = player_of(players(game_map, state), power)
    return (pool(state, player) if player else 0), {}


# -- the neutral-orders stage ---------------------------------------------------

def neutral_orders(game_map: GameMap, state: GameState, board: Occupancy,
                   chosen: Mapping[str, MovementOrder],
                   bids: Mapping[str, Sequence[Bid]]) -> NeutralOrders:
    return allocate(game_map, state, board, chosen, bids,
                    players(game_map, state), sponsors(game_map))


def allocate(game_map: GameMap, state: GameState, board: Occupancy,
             chosen: Mapping[str, MovementOrder], bids: Mapping[str, Sequence[Bid]],
             found: Sequence[Player], sponsored: Mapping[str, Sponsor]) -> NeutralOrders:
    """Every bid's fate, and an order for every minor and affiliate unit.

    ``bids``: by bidding power, each list in the order written; the powers
    of one player share its pool and its 2 DP per order.
    """
    results: list[BidResult] = []
    spent: Counter[str] = Counter()  # DP by player
    on_order: Counter[tuple[str, str]] = Counter()  # DP by (player, order)
    for bidder, written in bids.items():
        player = player_of(found, bidder)
        budget = pool(state, player) if player else 0
        for bid in written:
            result = _judge(game_map, board, chosen, bidder, player, budget, bid)
            if result.counted and player is not None and result.order is not None:
                key = (player.name, str(result.order))
                if on_order[key] + bid.points > MAX_ORDER_POINTS:
                    result = _ignored(result, f"at most {MAX_ORDER_POINTS} DP per order "
                                              f"(§11.3): {on_order[key]} already bid on it")
                elif spent[player.name] + bid.points > budget:
                    left = budget - spent[player.name]
                    result = _ignored(result, f"over the pool: {bid.points} DP asked, "
                                              f"{left} of {budget} DP left (§11.1)")
                else:
                    on_order[key] += bid.points
                    spent[player.name] += bid.points
            results.append(result)

    def weight(result: BidResult) -> int:
        assert result.order is not None
        unit = board.units[province_of(result.order.unit.location)]
        sponsor = sponsor_of(found, sponsored.get(unit.power))
        double = sponsor is not None and sponsor == player_of(found, result.bidder)
        return result.bid.points * (SPONSOR_FACTOR if double else 1)

    orders = winning_orders((r for r in results if r.counted), weight)
    by_bids = frozenset(orders)
    for prov, unit in board.units.items():
        power = game_map.powers.get(unit.power)
        if power is not None and power.ordered_by_bids and prov not in orders:
            orders[prov] = Hold(board.ref(unit))
    return NeutralOrders(orders, tuple(results), by_bids)


def _judge(game_map: GameMap, board: Occupancy, chosen: Mapping[str, MovementOrder],
           bidder: str, player: Player | None, budget: int, bid: Bid) -> BidResult:
    """Whether a bid may count at all, before the pool and the per-order cap."""
    def ignored(why: str, order: MovementOrder | None = None) -> BidResult:
        return BidResult(bidder, bid, False, why, order)

    if player is None or budget == 0:
        return ignored(f"{bidder} may not bid: no Diplomacy Points (§11.1)")
    target = bid_target(game_map, board, bid, "a minor or affiliate unit")
    if isinstance(target, str):
        return ignored(target)
    unit, checked = target
    attack = _attack_on(board, chosen, player, unit)
    if attack:
        return ignored(attack, checked)
    return BidResult(bidder, bid, True, "", checked)


def _attack_on(board: Occupancy, chosen: Mapping[str, MovementOrder], player: Player,
               neutral: Unit) -> str:
    """§11.2: which of the player's units attacks, or supports an attack on,
    the neutral power's unit; '' when none does. Convoying is neither."""
    for prov, order in chosen.items():
        own = board.units.get(prov)
        if own is None or own.power not in player.powers:
            continue
        if not isinstance(order, (Move, SupportMove)):
            continue
        victim = board.units.get(province_of(order.dest))
        if victim is not None and victim.power == neutral.power:
            what = "attacks" if isinstance(order, Move) else "supports an attack on"
            return (f"attacking & allocating: {player.name}'s {own} {what} "
                    f"{neutral.power}'s unit in {victim.province} (§11.2)")
    return ""


def _ignored(result: BidResult, why: str) -> BidResult:
    return BidResult(result.bidder, result.bid, False, why, result.order)
