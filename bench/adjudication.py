"""Adjudication benchmark: this engine against the PyPI package ``diplomacy`` 1.1.2.

Plays random legal games with the ``diplomacy`` package (a bench-only
dependency, AGPL: the judge itself never imports it), and for every phase
adjudicates the same position and orders with this engine too:

* movement phases: the board after the phase, the dislodged units and where
  each may retreat, the legality of every order, and each order's outcome
  (succeeds / fails / void) are compared; both engines are timed;
* retreat phases: the board after the retreats (starting from this engine's
  own movement result, when that was the package's position);
* adjustment phases: the board after builds and removals (every power gives
  all the removals it owes, so no civil disorder rule is involved);
* after each Fall: supply centre ownership.

Where the engines differ, the known differences (two DATC preferences and
some of the package's bugs, see KNOWN) are emulated to find which account for
it; what none accounts for is reported as unexplained and shrunk to a small
position.

Timing, per movement phase, with the garbage collector off while timing:
the package's ``Game.process()`` after ``set_orders()`` (and, apart, its inner
``Game._process()`` and ``set_orders()`` itself); this engine's
``engine.game.adjudicate()`` with orders already as values, and
``parser.parse_order`` on every order's DPJudge text followed by
``adjudicate()``.

Usage (see bench/README.md)::

    python bench/adjudication.py --games 100 --years 20 --seed 1 --json bench/out/result.json
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from engine.game import Resolution, adjudicate  # noqa: E402
from engine.map import GameMap, UnitKind  # noqa: E402
from engine.orders import (  # noqa: E402
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Remove,
    Retreat,
    SupportHold,
    SupportMove,
    UnitRef,
    Waive,
)
from engine.outcomes import Outcome  # noqa: E402
from engine.phase import Phase  # noqa: E402
from engine.state import GameState  # noqa: E402
from engine.units import Unit  # noqa: E402
from engine.variant_file import load_variant  # noqa: E402

try:  # the package is a bench-only optional dependency: pip install -e '.[bench]'
    from diplomacy import Game as PackageGame
except ImportError:  # pragma: no cover - reported at run time
    PackageGame = None

try:
    from parser import OrderError, parse_order
except ImportError:  # pragma: no cover - the parser may not be there yet
    parse_order = None
    OrderError = None


# ---------------------------------------------------------------------------
# Converting the package's order strings to this engine's order values
# ---------------------------------------------------------------------------

def _ref(kind: str, loc: str) -> UnitRef:
    return UnitRef(loc, UnitKind(kind))


def convert_order(text: str, phase_kind: str) -> Order:
    """One order as the package writes it ('A PAR - BUR', 'A LON - BEL VIA',
    'F NTH C A LON - BEL', 'A PAR S A MAR - BUR', 'A PAR S A MAR', 'F BRE H',
    'A MUN R BOH', 'A MUN D', 'F STP/SC B', 'WAIVE') as an engine order value."""
    words = text.split()
    if words == ["WAIVE"]:
        return Waive()
    unit = _ref(words[0], words[1])
    verb = words[2]
    rest = words[3:]
    if verb == "H":
        return Hold(unit)
    if verb == "-":
        return Move(unit, rest[0], via_convoy=len(rest) > 1 and rest[1] == "VIA")
    if verb == "S":
        target = _ref(rest[0], rest[1])
        if len(rest) >= 4 and rest[2] == "-":
            return SupportMove(unit, target, rest[3])
        return SupportHold(unit, target)
    if verb == "C":
        return Convoy(unit, _ref(rest[0], rest[1]), rest[3])
    if verb == "R":
        return Retreat(unit, rest[0])
    if verb == "D":
        return Disband(unit) if phase_kind == "R" else Remove(unit)
    if verb == "B":
        return Build(words[1], UnitKind(words[0]))
    raise ValueError(f"cannot convert order {text!r}")


def engine_state(game_map: GameMap, phase: str, units: Mapping[str, Iterable[str]],
                 centres: Mapping[str, Iterable[str]]) -> GameState:
    """A position given as the package gives it, as an engine GameState."""
    board = tuple(
        Unit(power, UnitKind(u[0]), u[2:])
        for power in sorted(units) for u in units[power] if not u.startswith("*")
    )
    return GameState(
        variant=game_map.name,
        phase=Phase.parse(phase),
        units=board,
        owners=GameState.make_owners({p: list(cs) for p, cs in centres.items()}),
        victory=game_map.victory,
    )


# ---------------------------------------------------------------------------
# Random legal orders, biased so that battles, supports and convoys happen
# ---------------------------------------------------------------------------

def _kind(order: str) -> str:
    words = order.split()
    return words[2] if len(words) > 2 else words[0]


def random_movement_orders(rng: random.Random, possible: Mapping[str, Sequence[str]],
                           orderable: Mapping[str, Sequence[str]]) -> dict[str, list[str]]:
    """For every unit a random order among the package's possible ones.

    A first pass picks a kind (move 50%, support 35%, convoy 10% when the
    fleet can convoy, hold 5%) and a random order of that kind; a second pass
    makes most supports and convoys match an order actually given, so that
    supports count, convoys carry and paradoxes can happen.
    """
    units: list[tuple[str, str, list[str]]] = []
    for power in sorted(orderable):
        for loc in sorted(orderable[power]):
            options = sorted(possible.get(loc, ()))
            if options:
                units.append((power, loc, options))
    rng.shuffle(units)
    chosen: dict[str, str] = {}
    by_kind_of: dict[str, dict[str, list[str]]] = {}
    for _power, loc, options in units:
        by_kind: dict[str, list[str]] = {}
        for order in options:
            by_kind.setdefault(_kind(order), []).append(order)
        by_kind_of[loc] = by_kind
        weights = {"-": 50, "S": 35, "C": 10, "H": 5}
        kinds = [k for k in weights if k in by_kind]
        kind = rng.choices(kinds, [weights[k] for k in kinds])[0]
        chosen[loc] = rng.choice(by_kind[kind])

    def province(loc: str) -> str:
        return loc[:3]

    moves = {}  # province of a moving unit -> (destination province, via convoy)
    for loc, order in chosen.items():
        words = order.split()
        if words[2] == "-":
            moves[province(loc)] = (province(words[3]), words[-1] == "VIA")
    # convoys: a fleet that can convoy an army's chosen move usually does
    for _power, loc, _options in units:
        convoys = [o for o in by_kind_of[loc].get("C", [])
                   if moves.get(o.split()[4]) == (province(o.split()[6]), True)
                   or (o.split()[4] in moves and moves[o.split()[4]][0] == province(o.split()[6])
                       and rng.random() < 0.3)]
        if convoys and rng.random() < 0.8:
            chosen[loc] = rng.choice(convoys)
    # supports: most supports back an order that was given
    for _power, loc, _options in units:
        if _kind(chosen[loc]) != "S" or rng.random() < 0.15:
            continue
        matching = []
        for order in by_kind_of[loc]["S"]:
            words = order.split()
            target = words[4]
            if len(words) > 5:  # support to move
                if moves.get(province(target), (None,))[0] == province(words[6]):
                    matching.append(order)
            elif province(target) not in moves:
                matching.append(order)
        if matching:
            chosen[loc] = rng.choice(matching)
    orders: dict[str, list[str]] = {power: [] for power in orderable}
    for power, loc, _options in sorted(units):
        orders[power].append(chosen[loc])
    return orders


def random_retreat_orders(rng: random.Random, possible: Mapping[str, Sequence[str]],
                          orderable: Mapping[str, Sequence[str]]) -> dict[str, list[str]]:
    orders: dict[str, list[str]] = {power: [] for power in orderable}
    for power in sorted(orderable):
        for loc in sorted(orderable[power]):
            options = sorted(possible.get(loc, ()))
            retreats = [o for o in options if _kind(o) == "R"]
            disbands = [o for o in options if _kind(o) == "D"]
            if retreats and (rng.random() < 0.85 or not disbands):
                orders[power].append(rng.choice(retreats))
            elif disbands:
                orders[power].append(disbands[0])
    return orders


def random_adjustment_orders(rng: random.Random, game: Any) -> dict[str, list[str]]:
    """Builds (up to the number allowed, sometimes fewer) and exactly the
    removals owed, so that no civil disorder rule is involved."""
    possible = game.get_all_possible_orders()
    orderable = game.get_orderable_locations()
    orders: dict[str, list[str]] = {}
    for power_name in sorted(orderable):
        power = game.get_power(power_name)
        due = len(power.centers) - len(power.units)
        locs = sorted(orderable[power_name])
        options = [o for loc in locs for o in sorted(possible.get(loc, ()))]
        if due > 0:
            builds: dict[str, list[str]] = {}
            for order in options:
                if _kind(order) == "B":
                    builds.setdefault(order.split()[1][:3], []).append(order)
            sites = sorted(builds)
            rng.shuffle(sites)
            count = min(due, len(sites))
            if count and rng.random() < 0.2:
                count = rng.randint(0, count - 1)
            orders[power_name] = [rng.choice(builds[s]) for s in sites[:count]]
        elif due < 0:
            removals = sorted({o for o in options if _kind(o) == "D"})
            orders[power_name] = rng.sample(removals, min(-due, len(removals)))
    return orders

# ---------------------------------------------------------------------------
# What each engine says happened
# ---------------------------------------------------------------------------

Board = frozenset[tuple[str, str]]  # (power, 'A PAR')
Retreats = dict[tuple[str, str], tuple[str, ...]]  # dislodged unit -> where it may retreat


def package_position(game: Any) -> tuple[Board, Retreats]:
    """The units on the package's board, and its dislodged units with their
    retreat options (a unit with nowhere to go is removed at once)."""
    board = set()
    dislodged = {}
    for name, power in game.powers.items():
        for unit in power.units:
            board.add((name, unit))
        for unit, options in power.retreats.items():
            dislodged[(name, unit)] = tuple(sorted(options))
    return frozenset(board), dislodged


def engine_board(state: GameState) -> Board:
    return frozenset((u.power, str(u)) for u in state.units)


def position_differences(package: tuple[Board, Retreats], after: GameState,
                         relax_convoyed_retreats: bool = False) -> list[str]:
    """What differs between the package's position after a movement phase and
    this engine's. A unit this engine dislodges with no retreat open matches a
    unit the package removes at once (this engine disbands it in the retreat
    phase). With ``relax_convoyed_retreats``, a unit dislodged by a convoyed
    army may have more retreat options in the package (see KNOWN)."""
    pkg_board, pkg_dislodged = package
    out = []
    eng_board = engine_board(after)
    if pkg_board != eng_board:
        out.append("board: " + _diff(pkg_board, eng_board))
    ours = {(d.unit.power, str(d.unit)): d for d in after.dislodged}
    for key in sorted(set(pkg_dislodged) | {k for k, d in ours.items() if d.retreats}):
        theirs = pkg_dislodged.get(key)
        dislodged = ours.get(key)
        mine = tuple(sorted(dislodged.retreats)) if dislodged else None
        if theirs == mine:
            continue
        if relax_convoyed_retreats and dislodged is not None and dislodged.by_convoy \
                and theirs is not None and mine is not None and set(mine) <= set(theirs):
            continue
        out.append(f"dislodged {' '.join(key)}: package {theirs}, engine {mine}")
    return out


def package_outcomes(results: Mapping[str, Sequence[Any]]) -> dict[str, str]:
    """{unit: 'succeeds' | 'fails' | 'void'} from the package's result codes."""
    out = {}
    for unit, codes in results.items():
        names = {str(c) for c in codes} - {""}
        if "void" in names:
            out[unit] = "void"
        elif names & {"bounce", "cut", "dislodged", "disrupted", "no convoy"}:
            out[unit] = "fails"
        else:
            out[unit] = "succeeds"
    return out


