"""Reading any dpmap artwork: a small hand-made map read exactly (paint
order, scales, transformed shapes, arcs, kinds, off-board boxes, areas),
files of another kind refused with the reason, and every shipped artwork
read, with the areas the survey finds for it."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from judge.maps.postscript import ARTWORK, read_postscript
from judge.maps.shapes import province_shapes
from judge.maps.survey import artwork_provinces, survey

DATA = Path(__file__).parent / "data" / "artwork"
LITTLE = tomllib.loads((DATA / "little.toml").read_text(encoding="utf-8"))
SURVEY: dict[str, Any] = tomllib.loads((DATA / "survey.toml").read_text(encoding="utf-8"))["survey"]
SHIPPED = sorted(ARTWORK.glob("*.ps"))


def _points(segments: list[list[list[float]]]) -> tuple[tuple[tuple[float, ...], ...], ...]:
    return tuple(tuple(tuple(point) for point in segment) for segment in segments)


def test_a_little_map_is_read_exactly() -> None:
    art = read_postscript((DATA / "little.ps").read_text(encoding="latin-1"))
    assert art.box == tuple(LITTLE["box"])
    assert art.background == LITTLE["background"]
    assert art.page_scale == LITTLE["page_scale"]
    assert art.places == {code: tuple(xy) for code, xy in LITTLE["places"].items()}
    assert art.centres == {code: tuple(xy) for code, xy in LITTLE["centres"].items()}
    assert art.kinds == LITTLE["kinds"]
    assert art.name_colours == LITTLE["name_colours"]
    assert [layer.name for layer in art.paint] == [want["name"] for want in LITTLE["layers"]]
    for layer, want in zip(art.paint, LITTLE["layers"], strict=True):
        assert (layer.role, layer.fill, layer.stroke) == (
            want["role"], want.get("fill"), want["stroke"]), layer.name
        assert layer.width == pytest.approx(want["width"]), layer.name
        assert layer.dash == pytest.approx(tuple(want.get("dash", ()))), layer.name
        first = layer.paths[0]
        assert first.start == pytest.approx(tuple(want["start"])), layer.name
        assert first.segments == _points(want["segments"]), layer.name
        assert first.closed is want["closed"], layer.name
    [(code, box)] = art.off_board.items()
    want_box = LITTLE["off_board"][code]
    assert box.caption == want_box["caption"]
    xs = [box.outline.start[0], *(p[0] for s in box.outline.segments for p in s)]
    ys = [box.outline.start[1], *(p[1] for s in box.outline.segments for p in s)]
    assert (min(xs), min(ys), max(xs), max(ys)) == pytest.approx(tuple(want_box["bounds"]))
    assert box.outline.closed


def test_the_little_maps_provinces_get_their_areas() -> None:
    art = read_postscript((DATA / "little.ps").read_text(encoding="latin-1"))
    shapes = province_shapes(art, artwork_provinces(art))
    found = {code: sorted([round(v) for v in part.bounds] for part in shape.geoms)
             for code, shape in shapes.items()}
    assert found == {code: sorted(parts) for code, parts in LITTLE["areas"].items()}


@pytest.mark.parametrize(("name", "reason"), [
    ("not_a_map.ps", "no territory positions"),
    ("no_form.ps", "no MapForm"),
])
def test_a_file_of_another_kind_is_refused_with_the_reason(name: str, reason: str) -> None:
    with pytest.raises(ValueError, match=reason):
        read_postscript((DATA / name).read_text(encoding="latin-1"))


@pytest.mark.parametrize("path", SHIPPED, ids=[p.name for p in SHIPPED])
def test_every_shipped_artwork_reads(path: Path) -> None:
    art = read_postscript(path.read_text(encoding="latin-1"))
    x0, y0, x1, y1 = art.box
    assert x1 - x0 > 100 and y1 - y0 > 100
    assert art.layers["land"] or art.background == "LandBrown"
    for code, (x, y) in [*art.places.items(), *art.centres.items()]:
        assert x0 <= x <= x1 and y0 <= y <= y1, (path.name, code)
    assert sorted(set(art.centres) - set(art.places)) == SURVEY[path.name].get(
        "centres_without_place", []), path.name


def test_every_shipped_artwork_is_surveyed() -> None:
    assert sorted(SURVEY) == [p.name for p in SHIPPED]


@pytest.mark.slow
@pytest.mark.parametrize("path", SHIPPED, ids=[p.name for p in SHIPPED])
def test_each_artwork_gives_its_provinces_areas(path: Path) -> None:
    art = read_postscript(path.read_text(encoding="latin-1"))
    found = survey(art, artwork_provinces(art))
    want = SURVEY[path.name]
    assert (found.provinces, list(found.without_area), list(found.off_area)) == (
        want["provinces"], want["without"], want["off_area"])


def test_without_an_info_table_the_places_come_from_visit_territories() -> None:
    text = (DATA / "little.ps").read_text(encoding="latin-1")
    bare = "\n".join(line for line in text.splitlines()
                     if not (line.startswith("% ") and line[2:].strip()[:1].isdigit()))
    art = read_postscript(bare)
    visited = {code: tuple(xy) for code, xy in LITTLE["places"].items() if code in LITTLE["kinds"]}
    assert art.places == visited
    assert art.names == {code: code for code in visited}
