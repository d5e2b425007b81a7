"""A map's SVG is the same in every process: Python's string hashing
differs between processes, so a set walked while drawing (the minors'
legend row was named by the first of a set of powers) would make the same
position's picture differ from one run of the judge to the next."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).parents[3]
_DRAW = """
from engine.state import GameState
from engine.variant_file import load_variant
from engine.variants import rules_for
from judge.maps.render import render_svg
from judge.maps.scene import Scene
import hashlib, sys
game_map = load_variant(sys.argv[1])
state = rules_for(game_map).opening(game_map, GameState.initial(game_map))
print(hashlib.sha256(render_svg(game_map, Scene("g", state)).encode()).hexdigest())
"""


def _digest(variant: str, seed: int) -> str:
    env = {**os.environ, "PYTHONHASHSEED": str(seed), "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", _DRAW, variant], env=env, cwd=ROOT,
                          capture_output=True, text=True, check=True, timeout=300)
    return done.stdout.strip()


@pytest.mark.parametrize("variant", ["dissolution"])
def test_the_svg_does_not_depend_on_string_hashing(variant: str) -> None:
    assert len({_digest(variant, seed) for seed in (1, 2)}) == 1