def engine_outcomes(resolution: Resolution) -> dict[str, str]:
    out = {}
    for result in resolution.results:
        unit = getattr(result.order, "unit", None)
        if unit is not None:
            out[str(unit)] = result.outcome.value
    return out


# ---------------------------------------------------------------------------
# Known differences: what they are, and how to take them out of a comparison
# ---------------------------------------------------------------------------

FALLBACK = "6.G.8 land-route fallback"
OWN_UNIT_SUPPORT = "package bug: support against own unit counted"
CONVOYED_RETREATS = "package bug: retreat options after a convoyed attack"
RETREAT_INTO_OCCUPIED = "package bug: retreat to a closed province"
RULE_1982 = "4.A.2 paradox rule: 1982 rule"
HEAD_TO_HEAD = "package bug: head-to-head loser defends with strength 1"
PREFERENCES = (FALLBACK, RULE_1982)  # the others are the package's bugs

KNOWN = {
    FALLBACK: (
        "DATC preference (issue 4.A.3, test cases 6.G.8 and 6.G.11): an army ordered 'via "
        "convoy' to an adjacent province whose convoy orders do not make a route. The package "
        "follows the DATC 2 preference: the army falls back to the land route (and so may "
        "move, bounce, or cut a support). DATC 3.0 and this engine prefer no fallback: the "
        "move fails. Emulated by rewriting such moves as land moves for this engine."),
    OWN_UNIT_SUPPORT: (
        "A support of a foreign unit's move against a unit of the supporter's own power must "
        "not count toward dislodging it (DATC 6.D.14 and following). The package gets this "
        "wrong in two places: (1) it finds the supported move's destination by reading the "
        "last word of the order, which is 'VIA' for a convoyed move, so the support counts "
        "and the unit is dislodged; (2) when deciding whether a convoying fleet is dislodged "
        "(convoy disrupted) it compares strengths that include such supports. Emulated by "
        "turning those supports into holds on both sides."),
    CONVOYED_RETREATS: (
        "A unit dislodged by a convoyed army may retreat to the attacker's province (DATC "
        "4.A.5), but an operator-precedence slip in the package's Game._move_results "
        "('not occupied and not the attacker's province or the attacker was convoyed') also "
        "opens every occupied or contested neighbour."),
    RULE_1982: (
        "DATC preference (issue 4.A.2, convoy paradoxes). The package applies the 1982 "
        "rulebook rule everywhere: a convoyed army does not cut a support given to an "
        "action in a body of water that holds one of its convoying fleets (its "
        "Game._resolve_moves: 'they cannot cut supports offered for or against a "
        "convoying fleet'). DATC 3.0 and this engine use the Szykman rule, which only "
        "acts on a real paradox, so the support is cut."),
    HEAD_TO_HEAD: (
        "In a head-to-head battle, once the package bounces one side it counts that unit "
        "with strength 1 in its own province (Game._boing), instead of its defend strength "
        "(1 + all its supports, including those of the other side's power, which do not "
        "count toward dislodging the other side: DATC 6.E.6). So the side whose supports "
        "came from the opponent's power is dislodged by a weaker attack. Emulated by "
        "putting both units back on the package's board when this engine has both fail."),
    RETREAT_INTO_OCCUPIED: (
        "Following those retreat options, the package moves a retreating unit into a "
        "province no retreat may enter (occupied, or left empty by a standoff); this engine "
        "finds the retreat illegal and disbands the unit."),
}

