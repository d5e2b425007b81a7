"""A stored position comes back exactly, for every way to play."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.variant_file import load_variant
from engine.ways_to_play import setup
from judge import snapshots


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6, 7])
def test_round_trip(players: int) -> None:
    state = setup(load_variant("standard"), players, seed=11)
    assert snapshots.loads(snapshots.dumps(state)) == state


def test_version_1_snapshot_still_loads() -> None:
    """A five-player game stored before snapshots had a version (its
    unplayed powers under "neutral") loads, and writes back as the current version."""
    text = (Path(__file__).parent / "data" / "snapshot_v1.json").read_text(encoding="utf-8")
    state = snapshots.loads(text)
    assert state == setup(load_variant("standard"), 5, seed=3)
    assert state.unplayed == frozenset({"GERMANY", "ITALY"})
    assert f'"version":{snapshots.VERSION}' in snapshots.dumps(state)


def test_newer_snapshot_is_refused() -> None:
    with pytest.raises(ValueError, match="newer"):
        snapshots.loads('{"version": 99}')


def test_a_dissolution_position_round_trips() -> None:
    """Favor, Embassies, exiles, build history and the year's kicks come back."""
    state = setup(load_variant("dissolution"), 10, seed=5).evolve(
        exiles=frozenset({"ROMANIA"}), built=(("POLAND", "BLR"),),
        kicked=frozenset({("POLAND", "NATO")}), retaliated=frozenset({("IRAN", "RUSSIA")}))
    assert state.embassies
    assert snapshots.loads(snapshots.dumps(state)) == state
