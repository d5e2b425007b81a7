"""Diplomap through engine.game.adjudicate across phases: a movement phase
with a split and a merge, the retreat phase on the changed board, the year's
map orders (§II.C), centres and snapshots on the changed board."""

from __future__ import annotations

from engine.diplomap.in_force import apply_changes
from engine.diplomap.state import of as diplomap
from engine.diplomap.values import Draw, Erase, Split
from engine.game import adjudicate
from engine.map import UnitKind
from engine.orders import Disband, Retreat, UnitRef
from engine.phase import Phase
from judge import snapshots
from tests.engine.diplomap.runner import diplomap_standard, orders_of, position


def _spring() -> tuple:
    game_map = diplomap_standard()
    case = {"phase": "S1901M",
            "units": {"FRANCE": ["A BUR", "A PAR"], "GERMANY": ["A MUN", "A KIE"],
                      "AUSTRIA": ["A RUM"], "RUSSIA": ["F SEV", "F BLA"]},
            "centres": {"FRANCE": ["PAR"], "GERMANY": ["MUN", "KIE"], "RUSSIA": ["SEV"]}}
    state = position(game_map, case)
    orders = orders_of(game_map, {"GERMANY": ["A MUN - RUH"], "FRANCE": ["A PAR - PIC"],
                                  "RUSSIA": ["F SEV S F BLA - RUM", "F BLA - RUM"]})
    map_orders = {"FRANCE": [Draw(("BUR", "PIC"), ("BUR", "MUN"))],
                  "RUSSIA": [Erase(("GAL", "RUM"))]}
    return game_map, adjudicate(game_map, state, orders, map_orders=map_orders)


def test_a_split_and_a_merge_then_the_retreats_on_the_new_board() -> None:
    game_map, spring = _spring()
    assert all(r.succeeded for r in spring.facts("map_results"))
    state = spring.next
    assert state.phase == Phase.parse("S1901R")
    assert diplomap(state).map_orders_used == {("FRANCE", "draw"), ("RUSSIA", "erase")}
    board = apply_changes(game_map, diplomap(state).map_changes)
    assert {"BUR-NE", "BUR-SW", "GAL+RUM"} <= set(board.provinces)
    by_unit = {str(d.unit): d for d in state.dislodged}
    assert by_unit["A BUR"].displaced and set(by_unit["A BUR"].retreats) == {"BUR-NE", "BUR-SW"}
    assert set(by_unit["A RUM"].retreats) == {"BUD", "BUL", "SER", "UKR"}
    retreats = {"FRANCE": [Retreat(UnitRef("BUR", UnitKind.ARMY), "BUR-SW")],
                "AUSTRIA": [Retreat(UnitRef("RUM", UnitKind.ARMY), "GAL+RUM")]}
    after = adjudicate(game_map, state, retreats)
    units = {str(u) for u in after.next.units}
    assert "A BUR-SW" in units
    assert not any(u.province == "GAL+RUM" and u.power == "AUSTRIA" for u in after.next.units)
    assert after.next.phase == Phase.parse("F1901M")
    assert diplomap(after.next).map_changes == diplomap(state).map_changes


def test_a_displaced_unit_without_an_order_goes_to_a_default_part() -> None:
    game_map, spring = _spring()
    after = adjudicate(game_map, spring.next, {})
    assert "A BUR-NE" in {str(u) for u in after.next.units}  # no centre: the first part
    ordered = adjudicate(game_map, spring.next, {"FRANCE": [Disband(UnitRef("BUR"))]})
    assert not any(u.province.startswith("BUR") for u in ordered.next.units)
    wrong = adjudicate(game_map, spring.next,
                       {"FRANCE": [Retreat(UnitRef("BUR", UnitKind.ARMY), "GAS")]})
    assert "A BUR-NE" in {str(u) for u in wrong.next.units}  # an illegal order counts as none
    assert any(r.outcome.value == "illegal" for r in wrong.results)


