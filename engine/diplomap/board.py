"""The board as Diplomap's changes leave it: a working copy of a map that
splits and merges provinces by their rings (engine/rings.py).

Each ring entry carries the pieces of *base* borders it is made of
(:class:`Seg`), so that a border cut twice is cut in the middle of the
right piece, the drawing gets anchors on the base map, and a neighbour's
entry for a province is found exactly even where two provinces meet in two
places (Spain and the Mid-Atlantic).

Splits and merges here do no checking: engine/diplomap/validity.py decides
what may be done; this module only does it.
"""

from __future__ import annotations

import math
import weakref
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import NamedTuple

from engine.diplomap.values import EDGE, Anchor
from engine.map import Drawing, GameMap, Power, Province, Terrain, normalise_name, province_of

Point = tuple[float, float]


class Seg(NamedTuple):
    """A piece of one stretch of base border: between base province
    ``base`` and ``border`` (a base province, EDGE or ``LINE:n``), from
    fraction ``lo`` to ``hi`` clockwise round ``base``; ``forward`` when the
    ring holding it runs from lo to hi. ``stretch`` tells apart two
    stretches of one pair of provinces. A named tuple, not a frozen
    dataclass: a phase with map orders makes dozens, and a tuple is built
    several times faster."""

    base: str
    border: str
    lo: float
    hi: float
    forward: bool
    stretch: int = 0

    def flipped(self) -> Seg:
        return Seg(self.base, self.border, self.lo, self.hi, not self.forward, self.stretch)

    def at(self, fraction: float) -> float:
        return self.lo + (self.hi - self.lo) * fraction

    def piece(self, start: float, stop: float) -> Seg:
        """The part from ``start`` to ``stop`` (fractions of this piece, in
        the ring's direction)."""
        if self.forward:
            lo, hi = self.at(start), self.at(stop)
        else:
            lo, hi = self.at(1 - stop), self.at(1 - start)
        return Seg(self.base, self.border, lo, hi, self.forward, self.stretch)

    def point(self, fraction: float) -> float:
        """The base-border fraction at ``fraction`` of the way along the ring."""
        return self.at(fraction if self.forward else 1 - fraction)


Segs = tuple[Seg, ...]


@lru_cache(maxsize=8192)  # the same few hundred entries are looked up phase after phase
def seen_from_other_side(segs: Segs) -> Segs:
    return tuple(s.flipped() for s in reversed(segs))


def cut(segs: Segs, fractions: tuple[float, ...]) -> tuple[list[Segs], list[Anchor]]:
    """An entry's pieces cut at ``fractions`` of its middle base piece (in
    the ring's direction), and the anchors of the cuts."""
    middle = len(segs) // 2
    mid = segs[middle]
    pieces: list[Segs] = []
    anchors = [Anchor(mid.base, mid.border, round(mid.point(f), 6)) for f in fractions]
    bounds = (0.0, *fractions, 1.0)
    for k in range(len(bounds) - 1):
        part: Segs = (mid.piece(bounds[k], bounds[k + 1]),)
        if k == 0:
            part = (*segs[:middle], *part)
        if k == len(bounds) - 2:
            part = (*part, *segs[middle + 1:])
        pieces.append(part)
    return pieces, anchors


def base_segs(game_map: GameMap) -> dict[str, list[Segs]]:
    """Each base ring entry as one whole stretch of base border, named from
    the alphabetically first province of the pair, so both sides agree."""
    rings = game_map.rings
    segs: dict[str, list[Segs]] = {}
    for code, ring in rings.items():
        entries: list[Segs] = []
        for k, other in enumerate(ring):
            if other == EDGE or other not in rings:
                entries.append((Seg(code, other, 0.0, 1.0, True),))
                continue
            stretch = _stretch_number(rings, code, k)
            if code < other:
                entries.append((Seg(code, other, 0.0, 1.0, True, stretch),))
            else:
                entries.append((Seg(other, code, 0.0, 1.0, False, stretch),))
        segs[code] = entries
    return segs


def _stretch_number(rings: Mapping[str, tuple[str, ...]], code: str, k: int) -> int:
    """Which stretch of the pair (code, ring[k]) this is, counted in the
    alphabetically first province's ring. Two stretches are matched by the
    neighbours on either side: the same two provinces flank a stretch from
    both sides."""
    ring = rings[code]
    other = ring[k]
    if ring.count(other) == 1:
        return 0
    first, second = (code, other) if code < other else (other, code)
    if code == first:
        return [i for i, o in enumerate(ring) if o == other].index(k)
    flank = {ring[k - 1], ring[(k + 1) % len(ring)]}
    theirs = rings[first]
    places = [i for i, o in enumerate(theirs) if o == second]
    for number, i in enumerate(places):
        if {theirs[i - 1], theirs[(i + 1) % len(theirs)]} == flank:
            return number
    mine = [i for i, o in enumerate(ring) if o == other]
    return len(places) - 1 - mine.index(k)  # going round the other way


