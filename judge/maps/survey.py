"""How well the judge reads an artwork: whether it reads at all, which
provinces get an area of their own, and which share one (a border the
artwork does not draw, or draws a little off).

    python -m judge.maps.survey FILE.ps ...      one line per file

Without a variant file the provinces are the artwork's own places, water
where DPJudge writes the name as a sea's (judge/maps/postscript.py
``is_water_named``); with ``--variant NAME`` (one file) the variant's.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from shapely import Point as ShapelyPoint

from engine.map import Terrain
from engine.variant_file import load_variant
from judge.maps.postscript import Point, PostScriptMap, read_postscript, variant_points
from judge.maps.shapes import province_shapes


@dataclass(frozen=True)
class Survey:
    provinces: int  # the provinces looked at (with a point on the artwork)
    without_area: tuple[str, ...]  # provinces no face was found for (a border missing)
    # provinces whose point lies off their area, in a neighbour's (Ambition's
    # MIL, written across its border) or off the coast: where DPJudge draws
    # the unit, as the judge does
    off_area: tuple[str, ...]


def artwork_provinces(art: PostScriptMap) -> dict[str, bool]:
    """The artwork's own provinces (places that are not coasts): code -> water."""
    return {code: art.is_water_named(code) for code in art.places if "/" not in code}


def survey(art: PostScriptMap, provinces: Mapping[str, bool],
           points: Mapping[str, Point] | None = None,
           centres: Mapping[str, Point] | None = None) -> Survey:
    """``points``, ``centres``: the variant's, as for shapes.province_shapes."""
    places = art.places if points is None else points
    looked_at = {code: water for code, water in provinces.items() if code in places}
    shapes = province_shapes(art, looked_at, places, centres)
    without = tuple(sorted(code for code in looked_at if code not in shapes))
    off = tuple(sorted(code for code, shape in shapes.items()
                       if not shape.contains(ShapelyPoint(places[code]))))
    return Survey(len(looked_at), without, off)


def variant_provinces(name: str, art: PostScriptMap
                      ) -> tuple[dict[str, bool], dict[str, Point], dict[str, Point]]:
    """The variant's provinces (code -> water; impassable ones left out) and
    its points on the artwork."""
    game_map = load_variant(name)
    provinces = {code: prov.terrain is Terrain.WATER for code, prov in game_map.provinces.items()
                 if prov.terrain is not Terrain.IMPASSABLE}
    return (provinces, *variant_points(art, game_map.drawing.units, game_map.drawing.centres))


def main(argv: list[str]) -> int:
    variant = argv[argv.index("--variant") + 1] if "--variant" in argv else None
    files = [a for a in argv if a.endswith(".ps")]
    for file in files:
        try:
            art = read_postscript(Path(file).read_text(encoding="latin-1"))
        except ValueError as error:
            print(f"{Path(file).name}: unreadable: {error}")
            continue
        found = (survey(art, *variant_provinces(variant, art)) if variant
                 else survey(art, artwork_provinces(art)))
        print(f"{Path(file).name}: {found.provinces} provinces, "
              f"{found.provinces - len(found.without_area)} with an area; "
              f"without: {' '.join(found.without_area) or '-'}; "
              f"points off their area: {' '.join(found.off_area) or '-'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
