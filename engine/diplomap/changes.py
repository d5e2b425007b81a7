"""Splitting and merging provinces on a :class:`WorkingBoard` (no checking here:
engine/diplomap/validity.py decides what may be done).

A split of X by a line from its border with A (ring position i) to its
border with B (position j): part 1 holds the entries from i round to j,
part 2 those from j round to i; both named borders are cut in the middle,
so each part keeps a piece of A and of B, and the parts border each other
along the new line. A loop (i == j) encloses a part bordering only a piece
of A and the rest of X.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from engine.diplomap.board import (
    CENTRE,
    INNER,
    OUTER,
    WORDS,
    Point,
    Seg,
    Segs,
    WorkingBoard,
    compass_of,
    compass_vector,
    cut,
)
from engine.diplomap.values import EDGE, Anchor
from engine.map import Province, Terrain, province_of


@dataclass(frozen=True, slots=True)
class Plan:
    """What a split would make, before it is made: each part's ring (names)
    and its compass side, for naming and for placing the centre."""

    rings: tuple[tuple[str, ...], tuple[str, ...]]
    sides: tuple[str, str]


def plan_split(board: WorkingBoard, code: str, i: int, j: int) -> Plan:
    ring = board.rings[code]
    if i == j:
        return Plan(((ring[i],), tuple(ring)), (INNER, OUTER))
    first = _arc(ring, i, j)
    second = _arc(ring, j, i)
    one, two = board.mean_point(first), board.mean_point(second)
    if one is None or two is None or one == two:
        return Plan((tuple(first), tuple(second)), ("1", "2"))
    side = compass_of(one[0] - two[0], one[1] - two[1])
    other = compass_of(two[0] - one[0], two[1] - one[1])
    return Plan((tuple(first), tuple(second)), (side, other))


def part_names(board: WorkingBoard, code: str,
               plan: Plan) -> tuple[tuple[str, str], tuple[str, str]]:
    """Codes and names for the parts (§II.H): the original province's code
    and the side, ``GAL-N`` "North Galicia".

    A part split again names its parts so that the names read as the map
    does (the rule text leaves names to the GM): by where they lie in the
    *original* province when the plain sides are taken or would contradict
    the other parts' names. Galicia cut into ``GAL-W`` and ``GAL-E``, then
    ``GAL-E`` cut west to east, gives ``GAL-C`` "Central Galicia" (the part
    about the original's middle) and ``GAL-SE``, not ``GAL-W2`` east of
    ``GAL-W``. A digit is added only when no side reads right."""
    base = board.origin[code]
    title = board.base.provinces[base].name if base in board.base.provinces else base
    sides = plan.sides
    if sides != (INNER, OUTER) and code != base:
        sides = _sides_in_original(board, code, base, plan) or sides
    first = board.free_code(f"{base}-{sides[0]}", f"{_word(sides[0])} {title}")
    second = board.free_code(f"{base}-{sides[1]}", f"{_word(sides[1])} {title}",
                             also=first)
    return first, second


def _sides_in_original(board: WorkingBoard, code: str, base: str,
                       plan: Plan) -> tuple[str, str] | None:
    """The sides of the parts of a part: the plain ones (each part's side
    from the other) where both are free and read right beside the
    original's other parts (see :func:`_agrees`); else, the part further
    from the original's middle first, ``C`` for the nearer part when it lies
    at most half as far from that middle as the other, or the free compass
    side nearest to where the part lies from that middle, among those that
    read right beside the other parts. None where the board has no points
    to tell by or no side reads right (a digit is added then)."""
    middle = board.base.drawing.labels.get(base)
    here = board.labels.get(code)
    spots = [_pulled(here, board.mean_point(ring), "at").get("at") for ring in plan.rings]
    if middle is None or spots[0] is None or spots[1] is None:
        return None
    far = [math.dist(middle, spot) for spot in spots if spot is not None]

    def free(word: str, other: str | None) -> bool:
        return word != other and not board.taken(f"{base}-{word}")

    others = {c: board.labels[c] for c, o in board.origin.items()
              if o == base and c != code and c in board.provinces and c in board.labels}
    if all(free(side, None) and _agrees(side, spots[k], others, base)
           for k, side in enumerate(plan.sides)):
        return plan.sides
    chosen: dict[int, str] = {}
    for k in sorted((0, 1), key=lambda k: -far[k]):  # the part further out first
        spot, other = spots[k], chosen.get(1 - k)
        assert spot is not None
        known = dict(others)
        if other is not None and spots[1 - k] is not None:
            known[f"{base}-{other}"] = spots[1 - k]  # type: ignore[assignment]
        if far[k] <= far[1 - k] * CENTRAL and free(CENTRE, other) and \
                _agrees(CENTRE, spot, known, base):
            chosen[k] = CENTRE
            continue
        words = [w for w in _COMPASS_WORDS if free(w, other) and _agrees(w, spot, known, base)]
        if not words:
            return None
        chosen[k] = min(words, key=lambda w: _turn(w, spot[0] - middle[0], spot[1] - middle[1]))
    if chosen[0] == chosen[1]:
        return None
    return chosen[0], chosen[1]


def _agrees(side: str, spot: Point | None, others: dict[str, Point], base: str) -> bool:
    """Whether a part at ``spot`` named ``side`` reads right beside the
    original's other parts: one clearly east (or south) of another has a
    side pointing further east (south). ``STP-N`` south of ``STP-NW`` does not."""
    if spot is None:
        return True
    mine = _vector(side)
    for code, at in others.items():
        theirs = _vector(code[len(base) + 1:])
        for axis in (0, 1):
            along, across = spot[axis] - at[axis], spot[1 - axis] - at[1 - axis]
            if abs(along) > 2 * abs(across) + 2 and (mine[axis] - theirs[axis]) * along <= 0:
                return False
    return True


def _vector(side: str) -> tuple[float, float]:
    vector = compass_vector(side)
    return (0.0, 0.0) if vector is None else vector


def _turn(word: str, dx: float, dy: float) -> float:
    """How far (degrees) the compass word's direction is from (dx, dy)."""
    vector = compass_vector(word)
    assert vector is not None
    angle = math.degrees(math.atan2(dx, -dy) - math.atan2(vector[0], -vector[1])) % 360
    return min(angle, 360 - angle)


CENTRAL = 0.5  # the nearer part is central within this share of the further one's distance
_COMPASS_WORDS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")


def _word(side: str) -> str:
    return WORDS.get(side, f"Part {side}")


def _arc(ring: list[str], i: int, j: int) -> list[str]:
    n = len(ring)
    return [ring[(i + k) % n] for k in range((j - i) % n + 1)]


def split(board: WorkingBoard, code: str, i: int, j: int, parts: tuple[str, str],
          names: tuple[str, str], centre: str | None) -> tuple[Anchor, Anchor]:
    """Split ``code`` in place; the anchors where the line starts and ends."""
    board.lines += 1
    line = f"LINE:{board.lines}"
    ring, segs = list(board.rings[code]), list(board.segs[code])
    n = len(ring)
    one, two = parts
    base = board.origin[code]
    forward = Seg(base, line, 0.0, 1.0, True)
    if i == j:  # a loop: part 1 the inner, part 2 the rest
        pieces, anchors = cut(segs[i], (1 / 3, 2 / 3))
        early, middle, late = pieces
        ring_one: list[tuple[str, Segs]] = [(ring[i], middle), (two, (forward.flipped(),))]
        ring_two = [*zip(ring[:i], segs[:i], strict=True), (ring[i], early),
                    (one, (forward,)), (ring[i], late),
                    *zip(ring[i + 1:], segs[i + 1:], strict=True)]
        board._replace_entry(ring[i], segs[i], [(two, early), (one, middle), (two, late)])
        for k in range(n):
            if k != i:
                board._rename_entry(ring[k], segs[k], two)
        cut_owner = {(i, "start"): two, (i, "end"): two}
        start, end = anchors
    else:
        (a_early, a_late), (start,) = cut(segs[i], (0.5,))
        (b_early, b_late), (end,) = cut(segs[j], (0.5,))
        between_one = [((i + k) % n) for k in range(1, (j - i) % n)]
        between_two = [((j + k) % n) for k in range(1, (i - j) % n)]
        ring_one = [(ring[i], a_late), *((ring[k], segs[k]) for k in between_one),
                    (ring[j], b_early), (two, (forward.flipped(),))]
        ring_two = [(ring[j], b_late), *((ring[k], segs[k]) for k in between_two),
                    (ring[i], a_early), (one, (forward,))]
        board._replace_entry(ring[i], segs[i], [(two, a_early), (one, a_late)])
        board._replace_entry(ring[j], segs[j], [(one, b_early), (two, b_late)])
        for k in between_one:
            board._rename_entry(ring[k], segs[k], one)
        for k in between_two:
            board._rename_entry(ring[k], segs[k], two)
        cut_owner = {(i, "start"): two, (i, "end"): one, (j, "start"): one, (j, "end"): two}
    if i == j:
        owner = {k: two for k in range(n)}
    else:
        owner = {i: one, j: two, **{k: one for k in _indices(n, i, j)},
                 **{k: two for k in _indices(n, j, i)}}
    old = board.provinces[code]
    old_fleet = {loc: set(board.fleet.get(loc, set())) for loc in board.locations(code)}
    shore = shores(board, code)
    old_army = set(board.army.get(code, set()))
    point = board.labels.get(code)
    unit_points = {loc: board.unit_points.get(loc) for loc in board.locations(code)}
    board.retire(code)
    for part, name, entries in ((one, names[0], ring_one), (two, names[1], ring_two)):
        board.set_ring(part, [e for e, _ in entries], [s for _, s in entries])
        board.origin[part] = base
        terrain = _terrain(board, old, board.rings[part])
        board.provinces[part] = Province(part, name, terrain, (),
                                         old.centre if part == centre else None)
        board.add_aliases(part, name)
        board.labels.update(_pulled(point, board.mean_point(board.rings[part]), part))
    for part in parts:
        for other in old_army:
            if other in board.rings[part]:
                board.link_army(part, other)
    if old.terrain is not Terrain.WATER:
        board.link_army(one, two)
    _fleet_links(board, old, ring, owner, cut_owner, old_fleet, shore, parts, (i, j))
    for part in parts:
        for loc in board.locations(part):
            source = loc.replace(part, code, 1)
            at = unit_points.get(source) or next((p for p in unit_points.values() if p), None)
            pulled = _pulled(at, board.labels.get(part), loc)
            board.unit_points.update(pulled)
    if centre is not None and old.centre is not None:
        board.centre_points[centre] = board.labels[centre]
        board.move_centre(code, {code: centre})
    return start, end


def _indices(n: int, i: int, j: int) -> list[int]:
    return [(i + k) % n for k in range(1, (j - i) % n)]


def _pulled(origin: Point | None, towards: Point | None, key: str) -> dict[str, Point]:
    """A point for a new province: halfway from the old one towards the
    middle of the part's neighbours."""
    if origin is None:
        return {}
    if towards is None:
        return {key: origin}
    return {key: (round((origin[0] + towards[0]) / 2, 1), round((origin[1] + towards[1]) / 2, 1))}


def _terrain(board: WorkingBoard, old: Province, ring: list[str]) -> Terrain:
    if old.terrain in (Terrain.WATER, Terrain.IMPASSABLE):
        return old.terrain
    return Terrain.COASTAL if any(board.is_water(n) for n in ring) else Terrain.LAND


def shores(board: WorkingBoard, code: str) -> dict[int, frozenset[str]]:
    """Whose shore each of a province's sea borders is: ring position ->
    the locations (coasts) a fleet stands on there.

    A coast is a stretch of shoreline: a run of sea borders between two land
    borders. A province with two coasts may reach one sea from both (Spain
    and the Mid-Atlantic), so a run goes to the coast reaching most of its
    seas and of the land at its two ends (a tie: to each tied coast)."""
    ring = board.rings[code]
    locations = board.locations(code)
    n = len(ring)
    water = [board.is_water(name) for name in ring]
    if len(locations) < 2:
        return {k: frozenset(locations) for k in range(n) if water[k]}
    reach = {loc: {province_of(d) for d in board.fleet.get(loc, ())} for loc in locations}
    found: dict[int, frozenset[str]] = {}
    for run in _water_runs(water):
        ends = set() if len(run) == n else {ring[run[0] - 1], ring[(run[-1] + 1) % n]}
        touched = [ring[k] for k in run] + sorted(ends)
        score = {loc: sum(name in reach[loc] for name in touched) for loc in locations}
        best = max(score.values())
        coast = frozenset(loc for loc in locations if best and score[loc] == best)
        found.update((k, coast) for k in run)
    return found


def _water_runs(water: list[bool]) -> list[list[int]]:
    """The runs of consecutive sea borders round a ring (cyclic)."""
    n = len(water)
    if all(water):
        return [list(range(n))]
    start = next(k for k in range(n) if not water[k])  # a run never wraps past here
    runs: list[list[int]] = []
    for step in range(1, n + 1):
        k = (start + step) % n
        if not water[k]:
            continue
        if runs and runs[-1][-1] == (k - 1) % n:
            runs[-1].append(k)
        else:
            runs.append([k])
    return runs


def _fleet_links(board: WorkingBoard, old: Province, ring: list[str], owner: dict[int, str],
                 cut_owner: dict[tuple[int, str], str], old_fleet: dict[str, set[str]],
                 shore: dict[int, frozenset[str]], parts: tuple[str, str],
                 ends: tuple[int, int]) -> None:
    """Share out the old province's fleet links between the parts.

    A water neighbour stays linked to every part holding a piece of that
    sea's border on the fleet's shore (of a two-coast province: its coast's
    own stretch, not the other coast's). A land neighbour was linked along
    the coast: the link stays with the part holding the end of that
    neighbour's stretch that touches the coast's shore."""
    n = len(ring)

    def holding(k: int) -> set[str]:
        return set(parts) if k in ends else {owner[k]}  # a cut border is in both parts

    def on_shore(k: int, loc: str) -> bool:
        return loc in shore.get(k % n, frozenset())

    links: dict[str, dict[str, set[str]]] = {p: {} for p in parts}
    for loc, dsts in old_fleet.items():
        for dst in dsts:
            neighbour = province_of(dst)
            holders: set[str] = set()
            for k, name in enumerate(ring):
                if name != neighbour:
                    continue
                if old.terrain is Terrain.WATER:
                    holders.update(holding(k))
                    continue
                if board.is_water(neighbour):
                    if on_shore(k, loc):
                        holders.update(holding(k))
                    continue
                if on_shore(k - 1, loc):
                    holders.add(cut_owner.get((k, "start"), owner[k]))
                if on_shore(k + 1, loc):
                    holders.add(cut_owner.get((k, "end"), owner[k]))
            if not holders:  # no water beside it in the ring: every coastal part bordering it
                holders = {p for p in parts if neighbour in board.rings[p]
                           and board.provinces[p].terrain is not Terrain.LAND}
            for part in holders:
                links[part].setdefault(loc, set()).add(dst)
    for part in parts:
        by_coast = links[part]
        coasts = tuple(loc.partition("/")[2] for loc in sorted(by_coast))
        prov = board.provinces[part]
        if old.coasts and len(by_coast) >= 2:
            board.provinces[part] = replace(prov, coasts=coasts)
            for loc, dsts in by_coast.items():
                for dst in dsts:
                    board.link_fleet(f"{part}/{loc.partition('/')[2]}", dst)
        elif prov.terrain is not Terrain.LAND:
            board.own_fleet(part)
            for dsts in by_coast.values():
                for dst in dsts:
                    board.link_fleet(part, dst)
    i, j = ends
    one, two = parts
    for k in {i, j}:
        sea = ring[k]
        if sea == EDGE or (not board.is_water(sea) and old.terrain is not Terrain.WATER):
            continue
        here = _location_on(board, one, sea)
        there = _location_on(board, two, sea)
        if here and there:
            board.link_fleet(here, there)
    if old.terrain is Terrain.WATER:
        board.link_fleet(one, two)


def _location_on(board: WorkingBoard, part: str, water: str) -> str | None:
    """The part's location a fleet reaches ``water`` from, if any."""
    if board.provinces[part].terrain is Terrain.LAND:
        return None
    for loc in board.locations(part):
        if any(province_of(d) == water for d in board.fleet.get(loc, set())):
            return loc
    return None


def merge(board: WorkingBoard, first: str, second: str, into: str, name: str
          ) -> tuple[tuple[Anchor, Anchor], ...]:
    """Merge two provinces sharing one stretch of border; the anchors of
    the stretch that vanished."""
    ring_a, segs_a = board.rings[first], board.segs[first]
    ring_b, segs_b = board.rings[second], board.segs[second]
    k, m = ring_a.index(second), ring_b.index(first)
    erased = tuple((Anchor(s.base, s.border, s.lo), Anchor(s.base, s.border, s.hi))
                   for s in segs_a[k])
    # going round the merged province: first's ring from after the shared
    # stretch to before it, then second's likewise
    entries = [*zip(ring_a[k + 1:] + ring_a[:k], segs_a[k + 1:] + segs_a[:k], strict=True),
               *zip(ring_b[m + 1:] + ring_b[:m], segs_b[m + 1:] + segs_b[:m], strict=True)]
    old_a, old_b = board.provinces[first], board.provinces[second]
    fleet = {loc: set(board.fleet.get(loc, set()))
             for code in (first, second) for loc in board.locations(code)}
    army = (board.army.get(first, set()) | board.army.get(second, set())) - {first, second}
    coasts, joins = _merged_coasts(old_a, old_b, fleet)
    points = _merged_points(board, first, second)
    unit_points = {loc: board.unit_points.get(loc) for loc in fleet}
    origin = board.origin[first]
    for neighbour, segs in entries:  # each neighbour now names the merged province
        board._rename_entry(neighbour, segs, into, collapse=True)
    board.retire(first)
    board.retire(second)
    board.set_ring(into, [e for e, _ in entries], [s for _, s in entries])
    board._collapse(into)
    board.origin[into] = origin
    terrain = Terrain.WATER if old_a.terrain is Terrain.WATER else (
        Terrain.COASTAL if any(board.is_water(n) for n in board.rings[into]) else Terrain.LAND)
    board.provinces[into] = Province(into, name, terrain, coasts, old_a.centre or old_b.centre)
    board.add_aliases(into, name)
    for other in army:
        board.link_army(into, other)

    def location(loc: str) -> str:
        return into if not coasts else f"{into}/{loc.partition('/')[2] or joins}"

    for loc, dsts in fleet.items():
        for dst in dsts:
            if province_of(dst) not in (first, second):
                board.link_fleet(location(loc), dst)
    if terrain is not Terrain.LAND and not coasts:
        board.own_fleet(into)
    board.labels.update({into: points[0]} if points[0] else {})
    board.centre_points.update({into: points[1]} if points[1] else {})
    for loc, at in unit_points.items():
        if at is not None:
            board.unit_points.setdefault(location(loc), at)
    if into not in board.unit_points and into in board.labels:
        board.unit_points[into] = board.labels[into]
    board.move_centre(first, {first: into})
    board.move_centre(second, {second: into})
    return erased


def _merged_coasts(old_a: Province, old_b: Province, fleet: dict[str, set[str]]
                   ) -> tuple[tuple[str, ...], str | None]:
    """The merged province's coasts, and the coast the other province's
    fleet moves join: a two-coast province keeps its coasts when the other
    touched only one of them; otherwise the merged province has one coast."""
    if bool(old_a.coasts) == bool(old_b.coasts):
        return (), None
    keeper, other = (old_a, old_b) if old_a.coasts else (old_b, old_a)
    linked = {d.partition("/")[2] for loc, dsts in fleet.items()
              if province_of(loc) == other.code for d in dsts
              if province_of(d) == keeper.code}
    if len(linked) != 1:
        return (), None
    return keeper.coasts, next(iter(linked))


def _merged_points(board: WorkingBoard, first: str, second: str
                   ) -> tuple[Point | None, Point | None]:
    """Where the merged province's name goes (between the two) and its
    centre (where the centre was)."""
    one, two = board.labels.get(first), board.labels.get(second)
    label = (round((one[0] + two[0]) / 2, 1), round((one[1] + two[1]) / 2, 1)) \
        if one and two else one or two
    return label, board.centre_points.get(first) or board.centre_points.get(second)


def rename(board: WorkingBoard, code: str, new_code: str, name: str) -> None:
    """Give a province a new code and name, carried everywhere it is named."""
    board.own_everything()
    for table in (board.army,):
        if code in table:
            table[new_code] = table.pop(code)
        for dsts in table.values():
            if code in dsts:
                dsts.discard(code)
                dsts.add(new_code)
    moved = {loc: loc.replace(code, new_code, 1) for loc in board.locations(code)}
    for loc, new in moved.items():
        if loc in board.fleet:
            board.fleet[new] = board.fleet.pop(loc)
        if loc in board.unit_points:
            board.unit_points[new] = board.unit_points.pop(loc)
    for dsts in board.fleet.values():
        for loc, new in moved.items():
            if loc in dsts:
                dsts.discard(loc)
                dsts.add(new)
    for ring in board.rings.values():
        for k, entry in enumerate(ring):
            if entry == code:
                ring[k] = new_code
    board.rings[new_code] = board.rings.pop(code)
    board.segs[new_code] = board.segs.pop(code)
    board.owned.update({("army", new_code), ("ring", new_code),
                        *(("fleet", new) for new in moved.values())})
    board.origin[new_code] = board.origin.pop(code)
    board.provinces[new_code] = replace(board.provinces.pop(code), code=new_code, name=name)
    for points in (board.labels, board.centre_points):
        if code in points:
            points[new_code] = points.pop(code)
    # the province answers to its old names too (orders written before the
    # rename, players' habits): a code taken as an alias is never given again
    for key, loc in [(k, v) for k, v in board.aliases.items() if province_of(v) == code]:
        board.name(key, moved.get(loc, new_code))
    board.add_aliases(new_code, name)
    board.move_centre(code, {code: new_code})
