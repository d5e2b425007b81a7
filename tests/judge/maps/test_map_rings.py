"""Rings of maps other than the standard one: what an artwork leaves unsaid
is read from the file beside it, imported maps have rings their artwork
gives (running the generator again changes nothing), and Diplomap splits
a province of an imported map and draws the parts."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.diplomap.in_force import apply_changes, with_diplomap
from engine.diplomap.state import of as diplomap
from engine.diplomap.values import Draw, Side, Split
from engine.game import adjudicate
from engine.rings import check_rings
from engine.state import GameState
from engine.variant_file import load_variant, shipped_variants
from engine.variants import rules_for
from judge.maps.render import render_svg
from judge.maps.rings import fixes_for, variant_rings
from judge.maps.scene import Scene


def _with_rings() -> list[str]:
    """The shipped variants drawn from artwork whose file has rings, the
    standard map aside (tests/judge/maps/test_rings.py). Read when a test
    asks, not at collection: loading every map took seconds of each
    worker's collection."""
    return sorted(name for name in shipped_variants() if name != "standard"
                  and (game_map := load_variant(name)).rings
                  and game_map.drawing is not None and game_map.drawing.artwork)


# maps whose rings are derived afresh in the slow test, one per kind of
# fixes: Modern's bridges, none for Canton, Britain's the standard map's
REDERIVED = ["modern", "canton", "britain"]


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


def test_imported_maps_have_rings() -> None:
    with_rings = _with_rings()
    assert set(REDERIVED) <= set(with_rings)
    for name in with_rings:  # loading checks the rings against the adjacency
        assert load_variant(name).rings, name


@pytest.mark.slow
@pytest.mark.parametrize("variant", REDERIVED)
def test_the_generator_reproduces_each_maps_rings(variant: str) -> None:
    rings, _ = variant_rings(variant)
    assert {code: tuple(ring) for code, ring in rings.items()} == dict(
        load_variant(variant).rings)


@pytest.mark.parametrize(("variant", "province"), [("modern", "POD"), ("canton", "YUN")])
def test_diplomap_splits_a_province_of_an_imported_map_and_draws_it(
        variant: str, province: str) -> None:
    game_map = with_diplomap(load_variant(variant))
    state = rules_for(game_map).opening(game_map, GameState.initial(game_map))
    ring = game_map.rings[province]
    draw = Draw((province, ring[0]), (province, ring[len(ring) // 2]), None, Side(compass="N"))
    power = sorted(game_map.powers)[0]
    resolution = adjudicate(game_map, state, {}, map_orders={power: [draw]})
    [split] = diplomap(resolution.next).map_changes
    assert isinstance(split, Split) and split.province == province
    board = apply_changes(game_map, (split,))
    problems: list[str] = []
    check_rings(lambda path, key, text: problems.append(text),
                {c: list(r) for c, r in board.rings.items()}, board.provinces,
                {c: set(d) for c, d in board.army_moves.items()},
                {c: set(d) for c, d in board.fleet_moves.items()},
                {c: set(d) for c, d in board.borders.items()})
    assert problems == []
    svg = render_svg(game_map, Scene("g", resolution.next))
    for part in split.parts:
        assert f'data-province="{part}"' in svg, part


def test_the_shipped_fixes_files_name_artwork_that_is_shipped() -> None:
    folder = Path(__file__).parents[3] / "judge" / "maps" / "artwork"
    for path in folder.glob("*.rings.toml"):
        assert (folder / (path.name.removesuffix(".rings.toml") + ".ps")).exists(), path.name