CONVENTIONS = {
    "convoy not on a used route": (
        "A convoy order for an army whose ordered convoys do not make a route, or that "
        "does not take it: the package reports 'void' ('no convoy'); this engine reports "
        "the convoy order as given (succeeds) and the army's move as failing (no convoy)."),
    "convoy disrupted elsewhere": (
        "A convoying fleet that is not dislodged, in a convoy disrupted by the dislodgement "
        "of another fleet: the package reports it 'disrupted' or 'no convoy' (fails); this "
        "engine reports the "
        "convoy order as carried out (only the army's move fails)."),
    "support against own unit": (
        "A support of a foreign move against a unit of the supporter's own power: the "
        "package reports it 'void'; this engine reports it given (it is not counted "
        "toward the dislodgement, DATC 6.D.14)."),
    "support of a move without convoy": (
        "A support of an army whose convoy fails or is disrupted: the package reports the "
        "support 'void' or 'no convoy'; this engine reports it given (the move it supports "
        "fails)."),
}


def with_land_fallback(game_map: GameMap, orders: Mapping[str, Sequence[str]]
                       ) -> dict[str, list[str]]:
    """Package orders rewritten for this engine to follow the package's
    preference for DATC 6.G.8: an army moving to an adjacent province whose
    convoy orders do not make a route (written with VIA or not) moves over
    land; its convoy orders, which carry nothing, become holds (else this
    engine would read a convoy order of the army's own power as intent to
    go by convoy, 4.A.3)."""
    fleets: dict[tuple[str, str], list[str]] = {}
    for power_orders in orders.values():
        for order in power_orders:
            words = order.split()
            if words[2] == "C":
                fleets.setdefault((words[4][:3], words[6][:3]), []).append(words[1][:3])
    by_land = set()
    for power_orders in orders.values():
        for order in power_orders:
            words = order.split()
            if words[0] == "A" and words[2] == "-" \
                    and game_map.adjacent(UnitKind.ARMY, words[1], words[3]):
                key = (words[1][:3], words[3][:3])
                if (words[-1] == "VIA" or key in fleets) \
                        and not game_map.sea_route_exists(*key, fleets.get(key, ())):
                    by_land.add(key)
    out: dict[str, list[str]] = {}
    for power, power_orders in orders.items():
        out[power] = []
        for order in power_orders:
            words = order.split()
            if words[2] == "-" and (words[1][:3], words[3][:3]) in by_land:
                order = f"{words[0]} {words[1]} - {words[3]}"
            elif words[2] == "C" and (words[4][:3], words[6][:3]) in by_land:
                order = f"{words[0]} {words[1]} H"
            out[power].append(order)
    return out


def without_own_unit_supports(orders: Mapping[str, Sequence[str]],
                              units: Mapping[str, Sequence[str]]) -> dict[str, list[str]]:
    """Package orders with the supports the package miscounts turned into holds:
    a support of a foreign move against a unit of the supporter's own power,
    where the move is written with VIA or the unit attacked is a convoying fleet."""
    owner = {u.split()[1][:3]: p for p, us in units.items() for u in us}
    given = {o.split()[1][:3]: o.split() for os in orders.values() for o in os}
    out: dict[str, list[str]] = {}
    for power, power_orders in orders.items():
        out[power] = []
        for order in power_orders:
            words = order.split()
            if words[2] == "S" and len(words) > 6:
                dest = words[6][:3]
                supported = given.get(words[4][:3], [])
                if owner.get(dest) == power and owner.get(words[4][:3]) != power and (
                        supported[-1:] == ["VIA"] or given.get(dest, ["", "", "H"])[2] == "C"):
                    order = f"{words[0]} {words[1]} H"
            out[power].append(order)
    return out


def package_adjudicate(phase: str, units: Mapping[str, Sequence[str]],
                       centres: Mapping[str, Sequence[str]],
                       orders: Mapping[str, Sequence[str]]) -> tuple[Any, list[str], Any]:
    """A fresh package game at ``phase`` with this position and these orders,
    processed: (the game after, the package's order errors, its phase data)."""
    game = PackageGame()
    game.clear_units()
    game.clear_centers()
    game.set_current_phase(phase)
    for power in game.powers:
        if units.get(power):
            game.set_units(power, [u for u in units[power] if not u.startswith("*")])
        if centres.get(power):
            game.set_centers(power, list(centres[power]))
    for power, power_orders in orders.items():
        game.set_orders(power, list(power_orders))
    errors = list(game.error)
    data = game.process()
    return game, errors, data


@dataclass
class Verdict:
    """One movement phase compared."""

    differences: list[str]  # position differences, with no emulation
    explained_by: tuple[str, ...] | None  # known differences emulated to agree; None: can't
    engine: Resolution  # this engine's result under that emulation
    package_emulated: bool  # the package's position or results were changed
    outcomes_compared: int = 0
    outcomes_agreed: int = 0
    conventions: Counter = field(default_factory=Counter)
    odd_outcomes: list[str] = field(default_factory=list)  # outcome differences unexplained
    outcome_tags: set[str] = field(default_factory=set)  # known differences seen in outcomes

    @property
    def unexplained(self) -> bool:
        return self.explained_by is None or bool(self.odd_outcomes)


def _convoyed(game_map: GameMap, words: list[str]) -> bool:
    return words[2] == "-" and (words[-1] == "VIA" or not game_map.adjacent(
        UnitKind(words[0]), words[1], words[3]))


