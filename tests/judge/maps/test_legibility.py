"""The maps a results mail carries, measured for legibility (issue 24;
the checks and their thresholds are legibility.py's): every shipped
variant's opening (with Dissolution's Favor map, and the standard map
under Diplomap's layer), positions of random games a few phases in, and
Diplomap boards after random changes.

A check a map fails today is listed with what fails (``FAILING``): the
case's test then requires that check to fail, so when the map is fixed
the test fails saying so, and the line is removed. A case's checks are one
test: its pictures are drawn once a process, and checks of one case run
by two xdist workers drew them twice (half a minute for Intercontinental's
played game). Contacts the standard map's artwork is
drawn with and that read well are accepted by name
(data/legibility.toml), each with its measure.

``python -m tests.judge.maps.test_legibility`` prints each case's
measurements (the table of issue 24's report).
"""

from __future__ import annotations

import dataclasses
import math
import random
import re
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from shapely.geometry.base import BaseGeometry

from engine.diplomap.state import DiplomapState
from engine.game import adjudicate
from engine.map import GameMap
from engine.state import Dislodged, GameState
from engine.variants import rules_for
from engine.ways_to_play import setup
from judge.maps import Scene, render_other_board
from judge.maps.render import render_svg
from judge.maps.scene import scene_after
from judge.maps.views import has_views, overview_svg, view_svg
from tests.judge.maps import legibility as L
from tests.judge.maps.ciede2000 import delta_e00, difference, lab
from tests.judge.maps.random_boards import Seeded, random_changes
from tests.judge.test_variant_walk import WALKS, Walk

DATA = Path(__file__).parent / "data"
ACCEPTED = tomllib.loads((DATA / "legibility.toml").read_text("utf-8"))["accepted"]
PLAYED_PHASES = 6  # the phases of a random game measured, after its opening
SEEDS = (1, 2)
DIPLOMAP_BOARDS = 6  # random changed boards measured


@dataclass(frozen=True)
class Picture:
    map: str  # the variant's map's name
    title: str
    svg: str
    areas: Mapping[str, BaseGeometry]  # the board's province areas (beyond the document's)


def _walk(name: str) -> Walk:
    return next(w for w in WALKS if w.name == name)


def _opening(walk: Walk, seed: int = 1) -> GameState:
    game_map = walk.game_map
    seats = len(rules_for(game_map).opening(game_map, GameState.initial(game_map)).seats)
    return setup(game_map, seats, seed=seed)


def _main(game_map: GameMap, scene: Scene) -> list[Picture]:
    """The pictures a results mail carries: the map, or a large board's
    overview and each of its views (judge/maps/views.py)."""
    areas = L.board_areas(game_map, scene.position)
    title = f"{game_map.name} {scene.phase}"
    if not has_views(game_map):
        return [Picture(game_map.name, title, render_svg(game_map, scene), areas)]
    return [Picture(game_map.name, f"{title} overview", overview_svg(game_map, scene), areas),
            *(Picture(game_map.name, f"{title} {view.name}", view_svg(game_map, scene, view),
                      areas) for view in game_map.drawing.views)]


def _other(game_map: GameMap, scene: Scene) -> list[Picture]:
    svg = render_other_board(game_map, scene, "svg")
    return [] if svg is None else [Picture(game_map.name,
                                           f"{game_map.name} {scene.phase} other board",
                                           svg.decode("utf-8"), {})]


@cache
def _played(name: str, seed: int) -> tuple[Scene, ...]:
    """The scenes of a random game: its opening, then ``PLAYED_PHASES`` phases."""
    walk = _walk(name)
    rng = random.Random(seed)
    state = _opening(walk, seed)
    scenes = [Scene("legibility", state)]
    for _ in range(PLAYED_PHASES):
        lines = walk.lines(rng, walk.game_map, state)
        resolution = adjudicate(walk.game_map, state, lines.orders, lines.bids,
                                map_orders=lines.map_orders)
        scenes.append(scene_after("legibility", resolution))
        state = resolution.next
        if resolution.winner or state.drawn:
            break
    return tuple(scenes)


