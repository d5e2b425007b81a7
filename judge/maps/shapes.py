"""Province shapes from a map's line art.

dpmap's artwork has no province outlines, only lines: the coasts (the
outlines of the land), the borders, and the dashed lines between
provinces and between seas. Laid over the sea's rectangle, these lines cut
the map into faces; each face holding a province's label point is that
province. A face holding none (an island without a province of its own,
the neutral land) keeps the plain land or sea colour, except a small one
next to a province of the same kind (Zealand beside Jutland), which is
taken to be part of it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from shapely import Point as ShapelyPoint
from shapely import Polygon, STRtree, unary_union
from shapely.geometry import LineString, MultiPolygon
from shapely.geometry.base import BaseGeometry
from shapely.ops import nearest_points, polygonize, substring

from judge.maps.postscript import FILL_ROLES, Path, Point, PostScriptMap

STEPS = 8  # straight pieces a Bezier curve is cut into
# Sizes are the regular map's points; on another map they are taken at the
# same size on the page (PostScriptMap.unit): Zeus' units are half as big.
ISLAND_AREA = 60.0  # square points: larger nameless land is neutral (Ireland, Corsica)
SNAP = 3.0  # points: the widest gap between a border's end and its line
OVERSHOOT = 0.5  # points a border is drawn on past the line it meets
ONWARDS = 2.0  # points a border ending on a line is drawn on, in its direction
TOUCHING = 0.05  # points: an end this near a line is on it
ISLAND_REACH = 6.0  # points: how near an island must lie to a province to join it
FRAME_SNAP = 0.1  # points: an outline's point this near the frame is on it
POINT_REACH = 15.0  # points: how far off its face a province's point may lie


def _bezier(controls: tuple[Point, ...], t: float) -> Point:
    """The point at ``t`` of a cubic Bezier curve."""
    u = 1 - t
    weights = (u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t)
    return (sum(w * p[0] for w, p in zip(weights, controls, strict=True)),
            sum(w * p[1] for w, p in zip(weights, controls, strict=True)))


def flatten(path: Path) -> list[Point]:
    """The path as a polyline, its curves cut into straight pieces."""
    points = [path.start]
    for segment in path.segments:
        if len(segment) == 1:
            points.append(segment[0])
            continue
        controls = (points[-1], *segment)
        points += [_bezier(controls, step / STEPS) for step in range(1, STEPS + 1)]
    if path.closed and points[0] != points[-1]:
        points.append(points[0])
    return points


def _joined(points: list[Point], others: list[BaseGeometry], snap: float = SNAP
            ) -> list[Point]:
    """A border with each end drawn on to the line it was meant to meet.

    dpmap's borders stop at the coast or at another border, but often a
    hair short of it, or on it but not exactly in floating point; then no
    face would close there. A point is added past each end: just past the
    nearest point of the ``others`` (the lines within ``snap`` points of
    it), or, for an end already on a line, a little further in the
    border's direction. The original ends stay, so a line that meets this
    one there still does; the ends left over are dropped by polygonize."""
    if len(points) < 2:
        return points
    whole = LineString(points)

    def reach(end: Point, before: Point, first: bool) -> Point:
        spot = ShapelyPoint(end)
        # a border may end on itself, further along (Sengoku's, round Shimousa)
        cut = 2 * snap
        own = (substring(whole, cut, whole.length) if first
               else substring(whole, 0, whole.length - cut))
        candidates = others + ([own] if whole.length > 2 * cut else [])
        if not candidates:
            return end
        line = min(candidates, key=spot.distance)
        target = nearest_points(spot, line)[1]
        tx, ty = target.x, target.y
        gap = ((tx - end[0]) ** 2 + (ty - end[1]) ** 2) ** 0.5
        if gap > snap:
            return end
        if gap < TOUCHING:  # on it, or as good as: on past it, in the border's direction
            dx, dy = end[0] - before[0], end[1] - before[1]
            norm = (dx * dx + dy * dy) ** 0.5 or 1.0
            return end[0] + dx / norm * ONWARDS, end[1] + dy / norm * ONWARDS
        past = (tx + (tx - end[0]) / gap * OVERSHOOT, ty + (ty - end[1]) / gap * OVERSHOOT)
        if LineString([end, past]).intersects(line):
            return past
        # the nearest point is a corner the way on only grazes (a notch in
        # Youngstown's Kyushu): end on the corner itself, one of the line's
        # own points, which the lines' union joins exactly
        coords: list[Point] = [(float(c[0]), float(c[1])) for part in getattr(line, "geoms", [line])
                               for c in getattr(part, "exterior", part).coords]
        return min(coords, key=lambda c: (c[0] - end[0]) ** 2 + (c[1] - end[1]) ** 2)

    return [reach(points[0], points[1], True), *points, reach(points[-1], points[-2], False)]


def _area(paths: Iterable[Path]) -> BaseGeometry:
    polygons = [Polygon(points) for points in map(flatten, paths) if len(points) >= 4]
    return unary_union([p.buffer(0) for p in polygons])


def frame_line(art: PostScriptMap) -> LineString:
    """The map's edge: its ClipMap outline (Hundred's, Zeus' heptagon), or
    else its frame's rectangle."""
    if art.frame:
        return LineString(flatten(art.frame[0]))
    x0, y0, x1, y1 = art.box
    return LineString([(x0, y0), (x1, y0), (x1, y1), (x0, y1), (x0, y0)])