def compare_outcomes(game_map: GameMap, verdict: Verdict,
                     package_results: Mapping[str, Sequence[Any]],
                     package_orders: Mapping[str, Sequence[str]], state: GameState,
                     skip: frozenset[str] = frozenset()) -> None:
    """Compare each order's outcome; sort the differences into reporting
    conventions, known rule differences, and the rest."""
    orders_by_unit = {_unit_of(o): o for os in package_orders.values() for o in os}
    by_prov = {o.split()[1][:3]: o.split() for o in orders_by_unit.values()}
    pkg_out = package_outcomes(package_results)
    results = {str(r.order.unit): r for r in verdict.engine.results
               if getattr(r.order, "unit", None) is not None}
    for unit, outcome in engine_outcomes(verdict.engine).items():
        if unit not in pkg_out or unit in skip:
            continue
        verdict.outcomes_compared += 1
        if pkg_out[unit] == outcome:
            verdict.outcomes_agreed += 1
            continue
        order = orders_by_unit.get(unit, f"{unit} H")
        convention = outcome_convention(order, pkg_out[unit], outcome, package_results, state)
        if convention:
            verdict.conventions[convention] += 1
            continue
        # 4.A.2, the 1982 rule: a convoyed army does not cut a support given to an
        # action in a body of water holding one of its convoying fleets
        words = order.split()
        reason = results[unit].reason
        if words[2] == "S" and pkg_out[unit] == "succeeds" and reason is not None \
                and reason.why.value == "cut" and reason.units:
            cutter = by_prov.get(reason.units[0][:3], [])
            aimed = (words[6] if len(words) > 6 else words[4])[:3]
            fleet = by_prov.get(aimed, [])
            army, ship = state.unit_in(cutter[1][:3]) if cutter else None, state.unit_in(aimed)
            by_intent = army is not None and ship is not None and army.power == ship.power
            if cutter and fleet[2:3] == ["C"] and fleet[4][:3] == cutter[1][:3] \
                    and (_convoyed(game_map, cutter) or by_intent):
                verdict.outcome_tags.add(RULE_1982)
                continue
        codes = [str(c) for c in package_results[unit]]
        verdict.odd_outcomes.append(f"{order}: package {pkg_out[unit]} {codes}, engine {outcome}")


def head_to_head_corrected(package: tuple[Board, Retreats], units: Mapping[str, Sequence[str]],
                           orders: Mapping[str, Sequence[str]], after: GameState
                           ) -> tuple[tuple[Board, Retreats], frozenset[str]] | None:
    """The package's position with its head-to-head slip undone: a unit that
    lost a head-to-head battle without being dislodged (this engine) but that
    the package dislodged, with its opponent moved in, is put back, and so is
    the opponent. None when there is no such pair."""
    board, dislodged = set(package[0]), dict(package[1])
    before = {u.split()[1][:3]: (p, u) for p, us in units.items() for u in us}
    given = {o.split()[1][:3]: o.split() for os in orders.values() for o in os}
    ours = engine_board(after)
    touched: set[str] = set()
    for prov, (power, unit) in before.items():
        words = given.get(prov, [])
        if words[2:3] != ["-"] or words[-1] == "VIA" or (power, unit) in board \
                or (power, unit) not in ours:
            continue
        other = words[3][:3]
        if other not in before or given.get(other, [])[2:3] != ["-"] \
                or given[other][3][:3] != prov or given[other][-1] == "VIA":
            continue
        o_power, o_unit = before[other]
        moved = next((u for u in board if u[0] == o_power and u[1].split()[1][:3] == prov), None)
        if moved is None or (o_power, o_unit) not in ours:
            continue
        board.discard(moved)
        board.update({(o_power, o_unit), (power, unit)})
        dislodged.pop((power, unit), None)
        touched.update({unit, o_unit})
    if not touched:
        return None
    return (frozenset(board), dislodged), frozenset(touched)


def judge_movement(game_map: GameMap, phase: str, units: Mapping[str, Sequence[str]],
                   centres: Mapping[str, Sequence[str]], orders: Mapping[str, Sequence[str]],
                   resolution: Resolution, package: tuple[Board, Retreats],
                   package_results: Mapping[str, Sequence[Any]]) -> Verdict:
    """Compare positions and order outcomes. When they differ, find the
    fewest known differences that, emulated, account for it."""
    state = resolution.state
    differences = position_differences(package, resolution.next)

    def settle(verdict: Verdict) -> Verdict:
        if verdict.explained_by is not None and verdict.outcome_tags:
            verdict.explained_by = tuple(sorted(set(verdict.explained_by)
                                                | verdict.outcome_tags))
        return verdict

    plain = Verdict(differences, () if not differences else None, resolution, False)
    if not differences:
        compare_outcomes(game_map, plain, package_results, orders, state)
        if not plain.odd_outcomes:
            return settle(plain)
    orders = {p: list(os) for p, os in orders.items()}

    def engine_run(engine_orders: Mapping[str, Sequence[str]]) -> Resolution:
        if engine_orders == orders:
            return resolution
        return adjudicate(game_map, state, {
            p: [convert_order(o, "M") for o in os] for p, os in engine_orders.items()})

    fallback = with_land_fallback(game_map, orders)
    no_own = without_own_unit_supports(orders, units)
    engine_options = [((), orders)] + ([((FALLBACK,), fallback)] if fallback != orders else [])
    package_options = [((), orders)] + ([((OWN_UNIT_SUPPORT,), no_own)] if no_own != orders
                                        else [])
    combos = []
    for e_tags, e_orders in engine_options:
        for p_tags, p_orders in package_options:
            if p_tags:  # the same supports go on both sides
                e_orders = without_own_unit_supports(e_orders, units)
            for fix in (False, True):
                for relax in (False, True):
                    tags = e_tags + p_tags + ((HEAD_TO_HEAD,) if fix else ()) \
                        + ((CONVOYED_RETREATS,) if relax else ())
                    combos.append((tags, e_orders, p_orders, fix, relax))
    combos.sort(key=lambda c: len(c[0]))
    best: Verdict | None = plain if not differences else None
    for tags, e_orders, p_orders, fix, relax in combos:
        if not tags:
            continue
        engine = engine_run(e_orders)
        if relax and not any(d.by_convoy for d in engine.next.dislodged):
            continue
        if p_orders == orders:
            pkg_position, pkg_results = package, package_results
        else:
            game, _, data = package_adjudicate(phase, units, centres, p_orders)
            pkg_position, pkg_results = package_position(game), data.results
        skip: frozenset[str] = frozenset()
        if fix:
            corrected = head_to_head_corrected(pkg_position, units, p_orders, engine.next)
            if corrected is None:
                continue
            pkg_position, skip = corrected
        if position_differences(pkg_position, engine.next, relax):
            continue
        verdict = Verdict(differences, tags, engine, p_orders != orders or fix)
        compare_outcomes(game_map, verdict, pkg_results, p_orders, state, skip)
        if not verdict.odd_outcomes:
            return settle(verdict)
        if best is None:
            best = verdict
    return settle(best if best is not None else plain)