def _dislodged_everywhere(state: GameState) -> GameState:
    """Beside every unit, another power's unit it has dislodged: where a
    results mail draws a retreat phase's dislodged units."""
    powers = sorted({u.power for u in state.units})
    return dataclasses.replace(state, dislodged=tuple(
        Dislodged(dataclasses.replace(u, power=powers[(powers.index(u.power) + 1) % len(powers)]),
                  u.province) for u in state.units))


@cache
def pictures(case: str) -> tuple[Picture, ...]:
    """The pictures of a case (a variant's map, opening or played)."""
    variant, _, when = case.partition(": ")
    favor = variant.endswith(" Favor map")
    walk = _walk(variant.removesuffix(" Favor map"))
    game_map = walk.game_map
    if when == "opening":
        scenes: tuple[Scene, ...] = (Scene("legibility", _opening(walk)),)
    elif when == "played":
        scenes = tuple(s for seed in SEEDS for s in _played(walk.name, seed)[1:])
    elif when == "dislodged":
        scenes = (Scene("legibility", _dislodged_everywhere(_opening(walk))),)
    else:  # "random boards": Diplomap's board changed at random, the opening's centres on it
        rng = random.Random(24)
        opening = dataclasses.replace(_opening(walk), units=())
        scenes = tuple(Scene("legibility", opening.with_part(DiplomapState(
            random_changes(game_map, Seeded(rng))))) for _ in range(DIPLOMAP_BOARDS))
    found: list[Picture] = []
    for scene in scenes:
        found += _other(game_map, scene) if favor else _main(game_map, scene)
    return tuple(found)


Check = Callable[[L.Drawn, Mapping[str, BaseGeometry]], list[L.Violation]]
CHECKS: dict[str, Check] = {
    "label size": lambda drawn, areas: L.small_labels(drawn),
    "overlap": L.overlaps,
    "border": L.border_contacts,
    "outside": L.markers_outside,
    "colour": lambda drawn, areas: L.colour_clashes(drawn),
}

@cache
def _base_names(map_name: str) -> frozenset[str]:
    return frozenset(next(w for w in WALKS if w.game_map.name == map_name).game_map.provinces)


def _new_names(drawn: L.Drawn, areas: Mapping[str, BaseGeometry],
               map_name: str) -> list[L.Violation]:
    """Diplomap's new provinces' names: each inside its part, clear of its borders."""
    new = {label.text for label in drawn.labels} - _base_names(map_name)
    return L.labels_outside(drawn, areas, new) + L.labels_on_borders(drawn, areas, new)


CASES = ["standard: opening", "standard: played", "standard: dislodged",
         "dissolution: opening", "dissolution: played", "dissolution: dislodged",
         "dissolution Favor map: opening", "dissolution Favor map: played",
         "intercontinental: opening", "intercontinental: played",
         "intercontinental: dislodged",
         "standard with Diplomap: opening", "standard with Diplomap: played",
         "standard with Diplomap: random boards"]
SLOW = {"played", "random boards"}

# (case, check) -> what fails today; the lead removes each line as its fix lands
FAILING: dict[tuple[str, str], str] = {
}


def _accepted(map_name: str, violation: L.Violation) -> bool:
    return any(a["map"] == map_name and a["check"] == violation.check
               and re.search(a["pattern"], violation.message)
               and a.get("at_least", -math.inf) <= violation.value <= a.get("at_most", math.inf)
               for a in ACCEPTED)


@cache
def drawn(case: str) -> tuple[tuple[Picture, L.Drawn], ...]:
    return tuple((picture, L.read(picture.svg)) for picture in pictures(case))


def violations(case: str, check: str) -> list[str]:
    found = []
    for picture, drawn_ in drawn(case):
        made = (_new_names(drawn_, picture.areas, picture.map) if check == "new names"
                else CHECKS[check](drawn_, picture.areas))
        found += [f"{picture.title}: {v}" for v in made if not _accepted(picture.map, v)]
    return found


