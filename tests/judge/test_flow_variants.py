"""Variants in other flows of phases through the judge: an unplayable flow
(INCOME phases) is loaded but not offered; Hundred's flow survives the
snapshots and the phase JSON, and `judge adjudicate` plays it
(tests/judge/data/flow_adjudicate.toml)."""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.engine import Engine

from engine.game import adjudicate
from engine.variant_file import load_variant, offered_variants, unfinished_reason
from engine.ways_to_play import setup
from judge import games, snapshots
from judge.cli import main as judge_main
from judge.db import transaction
from judge.games import GameError
from judge.passwords import hash_password
from judge.phase_json import read_state, write_state
from judge.settings import GameSettings
from tests.engine.random_orders import random_orders
from tests.judge.flow_variants import AMBITION_EDITS, HUNDRED_EDITS, install
from tests.judge.json_match import matches

DATA = tomllib.loads((Path(__file__).parent / "data" / "flow_adjudicate.toml")
                    .read_text(encoding="utf-8"))
INCOME = "DPJudge phase INCOME is not supported yet"


def test_a_flow_with_income_phases_loads_but_is_not_offered(
        db: Engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = install(tmp_path, monkeypatch, "ambitionflow", AMBITION_EDITS)
    install(tmp_path, monkeypatch, "hundredflow", HUNDRED_EDITS)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert judge_main(["variant", "check", str(path)]) == 0
    assert out.getvalue().endswith(f"ambitionflow.toml: not offered yet: {INCOME}\n")
    assert unfinished_reason("ambitionflow") == INCOME
    assert unfinished_reason("hundredflow") is None
    assert "hundredflow" in offered_variants()
    assert "ambitionflow" not in offered_variants()
    with transaction(db) as session, pytest.raises(GameError,
                                                   match=f"not offered yet: {INCOME}"):
        games.create_game(session, "payola", hash_password("pw"), "gm@x.test",
                          GameSettings(variant="ambitionflow"))


def test_phases_of_a_flow_survive_snapshots_and_json(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    install(tmp_path, monkeypatch, "hundredflow", HUNDRED_EDITS)
    game_map = load_variant("hundredflow")
    rng = random.Random(3)
    state = setup(game_map, len(game_map.powers))
    seen = []
    while len(seen) < 12:
        seen.append(str(state.phase))
        stored = snapshots.loads(snapshots.dumps(state))
        assert stored == state
        assert stored.phase.flow == game_map.flow and stored.phase.name == state.phase.name
        _, written = read_state(write_state(game_map, state))
        assert written.phase == state.phase and written.phase.flow == game_map.flow
        state = adjudicate(game_map, state, random_orders(rng, game_map, state)).next
    assert all(phase[0] == "A" for phase in seen)  # the A.D. season's letter
    assert all(int(p[1:-1]) % 10 == 0 for p in seen if p.endswith("A"))  # adjustments


def _run(args: list[str], stdin: str, folder: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "judge.cli", *args], input=stdin,
                          capture_output=True, text=True, timeout=60, check=False,
                          env={**os.environ, "JUDGE_VARIANTS": str(folder)})


@pytest.mark.slow
@pytest.mark.parametrize("case", DATA["case"], ids=lambda c: c["name"])
def test_adjudicate_plays_the_flow(case: dict[str, Any], tmp_path: Path,
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    install(tmp_path, monkeypatch, "hundredflow", HUNDRED_EDITS)
    done = _run(["adjudicate"], json.dumps(case["input"]), tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    out = json.loads(done.stdout)
    assert matches(out, case["expect"]), json.dumps(out, indent=1)


@pytest.mark.slow
@pytest.mark.parametrize("case", DATA["error"], ids=lambda c: c["name"])
def test_adjudicate_names_a_phase_of_another_flow(case: dict[str, Any], tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    install(tmp_path, monkeypatch, "hundredflow", HUNDRED_EDITS)
    done = _run(["adjudicate"], case["input"], tmp_path)
    assert done.returncode == 2
    assert case["message"] in json.loads(done.stdout)["error"]