def outcome_convention(order: str, package_says: str, engine_says: str,
                       package_results: Mapping[str, Sequence[Any]],
                       state: GameState) -> str | None:
    """Which reporting convention accounts for an order outcome difference."""
    words = order.split()
    codes = {str(c) for c in package_results.get(_unit_of(order), ())}
    if words[2] == "C":
        if package_says == "void" and "no convoy" in codes:
            return "convoy not on a used route"
        if codes & {"disrupted", "no convoy"} and package_says == "fails" \
                and engine_says == "succeeds":
            return "convoy disrupted elsewhere"
    if words[2] == "S" and package_says == "void":
        supporter = state.unit_in(words[1][:3])
        if len(words) > 6:
            defender = state.unit_in(words[6][:3])
            if defender is not None and supporter is not None \
                    and defender.power == supporter.power:
                return "support against own unit"
        target = f"{words[3]} {words[4]}"
        if "no convoy" in {str(c) for c in package_results.get(target, ())}:
            return "support of a move without convoy"
    if words[2] == "S" and package_says == "fails" and engine_says == "succeeds" \
            and codes == {"no convoy"}:
        return "support of a move without convoy"
    return None


def _unit_of(order: str) -> str:
    return " ".join(order.split()[:2])


# ---------------------------------------------------------------------------
# Shrinking a disagreement to a small position
# ---------------------------------------------------------------------------

def minimise(game_map: GameMap, phase: str, units: Mapping[str, Sequence[str]],
             orders: Mapping[str, Sequence[str]],
             keep: Callable[[Verdict], bool], budget: int = 400) -> dict[str, Any] | None:
    """Drop units, then turn orders into holds, while ``keep`` holds for the
    comparison and every order stays legal for both engines."""
    entries = []  # (power, unit, order)
    for power, power_units in units.items():
        for unit in power_units:
            given = next((o for o in orders.get(power, ()) if o.split()[:2] == unit.split()),
                         f"{unit} H")
            entries.append((power, unit, given))
    tries = 0

    def build(candidate: list[tuple[str, str, str]]
              ) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
        present = {u.split()[1][:3] for _, u, _ in candidate}
        cu: dict[str, list[str]] = {}
        co: dict[str, list[str]] = {}
        for power, unit, order in candidate:
            words = order.split()
            if words[2] in ("S", "C") and words[4][:3] not in present:
                order = f"{unit} H"
            cu.setdefault(power, []).append(unit)
            co.setdefault(power, []).append(order)
        return cu, co

    def verdict(candidate: list[tuple[str, str, str]]) -> Verdict | None:
        nonlocal tries
        tries += 1
        cu, co = build(candidate)
        game, errors, data = package_adjudicate(phase, cu, {}, co)
        if errors:
            return None
        state = engine_state(game_map, phase, cu, {})
        resolution = adjudicate(game_map, state, {
            p: [convert_order(o, "M") for o in os] for p, os in co.items()})
        if any(r.outcome is Outcome.ILLEGAL for r in resolution.results):
            return None
        return judge_movement(game_map, phase, cu, {}, co, resolution,
                              package_position(game), data.results)

    def still(candidate: list[tuple[str, str, str]]) -> bool:
        v = verdict(candidate)
        return v is not None and keep(v)

    if not still(entries):
        return None
    changed = True
    while changed and tries < budget:
        changed = False
        for i in range(len(entries) - 1, -1, -1):
            if i < len(entries) and tries < budget:
                trial = entries[:i] + entries[i + 1:]
                if still(trial):
                    entries, changed = trial, True
        for i, (power, unit, order) in enumerate(entries):
            if order.split()[2] != "H" and tries < budget:
                trial = list(entries)
                trial[i] = (power, unit, f"{unit} H")
                if still(trial):
                    entries, changed = trial, True
    out_units, out_orders = build(entries)
    game, _, data = package_adjudicate(phase, out_units, {}, out_orders)
    state = engine_state(game_map, phase, out_units, {})
    resolution = adjudicate(game_map, state, {
        p: [convert_order(o, "M") for o in os] for p, os in out_orders.items()})
    pkg_board, pkg_dislodged = package_position(game)
    return {
        "phase": phase,
        "units": out_units,
        "orders": {p: [o for o in os if not o.endswith(" H")] for p, os in out_orders.items()},
        "differences": position_differences((pkg_board, pkg_dislodged), resolution.next),
        "package_results": {u: [str(c) for c in cs] for u, cs in data.results.items()
                            if {str(c) for c in cs} - {""}},
        "engine_results": [f"{r.order}: {r.outcome.value}"
                           + (f" ({r.reason.describe()})" if r.reason else "")
                           for r in resolution.results if r.outcome is not Outcome.SUCCEEDS],
        "tries": tries,
    }


# ---------------------------------------------------------------------------
# The benchmark
# ---------------------------------------------------------------------------

@dataclass
class Case:
    """A phase where the engines differ."""

    game: int
    phase: str
    what: str  # "movement", "outcome", "retreat", "adjustment", "centres", "legality"
    detail: list[str]
    explained_by: list[str]  # known differences, [] when unexplained
    units: dict[str, list[str]]
    centres: dict[str, list[str]]
    orders: dict[str, list[str]]


@dataclass
class Stats:
    phases: Counter = field(default_factory=Counter)  # phase kind -> compared
    agreed: Counter = field(default_factory=Counter)  # phase kind -> positions equal
    explained: Counter = field(default_factory=Counter)  # known difference -> phases
    unexplained: Counter = field(default_factory=Counter)  # phase kind -> phases
    orders_compared: int = 0
    orders_agreed: int = 0
    conventions: Counter = field(default_factory=Counter)  # reporting convention -> orders
    centre_checks: int = 0
    centre_agreed: int = 0
    package_ns: list[int] = field(default_factory=list)
    package_core_ns: list[int] = field(default_factory=list)
    package_set_orders_ns: list[int] = field(default_factory=list)
    coverage: Counter = field(default_factory=Counter)  # what happened in movement phases
    saved: list[dict[str, Any]] = field(default_factory=list)  # movement phases, --save-phases
    engine_ns: list[int] = field(default_factory=list)
    engine_parse_ns: list[int] = field(default_factory=list)
    engine_parse_only_ns: list[int] = field(default_factory=list)
    units_per_phase: list[int] = field(default_factory=list)
    orders_per_phase: list[int] = field(default_factory=list)
    cases: list[Case] = field(default_factory=list)
    games: int = 0
    last_phases: list[str] = field(default_factory=list)
    retreats_not_compared: int = 0


_CORE_NS: list[int] = []  # times of the package's inner Game._process()
_TIMED_GAME: Any = None


def timed_game_class() -> Any:
    """The package's Game, timing its inner ``_process()`` (the class uses
    slots: an instance's method cannot be replaced)."""
    global _TIMED_GAME
    if _TIMED_GAME is None:
        class TimedGame(PackageGame):  # type: ignore[misc, valid-type]
            def _process(self) -> None:
                start = time.perf_counter_ns()
                super()._process()
                _CORE_NS.append(time.perf_counter_ns() - start)

        _TIMED_GAME = TimedGame
    return _TIMED_GAME


