"""What Diplomap says of a map order the moment it arrives
(engine/diplomap/arrival.py), of a name of a province the board does not
have (engine/diplomap/gone.py), and of a displaced unit's wrong order
(engine/retreats.py): vectors from data/replies.toml. And the arrival
check never refuses what the deadline would let succeed: every map order
of the rule text's examples and our validity cases that it refuses fails
at the deadline with the same reason and section."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from engine.diplomap.arrival import refusal_on_arrival
from engine.diplomap.gone import gone_place
from engine.diplomap.in_force import apply_changes
from engine.diplomap.state import of as diplomap
from engine.game import adjudicate
from engine.map import GameMap
from engine.outcomes import Outcome
from engine.phase import PhaseKind
from engine.rules import Rules
from engine.state import GameState
from engine.variants import rules_for
from parser import OrderError, parse_order
from parser.map_orders import parse_map_order
from tests.engine.diplomap.runner import diplomap_standard, load, position, run

DATA = tomllib.loads((Path(__file__).parent / "data" / "replies.toml").read_text("utf-8"))


def _read(text: str, board: GameMap) -> Any:
    order = parse_map_order(text, board)
    assert not isinstance(order, OrderError), (text, order)
    return order


@pytest.mark.parametrize("case", DATA["refused"], ids=lambda c: c["order"])
def test_a_map_order_that_can_never_succeed_is_refused_on_arrival(case: dict[str, Any]) -> None:
    board = diplomap_standard()
    verdict = refusal_on_arrival(board, _read(case["order"], board))
    assert verdict is not None
    assert verdict.section == case["section"]
    assert case["words"] in verdict.reason


@pytest.mark.parametrize("text", DATA["accepted"][0]["orders"])
def test_a_map_order_that_may_succeed_is_taken(text: str) -> None:
    board = diplomap_standard()
    assert refusal_on_arrival(board, _read(text, board)) is None


@pytest.mark.parametrize("case", load("examples.toml") + load("validity.toml"))
def test_what_is_refused_on_arrival_fails_at_the_deadline_alike(case: dict[str, Any]) -> None:
    game_map, resolution, given = run(case)
    board = rules_for(game_map).map_for(game_map, position(game_map, case))
    results = {(r.power, r.order): r for r in resolution.facts("map_results")}
    for power, order in given:
        verdict = refusal_on_arrival(board, order)
        if verdict is None:
            continue
        result = results[(power, order)]
        assert not result.succeeded
        assert (result.reason, result.section) == (verdict.reason, verdict.section)


def _after(changes: list[dict[str, Any]]) -> tuple[GameMap, GameState]:
    """The game's map and the position after ``changes`` (map orders as in
    the runner's cases), or the opening position."""
    game_map = diplomap_standard()
    if not changes:
        return game_map, position(game_map, {})
    _, resolution, _ = run({"units": {"GERMANY": ["A KIE"]},
                            "map_orders": [{**c, "result": "succeeds"} for c in changes]})
    return game_map, resolution.next


@pytest.mark.parametrize("case", DATA["gone"], ids=lambda c: f"{c['text']} {c.get('changes')}")
def test_a_name_of_a_province_the_board_no_longer_has(case: dict[str, Any]) -> None:
    game_map, state = _after(case.get("changes", []))
    changes = diplomap(state).map_changes
    board = apply_changes(game_map, changes)
    text = case["text"]
    read = parse_map_order(text, board) if text.split()[0].lower() in ("draw", "erase") \
        else parse_order(text, board)
    assert isinstance(read, OrderError), (text, read)  # only unreadable lines are asked about
    said = gone_place(game_map, board, changes, text, read.word, read.column) or ""
    if case["words"]:
        assert case["words"] in said
    else:
        assert said == ""
    # the judge asks the rules, which ask Diplomap; the standard game's say nothing
    rules = rules_for(game_map)
    assert (rules.why_unreadable(game_map, state, text, read.word, read.column) or "") == said
    assert Rules().why_unreadable(game_map, state, text, read.word, read.column) is None


@pytest.mark.parametrize("case", DATA["choice"], ids=lambda c: str(c["draw"]))
def test_a_displaced_units_wrong_order_names_its_choices(case: dict[str, Any]) -> None:
    drawn = {"units": case["units"], "map_orders": [{
        "power": next(iter(case["units"])), "draw": case["draw"], "centre": case["centre"],
        **({"inside": case["inside"]} if "inside" in case else {})}]}
    game_map, resolution, _ = run(drawn)
    state = resolution.next
    assert state.phase.kind is PhaseKind.RETREAT and all(d.displaced for d in state.dislodged)
    reading = rules_for(game_map).reading_board(game_map, state)
    for text, words in case["orders"].items():
        order = parse_order(text, reading)
        assert not isinstance(order, OrderError), (text, order)
        power = state.dislodged[0].unit.power
        result = adjudicate(game_map, state, {power: [order]}).results[0]
        if words:
            assert result.outcome is Outcome.ILLEGAL and result.reason is not None, text
            assert words in result.reason.describe(), (text, result.reason.describe())
        else:
            assert result.outcome is not Outcome.ILLEGAL, (text, result)
