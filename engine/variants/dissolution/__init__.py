"""Dissolution's rules (W. Alex Ronke's variant, v2.1, CC BY-SA 4.0):
what differs from the standard game, as overrides of the rules hooks.

Section numbers (§) are those of the rule text. The map, the powers and
their traits (stationary, invulnerable, bids) are data in
``engine/variants/dissolution.toml``; so are the facts only these rules
read, in its ``[favor]`` table: the nuclear powers, their partners and the
players' starting Favor (nuclear.py), and the Favor map (favor_board.py).
This module holds only the rules:

* combat (§3.7-§3.11): stationary units, invulnerable units, binding convoy
  paths and the criss-cross paradox rule, set as class attributes and
  carried out by the resolver;
* the neutral-orders stage: Diplomacy Point bids (neutral.py);
* after movement: violations against nuclear powers (violations.py), zero
  Favor retreats and nuclear retaliation;
* the end of the year: victory points less US Navy occupation, the
  27-point win with a strict lead, elimination into exile;
* adjustments: half the victory points rounded up, emergent build sites,
  one wing at most and only from 12 points, neutral minors rebuilding.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from engine.bids import Bid
from engine.boards import Happened, HexBoard
from engine.holdings import Holdings
from engine.legality import Occupancy
from engine.lines import BIDS, ORDERS
from engine.map import GameMap, Power, UnitKind
from engine.orders import Build, MovementOrder, Order, Waive
from engine.outcomes import OrderResult
from engine.phase import PhaseKind
from engine.reports import ReportSection, section
from engine.resolver import MovementResolver, ParadoxRule
from engine.rules import NeutralOrders, Rules
from engine.state import GameState
from engine.units import Unit
from engine.variants.dissolution import reports
from engine.variants.dissolution.embassies import winter_orders
from engine.variants.dissolution.favor_board import (
    FavorBoard,
    favor_board,
    parse_label,
    read_board,
    read_setup,
)
from engine.variants.dissolution.favor_drawing import favor_map, read_drawing
from engine.variants.dissolution.holdings import holdings
from engine.variants.dissolution.kicks import Kick, apply_kicks
from engine.variants.dissolution.neutral import bidders, budget, neutral_orders
from engine.variants.dissolution.nuclear import nuclear_powers, read_nuclear
from engine.variants.dissolution.state import DissolutionState, favor_of, of
from engine.variants.dissolution.violations import Violation, find_violations

WING_MINIMUM_VP = 12  # §4.4


class DissolutionRules(Rules):
    name = "dissolution"
    binding_paths = True  # §3.10.1
    paradox = ParadoxRule.CRISS_CROSS  # §3.11
    always_winter = True  # §2.2: Winter is a season of its own
    stationary_rule = "§3.7"
    score_unit = "VP"  # victory points, not centres (§1.4): effective ones (§4.6.1)
    score_title = "effective victory points (VP, §4.6.1)"
    caps_title = "your Favor with each nuclear power, the most you may bid on its units (§5.1.2)"
    state_parts = (DissolutionState,)
    line_kinds = (ORDERS, BIDS)  # §5: Diplomacy Points steer the neutral units

    def check_tables(self, game_map: GameMap) -> list[tuple[tuple[str, ...], str]]:
        """The [favor] table: the nuclear powers, their partners and the
        starting Favor (§7, §8, §11.6.4), then the Favor map's layout and
        setups (§11.1, §11.2), and how it is drawn."""
        nuclear, problems = read_nuclear(game_map)
        if any(path[:2] in (("favor",), ("favor", "slices")) for path, _ in problems):
            return problems  # the Favor map is read by its slices: first put them right
        board, found = read_board(game_map, nuclear)
        return problems + found + read_drawing(game_map, board.slices)[1]

    # -- the neutral-orders stage and what follows movement --------------------

    def neutral_orders(self, game_map: GameMap, state: GameState, board: Occupancy,
                       chosen: Mapping[str, MovementOrder],
                       bids: Mapping[str, Sequence[Bid]]) -> NeutralOrders:
        return neutral_orders(self, game_map, state, board, chosen, bids)

    setup_title = "Favor setup"
    setup_default = "the default for powers not named"

    def opening(self, game_map: GameMap, state: GameState) -> GameState:
        """The Embassies on the default setup of the Favor map (§11.2.2)."""
        return place_embassies(game_map, state, favor_board(game_map).setups["default"])

    def other_board(self, game_map: GameMap, state: GameState,
                    happened: Happened | None = None) -> HexBoard | None:
        """The Favor map with every Embassy (§11.1) and what the phase did
        to them (the Winter's moves, the kicks), for drawing."""
        return favor_map(game_map, state, happened)

    def setup_problems(self, game_map: GameMap,
                       setup: Mapping[str, Sequence[str]]) -> list[str]:
        """§11.2: any setup with each Embassy on a hex of its power's
        starting Favor value, one per slice, never two on one hex."""
        board = favor_board(game_map)
        problems: list[tuple[tuple[str, ...], str]] = []
        read_setup(game_map, board, _over_default(board, setup), ("setup",), problems)
        return [f"{path[-1]}: {message}" if len(path) > 1 else message
                for path, message in problems]

    def with_setup(self, game_map: GameMap, state: GameState,
                   setup: Mapping[str, Sequence[str]]) -> GameState:
        board = favor_board(game_map)
        labels = {p: tuple(parse_label(s).label for s in spaces)  # type: ignore[union-attr]
                  for p, spaces in _over_default(board, setup).items()}
        return place_embassies(game_map, state, labels)

    def marked_territories(self, game_map: GameMap) -> Mapping[str, tuple[str, ...]]:
        """The nuclear powers' territories (§8): a player's unit there may
        offend the power, and zero Favor shuts a player out (§11.4.2). The
        US Navy has none, but is a nuclear power all the same."""
        nuclear = nuclear_powers(game_map)
        return {name: power.territory for name, power in game_map.powers.items()
                if nuclear.is_nuclear(name)}

    def other_board_units(self, game_map: GameMap, state: GameState) -> tuple[Unit, ...]:
        """The Embassies, each a unit on its space of the Favor map (§11.5)."""
        return tuple(Unit(power, UnitKind.EMBASSY, space)
                     for power, _, space in of(state).embassies)

    def other_board_refusal(self, game_map: GameMap, state: GameState, order: Order) -> str:
        """§11.5: Embassies take orders in the Winter Orders phase only."""
        if state.phase.kind is PhaseKind.ADJUSTMENT or isinstance(order, (Build, Waive)):
            return ""
        if order.unit.location not in favor_board(game_map).spaces:
            return ""
        return (f"{order.unit.location} is a space of the Favor map: Embassy orders are "
                "for Winter (§11.5); in Spring and Autumn the Embassies stand still")

    def silence(self, game_map: GameMap, state: GameState, power: str) -> GameState:
        """§5.3: a player in exile bids at the GM's pleasure."""
        part = of(state)
        if power not in part.exiles:
            raise ValueError(f"{power} is no player in exile: only an eliminated player "
                             "who still bids can be silenced")
        return state.with_part(replace(part, silenced=part.silenced | {power}))

    def board_spaces(self, game_map: GameMap) -> Mapping[str, str]:
        """The Favor map's spaces, for Embassy orders (§11.5)."""
        return {label.lower(): label for label in favor_board(game_map).spaces}

    def winter_orders(self, game_map: GameMap, state: GameState,
                      orders: Mapping[str, Sequence[Order]],
                      ) -> tuple[tuple[OrderResult, ...], GameState, dict[str, list[Order]]]:
        """§11.5: the Embassies' orders, beside the adjustments."""
        return winter_orders(game_map, favor_board(game_map), state, orders)

    def holdings(self, game_map: GameMap, state: GameState,
                 powers: Sequence[str]) -> Holdings:
        """The Embassies and their Favor (§11.3), and Winter's Embassy orders (§11.5)."""
        return holdings(game_map, state, powers)

    def winter_orderers(self, game_map: GameMap, state: GameState) -> frozenset[str]:
        """Every player with Embassies orders them in Winter (§11.5)."""
        return frozenset(p for p, _, _ in of(state).embassies)

    def bid_allowance(self, game_map: GameMap, state: GameState,
                      power: str) -> tuple[int, dict[str, int]]:
        """§5.2's budget and §11.4.1's caps: the Favor with each nuclear power."""
        if power not in bidders(game_map, state):
            return 0, {}
        return budget(game_map, state, power), favor_caps(game_map, state, power)

    def after_movement(self, game_map: GameMap, state: GameState, resolver: MovementResolver,
                       chosen: Mapping[str, MovementOrder],
                       ) -> tuple[GameState, tuple[ReportSection, ...]]:
        """§11.6: the offences against nuclear powers; §11.7.1: each kicks
        the offender's Embassy before the retreats. Both are reported."""
        violations = find_violations(game_map, resolver, chosen)
        if not violations:
            return state, ()
        after, kicks = apply_kicks(favor_board(game_map), state, violations)
        return after, (
            *section("violations", "Violations against nuclear powers", violations,
                     Violation.describe, lambda v: v.power),
            *section("kicks", "Embassies kicked on the Favor map", kicks,
                     Kick.describe, lambda k: k.power))

    def after_retaliation(self, game_map: GameMap, state: GameState,
                          destroyed: tuple[Unit, ...]) -> GameState:
        """§11.5.3.3: note who suffered retaliation from whom this year."""
        hit = {(unit.power, nuclear) for unit in destroyed
               for nuclear in zero_favor(game_map, state, unit.power)
               if unit.province in game_map.powers[nuclear].territory}
        return state.with_part(replace(of(state), retaliated=of(state).retaliated | hit))

    def retreat_barred(self, game_map: GameMap, state: GameState, unit: Unit) -> frozenset[str]:
        """§11.4.2: no retreat into a nuclear power's territory at zero Favor."""
        return state.closed | shut_out(game_map, state, unit.power)

    def retaliation(self, game_map: GameMap, state: GameState,
                    units: Sequence[Unit]) -> tuple[Unit, ...]:
        """§11.4.2: a player's units in the territory of a nuclear power with
        which it has zero Favor are destroyed in the Spring and Autumn retreats."""
        barred: dict[str, frozenset[str]] = {}  # per power: the territories it is shut out of
        destroyed = []
        for unit in units:
            if unit.power not in barred:
                barred[unit.power] = shut_out(game_map, state, unit.power)
            if unit.province in barred[unit.power]:
                destroyed.append(unit)
        return tuple(destroyed)

    def why_retaliation(self, game_map: GameMap, state: GameState, unit: Unit) -> str:
        """§11.4.2: the nuclear power whose territory the unit stood in."""
        by = [n for n in zero_favor(game_map, state, unit.power)
              if unit.province in game_map.powers[n].territory]
        who = " and ".join(by) or "a nuclear power"
        return (f"{unit.power} has zero Favor with {who}, in whose territory "
                f"{unit.province} lies (§11.4.2)")

    # -- the end of the year -----------------------------------------------------

    def scores(self, game_map: GameMap, state: GameState) -> dict[str, int]:
        """Effective victory points (§1.4, §4.6): the centres' values, less
        those of centres a unit that never captures (the US Navy) stands on."""
        blocked = {u.province for u in state.units if not self.captures(game_map, u)}
        counts = dict.fromkeys(game_map.powers, 0)
        for centre, power in state.owners:
            info = game_map.provinces[centre].centre
            if info is not None and centre not in blocked:
                counts[power] = counts.get(power, 0) + info.value
        return counts

    def victor(self, game_map: GameMap, state: GameState,
               scores: Mapping[str, int]) -> str | None:
        """§1.5: at least 27 points and strictly more than any other player."""
        tallies = sorted(((scores.get(p, 0), p) for p in played(game_map)
                          if p not in of(state).exiles), reverse=True)
        if not tallies or tallies[0][0] < state.victory:
            return None
        if len(tallies) > 1 and tallies[1][0] == tallies[0][0]:
            return None  # a tie at the top: play on
        return tallies[0][1]

    def end_of_year(self, game_map: GameMap, state: GameState,
                    scores: Mapping[str, int]) -> GameState:
        """§2.1.5: a player who controls no supply centre is eliminated and
        plays on in exile; one whose centres are all occupied by the US Navy
        (zero points, some centres) is not (§4.6.2)."""
        owning = {power for _, power in state.owners}
        out = frozenset(p for p in played(game_map) if p not in owning)
        part = of(state)
        if out <= part.exiles:
            return state
        # §4.1: an eliminated player's Embassies leave the Favor map
        return state.with_part(replace(
            part, exiles=part.exiles | out,
            favor=tuple(f for f in part.favor if f[0] not in out),
            embassies=tuple(e for e in part.embassies if e[0] not in out)))

    # -- adjustments ----------------------------------------------------------------

    def builds(self, power: Power, state: GameState) -> bool:
        return not power.ordered_by_bids and power.name not in state.unplayed

    def allowance(self, game_map: GameMap, state: GameState, power: str,
                  scores: Mapping[str, int]) -> int:
        """§4.2: half the effective victory points, rounded up."""
        return (scores.get(power, 0) + 1) // 2

    def build_sites(self, game_map: GameMap, state: GameState, power: str) -> set[str]:
        """§4.3 emergent builds: home centres, centres next to a home centre,
        and centres next to any centre built in before."""
        near = game_map.province_graph
        centres = game_map.supply_centres
        home = set(game_map.powers[power].home)
        built = {c for p, c in of(state).built if p == power}
        sites = set(home)
        for origin in home | built:
            sites.update(c for c in near.get(origin, ()) if c in centres)
        return sites

    def build_refusal(self, game_map: GameMap, state: GameState, power: str, unit: Unit,
                      scores: Mapping[str, int], board: Sequence[Unit]) -> str:
        """§4.4: one wing at a time, built only with 12 points or more."""
        if unit.kind is not UnitKind.WING:
            return ""
        if any(u.power == power and u.kind is UnitKind.WING for u in board):
            return f"{power} already has a wing (one at a time, §4.4)"
        if scores.get(power, 0) < WING_MINIMUM_VP:
            return (f"a wing needs {WING_MINIMUM_VP} victory points; {power} has "
                    f"{scores.get(power, 0)} (§4.4)")
        return ""

    def neutral_builds(self, game_map: GameMap, state: GameState) -> tuple[Unit, ...]:
        """§4.5: a minor power rebuilds an army on each home centre that is
        empty and that no player owns; nuclear powers never build."""
        owner = state.owner_of
        occupied = {u.province for u in state.units}
        nuclear = nuclear_powers(game_map)
        out = []
        for power in game_map.powers.values():
            if not power.ordered_by_bids or nuclear.is_nuclear(power.name):
                continue
            for centre in power.home:
                if centre not in occupied and owner.get(centre, power.name) == power.name:
                    out.append(Unit(power.name, UnitKind.ARMY, centre))
        return tuple(out)

    def after_adjustments(self, game_map: GameMap, state: GameState,
                          built: Sequence[Unit]) -> GameState:
        """Remember where players built, for the emergent build sites."""
        new = {(u.power, u.province) for u in built
               if not game_map.powers[u.power].ordered_by_bids}
        part = of(state)
        if new - set(part.built):
            part = replace(part, built=tuple(sorted(set(part.built) | new)))
        if part.kicked or part.retaliated:  # the year is over (§11.5.3)
            part = replace(part, kicked=frozenset(), retaliated=frozenset())
        return state.with_part(part)


    # -- the results ------------------------------------------------------------

    def report_sections(self, game_map: GameMap, before: GameState,
                        after: GameState) -> tuple[ReportSection, ...]:
        """Favor changes; after Autumn, victory points and what the Winter asks."""
        return reports.report_sections(self, game_map, before, after)

    def winter_asks(self, game_map: GameMap, state: GameState, power: str) -> tuple[str, ...]:
        """The player's Embassies, Favor values and Embassy orders allowed (§11.5)."""
        return reports.winter_asks(game_map, state, power)


def place_embassies(game_map: GameMap, state: GameState,
                    setup: Mapping[str, tuple[str, ...]]) -> GameState:
    """The state with each played power's Embassies where ``setup`` puts them."""
    board = favor_board(game_map)
    embassies = tuple(sorted(
        (power, board.slices[board.spaces[space].slice], space)
        for power, spaces in setup.items() for space in spaces))
    return state.with_part(replace(of(state), embassies=embassies))


def _over_default(board: FavorBoard, setup: Mapping[str, Sequence[str]]
                  ) -> dict[str, tuple[str, ...]]:
    """A GM's setup of some powers, the default setup's places for the rest."""
    return {**board.setups["default"], **{p: tuple(s) for p, s in setup.items()}}


def favor_caps(game_map: GameMap, state: GameState, power: str) -> dict[str, int]:
    """§11.4.1: the most a player may bid on each nuclear power's units, its
    Favor with that power."""
    nuclear = nuclear_powers(game_map)
    return {n: favor_of(game_map, state, power, n)
            for n in game_map.powers if nuclear.is_nuclear(n)}


def shut_out(game_map: GameMap, state: GameState, power: str) -> frozenset[str]:
    """§11.4.2: the territories of the nuclear powers with which a played
    power has zero Favor: its units may not retreat there, and those there
    are destroyed."""
    return frozenset(prov for nuclear in zero_favor(game_map, state, power)
                     for prov in game_map.powers[nuclear].territory)


def played(game_map: GameMap) -> list[str]:
    """The powers players play (not steered by bids)."""
    return [name for name, power in game_map.powers.items() if not power.ordered_by_bids]


def zero_favor(game_map: GameMap, state: GameState, power: str) -> list[str]:
    """The nuclear powers with which a played power has zero Favor."""
    if power not in game_map.powers or game_map.powers[power].ordered_by_bids:
        return []
    nuclear = nuclear_powers(game_map)
    return [n for n in game_map.powers
            if nuclear.is_nuclear(n) and favor_of(game_map, state, power, n) == 0]


RULES = DissolutionRules()
