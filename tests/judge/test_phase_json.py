"""Phases adjudicated one after another through `judge adjudicate`'s JSON,
in process: what a phase's `next` says is all the next phase knows, so a
variant's state that the JSON forgets is lost (issue 22, bugs 1 and 2)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

import pytest

from engine.phase_input import PhaseInputError, power_in
from engine.variant_file import load_variant
from judge.phase_json import adjudicate_json
from parser.line_kinds import READERS
from tests.judge.json_match import matches

DATA = Path(__file__).parent / "data"
CHAINS = tomllib.loads((DATA / "phase_chains.toml").read_text(encoding="utf-8"))["chain"]


@pytest.mark.parametrize("chain", CHAINS, ids=[c["name"] for c in CHAINS])
def test_chain(chain: dict[str, Any]) -> None:
    phase: dict[str, Any] = {}
    for n, step in enumerate(chain["step"]):
        given = {key: value for key, value in phase.items()
                 if key not in READERS}  # each kind of line is for its own phase
        got = adjudicate_json({**given, **step["input"]})
        assert matches(got, step.get("expect", {})), (n, got)
        for key in step.get("absent", {}).get("next", []):
            assert key not in got["next"], (n, key, got["next"][key])
        phase = got["next"]


def test_a_retreat_the_rules_forbid_is_refused_by_name() -> None:
    with pytest.raises(PhaseInputError, match=r"dislodged\.ITALY\.A VEN\.retreats.*TYR"):
        adjudicate_json({"phase": "F1901R", "units": {"AUSTRIA": ["A VEN"]},
                         "dislodged": {"ITALY": {"A VEN": {"attacker": "TYR",
                                                           "retreats": ["TYR"]}}}})


@pytest.mark.parametrize("chain", [c for c in CHAINS if c.get("no_embassies_of")],
                         ids=lambda c: c["name"])
def test_exiles_have_no_embassies(chain: dict[str, Any]) -> None:
    """§4.1: no step's `next` places an Embassy of an eliminated player."""
    phase: dict[str, Any] = {}
    for step in chain["step"]:
        given = {key: value for key, value in phase.items() if key not in READERS}
        phase = adjudicate_json({**given, **step["input"]})["next"]
        assert set(chain["no_embassies_of"]) <= set(phase.get("exiles", []))
        assert not set(chain["no_embassies_of"]) & set(phase.get("embassies", {})), phase


def _section(text: str, heading: str) -> str:
    start = text.index(heading)
    end = text.find("\n#### ", start + len(heading))
    return text[start:end if end != -1 else None]


@pytest.mark.parametrize("variant", ["standard", "dissolution", "intercontinental"])
def test_the_cli_docs_name_every_power_key(variant: str) -> None:
    """docs/cli.md lists each power a variant's phases may name, and only those."""
    docs = (Path(__file__).parents[2] / "docs" / "cli.md").read_text(encoding="utf-8")
    listed = _section(docs, "#### The power keys of each variant")
    part = next(line for line in listed.split("\n- ") if line.lower().startswith(variant))
    game_map = load_variant(variant)
    named = set(re.findall(r"`([A-Z][A-Z_]+)`", part))
    assert named == set(game_map.powers)
    for spelling in re.findall(r'"([^"]+)"', part):  # the other spellings given
        assert power_in(game_map, spelling, "docs")