def _checks(case: str) -> list[str]:
    # Diplomap's new names are laid out by the judge, the base map's by its artwork
    diplomap = "Diplomap" in case and not case.endswith("opening")
    return [*CHECKS, *(["new names"] if diplomap else [])]


def _params() -> list[Any]:  # pytest.param's ParameterSet is not public
    return [pytest.param(case, id=case, marks=[pytest.mark.slow]
                         if case.partition(": ")[2] in SLOW else [])
            for case in CASES]


@pytest.mark.parametrize("case", _params())
def test_the_map_is_legible_at_mail_size(case: str) -> None:
    found = {check: violations(case, check) for check in _checks(case)}
    failing = {check: reason for (c, check), reason in FAILING.items() if c == case}
    fixed = sorted(check for check in failing if not found[check])
    assert not fixed, f"issue 24: {fixed} pass now: remove them from FAILING"
    failed = {check: made for check, made in found.items() if made and check not in failing}
    assert not failed, "\n".join(f"{check}: {len(made)} found:\n" + "\n".join(made[:20])
                                 for check, made in failed.items())


# -- the instruments -------------------------------------------------------------

CIEDE = tomllib.loads((DATA / "ciede2000.toml").read_text("utf-8"))


@pytest.mark.parametrize(("one", "two", "expected"), CIEDE["pairs"])
def test_ciede2000_gives_the_published_differences(one: list[float], two: list[float],
                                                   expected: float) -> None:
    assert delta_e00(tuple(one), tuple(two)) == pytest.approx(expected, abs=1e-4)  # type: ignore[arg-type]
    assert delta_e00(tuple(two), tuple(one)) == pytest.approx(expected, abs=1e-4)  # type: ignore[arg-type]


@pytest.mark.parametrize(("colour", "expected"), CIEDE["srgb"])
def test_srgb_colours_convert_to_the_published_cielab(colour: str,
                                                      expected: list[float]) -> None:
    assert lab(colour) == pytest.approx(tuple(expected), abs=0.01)
    assert difference(colour, colour) == 0.0


SMALL = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 500 100" font-family="DejaVu Sans">
<g class="labels" font-size="10" text-anchor="middle"><text x="50" y="50">ABC</text>
<text x="200" y="50" font-size="4">DEF</text></g>
<g transform="translate(300 0) scale(2)"><text class="label" x="20" y="30" font-size="5">GHI</text>
</g>
<g class="units"><g class="unit army" data-power="A" data-location="ONE">
<circle cx="400" cy="80" r="5" fill="#ff0000" stroke="#000000" stroke-width="1"/></g>
<g class="unit fleet" data-power="B" data-location="ONE">
<path d="M404 80l16 0l0 5z" fill="#fe0101" stroke="#000000" stroke-width="1"/></g></g>
<g class="centres"><circle class="centre" data-province="ABC" cx="50" cy="46" r="3"
 fill="#ffffff" stroke="#000000" stroke-width="1"/></g>
