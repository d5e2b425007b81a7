"""Diplomap as a layer of rules over any variant's: the board in force is
the base map with the game's changes, map orders are adjudicated after the
moves and before the retreats (§II.F), displaced units choose their part in
the retreat phase (§III), and starting inland home centres never build
fleets (§II.G.1). Rule text ru12 by Michael Harvath (CC BY-SA 4.0).

:func:`with_diplomap` marks a map (``tables["diplomap"]``); rules_for
(engine/variants) then composes :class:`DiplomapRules` with the variant's
own rules class, so Diplomap works on every variant whose map has rings.
"""

from __future__ import annotations

import copy
from collections.abc import Collection, Mapping, Sequence
from dataclasses import replace
from typing import Any

from engine.diplomap.adjudication import adjudicate_map_orders
from engine.diplomap.displacement import after_changes, default_part
from engine.diplomap.gone import gone_place
from engine.diplomap.in_force import adopt, apply_changes, board_of, share_board
from engine.diplomap.lines import MAP_ORDERS, MAP_RESULTS_KEY
from engine.diplomap.notes import board_changes_section, change_notes
from engine.diplomap.reading import with_former_names
from engine.diplomap.state import DiplomapState, map_changes, of
from engine.diplomap.validity import inland_homes
from engine.diplomap.values import MapOrder, MapOrderResult
from engine.legality import check_retreat
from engine.lines import LineKind
from engine.map import GameMap, UnitKind, province_of
from engine.movement_result import MovementResult
from engine.orders import Order, Retreat, UnitRef
from engine.phase import Season
from engine.reports import ReportSection, section
from engine.retreats import RetreatKeys
from engine.rules import Rules
from engine.state import GameState, StatePart
from engine.units import Unit