_COMPASS: dict[str, tuple[str, Point]] = {
    "N": ("North", (0.0, -1.0)), "NE": ("Northeast", (0.7071, -0.7071)),
    "E": ("East", (1.0, 0.0)), "SE": ("Southeast", (0.7071, 0.7071)),
    "S": ("South", (0.0, 1.0)), "SW": ("Southwest", (-0.7071, 0.7071)),
    "W": ("West", (-1.0, 0.0)), "NW": ("Northwest", (-0.7071, -0.7071)),
}
INNER, OUTER = "I", "O"
CENTRE = "C"  # a part of a part about its original province's middle (changes.part_names)
WORDS = {**{k: w for k, (w, _) in _COMPASS.items()}, INNER: "Inner", OUTER: "Outer",
         CENTRE: "Central"}


def compass_vector(word: str) -> Point | None:
    entry = _COMPASS.get(word.upper())
    return None if entry is None else entry[1]


def compass_of(dx: float, dy: float) -> str:
    """The compass word nearest to a direction (y grows downwards)."""
    angle = math.degrees(math.atan2(dx, -dy)) % 360  # 0 = north, clockwise
    return ("N", "NE", "E", "SE", "S", "SW", "W", "NW")[int((angle + 22.5) // 45) % 8]


@dataclass
class WorkingBoard:
    """A mutable copy of a map's board that changes apply to."""

    base: GameMap
    provinces: dict[str, Province]
    army: dict[str, set[str]]
    fleet: dict[str, set[str]]
    rings: dict[str, list[str]]
    segs: dict[str, list[Segs]]
    origin: dict[str, str]  # code -> the base province its name comes from
    powers: dict[str, Power]
    labels: dict[str, Point]
    unit_points: dict[str, Point]
    centre_points: dict[str, Point]
    aliases: dict[str, str]
    lines: int = 0
    # Copies share the sets and lists of the board they were copied from
    # until they change one (copy on write): (table, key) made private so far.
    owned: set[tuple[str, str]] = field(default_factory=set)
    # The map built from the board copied (game_map()): its frozen tables
    # are reused for every key this board has not made its own. A board is
    # not changed once its map is built (apply_changes and adopt build it last).
    # Weak references: the boards in force are kept per map in a weak table
    # (in_force._BOARDS), which a board holding its own map would never let go.
    parent: weakref.ref[GameMap] | None = None
    made: weakref.ref[GameMap] | None = None  # the map built from this board
    # Every alias key ever given to each province (the names of gone ones stay
    # taken), and what changed since the copy: the map's live names are then
    # the parent map's with those changes, not a scan of every name.
    alias_keys: dict[str, tuple[str, ...]] = field(default_factory=dict)
    named: dict[str, str] = field(default_factory=dict)
    retired: set[str] = field(default_factory=set)

    @classmethod
    def of(cls, game_map: GameMap, segs: Mapping[str, list[Segs]] | None = None) -> WorkingBoard:
        drawing = game_map.drawing
        return cls(
            base=game_map,
            provinces=dict(game_map.provinces),
            army={p: set(d) for p, d in game_map.army_moves.items()},
            fleet={p: set(d) for p, d in game_map.fleet_moves.items()},
            rings={p: list(r) for p, r in game_map.rings.items()},
            segs={p: list(s) for p, s in (segs or base_segs(game_map)).items()},
            origin={p: p for p in game_map.provinces},
            powers=dict(game_map.powers),
            labels=dict(drawing.labels),
            unit_points=dict(drawing.units),
            centre_points=dict(drawing.centres),
            aliases=dict(game_map.aliases),
            alias_keys=_keys_by_province(game_map.aliases),
        )

    def copy(self) -> WorkingBoard:
        return WorkingBoard(
            base=self.base, provinces=dict(self.provinces), army=dict(self.army),
            fleet=dict(self.fleet), rings=dict(self.rings), segs=dict(self.segs),
            origin=dict(self.origin), powers=dict(self.powers), labels=dict(self.labels),
            unit_points=dict(self.unit_points), centre_points=dict(self.centre_points),
            aliases=dict(self.aliases), lines=self.lines, parent=self.made,
            alias_keys=dict(self.alias_keys))

    # -- copy on write --------------------------------------------------------------

    def own_army(self, key: str) -> set[str]:
        """This board's own set of army moves from ``key``, to change."""
        if ("army", key) not in self.owned:
            self.army[key] = set(self.army.get(key, ()))
            self.owned.add(("army", key))
        return self.army[key]

    def own_fleet(self, key: str) -> set[str]:
        if ("fleet", key) not in self.owned:
            self.fleet[key] = set(self.fleet.get(key, ()))
            self.owned.add(("fleet", key))
        return self.fleet[key]

    def own_ring(self, key: str) -> tuple[list[str], list[Segs]]:
        """This board's own ring of ``key`` and its pieces, to change."""
        if ("ring", key) not in self.owned:
            self.rings[key] = list(self.rings[key])
            self.segs[key] = list(self.segs[key])
            self.owned.add(("ring", key))
        return self.rings[key], self.segs[key]

    def set_ring(self, key: str, ring: list[str], segs: list[Segs]) -> None:
        """A new province's ring, this board's own."""
        self.rings[key] = ring
        self.segs[key] = segs
        self.owned.add(("ring", key))

    def own_everything(self) -> None:
        """Make every table private (before a change that touches them all)."""
        for key in list(self.army):
            self.own_army(key)
        for key in list(self.fleet):
            self.own_fleet(key)
        for key in list(self.rings):
            self.own_ring(key)

    # -- questions ------------------------------------------------------------

    def is_water(self, code: str) -> bool:
        prov = self.provinces.get(code)
        return prov is not None and prov.terrain is Terrain.WATER

    def locations(self, code: str) -> tuple[str, ...]:
        prov = self.provinces[code]
        if prov.coasts:
            return tuple(f"{code}/{c}" for c in prov.coasts)
        return (code,)

    def point(self, code: str) -> Point | None:
        return self.labels.get(code)

    def mean_point(self, names: Iterable[str]) -> Point | None:
        points = [p for p in (self.labels.get(n) for n in names if n != EDGE) if p]
        if not points:
            return None
        return (sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points))

    def taken(self, code: str) -> bool:
        return code in self.provinces or normalise_name(code) in self.aliases

    def free_code(self, stem: str, name: str,
                  also: tuple[str, str] | None = None) -> tuple[str, str]:
        """``stem`` (``GAL-N``) and ``name``, with a digit added while taken
        (by the board, or by ``also``: the other part's, not made yet)."""
        code, full, number = stem, name, 1
        while self.taken(code) or self.taken(full) or (also is not None and code == also[0]):
            number += 1
            code, full = f"{stem}{number}", f"{name} {number}"
        return code, full

    # -- neighbours' entries ------------------------------------------------------

    def _entry_in(self, neighbour: str, mine: Segs) -> int:
        """Where ``neighbour``'s ring holds the entry that is ``mine`` seen
        from the other side (the same pieces in the other order and
        direction; compared as tuples)."""
        theirs = seen_from_other_side(mine)
        for k, segs in enumerate(self.segs[neighbour]):
            if segs == theirs:
                return k
        raise KeyError(f"{neighbour} has no entry {theirs}")

    def _replace_entry(self, neighbour: str, mine: Segs, new: list[tuple[str, Segs]],
                       collapse: bool = False) -> None:
        """Replace ``neighbour``'s entry matching ``mine`` by ``new`` entries
        given as (name, segs seen from MY side, in my ring's order)."""
        if neighbour == EDGE or neighbour not in self.rings:
            return
        k = self._entry_in(neighbour, mine)
        names = [n for n, _ in reversed(new)]
        segs = [seen_from_other_side(s) for _, s in reversed(new)]
        ring, pieces = self.own_ring(neighbour)
        ring[k:k + 1] = names
        pieces[k:k + 1] = segs
        if collapse:  # a merge: the neighbour may now name it twice in a row
            self._collapse(neighbour)

    def _rename_entry(self, neighbour: str, mine: Segs, name: str,
                      collapse: bool = False) -> None:
        """``neighbour``'s entry matching ``mine`` now names ``name`` (the same
        stretch of border, another province on this side)."""
        if neighbour == EDGE or neighbour not in self.rings:
            return
        k = self._entry_in(neighbour, mine)
        ring, _ = self.own_ring(neighbour)
        ring[k] = name
        if collapse:
            self._collapse(neighbour)

    def _collapse(self, code: str) -> None:
        """Join consecutive entries naming the same neighbour (the ring is cyclic)."""
        ring = self.rings[code]
        if len(ring) < 2 or all(ring[k] != ring[k - 1] for k in range(len(ring))):
            return  # the usual case, found without copying the ring
        ring, segs = self.own_ring(code)
        k = 0
        while len(ring) > 1 and k < len(ring):
            nxt = (k + 1) % len(ring)
            if ring[k] == ring[nxt]:
                joined = (*segs[k], *segs[nxt])
                if nxt == 0:
                    ring.pop(k)
                    segs.pop(k)
                    segs[0] = joined
                else:
                    ring.pop(nxt)
                    segs.pop(nxt)
                    segs[k] = joined
                continue
            k += 1

    # -- building the GameMap -----------------------------------------------------

    def game_map(self) -> GameMap:
        impassable = {c for c, p in self.provinces.items() if p.terrain is Terrain.IMPASSABLE}
        borders = {c: frozenset(n for n in self.rings.get(c, ()) if n in self.provinces)
                   for c in impassable if c in self.base.borders}
        drawing = self.base.drawing
        before = self.parent() if self.parent is not None else None
        mine: dict[str, set[str]] = {"army": set(), "fleet": set(), "ring": set()}
        for kind, key in self.owned:
            mine[kind].add(key)

        def frozen(kind: str, table: Mapping[str, set[str]],
                   earlier: Mapping[str, frozenset[str]]) -> dict[str, frozenset[str]]:
            # a key this board never made its own holds the set it was copied with
            own = mine[kind]
            return {p: earlier[p] if p not in own and p in earlier else frozenset(d)
                    for p, d in table.items()}

        own_rings = mine["ring"]
        earlier_rings = before.rings if before is not None else {}
        rings = {p: earlier_rings[p] if p not in own_rings and p in earlier_rings else tuple(r)
                 for p, r in self.rings.items()}

        made = replace(
            self.base,
            provinces=dict(self.provinces),
            army_moves=frozen("army", self.army, before.army_moves if before else {}),
            fleet_moves=frozen("fleet", self.fleet, before.fleet_moves if before else {}),
            aliases=self._live_aliases(before),
            rings=rings,
            powers=dict(self.powers),
            borders=borders or self.base.borders,
            drawing=Drawing(drawing.artwork, drawing.size, dict(self.unit_points),
                            dict(self.labels), dict(self.centre_points)),
        )
        self.made = weakref.ref(made)
        return made

    def _live_aliases(self, before: GameMap | None) -> dict[str, str]:
        """The names of the provinces on the board (gone ones' stay taken in
        ``aliases`` but are not names on the map)."""
        if before is None:
            provinces = self.provinces  # most names are of a province, a coast's of a location
            return {k: v for k, v in self.aliases.items()
                    if v in provinces or province_of(v) in provinces}
        live = dict(before.aliases)
        live.update(self.named)
        for code in self.retired:
            for key in self.alias_keys.get(code, ()):
                loc = live.get(key)
                if loc is not None and province_of(loc) == code:
                    del live[key]
        return live

    # -- renaming in place --------------------------------------------------------

    def retire(self, code: str) -> None:
        """Forget a province that is gone: its adjacencies, ring, aliases."""
        locations = self.locations(code)
        for loc in locations:
            for other in self.fleet.pop(loc, set()):
                if other in self.fleet:
                    self.own_fleet(other).discard(loc)
        for other in self.army.pop(code, set()):
            if other in self.army:
                self.own_army(other).discard(code)
        self.fleet.pop(code, None)
        del self.provinces[code]
        self.rings.pop(code, None)
        self.segs.pop(code, None)
        self.origin.pop(code, None)
        self.retired.add(code)
        # its aliases stay in ``aliases`` (so its names are not given again
        # within the phase) and are left out of the GameMap (game_map())
        for table in (self.labels, self.centre_points):
            table.pop(code, None)
        for loc in {code, *locations}:
            self.unit_points.pop(loc, None)

    def add_aliases(self, code: str, name: str) -> None:
        for spelling in (code, name):
            self.name(normalise_name(spelling), code)

    def name(self, key: str, location: str) -> None:
        """``key`` now names ``location``."""
        self.aliases[key] = location
        self.named[key] = location
        province = province_of(location)
        self.alias_keys[province] = (*self.alias_keys.get(province, ()), key)

    def move_centre(self, old: str, new_by_old: Mapping[str, str]) -> None:
        """Powers' home and starting centres follow a centre to its new province."""
        new = new_by_old.get(old)
        if new is None:
            return
        for name, power in self.powers.items():
            if old in power.home or old in power.centres:
                self.powers[name] = replace(
                    power, home=tuple(new if c == old else c for c in power.home),
                    centres=tuple(new if c == old else c for c in power.centres))

    def link_army(self, one: str, other: str) -> None:
        self.own_army(one).add(other)
        self.own_army(other).add(one)

    def link_fleet(self, one: str, other: str) -> None:
        self.own_fleet(one).add(other)
        self.own_fleet(other).add(one)


def _keys_by_province(aliases: Mapping[str, str]) -> dict[str, tuple[str, ...]]:
    keys: dict[str, list[str]] = {}
    for key, location in aliases.items():
        keys.setdefault(province_of(location), []).append(key)
    return {province: tuple(found) for province, found in keys.items()}
