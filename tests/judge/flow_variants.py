"""Variants on the standard board played in other flows of phases, written
into a JUDGE_VARIANTS folder for the judge to find (as a keeper tries an
imported map before it is shipped): their edits are the engine's cases,
tests/engine/data/flow_games.toml."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.engine.test_flow_games import DATA as GAMES
from tests.engine.test_flow_games import flow_variant_text

HUNDRED_EDITS = next(g for g in GAMES["game"] if g["start"] == "A1425M")["edits"]
CHAOS_EDITS = next(g for g in GAMES["game"] if g["start"] == "W1900A")["edits"]
AMBITION_EDITS = [
    ["start = \"S1901M\"", """begin = "SPRING 1763 MOVEMENT"
flow = ["SPRING:INCOME,MOVEMENT,RETREATS", "FALL:INCOME,MOVEMENT,RETREATS",
        "WINTER:ADJUSTMENTS"]"""],
    ["start = \"S1914M\"\n", ""],
]


def install(folder: Path, monkeypatch: pytest.MonkeyPatch, name: str,
            edits: list[list[str]]) -> Path:
    """The standard board, edited and named ``name``, in ``folder``, which
    JUDGE_VARIANTS names."""
    path = folder / f"{name}.toml"
    path.write_text(flow_variant_text([*edits, ['name = "standard"', f'name = "{name}"']]),
                    encoding="utf-8")
    monkeypatch.setenv("JUDGE_VARIANTS", str(folder))
    return path