def coverage(game_map: GameMap, resolution: Resolution) -> Counter:
    """What happened in a movement phase, as this engine saw it."""
    seen: Counter = Counter()
    for result in resolution.results:
        order = result.order
        name = type(order).__name__.lower()
        seen[f"{name} orders"] += 1
        why = result.reason.why.value if result.reason else None
        if isinstance(order, Move):
            convoyed = order.via_convoy or not game_map.adjacent(
                order.unit.kind or UnitKind.ARMY, order.unit.location, order.dest)
            if result.outcome is Outcome.SUCCEEDS:
                seen["moves that succeed"] += 1
                if convoyed:
                    seen["convoyed moves that succeed"] += 1
            elif why in ("bounced", "beaten"):
                seen["moves that bounce"] += 1
            elif why in ("no convoy", "disrupted", "paradox"):
                seen[f"convoyed moves that fail: {why}"] += 1
        elif why == "cut":
            seen["supports cut"] += 1
        elif why == "paradox":
            seen["convoys held by the Szykman rule"] += 1
    seen["units dislodged"] += len(resolution.next.dislodged)
    return seen


def _timed(call: Callable[[], Any]) -> tuple[Any, int]:
    gc.disable()
    try:
        start = time.perf_counter_ns()
        value = call()
        return value, time.perf_counter_ns() - start
    finally:
        gc.enable()


def _parse(game_map: GameMap, texts: Mapping[str, Sequence[str]]) -> dict[str, list[Order]]:
    assert parse_order is not None
    parsed: dict[str, list[Order]] = {}
    for power, lines in texts.items():
        out = parsed.setdefault(power, [])
        for line in lines:
            order = parse_order(line, game_map)
            if not isinstance(order, OrderError):
                out.append(order)
    return parsed


def _parse_and_adjudicate(game_map: GameMap, state: GameState,
                          texts: Mapping[str, Sequence[str]]) -> Resolution:
    return adjudicate(game_map, state, _parse(game_map, texts))


