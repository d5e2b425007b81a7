"""The provinces' rings (engine/rings.py): the shipped standard rings pass
the check and agree with rings read off the map by hand, and each broken
copy in data/rings.toml is reported exactly."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from engine.rings import EDGE
from engine.variant_file import VariantError, load_variant, parse_variant

DATA = tomllib.loads((Path(__file__).parent / "data" / "rings.toml").read_text(encoding="utf-8"))
STANDARD = Path(__file__).parents[2] / "engine" / "variants" / "standard.toml"
CASES: list[dict[str, Any]] = DATA["cases"]


def same_ring(one: tuple[str, ...] | list[str], other: tuple[str, ...] | list[str]) -> bool:
    """Equal as cycles: a ring may be written from any entry, never backwards."""
    one, other = list(one), list(other)
    return len(one) == len(other) and any(one[i:] + one[:i] == other
                                          for i in range(len(one)))


def test_the_standard_map_has_a_checked_ring_for_every_province() -> None:
    game_map = load_variant("standard")
    assert set(game_map.rings) == set(game_map.provinces)


@pytest.mark.parametrize("code", sorted(DATA["hand"]))
def test_a_ring_read_off_the_map_by_hand_matches(code: str) -> None:
    shipped = load_variant("standard").rings[code]
    assert same_ring(shipped, DATA["hand"][code]), shipped


def test_the_edge_runs_where_the_map_ends() -> None:
    rings = load_variant("standard").rings
    assert {c for c, r in rings.items() if EDGE in r} == {
        "ARM", "BAR", "EAS", "ION", "MAO", "MOS", "NAF", "NAO", "NWG", "SEV", "STP",
        "SYR", "TUN"}


def test_a_variant_without_rings_has_none() -> None:
    text = STANDARD.read_text(encoding="utf-8")
    assert parse_variant(text[:text.index("\n[rings]")], "standard.toml").rings == {}


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_a_broken_ring_is_reported_exactly(case: dict[str, Any]) -> None:
    text = STANDARD.read_text(encoding="utf-8")
    for old, new in case["replace"]:
        assert old in text, (case["name"], old)
        text = text.replace(old, new)
    with pytest.raises(VariantError) as caught:
        parse_variant(text, "standard.toml")
    problems = caught.value.problems
    assert [f"{p.where}: {p.message}" for p in problems] == case["problems"]
    assert all(p.line is not None for p in problems)
