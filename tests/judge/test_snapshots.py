"""A stored position comes back exactly, for every way to play."""

from __future__ import annotations

import pytest

from engine.variant_file import load_variant
from engine.ways_to_play import setup
from judge import snapshots


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6, 7])
def test_round_trip(players: int) -> None:
    state = setup(load_variant("standard"), players, seed=11)
    assert snapshots.loads(snapshots.dumps(state)) == state
