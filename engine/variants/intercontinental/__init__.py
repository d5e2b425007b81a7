"""Intercontinental's rules (W. Alex Ronke's variant, v1.1.2, CC BY-SA 4.0):
what differs from the standard game, as overrides of the rules hooks.

Section numbers (§) are those of the rule text. The board, the powers and
their traits (minor neutrals and affiliates ordered by bids and stationary,
§10) are data in ``engine/variants/intercontinental.toml``; the facts the text
gives are read by ``facts.py``. This module holds only the rules:

* combat (§10): stationary units are the resolver's, read from the powers'
  ``stationary`` trait, as in Dissolution;
* the map in force: Suez's split coasts until the canal opens, one coast
  after (§5.2, suez.py);
* the end of the year: a colour group's centres win at 72 with a strict lead
  (§2.0), the optional year cap ends the game in a draw (§2.2) (victory.py);
* adjustments: each major builds for itself in its home centres and one
  additional home centre it names by building there (§9.1, homes.py);
  minors and affiliates rebuild their starting unit (§9.2);
* combat sides: every power for itself, group-mates included (§1.6);
* before the game: the colour groups' draw and its check (§3, assignment.py);
  a game's own settings, the Suez year and the year cap (options.py);
* the map's colours: group shades, the Dutch East Indies orange (map_key.py).

The Diplomacy Point hooks (bid_allowance, neutral_orders) hand over to
diplomacy_points.py (§11).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.bids import Bid
from engine.holdings import Holdings
from engine.legality import Occupancy
from engine.lines import BIDS, ORDERS
from engine.map import GameMap, Power
from engine.orders import MovementOrder
from engine.reports import ReportSection
from engine.rules import MapKey, NeutralOrders, Rules
from engine.state import GameState, Seat
from engine.units import Unit
from engine.variants.intercontinental import (
    assignment,
    board_facts,
    diplomacy_points,
    homes,
    map_key,
    options,
    reports,
    suez,
    victory,
)
from engine.variants.intercontinental.holdings import holdings
from engine.variants.intercontinental.state import IntercontinentalState


class IntercontinentalRules(Rules):
    name = "intercontinental"
    state_parts = (IntercontinentalState,)
    line_kinds = (ORDERS, BIDS)  # §11: Diplomacy Points steer the minors and affiliates
    # Winter comes every year, adjustments or not: minors and affiliates
    # rebuild then (§9.2) and Suez's fleets shift at the end of the Winter
    # before the canal opens (§5.2), neither of which gives a player an order.
    always_winter = True
    stationary_rule = "§10.2"
    setup_title = "colour groups"  # SET GROUP's assignment instead of the §3 draw
    setup_default = "every group must be set"

    def bid_allowance(self, game_map: GameMap, state: GameState,
                      power: str) -> tuple[int, dict[str, int]]:
        """§11.1: the pool of the power's player (its colour group)."""
        return diplomacy_points.bid_allowance(game_map, state, power)

    def neutral_orders(self, game_map: GameMap, state: GameState, board: Occupancy,
                       chosen: Mapping[str, MovementOrder],
                       bids: Mapping[str, Sequence[Bid]]) -> NeutralOrders:
        """§11: minors' and affiliates' orders from the groups' bids."""
        return diplomacy_points.neutral_orders(game_map, state, board, chosen, bids)

    def holdings(self, game_map: GameMap, state: GameState,
                 powers: Sequence[str]) -> Holdings:
        """The affiliates the seat's colour group sponsors (§8, §11.3)."""
        return holdings(game_map, state, powers)

    def read_option(self, game_map: GameMap, key: str, value: str) -> str:
        """A game's ``suez`` year (§5.2) and ``year_cap`` (§2.2), options.py."""
        return options.read(game_map, key, value)

    def options_offered(self, game_map: GameMap) -> tuple[tuple[str, str], ...]:
        return options.offered(game_map)

    def with_options(self, game_map: GameMap,
                     settings: tuple[tuple[str, str], ...]) -> GameMap:
        return options.with_options(game_map, settings)

    # -- before the game: the colour groups (§3) ----------------------------------

    def opening(self, game_map: GameMap, state: GameState) -> GameState:
        """§3: the eight colour groups as the seats, drawn from the game's
        seed, so that the draw is the same each time the game is read. A
        board whose [seats] table already groups the powers keeps them."""
        if any(len(powers) > 1 for _, powers in game_map.seats):
            return state
        return _seated(game_map, state, assignment.draw(state.seed))

    def setup_problems(self, game_map: GameMap,
                       setup: Mapping[str, Sequence[str]]) -> list[str]:
        """A GM's assignment instead of the draw (colour group -> §6 codes):
        each §1.2/§3 rule it breaks."""
        return assignment.problems(setup)

    def with_setup(self, game_map: GameMap, state: GameState,
                   setup: Mapping[str, Sequence[str]]) -> GameState:
        """The GM's groups once complete and valid; until then the draw's
        (a GM sets them a group at a time, and START refuses a broken one)."""
        if assignment.problems(setup):
            return state
        return _seated(game_map, state, setup)

    def check_tables(self, game_map: GameMap) -> list[tuple[tuple[str, ...], str]]:
        """The [suez_canal] table (§5.2), the optional [year_cap] (§2.2), the
        map's colours ([map_style]) and the board's facts from the text
        (centres, homes, starting units: board_facts.py)."""
        return (suez.read_canal(game_map)[1] + victory.check_cap(game_map)
                + map_key.check_style(game_map) + board_facts.check_board(game_map))

    def map_key(self, game_map: GameMap, state: GameState) -> MapKey:
        """Each major in a shade of its colour group, the Dutch East Indies
        orange (§6.12), minors and affiliates apart (map_key.py)."""
        return map_key.map_key(game_map, state)

    def sides(self, state: GameState) -> Mapping[str, str]:
        """§1.6: every power fights for itself: it may dislodge, and cut the
        support of, the other powers of its own colour group."""
        return {}

    def map_for(self, game_map: GameMap, state: GameState) -> GameMap:
        """§5.2: the split Suez until Spring of the opening year, the canal after."""
        if suez.is_open(game_map, state):
            return suez.opened(game_map).with_canals_for(state.phase.year)
        return game_map.with_canals_for(state.phase.year)

    # -- the end of the year (§2) ------------------------------------------------

    def victor(self, game_map: GameMap, state: GameState,
               scores: Mapping[str, int]) -> str | None:
        """§2.0: the colour group with 72 centres or more and strictly the most."""
        return victory.victor(state, scores)

    def end_of_year(self, game_map: GameMap, state: GameState,
                    scores: Mapping[str, int]) -> GameState:
        """§2.2: the year cap's draw of every surviving player."""
        return victory.capped(game_map, state, scores)

    # -- adjustments (§9) --------------------------------------------------------

    def builds(self, power: Power, state: GameState) -> bool:
        """Minors and affiliates never adjust: they rebuild on their own (§9.2)."""
        return not power.ordered_by_bids and power.name not in state.unplayed

    def build_sites(self, game_map: GameMap, state: GameState, power: str) -> set[str]:
        """§9.1: the power's home centres, its additional home once named,
        and until then every centre it could name by building there."""
        return homes.build_sites(game_map, state, power)

    def build_refusal(self, game_map: GameMap, state: GameState, power: str, unit: Unit,
                      scores: Mapping[str, int], board: Sequence[Unit]) -> str:
        return homes.naming_refusal(game_map, state, power, unit, board)

    def neutral_builds(self, game_map: GameMap, state: GameState) -> tuple[Unit, ...]:
        return homes.neutral_builds(game_map, state)

    def after_adjustments(self, game_map: GameMap, state: GameState,
                          built: Sequence[Unit]) -> GameState:
        """Remember the additional home centres this Winter named (§9.1); and
        §5.2: a fleet on either coast of Suez at the end of the last Winter
        before the canal opens stands in Suez from then on."""
        state = homes.named(game_map, state, built)
        if suez.is_open(game_map, state):
            state = state.evolve(units=suez.shift_fleets(game_map, state.units))
        return state

    def report_sections(self, game_map: GameMap, before: GameState,
                        after: GameState) -> tuple[ReportSection, ...]:
        """Additional homes named (§9.1) and the canal's opening (§5.2)."""
        return reports.report_sections(game_map, before, after)


def _seated(game_map: GameMap, state: GameState,
            groups: Mapping[str, Sequence[str]]) -> GameState:
    """The state with one seat per colour group; minors and affiliates have
    none (they are ordered by bids)."""
    return state.evolve(seats=tuple(Seat(group, powers)
                                    for group, powers in assignment.seats(game_map, groups)))


RULES = IntercontinentalRules()
