"""Province shapes cut from the standard artwork's lines: every province
on land gets one, around its own label point, and no two overlap."""

from __future__ import annotations

from itertools import combinations

from shapely import Point

from engine.map import Terrain
from engine.variant_file import load_variant
from judge.maps.postscript import ARTWORK, read_postscript
from judge.maps.shapes import province_shapes


def test_every_land_province_has_a_shape_of_its_own() -> None:
    art = read_postscript((ARTWORK / "standard.ps").read_text())
    game_map = load_variant("standard")
    kinds = {code: p.terrain is Terrain.WATER for code, p in game_map.provinces.items()
             if p.terrain is not Terrain.IMPASSABLE}
    shapes = province_shapes(art, kinds)
    land = [code for code, water in kinds.items() if not water]
    for code in land:
        assert code in shapes, code
        assert shapes[code].contains(Point(art.places[code])), code
        # one region of the map, not several merged for a missing border
        others = [c for c in kinds if c != code and shapes[code].contains(Point(art.places[c]))]
        assert others == [], (code, others)
    for first, second in combinations(land, 2):
        assert shapes[first].intersection(shapes[second]).area < 1.0, (first, second)