class Bench:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.map = load_variant("standard")
        self.stats = Stats()
        self.parse_ok = parse_order is not None
        self.parse_problems: Counter = Counter()
        self.after_movement: GameState | None = None  # when positions agreed
        self.relaxed_retreats = False

    def case(self, game_no: int, phase: str, what: str, detail: list[str],
             explained_by: Iterable[str], position: tuple,
             orders: Mapping[str, Sequence[str]]) -> None:
        units, centres = position
        self.stats.cases.append(Case(
            game_no, phase, what, detail, list(explained_by),
            {p: sorted(us) for p, us in units.items() if us},
            {p: sorted(cs) for p, cs in centres.items() if cs},
            {p: list(os) for p, os in orders.items() if os}))

    def play(self, game_no: int) -> None:
        rng = random.Random(f"{self.args.seed}:{game_no}")
        game = timed_game_class()()
        last_year = 1900 + self.args.years
        self.after_movement = None
        while not game.is_game_done:
            phase = game.get_current_phase()
            if int(phase[1:5]) > last_year:
                break
            kind = phase[-1]
            position = (game.get_units(), game.get_centers())
            possible = game.get_all_possible_orders()
            orderable = game.get_orderable_locations()
            if kind == "M":
                orders = random_movement_orders(rng, possible, orderable)
            elif kind == "R":
                orders = random_retreat_orders(rng, possible, orderable)
            else:
                orders = random_adjustment_orders(rng, game)
            def set_orders(orders: Mapping[str, list[str]] = orders) -> None:
                for power, power_orders in orders.items():
                    game.set_orders(power, power_orders)

            _, set_ns = _timed(set_orders)
            if kind == "M":
                self.stats.package_set_orders_ns.append(set_ns)
            # the orders as the package stored them (expanded), power by power
            stored = {p: game.get_orders(p) for p in game.powers}
            stored = {p: os for p, os in stored.items() if os}
            ours = {p: [convert_order(o, kind) for o in os] for p, os in stored.items()}
            if kind == "M":
                self.movement(game_no, game, phase, position, stored, ours)
            elif kind == "R":
                self.retreat(game_no, game, phase, position, stored, ours)
            else:
                self.adjustment(game_no, game, phase, position, stored, ours)
        self.stats.games += 1
        self.stats.last_phases.append(game.get_current_phase())

    # -- movement ---------------------------------------------------------

    def movement(self, game_no: int, game: Any, phase: str, position: tuple,
                 stored: Mapping[str, Sequence[str]], ours: Mapping[str, Sequence[Order]]
                 ) -> None:
        units, centres = position
        state = engine_state(self.map, phase, units, centres)
        # Each engine is timed right after its own order intake, as in a
        # judge: the package's process() follows its set_orders(); our
        # adjudicate() follows our parsing of the same order texts.
        engine_orders: Mapping[str, Sequence[Order]] = ours
        if self.parse_ok:
            texts = {p: [str(o) for o in os] for p, os in ours.items()}
            try:
                parsed, parse_ns = _timed(lambda: _parse(self.map, texts))
                self.stats.engine_parse_only_ns.append(parse_ns)
                engine_orders = parsed
            except Exception as exc:  # report, don't stop
                self.parse_problems[f"{type(exc).__name__}: {exc}"[:120]] += 1
        resolution, engine_ns = _timed(lambda: adjudicate(self.map, state, engine_orders))
        if self.stats.engine_parse_only_ns and engine_orders is not ours:
            self.stats.engine_parse_ns.append(self.stats.engine_parse_only_ns[-1] + engine_ns)
            direct = adjudicate(self.map, state, ours)
            if engine_board(direct.next) != engine_board(resolution.next) \
                    or direct.next.dislodged != resolution.next.dislodged:
                self.parse_problems["parsed orders adjudicate differently"] += 1
        before = len(_CORE_NS)
        data, package_ns = _timed(game.process)
        s = self.stats
        s.package_ns.append(package_ns)
        if len(_CORE_NS) > before:
            s.package_core_ns.append(_CORE_NS[-1])
        s.engine_ns.append(engine_ns)
        s.units_per_phase.append(len(state.units))
        s.orders_per_phase.append(sum(len(os) for os in stored.values()))
        s.phases["M"] += 1
        s.coverage.update(coverage(self.map, resolution))
        if self.args.save_phases:
            s.saved.append({"phase": phase, "units": units, "centres": centres,
                            "orders": {p: list(os) for p, os in stored.items()}})

        # legality: every order the package accepted should be legal here too
        illegal = [f"{r.power}: {r.order} ({r.reason.detail if r.reason else ''})"
                   for r in resolution.results if r.outcome is Outcome.ILLEGAL]
        if illegal:
            s.unexplained["legality"] += 1
            self.case(game_no, phase, "legality", illegal, [], position, stored)

        verdict = judge_movement(self.map, phase, units, centres, stored, resolution,
                                 package_position(game), data.results)
        s.orders_compared += verdict.outcomes_compared
        s.orders_agreed += verdict.outcomes_agreed
        s.conventions.update(verdict.conventions)
        if verdict.explained_by is None:
            s.unexplained["M"] += 1
            self.case(game_no, phase, "movement", verdict.differences, [], position, stored)
        elif verdict.explained_by:
            for tag in verdict.explained_by:
                s.explained[tag] += 1
            self.case(game_no, phase, "movement" if verdict.differences else "outcome",
                      verdict.differences or ["order outcomes only"], verdict.explained_by,
                      position, stored)
        if not verdict.differences:
            s.agreed["M"] += 1
        if verdict.odd_outcomes:
            s.unexplained["outcome"] += 1
            self.case(game_no, phase, "outcome", verdict.odd_outcomes, [], position, stored)

        # what the retreat phase starts from, when this engine's position is the package's
        comparable = verdict.explained_by is not None and not verdict.package_emulated
        after = verdict.engine.next
        self.after_movement = after if comparable else None
        self.relaxed_retreats = comparable and CONVOYED_RETREATS in (verdict.explained_by or ())
        if phase.startswith("F") and not after.dislodged and comparable:
            self.centres(game_no, game, phase, position, stored, after)

    def centres(self, game_no: int, game: Any, phase: str, position: tuple,
                stored: Mapping[str, Sequence[str]], after: GameState) -> None:
        self.stats.centre_checks += 1
        pkg = frozenset((c, p) for p, cs in game.get_centers().items() for c in cs)
        if pkg == frozenset(after.owners):
            self.stats.centre_agreed += 1
        else:
            self.stats.unexplained["centres"] += 1
            self.case(game_no, phase, "centres", [_diff(pkg, frozenset(after.owners))], [],
                      position, stored)

    # -- retreats -----------------------------------------------------------

    def retreat(self, game_no: int, game: Any, phase: str, position: tuple,
                stored: Mapping[str, Sequence[str]], ours: Mapping[str, Sequence[Order]]
                ) -> None:
        game.process()
        state, self.after_movement = self.after_movement, None
        if state is None or not state.dislodged:
            self.stats.retreats_not_compared += 1
            return
        self.stats.phases["R"] += 1
        resolution = adjudicate(self.map, state, ours)
        pkg_board, _ = package_position(game)
        eng_board = engine_board(resolution.next)
        if pkg_board == eng_board:
            self.stats.agreed["R"] += 1
        else:
            options = {str(d.unit): d.retreats for d in state.dislodged}
            outside = [o for os in stored.values() for o in os
                       if o.split()[2] == "R" and o.split()[3] not in options.get(_unit_of(o), ())]
            if outside and self.relaxed_retreats:
                self.stats.explained[RETREAT_INTO_OCCUPIED] += 1
                tags = [RETREAT_INTO_OCCUPIED]
            else:
                self.stats.unexplained["R"] += 1
                tags = []
            self.case(game_no, phase, "retreat", [_diff(pkg_board, eng_board)], tags,
                      position, stored)
            return
        if phase.startswith("F"):
            self.centres(game_no, game, phase, position, stored, resolution.next)

    # -- adjustments -------------------------------------------------------

    def adjustment(self, game_no: int, game: Any, phase: str, position: tuple,
                   stored: Mapping[str, Sequence[str]], ours: Mapping[str, Sequence[Order]]
                   ) -> None:
        units, centres = position
        state = engine_state(self.map, phase, units, centres)
        game.process()
        self.stats.phases["A"] += 1
        resolution = adjudicate(self.map, state, ours)
        pkg_board, _ = package_position(game)
        eng_board = engine_board(resolution.next)
        if pkg_board == eng_board:
            self.stats.agreed["A"] += 1
        else:
            self.stats.unexplained["A"] += 1
            self.case(game_no, phase, "adjustment", [_diff(pkg_board, eng_board)], [],
                      position, stored)

    # -- the whole run -----------------------------------------------------

    def run(self) -> dict[str, Any]:
        started = time.perf_counter()
        for game_no in range(self.args.games):
            self.play(game_no)
            if self.args.verbose:
                print(f"game {game_no}: {self.stats.phases['M']} movement phases so far, "
                      f"{time.perf_counter() - started:.0f} s", file=sys.stderr)
            if self.args.max_seconds and time.perf_counter() - started > self.args.max_seconds:
                print(f"stopping after {game_no + 1} games: --max-seconds reached",
                      file=sys.stderr)
                break
        played = time.perf_counter() - started
        examples = self.examples() if self.args.examples else {}
        return self.summary(played, examples)

    def examples(self) -> dict[str, Any]:
        """A small reproduction for each known difference, and for each
        unexplained movement disagreement (up to --examples of them)."""
        out: dict[str, Any] = {}
        for tag in (FALLBACK, OWN_UNIT_SUPPORT, CONVOYED_RETREATS, RULE_1982, HEAD_TO_HEAD):
            for case in self.stats.cases:
                if case.explained_by == [tag]:
                    found = minimise(self.map, case.phase, case.units, case.orders,
                                     lambda v, tag=tag: v.explained_by == (tag,))
                    if found:
                        out[tag] = found
                        break
        unexplained = [c for c in self.stats.cases
                       if c.what in ("movement", "outcome") and not c.explained_by]
        for i, case in enumerate(unexplained[:self.args.examples]):
            if case.what == "movement":
                found = minimise(self.map, case.phase, case.units, case.orders,
                                 lambda v: v.explained_by is None and bool(v.differences))
            else:
                found = minimise(self.map, case.phase, case.units, case.orders,
                                 lambda v: bool(v.odd_outcomes))
            if found:
                out[f"unexplained {case.what} {i + 1} (game {case.game} {case.phase})"] = found
        return out

    def summary(self, elapsed: float, examples: Mapping[str, Any]) -> dict[str, Any]:
        s = self.stats

        def ms(values: list[int]) -> float | None:
            return round(statistics.median(values) / 1e6, 4) if values else None

        package_ms = ms(s.package_ns)
        engine_ms = ms(s.engine_ns)
        parse_ms = ms(s.engine_parse_ns)
        return {
            "machine": machine(),
            "settings": {"games": self.args.games, "years": self.args.years,
                         "seed": self.args.seed},
            "games_played": s.games,
            "games_ended_at": dict(Counter(s.last_phases)),
            "seconds": round(elapsed, 1),
            "phases_compared": dict(s.phases),
            "phases_agreed": dict(s.agreed),
            "explained_by_known_differences": dict(s.explained),
            "movement_phases_differing_by": dict(Counter(
                "DATC preferences only" if all(t in PREFERENCES for t in c.explained_by)
                else "package bugs (and maybe preferences)"
                for c in s.cases if c.explained_by and c.phase.endswith("M"))),
            "unexplained": dict(s.unexplained),
            "retreat_phases_not_compared": s.retreats_not_compared,
            "orders_compared": s.orders_compared,
            "orders_agreed": s.orders_agreed,
            "order_outcomes_by_reporting_convention": dict(s.conventions),
            "centre_checks": s.centre_checks,
            "centre_checks_agreed": s.centre_agreed,
            "median_units_per_movement_phase": statistics.median(s.units_per_phase)
            if s.units_per_phase else None,
            "median_orders_per_movement_phase": statistics.median(s.orders_per_phase)
            if s.orders_per_phase else None,
            "movement_phase_coverage": dict(sorted(s.coverage.items())),
            "median_ms_per_movement_phase": {
                "package_set_orders": ms(s.package_set_orders_ns),
                "package_process": package_ms,
                "package_inner_process": ms(s.package_core_ns),
                "engine_parse": ms(s.engine_parse_only_ns),
                "engine_adjudicate": engine_ms,
                "engine_parse_and_adjudicate": parse_ms,
            },
            "mean_ms_per_movement_phase": {
                "package_process": round(statistics.fmean(s.package_ns) / 1e6, 4)
                if s.package_ns else None,
                "engine_adjudicate": round(statistics.fmean(s.engine_ns) / 1e6, 4)
                if s.engine_ns else None,
            },
            "ratio_package_over_engine": round(package_ms / engine_ms, 2)
            if package_ms and engine_ms else None,
            "ratio_package_over_engine_with_parsing": round(package_ms / parse_ms, 2)
            if package_ms and parse_ms else None,
            "ratio_package_set_orders_and_process_over_engine_parse_and_adjudicate": round(
                statistics.median(a + b for a, b in zip(s.package_set_orders_ns, s.package_ns,
                                                        strict=True)) / 1e6 / parse_ms, 2)
            if parse_ms and s.package_set_orders_ns else None,
            "parser": "parser.parse_order" if self.parse_ok else "not available",
            "parser_problems": dict(self.parse_problems),
            "known_differences": KNOWN,
            "reporting_conventions": CONVENTIONS,
            "examples": examples,
            "cases": [c.__dict__ for c in s.cases],
        }


