"""Flows of phases (engine/flow.py) walked, sorted, named and read from
DPJudge's FLOW and BEGIN words: the cases in data/flows.toml."""

from __future__ import annotations

import random
import tomllib
from pathlib import Path
from typing import Any

import pytest

from engine.flow import STANDARD_FLOW, Flow, FlowError, read_begin, read_flow
from engine.phase import Phase, PhaseKind

DATA = tomllib.loads((Path(__file__).parent / "data" / "flows.toml").read_text(encoding="utf-8"))


def _flow(lines: list[str]) -> Flow:
    return read_flow(lines) if lines else STANDARD_FLOW


def _about(case: dict[str, Any]) -> str:
    return str(case.get("about", case.get("message", "")))


@pytest.mark.parametrize("case", DATA["flow"], ids=_about)
def test_the_flow_walks_from_its_first_phase(case: dict[str, Any]) -> None:
    flow = _flow(case["lines"])
    assert flow.unplayable is None
    if "begin" in case:
        assert read_begin(case["begin"], flow) == case["start"]
    phase = Phase.parse(case["start"], flow)
    walked = [phase]
    while len(walked) < len(case["phases"]):
        walked.append(walked[-1].following())
    assert [str(p) for p in walked] == case["phases"]


@pytest.mark.parametrize("case", DATA["flow"], ids=_about)
def test_phases_sort_in_the_order_played(case: dict[str, Any]) -> None:
    flow = _flow(case["lines"])
    shuffled = list(case["phases"])
    random.Random(7).shuffle(shuffled)
    assert [str(p) for p in sorted(Phase.parse(p, flow) for p in shuffled)] == case["phases"]


@pytest.mark.parametrize("case", DATA["flow"], ids=_about)
def test_abbreviations_and_names_round_trip(case: dict[str, Any]) -> None:
    flow = _flow(case["lines"])
    for text in case["phases"]:
        phase = Phase.parse(text.lower(), flow)
        assert str(phase) == text
        assert Phase.parse(str(phase), flow) == phase
    for text, name in case["names"].items():
        assert Phase.parse(text, flow).name == name


@pytest.mark.parametrize("case", DATA["flow"], ids=_about)
def test_the_adjustments_a_season_leads_to(case: dict[str, Any]) -> None:
    flow = _flow(case["lines"])
    for text, adjusting in case["adjustments"].items():
        phase = Phase.parse(text, flow)
        found = phase.adjustment()
        assert (str(found) if found else "") == adjusting, text
        following = phase.following_movement()
        assert following.kind is PhaseKind.MOVEMENT and following > phase
        assert found is None or phase < found < following


@pytest.mark.parametrize("case", DATA["flow"], ids=_about)
def test_centres_change_hands_after_the_last_movement_season(case: dict[str, Any]) -> None:
    """Fall in the standard year; Hundred's and Classical's only season."""
    flow = _flow(case["lines"])
    moving = [s for s in flow.seasons if PhaseKind.MOVEMENT in s.kinds]
    for text in case["phases"]:
        phase = Phase.parse(text, flow)
        assert phase.counts_centres == (phase.season == moving[-1].letter)
        assert phase.opens_year == (phase.kind is PhaseKind.MOVEMENT
                                    and phase.season == moving[0].letter)


@pytest.mark.parametrize("case", DATA["unplayable"], ids=_about)
def test_a_flow_the_engine_cannot_play_says_why(case: dict[str, Any]) -> None:
    assert read_flow(case["lines"]).unplayable == case["reason"]


@pytest.mark.parametrize("case", DATA["bad"], ids=_about)
def test_words_that_make_no_flow(case: dict[str, Any]) -> None:
    with pytest.raises(FlowError) as raised:
        read_flow(case["lines"])
    assert str(raised.value) == case["message"]


@pytest.mark.parametrize("case", DATA["bad_begin"], ids=_about)
def test_a_begin_the_flow_does_not_have(case: dict[str, Any]) -> None:
    with pytest.raises(FlowError) as raised:
        read_begin(case["begin"], _flow(case["lines"]))
    assert str(raised.value) == case["message"]


def test_a_phase_of_another_flow_is_no_phase() -> None:
    hundred = read_flow(DATA["flow"][3]["lines"])
    with pytest.raises(ValueError):
        Phase.parse("A1425M")  # the standard year has no season A
    with pytest.raises(ValueError):
        Phase.parse("S1901M", hundred)
    with pytest.raises(ValueError):
        Phase.parse("W1901M")  # adjustments happen in winter, and only then
