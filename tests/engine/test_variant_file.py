"""The variant loader: the standard map, the documented example, and every
problem a game master can make, reported with its line."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

import pytest

from engine.map import UnitKind
from engine.state import GameState
from engine.variant_file import VariantError, load_variant, parse_variant
from judge.cli import main

ROOT = Path(__file__).resolve().parents[2]
DATA = Path(__file__).parent / "data"


def example_variant() -> str:
    """The complete example of docs/variants.md, which must stay valid."""
    doc = (ROOT / "docs" / "variants.md").read_text(encoding="utf-8")
    section = doc.split("## A complete example", 1)[1]
    match = re.search(r"```toml\n(.*?)```", section, re.S)
    assert match, "docs/variants.md lost its example"
    return match.group(1)


def test_standard_map_facts() -> None:
    game_map = load_variant("standard")
    assert len(game_map.provinces) == 76
    assert len(game_map.supply_centres) == 34
    assert sorted(game_map.powers) == ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY",
                                       "RUSSIA", "TURKEY"]
    assert game_map.aliases["mid atlantic ocean"] == "MAO"
    assert game_map.aliases["nwg"] == "NWG"
    assert game_map.adjacent(game_map.powers["RUSSIA"].units[0][0], "MOS", "STP")
    assert "BUL/EC" in game_map.fleet_moves["BLA"]
    assert "SPA/NC" not in game_map.fleet_moves["WES"]
    assert game_map.power_aliases["french"] == "FRANCE"


def test_documented_example_is_valid() -> None:
    game_map = parse_variant(example_variant(), "example")
    assert game_map.provinces["FEN"].centre is not None
    assert game_map.provinces["FEN"].centre.value == 2
    assert "MID/NC" in game_map.fleet_moves["ARD"]


def _cases() -> list[Any]:
    data = tomllib.loads((DATA / "variant_problems.toml").read_text(encoding="utf-8"))
    return [pytest.param(c, id=c["name"]) for c in data["case"]]


@pytest.mark.parametrize("case", _cases())
def test_problem_is_reported_with_its_line(case: dict[str, Any]) -> None:
    text = example_variant()
    for old, new in case["edits"]:
        assert old in text, f"edit {old!r} no longer applies to the example"
        text = text.replace(old, new, 1)
    with pytest.raises(VariantError) as caught:
        parse_variant(text, "broken.toml")
    problems = caught.value.problems
    for want in case["expect"]:
        assert any(
            want["text"] in p.message and (p.line or 0) == want["line"] for p in problems
        ), f"missing {want}; got {[str(p) for p in problems]}"
    assert len(problems) == len(case["expect"]), [str(p) for p in problems]


def test_variant_check_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = tmp_path / "good.toml"
    good.write_text(example_variant(), encoding="utf-8")
    assert main(["variant", "check", str(good)]) == 0
    assert "ok: Three Crowns" in capsys.readouterr().out

    # the standard map's rings are checked, and the summary says Diplomap may be used
    standard = Path(__file__).parents[2] / "engine" / "variants" / "standard.toml"
    assert main(["variant", "check", str(standard)]) == 0
    assert "rings checked (Diplomap may be switched on)" in capsys.readouterr().out

    bad = tmp_path / "bad.toml"
    bad.write_text(example_variant().replace('letter = "B"', 'letter = "A"'), encoding="utf-8")
    assert main(["variant", "check", str(bad)]) == 1
    out = capsys.readouterr().out
    assert f"{bad}:line 21: powers.BRAVIA.letter: letter A is also ARDEN's" in out

    assert main(["variant", "check", str(tmp_path / "missing.toml")]) == 2

    # a DPJudge rule the judge does not play yet: the file is sound, not offered
    flagged = tmp_path / "flagged.toml"
    flagged.write_text(example_variant().replace(
        'start = "S1901M"', 'start = "S1901M"\nflags = ["NO_DRAW", "VASSAL_DUMMIES"]'),
        encoding="utf-8")
    assert main(["variant", "check", str(flagged)]) == 0
    assert capsys.readouterr().out.endswith(
        "not offered to games: DPJudge rule VASSAL_DUMMIES is not supported yet\n")


def _kind_cases() -> list[Any]:
    data = tomllib.loads((DATA / "variant_kinds.toml").read_text(encoding="utf-8"))
    return [pytest.param(c, id=c["name"]) for c in data["case"]]


@pytest.mark.parametrize("case", _kind_cases())
def test_kinds_are_read_from_the_file(case: dict[str, Any]) -> None:
    if "variant" in case:
        game_map = load_variant(case["variant"])
    else:
        text = example_variant()
        for old, new in case["edits"]:
            assert old in text, f"edit {old!r} no longer applies to the example"
            text = text.replace(old, new, 1)
        game_map = parse_variant(text, "kinds.toml")
    assert [k.value for k in game_map.kinds] == case["kinds"]
    assert sorted(k.value for k in game_map.kind_traits) == sorted(case["traits"])
    for letter, want in case["traits"].items():
        traits = game_map.traits(UnitKind(letter))
        assert {
            "stands_on": sorted(t.value for t in traits.stands_on),
            "follows": traits.follows.value,
            "convoys_from": sorted(t.value for t in traits.convoys_from),
            "convoyable": traits.convoyable,
            "stationary": traits.stationary,
            "convoy_relay": traits.convoy_relay,
        } == {"stands_on": [], "convoys_from": [], "convoyable": False, "stationary": False,
              "convoy_relay": False, **want}, letter
    assert game_map.has_special_units == case.get("special_units", False)


def test_variant_check_names_a_bad_trait_by_its_key(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text(example_variant().replace(
        "[variant]\n", '[kinds.W]\nstands_on = ["land"]\nfollows = "any"\nstationary = 1\n\n'
        "[variant]\n", 1), encoding="utf-8")
    assert main(["variant", "check", str(bad)]) == 1
    assert f"{bad}:line 7: kinds.W.stationary: stationary is true or false" \
        in capsys.readouterr().out


def test_seats_group_powers_under_players() -> None:
    text = example_variant().replace(
        "# Canals", '[seats]\nnorth = ["ARDEN", "BRAVIA"]\nsouth = ["CALDOR"]\n\n# Canals', 1)
    game_map = parse_variant(text, "seated")
    state = GameState.initial(game_map)
    assert [(s.player, s.powers) for s in state.seats] == [
        ("north", ("ARDEN", "BRAVIA")), ("south", ("CALDOR",))]
    assert [s.player for s in GameState.initial(load_variant("standard")).seats] == sorted(
        load_variant("standard").powers)
