"""The rules of a game as one object: each method is a point where a variant
may differ from the standard game, named after what the rules change.

:class:`Rules` is the standard game (2000 rulebook, DATC 3.0). A variant
whose rules differ has a module ``engine/variants/NAME.py`` that subclasses
it, overrides the hooks it needs and exposes the instance as ``RULES``; its
variant file selects it with ``rules = "NAME"``. Nothing else in the engine
or the judge asks which variant is being played.

A phase is a pipeline of these hooks (engine/game.py): the map in force; the
neutral-orders stage (bids in, the neutral units' orders out) once the
players' orders are checked; resolution with the variant's combat traits;
what follows movement (Dissolution's violations); retreats (where a unit may not go, and
retaliation); the end of the year (ownership, scores, victory, elimination);
adjustments (allowance, build sites and limits); the phase sequence;
and what the results report (engine/reports.py).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

from engine import flag_rules
from engine.bids import Bid, BidResult
from engine.boards import Happened, HexBoard
from engine.holdings import NOTHING, Holdings
from engine.legality import Occupancy
from engine.lines import ORDERS, LineKind
from engine.map import GameMap, Power
from engine.movement_result import MovementResult
from engine.orders import Build, MovementOrder, Order
from engine.outcomes import OrderResult
from engine.phase import Phase
from engine.reports import ReportSection
from engine.resolver import Combat, MovementResolver, ParadoxRule
from engine.state import GameState, StatePart
from engine.units import Unit

if TYPE_CHECKING:
    from engine.diplomap.values import MapOrder


@dataclass(frozen=True, slots=True)
class NeutralOrders:
    """The neutral-orders stage's answer: an order per bid-ordered unit (by
    province) and the fate of every bid, for the GM's eyes only."""

    orders: Mapping[str, MovementOrder] = field(default_factory=dict)
    bids: tuple[BidResult, ...] = ()
    # the provinces whose units' orders the bids gave (the rest took their
    # default order): the results list those units (engine/neutral_report.py)
    from_bids: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class MapKey:
    """How a variant's powers look on the map when a colour per power in the
    variant file is not enough (Intercontinental's colour groups, drawn only
    when the game starts). Read by judge/maps; the rules never look at it."""

    colours: Mapping[str, str]  # power -> "#rrggbb", overriding the variant file's
    # power -> "minor" or "affiliate": drawn pale, with the kind's marker on its units
    kinds: Mapping[str, str] = field(default_factory=dict)
    # the legend: one line per (group, its colour, its powers), in this order
    groups: tuple[tuple[str, str, tuple[str, ...]], ...] = ()
    # an affiliate drawn in a group's colour (pale) without being one of its
    # powers -> that group: with the group's powers' shades, its colours read
    # as one player's (judge/maps/key.py writes them down for the checks)
    affiliated: Mapping[str, str] = field(default_factory=dict)
    pixels: int = 0  # the PNG's width when the board needs more than the usual


