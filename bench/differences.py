"""The known differences between this engine and the package, and judging a
movement phase.

The known differences are two DATC preferences (the 6.G.8 land-route fallback
and the 1982 paradox rule) and some of the package's bugs, described in
``KNOWN``; ``CONVENTIONS`` describes the ways the two report the same order
outcome differently.

``judge_movement`` compares a movement phase: the position after it (board,
dislodged units and their retreat options) and each order's outcome. Where
they differ, it emulates the known differences (rewriting the orders given to
this engine, re-running the package with changed orders, or correcting the
package's position) and looks for the fewest that make the two agree. What
none of them accounts for is left unexplained.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from conversion import (
    Board,
    Retreats,
    convert_order,
    engine_board,
    engine_outcomes,
    package_outcomes,
    package_position,
    unit_of,
)
from package_games import package_adjudicate

from engine.game import Resolution, adjudicate
from engine.map import GameMap, UnitKind
from engine.state import GameState

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


# ---------------------------------------------------------------------------
# Comparing positions
# ---------------------------------------------------------------------------

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
        out.append("board: " + describe_difference(pkg_board, eng_board))
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


def describe_difference(package: frozenset | set, engine: frozenset | set) -> str:
    """What only the package has, and what only this engine has."""
    only_p = sorted(" ".join(x) for x in package - engine)
    only_e = sorted(" ".join(x) for x in engine - package)
    return f"package only {only_p}, engine only {only_e}"


# ---------------------------------------------------------------------------
# Emulating the known differences
# ---------------------------------------------------------------------------

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


# ---------------------------------------------------------------------------
# Judging a movement phase
# ---------------------------------------------------------------------------

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
    orders_by_unit = {unit_of(o): o for os in package_orders.values() for o in os}
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
    codes = {str(c) for c in package_results.get(unit_of(order), ())}
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
