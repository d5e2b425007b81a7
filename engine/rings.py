"""Each province's ring: what its border touches, in order, going round it
clockwise (its neighbours, ``EDGE`` for the board's edge, impassable land
such as Switzerland). Diplomap (issue 16) splits provinces, and a split
needs this order, which the adjacency lists do not keep. A variant that
has rings gives them in a ``[rings]`` table (the standard map's were
derived from its artwork by ``python -m judge.maps.rings``); these checks
hold them to the adjacency the game is played on, so that data drawn from
a picture can never disagree with the board (docs/variants.md, "What the
judge checks").
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from engine.map import Province, Terrain, province_of

Report = Callable[[tuple[str, ...], str | None, str], None]
EDGE = "EDGE"  # the board's edge: where the map ends, not a province


def neighbours(provinces: Mapping[str, Province], army: Mapping[str, set[str]],
               fleet: Mapping[str, set[str]], borders: Mapping[str, set[str]]
               ) -> dict[str, set[str]]:
    """Each province's neighbours on the board: army and fleet moves, with
    coasts folded to their province (a ring goes round the province, not
    its coasts), and the borders of impassable provinces, both ways."""
    found: dict[str, set[str]] = {code: set() for code in provinces}
    for code, dsts in army.items():
        found[code] |= {province_of(d) for d in dsts}
    for loc, dsts in fleet.items():
        found[province_of(loc)] |= {province_of(d) for d in dsts}
    for code, dsts in borders.items():
        for dst in dsts:
            found[code].add(dst)
            if dst in found:
                found[dst].add(code)
    return found


def read_rings(problem: Report, raw: Any, provinces: Mapping[str, Province]
               ) -> dict[str, tuple[str, ...]]:
    """The [rings] table as province -> ring; each malformed entry reported."""
    rings: dict[str, tuple[str, ...]] = {}
    if not isinstance(raw, dict):
        problem(("rings",), None, "[rings] must be a table of province = [codes]")
        return rings
    for code, ring in raw.items():
        if code not in provinces:
            problem(("rings",), code, f"ring for unknown province {code}")
            continue
        if not isinstance(ring, list) or not all(isinstance(n, str) for n in ring):
            problem(("rings",), code, f"ring of {code} must be a list of province codes")
            continue
        rings[code] = tuple(ring)
    return rings


def check_rings(problem: Report, raw: Any, provinces: Mapping[str, Province],
                army: Mapping[str, set[str]], fleet: Mapping[str, set[str]],
                borders: Mapping[str, set[str]]) -> dict[str, tuple[str, ...]]:
    """Every province has a ring naming exactly its neighbours (a corner
    touch is no border, so it is not named; two separate stretches along one
    neighbour name it twice), only known codes and EDGE, never the same
    thing twice in a row, and A names B as often as B names A. Returns the
    rings read."""
    rings = read_rings(problem, raw, provinces)
    adjacent = neighbours(provinces, army, fleet, borders)
    for code in provinces:
        if code not in rings and code not in (raw if isinstance(raw, dict) else {}):
            problem(("rings",), None, f"province {code} has no ring")
    for code, ring in rings.items():
        _check_one(problem, code, ring, provinces, adjacent[code])
    pairs = {tuple(sorted((code, other))) for code, ring in rings.items() for other in ring
             if other in rings and other != code}
    for first, second in sorted(pairs):
        there, back = rings[first].count(second), rings[second].count(first)
        if there != back:
            problem(("rings",), first,
                    f"ring of {first} names {second} {_times(there)} "
                    f"but ring of {second} names {first} {_times(back)}")
    return rings


def _check_one(problem: Report, code: str, ring: tuple[str, ...],
               provinces: Mapping[str, Province], adjacent: set[str]) -> None:
    if not ring:
        problem(("rings",), code, f"ring of {code} is empty")
        return
    for index, what in enumerate(ring):
        if what == code:
            problem(("rings",), code, f"ring of {code} names {code} itself")
        elif what != EDGE and what not in provinces:
            problem(("rings",), code, f"ring of {code} names unknown province {what}")
        # The ring is cyclic: its last entry is followed by its first.
        if len(ring) > 1 and what == ring[index - 1]:
            problem(("rings",), code, f"ring of {code} names {what} twice in a row")
    named = {w for w in ring if w in provinces and w != code}
    for missing in sorted(adjacent - named):
        problem(("rings",), code, f"ring of {code} leaves out its neighbour {missing}")
    for extra in sorted(named - adjacent):
        kind = provinces[extra].terrain
        what = "impassable " if kind is Terrain.IMPASSABLE else ""
        problem(("rings",), code,
                f"ring of {code} names {what}{extra}, which is not adjacent to {code}")


def _times(count: int) -> str:
    return {1: "once", 2: "twice"}.get(count, f"{count} times")