</svg>"""


def test_the_instrument_measures_names_markers_and_colours() -> None:
    """A document made for the purpose, shown 1000 px wide (2 px a unit):
    names of font 10, 4 and 5 scaled twice are 20, 8 and 20 px of font;
    the centre sits on the name ABC; the two units overlap; their colours
    are near."""
    drawn = L.read(SMALL)
    assert drawn.scale == 2
    heights = {label.text: label for label in drawn.labels}
    assert [heights[t].font_px for t in ("ABC", "DEF", "GHI")] == [20, 8, 20]
    box = 1.164  # DejaVu Sans: ascent and descent, in font sizes
    assert heights["ABC"].height_px == pytest.approx(20 * box, rel=0.02)
    assert [v.message.split("'")[1] for v in L.small_labels(drawn)] == ["DEF"]
    found = {v.message.split(":")[0] for v in L.overlaps(drawn)}
    assert found == {"marker on marker", "marker on a name"}, L.overlaps(drawn)
    clash = L.colour_clashes(drawn)
    assert any("B's units #fe0101 and A's units #ff0000: ΔE00 0.2" in v.message
               for v in clash), clash
    assert L.read(SMALL, display_width=2000).labels[1].font_px == 16


def _grouped(groups: dict[str, tuple[str, ...]]) -> str:
    """A document of colour groups (as templates/map.svg.j2 lists them), a
    unit in each colour and land owned at 0.8."""
    listed = "".join(f'<g data-group="{group}" data-colours="{" ".join(colours)}"/>'
                     for group, colours in groups.items())
    units = "".join(
        f'<g class="unit army" data-power="{group}_{n}" data-location="L{x}"><circle cx="{x}" '
        f'cy="50" r="5" fill="{colour}" stroke="#000000" stroke-width="1"/></g>'
        for x, (group, n, colour) in enumerate(
            ((g, n, c) for g, cs in groups.items() for n, c in enumerate(cs)), 1))
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 500 100">'
            f'<metadata class="colour-groups">{listed}</metadata><g class="owners">'
            f'<path class="owned" data-province="ONE" d="M0 0L9 0L9 9Z" fill="#b03a2e" '
            f'fill-opacity="0.8"/></g><g class="units">{units}</g></svg>')


def test_a_colour_groups_shades_are_one_players() -> None:
    """Red and Orange close (Red's second shade and Orange's first, ΔE00
    10.0 as units, 9.2 as land at 0.8), Green far. Each group's own shades
    are 8.5-11.5 apart: under the 12 that holds players apart, over the 6
    that a group's shades keep; only the pair across groups clashes, until
    two of Orange's shades come within 6 of each other."""
    groups = {"Red": ("#b03a2e", "#d0584a"), "Orange": ("#d96a3b", "#e08a4a"),
              "Green": ("#1d6b3a", "#2e8b57")}
    assert _pairs(L.colour_clashes(L.read(_grouped(groups)))) == [
        "Red_1's units #d0584a and Orange_0's units #d96a3b: ΔE00 10.0",
        "Red_1's units and Orange_0's units as owned land: ΔE00 9.2"]
    groups["Orange"] = ("#d96a3b", "#e07a45")
    assert [p for p in _pairs(L.colour_clashes(L.read(_grouped(groups)))) if "shades" in p] == [
        "Orange_0's units #d96a3b and Orange_1's units #e07a45, shades of Orange: ΔE00 4.7",
        "Orange_0's units and Orange_1's units as owned land, shades of Orange: ΔE00 3.9"]


def _pairs(found: list[L.Violation]) -> list[str]:
    """The violations' messages without the blended colours of owned land."""
    return [re.sub(r" \(#\w+, #\w+\)", "", v.message) for v in found]


def test_a_marker_on_its_border_or_outside_its_province_is_found() -> None:
    areas = {"ONE": L.area_shape("M380 60L420 60L420 100L380 100Z"),
             "TWO": L.area_shape("M420 60L460 60L460 100L420 100Z")}
    drawn = L.read(SMALL)
    touching = L.border_contacts(drawn, areas)
    assert [v.message.split(" is ")[0] for v in touching] == ["unit ONE (B)"], touching
    moved = L.read(SMALL.replace('cx="400"', 'cx="440"'))
    outside = L.markers_outside(moved, areas)
    assert [v.message.split(",")[0] for v in outside] == ["unit ONE (A) stands in TWO"]


