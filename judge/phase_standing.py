"""What `judge adjudicate` says of a phase beside its results, its report
sections and ``next`` (docs/cli.md): where each player stands after it
(centres, victory points as they count, units and the units it may keep,
elimination, Diplomacy Points), the units disabled in it, and the units it
took off the board without a retreat, which ``next.dislodged`` lists as
destroyed. All of it is asked of the variant's rules hooks and the map's
data (centre values, which powers bids steer), never of the variant's name.
"""

from __future__ import annotations

from typing import Any

from engine.game import Resolution
from engine.map import GameMap
from engine.orders import Convoy, Disband, Hold, Move, SupportHold, SupportMove
from engine.outcomes import Why
from engine.phase import PhaseKind
from engine.variants import rules_for

MOVEMENT_ORDERS = (Hold, Move, SupportHold, SupportMove, Convoy)  # the units' own orders


def standing_json(game_map: GameMap, resolution: Resolution) -> dict[str, dict[str, Any]]:
    """Each played power's standing in ``next``, by power:

    ``centres`` (how many it owns), ``vp`` (their values: one each in the
    standard game), ``effective_vp`` (what counts for victory and units,
    the rules' score: Dissolution's VP less the centres the US Navy stands
    on, §4.6.1), ``units``, ``allowance`` (how many units it may keep),
    ``eliminated`` (it owns no supply centre), ``dp`` and ``dp_caps`` (its
    player's Diplomacy Points for the orders phase that follows, and the
    most it may bid on each group of neutral units), ``player`` where a
    player plays several powers (the Diplomacy Points are the player's, under
    its first power)."""
    state = resolution.next
    rules = rules_for(game_map)
    board = rules.map_for(game_map, state)
    scores = resolution.standing.scores
    budgets = {b.power: b for b in resolution.standing.budgets}
    players = {p: seat.player for seat in state.seats if len(seat.powers) > 1
               for p in seat.powers}
    # each power's centres, their values and its units, counted in one pass
    centres = dict.fromkeys(board.powers, 0)
    values = dict.fromkeys(board.powers, 0)
    for centre, owner in state.owners:
        centres[owner] = centres.get(owner, 0) + 1
        info = board.provinces[centre].centre
        values[owner] = values.get(owner, 0) + (info.value if info is not None else 0)
    units = state.unit_counts()
    out: dict[str, dict[str, Any]] = {}
    for name, power in board.powers.items():
        if power.ordered_by_bids or name in state.unplayed:
            continue
        entry: dict[str, Any] = {
            **({"player": players[name]} if name in players else {}),
            "centres": centres[name],
            "vp": values[name],
            "effective_vp": scores.get(name, 0),
            "units": units.get(name, 0),
            "eliminated": not centres[name],
        }
        if rules.builds(power, state):
            entry["allowance"] = rules.allowance(board, state, name, scores)
        if name in budgets:
            entry["dp"] = budgets[name].points
            if budgets[name].caps:
                entry["dp_caps"] = dict(budgets[name].caps)
        out[name] = entry
    return out


def disabled_json(resolution: Resolution) -> list[dict[str, str]]:
    """The units an attack disabled without moving them (Dissolution's
    invulnerable units, and units beaten by a sortie, §3.8, §3.9): they stay,
    but their support or convoy was void."""
    return [{"power": r.power, "unit": str(r.order.unit), "by": r.reason.units[0]}
            for r in resolution.results
            if isinstance(r.order, MOVEMENT_ORDERS) and r.reason is not None
            and r.reason.why is Why.DISABLED and r.reason.units]


def destroyed_dislodged(resolution: Resolution) -> dict[str, dict[str, dict[str, Any]]]:
    """The units a movement phase dislodged that may not retreat (stationary
    units, unplayed powers' units): each as ``next.dislodged`` lists it,
    marked destroyed and with no retreats."""
    if resolution.state.phase.kind is not PhaseKind.MOVEMENT:
        return {}
    waiting = {(d.unit.power, d.unit.location) for d in resolution.next.dislodged}
    kinds = {(u.power, u.location): u for u in resolution.state.units}
    out: dict[str, dict[str, dict[str, Any]]] = {}
    for r in resolution.results:
        if not isinstance(r.order, (*MOVEMENT_ORDERS, Disband)) or r.reason is None \
                or r.reason.why is not Why.DISLODGED or not r.reason.units:
            continue
        unit = kinds.get((r.power, r.order.unit.location))
        if unit is None or (r.power, unit.location) in waiting:
            continue
        out.setdefault(r.power, {})[str(unit)] = {
            "attacker": r.reason.units[0], "retreats": [], "destroyed": True}
    return out
