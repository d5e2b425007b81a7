"""Reading DPJudge's PostScript maps (dpmap's format) for what the judge
draws with: the outlines of land, seas, borders and the rest, how the map
paints them, and the coordinate of every province, coast and supply
centre.

Only the small part of PostScript that dpmap writes for a map is read:

- the ``% INFO`` comment table (a place's coordinate and full name), or,
  without it, the ``VisitTerritories`` procedure's ``(ADA) 573 83 c``
  lines, whose letter is the place's kind (the procedure names its
  letters, and ``NameTerritories`` says how each kind's name is written:
  in land or sea colours, or not at all, as for a coast such as BUL/EC);
- ``VisitSupplies`` (where each centre's marker goes), ``VisitColors``
  (the colours by name) and ``VisitOffBoardBoxes`` (Youngstown's boxes
  for the provinces off the board's edge);
- ``MapForm``: its Matrix and BBox give the map's frame, its PaintProc
  fills the background (``SeaBlue ... rectfill``) and calls the
  ``Include*`` procedures in painting order; each sets a scale, a line
  width, a dash, a colour and a ``fk`` (fill and/or stroke) and calls
  ``Outline*``/``Shape*`` procedures with the paths (judge/maps/ps_paths.py);
- ``ClipMap``, where a map is not a rectangle (Hundred, Zeus).

Coordinates are the map's PostScript units with y upwards, as in the file.
A file of another kind (no MapForm, no positions) is refused with a
ValueError saying why, and a variant then gets a schematic board.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path as FilePath

from judge.maps.ps_paths import IDENTITY, Path, Point, read_paths

__all__ = ["ARTWORK", "Layer", "Path", "Point", "PostScriptMap", "drawing_table",
           "from_map_units", "read_postscript", "to_map_units", "variant_points"]

ARTWORK = FilePath(__file__).parent / "artwork"  # the map files the judge ships

ROLES = ("land", "water", "impassable", "inner_border", "border", "decoration")
# how an outline painted in these colours is taken (by its fill, or, for a
# line only stroked, by its stroke): the rest are decoration (arrows,
# rivers, canals, a Hundred's red sea lanes)
FILL_ROLES = {"LandBrown": "land", "SeaBlue": "water", "MountainGrey": "impassable",
               "IceGrey": "impassable"}
_BORDER_COLOUR = "BorderBlack"
REGULAR_SCALE = 0.8631  # the regular (standard) map's page points per map unit
_WATER_NAMES = frozenset({"White", "SeaWhite"})  # the colours a sea's name is written in

# A file with outlines but no Include procedures (a hand-made excerpt of the
# regular map) paints them as the regular map's Include procedures do.
LAYERS = {
    "OutlineChartLandBrown": "land",
    "OutlineChartBrown": "land",
    "OutlineChartBlack": "inner_border",
    "OutlineChartBorderBlack": "border",
    "OutlineChartGrey": "impassable",
    "OutlineChartBlue": "water",
}
_LAYER_FILLS = {"land": "LandBrown", "water": "SeaBlue", "impassable": "MountainGrey"}


@dataclass(frozen=True)
class Layer:
    """What one Include procedure paints: its outlines, filled and/or
    stroked. Widths and dashes are in map units."""
    name: str  # the procedure, e.g. IncludeLand
    role: str  # one of ROLES
    paths: tuple[Path, ...]
    fill: str | None  # the colour it fills with, by the file's name for it
    stroke: str | None  # the colour it strokes with
    width: float = 1.0
    dash: tuple[float, ...] = ()
    round_caps: bool = False
    casing: tuple[float, str] | None = None  # a wider stroke under it (Zeus' canals)


@dataclass(frozen=True)
class OffBoard:
    """A box off the board's edge that is a province (Youngstown's)."""
    caption: str  # the boxes it leads to, written under its name
    outline: Path


@dataclass(frozen=True)
class PostScriptMap:
    places: dict[str, Point]  # province or coast (BUL/EC) -> its label/unit point
    names: dict[str, str]  # the same keys -> full name (the code without INFO)
    centres: dict[str, Point]  # province -> its supply-centre marker
    layers: dict[str, tuple[Path, ...]]  # role (ROLES) -> its outlines, painting order
    box: tuple[float, float, float, float]  # x0, y0, x1, y1 of the map's frame
    paint: tuple[Layer, ...] = ()  # the Include procedures, in painting order
    background: str = "SeaBlue"  # the colour filling the frame first
    colours: dict[str, str] = field(default_factory=dict)  # colour name -> "#rrggbb"
    frame: tuple[Path, ...] = ()  # the map's outline where it is not the box
    kinds: dict[str, str] = field(default_factory=dict)  # place -> VisitTerritories letter
    # place -> the colour DPJudge writes its name in, "" for none (a coast)
    name_colours: dict[str, str] = field(default_factory=dict)
    off_board: dict[str, OffBoard] = field(default_factory=dict)
    page_scale: float = REGULAR_SCALE  # page points per map unit (SwitchToMapMode's)

    @property
    def unit(self) -> float:
        """The map's units for one of the regular map's: a gap, an island,
        a unit drawn the same size on the page."""
        return REGULAR_SCALE / self.page_scale

    def is_water_named(self, code: str) -> bool:
        """Whether DPJudge writes the place's name as a sea's."""
        return self.name_colours.get(code, "") in _WATER_NAMES


_INFO = re.compile(r"^%\s+(-?\d+)\s+(-?\d+)\s+([A-Za-z0-9]+(?:/[A-Za-z0-9]+)?)\s+(.+?)\s*$")
_PROC = re.compile(r"^/(\w+)\s*\{\s*$")
_SUPPLY = re.compile(r"^\s*/([A-Za-z0-9]+)\s+(-?[\d.]+)\s+(-?[\d.]+)\s+s\s*$")
_VISIT = re.compile(r"^\s*\(([^)]+)\)\s+(-?[\d.]+)\s+(-?[\d.]+)\s+(\w+)\s*$")
_BOX = re.compile(r"^\s*\(([^)]+)\)\s+\(([^)]*)\)\s+(-?[\d.]+)\s+(-?[\d.]+)\s+(\w+)\s*$")
_LETTER = re.compile(r"^\s*/(\w+)\s+xd\s*$")
_COLOUR = re.compile(r"^\s*/(\w+)\s+([\d.]+)(?:\s+([\d.]+)\s+([\d.]+))?\s+[rg]\s*$")
_FORM = re.compile(r"/Matrix\s*\[\s*([-\d.\s]+)\]\s*/BBox\s*\[\s*([-\d.\s]+)\]")
_FILLED_BOX = re.compile(r"(\w+)\s+(-?[\d.]+)\s+(-?[\d.]+)\s+([\d.]+)\s+([\d.]+)\s+rectfill")
_MAP_MODE = re.compile(r"(?:^|\s)([\d.]+)\s+[\d.]+\s+x\s+-?[\d.]+\s+-?[\d.]+\s+t\b")
_CALL = re.compile(r"^(Outline|Shape)\w+$")


def _procedures(text: str) -> dict[str, list[str]]:
    """Every procedure defined at the start of a line, to its closing
    brace at the start of a line: name -> its lines."""
    procedures: dict[str, list[str]] = {}
    name = ""
    for line in text.splitlines():
        if not name:
            if found := _PROC.match(line):
                name = found.group(1)
                procedures[name] = []
            continue
        if line.startswith("}"):
            name = ""
        else:
            procedures[name].append(line)
    return procedures


def _words(lines: list[str]) -> list[str]:
    return [word for line in lines for word in line.split("%", 1)[0].split()]


def _colour(values: tuple[str | None, ...]) -> str:
    parts = [float(v) for v in values if v is not None]
    rgb = parts * 3 if len(parts) == 1 else parts
    return "#" + "".join(f"{round(min(max(v, 0.0), 1.0) * 255):02x}" for v in rgb)


def _places(text: str, procedures: dict[str, list[str]]
            ) -> tuple[dict[str, Point], dict[str, str], dict[str, str], dict[str, str]]:
    places: dict[str, Point] = {}
    names: dict[str, str] = {}
    inside = False
    for line in text.splitlines():
        if line.startswith("% INFO"):
            inside = True
        elif line.startswith("% MAP") or not line.startswith("%"):
            inside = False
        elif inside and (found := _INFO.match(line)):
            x, y, code, name = found.groups()
            places[code] = (float(x), float(y))
            names[code] = name
    kinds: dict[str, str] = {}
    for line in procedures.get("VisitTerritories", []):
        if found := _VISIT.match(line):
            code, x, y, kind = found.groups()
            kinds[code] = kind
            if code not in places:
                places[code] = (float(x), float(y))
                names[code] = code
    name_colours = _name_colours(procedures, "VisitTerritories", "NameTerritories", kinds)
    boxes = {found.group(1): found.group(5) for line in procedures.get("VisitOffBoardBoxes", [])
             if (found := _BOX.match(line))}
    name_colours |= _name_colours(procedures, "VisitOffBoardBoxes", "NameOffBoardBoxes", boxes)
    return places, names, kinds, name_colours


def _name_colours(procedures: dict[str, list[str]], visit: str, name: str,
                  kinds: dict[str, str]) -> dict[str, str]:
    """The colour each place's name is written in, "" for none. The naming
    procedure pushes one procedure per kind, in the reverse of the order
    the visiting one takes them off the stack (``/c xd``): each writes the
    name in a colour, or pops it unwritten."""
    letters = [found.group(1) for line in procedures.get(visit, [])
               if (found := _LETTER.match(line))]
    writers = [_words([line]) for line in procedures.get(name, [])
               if line.strip().startswith("{")]
    colour_of = {letter: words[1] if "DrawAlias" in words else ""
                 for letter, words in zip(reversed(letters), writers, strict=False)}
    return {code: colour_of.get(kind, "") for code, kind in kinds.items()}


def _layer(name: str, lines: list[str], procedures: dict[str, list[str]],
           colours: dict[str, str]) -> Layer:
    """An Include procedure: its fk's painting, then the scale, width,
    dash, colour and the outlines it calls."""
    body = " ".join(line.split("%", 1)[0] for line in lines)
    fk_body = ""
    if found := re.search(r"/fk\s*\{(.*?)\}\s*bd", body):
        fk_body = found.group(1)
        body = body[:found.start()] + body[found.end():]
    words = body.split()
    scale, width, caps = 1.0, 1.0, False
    dash: tuple[float, ...] = ()
    stroke_colour: str | None = None
    calls: list[str] = []
    for index, word in enumerate(words):
        if word == "x" and index >= 2:
            scale = float(words[index - 1])
        elif word == "w" and index >= 1:
            width = float(words[index - 1])
        elif word == "d" and "[" in words[:index]:
            opening = len(words[:index]) - 1 - words[:index][::-1].index("[")
            dash = tuple(float(v) for v in words[opening + 1:index - 2])
        elif word == "setlinecap":
            caps = words[index - 1] == "1"
        elif word in colours:
            stroke_colour = word
        elif _CALL.match(word) and word in procedures:
            calls.append(word)
    fill, casing, stroked, closes = _fk_paint(fk_body.split(), stroke_colour, scale, colours)
    paths: list[Path] = []
    matrix = (scale, 0.0, 0.0, scale, 0.0, 0.0) if scale != 1.0 else IDENTITY
    for call in calls:
        paths += read_paths(_words(procedures[call]), closes, matrix)
    if fill is not None:
        role = FILL_ROLES.get(fill, "decoration")
    elif stroke_colour == _BORDER_COLOUR and not caps:
        role = "inner_border" if dash else "border"
    else:
        role = "decoration"
    return Layer(name, role, tuple(paths), fill, stroke_colour if stroked else None,
                 width * scale, tuple(v * scale for v in dash), caps, casing)


def _fk_paint(fk: list[str], colour: str | None, scale: float, colours: dict[str, str]
              ) -> tuple[str | None, tuple[float, str] | None, bool, bool]:
    """What an Include's ``fk`` does: the colour it fills with (the one it
    names, or the current ``colour``), a wider stroke under the line (Zeus'
    canals: ``s 24 w ... BorderBlack k r``), whether it strokes, and whether
    it closes the path."""
    fill: str | None = None
    casing: tuple[float, str] | None = None
    top_level: list[str] = []
    depth, group = 0, list[str]()
    for word in fk:  # s ... r groups: a fill, or a casing stroke
        if word == "s":
            depth, group = depth + 1, []
        elif word == "r" and depth:
            depth -= 1
            named = [w for w in group if w in colours]
            if "f" in group:
                fill = named[-1] if named else colour
            elif "k" in group and "w" in group:
                casing = (float(group[group.index("w") - 1]) * scale,
                          named[-1] if named else _BORDER_COLOUR)
        elif depth:
            group.append(word)
        else:
            top_level.append(word)
    if "f" in top_level:
        fill = colour
    return fill, casing, "k" in top_level, fill is not None or "p" in top_level


def _off_board(procedures: dict[str, list[str]]) -> dict[str, OffBoard]:
    shape = _words(procedures.get("DrawOffBoard", []))
    boxes: dict[str, OffBoard] = {}
    for line in procedures.get("VisitOffBoardBoxes", []):
        if found := _BOX.match(line):
            code, caption, x, y, _ = found.groups()
            outline = read_paths(shape, True, IDENTITY, (float(x), float(y)))
            if outline:
                boxes[code] = OffBoard(caption, outline[0])
    return boxes


def read_postscript(text: str) -> PostScriptMap:
    procedures = _procedures(text)
    places, names, kinds, name_colours = _places(text, procedures)
    if not places:
        raise ValueError("not a dpmap map: no territory positions "
                         "(no % INFO table and no VisitTerritories procedure)")
    colours: dict[str, str] = {}
    for line in procedures.get("VisitColors", []):
        if found := _COLOUR.match(line):
            colours[found.group(1)] = _colour(found.groups()[1:])
    centres = {}
    for line in procedures.get("VisitSupplies", []):
        if found := _SUPPLY.match(line):
            centres[found.group(1)] = (float(found.group(2)), float(found.group(3)))
    background = "SeaBlue"
    if form := _FORM.search(text):
        scale_x, _, _, scale_y, tx, ty = map(float, form.group(1).split())
        _, _, width, height = map(float, form.group(2).split())
        box = (tx, ty, round(tx + scale_x * width, 2), round(ty + scale_y * height, 2))
        paint_proc = text[form.end():text.find(">>", form.end())]
        # the background's rectangle, where it is one, is the frame as
        # dpmap rounded it (the Form's product is a hair off: 650.01)
        if filled_box := _FILLED_BOX.search(paint_proc):
            background = filled_box.group(1)
            x0, y0, width, height = map(float, filled_box.groups()[1:])
            box = (x0, y0, round(x0 + width, 2), round(y0 + height, 2))
        elif filled := re.search(r"(\w+)\s+clippath\s+fill", paint_proc):
            background = filled.group(1)
        order = re.findall(r"^\s*(Include\w+)\s*$", paint_proc, re.M)
        paint = tuple(_layer(name, procedures[name], procedures, colours)
                      for name in order if name in procedures)
    elif filled_box := _FILLED_BOX.search(text):
        background = filled_box.group(1)
        x0, y0, width, height = map(float, filled_box.groups()[1:])
        box = (x0, y0, round(x0 + width, 2), round(y0 + height, 2))
        paint = tuple(
            Layer(name, role, tuple(read_paths(_words(procedures[name]),
                                               role in _LAYER_FILLS)),
                  _LAYER_FILLS.get(role), _BORDER_COLOUR,
                  dash=(4.5, 1.5) if role == "inner_border" else ())
            for name, role in LAYERS.items() if name in procedures)
    else:
        raise ValueError("not a dpmap map: no MapForm (its Matrix and BBox frame the map)")
    if not any(layer.paths for layer in paint):
        raise ValueError("not a dpmap map: no outlines drawn by its Include procedures")
    layers = {role: tuple(p for layer in paint if layer.role == role for p in layer.paths)
              for role in ROLES}
    frame: tuple[Path, ...] = ()
    if "ClipMap" in procedures:
        frame = tuple(path for call in _words(procedures["ClipMap"])
                      if _CALL.match(call) and call in procedures
                      for path in read_paths(_words(procedures[call]), True))
    page_scale = REGULAR_SCALE
    for line in procedures.get("SwitchToMapMode", []):
        if found := _MAP_MODE.search(line):
            page_scale = float(found.group(1))
    return PostScriptMap(places, names, centres, layers, box, paint, background, colours,
                         frame, kinds, name_colours, _off_board(procedures), page_scale)


LABEL_DROP = 14.0  # points below its unit the province name goes (dpmap: 7, for smaller units)


def to_map_units(art: PostScriptMap, point: Point) -> Point:
    """A PostScript point (y up, from the page's corner) as the variant
    file's map units (y down, from the frame's top left corner)."""
    x0, _, _, y1 = art.box
    return round(point[0] - x0, 1), round(y1 - point[1], 1)


def from_map_units(art: PostScriptMap, point: Point) -> Point:
    """A variant file's point (map units, y down) in the artwork's
    coordinates: :func:`to_map_units` undone."""
    x0, _, _, y1 = art.box
    return point[0] + x0, y1 - point[1]


def variant_points(art: PostScriptMap, units: Mapping[str, Point],
                   centres: Mapping[str, Point]) -> tuple[dict[str, Point], dict[str, Point]]:
    """Where the variant file puts each province and its centre marker (its
    ``[map.units]`` and ``[map.centres]``), in the artwork's coordinates:
    the variant's codes, which may name a place otherwise than the artwork
    (modern.ps's AND for the map's ADL), and places the artwork leaves out."""
    return ({code: from_map_units(art, p) for code, p in units.items() if "/" not in code},
            {code: from_map_units(art, p) for code, p in centres.items()})


def drawing_table(art: PostScriptMap, artwork: str) -> str:
    """The variant file's [map] table for this artwork: its size, and where
    it puts each unit, province name and centre marker. Run once when an
    artwork is added (``python -m judge.maps.postscript FILE``); the judge
    then reads the variant file only."""
    x0, y0, x1, y1 = art.box

    def entry(code: str, point: Point) -> str:
        key = f'"{code}"' if "/" in code else code
        x, y = point
        return f"{key} = [{x:g}, {y:g}]"

    lines = ["[map]", f'artwork = "{artwork}"', f"size = [{x1 - x0:g}, {y1 - y0:g}]",
             "", "[map.units]"]
    lines += [entry(code, to_map_units(art, p)) for code, p in sorted(art.places.items())]
    lines += ["", "[map.labels]"]
    for code, (x, y) in sorted(art.places.items()):
        if "/" not in code:
            lines.append(entry(code, to_map_units(art, (x, y - LABEL_DROP))))
    lines += ["", "[map.centres]"]
    lines += [entry(code, to_map_units(art, p)) for code, p in sorted(art.centres.items())]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    import sys

    source = FilePath(sys.argv[1])
    print(drawing_table(read_postscript(source.read_text(encoding="latin-1")), source.name))