class Rules:
    """The standard game. Variants subclass and override."""

    name = "standard"
    binding_paths = False  # must a convoyed army name its path, which binds it?
    paradox = ParadoxRule.SZYKMAN
    always_winter = False  # a winter phase every year, with or without adjustments
    stationary_rule = ""  # the section saying a stationary unit never retreats
    # what a score counts, in the results' tables ('5 centres') and as a
    # heading (the end mail, SUMMARY): Dissolution scores victory points
    score_unit = "centres"
    score_title = "supply centre counts"
    # what the most a player may bid on each power's units is, where bids
    # are capped (bid_allowance's caps), in the results, HISTORY and the
    # orders reply: Dissolution's caps are the bidder's Favor values
    caps_title = "the most you may bid on each power's units"
    # what a GM's setup before the start (setup_problems, with_setup) is called
    # in mails, and what it leaves to the variant's default
    setup_title = "setup"
    setup_default = "the default for what is not set"
    # what these rules keep in a position beside the standard game's fields,
    # each a frozen value of its own (engine/state_parts.py)
    state_parts: tuple[type[StatePart], ...] = ()
    # the kinds of line players file for a phase, each read by the parser
    # its name selects (engine/lines.py): the standard game reads orders only
    line_kinds: tuple[LineKind[Any], ...] = (ORDERS,)

    # -- the variant file ---------------------------------------------------

    def check_tables(self, game_map: GameMap) -> list[tuple[tuple[str, ...], str]]:
        """Problems in the tables of the variant file only these rules read
        (``game_map.tables``), each with its key path; the standard game has none."""
        return []

    def read_option(self, game_map: GameMap, key: str, value: str) -> str:
        """A game setting of this variant's own (a GM's CREATE line such as
        Intercontinental's ``suez 1870``): its value as the game keeps it;
        ValueError with the reason when refused. The standard game has none."""
        raise ValueError(f"unknown setting {key!r}")

    def options_offered(self, game_map: GameMap) -> tuple[tuple[str, str], ...]:
        """The settings of this variant's own that read_option takes, each
        with the values it takes as the manual and HELP list them; none in
        the standard game."""
        return ()

    def with_options(self, game_map: GameMap,
                     options: tuple[tuple[str, str], ...]) -> GameMap:
        """The game's map with its own settings in force (read_option's
        values): the rules read them as the map's tables."""
        return game_map

    def board_spaces(self, game_map: GameMap) -> Mapping[str, str]:
        """Spaces of the variant's other boards that orders may name, by
        their lower-case spelling (Dissolution's Favor map); none here."""
        return {}

    def setup_problems(self, game_map: GameMap,
                       setup: Mapping[str, Sequence[str]]) -> list[str]:
        """What is wrong with another setup of the variant's other board, in
        full (the default's places for the powers not given); this variant has none."""
        return ["this variant has no other board to set up"]

    def with_setup(self, game_map: GameMap, state: GameState,
                   setup: Mapping[str, Sequence[str]]) -> GameState:
        """The opening position with that setup in place of the default one."""
        return state

    def other_board(self, game_map: GameMap, state: GameState,
                    happened: Happened | None = None) -> HexBoard | None:
        """The variant's other board as it stands, for drawing, with the
        ways its pieces went in the phase just adjudicated (``happened``);
        none here."""
        return None

    def other_board_units(self, game_map: GameMap, state: GameState) -> tuple[Unit, ...]:
        """The units on the variant's other board, where orders may name
        them (Dissolution's Embassies); none here."""
        return ()

    def other_board_refusal(self, game_map: GameMap, state: GameState, order: Order) -> str:
        """Why an order naming a space of the variant's other board is not
        taken in this phase, whoever's unit is there, or '' (orders for
        Dissolution's Embassies are for Winter); the standard game has none."""
        return ""

    def silence(self, game_map: GameMap, state: GameState, power: str) -> GameState:
        """The position once the GM has stripped ``power``, a player in exile,
        of the right to bid; ValueError saying why when there is no such
        player. The standard game has no exiles."""
        raise ValueError("this variant has no players in exile")

    def opening(self, game_map: GameMap, state: GameState) -> GameState:
        """The opening position, once the seats are known (Embassies placed...);
        DPJudge's MOBILIZE empties the board for a first winter of builds."""
        return flag_rules.opening(game_map, state)

    def map_key(self, game_map: GameMap, state: GameState) -> MapKey | None:
        """The map's colours for this position, if not the variant file's."""
        return None

    def marked_territories(self, game_map: GameMap) -> Mapping[str, tuple[str, ...]]:
        """Powers whose territory the map marks whoever stands in it, each
        with its provinces (perhaps none): powers the rules set apart from
        the other neutrals, so the legend gives each a line of its own.
        Read by judge/maps; the standard game marks none."""
        return {}

    # -- the map in force ---------------------------------------------------

    def map_for(self, game_map: GameMap, state: GameState) -> GameMap:
        """The board as it stands in this phase (canals open by year)."""
        return game_map.with_canals_for(state.phase.year)

    def reading_board(self, game_map: GameMap, state: GameState,
                      places: Collection[str] | None = None) -> GameMap:
        """The board a phase's lines are read on: the board in force, here;
        Diplomap's also knows the names units displaced by a Draw stand on
        (``places``, by default where the state's dislodged units stand)."""
        return self.map_for(game_map, state)

    def why_unreadable(self, game_map: GameMap, state: GameState, text: str,
                       word: str = "", column: int = 0) -> str | None:
        """What the rules can say of a line that could not be read on the
        phase's reading board better than the reader's own words (``word``,
        ``column``: where the reader stopped): Diplomap's, that it names a
        province the board no longer has. None here: the reader's words stand."""
        return None

    def board_changes_since(self, game_map: GameMap, earlier: GameState,
                            later: GameState) -> tuple[str, ...]:
        """The changes to the board that ``later`` has and ``earlier`` had
        not, in words: what a rollback from ``later`` to ``earlier`` undoes
        on the board. The standard game's board never changes (its canals
        open by year, which a rollback gives back with the year): none."""
        return ()

    # -- Diplomap: the board redrawn during play (engine/diplomap/rules.py) ----

    diplomap = False  # are map orders adjudicated after the moves?

    def map_stage(self, game_map: GameMap, phase_map: GameMap, state: GameState,
                  moved: MovementResult, map_orders: Mapping[str, Sequence[MapOrder]],
                  ) -> tuple[MovementResult, GameState, tuple[ReportSection, ...], GameMap]:
        """After the moves, before the retreats: what the map orders leave
        (the units, the state, the board) and the report of their results.
        Without Diplomap nothing changes."""
        return moved, state, (), phase_map

    def retreat_orders(self, game_map: GameMap, state: GameState,
                       orders: Mapping[str, Sequence[Order]]) -> Mapping[str, Sequence[Order]]:
        """The retreat phase's orders, with any the rules give by default."""
        return orders

    # -- unit traits -----------------------------------------------------------

    def stationary(self, game_map: GameMap, unit: Unit) -> bool:
        power = game_map.powers.get(unit.power)
        return game_map.traits(unit.kind).stationary or (power is not None and power.stationary)

    def invulnerable(self, game_map: GameMap, unit: Unit) -> bool:
        power = game_map.powers.get(unit.power)
        return power is not None and power.invulnerable

    def combat(self, game_map: GameMap, units: Mapping[str, Unit]) -> Combat:
        if not game_map.has_special_units:
            return self._plain_combat
        return Combat(
            stationary=frozenset(p for p, u in units.items() if self.stationary(game_map, u)),
            invulnerable=frozenset(p for p, u in units.items()
                                   if self.invulnerable(game_map, u)),
            binding_paths=self.binding_paths,
            paradox=self.paradox,
        )

    @cached_property
    def _plain_combat(self) -> Combat:
        """Combat on a map whose units are all mobile and vulnerable."""
        return Combat(binding_paths=self.binding_paths, paradox=self.paradox)

    def sides(self, state: GameState) -> Mapping[str, str]:
        """Power -> the side it fights on: a side never dislodges its own
        units nor cuts its own support. The standard game: the player's seat
        (a player of several powers in a 2-4 player game is one side)."""
        return {power: seat.player for seat in state.seats for power in seat.powers}

    # -- orders -----------------------------------------------------------------

    def order_refusal(self, game_map: GameMap, state: GameState, power: str,
                      order: Order) -> str:
        """Why a movement order the map allows is not taken, or '' (DPJudge's
        IMMOBILE_DUMMIES: a dummy's units never move)."""
        return flag_rules.order_refusal(game_map, state, power, order)

    def occupancy(self, game_map: GameMap, state: GameState,
                  units: Mapping[str, Unit]) -> Occupancy:
        return Occupancy(game_map, units, state.closed, self.binding_paths)

    def neutral_orders(self, game_map: GameMap, state: GameState, board: Occupancy,
                       chosen: Mapping[str, MovementOrder],
                       bids: Mapping[str, Sequence[Bid]]) -> NeutralOrders:
        """Orders for the units of bid-ordered powers. The standard game has none."""
        return NeutralOrders()

    # -- after movement ---------------------------------------------------------

    def after_movement(self, game_map: GameMap, state: GameState, resolver: MovementResolver,
                       chosen: Mapping[str, MovementOrder],
                       ) -> tuple[GameState, tuple[ReportSection, ...]]:
        """What the rules do once the moves are resolved, before the retreats
        (Dissolution's violations kick Embassies): the position it leaves
        and what the results report of it. Nothing in the standard game."""
        return state, ()

    def retreat_barred(self, game_map: GameMap, state: GameState, unit: Unit) -> frozenset[str]:
        """Provinces this dislodged unit may not retreat into (besides the usual ones)."""
        return state.closed

    def may_retreat(self, game_map: GameMap, unit: Unit) -> bool:
        """Whether a dislodged unit retreats at all (stationary and unplayed ones do not)."""
        return not self.stationary(game_map, unit)

    def why_no_retreat(self, game_map: GameMap, state: GameState, unit: Unit) -> str:
        """Why this dislodged unit is destroyed rather than retreating, for
        the results (``stationary_rule``: where the variant's rules say it)."""
        if unit.power in state.unplayed:
            return f"{unit.power} is not played, so its units do not retreat"
        cite = f" ({self.stationary_rule})" if self.stationary_rule else ""
        return f"a stationary unit cannot retreat{cite}"

    def retaliation(self, game_map: GameMap, state: GameState,
                    units: Sequence[Unit]) -> tuple[Unit, ...]:
        """Units destroyed at the end of a spring or autumn's retreats."""
        return ()

    def why_retaliation(self, game_map: GameMap, state: GameState, unit: Unit) -> str:
        """Who destroyed this unit in retaliation, and why, for the results."""
        return ""

    def after_retaliation(self, game_map: GameMap, state: GameState,
                          destroyed: tuple[Unit, ...]) -> GameState:
        """Remember a retaliation (Dissolution's Embassies must then hold in Winter)."""
        return state

    # -- the end of the year ------------------------------------------------------

    def captures(self, game_map: GameMap, unit: Unit) -> bool:
        power = game_map.powers.get(unit.power)
        return power is None or power.captures

    def scores(self, game_map: GameMap, state: GameState) -> dict[str, int]:
        """Each power's score: its supply centres, each at its value."""
        counts = dict.fromkeys(game_map.powers, 0)
        provinces = game_map.provinces
        for centre, power in state.owners:
            info = provinces[centre].centre
            counts[power] = counts.get(power, 0) + (info.value if info is not None else 0)
        return counts

    def allowance(self, game_map: GameMap, state: GameState, power: str,
                  scores: Mapping[str, int]) -> int:
        """How many units a power may keep: one per supply centre (DPJudge's
        MOBILIZE: a single build in the first winter)."""
        return flag_rules.allowance(game_map, state, power, scores.get(power, 0))

    def victor(self, game_map: GameMap, state: GameState,
               scores: Mapping[str, int]) -> str | None:
        """The power (or, when players win, the player) holding enough centres."""
        tallies: Mapping[str, int] = scores
        if state.victory_by_player:
            tallies = {seat.player: sum(scores.get(p, 0) for p in seat.powers)
                       for seat in state.seats}
        best = max(tallies.items(), key=lambda kv: kv[1], default=None)
        if best is not None and best[1] >= state.victory:
            return best[0]
        return None

    def end_of_year(self, game_map: GameMap, state: GameState,
                    scores: Mapping[str, int]) -> GameState:
        """The state after the year's centres are counted (elimination and the like)."""
        return state

    # -- adjustments --------------------------------------------------------------

    def winter_orderers(self, game_map: GameMap, state: GameState) -> frozenset[str]:
        """Powers with orders to give in Winter besides adjustments (Embassies)."""
        return frozenset()

    def bid_allowance(self, game_map: GameMap, state: GameState,
                      power: str) -> tuple[int, dict[str, int]]:
        """A power's Diplomacy Points this phase, and the most it may spend on
        each group of neutral units (by power); none in the standard game."""
        return 0, {}

    def winter_orders(self, game_map: GameMap, state: GameState,
                      orders: Mapping[str, Sequence[Order]],
                      ) -> tuple[tuple[OrderResult, ...], GameState, dict[str, list[Order]]]:
        """Orders given beside the adjustments (Dissolution's Embassies):
        their results, the state they leave, and the orders left for the
        adjustments."""
        return (), state, {p: list(o) for p, o in orders.items()}

    def winter_asks(self, game_map: GameMap, state: GameState, power: str) -> tuple[str, ...]:
        """What a Winter asks of a power besides its builds and removals
        (Dissolution's Embassies), in lines for the power's own reply."""
        return ()

    def builds(self, power: Power, state: GameState) -> bool:
        """Whether the power adjusts at all (unplayed and nuclear powers never do)."""
        return power.name not in state.unplayed

    def build_sites(self, game_map: GameMap, state: GameState, power: str) -> set[str]:
        """Every supply centre the power may build in, were it owned and
        empty: its homes, or others by DPJudge's BUILD_ANY, HOME_BUILDS and
        REMOTE_BUILDS."""
        return flag_rules.build_sites(game_map, state, power)

    def unordered_builds(self, game_map: GameMap, state: GameState, power: str, due: int,
                         sites: Sequence[str]) -> tuple[Build, ...]:
        """The builds of a power that ordered no adjustments, among its free
        ``sites``: none, its builds are waived (DPJudge's CD_BUILDS builds)."""
        return flag_rules.unordered_builds(game_map, state, power, due, sites)

    def build_refusal(self, game_map: GameMap, state: GameState, power: str, unit: Unit,
                      scores: Mapping[str, int], board: Sequence[Unit]) -> str:
        """Why this build is not allowed beyond the site rules, or ''.
        ``board``: the units as they stand, this winter's builds so far included."""
        return ""

    def neutral_builds(self, game_map: GameMap, state: GameState) -> tuple[Unit, ...]:
        """Units neutral powers rebuild on their own in winter."""
        return ()

    def after_adjustments(self, game_map: GameMap, state: GameState,
                          built: Sequence[Unit]) -> GameState:
        """Remember what the adjustments leave behind (build history and the like)."""
        return state

    # -- what the judge asks: draws and press -----------------------------------------

    def draw_refusal(self, game_map: GameMap) -> str:
        """Why the players may not vote a draw, or '' (DPJudge's NO_DRAW)."""
        return flag_rules.draw_refusal(game_map)

    def press_refusal(self, game_map: GameMap, phase: Phase, to_master_only: bool,
                      broadcast: bool, after_deadline: bool) -> str:
        """Why a player's press is not sent in this phase, or '' (DPJudge's
        FTF_PRESS); the game's own press setting is the judge's."""
        return flag_rules.press_refusal(game_map, phase, to_master_only, broadcast,
                                        after_deadline)

    # -- the results ----------------------------------------------------------------

    def report_sections(self, game_map: GameMap, before: GameState,
                        after: GameState) -> tuple[ReportSection, ...]:
        """What the results report of a phase, found by comparing the position
        before and after it: changes of the variant's own (a centre named a
        home, a canal opened; engine/reports.py); none here."""
        return ()

    def holdings(self, game_map: GameMap, state: GameState,
                 powers: Sequence[str]) -> Holdings:
        """What a seat of ``powers`` holds in ``state`` beside its units,
        centres and Diplomacy Points, and the variant's own orders it gives
        (engine/holdings.py): told in the start mail. None in the standard game."""
        return NOTHING


STANDARD = Rules()
