"""What `judge variant check` reports for a broken copy of a variant file:
the cases of data/variant_check_breaks.toml, each a slip a GM could make
transcribing a location index, with every problem expected exactly."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from engine.variant_file import VariantError, parse_variant
from judge.cli import main

DATA = Path(__file__).parent / "data" / "variant_check_breaks.toml"
VARIANTS = Path(__file__).parents[2] / "engine" / "variants"
CASES = tomllib.loads(DATA.read_text(encoding="utf-8"))["cases"]


def broken(case: dict[str, Any]) -> str:
    text = (VARIANTS / f"{case['base']}.toml").read_text(encoding="utf-8")
    for old, new in case["replace"]:
        assert old in text, (case["name"], old)
        text = text.replace(old, new)
    return text


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_the_check_reports_exactly_the_problem(case: dict[str, Any]) -> None:
    try:
        parse_variant(broken(case), f"{case['base']}.toml")
        found: list[str] = []
    except VariantError as error:
        found = [f"{p.where}: {p.message}" for p in error.problems]
        # every problem inside a table points at its line; one of a table
        # that is missing altogether ("provinces: ... has no table") cannot
        assert all(p.line is not None for p in error.problems if "." in p.where), \
            error.problems
    assert found == case["problems"]


@pytest.mark.slow
@pytest.mark.parametrize("case", [c for c in CASES if c["problems"]],
                         ids=[c["name"] for c in CASES if c["problems"]])
def test_judge_variant_check_prints_each_problem_with_its_line(
        case: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """What a GM sees: the file, the line, where and what, and the count."""
    path = tmp_path / f"{case['base']}.toml"
    text = broken(case)
    path.write_text(text, encoding="utf-8")
    assert main(["variant", "check", str(path)]) == 1
    printed = capsys.readouterr().out.splitlines()
    assert printed[-1] == f"{len(case['problems'])} problem(s)"
    lines = text.splitlines()
    for shown, expected in zip(printed[:-1], case["problems"], strict=True):
        assert shown.startswith(f"{path}:") and shown.endswith(expected), shown
        where = expected.split(":")[0]
        if "." in where:  # the line given holds the table or key the problem names
            number = int(shown.split("line ")[1].split(":")[0])
            last = where.split(".")[-1]
            assert last in lines[number - 1] or where.rsplit(".", 1)[0] in lines[number - 1], \
                (shown, lines[number - 1])