def painted_land(art: PostScriptMap) -> BaseGeometry:
    """Where the map is land as painted: its background, then each fill in
    turn (a sea over a land background, an island over the sea, a lake)."""
    x0, y0, x1, y1 = art.box
    land: BaseGeometry = Polygon()
    if FILL_ROLES.get(art.background) == "land":
        land = Polygon([(x0, y0), (x1, y0), (x1, y1), (x0, y1)])
    for layer in art.paint:
        if layer.fill is None or layer.role not in ("land", "water", "impassable"):
            continue
        area = _area(layer.paths)
        land = land.difference(area) if layer.role == "water" else land.union(area)
    return land


def province_shapes(art: PostScriptMap, provinces: Mapping[str, bool],
                    points: Mapping[str, Point] | None = None,
                    centres: Mapping[str, Point] | None = None) -> dict[str, MultiPolygon]:
    """Each province's shape. ``provinces``: code -> True for water;
    ``points`` and ``centres``: where each province is and its centre
    marker, in the artwork's coordinates (the variant's, which may name a
    place otherwise or place one the artwork leaves out), the artwork's own
    unless given."""
    places = art.places if points is None else points
    markers = art.centres if centres is None else centres
    def on_frame(path: Path) -> list[Point]:
        return _onto_frame(flatten(path), art)

    lines = [frame_line(art)]
    for layer in ("land", "impassable", "water"):
        lines += [LineString(on_frame(p)) for p in art.layers[layer]]
    lines += [LineString(flatten(box.outline)) for box in art.off_board.values()]
    borders = [on_frame(p) for layer in ("inner_border", "border") for p in art.layers[layer]]
    snap = SNAP * art.unit
    faces = list(polygonize(unary_union(lines + _drawn_on(lines, borders, snap))))
    land = painted_land(art)
    mountains = _area(art.layers["impassable"])

    def is_land(face: Polygon) -> bool:
        return bool(land.contains(face.representative_point()))

    # A face holding two provinces' points lacks a border the artwork draws
    # otherwise: as a river (Ancient Mediterranean's Nile, the Mississippi),
    # a strait or a canal. Only there are those lines cuts: elsewhere a
    # canal runs through its province.
    decorations = [on_frame(p) for layer in art.paint if layer.role == "decoration"
                   and layer.stroke and not layer.fill for p in layer.paths]
    crowded = [face for face in faces if _crowded(face, places, provinces, is_land)]
    groups: list[list[int]] = []  # the pieces each crowded face was cut into
    if crowded and decorations:
        finer = list(polygonize(unary_union(lines + _drawn_on(lines, borders + decorations,
                                                              snap))))
        for face in crowded:
            faces.remove(face)
            pieces = [piece for piece in finer if face.contains(piece.representative_point())]
            groups.append(list(range(len(faces), len(faces) + len(pieces))))
            faces += pieces
    owner: dict[int, str] = {}
    for code in provinces:
        if code not in places:
            continue
        spot = ShapelyPoint(places[code])
        for index, face in enumerate(faces):
            if face.contains(spot):
                # a coastal province's point may lie just off its coast
                # (Youngstown's Clyde): the sea is not its face
                if provinces[code] is not is_land(face):
                    owner[index] = code
                break
    # a nameless face holding a province's supply-centre marker is that
    # province's, however large: the artwork writes CON's name in Asia and
    # puts its centre on the European shore, DEN's centre on Zealand (but a
    # marker on the sea beside islets, Zeus' Hawaii, does not make it land)
    for code, marker in markers.items():
        if code not in provinces:
            continue
        spot = ShapelyPoint(marker)
        for index, face in enumerate(faces):
            if index not in owner and face.contains(spot) \
                    and provinces[code] is not is_land(face):
                owner[index] = code
                break
    # a province still without a face takes the nearest nameless one of
    # its kind, its point lying off it
    placed = set(owner.values())
    for code in provinces:
        if code in placed or code not in places:
            continue
        spot = ShapelyPoint(places[code])
        free = [(face.distance(spot), index) for index, face in enumerate(faces)
                if index not in owner and face.distance(spot) <= POINT_REACH * art.unit
                and provinces[code] is not is_land(face)]
        if free:
            owner[min(free)[1]] = code
    # a piece the decorations cut that holds no province's point (the
    # Nile's delta, between its branches) stays with the piece of the same
    # face it shares most of its outline with
    for group in groups:
        left = [index for index in group if index not in owner]
        while left:
            joined = False
            for index in list(left):
                shared = [(faces[index].boundary.intersection(faces[other].boundary).length,
                           other) for other in group if other in owner]
                length, other = max(shared, default=(0.0, -1))
                if length > 0:
                    owner[index] = owner[other]
                    left.remove(index)
                    joined = True
            if not joined:
                break
    shapes: dict[str, list[Polygon]] = {}
    for index, code in owner.items():
        shapes.setdefault(code, []).append(faces[index])
    for index, face in enumerate(faces):
        if index in owner or face.area > ISLAND_AREA * art.unit ** 2 or mountains.contains(
                face.representative_point()):
            continue
        near = _nearest(face, ((c, shapes[c]) for c in shapes
                               if provinces[c] is not is_land(face)), ISLAND_REACH * art.unit)
        if near is not None:
            shapes[near].append(face)
    return {code: MultiPolygon(parts) for code, parts in shapes.items()}


