"""A stored position comes back exactly, for every way to play."""

from __future__ import annotations

import tomllib
from dataclasses import replace
from pathlib import Path

import pytest

from engine.diplomap.records import change_from_dict, change_to_dict
from engine.diplomap.state import DiplomapState
from engine.diplomap.state import of as diplomap
from engine.variant_file import load_variant
from engine.variants.dissolution.state import of as dissolution
from engine.variants.intercontinental.state import IntercontinentalState
from engine.variants.intercontinental.state import of as intercontinental
from engine.ways_to_play import setup
from judge import snapshots

DATA = Path(__file__).parent / "data"


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
    state = setup(load_variant("dissolution"), 10, seed=5)
    state = state.with_part(replace(
        dissolution(state), exiles=frozenset({"ROMANIA"}), built=(("POLAND", "BLR"),),
        kicked=frozenset({("POLAND", "NATO")}), retaliated=frozenset({("IRAN", "RUSSIA")})))
    assert dissolution(state).embassies
    assert snapshots.loads(snapshots.dumps(state)) == state


def test_an_intercontinental_position_keeps_its_named_homes() -> None:
    """Issue 22, bug 1: the additional home centres named (§9.1) and the
    players of a draw by the year cap (§2.2) survive the snapshot."""
    state = setup(load_variant("intercontinental"), 8, seed=4).evolve(
        drawn=("Blue", "Red")).with_part(IntercontinentalState(
            (("Russia", "GURY"), ("Turkey", "BAGH"))))
    again = snapshots.loads(snapshots.dumps(state))
    assert intercontinental(again).additional_homes == (("Russia", "GURY"), ("Turkey", "BAGH"))
    assert again == state


def test_a_diplomap_position_round_trips() -> None:
    """The board's changes (a split, a merge, a GM's name) and the map
    orders used this year come back, so each phase keeps its board."""
    data = tomllib.loads((Path(__file__).parent / "data" / "diplomap_changes.toml")
                         .read_text(encoding="utf-8"))
    changes = tuple(change_from_dict(c) for c in data["change"])
    assert [type(c).__name__ for c in changes] == ["Split", "Merge", "Rename"]
    state = setup(load_variant("standard"), 7, seed=2).with_part(
        DiplomapState(changes, frozenset({("AUSTRIA", "draw")})))
    again = snapshots.loads(snapshots.dumps(state))
    assert again == state
    assert diplomap(again).map_changes == changes
    assert [change_to_dict(c) for c in changes] == data["change"]


def test_a_snapshot_before_diplomap_is_on_the_base_map() -> None:
    text = (Path(__file__).parent / "data" / "snapshot_v1.json").read_text(encoding="utf-8")
    state = snapshots.loads(text)
    assert state.parts == ()


def test_a_version_3_dissolution_snapshot_still_loads() -> None:
    """Version 3 wrote Dissolution's fields flat beside the standard game's:
    they come back as Dissolution's part, and write back as version 4."""
    text = (DATA / "snapshot_v3_dissolution.json").read_text(encoding="utf-8")
    state = snapshots.loads(text)
    game_map = load_variant("dissolution")
    fresh = setup(game_map, 10, seed=5)
    part = dissolution(state)
    assert part.embassies == dissolution(fresh).embassies
    assert (part.exiles, part.silenced) == (frozenset({"ROMANIA"}), frozenset({"ROMANIA"}))
    assert part.built == (("POLAND", "BLR"),)
    assert part.kicked == frozenset({("POLAND", "NATO")})
    assert part.retaliated == frozenset({("IRAN", "RUSSIA")})
    assert (state.units, state.owners, state.seats) == (fresh.units, fresh.owners, fresh.seats)
    assert snapshots.loads(snapshots.dumps(state)) == state
    assert f'"version":{snapshots.VERSION}' in snapshots.dumps(state)


def test_a_version_3_diplomap_snapshot_still_loads() -> None:
    text = (DATA / "snapshot_v3_diplomap.json").read_text(encoding="utf-8")
    state = snapshots.loads(text)
    data = tomllib.loads((DATA / "diplomap_changes.toml").read_text(encoding="utf-8"))
    assert diplomap(state).map_changes == tuple(change_from_dict(c) for c in data["change"])
    assert diplomap(state).map_orders_used == frozenset({("AUSTRIA", "draw")})
    assert snapshots.loads(snapshots.dumps(state)) == state


def test_an_unknown_part_is_refused_by_name() -> None:
    data = snapshots.state_to_dict(setup(load_variant("standard"), 7, seed=1))
    data["parts"] = {"no-such-variant": {}}
    with pytest.raises(KeyError, match="no-such-variant"):
        snapshots.state_from_dict(data)