def _diff(package: frozenset | set, engine: frozenset | set) -> str:
    only_p = sorted(" ".join(x) for x in package - engine)
    only_e = sorted(" ".join(x) for x in engine - package)
    return f"package only {only_p}, engine only {only_e}"


def machine() -> dict[str, Any]:
    model = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        package_version = metadata.version("diplomacy")
    except metadata.PackageNotFoundError:
        package_version = "?"
    return {"cpus": os.cpu_count(), "cpu": model or platform.processor(),
            "python": platform.python_version(), "diplomacy": package_version}


def print_summary(summary: Mapping[str, Any], out: Any = sys.stdout) -> None:
    m = summary["median_ms_per_movement_phase"]

    def line(text: str) -> None:
        print(text, file=out)

    line(f"machine: {summary['machine']}")
    line(f"games: {summary['games_played']} {summary['settings']}, {summary['seconds']} s")
    line(f"phases compared: {summary['phases_compared']}; positions equal: "
         f"{summary['phases_agreed']}")
    line(f"explained by known differences: {summary['explained_by_known_differences']}")
    line(f"movement phases that differ, by cause: {summary['movement_phases_differing_by']}")
    line(f"unexplained: {summary['unexplained'] or 'none'}")
    line(f"retreat phases not compared (movement disagreed): "
         f"{summary['retreat_phases_not_compared']}")
    line(f"order outcomes compared: {summary['orders_compared']}, equal: "
         f"{summary['orders_agreed']}, reporting conventions: "
         f"{summary['order_outcomes_by_reporting_convention']}")
    line(f"centre ownership checks: {summary['centre_checks']}, equal: "
         f"{summary['centre_checks_agreed']}")
    line(f"median per movement phase: {summary['median_units_per_movement_phase']} units, "
         f"{summary['median_orders_per_movement_phase']} orders")
    line(f"median ms per movement phase: package set_orders() {m['package_set_orders']}, "
         f"package process() {m['package_process']}, "
         f"package _process() {m['package_inner_process']}, engine parse "
         f"{m['engine_parse']}, engine adjudicate() "
         f"{m['engine_adjudicate']}, engine parse+adjudicate {m['engine_parse_and_adjudicate']}")
    line(f"ratio package/engine: {summary['ratio_package_over_engine']} "
         f"(package process() over engine parse+adjudicate: "
         f"{summary['ratio_package_over_engine_with_parsing']}; package set_orders()+process() "
         "over engine parse+adjudicate: "
         f"{summary['ratio_package_set_orders_and_process_over_engine_parse_and_adjudicate']})")
    line(f"movement phase coverage: {summary['movement_phase_coverage']}")
    if summary["parser_problems"]:
        line(f"parser problems: {summary['parser_problems']}")
    for name, example in summary["examples"].items():
        line(f"example: {name}")
        line(f"  units {example['units']}")
        line(f"  orders {example['orders']}")
        line(f"  differences {example['differences']}")
    for case in summary["cases"]:
        if not case["explained_by"]:
            line(f"UNEXPLAINED game {case['game']} {case['phase']} {case['what']}: "
                 f"{case['detail']}")
            line(f"  units {case['units']}")
            line(f"  orders {case['orders']}")


def replay(path: Path) -> dict[str, Any]:
    """Time this engine alone on saved movement phases."""
    game_map = load_variant("standard")
    phases = json.loads(path.read_text())
    engine_ns: list[int] = []
    parse_ns: list[int] = []
    for saved in phases:
        state = engine_state(game_map, saved["phase"], saved["units"], saved["centres"])
        orders = {p: [convert_order(o, "M") for o in os] for p, os in saved["orders"].items()}
        _, ns = _timed(lambda: adjudicate(game_map, state, orders))  # noqa: B023
        engine_ns.append(ns)
        if parse_order is not None:
            texts = {p: [str(o) for o in os] for p, os in orders.items()}
            _, ns = _timed(lambda: _parse_and_adjudicate(game_map, state, texts))  # noqa: B023
            parse_ns.append(ns)
    return {
        "phases": len(phases),
        "median_ms_engine_adjudicate": round(statistics.median(engine_ns) / 1e6, 4)
        if engine_ns else None,
        "median_ms_engine_parse_and_adjudicate": round(statistics.median(parse_ns) / 1e6, 4)
        if parse_ns else None,
        "machine": machine(),
    }


def print_replay(summary: Mapping[str, Any]) -> None:
    for key, value in summary.items():
        print(f"{key}: {value}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100, help="games to play (100)")
    parser.add_argument("--years", type=int, default=20, help="years per game at most (20)")
    parser.add_argument("--seed", default="1", help="random seed (1)")
    parser.add_argument("--json", type=Path, help="write the summary and every case as JSON")
    parser.add_argument("--examples", type=int, default=5,
                        help="shrink up to this many unexplained disagreements, and one "
                             "of each known difference, to small reproductions (5; 0: none)")
    parser.add_argument("--max-seconds", type=float, default=0,
                        help="stop after the game running when this many seconds have passed")
    parser.add_argument("--verbose", action="store_true", help="progress on stderr")
    parser.add_argument("--save-phases", type=Path,
                        help="also write every movement phase (position and orders) here, "
                             "for --replay")
    parser.add_argument("--replay", type=Path,
                        help="time only this engine on movement phases saved by --save-phases "
                             "(the package is not needed)")
    args = parser.parse_args(argv)
    if args.replay:
        print_replay(replay(args.replay))
        return 0
    if PackageGame is None:
        print("the comparison package is missing: pip install -e '.[bench]'", file=sys.stderr)
        return 2
    bench = Bench(args)
    summary = bench.run()
    print_summary(summary)
    if args.save_phases:
        args.save_phases.parent.mkdir(parents=True, exist_ok=True)
        args.save_phases.write_text(json.dumps(bench.stats.saved) + "\n")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(summary, indent=1, default=str) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