def _onto_frame(points: list[Point], art: PostScriptMap) -> list[Point]:
    """The points, those a hair off the frame's rectangle put on it: dpmap
    rounds the frame (Ancient Mediterranean's 14.57) and not the outlines
    reaching it (14.5758), and land would run round a sea through the gap."""
    if art.frame:
        return points
    x0, y0, x1, y1 = art.box

    def snap(value: float, low: float, high: float) -> float:
        return (low if abs(value - low) <= FRAME_SNAP else
                high if abs(value - high) <= FRAME_SNAP else value)

    return [(snap(x, x0, x1), snap(y, y0, y1)) for x, y in points]


def _drawn_on(lines: list[LineString], borders: list[list[Point]], snap: float
              ) -> list[LineString]:
    """The borders, each end drawn on to the line it was meant to meet."""
    drawn = lines + [LineString(b) for b in borders]
    tree = STRtree(drawn)  # the lines as drawn: what each border comes near
    joined = []
    for index, points in enumerate(borders):
        own = len(lines) + index
        close_by = [drawn[n] for n in tree.query(drawn[own].buffer(snap)) if n != own]
        joined.append(LineString(_joined(points, close_by, snap)))
    return joined


def _crowded(face: Polygon, places: Mapping[str, Point], provinces: Mapping[str, bool],
             is_land: Callable[[Polygon], bool]) -> bool:
    """Whether the face holds the points of two provinces of its kind."""
    kind = is_land(face)
    holding = [code for code in provinces if code in places
               and provinces[code] is not kind and face.contains(ShapelyPoint(places[code]))]
    return len(holding) > 1


def _nearest(face: Polygon, candidates: Iterable[tuple[str, list[Polygon]]],
             reach: float) -> str | None:
    best: tuple[float, str] | None = None
    for code, parts in candidates:
        distance = min(part.distance(face) for part in parts)
        if distance <= reach and (best is None or distance < best[0]):
            best = (distance, code)
    return best[1] if best else None
