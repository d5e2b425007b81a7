"""Rings of maps other than the standard one: what an artwork leaves unsaid
is read from the file beside it, and every shipped map with rings has
the rings its artwork gives (running the generator again changes nothing)."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from engine.variant_file import load_variant
from judge.maps.rings import VARIANTS, fixes_for, variant_rings


def _with_rings() -> list[str]:
    """The shipped variants drawn from artwork whose file has rings, the
    standard map aside (tests/judge/maps/test_rings.py)."""
    names = []
    for path in sorted(VARIANTS.glob("*.toml")):
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        if "rings" in data and data.get("map", {}).get("artwork") and path.stem != "standard":
            names.append(path.stem)
    return names


def test_a_map_drawn_on_anothers_lines_takes_its_fixes() -> None:
    assert fixes_for("britain.ps") == fixes_for("standard.ps")
    assert fixes_for("slovenia.ps") == fixes_for("modern.ps")
    assert [(c.holder, c.lost) for c in fixes_for("standard.ps").cuts] == [("TYS", "ION")]


def test_an_artwork_without_a_file_needs_nothing_told() -> None:
    fixes = fixes_for("canton.ps")
    assert (fixes.cuts, fixes.faces, fixes.bridges) == ((), None, ())


def test_bridges_are_read_in_order() -> None:
    assert fixes_for("modern.ps").bridges == (
        ("DEN", "SWE"), ("BUL", "IST"), ("GRE", "IST"), ("ARA", "RED"))


@pytest.mark.slow
@pytest.mark.parametrize("variant", _with_rings())
def test_the_generator_reproduces_each_maps_rings(variant: str) -> None:
    rings, _ = variant_rings(variant)
    assert {code: tuple(ring) for code, ring in rings.items()} == dict(
        load_variant(variant).rings)


def test_the_shipped_fixes_files_name_artwork_that_is_shipped() -> None:
    folder = Path(__file__).parents[3] / "judge" / "maps" / "artwork"
    for path in folder.glob("*.rings.toml"):
        assert (folder / (path.name.removesuffix(".rings.toml") + ".ps")).exists(), path.name
