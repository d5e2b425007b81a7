"""After any sequence of valid changes to the standard map, the board is
still a board: every province reachable, adjacency symmetric, the rings
pass engine/rings.py's checks against the new adjacency, and every supply
centre is in exactly one province."""

from __future__ import annotations

from collections import deque

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.diplomap.adjudication import adjudicate_map_orders
from engine.diplomap.board import WorkingBoard
from engine.diplomap.in_force import adopt, apply_changes, apply_one, board_of
from engine.diplomap.state import of as diplomap
from engine.diplomap.values import EDGE, Draw, Erase, MapChange, MapOrder, Side
from engine.game import adjudicate
from engine.map import GameMap, Terrain, province_of
from engine.phase import PhaseKind
from engine.rings import check_rings
from engine.state import GameState
from engine.variants import rules_for
from tests.engine.diplomap.runner import diplomap_standard
from tests.examples import examples

ORDER = st.tuples(st.booleans(), st.integers(0, 10_000), st.integers(0, 100),
                  st.integers(0, 100), st.sampled_from(["N", "S", "E", "W"]))
# each phase: up to four map orders from different powers, carried out together
STEPS = st.lists(st.lists(ORDER, min_size=1, max_size=4), min_size=1, max_size=8)
POWERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY")


def _order(board: GameMap, step: tuple[bool, int, int, int, str]) -> MapOrder:
    draw, pick, i, j, side = step
    codes = sorted(c for c, p in board.provinces.items() if p.terrain is not Terrain.IMPASSABLE)
    code = codes[pick % len(codes)]
    ring = board.rings[code]
    first, second = ring[i % len(ring)], ring[j % len(ring)]
    if draw:
        inside = code if first == second else None
        return Draw((code, first), (code, second), inside, Side(compass=side))
    if first == EDGE:
        first = next(n for n in ring if n != EDGE)
    return Erase((code, first))


def _problems(board: GameMap) -> list[str]:
    found: list[str] = []
    for src, dsts in board.army_moves.items():
        found += [f"army {src}-{d} one way" for d in dsts if src not in board.army_moves[d]]
    for src, dsts in board.fleet_moves.items():
        found += [f"fleet {src}-{d} one way" for d in dsts
                  if src not in board.fleet_moves.get(d, frozenset())]
    check_rings(lambda path, key, text: found.append(text),
                {c: list(r) for c, r in board.rings.items()}, board.provinces,
                {c: set(d) for c, d in board.army_moves.items()},
                {c: set(d) for c, d in board.fleet_moves.items()},
                {c: set(d) for c, d in board.borders.items()})
    graph = board.province_graph
    passable = [c for c, p in board.provinces.items() if p.terrain is not Terrain.IMPASSABLE]
    seen, queue = {passable[0]}, deque([passable[0]])
    while queue:
        for nxt in graph[queue.popleft()]:
            if nxt not in seen:
                seen.add(nxt)
                queue.append(nxt)
    found += [f"{c} unreachable" for c in passable if c not in seen]
    if len(board.supply_centres) != 34:
        found.append(f"{len(board.supply_centres)} centres")
    for power in board.powers.values():
        found += [f"home {h} lost" for h in power.home if h not in board.supply_centres]
    for loc in board.fleet_moves:
        if not board.is_location(loc):
            found.append(f"fleet location {loc} is not on the board")
    found += [f"alias {a} -> {t}" for a, t in board.aliases.items()
              if province_of(t) not in board.provinces]
    return found


def _replayed(game_map: GameMap, changes: tuple[MapChange, ...]) -> GameMap:
    board = WorkingBoard.of(game_map)
    for change in changes:
        apply_one(board, change)
    return board.game_map()


def _tables(board: GameMap) -> tuple[object, ...]:
    return (board.provinces, board.army_moves, board.fleet_moves, board.rings,
            board.aliases, board.powers, board.drawing)


@settings(max_examples=examples(80), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(STEPS)
def test_valid_changes_keep_a_sound_board(
        steps: list[list[tuple[bool, int, int, int, str]]]) -> None:
    game_map = diplomap_standard()
    state = GameState.initial(game_map).evolve(units=())
    changes: tuple = ()
    for step in steps:
        board = apply_changes(game_map, changes)
        orders = {power: [_order(board, one)] for power, one in zip(POWERS, step, strict=False)}
        outcome = adjudicate_map_orders(board, state, (), orders)
        changes = (*changes, *outcome.changes)
        # the board the phase's own work left stands for its changes (as a
        # deadline does); the next phase starts from it
        after = adopt(game_map, changes, outcome.board) if outcome.changes else board
        assert _problems(after) == [], (orders, changes)
        # and it is the board the changes give when replayed from the start
        assert _tables(after) == _tables(_replayed(game_map, changes)), changes
    # boards share their tables copy-on-write: the base board is as loaded
    base = board_of(game_map)
    assert base.rings == {c: list(r) for c, r in game_map.rings.items()}
    assert base.army == {c: set(d) for c, d in game_map.army_moves.items()}
    assert base.fleet == {c: set(d) for c, d in game_map.fleet_moves.items()}


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(STEPS)
def test_units_stand_on_the_new_board(steps: list[list[tuple[bool, int, int, int, str]]]) -> None:
    """With the opening units holding, every unit after a phase of map
    orders stands where it can on the new board, and every retreat a
    dislodged or displaced unit is offered is a place it can stand on."""
    game_map = diplomap_standard()
    state = GameState.initial(game_map)
    for step in steps:
        if state.phase.kind is not PhaseKind.MOVEMENT:
            state = adjudicate(game_map, state, {}).next  # default parts, no builds
            continue
        board = rules_for(game_map).map_for(game_map, state)
        orders = {power: [_order(board, one)] for power, one in zip(POWERS, step, strict=False)}
        state = adjudicate(game_map, state, {}, map_orders=orders).next
        after = apply_changes(game_map, diplomap(state).map_changes)
        for unit in state.units:
            assert after.can_stand(unit.kind, unit.location), unit
        for gone in state.dislodged:
            assert gone.retreats or not gone.displaced, gone
            for option in gone.retreats:
                assert after.can_stand(gone.unit.kind, option), (gone, option)
        centres = {c for c, _ in state.owners}
        assert centres <= after.supply_centres
