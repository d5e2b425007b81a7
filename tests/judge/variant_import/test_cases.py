"""The importer on small hand-written DPJudge maps, one directive or mark
each (data/cases/NAME/main.map, USEing data/common/tiny.map), against
what each case's expect.toml says the variant file and the report hold.

expect.toml: ``about``; ``written`` (default true); ``refusal``, a part
of the reason a map is not imported; ``[values]``, dotted paths into the
written file with their values; ``present`` and ``absent``, paths that must
or must not be there; ``report``, parts of report lines (as the CLI prints
them: ``- file:line: text``, ``*`` for what changes play).
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from engine.variant_file import parse_variant
from judge.variant_import.importer import import_map

DATA = Path(__file__).parent / "data"
CASES = sorted(p.name for p in (DATA / "cases").iterdir() if p.is_dir())


def _at(data: dict[str, Any], dotted: str) -> Any:
    here: Any = data
    for key in dotted.split("."):
        if not isinstance(here, dict) or key not in here:
            raise KeyError(dotted)
        here = here[key]
    return here


@pytest.mark.parametrize("case", CASES)
def test_case(case: str) -> None:
    folder = DATA / "cases" / case
    expect = tomllib.loads((folder / "expect.toml").read_text(encoding="utf-8"))
    result = import_map(folder / "main.map", search=(DATA / "common",))
    report = [f"{'*' if n.changes_play else '-'} {n}" for n in result.notes]
    for part in expect.get("report", []):
        assert any(part in line for line in report), f"{part!r} not in:\n" + "\n".join(report)
    if not expect.get("written", True):
        assert result.text is None
        assert expect["refusal"] in (result.refusal or "")
        return
    assert result.text is not None, f"{result.refusal}:\n" + "\n".join(report)
    parse_variant(result.text, case)  # passes the checks
    data = tomllib.loads(result.text)
    for dotted, value in expect.get("values", {}).items():
        assert _at(data, dotted) == value, dotted
    for dotted in expect.get("present", []):
        _at(data, dotted)
    for dotted in expect.get("absent", []):
        with pytest.raises(KeyError):
            _at(data, dotted)
