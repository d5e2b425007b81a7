"""Reading dpmap's PostScript map: a small file read exactly, and the
standard artwork agreeing with the standard variant's provinces."""

from __future__ import annotations

import tomllib
from pathlib import Path

from engine.map import Terrain
from engine.variant_file import load_variant
from judge.maps.postscript import ARTWORK, read_postscript

DATA = Path(__file__).parent / "data"


def test_a_small_map_is_read_exactly() -> None:
    art = read_postscript((DATA / "tiny.ps").read_text())
    expected = tomllib.loads((DATA / "tiny.toml").read_text())
    assert art.box == tuple(expected["box"])
    assert art.places == {code: tuple(xy) for code, xy in expected["places"].items()}
    assert art.centres == {code: tuple(xy) for code, xy in expected["centres"].items()}
    read = [(layer, path) for layer, paths in art.layers.items() for path in paths]
    assert len(read) == len(expected["paths"])
    for want in expected["paths"]:
        [path] = [p for layer, p in read if layer == want["layer"]]
        assert path.start == tuple(want["start"])
        assert path.segments == tuple(tuple(tuple(point) for point in segment)
                                      for segment in want["segments"])
        assert path.closed is want["closed"]


def test_the_standard_artwork_places_every_province_coast_and_centre() -> None:
    art = read_postscript((ARTWORK / "standard.ps").read_text())
    game_map = load_variant("standard")
    x0, y0, x1, y1 = art.box
    for code, province in game_map.provinces.items():
        if province.terrain is Terrain.IMPASSABLE:
            continue
        assert code in art.places, code
        for coast in province.coasts:
            assert f"{code}/{coast}" in art.places, f"{code}/{coast}"
        if province.is_centre:
            assert code in art.centres, code
    assert set(art.centres) == {c for c, p in game_map.provinces.items() if p.is_centre}
    for x, y in [*art.places.values(), *art.centres.values()]:
        assert x0 <= x <= x1 and y0 <= y <= y1
    assert art.layers["land"] and all(p.closed for p in art.layers["land"])
    assert art.layers["inner_border"] and not any(p.closed for p in art.layers["inner_border"])
