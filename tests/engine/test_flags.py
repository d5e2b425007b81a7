"""DPJudge's RULE flags: the registry, which variants they keep from games,
what the judge is told of draws and press, and MOBILIZE's opening. The
flags' adjudication cases are in tests/engine/cases/flags.toml."""

from __future__ import annotations

import tomllib
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from engine.flags import DPJUDGE_RULES, IGNORED, SUPPORTED, in_force, unsupported_reason
from engine.map import GameMap
from engine.phase import Phase
from engine.variant_file import load_variant_file
from engine.variants import rules_for
from engine.ways_to_play import setup

DATA = Path(__file__).parent / "data"
CASES = tomllib.loads((DATA / "flags.toml").read_text(encoding="utf-8"))


def _board(*flags: str) -> GameMap:
    board = load_variant_file(DATA / "flags_variant.toml")
    return replace(board, flags=in_force(flags))


def test_the_judge_plays_or_ignores_only_dpjudge_rules() -> None:
    assert set(SUPPORTED) <= DPJUDGE_RULES
    assert set(IGNORED) <= DPJUDGE_RULES
    assert not set(SUPPORTED) & set(IGNORED)


@pytest.mark.parametrize("case", CASES["offered"], ids=lambda c: " ".join(c["flags"]) or "none")
def test_a_flag_the_judge_does_not_play_keeps_the_variant_from_games(
        case: dict[str, Any]) -> None:
    assert (unsupported_reason(case["flags"]) or "") == case["reason"]


@pytest.mark.parametrize("case", CASES["draw"], ids=lambda c: " ".join(c["flags"]))
def test_draw_votes(case: dict[str, Any]) -> None:
    board = _board(*case["flags"])
    assert rules_for(board).draw_refusal(board) == case["refusal"]


def _press_id(case: dict[str, Any]) -> str:
    return f"{case['phase']}-{case['to']}-{'late' if case['late'] else 'on-time'}"


@pytest.mark.parametrize("case", CASES["press"], ids=_press_id)
def test_press(case: dict[str, Any]) -> None:
    board = _board(*case["flags"])
    refusal = rules_for(board).press_refusal(
        board, Phase.parse(case["phase"]), to_master_only=case["to"] == "master",
        broadcast=case["to"] == "all", after_deadline=case["late"])
    assert refusal == case["refusal"]


def test_mobilize_opens_on_an_empty_board_the_winter_before() -> None:
    state = setup(_board("MOBILIZE"), 2)
    assert str(state.phase) == "W1900A"
    # the players' powers start with no units; the dummy, no player's, keeps its own
    assert [str(u) for u in state.units] == ["A GA"]
    assert sorted(state.owners) == [("BA", "BLUE"), ("BB", "BLUE"), ("GA", "GREY"),
                                    ("RA", "RED"), ("RB", "RED")]


def test_a_dummy_sits_in_no_seat() -> None:
    state = setup(_board(), 2)
    assert [seat.powers for seat in state.seats] == [("RED",), ("BLUE",)]
    assert not state.unplayed  # a dummy is not unplayed: it holds, but adjusts
