"""Every worked example of the Diplomap rule text (ru12, by Michael
Harvath, CC BY-SA 4.0), and a case of our own for each validity rule,
and boards of our own (two-coast provinces, seas), through
engine.game.adjudicate: the map orders' fates, the board after and the
retreats (data/examples.toml, data/validity.toml, data/board.toml)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import pytest

from engine.diplomap.in_force import apply_changes
from engine.diplomap.state import of as diplomap
from engine.diplomap.values import Erase
from engine.game import Resolution, adjudicate
from engine.map import Canal, GameMap, Terrain, UnitKind
from engine.orders import Build
from engine.outcomes import Outcome
from engine.phase import Phase, PhaseKind
from engine.state import Dislodged
from tests.engine.diplomap.runner import (
    board_after,
    diplomap_standard,
    load,
    orders_of,
    position,
    run,
)


@pytest.mark.parametrize("case", load("examples.toml") + load("validity.toml")
                         + load("board.toml"))
def test_map_orders_case(case: dict[str, Any]) -> None:
    game_map, resolution, given = run(case)
    results = {(r.power, r.order): r for r in resolution.facts("map_results")}
    assert len(results) == len(given)
    for raw, (power, order) in zip(case["map_orders"], given, strict=True):
        result = results[(power, order)]
        assert result.succeeded == (raw["result"] == "succeeds"), result
        assert result.section == raw.get("section", ""), result
    if not any(r.succeeded for r in resolution.facts("map_results")):
        assert diplomap(resolution.next).map_changes == ()
    after = case.get("after", {})
    board = board_after(game_map, resolution)
    if "units" in after:
        assert sorted(str(u) for u in resolution.next.units) == sorted(after["units"])
    for code in after.get("gone", []):
        assert code not in board.provinces
    named = _names(resolution.next.dislodged)
    if "retreats" in after:
        found = {named[d]: sorted(d.retreats) for d in resolution.next.dislodged}
        assert found == {u: sorted(r) for u, r in after["retreats"].items()}
        wanted = resolution.next.phase.kind is PhaseKind.RETREAT
        assert wanted == bool(after["retreats"])
    displaced = {named[d] for d in resolution.next.dislodged if d.displaced}
    assert displaced == set(after.get("displaced", []))
    for code, facts in after.get("provinces", {}).items():
        prov = board.provinces[code]
        if "terrain" in facts:
            assert prov.terrain is Terrain(facts["terrain"])
        if "centre" in facts:
            assert prov.is_centre == facts["centre"]
        army = board.army_moves.get(code, frozenset())
        assert set(facts.get("army", [])) <= army
        assert not set(facts.get("not_army", [])) & army
        fleet = {d for loc in board.locations_of(code) for d in board.fleet_moves.get(loc, ())}
        assert set(facts.get("fleet", [])) <= fleet
        assert not set(facts.get("not_fleet", [])) & fleet
        if "coasts" in facts:
            assert list(prov.coasts) == facts["coasts"]
        for loc, dsts in facts.get("fleet_from", {}).items():
            assert set(dsts) <= board.fleet_moves[loc], loc
        for loc, dsts in facts.get("not_fleet_from", {}).items():
            assert not set(dsts) & board.fleet_moves[loc], loc
    if "adjustments" in case:
        check_adjustments(game_map, board, resolution, case["adjustments"])


def _names(dislodged: Sequence[Dislodged]) -> dict[Dislodged, str]:
    """How a case names a retreating unit: ``A BUR``, or ``GERMANY A BUR``
    where two share a province (a displaced unit and the one it dislodged)."""
    shared = Counter(str(d.unit) for d in dislodged)
    return {d: str(d.unit) if shared[str(d.unit)] == 1 else f"{d.unit.power} {d.unit}"
            for d in dislodged}


def check_adjustments(game_map: GameMap, board: GameMap, resolution: Resolution,
                      raw: dict[str, Any]) -> None:
    """The Winter after a case's phase: its build orders, read on the changed
    board, succeed or fail as the case says (example L)."""
    winter = resolution.next
    assert winter.phase.kind is PhaseKind.ADJUSTMENT
    built = adjudicate(game_map, winter, orders_of(board, raw["orders"]))
    fates = {str(r.order): r for r in built.results}
    for order, wanted in raw["results"].items():
        assert fates[order].outcome is Outcome(wanted), fates[order]
    for order, words in raw.get("reasons", {}).items():
        reason = fates[order].reason
        assert reason is not None and words in reason.detail, reason


def test_example_l_on_a_board_whose_canals_open() -> None:
    """Example L (data/examples.toml) again on a board whose canals open, so
    the board in force is another object than the one the build rule was
    given: no fleet in a merged inland home centre (§II.G.1)."""
    game_map = replace(diplomap_standard(), canals=(Canal("DEN", ("BER",), opens=1901),))
    case = {"phase": "F1901M", "units": {"RUSSIA": ["A WAR"]},
            "centres": {"RUSSIA": ["MOS", "WAR", "SEV", "STP"]}}
    fall = adjudicate(game_map, position(game_map, case), {},
                      map_orders={"RUSSIA": [Erase(("MOS", "LVN"))]})
    assert [r.succeeded for r in fall.facts("map_results")] == [True]
    winter = fall.next
    assert winter.phase == Phase.parse("W1901A")
    board = apply_changes(game_map, diplomap(winter).map_changes)
    merged = "MOS+LVN"
    assert board.provinces[merged].terrain is Terrain.COASTAL
    assert merged in board.powers["RUSSIA"].home
    built = adjudicate(game_map, winter, {"RUSSIA": [Build(merged, UnitKind.FLEET),
                                                      Build("SEV", UnitKind.FLEET)]})
    fates = {str(r.order): r for r in built.results}
    assert "inland home centre" in fates[f"BUILD F {merged}"].reason.detail  # type: ignore[union-attr]
    assert any(str(u) == "F SEV" for u in built.next.units)
    assert not any(u.province == merged for u in built.next.units)
