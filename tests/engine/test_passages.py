"""The variant file's restricted crossings and seasonal terrain
(engine/passages.py, engine/seasons.py): what `judge variant check` says of
broken ones, the board of each season, and that a map whose terrain changes
is offered only with DPJudge's HIBERNATE. Their adjudication cases are in
tests/engine/cases/straits.toml."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from engine.flag_rules import order_refusal
from engine.map import Crossing, Terrain
from engine.orders import Move, UnitRef
from engine.phase import Phase
from engine.seasons import in_season
from engine.state import GameState
from engine.units import Unit
from engine.variant_file import VariantError, load_variant_file, parse_variant, unfinished_reason
from judge.cli import main

DATA = Path(__file__).parent / "data"
VARIANT = DATA / "straits_variant.toml"


def _cases() -> list[Any]:
    data = tomllib.loads((DATA / "passage_problems.toml").read_text(encoding="utf-8"))
    return [pytest.param(c, id=c["name"]) for c in data["case"]]


@pytest.mark.parametrize("case", _cases())
def test_problem_is_reported_with_its_line(case: dict[str, Any]) -> None:
    text = VARIANT.read_text(encoding="utf-8")
    for old, new in case["edits"]:
        assert old in text, f"edit {old!r} no longer applies"
        text = text.replace(old, new, 1)
    with pytest.raises(VariantError) as caught:
        parse_variant(text, "broken.toml")
    problems = caught.value.problems
    for want in case["expect"]:
        assert any(want["text"] in p.message and (p.line or 0) == want["line"]
                   for p in problems), f"missing {want}; got {[str(p) for p in problems]}"
    assert len(problems) == len(case["expect"]), [str(p) for p in problems]


def test_crossings_are_read_both_ways() -> None:
    board = load_variant_file(VARIANT)
    assert board.crossing("MAI", "ISL") is Crossing.WEAK
    assert board.crossing("ISL", "MAI") is Crossing.WEAK
    assert board.crossing("FAR", "OCE") is Crossing.CAPE
    assert board.crossing("MAI", "INL") is None


def test_the_board_of_each_season() -> None:
    board = load_variant_file(VARIANT)
    assert board.provinces["ICE"].terrain is Terrain.IMPASSABLE
    assert "ICE" not in board.fleet_moves["NOR"]
    spring = in_season(board, "S")
    assert spring.provinces["ICE"].terrain is Terrain.WATER
    assert spring.fleet_moves["ICE"] == {"NOR", "OCE"} and "ICE" in spring.fleet_moves["OCE"]
    assert in_season(board, "F") is board and in_season(board, "S") is spring


def test_a_hibernating_unit_is_told_why() -> None:
    fall = load_variant_file(VARIANT)
    state = GameState(variant="straitstest", phase=Phase.parse("F1901M"),
                      units=(Unit.parse("RED", "F ICE"),), owners=())
    move = Move(UnitRef("ICE"), "NOR")
    assert order_refusal(fall, state, "RED", move) == (
        "fleet ICE hibernates: Icy Sea is impassable in this season, so it may only hold "
        "(DPJudge rule HIBERNATE)")
    assert order_refusal(in_season(fall, "S"), state, "RED", move) == ""


@pytest.mark.parametrize(("flags", "reason"), [
    ('flags = ["HIBERNATE"]', None),
    ('flags = ["BUILD_ANY"]',
     "terrain that changes with the season is played with DPJudge rule HIBERNATE only"),
])
def test_seasonal_terrain_is_offered_with_hibernate_only(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        flags: str, reason: str | None) -> None:
    name = "seasons-" + flags.split('"')[1].lower()
    text = VARIANT.read_text(encoding="utf-8").replace('flags = ["HIBERNATE"]', flags)
    path = tmp_path / f"{name}.toml"
    path.write_text(text.replace('name = "straitstest"', f'name = "{name}"'), encoding="utf-8")
    monkeypatch.setenv("JUDGE_VARIANTS", str(tmp_path))
    assert unfinished_reason(name) == reason
    assert main(["variant", "check", str(path)]) == 0
    said = capsys.readouterr().out
    assert said.endswith(f"not offered yet: {reason}\n") if reason else "not offered" not in said