class DiplomapRules(Rules):
    """Mixed in before a variant's rules class (see :func:`diplomap_rules`)."""

    diplomap = True

    @property
    def state_parts(self) -> tuple[type[StatePart], ...]:  # type: ignore[override]
        """The variant's parts, and the board's changes (state.py)."""
        return (*super().state_parts, DiplomapState)

    @property
    def line_kinds(self) -> tuple[LineKind[Any], ...]:  # type: ignore[override]
        """The variant's kinds of line, and the Draws and Erases (lines.py)."""
        return (*super().line_kinds, MAP_ORDERS)

    def map_for(self, game_map: GameMap, state: GameState) -> GameMap:
        """The base map (never a board in force) with the game's changes so far."""
        return _with_canals(apply_changes(game_map, map_changes(state)), state.phase.year)

    def reading_board(self, game_map: GameMap, state: GameState,
                      places: Collection[str] | None = None) -> GameMap:
        """§III.B: in the retreat phase after a Draw a displaced unit (or one
        dislodged in a province split since) still stands in the province
        that was split: the board in force, knowing the names of the latest
        board before the last changes that still has every such place
        (several Draws of one phase may have displaced them)."""
        board = self.map_for(game_map, state)
        if places is None:
            places = [d.unit.location for d in state.dislodged
                      if d.displaced or not board.is_location(d.unit.location)]
        if not places:
            return board
        part = of(state)
        for cut in range(len(part.map_changes) - 1, -1, -1):
            before = self.map_for(game_map, state.with_part(
                replace(part, map_changes=part.map_changes[:cut])))
            if all(before.is_location(place) for place in places):
                return with_former_names(board, before)
        return board

    def why_unreadable(self, game_map: GameMap, state: GameState, text: str,
                       word: str = "", column: int = 0) -> str | None:
        """A line naming a province the board in force does not have (one
        the changes replaced, or one a change undone by a ROLLBACK made):
        what the board has there instead (gone.py)."""
        return gone_place(game_map, self.reading_board(game_map, state), map_changes(state), text,
                          word, column) or super().why_unreadable(game_map, state, text,
                                                                  word, column)

    def board_changes_since(self, game_map: GameMap, earlier: GameState,
                            later: GameState) -> tuple[str, ...]:
        """The Draws' and Erases' changes (§II.F) and the GM's names for new
        provinces (§II.H) made after ``earlier``, each said on the board
        the changes before it left (as the results said them)."""
        done, now = map_changes(earlier), map_changes(later)
        kept = 0  # the changes both have, from the first
        while kept < min(len(done), len(now)) and done[kept] == now[kept]:
            kept += 1
        board = _with_canals(apply_changes(game_map, now[:kept]), earlier.phase.year)
        return tuple(change_notes(board, now[kept:]))

    def map_stage(self, game_map: GameMap, phase_map: GameMap, state: GameState,
                  moved: MovementResult, map_orders: Mapping[str, Sequence[MapOrder]],
                  ) -> tuple[MovementResult, GameState, tuple[ReportSection, ...], GameMap]:
        # §II.C: a Draw or Erase used in Spring is gone for Fall; a new year starts afresh
        part = of(state)
        used_before = part.map_orders_used if state.phase.season is Season.FALL \
            else frozenset()
        judged = state if part.map_orders_used == used_before \
            else state.with_part(replace(part, map_orders_used=used_before))
        outcome = adjudicate_map_orders(phase_map, judged, {u.province for u in moved.units},
                                        map_orders)
        report = section(MAP_RESULTS_KEY, "Map orders (Diplomap)", outcome.results,
                         MapOrderResult.describe, lambda r: r.power)
        if not outcome.changes:
            return (moved, state.with_part(replace(part, map_orders_used=outcome.used)),
                    report, phase_map)
        # the changes in words, named as the phase's board names them
        report = (*report, *board_changes_section(phase_map, outcome.changes))
        changes = (*part.map_changes, *outcome.changes)
        # the phase's working board has carried the changes out already
        changed = adopt(game_map, changes, outcome.board)
        new_map = _with_canals(changed, state.phase.year)
        board = board_of(changed)
        after = after_changes(phase_map, board, outcome.pieces, moved.units, moved.dislodged,
                              moved.contested)
        owners = []
        for centre, power in state.owners:
            now = outcome.pieces.get(centre, (centre,))
            holder = next((c for c in now if new_map.provinces[c].centre is not None), now[0])
            owners.append((holder, power))
        state = state.evolve(owners=tuple(sorted(owners))).with_part(
            DiplomapState(changes, outcome.used))
        moved = replace(moved, units=after.units, dislodged=after.dislodged,
                        contested=after.contested)
        return moved, state, report, new_map

    def retreat_orders(self, game_map: GameMap, state: GameState,
                       orders: Mapping[str, Sequence[Order]]) -> Mapping[str, Sequence[Order]]:
        """A displaced unit without a legal order goes to its default part
        (the one with the centre, else the first) instead of disbanding."""
        keys = RetreatKeys(state.dislodged)  # a displaced unit may share its province
        obeyed = set()
        for power, given in orders.items():
            units, options = keys.seen_by(power)
            for order in given:
                checked, _ = check_retreat(units, options, power, order, game_map)
                if checked is not None:
                    obeyed.add((power, province_of(checked.unit.location)))
        extra: dict[str, list[Order]] = {p: list(o) for p, o in orders.items()}
        for d in state.dislodged:
            if d.displaced and d.retreats and (d.unit.power, d.unit.province) not in obeyed:
                extra.setdefault(d.unit.power, []).append(Retreat(
                    UnitRef(d.unit.location, d.unit.kind), default_part(game_map, d.retreats)))
        return extra

    def end_of_year(self, game_map: GameMap, state: GameState,
                    scores: Mapping[str, int]) -> GameState:
        """§II.C: the year's Draws and Erases come back for the next year."""
        state = super().end_of_year(game_map, state, scores)
        part = of(state)
        return state.with_part(replace(part, map_orders_used=frozenset())) \
            if part.map_orders_used else state

    def build_refusal(self, game_map: GameMap, state: GameState, power: str, unit: Unit,
                      scores: Mapping[str, int], board: Sequence[Unit]) -> str:
        if unit.kind is UnitKind.FLEET:
            here = board_of(game_map)
            for name, now in here.powers.items():
                then = here.base.powers[name].home
                for code_now, code_then in zip(now.home, then, strict=False):
                    if code_now == unit.province and code_then in inland_homes(here):
                        return (f"{unit.province} was an inland home centre at the start: "
                                "no fleet may be built there (Diplomap §II.G.1)")
        return super().build_refusal(game_map, state, power, unit, scores, board)


def _with_canals(changed: GameMap, year: int) -> GameMap:
    """The board in force with the canals open by ``year``; a map with
    canals opened is a new object, which must still know the board's history
    (the base map's home centres, for §II.G.1's builds)."""
    opened = changed.with_canals_for(year)
    if opened is not changed:
        share_board(opened, changed)
    return opened


_COMPOSED: dict[str, Rules] = {}


def diplomap_rules(rules: Rules) -> Rules:
    """The variant's rules with Diplomap's layer on top, one object per variant."""
    if isinstance(rules, DiplomapRules):
        return rules
    composed = _COMPOSED.get(rules.name)
    if composed is None:
        kind = type(f"Diplomap{type(rules).__name__}", (DiplomapRules, type(rules)), {})
        composed = copy.copy(rules)
        composed.__class__ = kind
        _COMPOSED[rules.name] = composed
    return composed