# a name written beside its province ONE (in TWO), with a leader into ONE;
# shown 1000 px wide, 2 px a unit
BESIDE = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 500 100" font-family="DejaVu Sans">
<g class="names" font-size="6" text-anchor="middle">
<path class="leader" data-province="ONE" d="M373 60L320 60" stroke="#000000" stroke-width="0.5"/>
<text class="name" data-province="ONE" x="380" y="62">ONE</text></g>
<g class="units"><g class="unit army" data-power="A" data-location="ONE">
<circle cx="310" cy="50" r="4" fill="#ff0000" stroke="#000000" stroke-width="1"/></g></g>
</svg>"""
BESIDE_AREAS = {"ONE": L.area_shape("M300 40L340 40L340 80L300 80Z"),
                "TWO": L.area_shape("M340 40L420 40L420 80L340 80Z")}


@pytest.mark.parametrize(("change", "found"), [
    ((), set()),  # the leader starts at the name and ends inside ONE, off its borders
    (('L320 60"', 'L345 60"'), {"has its leader end"}),  # in TWO
    (('L320 60"', 'L339.8 60"'), {"'s leader ends"}),  # on their border
    (('d="M373 60', 'd="M360 48'), {"'s leader starts"}),  # not from the name
    (('x="380"', 'x="346"', 'd="M373 60', 'd="M339 60'), {"is written"}),  # across the border
    (('cx="310" cy="50"', 'cx="322" cy="60"'), set()),  # ONE's unit at its end: it points there
    (('data-location="ONE"', 'data-location="TWO"', 'cx="310" cy="50"', 'cx="355" cy="60"'),
     {"a leader over a marker or a name"}),  # TWO's unit on it
])
def test_a_name_beside_its_province_is_held_to_its_leader(change: tuple[str, ...],
                                                          found: set[str]) -> None:
    """A name too big for its province (a small Diplomap part) may be written
    beside it with a leader line, as an atlas names a small island: the
    leader starts at the name and ends inside the province off its borders,
    the name keeps off every border, and the leader crosses nothing drawn
    but the province's own markers."""
    svg = BESIDE
    for old, new in zip(change[::2], change[1::2], strict=True):
        svg = svg.replace(old, new)
    drawn = L.read(svg)
    assert drawn.leaders.keys() == {"ONE"}
    made = (L.labels_outside(drawn, BESIDE_AREAS, {"ONE"})
            + L.labels_on_borders(drawn, BESIDE_AREAS, {"ONE"})
            + L.overlaps(drawn, BESIDE_AREAS))
    kinds = {kind for v in made for kind in ("has its leader end", "'s leader ends",
                                             "'s leader starts", "is written",
                                             "a leader over a marker or a name")
             if kind in v.message}
    assert kinds == found, [str(v) for v in made]


def table() -> str:
    """Each case's measurements: the smallest name, overlaps, the closest
    colours, markers outside and on borders."""
    rows = ["case | least name px | overlaps | closest colours (ΔE00) | outside | "
            "on a border | areas unknown"]
    for case in CASES:
        worst: dict[str, float] = {"label": math.inf, "colour": math.inf}
        counts = {"overlaps": 0, "outside": 0, "border": 0, "unchecked": 0}
        closest = ""
        for picture, drawn_ in drawn(case):
            m = L.measure(drawn_, picture.areas)
            kept = [v for v in m.violations if not _accepted(picture.map, v)]
            worst["label"] = min(worst["label"], m.least_label_px)
            if m.least_colour < worst["colour"]:
                worst["colour"], closest = m.least_colour, m.closest_pair
            counts["overlaps"] += sum(1 for v in kept if v.check == "overlap")
            counts["outside"] += sum(1 for v in kept if v.check == "outside")
            counts["border"] += sum(1 for v in kept if v.check == "border")
            counts["unchecked"] += m.unchecked
        rows.append(f"{case} | {worst['label']:.1f} | {counts['overlaps']} | {closest} | "
                    f"{counts['outside']} | {counts['border']} | {counts['unchecked']}")
    return "\n".join(rows)


def write_marked(folder: Path) -> list[Path]:
    """Each case's first picture with its violations ringed in red, 1000 px wide."""
    written = []
    for case in CASES:
        picture, drawn_ = drawn(case)[0]
        found = [v for check in CHECKS for v in CHECKS[check](drawn_, picture.areas)
                 if not _accepted(picture.map, v)]
        path = folder / f"legibility-{case.replace(': ', '-').replace(' ', '-')}.png"
        path.write_bytes(L.marked_png(picture.svg, found))
        written.append(path)
    return written


if __name__ == "__main__":
    import sys
    print(table())
    if len(sys.argv) > 1:  # a folder: the pictures with what fails ringed
        for path in write_marked(Path(sys.argv[1])):
            print(path)