def test_used_orders_last_the_year_and_centres_follow_the_board() -> None:
    game_map, spring = _spring()
    fall = adjudicate(game_map, spring.next, {}).next
    assert diplomap(fall).map_orders_used == {("FRANCE", "draw"), ("RUSSIA", "erase")}
    again = adjudicate(game_map, fall, {}, map_orders={
        "FRANCE": [Draw(("PIC", "BEL"), ("PIC", "PAR"))],
        "RUSSIA": [Draw(("SEV", "UKR"), ("SEV", "ARM"))]})  # coastal part by default
    fates = {r.power: r for r in again.facts("map_results")}
    assert not fates["FRANCE"].succeeded and fates["FRANCE"].section == "II.C"
    assert fates["RUSSIA"].succeeded
    assert diplomap(again.next).map_orders_used == frozenset()  # the year is over: all back
    owners = dict(again.next.owners)
    assert owners.get("GAL+RUM") == "RUSSIA"  # the fleet in merged Rumania took it
    board = apply_changes(game_map, diplomap(again.next).map_changes)
    sev = [c for c in owners if c.startswith("SEV-")]
    assert "SEV" not in owners and len(sev) == 1 and owners[sev[0]] == "RUSSIA"
    assert board.provinces[sev[0]].is_centre and board.is_coastal(sev[0])
    assert sev[0] in board.powers["RUSSIA"].home


def test_the_board_survives_a_snapshot() -> None:
    _, spring = _spring()
    state = spring.next
    assert snapshots.loads(snapshots.dumps(state)) == state


def test_an_erase_that_would_make_an_island_fails() -> None:
    """§II.G.5: a line from Syria's border with Armenia to the board's edge
    cuts off a corner bordering only Armenia and the rest of Syria (and the
    edge, which does not count); merging those two would leave the corner
    an island, so the Erase fails, while merging Armenia elsewhere does not."""
    game_map = diplomap_standard()
    state = position(game_map, {"phase": "S1901M"})
    spring = adjudicate(game_map, state, {}, map_orders={
        "TURKEY": [Draw(("SYR", "ARM"), ("SYR", "EDGE"))]})
    assert [r.succeeded for r in spring.facts("map_results")] == [True]
    board = apply_changes(game_map, diplomap(spring.next).map_changes)
    (split,) = diplomap(spring.next).map_changes
    assert isinstance(split, Split)
    corner, rest = split.parts
    assert sorted(board.rings[corner]) == sorted(["ARM", "EDGE", rest])
    fall = adjudicate(game_map, spring.next, {}, map_orders={"RUSSIA": [Erase(("ARM", rest))]})
    (result,) = fall.facts("map_results")
    assert not result.succeeded and result.section == "II.G.5", result
    elsewhere = adjudicate(game_map, spring.next, {},
                           map_orders={"RUSSIA": [Erase(("SMY", rest))]})
    assert [r.succeeded for r in elsewhere.facts("map_results")] == [True]


def _moved_in() -> tuple:
    """§III.B: A Mun - Bur, supported, dislodges A Bur while Burgundy is cut
    from Picardy to Gascony: both armies retreat from Burgundy, the German
    one displaced (it chooses its part), the French one dislodged."""
    game_map = diplomap_standard()
    state = position(game_map, {"units": {"FRANCE": ["A BUR"], "GERMANY": ["A MUN", "A RUH"]}})
    orders = orders_of(game_map, {"GERMANY": ["A MUN - BUR", "A RUH S A MUN - BUR"]})
    spring = adjudicate(game_map, state, orders,
                        map_orders={"FRANCE": [Draw(("BUR", "PIC"), ("BUR", "GAS"))]})
    return game_map, spring.next


def test_a_unit_that_moved_in_chooses_its_part_beside_the_unit_it_dislodged() -> None:
    game_map, state = _moved_in()
    retreats = {"GERMANY": [Retreat(UnitRef("BUR", UnitKind.ARMY), "BUR-W")],
                "FRANCE": [Retreat(UnitRef("BUR", UnitKind.ARMY), "PIC")]}
    after = adjudicate(game_map, state, retreats)
    assert [r.outcome.value for r in after.results] == ["succeeds", "succeeds"]
    assert {str(u) for u in after.next.units} == {"A RUH", "A BUR-W", "A PIC"}


def test_a_unit_that_moved_in_without_an_order_goes_to_the_default_part() -> None:
    """Without orders the displaced army takes the first part (no centre) and
    the dislodged one disbands; another power's order for it is not its."""
    game_map, state = _moved_in()
    after = adjudicate(game_map, state, {})
    assert {str(u) for u in after.next.units} == {"A RUH", "A BUR-E"}
    wrong = adjudicate(game_map, state, {"ITALY": [Retreat(UnitRef("BUR", UnitKind.ARMY),
                                                           "PAR")]})
    assert [r.outcome.value for r in wrong.results if r.power == "ITALY"] == ["illegal"]
    disband = adjudicate(game_map, state, {"GERMANY": [Disband(UnitRef("BUR"))]})
    assert {str(u) for u in disband.next.units} == {"A RUH"}
