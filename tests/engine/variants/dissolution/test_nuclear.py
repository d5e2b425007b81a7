"""Dissolution's nuclear powers as its rules module reads them from the
[favor] table: slices, the US Navy's partnership with NATO, starting Favor,
and the territories the map marks for them."""

from __future__ import annotations

from engine.variant_file import load_variant
from engine.variants import rules_for
from engine.variants.dissolution.nuclear import nuclear_powers

MAP = load_variant("dissolution")
NUCLEAR = nuclear_powers(MAP)


def test_the_nuclear_powers_are_the_slices_of_the_favor_map() -> None:
    assert NUCLEAR.slices == {"NATO": "N", "US_NAVY": "U", "ISRAEL": "I", "INDIA": "B",
                              "RUSSIA": "R"}  # §11.1.1
    assert all(MAP.powers[n].ordered_by_bids for n in NUCLEAR.slices)
    assert not NUCLEAR.is_nuclear("HUNGARY") and not NUCLEAR.is_nuclear("EGYPT")


def test_the_us_navy_shares_natos_offences_and_gives_its_permission() -> None:
    """§11.6.4: NATO's partner is nobody; the US Navy's is NATO."""
    assert NUCLEAR.partner("US_NAVY") == "NATO"
    assert NUCLEAR.partner("NATO") is None
    assert NUCLEAR.partnered_by("NATO") == ("US_NAVY",)
    assert NUCLEAR.granting("NATO") == {"NATO", "US_NAVY"}
    assert NUCLEAR.granting("RUSSIA") == {"RUSSIA"}


def test_every_player_starts_with_favor_with_each_nuclear_power() -> None:
    assert NUCLEAR.starting_favor("ETHIOPIA", "RUSSIA") == 0  # §7.2
    assert NUCLEAR.starting_favor("IRAN", "INDIA") == 3  # §7.3
    played = {n for n, p in MAP.powers.items() if not p.ordered_by_bids}
    assert set(NUCLEAR.start) == played
    assert all(set(values) == set(NUCLEAR.slices) for values in NUCLEAR.start.values())


def test_the_map_marks_the_nuclear_territories_and_only_them() -> None:
    marked = rules_for(MAP).marked_territories(MAP)
    assert set(marked) == set(NUCLEAR.slices)
    assert marked["US_NAVY"] == ()  # §8.5.1: no territory, a line of its own all the same
    assert set(marked["ISRAEL"]) == {"TEL"}
    assert rules_for(load_variant("standard")).marked_territories(load_variant("standard")) == {}
